#!/bin/bash
# tests/hostile/open/hijack-idle-flood/run-peer.sh [LEVEL] - h.c graded with -j 2 as combgrader-test (LEVEL
# no-userns (default, through build/tests/deny-userns) or user), RLIMIT_NPROC 300, in a throwaway PID
# namespace (flock /work/wt/unpriv.lock); as soon as its idle runner's flood holds the user's processes
# (ps counts 290 or more), an honest student's grade (tests/hostile/batch-flood/peer.c) starts beside it,
# as another worker of a batch or a second grade would.  A correct grader: the peer 7/7, never
# judge-error.  Fails when the peer's report says internal_error or not 7/7 (red team 41b, 3dd0007:
# judge-error on every test, "cannot start '/usr/bin/gcc': Resource temporarily unavailable", exit 3).
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
lvl=${1:-no-userns}
if [ -z "${IDLE_FLOOD_IN_NS:-}" ]; then
	exec flock /work/wt/unpriv.lock env IDLE_FLOOD_IN_NS=1 unshare --pid --fork --mount-proc "$0" "$@"
fi
w=$(mktemp -d /tmp/idle-flood.XXXXXX)
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/sub" "$w/peer" "$w/home" "$w/home2" "$w/tmp" "$w/tmp2"
cp "$here/h.c" "$w/sub/h.c"
cp "$repo/tests/hostile/batch-flood/peer.c" "$w/peer/h.c"
chmod -R a+rwX "$w"
wrap=
[ "$lvl" = no-userns ] && wrap=$repo/build/tests/deny-userns
grade() { # HOME TMPDIR JOBS OUT SUBMISSION [--no-cache]
	HOME=$1 TMPDIR=$2 timeout -s KILL 120 setpriv --reuid=combgrader-test --regid=combgrader-test --clear-groups \
		prlimit --nproc=300 $wrap "$repo/bin/grader" grade --problems "$repo/tests/hostile/problems" \
		--reference "$repo/tests/hostile/reference" ${6:-} --show-hidden -j "$3" --format json -o "$4" "$5" \
		>/dev/null 2>"$4.err"
}
cd "$w" || exit 2
# the peer's runtime and build cached first: the timed grade goes straight to its runners
grade "$w/home2" "$w/tmp2" 1 "$w/warm.json" "$w/peer"
grade "$w/home" "$w/tmp" 2 "$w/hostile.json" "$w/sub" --no-cache &
hostile=$!
peer_rc=none
while kill -0 "$hostile" 2>/dev/null; do
	if [ "$(ps -u combgrader-test --no-headers | wc -l)" -ge 290 ]; then
		echo "the flood holds the user's processes: the peer starts"
		grade "$w/home2" "$w/tmp2" 1 "$w/peer.json" "$w/peer"
		peer_rc=$?
		break
	fi
	sleep 0.01
done
wait "$hostile"
echo "hostile exit code $?, peer exit code $peer_rc"
[ "$peer_rc" = none ] && { echo "no flood seen"; exit 2; }
python3 - "$w/hostile.json" "$w/peer.json" <<'PY'
import collections, json, sys
bad = False
for who, path in (("hostile", sys.argv[1]), ("peer", sys.argv[2])):
    try:
        r = json.load(open(path))
    except OSError:
        print(who, "no report:", open(path + ".err").read().strip().splitlines()[-1:])
        bad = True
        continue
    said = collections.Counter(t["verdict"] for p in r["problems"] for t in p["tests"])
    print(who, dict(said), "internal_error", r["internal_error"],
          sorted({t.get("message") or "" for p in r["problems"] for t in p["tests"] if t["verdict"] != "correct"})[:2])
    if who == "peer":
        bad = r["internal_error"] or set(said) != {"correct"}
sys.exit(1 if bad else 0)
PY
