#!/bin/sh
# dist/cluster/grade-parallel.sh - grade a class with GNU parallel: N shards
# (`grader batch --shard I/N`) spread over the machines of an ssh login file
# (a line ":" is this machine), then one merge.
#
#   N=4 NODES=nodes.txt JOBS=4 dist/cluster/grade-parallel.sh /shared/hw3/submissions /shared/hw3/out [grader options]
#
# Shard I writes OUT-I, the merge writes OUT.  SUBMISSIONS and OUT must be
# the same paths on every machine (a shared file system), with `grader` (or
# $GRADER) installed on each.  JOBS: cores per shard (grader -j).  Exit
# status: grader merge's (0 all graded, 1 some rows say why not, 2 a shard
# is missing: run the script again, finished students are kept).
set -eu
sub=${1:?usage: grade-parallel.sh SUBMISSIONS OUT [grader options]}
out=${2:?usage: grade-parallel.sh SUBMISSIONS OUT [grader options]}
shift 2
N=${N:-4}
GRADER=${GRADER:-grader}
# -q: every argument quoted for the remote shell; a shard's exit status 1
# (some rows say why) is no failure, so carry on to the merge whatever it is
parallel --will-cite -q -j "$N" --sshloginfile "${NODES:-nodes.txt}" \
	"$GRADER" batch "$sub" -o "$out-{}" --shard "{}/$N" -j "${JOBS:-4}" --resume "$@" ::: $(seq "$N") || true
exec "$GRADER" merge $(seq -f "$out-%g" "$N") -o "$out"
