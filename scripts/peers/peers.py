"""Runs backtrack-bench and independent solvers (Gecode through MiniZinc, OR-tools CP-SAT)
on the same instances, interleaved, and writes results/peers.csv and results/peers.md.

A peer's time is used only when its solution count equals ours. Never fails: a peer that
cannot run is listed with the reason. Usage: scripts/peers/run.sh [--repeats N] [--timeout S]
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

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
INSTANCES = [
    ("seed-247", "instances/twenty_four_seven_2x2_2.json", "twenty_four_seven"),
    ("247-enumeration", "instances/twenty_four_seven_enumeration.json", "twenty_four_seven"),
    ("hooks7", "instances/hooks_7.json", "hooks"),
    ("hooks-enumeration", "instances/hooks_enumeration.json", "hooks"),
]


def arr(values):
    return "[" + ",".join(str(v) for v in values) + "]"


def dzn_files(kind, data, folder):
    """One .dzn per independent grid (Twenty Four Seven) or one for the whole instance."""
    n = data["size"]
    if kind == "hooks":
        rm = [v + 1 for row in data["region_map"] for v in row]
        gv = [x for g in data["givens"] for x in (g["r"] + 1, g["c"] + 1, g["v"])]
        text = (f"n={n};regions={max(rm)};region_map=array2d(1..{n},1..{n},{arr(rm)});"
                f"region_sum={data.get('region_sum') or 0};given_count={len(data['givens'])};"
                f"given=array2d(1..{len(data['givens'])},1..3,{arr(gv)});\n")
        texts = [text]
    else:
        texts = []
        for g in data["grids"]:
            side = lambda key: arr(g.get(key) or [0] * n)
            texts.append(f"n={n};line_filled={data['line_filled']};line_sum={data['line_sum']};m={data['max_value']};"
                         f"givens=array2d(1..{n},1..{n},{arr(sum(g['givens'], []))});"
                         f"north={side('north')};south={side('south')};west={side('west')};east={side('east')};\n")
    paths = []
    for index, text in enumerate(texts):
        path = os.path.join(folder, f"{kind}_{index}.dzn")
        with open(path, "w") as out:
            out.write(text)
        paths.append(path)
    return paths


def run_tool(binary, path, threads, timeout):
    args = [binary, "solve", path, "--all", "--json", "--no-rule-counts"]
    args += ["--parallel", "steal", "--threads", "2"] if threads == 2 else ["--parallel", "sequential"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=True).stdout
    report = json.loads(out)
    return {"seconds": report["elapsed_ns"] / 1e9, "nodes": report["nodes"],
            "per_part": [c["solutions"] for c in report["components"]]}


def run_gecode(fzn_paths, threads, timeout):
    seconds, nodes, counts = 0.0, 0, []
    for fzn in fzn_paths:
        args = ["fzn-gecode", "-a", "-s"] + (["-p", str(threads)] if threads > 1 else []) + [fzn]
        out = subprocess.run(args, capture_output=True, text=True, timeout=timeout).stdout
        stat = dict(re.findall(r"%%%mzn-stat: (\w+)=([\d.]+)", out))
        seconds += float(stat["solveTime"])
        nodes += int(stat["nodes"])
        counts.append(int(stat["solutions"]))
    return {"seconds": seconds, "nodes": nodes, "per_part": counts}


def run_cpsat(kind, path, parts, workers, timeout):
    seconds, nodes, counts = 0.0, 0, []
    for index in range(parts):
        args = [sys.executable, os.path.join(HERE, "cpsat_models.py"), kind, path, str(index), str(workers)]
        out = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=True).stdout
        result = json.loads(out.strip().splitlines()[-1])
        seconds += result["seconds"]
        nodes += result["branches"]
        counts.append(result["solutions"])
    return {"seconds": seconds, "nodes": nodes, "per_part": counts}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--timeout", type=int, default=300, help="seconds per peer run of one grid")
    parser.add_argument("--binary", default=os.path.join(ROOT, "target/release/backtrack-bench"))
    parser.add_argument("--out", default=os.path.join(ROOT, "results"))
    parser.add_argument("--only", default="", help="comma-separated instance names")
    args = parser.parse_args()
    chosen = [i for i in INSTANCES if not args.only or i[0] in args.only.split(",")]
    skipped = {}
    have_gecode = shutil.which("minizinc") and shutil.which("fzn-gecode")
    if not have_gecode:
        skipped["gecode"] = "minizinc or fzn-gecode not installed (apt-get install minizinc libgecodeflatzinc49)"
    try:
        import ortools  # noqa: F401
        have_cpsat = True
    except ImportError:
        have_cpsat = False
        skipped["cp-sat"] = "python package ortools not installed (pip install ortools)"
    rows, compile_seconds = [], {}
    folder = tempfile.mkdtemp(prefix="peers-")
    fzn = {}
    for name, rel, kind in chosen:
        data = json.load(open(os.path.join(ROOT, rel)))["data"]
        paths = dzn_files(kind, data, folder)
        if have_gecode:
            start, outs = time.perf_counter(), []
            try:
                for index, dzn in enumerate(paths):
                    target = os.path.join(folder, f"{name}_{index}.fzn")
                    subprocess.run(["minizinc", "-c", "-G", "std", os.path.join(HERE, f"{kind}.mzn"), dzn, "--fzn", target],
                                   capture_output=True, text=True, timeout=args.timeout, check=True)
                    outs.append(target)
                fzn[name] = outs
                compile_seconds[name] = time.perf_counter() - start
            except (subprocess.SubprocessError, OSError) as error:
                skipped[f"gecode on {name}"] = f"MiniZinc compile failed: {str(error)[:200]}"
    solvers = [("backtrack-bench", 1), ("backtrack-bench", 2)]
    if have_gecode:
        solvers += [("gecode", 1), ("gecode", 2)]
    if have_cpsat:
        solvers += [("cp-sat", 1), ("cp-sat", 2)]
    ours = {}
    for run in range(1, args.repeats + 1):
        for name, rel, kind in chosen:
            path = os.path.join(ROOT, rel)
            for solver, threads in solvers:  # interleaved: every solver once per round
                key = f"{solver} x{threads} on {name}"
                if key in skipped:
                    continue
                try:
                    if solver == "backtrack-bench":
                        result = run_tool(args.binary, path, threads, args.timeout)
                        ours[name] = result["per_part"]
                    elif solver == "gecode":
                        if name not in fzn:
                            continue
                        result = run_gecode(fzn[name], threads, args.timeout)
                    else:
                        result = run_cpsat(kind, path, len(dzn_files(kind, json.load(open(path))["data"], folder)), threads,
                                           args.timeout)
                except subprocess.TimeoutExpired:
                    skipped[key] = f"over the {args.timeout} s limit per grid"
                    continue
                except (subprocess.SubprocessError, OSError, ValueError, KeyError) as error:
                    skipped[key] = f"failed: {str(error)[:200]}"
                    continue
                if solver != "backtrack-bench" and result["per_part"] != ours.get(name):
                    skipped[key] = f"solution counts {result['per_part']} differ from ours {ours.get(name)}: time not used"
                    continue
                solutions = 1
                for count in result["per_part"]:
                    solutions *= count
                rows.append({"instance": name, "solver": solver, "threads": threads, "run": run,
                             "seconds": f"{result['seconds']:.6f}", "nodes": result["nodes"], "solutions": solutions})
                print(f"run {run} {key}: {result['seconds']:.4f} s, {result['nodes']} nodes, {solutions} solutions", flush=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "peers.csv"), "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=["instance", "solver", "threads", "run", "seconds", "nodes", "solutions"])
        writer.writeheader()
        writer.writerows(rows)
    lines = ["# Peers: backtrack-bench against Gecode and CP-SAT", "",
             f"All solutions; medians of {args.repeats} interleaved run(s); search time only (Gecode: `solveTime` of "
             "`fzn-gecode` on a FlatZinc compiled beforehand; CP-SAT: the solver's wall time; ours: the in-process "
             "search time). A Twenty Four Seven instance of several grids is solved one grid per peer run, times "
             "and nodes added up. Ratio = peer time / our time at the same thread count.", "",
             "| instance | solver | threads | median s | ratio | nodes | solutions |", "|---|---|---|---|---|---|---|"]
    medians = {}
    for row in rows:
        medians.setdefault((row["instance"], row["solver"], row["threads"]), []).append(row)
    for (name, solver, threads), group in medians.items():
        median = statistics.median(float(r["seconds"]) for r in group)
        mine = medians.get((name, "backtrack-bench", threads))
        base = statistics.median(float(r["seconds"]) for r in mine) if mine else None
        ratio = f"{median / base:.1f}" if base else "-"
        lines.append(f"| {name} | {solver} | {threads} | {median:.4f} | {ratio} | {group[0]['nodes']:,} | {group[0]['solutions']:,} |")
    if compile_seconds:
        lines += ["", "MiniZinc compile time (not in the table): " +
                  ", ".join(f"{name} {seconds:.2f} s" for name, seconds in compile_seconds.items())]
    lines += ["", "## Not run", ""] + ([f"- {key}: {why}" for key, why in skipped.items()] or ["- none"])
    with open(os.path.join(args.out, "peers.md"), "w") as out:
        out.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the script never fails the job that calls it
        print(f"peers: stopped early: {error}")
    sys.exit(0)
