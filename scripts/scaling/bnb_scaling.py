#!/usr/bin/env python3
"""Branch and bound at 1, 2, 4, 8 and 16 threads: speedup, search overhead and repeatability.

    bnb_scaling.py [--binary PATH] [--threads 1,2,4,8,16] [--repeats 3] [--out FILE.csv]
                   WORKLOAD...

A WORKLOAD is an instance the tool reads (a `.clq` graph, a knapsack JSON file). Each is
run sequentially and with `steal`, `auto` and `replicable` at every thread count, REPEATS
times each, in rounds (every configuration once per round, so that a drifting machine
touches each alike), with `solve --best --json`. One CSV row per run: the workload, the
strategy, the threads, the round, the wall time of the search, its nodes, the best value
and whether it was proven. Every run must prove the same best value (exit 1 otherwise),
and `replicable`'s node counts must be equal within each thread count (exit 1 otherwise).
Standard library only.
"""

import argparse
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def solve(binary, workload, strategy, threads):
    command = [binary, "solve", workload, "--best", "--json", "--no-rule-counts"]
    if strategy != "sequential":
        command += ["--parallel", strategy, "--threads", str(threads)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"bnb_scaling: {' '.join(command)} failed ({done.returncode}): {done.stderr[-500:]}")
    report = json.loads(done.stdout)
    objective = report["objective"]
    return report["elapsed_ns"], report["nodes"], objective["best"], objective["proven"], objective["time_to_best_ns"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workloads", nargs="+")
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "backtrack-bench"))
    parser.add_argument("--threads", default="1,2,4,8,16")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--strategies", default="steal,auto,replicable")
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "scaling", "bnb-scaling.csv"))
    args = parser.parse_args()
    thread_counts = [int(count) for count in args.threads.split(",")]
    configurations = [("sequential", 1)] + [
        (strategy, threads) for strategy in args.strategies.split(",") for threads in thread_counts
    ]
    rows = []
    failures = []
    for workload in args.workloads:
        name = os.path.splitext(os.path.basename(workload))[0]
        for repeat in range(args.repeats):
            for strategy, threads in configurations:
                wall_ns, nodes, best, proven, to_best = solve(args.binary, workload, strategy, threads)
                rows.append({
                    "workload": name, "strategy": strategy, "threads": threads, "round": repeat,
                    "wall_ns": wall_ns, "nodes": nodes, "best": best, "proven": proven, "time_to_best_ns": to_best,
                })
                print(",".join(str(value) for value in rows[-1].values()), flush=True)
        mine = [row for row in rows if row["workload"] == name]
        if len({row["best"] for row in mine}) != 1 or not all(row["proven"] for row in mine):
            failures.append(f"{name}: the runs proved different best values")
        for threads in thread_counts:
            counts = {row["nodes"] for row in mine if row["strategy"] == "replicable" and row["threads"] == threads}
            if len(counts) > 1:
                failures.append(f"{name}: replicable at {threads} threads counted {sorted(counts)} nodes")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    temporary = args.out + ".tmp"
    with open(temporary, "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    os.replace(temporary, args.out)
    for failure in failures:
        print(f"bnb_scaling: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
