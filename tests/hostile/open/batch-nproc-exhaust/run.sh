#!/bin/bash
# tests/hostile/open/batch-nproc-exhaust/run.sh [LEVEL] - reproduce (as root; LEVEL no-userns (default),
# user or root).  A class of h.c and twelve copies of peer.c is graded with `grader batch -j 2` as
# combgrader-test (flock /work/wt/unpriv.lock), RLIMIT_NPROC 300, in a throwaway PID namespace; prints
# grades.csv and fails when a peer is not 7/7.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
lvl=${1:-no-userns}
if [ -z "${NPROC_IN_NS:-}" ]; then
	exec flock /work/wt/unpriv.lock env NPROC_IN_NS=1 unshare --pid --fork --mount-proc "$0" "$@"
fi
w=$(mktemp -d /tmp/nproc-exhaust.XXXXXX)
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/class/a-flood" "$w/home"
cp "$here/h.c" "$w/class/a-flood/"
for s in b c d e f g h i j k l m; do
	mkdir "$w/class/$s-peer"
	sed "1s|^|/* student $s */\n|" "$here/peer.c" >"$w/class/$s-peer/h.c"
done
chmod -R a+rwX "$w"
case $lvl in
root) run=() ;;
user) run=(setpriv --reuid=combgrader-test --regid=combgrader-test --clear-groups prlimit --nproc=300) ;;
*) run=(setpriv --reuid=combgrader-test --regid=combgrader-test --clear-groups prlimit --nproc=300
	"$repo/build/tests/deny-userns") ;;
esac
cd "$w" && HOME=$w/home timeout -s KILL 240 "${run[@]}" "$repo/bin/grader" batch "$w/class" -o "$w/out" -j 2 \
	--problems "$repo/tests/hostile/problems" --reference "$repo/tests/hostile/reference" --no-cache 2>&1 | tail -3
cat "$w/out/grades.csv"
! grep -- '-peer,' "$w/out/grades.csv" | grep -qv ',7,7,7,ok$'
