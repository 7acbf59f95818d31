#!/usr/bin/env python3
"""Import circles between the workspace's source files, and between its rooms.

An arrow runs from file A to file B when A names an item that B defines: through a `use`
of `crate::`, `super::` or `self::` paths, or such a path written inline. A re-export
(`pub use`) is followed to the file that defines the item, and a module named as a whole
points at its own file. A parent module's file (`mod.rs`, `lib.rs`) naming its own children
is how Rust declares and re-exports them, not a dependency, and draws no arrow. A room is
a top-level module (`src/run/`, `src/cluster/`, ...; the engine crate's `search/`,
`parallel/`). Test code (files `tests.rs` and `*_tests.rs`, and what follows a file's
`#[cfg(test)]`) is left out: it is no dependency of the crate. The paths are read from
the text (no macro expansion, no type inference): an approximation that errs towards
arrows a reader would also see. Prints every circle (strongly connected set of two or more) of files and of
rooms, and exits 1 when there is one.

Usage: scripts/import-circles.py   (from anywhere in the checkout)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRATES = {"backtrack_bench": "src", "backtrack_engine": "crates/engine/src"}
# The root crate re-exports the engine's modules under the same names.
ENGINE_MODULES_IN_ROOT = ("search", "parallel", "knobs")

ITEM = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(?:struct|enum|trait|fn|type|const|static|union|mod)\s+(\w+)", re.M)
MACRO = re.compile(r"^\s*macro_rules!\s+(\w+)", re.M)
USE = re.compile(r"^\s*(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.M)
INLINE = re.compile(r"\b((?:crate|super|self)(?:::\w+)+)")


def module_files(crate, src):
    """Module path (tuple) -> file, for one crate."""
    modules = {}
    for folder, _, names in os.walk(os.path.join(ROOT, src)):
        for name in names:
            if not name.endswith(".rs"):
                continue
            path = os.path.relpath(os.path.join(folder, name), os.path.join(ROOT, src))
            parts = path[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib"):
                parts = parts[:-1]
            if parts == ["main"] or (parts and (parts[-1] == "tests" or parts[-1].endswith("_tests"))):
                continue
            modules[(crate,) + tuple(parts)] = os.path.join(src, path)
    return modules


def strip_comments(text):
    # Test code is no dependency of the crate: a module's tests sit after `#[cfg(test)]`.
    text = text.split("#[cfg(test)]")[0]
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e'] (aliases dropped)."""
    tree = re.sub(r"\s+", "", tree)
    depth, start, out = 0, None, []
    if "{" not in tree:
        return [re.sub(r"as\w+$", "", tree.split(" as ")[0])]
    head, rest = tree.split("{", 1)
    body = rest[: rest.rfind("}")]
    items, depth, current = [], 0, ""
    for char in body:
        if char == "," and depth == 0:
            items.append(current)
            current = ""
            continue
        depth += char == "{"
        depth -= char == "}"
        current += char
    items.append(current)
    for item in items:
        if item:
            out += [head + sub for sub in expand_use(item)]
    return out


def main():
    modules = {}
    for crate, src in CRATES.items():
        modules.update(module_files(crate, src))
    file_module = {file: module for module, file in modules.items()}
    texts = {file: strip_comments(open(os.path.join(ROOT, file)).read()) for file in file_module}
    defined = {file: set(ITEM.findall(text)) | set(MACRO.findall(text)) for file, text in texts.items()}
    reexports = {}
    for file, text in texts.items():
        for public, tree in USE.findall(text):
            if public:
                for path in expand_use(tree):
                    reexports.setdefault(file, {})[path.split("::")[-1]] = path

    def absolute(module, path):
        segments = path.split("::")
        if segments[0] == "crate":
            base = module[:1]
            segments = segments[1:]
            if module[0] == "backtrack_bench" and segments and segments[0] in ENGINE_MODULES_IN_ROOT:
                base = ("backtrack_engine",)
        elif segments[0] in ("super", "self"):
            base = module
            is_folder_file = file_of(module).endswith(("mod.rs", "lib.rs"))
            while segments and segments[0] in ("super", "self"):
                if segments[0] == "super":
                    base = base[:-1]
                segments = segments[1:]
            del is_folder_file
        elif segments[0] == "backtrack_engine":
            base, segments = ("backtrack_engine",), segments[1:]
        else:
            return None
        return base, segments

    def file_of(module):
        return modules.get(module, "")

    def resolve(module, path, seen=0):
        """The file defining what `path`, written in `module`, names."""
        found = absolute(module, path)
        if not found or seen > 8:
            return None
        base, segments = found
        current = base
        for index, segment in enumerate(segments):
            deeper = current + (segment,)
            if deeper in modules:
                current = deeper
                continue
            file = modules.get(current)
            if file is None:
                return None
            if segment in defined[file]:
                return file
            if segment in reexports.get(file, {}):
                return resolve(current, reexports[file][segment], seen + 1)
            return file
        return modules.get(current)

    arrows = {file: set() for file in file_module}
    for file, text in texts.items():
        module = file_module[file]
        paths = [path for _, tree in USE.findall(text) for path in expand_use(tree)]
        paths += INLINE.findall(text)
        for path in paths:
            if path.split("::")[0] not in ("crate", "super", "self", "backtrack_engine"):
                continue
            target = resolve(module, path)
            if not target or target == file:
                continue
            if os.path.basename(file) in ("mod.rs", "lib.rs") and target.startswith(os.path.dirname(file) + os.sep):
                continue  # a parent naming its own children
            arrows[file].add(target)

    def room(file):
        for src in CRATES.values():
            if file.startswith(src + os.sep):
                inner = file[len(src) + 1 :].split(os.sep)
                return src + "/" + (inner[0] if len(inner) > 1 else inner[0])
        return file

    rooms = {}
    for file, targets in arrows.items():
        for target in targets:
            if room(file) != room(target):
                rooms.setdefault(room(file), set()).add(room(target))

    def circles(graph):
        index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

        def visit(node):
            index[node] = low[node] = counter[0]
            counter[0] += 1
            stack.append(node)
            on.add(node)
            for nxt in graph.get(node, ()):
                if nxt not in index:
                    visit(nxt)
                    low[node] = min(low[node], low[nxt])
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

        sys.setrecursionlimit(10000)
        for node in list(graph):
            if node not in index:
                visit(node)
        return found

    file_circles, room_circles = circles(arrows), circles(rooms)
    for group in file_circles:
        print("circle of files: " + ", ".join(group))
        for member in group:
            for target in sorted(arrows[member] & set(group)):
                print(f"  {member} -> {target}")
    for group in room_circles:
        print("circle of rooms: " + ", ".join(group))
    arrow_count = sum(len(targets) for targets in arrows.values())
    print(f"{len(file_module)} files, {arrow_count} arrows: {len(file_circles)} circles of files, {len(room_circles)} of rooms")
    return 1 if file_circles or room_circles else 0


if __name__ == "__main__":
    sys.exit(main())
