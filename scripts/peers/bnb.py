#!/usr/bin/env python3
"""Branch and bound against its peers: maximum clique against cliquer, 0/1 knapsack
against OR-tools' knapsack solver. Called by scripts/peers/bnb.sh, which installs them.

    bnb.py [--quick] [--rounds R] [--out results]

Graphs are G(n, p) drawn by scripts/graphs/gnp.py (a seed names one graph); knapsack
instances are Pisinger's classes drawn by scripts/knapsack/generate.py. Each solver runs as
a whole process (its start included), R rounds alternating (peer, ours, peer, ours, ...),
and the median wall time is kept. A run is checked: our proven optimum must equal the
peer's. Writes OUT/peers-bnb.csv (one row per instance and solver) and OUT/peers-bnb.md
(the table the README quotes). Standard library only, besides the peers themselves.
"""

import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "target", "release", "backtrack-bench")

# (n, p, seed): from easy to about ten seconds of cliquer on a 2-core VM.
GRAPHS = [
    (150, 0.3, 1), (200, 0.5, 1), (300, 0.5, 1), (500, 0.3, 1), (500, 0.5, 1),
    (150, 0.9, 1), (200, 0.75, 1), (400, 0.6, 1), (300, 0.7, 1),
]
QUICK_GRAPHS = [(150, 0.3, 1), (200, 0.5, 1), (150, 0.9, 1)]
# (kind, n, R, seed)
KNAPSACKS = [
    ("uncorrelated", 1000, 10000, 1), ("weakly-correlated", 1000, 10000, 1),
    ("inverse-strongly-correlated", 60, 1000, 1), ("subset-sum", 1000, 10000, 1),
    ("strongly-correlated", 80, 1000, 1), ("strongly-correlated", 80, 10000, 1),
]
QUICK_KNAPSACKS = [("uncorrelated", 200, 1000, 1), ("strongly-correlated", 40, 1000, 1)]
TIME_LIMIT_S = 120


def timed(command):
    """(wall seconds, stdout) of one run of `command`; None on failure or time-out."""
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIME_LIMIT_S)
    except subprocess.TimeoutExpired:
        return None
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.stderr.write(f"bnb: {' '.join(command)} failed ({done.returncode}): {done.stderr[-400:]}\n")
        return None
    return wall, done.stdout


def ours(path, threads):
    command = [TOOL, "solve", path, "--best", "--json"]
    if threads > 1:
        command += ["--parallel", "steal", "--threads", str(threads)]
    result = timed(command)
    if result is None:
        return None
    wall, out = result
    report = json.loads(out)
    objective = report["objective"]
    assert objective["proven"], f"{path}: not proven"
    return wall, objective["best"], report["nodes"]


def cliquer(path):
    result = timed(["cliquer", "-u", "-q", "-q", path])
    if result is None:
        return None
    wall, out = result
    size = re.search(r"size=(\d+)", out)
    return wall, int(size.group(1)), None


ORTOOLS_SNIPPET = """
import json, sys
from ortools.algorithms.python import knapsack_solver
data = json.load(open(sys.argv[1]))["data"]
values = [item[0] for item in data["items"]]
weights = [[item[1] for item in data["items"]]]
solver = knapsack_solver.KnapsackSolver(
    knapsack_solver.SolverType.KNAPSACK_MULTIDIMENSION_BRANCH_AND_BOUND_SOLVER, "bnb")
solver.init(values, weights, [data["capacity"]])
print(solver.solve())
"""


def run_ortools(path):
    result = timed([sys.executable, "-c", ORTOOLS_SNIPPET, path])
    if result is None:
        return None
    wall, out = result
    return wall, int(out.strip().splitlines()[-1]), None


