#!/bin/sh
# tests/cluster/run.sh - the cluster recipes of docs/batch.md on real engines:
#   - a single-node Slurm started here (Debian slurm-wlm and munge: munged,
#     slurmctld and slurmd on 127.0.0.1 with a minimal slurm.conf in a
#     temporary folder, proctrack/linuxproc and task/none, so no cgroups are
#     needed) runs dist/cluster/grade-array.sbatch as a job array
#     (sbatch --array=1-3), then the merge as a job depending on it;
#   - GNU parallel runs dist/cluster/grade-parallel.sh on this machine (":");
# each merged gradebook is compared with one `grader batch` of the same class
# (tests/batch/make-class.py): the same grades.csv and summary.html bytes.
# Needs root (the daemons); as a normal user it prints "SKIP (needs root)"
# and counts nothing as passed.  Everything it starts is stopped by pid, and
# its temporary folder removed.  Prints one line per check and
# "N passed, M failed, K skipped".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
ROOT=$REPO

if [ "$(id -u)" != 0 ]; then
	echo "SKIP (needs root): the Slurm daemons (slurmctld, slurmd, munged) are started as root"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
fi
# the class's endless code, and the daemons, live in a throwaway PID namespace:
# whatever this test starts dies with it
in_pid_namespace CLUSTER_TEST_IN_NS "$0" "$@"

lib_tmpdir cluster-test
pids=
all_pids=
stop_daemons() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do
		n=0
		while kill -0 "$p" 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
		kill -s KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	pids=
}
at_exit() { stop_daemons; }
bad() { not_ok "$@"; }
wait_for() { # wait_for SECONDS COMMAND...: until COMMAND succeeds
	limit=$(($1 * 10))
	shift
	n=0
	until "$@" >/dev/null 2>&1; do
		n=$((n + 1))
		[ $n -ge "$limit" ] && return 1
		sleep 0.1
	done
}

mkdir "$T/tmp"
chmod 711 "$T" "$T/tmp"   # the sandboxed compiler (nobody) must reach its scratch space
export TMPDIR="$T/tmp"
export GRADER_OPTIONS="--problems $ROOT/tests/batch/problems --reference $ROOT/tests/batch/reference"
export GRADER_BATCH_TIMEOUT= GRADER_TEST_BATCH_CRASH=
SHARDS=3

BATCH_HOSTILE=0 python3 tests/batch/make-class.py "$T/class" || { echo "FAIL - cannot build the class"; exit 1; }
export SUBMISSIONS="$T/class"
# shellcheck disable=SC2086
"$GRADER" batch "$T/class" -o "$T/single" $GRADER_OPTIONS --cache "$T/tmp/grader-cache" -j 2 >/dev/null 2>"$T/single.err"
rc=$?
check "one grader batch of the class (rc=$rc: some rows are errors by design)" [ "$rc" -eq 1 ]

same_gradebook() { # same_gradebook DIR: the merged gradebook is the single run's
	cmp "$1/grades.csv" "$T/single/grades.csv" && cmp "$1/summary.html" "$T/single/summary.html"
}

