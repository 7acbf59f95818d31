"""OR-tools CP-SAT models of Twenty Four Seven (one grid) and Hooks, counting all solutions.

Run as: python3 cpsat_models.py twenty_four_seven|hooks INSTANCE.json GRID_INDEX WORKERS
Prints one JSON line: solutions, seconds (the solver's own wall time), branches.
The same rules as the MiniZinc models beside this file, written for CP-SAT.
"""
import json
import sys

from ortools.sat.python import cp_model


def connected(model, n, f):
    """Filled cells connected: BFS distance from the first filled cell (row-major), each a
    function of the grid, so every grid is one assignment."""
    far = n * n
    d = {}
    for i in range(n):
        for j in range(n):
            d[i, j] = model.NewIntVar(0, far, f"d{i}_{j}")
    for i in range(n):
        for j in range(n):
            earlier = [f[a, b] for a in range(n) for b in range(n) if a * n + b < i * n + j]
            root = model.NewBoolVar(f"root{i}_{j}")
            model.AddBoolAnd([f[i, j]] + [e.Not() for e in earlier]).OnlyEnforceIf(root)
            model.AddBoolOr([f[i, j].Not()] + earlier).OnlyEnforceIf(root.Not())
            model.Add(d[i, j] == 0).OnlyEnforceIf(root)
            model.Add(d[i, j] == far).OnlyEnforceIf(f[i, j].Not())
            terms = []
            for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                if 0 <= a < n and 0 <= b < n:
                    t = model.NewIntVar(0, far, f"t{i}_{j}_{a}_{b}")
                    model.Add(t == d[a, b]).OnlyEnforceIf(f[a, b])
                    model.Add(t == far).OnlyEnforceIf(f[a, b].Not())
                    terms.append(t)
            least = model.NewIntVar(0, far, f"m{i}_{j}")
            model.AddMinEquality(least, terms)
            inner = model.NewBoolVar(f"in{i}_{j}")
            model.AddBoolAnd([f[i, j], root.Not()]).OnlyEnforceIf(inner)
            model.AddBoolOr([f[i, j].Not(), root]).OnlyEnforceIf(inner.Not())
            model.Add(d[i, j] == least + 1).OnlyEnforceIf(inner)
            model.Add(d[i, j] < far).OnlyEnforceIf(f[i, j])


def no_full_block(model, n, f):
    for i in range(n - 1):
        for j in range(n - 1):
            model.AddBoolOr([f[i, j].Not(), f[i + 1, j].Not(), f[i, j + 1].Not(), f[i + 1, j + 1].Not()])


