#!/usr/bin/env python3
"""ctest layers: the layers of core/ stay layers (docs/architecture.md).

The platform is five layers, lowest first: base < data < script < play <
bots; above them, each folder of core/rulesets/ is a ruleset (a game), which
may use the whole platform and nothing of another ruleset. The check fails,
naming both files and the include or symbol, when

 (a) a file includes a header that lives in a higher layer's folder or in
     another ruleset (quoted includes resolved as the compiler does: the
     file's own folder, core/include, the folders the layer may see, then
     any other), or a public header (core/include/foh/) includes anything
     but public headers;
 (b) an object file uses a symbol (nm -u) defined only in the objects of a
     higher layer, or of another ruleset;
 (c) a file of the platform (core/base, data, script, play, bots and
     core/include/foh/) names a ruleset: a ruleset folder's name as an
     #include path component, or as an identifier prefix ("flow_");
 (d) the files of one platform folder depend on each other in a cycle
     (symbol-level: A uses B's symbols and B, maybe through others, A's);
 (e) the folders of one ruleset depend on each other in a cycle (The Flow
     of History's rules reach their Lua binding through a port).

The one exception is core/play/registry.c, the list of the rulesets a build
can play: it names them and uses their method tables, for (b) and (c).

usage: layers.py --src DIR --nm NM FOLDER=OBJ|OBJ|... ...
(FOLDER relative to core/, e.g. script or rulesets/flow/lua; tests/CMakeLists.txt
passes each object library's objects.)
"""
import argparse
import os
import re
import subprocess
import sys

# The platform's layers, lowest first. A new platform folder goes here, in
# its place; a new game goes under core/rulesets/.
PLATFORM = ["base", "data", "script", "play", "bots"]
ORDER = " < ".join(PLATFORM + ["rulesets"])

# The one platform file that may name rulesets and use their objects. No
# other exception: play and bots used The Flow of History's headers and
# objects until the ruleset interface (issue 28, step 2) took them, so every
# layer is checked strictly.
REGISTRY = "core/play/registry.c"

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

problems = []


def problem(msg):
    problems.append(msg)


def layer_of(rel):
    """'base' ... 'bots', 'rulesets/NAME', 'include' (public headers), or
    None for a folder of core/ the check does not know."""
    parts = rel.split("/")
    if len(parts) < 3 or parts[0] != "core":
        return None
    if parts[1] == "include":
        return "include"
    if parts[1] == "rulesets":
        return "rulesets/" + parts[2] if len(parts) > 3 else None
    return parts[1] if parts[1] in PLATFORM else None


def rank(layer):
    return PLATFORM.index(layer) if layer in PLATFORM else len(PLATFORM)


def may_use(user, used):
    """Whether layer USER may include from / call into layer USED."""
    if used == "include":
        return True
    if user == "include":
        return False  # a public header includes public headers only
    if user.startswith("rulesets/") and used.startswith("rulesets/"):
        return user == used
    return rank(used) <= rank(user)


def describe(layer):
    if layer == "include":
        return "the public headers (core/include/foh)"
    if layer.startswith("rulesets/"):
        return "the ruleset core/%s" % layer
    return "the %s layer" % layer


def source_files(src):
    out = []
    for root, dirs, files in os.walk(os.path.join(src, "core")):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                out.append(os.path.relpath(os.path.join(root, f), src))
    return out


def ruleset_names(src):
    d = os.path.join(src, "core", "rulesets")
    return sorted(n for n in os.listdir(d) if os.path.isdir(os.path.join(d, n))) if os.path.isdir(d) else []