def median_of(rounds, run):
    """Median wall and the (value, nodes) of the runs of `run` over `rounds`; None if any failed."""
    walls, value, nodes = [], None, None
    for _ in range(rounds):
        result = run()
        if result is None:
            return None
        walls.append(result[0])
        value, nodes = result[1], result[2]
    return statistics.median(walls), value, nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="three graphs and two knapsacks (a smoke test)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each solver per instance (median kept)")
    parser.add_argument("--out", default=os.path.join(ROOT, "results"), help="folder for peers-bnb.csv and .md")
    parser.add_argument("--families", default="max clique,knapsack",
                        help="which to run (comma-separated); the other families' rows of an earlier CSV are kept")
    args = parser.parse_args()
    if not os.path.exists(TOOL):
        sys.exit(f"bnb: build the tool first ({TOOL} is missing)")
    work = tempfile.mkdtemp(prefix="bnb-peers-")
    chosen = set(args.families.split(","))
    rows = kept_rows(args.out, chosen)
    try:
        have_cliquer = shutil.which("cliquer") is not None
        for n, p, seed in (QUICK_GRAPHS if args.quick else GRAPHS) if "max clique" in chosen else []:
            path = os.path.join(work, f"gnp_{n}_{p}_{seed}.clq")
            with open(path, "w") as file:
                subprocess.run([sys.executable, os.path.join(ROOT, "scripts/graphs/gnp.py"), str(n), str(p), str(seed)],
                               stdout=file, check=True)
            instance = f"G({n},{p}) seed {seed}"
            peer = median_of(args.rounds, lambda: cliquer(path)) if have_cliquer else None
            mine = median_of(args.rounds, lambda: ours(path, 1))
            rows.append(row("max clique", instance, "cliquer", peer, mine))
            print(rows[-1], flush=True)
        try:
            import ortools  # noqa: F401
            have_ortools = True
        except ImportError:
            have_ortools = False
        for kind, n, r, seed in (QUICK_KNAPSACKS if args.quick else KNAPSACKS) if "knapsack" in chosen else []:
            path = os.path.join(work, f"{kind}_{n}_{r}_{seed}.json")
            with open(path, "w") as file:
                subprocess.run([sys.executable, os.path.join(ROOT, "scripts/knapsack/generate.py"), kind, str(n), str(r),
                                str(seed)], stdout=file, check=True)
            instance = f"{kind} n={n} R={r} seed {seed}"
            peer = median_of(args.rounds, lambda: run_ortools(path)) if have_ortools else None
            mine = median_of(args.rounds, lambda: ours(path, 1))
            rows.append(row("knapsack", instance, "OR-tools knapsack", peer, mine))
            print(rows[-1], flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    write(args.out, rows)


def kept_rows(out, chosen):
    """The rows of an earlier peers-bnb.csv whose family is not run now."""
    path = os.path.join(out, "peers-bnb.csv")
    if not os.path.exists(path):
        return []
    kept = []
    with open(path, newline="") as file:
        for old in csv.DictReader(file):
            if old["family"] in chosen:
                continue
            for key in ("peer_s", "ours_s", "ratio"):
                old[key] = float(old[key]) if old[key] else None
            for key in ("peer_value", "ours_value", "ours_nodes"):
                old[key] = int(old[key]) if old[key] else None
            old["same_optimum"] = {"True": True, "False": False}.get(old["same_optimum"])
            kept.append(old)
    return kept


def row(family, instance, peer_name, peer, mine):
    peer_s, peer_value = (peer[0], peer[1]) if peer else (None, None)
    our_s, our_value, our_nodes = mine if mine else (None, None, None)
    agree = None if peer is None or mine is None else peer_value == our_value
    return {
        "family": family, "instance": instance, "peer": peer_name,
        "peer_s": peer_s, "peer_value": peer_value,
        "ours_s": our_s, "ours_value": our_value, "ours_nodes": our_nodes,
        "same_optimum": agree,
        "ratio": (peer_s / our_s) if peer_s and our_s else None,
    }


def write(out, rows):
    os.makedirs(out, exist_ok=True)
    columns = list(rows[0].keys()) if rows else []
    with open(os.path.join(out, "peers-bnb.csv.tmp"), "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(os.path.join(out, "peers-bnb.csv.tmp"), os.path.join(out, "peers-bnb.csv"))
    text = ["| family | instance | peer | peer time | our time | optimum (peer / ours) | peer / ours |",
            "|---|---|---|---:|---:|---|---:|"]
    def seconds(value):
        return "not run" if value is None else f"{value:.3f} s"

    for r in rows:
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.1f}x"
        text.append(f"| {r['family']} | {r['instance']} | {r['peer']} | {seconds(r['peer_s'])} | "
                    f"{seconds(r['ours_s'])} | {r['peer_value']} / {r['ours_value']} | {ratio} |")
    with open(os.path.join(out, "peers-bnb.md.tmp"), "w") as file:
        file.write("\n".join(text) + "\n")
    os.replace(os.path.join(out, "peers-bnb.md.tmp"), os.path.join(out, "peers-bnb.md"))
    if any(r["same_optimum"] is False for r in rows):
        sys.exit("bnb: an optimum differs from the peer's (see peers-bnb.csv)")


if __name__ == "__main__":
    main()
