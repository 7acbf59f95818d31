#!/usr/bin/env python3
"""Writes a random graph G(n, p) as a DIMACS `.clq` file, deterministically.

    gnp.py N P SEED [--clique-number] > file.clq

Each of the n(n-1)/2 pairs u < v is an edge with probability P, drawn in the order
(1,2), (1,3), ..., (1,N), (2,3), ... from Python's `random.Random(SEED)` (Mersenne
Twister; the same stream on every Python 3), so a seed names one graph. With
`--clique-number`, the clique number is found by this script's own branch and bound
(Tomita's MCQ on Python integers as bitsets, independent of the Rust model) and
recorded as `c clique number: K`, which the family's tests read. Python's standard
library only.
"""

import random
import sys


def edges_of(n, p, seed):
    generator = random.Random(seed)
    return [(u, v) for u in range(1, n + 1) for v in range(u + 1, n + 1) if generator.random() < p]


def clique_number(n, edges):
    """The size of a maximum clique: colour the candidates greedily, expand the last colour
    class first, cut a vertex whose colour cannot beat the best."""
    adjacency = [0] * n
    for u, v in edges:
        adjacency[u - 1] |= 1 << (v - 1)
        adjacency[v - 1] |= 1 << (u - 1)
    best = 0

    def expand(size, candidates):
        nonlocal best
        order, colours = [], []
        uncoloured, colour = candidates, 0
        while uncoloured:
            colour += 1
            open_ = uncoloured
            while open_:
                vertex = (open_ & -open_).bit_length() - 1
                open_ &= ~(1 << vertex) & ~adjacency[vertex]
                uncoloured &= ~(1 << vertex)
                order.append(vertex)
                colours.append(colour)
        for index in range(len(order) - 1, -1, -1):
            if size + colours[index] <= best:
                return
            vertex = order[index]
            below = candidates & adjacency[vertex]
            if below:
                expand(size + 1, below)
            elif size + 1 > best:
                best = size + 1
            candidates &= ~(1 << vertex)

    expand(0, (1 << n) - 1)
    return best


def main(arguments):
    flags = [argument for argument in arguments if argument.startswith("--")]
    numbers = [argument for argument in arguments if not argument.startswith("--")]
    if len(numbers) != 3 or any(flag != "--clique-number" for flag in flags):
        sys.exit("usage: gnp.py N P SEED [--clique-number] > file.clq")
    n, p, seed = int(numbers[0]), float(numbers[1]), int(numbers[2])
    if n < 1 or not 0.0 <= p <= 1.0:
        sys.exit("gnp.py: N must be at least 1 and P within 0 to 1")
    edges = edges_of(n, p, seed)
    lines = [f"c G({n}, {p}) drawn with seed {seed} by scripts/graphs/gnp.py {n} {p} {seed}"]
    if flags:
        lines.append(f"c clique number: {clique_number(n, edges)}")
    lines.append(f"p edge {n} {len(edges)}")
    lines.extend(f"e {u} {v}" for u, v in edges)
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
