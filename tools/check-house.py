#!/usr/bin/env python3
"""check-house.py - the house rules of grader/ that a reader can check by eye,
checked by a program (tests/house/run.sh runs it in `make test`).

  1. No function in grader/ is longer than MAX_LINES lines (its body from the
     line of its opening brace to its closing brace).
  2. The library (grader/, not grader/cmd/) never includes a header of the
     command layer (cli.h), and no library module calls the top-level
     helpers that decide exit codes (die() aside, which allocators use).
  3. No library module calls back into a module that uses it: the modules,
     linked by "a uses b" - a.c calls a function b.c defines, or a.c names
     a struct, union or enum type whose body b.h holds - form no
     cycle.  So a.c reaching into b's struct while b.c calls a.c is a
     circle as much as two calls are.  A header without a .c (a module of
     types alone) uses nothing, so it closes no circle.
  4. Every source sits in a folder of the layer table (LAYERS below), and
     every #include "folder/x.h" goes to the same folder or a folder of a
     lower layer; the exceptions, each with its reason, are in UPWARD.
     Two folders of one layer do not use each other either.
  5. No two library sources share a file name (the archives the ASan and
     fuzz builds make hold members by file name).

Functions are found the way the code is written here (kernel style): a
definition starts at column 0 with its return type and name, its body opens
with "{" alone at column 0 and closes with "}" alone at column 0.

usage: check-house.py [DIR]   (default: grader)
Prints "ok - ..." / "not ok - ..." lines and "N passed, M failed".
"""
import os
import re
import sys

MAX_LINES = 100
COMMAND_HEADERS = {"cli.h"}

# The folders of grader/ and their layers: a folder may include headers of
# its own folder and of folders with a lower layer (grader/README.md).
LAYERS = {
    "runtime": 1,  # the runner's half, inside the sandbox (protocol.h is shared)
    "base": 2,     # strbuf, text, hashing, CSV, process pool, interruption
    "sandbox": 3,  # namespaces, uids, cgroups, seccomp, Landlock
    "run": 4,      # warm runners and their protocol records
    "problem": 5,  # problem files, signatures, values, cases; the language table
    "build": 6,    # a submission's files into runners: languages, compiling, stubs
    "judge": 7,    # grading one submission: engine, verdicts, results, shrink, growth
    "report": 8,   # one view of a result and the writers over it
    "mutate": 8,   # test strength: mutants of the reference
    "batch": 9,    # a class: layouts, archives, LMS, gradebooks, similarity, summary page
    "pack": 9,     # the student pack: the engine and the reference's answers
    "cmd": 10,     # the command line: parse, call the library, choose exit codes
}

# Includes that point up a layer, each with why it is still there.  A new
# one needs its reason here; removing the need removes the line.
UPWARD = {
}


