#!/usr/bin/env bash
# Regenerates the measured examples of docs/why-slower.md: one `explain` report (Markdown +
# SVG) per example in results/explain/. Run it on a quiet machine. Each explain repeats its
# rounds until the explained run's median is known within ±3%; REPEATS=R fixes R rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bench=target/release/backtrack-bench
explain() {
    if [[ -n "${REPEATS:-}" ]]; then
        "$bench" explain "$@" --repeats "$REPEATS"
    else
        "$bench" explain "$@"
    fi
}

# The seed's story: the prime-grid brute force through a .race()-like strategy, then the
# same work with the good strategies.
explain prime-grid --mode brute --parallel naive --threads 2
explain prime-grid --mode brute --parallel auto --threads 2
explain prime-grid --mode brute --parallel steal --threads 2
# More threads than CPUs (oversubscription) on the same work.
explain prime-grid --mode brute --parallel steal --threads "$(( $(nproc) * 2 ))"
# Hooks #7 with the knobs before `tightest-hook`, `joint` and `single-child` (a 32,527-node
# tree; the defaults solve it in 349 nodes, too few to share out).
earlier_hooks=(--order most-constrained --rules derived --forced try-both)
# First-solution anomalies: 2 threads after more nodes than 1 thread (depth:2), and a
# report whose runs table shows the 1-thread and 2-thread node counts side by side.
explain hooks7 "${earlier_hooks[@]}" --first --parallel depth:2 --threads 2
# A longer exhaustive search where the good strategies have room to scale.
explain hooks7 "${earlier_hooks[@]}" --parallel steal --threads 2