def twenty_four_seven(data, grid):
    n, m = data["size"], data["max_value"]
    model = cp_model.CpModel()
    x = {(i, j): model.NewIntVar(0, m, f"x{i}_{j}") for i in range(n) for j in range(n)}
    f = {(i, j): model.NewBoolVar(f"f{i}_{j}") for i in range(n) for j in range(n)}
    is_k = {}
    for (i, j), v in x.items():
        model.Add(v >= 1).OnlyEnforceIf(f[i, j])
        model.Add(v == 0).OnlyEnforceIf(f[i, j].Not())
        for k in range(1, m + 1):
            is_k[i, j, k] = model.NewBoolVar("")
            model.Add(v == k).OnlyEnforceIf(is_k[i, j, k])
            model.Add(v != k).OnlyEnforceIf(is_k[i, j, k].Not())
        given = grid["givens"][i][j]
        if given:
            model.Add(v == given)
    for k in range(1, m + 1):
        model.Add(sum(is_k[i, j, k] for i in range(n) for j in range(n)) == k)
    for a in range(n):
        model.Add(sum(f[a, b] for b in range(n)) == data["line_filled"])
        model.Add(sum(f[b, a] for b in range(n)) == data["line_filled"])
        model.Add(sum(x[a, b] for b in range(n)) == data["line_sum"])
        model.Add(sum(x[b, a] for b in range(n)) == data["line_sum"])
    no_full_block(model, n, f)
    sides = {
        "north": lambda line, t: (t, line),
        "south": lambda line, t: (n - 1 - t, line),
        "west": lambda line, t: (line, t),
        "east": lambda line, t: (line, n - 1 - t),
    }
    for side, cell in sides.items():
        for line, clue in enumerate(grid.get(side) or []):
            if clue:
                firsts = []
                for t in range(n):
                    first = model.NewBoolVar("")
                    model.AddBoolAnd([is_k[cell(line, t) + (clue,)]] + [f[cell(line, s)].Not() for s in range(t)]).OnlyEnforceIf(first)
                    firsts.append(first)
                model.AddBoolOr(firsts)
    connected(model, n, f)
    model.AddDecisionStrategy([f[c] for c in sorted(f)], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    return model


def hooks(data, _grid):
    n = data["size"]
    region_map = data["region_map"]
    model = cp_model.CpModel()
    corner = {k: model.NewIntVar(0, 3, f"corner{k}") for k in range(2, n + 1)}
    top = {n: 0}
    left = {n: 0}
    for k in range(n, 1, -1):
        top[k - 1] = model.NewIntVar(0, n - 1, f"top{k - 1}")
        left[k - 1] = model.NewIntVar(0, n - 1, f"left{k - 1}")
        down = model.NewBoolVar("")
        right = model.NewBoolVar("")
        model.Add(corner[k] == 2 * down + right)
        model.Add(top[k - 1] == top[k] + down)
        model.Add(left[k - 1] == left[k] + right)
    inside = {}
    for k in range(1, n + 1):
        for i in range(n):
            for j in range(n):
                b = model.NewBoolVar("")
                conds = []
                for expr, lo in ((top[k], i - k + 1), (left[k], j - k + 1)):
                    c1 = model.NewBoolVar("")
                    model.Add(expr <= (i if expr is top[k] else j)).OnlyEnforceIf(c1)
                    model.Add(expr > (i if expr is top[k] else j)).OnlyEnforceIf(c1.Not())
                    c2 = model.NewBoolVar("")
                    model.Add(expr >= lo).OnlyEnforceIf(c2)
                    model.Add(expr < lo).OnlyEnforceIf(c2.Not())
                    conds += [c1, c2]
                model.AddBoolAnd(conds).OnlyEnforceIf(b)
                model.AddBoolOr([c.Not() for c in conds]).OnlyEnforceIf(b.Not())
                inside[k, i, j] = b
    hook = {}
    for k in range(1, n + 1):
        for i in range(n):
            for j in range(n):
                h = model.NewBoolVar("")
                parts = [inside[k, i, j]] + ([inside[k - 1, i, j].Not()] if k > 1 else [])
                model.AddBoolAnd(parts).OnlyEnforceIf(h)
                model.AddBoolOr([p.Not() for p in parts]).OnlyEnforceIf(h.Not())
                hook[k, i, j] = h
    f = {(i, j): model.NewBoolVar(f"f{i}_{j}") for i in range(n) for j in range(n)}
    digit = {}
    for k in range(1, n + 1):
        for i in range(n):
            for j in range(n):
                digit[k, i, j] = model.NewBoolVar("")
                model.AddBoolAnd([hook[k, i, j], f[i, j]]).OnlyEnforceIf(digit[k, i, j])
                model.AddBoolOr([hook[k, i, j].Not(), f[i, j].Not()]).OnlyEnforceIf(digit[k, i, j].Not())
        model.Add(sum(digit[k, i, j] for i in range(n) for j in range(n)) == k)
    for g in data["givens"]:
        i, j, v = g["r"], g["c"], g["v"]
        if v:
            model.AddBoolAnd([digit[v, i, j]])
        else:
            model.AddBoolAnd([f[i, j].Not()])
    no_full_block(model, n, f)
    regions = max(max(row) for row in region_map) + 1
    s = model.NewIntVar(0, n * n * n, "s")
    if data.get("region_sum"):
        model.Add(s == data["region_sum"])
    for r in range(regions):
        cells = [(i, j) for i in range(n) for j in range(n) if region_map[i][j] == r]
        model.Add(sum(k * digit[k, i, j] for (i, j) in cells for k in range(1, n + 1)) == s)
    connected(model, n, f)
    model.AddDecisionStrategy([corner[k] for k in range(n, 1, -1)], cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    return model


class Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self):
        super().__init__()
        self.count = 0

    def on_solution_callback(self):
        self.count += 1


def main():
    kind, path, index, workers = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    data = json.load(open(path))["data"]
    grid = data["grids"][index] if kind == "twenty_four_seven" else None
    model = (twenty_four_seven if kind == "twenty_four_seven" else hooks)(data, grid)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = workers
    counter = Counter()
    status = solver.Solve(model, counter)
    print(json.dumps({"solutions": counter.count, "seconds": solver.WallTime(), "branches": solver.NumBranches(),
                      "status": solver.StatusName(status)}))


if __name__ == "__main__":
    main()
