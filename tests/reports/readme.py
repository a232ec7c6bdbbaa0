#!/usr/bin/env python3
"""tests/reports/readme.py - the README's report examples are what the grader prints.

    readme.py docs/reports.md DIR     every format's example
    readme.py --front README.md DIR   the one text example in README.md

DIR holds the reports of `grader --only p1 tests/reports/fixtures/readme`
(run from the top of the repository): text, json, gradescope.json,
junit.xml, tap, github, prairielearn.json.  docs/reports.md shows one
example of each for that file (between "One example of each" and "A Python
submission"), and README.md's section "Reports" the text one (between
"## Reports" and "## Verdicts"); every figure in them must be in the real
report:

  text, TAP, workflow commands: every line shown is a line of the report,
      in the same order ("…" marks lines left out);
  JSON (json, gradescope, prairielearn): every "key": value shown is a
      key and value of some object of the report (a string ending in "…"
      is a prefix), except what every run measures afresh (compile_ms,
      time_ms, wall_ms, peak_kb);
  JUnit: every element shown, with its attributes (time aside), is an
      element of the report.

Prints one "ok"/"FAIL" line per check; exits 1 when a check failed.
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

from checklib import Checks

VOLATILE = {"compile_ms", "time_ms", "wall_ms", "peak_kb", "execution_time", "time"}
ELIDED = "…"
check = Checks("readme: ")


def blocks(readme, first="One example of each", last="A Python submission"):
    text = open(readme, encoding="utf-8").read()
    start = text.index(first)
    end = text.index(last, start)
    return re.findall(r"```(\w+)\n(.*?)```", text[start:end], re.S)


def read(d, name):
    with open(os.path.join(d, name), encoding="utf-8") as f:
        return f.read()


def lines_in_order(shown, actual):
    """The first shown line (not "…") that is not found after the previous one, or None."""
    got = actual.splitlines()
    i = 0
    for line in shown.splitlines():
        if line.strip() == ELIDED:
            continue
        try:
            i = got.index(line, i) + 1
        except ValueError:
            return line
    return None


def pairs(obj, out):
    """Every (key, value) of every object in obj, values scalar."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if not isinstance(v, (dict, list)):
                out.append((k, v))
            pairs(v, out)
    elif isinstance(obj, list):
        for v in obj:
            pairs(v, out)
    return out


SCALAR = r'"((?:[^"\\]|\\.)*)": ("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false|null)'


def json_missing(shown, actual):
    have = pairs(json.loads(actual), [])
    missing = []
    for key, lit in re.findall(SCALAR, shown):
        if key in VOLATILE:
            continue
        want = json.loads(lit)
        if isinstance(want, str) and want.endswith(ELIDED):
            prefix = want[: -len(ELIDED)].rstrip(" ")
            ok = any(k == key and isinstance(v, str) and v.startswith(prefix) for k, v in have)
        else:
            ok = any(k == key and type(v) is type(want) and v == want for k, v in have)
        if not ok:
            missing.append(f'"{key}": {lit}')
    return missing


def xml_missing(shown, actual):
    root = ET.fromstring(actual.encode())
    missing = []
    for tag, attrs in re.findall(r"<([A-Za-z-]+)((?:\s+[A-Za-z_-]+=\"[^\"]*\")*)\s*/?>", shown):
        want = {k: v for k, v in re.findall(r'([A-Za-z_-]+)="([^"]*)"', attrs) if k not in VOLATILE}
        if not want:
            continue
        found = any(all(e.get(k) == v for k, v in want.items()) for e in root.iter(tag))
        if root.tag == tag and all(root.get(k) == v for k, v in want.items()):
            found = True
        if not found:
            missing.append(f"<{tag}{attrs}>")
    return missing


def main():
    front = sys.argv[1] == "--front"
    readme, d = sys.argv[1 + front], sys.argv[2 + front]
    seen = set()
    found = blocks(readme, "## Reports", "## Verdicts") if front else blocks(readme)
    for lang, body in found:
        if lang == "text" and body.startswith("p1 "):
            name, bad = "text", lines_in_order(body, read(d, "text"))
        elif lang == "text" and body.startswith("TAP version"):
            name, bad = "tap", lines_in_order(body, read(d, "tap"))
        elif lang == "text" and body.startswith("::"):
            name, bad = "github", lines_in_order(body, read(d, "github"))
        elif lang == "json":
            name = ("prairielearn.json" if '"gradable"' in body else
                    "gradescope.json" if '"stdout_visibility"' in body else "json")
            bad = json_missing(body, read(d, name)) or None
        elif lang == "xml":
            name, bad = "junit.xml", xml_missing(body, read(d, "junit.xml")) or None
        else:
            continue
        seen.add(name)
        check(f"the {name} example is what the grader prints", bad is None, str(bad)[:400])
    want = {"text", "json", "gradescope.json", "junit.xml", "tap", "github", "prairielearn.json"}
    if front:
        want = {"text"}
    check("an example of every format checked", seen == want, str(sorted(want - seen)))
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main())
