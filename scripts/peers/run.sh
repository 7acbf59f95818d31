#!/usr/bin/env bash
# Peers side by side: installs MiniZinc + Gecode (apt) and OR-tools (pip) when missing, then
# runs scripts/peers/peers.py. Not part of CI or `cargo test`. Always exits 0.
cd "$(dirname "$0")/../.." || exit 0
if ! command -v fzn-gecode >/dev/null || ! command -v minizinc >/dev/null; then
  echo "peers: installing minizinc and libgecodeflatzinc49 with apt-get"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq minizinc libgecodeflatzinc49) >/dev/null 2>&1 \
    || echo "peers: could not install minizinc/gecode: Gecode will be listed as not run"
fi
if ! python3 -c "import ortools" 2>/dev/null; then
  echo "peers: installing ortools with pip"
  python3 -m pip install -q ortools >/dev/null 2>&1 || echo "peers: could not install ortools: CP-SAT will be listed as not run"
fi
[ -x target/release/backtrack-bench ] || cargo build --release -q || { echo "peers: cannot build the tool"; exit 0; }
python3 scripts/peers/peers.py "$@" || true
exit 0