def check_includes(src, files, folders):
    """(a): every #include resolved to a file of the tree, and its layer."""
    for rel in files:
        layer = layer_of(rel)
        own = os.path.dirname(rel)
        # The folders the layer may see first (the compiler's -I list), then
        # every other: a header found only there is a reach up.
        seen = [f for f in folders if may_use(layer, layer_of(f + "/x"))]
        order = [own, "core/include"] + seen + [f for f in folders if f not in seen]
        with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                quote, name = m.groups()
                dirs = order if quote == '"' else ["core/include"]
                target = next((os.path.normpath(os.path.join(d, name)) for d in dirs
                               if os.path.isfile(os.path.join(src, d, name))), None)
                if target is None:
                    continue  # a system or generated header
                used = layer_of(target)
                if used is None or may_use(layer, used):
                    continue
                rule = ("a public header may include only public headers" if layer == "include" else
                        "%s may include only from its own folder and the layers below it (%s)" % (describe(layer), ORDER))
                problem("%s:%d: #include %s%s%s is %s, in %s: %s"
                        % (rel, n, quote, name, '"' if quote == '"' else ">", target, describe(used), rule))


def check_names(src, files, rulesets):
    """(c): no platform file names a ruleset."""
    if not rulesets:
        return
    idents = {re.sub(r"\W", "_", r): r for r in rulesets}
    ident_re = re.compile(r"\b(%s)_\w*" % "|".join(map(re.escape, idents)))
    for rel in files:
        layer = layer_of(rel)
        if layer is None or layer.startswith("rulesets/") or rel == REGISTRY:
            continue
        with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE_RE.match(line)
                if m:
                    parts = m.group(2).split("/")
                    hit = next((r for r in rulesets + ["rulesets"] for p in parts
                                if p == r or p.startswith((r + "_", r + "."))), None)
                    if hit:
                        problem('%s:%d: #include "%s" names the ruleset "%s": the platform (%s) names no '
                                "ruleset; only %s lists them" % (rel, n, m.group(2), hit, describe(layer), REGISTRY))
                    continue
                for m in ident_re.finditer(line):
                    problem("%s:%d: %s names the ruleset '%s' (prefix %s_): the platform (%s) names no ruleset; "
                            "only %s lists them" % (rel, n, m.group(0), idents[m.group(1)], m.group(1),
                                                      describe(layer), REGISTRY))


def read_symbols(nm, obj):
    """(defined, undefined) external symbols of an object file."""
    r = subprocess.run([nm, "-P", "-g", obj], capture_output=True, text=True)
    if r.returncode != 0:
        problem("%s: %s -P -g failed: %s" % (obj, nm, r.stderr.strip()))
        return set(), set()
    defined, undefined = set(), set()
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        (undefined if f[1] in ("U", "w", "v") else defined).add(f[0])
    return defined, undefined


def source_of(src, obj):
    """core/DIR/FILE.c for a CMake object file .../foh_X.dir/core/DIR/FILE.c.o."""
    m = re.search(r"\.dir/(core/.+)\.o$", obj.replace(os.sep, "/"))
    if m and os.path.isfile(os.path.join(src, m.group(1))):
        return m.group(1)
    return None


def find_cycle(graph, nodes):
    """A shortest cycle through the first of NODES (a strongly connected
    component), as a list of nodes starting and ending with it."""
    start = nodes[0]
    prev = {start: None}
    queue = [start]
    while queue:
        u = queue.pop(0)
        for v in sorted(graph.get(u, ())):
            if v not in nodes:
                continue
            if v == start:
                path = [u]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if v not in prev:
                prev[v] = u
                queue.append(v)
    return [start]


