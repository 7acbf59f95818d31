#!/usr/bin/env bash
# Branch and bound against its peers: installs cliquer (apt) and OR-tools (pip) when
# missing, builds the tool, then runs scripts/peers/bnb.py (max clique against cliquer,
# 0/1 knapsack against OR-tools' knapsack solver), writing results/peers-bnb.{csv,md}.
# Not part of CI or `cargo test`. Exits non-zero only when an optimum differs from a peer's.
cd "$(dirname "$0")/../.." || exit 1
if ! command -v cliquer >/dev/null; then
  echo "bnb: installing cliquer with apt-get"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cliquer) >/dev/null 2>&1 \
    || echo "bnb: could not install cliquer: it will be listed as not run"
fi
if ! python3 -c "import ortools" 2>/dev/null; then
  echo "bnb: installing ortools with pip"
  python3 -m pip install -q ortools >/dev/null 2>&1 || echo "bnb: could not install ortools: it will be listed as not run"
fi
cargo build --release -q || { echo "bnb: cannot build the tool"; exit 1; }
exec python3 scripts/peers/bnb.py "$@"