# ---- 1. Slurm ----
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
slurm_conf() {
	host=$(hostname -s)
	cat <<EOF
ClusterName=gradertest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.sock
StateSaveLocation=$T/slurm/state
SlurmdSpoolDir=$T/slurm/spool
SlurmctldPidFile=$T/slurm/slurmctld.pid
SlurmdPidFile=$T/slurm/slurmd.pid
SlurmctldLogFile=$T/slurm/slurmctld.log
SlurmdLogFile=$T/slurm/slurmd.log
PlugStackConfig=$T/slurm/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=grading Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

start_slurm() {
	mkdir -p "$T/munge" "$T/slurm/state" "$T/slurm/spool"
	: >"$T/slurm/plugstack.conf"
	head -c 1024 /dev/urandom >"$T/munge/munge.key" && chmod 600 "$T/munge/munge.key"
	munged -F --force --key-file="$T/munge/munge.key" --socket="$T/munge/munge.sock" \
		--pid-file="$T/munge/munged.pid" --seed-file="$T/munge/seed" --log-file="$T/munge/munged.log" \
		>"$T/munge/out" 2>&1 &
	pids="$pids $!"
	all_pids="$all_pids $!"
	wait_for 10 test -S "$T/munge/munge.sock" || { echo "munged did not start:"; cat "$T/munge/out"; return 1; }
	slurm_conf >"$T/slurm/slurm.conf"
	export SLURM_CONF="$T/slurm/slurm.conf"
	slurmctld -D -i -f "$SLURM_CONF" >"$T/slurm/slurmctld.out" 2>&1 &
	pids="$pids $!"
	all_pids="$all_pids $!"
	slurmd -D -f "$SLURM_CONF" >"$T/slurm/slurmd.out" 2>&1 &
	pids="$pids $!"
	all_pids="$all_pids $!"
	wait_for 30 sh -c 'sinfo -h -o %t | grep -qx idle' ||
		{ echo "slurm did not come up:"; tail -n 20 "$T/slurm/slurmctld.out" "$T/slurm/slurmd.out"; return 1; }
}

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v slurmd >/dev/null 2>&1 ||
   ! command -v munged >/dev/null 2>&1 || ! command -v sbatch >/dev/null 2>&1; then
	skip "Slurm or munge is not installed (Debian slurm-wlm, munge; tools/deps.sh test): no Slurm run"
elif ! start_slurm; then
	bad "a single-node Slurm starts here (munged, slurmctld, slurmd)"
else
	ok "a single-node Slurm starts here (munged, slurmctld, slurmd; $(sinfo -h -o '%c CPUs, partition %P'))"
	export OUT="$T/slurm-out"
	# the recipe as written, with the array sized for this machine
	jobid=$(sbatch --parsable --array=1-$SHARDS --cpus-per-task=1 --time=10:00 \
		-o "$T/slurm/task-%a.log" dist/cluster/grade-array.sbatch 2>"$T/slurm/sbatch.err")
	check "sbatch accepts the job array (job $jobid)" [ -n "$jobid" ]
	sbatch --parsable --wait --dependency=afterok:"$jobid" --time=10:00 -o "$T/slurm/merge.log" \
		--wrap "$GRADER merge $(seq -s ' ' -f "$OUT-%g" $SHARDS) -o $OUT" >/dev/null 2>"$T/slurm/merge.err"
	check "every array task ran (task logs: $(ls "$T/slurm" | grep -c '^task-'))" \
		[ "$(ls "$T/slurm" | grep -c '^task-')" -eq $SHARDS ]
	check "each task graded its shard ($(ls -d "$OUT"-* 2>/dev/null | wc -l) shard outputs)" sh -c \
		"for i in \$(seq $SHARDS); do grep -q \"\\\"shard_index\\\": \$i\" '$OUT'-\$i/batch.json || exit 1; done"
	check "the merge job ran after the array and wrote the gradebook" [ -f "$OUT/grades.csv" ]
	check "Slurm + merge: grades.csv and summary.html == one grader batch" same_gradebook "$OUT"
	stop_daemons
fi

# ---- 2. GNU parallel ----
if ! parallel --version 2>/dev/null | grep -q "GNU parallel"; then
	skip "GNU parallel is not installed (Debian parallel; tools/deps.sh test): no parallel run"
else
	echo ":" >"$T/nodes.txt"   # this machine, as GNU parallel's ssh login file says it
	# shellcheck disable=SC2086
	N=$SHARDS NODES="$T/nodes.txt" JOBS=1 dist/cluster/grade-parallel.sh "$T/class" "$T/par" $GRADER_OPTIONS \
		>"$T/par.out" 2>"$T/par.err"
	rc=$?
	check "grade-parallel.sh: $SHARDS shards and the merge (rc=$rc, as one batch: 1)" [ "$rc" -eq 1 ]
	check "GNU parallel + merge: grades.csv and summary.html == one grader batch" same_gradebook "$T/par"
fi

check "nothing left running (daemons stopped:$all_pids)" sh -c "for p in $all_pids; do kill -0 \$p 2>/dev/null && exit 1; done; exit 0"
finish
