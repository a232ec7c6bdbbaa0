#!/bin/sh
# tools/gradescope-zip.sh - the Gradescope autograder zip (dist/gradescope/README.md).
#
#   tools/gradescope-zip.sh [OUTPUT]     default OUTPUT: build/gradescope-autograder.zip
#
# At the zip's top level: setup.sh, run_autograder, Makefile, grader/ (with
# cmd/ and runtime/), tools/build.mk, tools/deps.sh, tools/embed.sh,
# problems/ (all groups) and reference/ (with python/): what `make` and
# `bin/grader selftest` need (tests/reports/run.sh builds the zip, unpacks
# it in a fake /autograder and runs setup.sh and run_autograder there).
set -eu
cd "$(dirname "$0")/.."

out=${1:-build/gradescope-autograder.zip}
case $out in
/*) ;;
*) out=$PWD/$out ;;
esac
stage=$(mktemp -d "${TMPDIR:-/tmp}/gradescope.XXXXXX")
trap 'rm -rf "$stage"' EXIT
trap 'exit 130' INT TERM HUP

mkdir -p "$stage/tools" "$stage/problems" "$stage/reference/python"
cp dist/gradescope/setup.sh dist/gradescope/run_autograder "$stage/"
chmod 755 "$stage/setup.sh" "$stage/run_autograder"
cp Makefile "$stage/"
# every folder of grader/ (a folder per concern, cmd/, runtime/): its sources and README
for d in grader/*/; do
	mkdir -p "$stage/$d"
	cp "$d"*.c "$d"*.h "$stage/$d"
	[ ! -f "$d"README.md ] || cp "$d"README.md "$stage/$d"
done
[ ! -f grader/README.md ] || cp grader/README.md "$stage/grader/"
cp tools/build.mk tools/deps.sh tools/embed.sh "$stage/tools/"
cp problems/*.yaml "$stage/problems/"
cp reference/*.c "$stage/reference/"
cp reference/python/*.py "$stage/reference/python/"

mkdir -p "$(dirname "$out")"
rm -f "$out"
if command -v zip >/dev/null 2>&1; then
	(cd "$stage" && zip -q -r -X "$out" .)
else
	python3 - "$stage" "$out" <<'PY'
import os, sys, zipfile
stage, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for d, _, files in sorted(os.walk(stage)):
        for f in sorted(files):
            p = os.path.join(d, f)
            z.write(p, os.path.relpath(p, stage))  # keeps the mode bits
PY
fi
echo "gradescope: wrote $out"
