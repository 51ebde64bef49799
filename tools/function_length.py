#!/usr/bin/env python3
"""Functions longer than a limit in C files (issue 28: none over 150 lines
without a reason written next to it).

usage: tools/function_length.py [--max N] [--all] PATH...

PATH is a C file or a folder (searched for *.c, recursively). A function
is found by its opening brace at column 0 (the project's style: the
signature, then "{" alone on its line) and ends at the next closing brace
at column 0; its length is the lines from that "{" to that "}", both
counted. Only top-level function bodies are counted, never a struct or an
initializer (their braces do not stand alone at column 0).

A function over the limit is accepted when the comment just above its
signature (the comment block ending on the line before it) holds the
marker "long because", followed by the reason, e.g.

    /* Prints the report's tables in order. Long because: one printf per
     * line of the report, in the order read; a split would only scatter
     * them. */
    static void print_report(...)
    {

Prints each function over the limit as "FILE:LINE: NAME: N lines (limit
M)", adding "reason given" for an accepted one (only with --all) and
exits 1 if any lacks a reason, 0 otherwise; 2 on bad usage.
"""
import os
import re
import sys

MARKER = "long because"


def c_files(path):
    if os.path.isfile(path):
        return [path]
    found = []
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".c"):
                found.append(os.path.join(root, name))
    return found


def functions(lines):
    """(name, first line of the signature, line of '{', line of '}') per
    function, 0-based line numbers."""
    out = []
    i = 0
    while i < len(lines):
        if re.match(r"^\{\s*(/\*.*|//.*)?$", lines[i]):
            # The signature: back to its first line, the one at column 0
            # (the lines after it are indented continuations).
            s = i - 1
            while s > 0 and lines[s][:1] in (" ", "\t"):
                s -= 1
            signature = " ".join(l.strip() for l in lines[s:i])
            signature = re.sub(r"__attribute__\s*\(\(.*?\)\)", "", signature)
            m = re.search(r"([A-Za-z_]\w*)\s*\(", signature)
            name = m.group(1) if m else "?"
            j = i + 1
            while j < len(lines) and not lines[j].startswith("}"):
                j += 1
            out.append((name, s, i, j))
            i = j + 1
            continue
        i += 1
    return out


def reason_above(lines, first):
    """Whether the comment block ending just above line FIRST holds the marker."""
    k = first - 1
    if k < 0 or not lines[k].rstrip().endswith("*/"):
        return False
    block = []
    while k >= 0:
        block.append(lines[k])
        if "/*" in lines[k]:
            break
        k -= 1
    return MARKER in " ".join(block).lower()


def main(argv):
    limit, show_all, paths = 150, False, []
    args = iter(argv)
    for a in args:
        if a == "--max":
            try:
                limit = int(next(args))
            except (StopIteration, ValueError):
                print("function_length.py: --max needs a whole number", file=sys.stderr)
                return 2
        elif a == "--all":
            show_all = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            paths.append(a)
    if not paths:
        print("usage: tools/function_length.py [--max N] [--all] PATH...", file=sys.stderr)
        return 2
    bad = 0
    for path in paths:
        if not os.path.exists(path):
            print(f"function_length.py: {path}: no such file or folder", file=sys.stderr)
            return 2
        for f in c_files(path):
            with open(f, encoding="utf-8", errors="replace") as h:
                lines = h.read().split("\n")
            for name, first, open_, close in functions(lines):
                n = close - open_ + 1
                if n <= limit:
                    continue
                ok = reason_above(lines, first)
                if not ok:
                    bad += 1
                    print(f"{f}:{first + 1}: {name}: {n} lines (limit {limit}), no '{MARKER}' comment above it")
                elif show_all:
                    print(f"{f}:{first + 1}: {name}: {n} lines (limit {limit}), reason given")
    if bad:
        print(f"{bad} function{'s' if bad > 1 else ''} over {limit} lines without a reason "
              f"(a comment above it saying why it is '{MARKER}': ...)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
