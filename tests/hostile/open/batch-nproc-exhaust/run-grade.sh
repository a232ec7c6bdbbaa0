#!/bin/bash
# tests/hostile/open/batch-nproc-exhaust/run-grade.sh [LEVEL] - the same constructor in one student's
# `grader grade` of problems/ (as root; LEVEL no-userns (default) or user): student_template with h.c's
# constructor added to p1.c, -j 2, as combgrader-test (flock /work/wt/unpriv.lock), RLIMIT_NPROC 300.
# While p1's runner holds the user's processes the grader cannot fork the other problems' runners:
# judge-error "cannot start '.../build-p4/runner': Resource temporarily unavailable", internal_error,
# exit 3.  A correct grader: p1 timelimit|forbidden, never judge-error.  Fails when the report says
# internal_error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
lvl=${1:-no-userns}
if [ -z "${NPROC_IN_NS:-}" ]; then
	exec flock /work/wt/unpriv.lock env NPROC_IN_NS=1 unshare --pid --fork --mount-proc "$0" "$@"
fi
w=$(mktemp -d /tmp/nproc-grade.XXXXXX)
trap 'rm -rf "$w"' EXIT
cp -R "$repo/student_template" "$w/sub"
rm -rf "$w/sub/python"
sed -n '/^#include/,$p' "$here/h.c" | sed '/^long long twice/,$d' | sed "s/{ 8, 0 }/{ 30, 0 }/" >>"$w/sub/p1.c"
mkdir "$w/home"
chmod -R a+rwX "$w"
wrap=
[ "$lvl" = no-userns ] && wrap=$repo/build/tests/deny-userns
cd "$w" && HOME=$w/home timeout -s KILL 280 setpriv --reuid=combgrader-test --regid=combgrader-test --clear-groups \
	prlimit --nproc=300 $wrap "$repo/bin/grader" grade --problems "$repo/problems" --reference "$repo/reference" \
	-j 2 --format json -o "$w/r.json" "$w/sub" >/dev/null 2>"$w/err"
echo "exit code $?"
python3 - "$w/r.json" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
for p in r["problems"]:
    print(p["id"], dict(collections.Counter(t["verdict"] for t in p["tests"])))
print("internal_error", r["internal_error"])
sys.exit(1 if r["internal_error"] else 0)
PY