def components(graph, nodes):
    """Tarjan's strongly connected components of GRAPH over NODES."""
    index, low, stack, on, out = {}, {}, [], set(), []
    nodes = set(nodes)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, set()) & nodes):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("objects", nargs="+", help="FOLDER=OBJ|OBJ|...")
    a = ap.parse_args()
    src = os.path.abspath(a.src)
    rulesets = ruleset_names(src)
    files = source_files(src)

    for rel in files:
        if layer_of(rel) is None:
            problem("%s: a folder of core/ the layers check does not know: add it to PLATFORM in tests/layers.py "
                    "(in layer order), or move it under core/rulesets/NAME/" % rel)
    folders = sorted({os.path.dirname(r) for r in files if layer_of(r) not in (None, "include")},
                     key=lambda f: (rank(layer_of(f + "/x")), f))

    check_includes(src, files, folders)
    check_names(src, files, rulesets)

    # (b) and (d): the object files.
    objects = {}  # source (or object path) -> (layer, defined, undefined)
    for arg in a.objects:
        folder, _, objs = arg.partition("=")
        for obj in filter(None, objs.split("|")):
            name = source_of(src, obj) or obj
            layer = layer_of("core/%s/x" % folder)
            if layer is None:
                problem("%s: object library of core/%s, a folder the layers check does not know" % (obj, folder))
                continue
            defined, undefined = read_symbols(a.nm, obj)
            objects[name] = (layer, defined, undefined)
    for layer in PLATFORM:
        if not any(v[0] == layer for v in objects.values()):
            problem("no object file of the %s layer was given (tests/CMakeLists.txt passes every object library)"
                    % layer)
    built = {n for n in objects}
    for rel in files:
        if rel.endswith(".c") and layer_of(rel) not in (None, "include") and rel not in built:
            problem("%s: no object file of it was given: its symbols are not checked" % rel)

    definers = {}
    for name, (layer, defined, _) in objects.items():
        for s in defined:
            definers.setdefault(s, []).append(name)
    graph, edges, uses = {}, {}, 0
    for name, (layer, _, undefined) in sorted(objects.items()):
        for s in sorted(undefined):
            defs = definers.get(s, [])
            if not defs:
                continue  # a library's (Lua, libyaml, libc)
            uses += 1
            if any(may_use(layer, objects[d][0]) for d in defs):
                for d in defs:
                    graph.setdefault(name, set()).add(d)
                    edges.setdefault((name, d), []).append(s)
                continue
            if name == REGISTRY and all(objects[d][0].startswith("rulesets/") for d in defs):
                continue
            problem("%s uses %s, defined in %s: %s may call only its own layer and those below it (%s)"
                    % (name, s, ", ".join(sorted(defs)), describe(layer), ORDER))
    if not uses:
        problem("no object file uses a symbol of another: %s's output was not understood" % a.nm)

    for layer in PLATFORM:
        nodes = sorted(n for n, v in objects.items() if v[0] == layer)
        for comp in components(graph, nodes):
            if len(comp) < 2:
                continue
            cycle = find_cycle(graph, comp)
            steps = " -> ".join("%s (%s)" % (cycle[i + 1], ", ".join(edges[(cycle[i], cycle[i + 1])]))
                                for i in range(len(cycle) - 1))
            problem("the files of core/%s depend on each other in a cycle: %s -> %s; files in the cycle: %s "
                    "(layer the folder's files: move what both need into a file below them)"
                    % (layer, cycle[0], steps, ", ".join(comp)))

    # (e): inside a ruleset, its folders (The Flow of History: the rules,
    # their Lua binding, the method table joining them) depend on each
    # other in no cycle: the rules reach the binding through a port only.
    for rs in rulesets:
        fgraph, fedges = {}, {}
        for (u, d), syms in sorted(edges.items()):
            if objects[u][0] == objects[d][0] == "rulesets/" + rs and os.path.dirname(u) != os.path.dirname(d):
                fu, fd = os.path.dirname(u), os.path.dirname(d)
                fgraph.setdefault(fu, set()).add(fd)
                fedges.setdefault((fu, fd), "%s uses %s of %s" % (u, syms[0], d))
        nodes = sorted(set(fgraph) | {x for v in fgraph.values() for x in v})
        for comp in components(fgraph, nodes):
            if len(comp) < 2:
                continue
            cycle = find_cycle(fgraph, comp)
            steps = "; ".join(fedges[(cycle[i], cycle[i + 1])] for i in range(len(cycle) - 1))
            problem("the folders of the ruleset core/rulesets/%s depend on each other in a cycle: %s (%s): reach "
                    "the upper folder through a port (a table of functions it fills), not by calling it"
                    % (rs, " -> ".join(cycle), steps))

    for p in problems:
        print("layers: " + p)
    if problems:
        print("layers: %d problem(s) (the layers of core/: %s; docs/architecture.md)" % (len(problems), ORDER))
        return 1
    print("layers: OK: %d files, %d object files; the layers %s; no cycle inside %s"
          % (len(files), len(objects), ORDER, ", ".join("core/" + p for p in PLATFORM)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