def functions(path):
    """(name, first line, length) of every function defined in path."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    found = []
    for i, line in enumerate(lines):
        if line != "{":
            continue
        # the signature: the nearest line above at column 0 with an opening parenthesis
        j = i - 1
        while j >= 0 and not re.match(r"^[A-Za-z_].*\(", lines[j]):
            j -= 1
        if j < 0:
            continue
        m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", lines[j])
        end = i + 1
        while end < len(lines) and lines[end] != "}":
            end += 1
        found.append((m.group(1) if m else "?", j + 1, end - i + 1))
    return found


def code_of(path):
    """The text of path without comments and string literals."""
    text = re.sub(r"/\*.*?\*/", "", open(path, encoding="utf-8", errors="replace").read(), flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def includes(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    return re.findall(r'^#include\s+"([^"]+)"', text, re.M)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "grader"
    passed = failed = 0

    def say(ok, what):
        nonlocal passed, failed
        print(("ok - " if ok else "not ok - ") + what)
        if ok:
            passed += 1
        else:
            failed += 1

    sources = []
    for dirpath, _, names in os.walk(root):
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                sources.append(os.path.join(dirpath, n))
    sources.sort()
    library = [s for s in sources if os.sep + "cmd" + os.sep not in s]

    long_ones = []
    for s in sources:
        if s.endswith(".c"):
            for name, line, length in functions(s):
                if length > MAX_LINES:
                    long_ones.append("%s:%d %s (%d lines)" % (s, line, name, length))
    say(not long_ones, "no function in %s/ is over %d lines%s" % (
        root, MAX_LINES, "" if not long_ones else ": " + "; ".join(long_ones)))

    bad = ["%s includes %s" % (s, h) for s in library for h in includes(s) if os.path.basename(h) in COMMAND_HEADERS]
    say(not bad, "the library includes no header of the command layer%s" % ("" if not bad else ": " + "; ".join(bad)))

    # module graph over the library's .c files, by calls: module a uses module b
    # when a.c calls a function that b.c defines (not static)
    defined = {}
    for s in library:
        if s.endswith(".c"):
            mod = os.path.splitext(os.path.basename(s))[0]
            text = open(s, encoding="utf-8", errors="replace").read()
            for name, line, _ in functions(s):
                head = text.split("\n")[line - 1]
                if not head.startswith("static"):
                    defined.setdefault(name, mod)
    # ... and by types: module b owns a struct, union or enum when b.h holds
    # its body ("struct x {"); a.c uses b when it names that type (a type
    # a.c defines itself is its own, whatever a header elsewhere calls so)
    def bodies(path):
        return set(re.findall(r"^\s*(?:typedef\s+)?(struct|union|enum)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{",
                              code_of(path), re.M))
    owner = {}
    for s in library:
        if s.endswith(".h"):
            for t in sorted(bodies(s)):
                owner.setdefault(t, os.path.splitext(os.path.basename(s))[0])
    uses, why = {}, {}
    for s in library:
        if not s.endswith(".c"):
            continue
        a = os.path.splitext(os.path.basename(s))[0]
        text = code_of(s)
        called = set(re.findall(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(", text))
        named = set(re.findall(r"\b(struct|union|enum)\s+([A-Za-z_][A-Za-z0-9_]*)", text)) - bodies(s)
        uses[a] = set()
        for c in sorted(called):
            if c in defined and defined[c] != a:
                uses[a].add(defined[c])
                why.setdefault((a, defined[c]), "calls %s()" % c)
        for t in sorted(named):
            if t in owner and owner[t] != a:
                uses[a].add(owner[t])
                why.setdefault((a, owner[t]), "uses %s %s" % t)
    cycles = []
    def dfs(start, node, path):
        for nxt in sorted(uses.get(node, ())):
            if nxt == start:
                hops = path + [start]
                cycles.append(" -> ".join("%s (%s)" % (x, why[(x, y)]) for x, y in zip(hops, hops[1:])) +
                              " -> " + start)
            elif nxt not in path and nxt > start:
                dfs(start, nxt, path + [nxt])
    for m in sorted(uses):
        dfs(m, m, [m])
    say(not cycles, "no library modules use each other in a cycle (by calls or by types)%s" % (
        "" if not cycles else ": " + "; ".join(cycles)))

    # the layers: the folder of each source, the folder of each include
    unplaced, upward, used = [], [], set()
    for s in sources:
        rel = os.path.relpath(s, root)
        folder = rel.split(os.sep)[0] if os.sep in rel else None
        if folder not in LAYERS:
            unplaced.append(rel)
            continue
        for h in includes(s):
            target = h.split("/")[0] if "/" in h else None
            if target is None or target == folder:
                continue
            if target not in LAYERS:
                upward.append("%s includes %s (no folder %s/ in the layer table)" % (rel, h, target))
            elif LAYERS[target] >= LAYERS[folder]:
                key = (rel, h)
                if key in UPWARD:
                    used.add(key)
                else:
                    upward.append("%s (%s, layer %d) includes %s (layer %d)" % (
                        rel, folder, LAYERS[folder], h, LAYERS[target]))
    say(not unplaced, "every source is in a folder of the layer table%s" % (
        "" if not unplaced else ": " + "; ".join(unplaced)))
    say(not upward, "every include goes to the same folder or a lower layer%s" % (
        "" if not upward else ": " + "; ".join(upward)))
    stale = sorted(set(UPWARD) - used)
    say(not stale, "every written exception is still needed%s" % (
        "" if not stale else ": " + "; ".join("%s -> %s" % k for k in stale)))

    names = {}
    for s in library:
        if s.endswith(".c") and os.sep + "runtime" + os.sep not in s:
            names.setdefault(os.path.basename(s), []).append(s)
    dups = ["%s" % ", ".join(v) for v in names.values() if len(v) > 1]
    say(not dups, "no two library sources share a file name%s" % ("" if not dups else ": " + "; ".join(dups)))

    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
