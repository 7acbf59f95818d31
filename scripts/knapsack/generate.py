#!/usr/bin/env python3
"""Deterministic 0/1 knapsack instances of Pisinger's classes, as puzzle-instance/v1 JSON.

    generate.py KIND N R SEED > file.json

KIND is one of the classes of D. Pisinger, "Where are the hard knapsack problems?",
Computers & Operations Research 32 (2005), with weights w and values p:

  uncorrelated                 w, p uniform in [1, R]
  weakly-correlated            w uniform in [1, R], p uniform in [max(1, w - R/10), w + R/10]
  strongly-correlated          w uniform in [1, R], p = w + R/10
  inverse-strongly-correlated  p uniform in [1, R], w = p + R/10
  subset-sum                   w uniform in [1, R], p = w

(R/10 rounded down.) The capacity is half the total weight, rounded down. The random
numbers come from SplitMix64 seeded with SEED, each draw reduced modulo the range (the bias
is below R / 2^64), so that the same arguments give the same file with any Python 3 and
the Rust tests can make the same items (src/puzzles/knapsack/tests.rs mirrors this).
When N * capacity is at most 20,000,000 the optimum is computed by dynamic programming and
written under "expected"; otherwise "expected" says it was not computed.
Standard library only.
"""

import json
import sys

KINDS = [
    "uncorrelated",
    "weakly-correlated",
    "strongly-correlated",
    "inverse-strongly-correlated",
    "subset-sum",
]
MASK = (1 << 64) - 1
DP_LIMIT = 20_000_000


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64: small, fast, and the same in every language."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self, low, high):
        """An integer in [low, high]."""
        return low + self.next() % (high - low + 1)


def items_of(kind, n, r, seed):
    """The [value, weight] pairs of the instance, in file order."""
    rng = SplitMix64(seed)
    tenth = r // 10
    items = []
    for _ in range(n):
        if kind == "uncorrelated":
            weight = rng.uniform(1, r)
            value = rng.uniform(1, r)
        elif kind == "weakly-correlated":
            weight = rng.uniform(1, r)
            value = rng.uniform(max(1, weight - tenth), weight + tenth)
        elif kind == "strongly-correlated":
            weight = rng.uniform(1, r)
            value = weight + tenth
        elif kind == "inverse-strongly-correlated":
            value = rng.uniform(1, r)
            weight = value + tenth
        else:  # subset-sum
            weight = rng.uniform(1, r)
            value = weight
        items.append([value, weight])
    return items


def optimum(capacity, items):
    """The best value by dynamic programming over the capacity (O(n * capacity))."""
    best = [0] * (capacity + 1)
    for value, weight in items:
        for room in range(capacity, weight - 1, -1):
            candidate = best[room - weight] + value
            if candidate > best[room]:
                best[room] = candidate
    return best[capacity]


def main(arguments):
    if len(arguments) != 4 or arguments[0] not in KINDS:
        sys.exit(f"usage: generate.py KIND N R SEED  (KIND: {', '.join(KINDS)})")
    kind = arguments[0]
    n, r, seed = (int(text) for text in arguments[1:])
    if not 0 <= n <= 10_000 or r < 1 or seed < 0:
        sys.exit("N must be 0 to 10000 (the family's limit), R at least 1, SEED non-negative")
    items = items_of(kind, n, r, seed)
    capacity = sum(weight for _, weight in items) // 2
    if n * capacity <= DP_LIMIT:
        expected = {"optimum": optimum(capacity, items)}
        expected["answer"] = {"value": expected["optimum"]}
        verification = "optimum by dynamic programming over the capacity in generate.py; the tests re-check it"
    else:
        expected = {"optimum": None}
        verification = "too large for generate.py's dynamic programming; optimum not computed"
    instance = {
        "schema": "puzzle-instance/v1",
        "id": f"knapsack_{kind}_{n}_{r}_{seed}",
        "family": "knapsack",
        "title": f"0/1 knapsack, Pisinger {kind}, n = {n}, R = {r}, seed {seed}",
        "source": {
            "generator": f"scripts/knapsack/generate.py {kind} {n} {r} {seed}",
            "classes": "D. Pisinger, Where are the hard knapsack problems?, Computers & Operations Research 32 (2005)",
        },
        "generator": {"kind": kind, "n": n, "r": r, "seed": seed},
        "rules": ["Choose items, each whole or not at all, whose weights sum to at most the capacity; maximise the sum of their values."],
        "conventions": "items are [value, weight]; a solution lists the items' 0-based indices.",
        "data": {"capacity": capacity, "items": items},
        "expected": expected,
        "verification": verification,
    }
    text = json.dumps(instance, indent=1)
    # One item per line: readable, and diffs stay small.
    text = text.replace("[\n    ", "[").replace(",\n    ", ", ").replace("\n   ]", "]")
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
