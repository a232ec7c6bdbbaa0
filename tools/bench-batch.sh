#!/bin/sh
# tools/bench-batch.sh - how fast `grader batch` grades a class.
#
#   tools/bench-batch.sh [N]        (default N=100 students; JOBS="1 2" to choose -j values)
#
# Generates a class of N submissions for the small problem set of
# tests/batch (short absolute limits, so the few endless submissions cost
# seconds, not minutes): ~60% correct (copies of the reference), 20% wrong,
# 8% compile errors, 5% crashing, 4% missing files, 3% endless loops, a
# few of them as .zip / .tar.gz.  Grades it with -j 1 and -j 2 (warm
# reference cache, fresh output each time) and reports the total time,
# the time per student, the scaling, and the overhead: per student, the
# time in the worker beyond compiling and the student's own CPU time; for
# the batch, the total beyond the workers' grading time.  (At -j 1 a worker
# compiles problems in parallel on the spare core, so compile times
# overlap there.)  Numbers are only meaningful on an otherwise idle machine.
set -eu
cd "$(dirname "$0")/.."
N=${1:-100}
JOBS=${JOBS:-1 2}
GRADER=${GRADER:-$PWD/bin/grader}
[ -x "$GRADER" ] || make bin/grader >/dev/null

T=$(mktemp -d "${TMPDIR:-/tmp}/bench-batch.XXXXXX")
chmod 711 "$T"
trap 'rm -rf "$T"' EXIT INT TERM
mkdir "$T/tmp"
chmod 711 "$T/tmp"
export TMPDIR="$T/tmp"
SMALL="--problems tests/batch/problems --reference tests/batch/reference --cache $T/cache"

python3 - "$T/class" "$N" <<'EOF'
import io, os, random, sys, tarfile, zipfile
cls, n = sys.argv[1], int(sys.argv[2])
ref = {f: open("tests/batch/reference/" + f, "rb").read() for f in ("sum.c", "parity.c")}
fix = lambda kind, f: open("tests/batch/fixtures/%s/%s" % (kind, f), "rb").read()
crash = b"long long total(const int *L, int n);\nlong long total(const int *L, int n)\n" \
        b"{\n    volatile int *p = 0;\n    return *p + L[0] + n;\n}\n"
kinds = ["correct"] * 60 + ["wrong"] * 20 + ["compile"] * 8 + ["crash"] * 5 + ["missing"] * 4 + ["endless"] * 3
rng = random.Random(42)
os.makedirs(cls)
for i in range(n):
    kind = kinds[i * len(kinds) // n] if n >= len(kinds) else rng.choice(kinds)
    files = dict(ref)
    if kind == "wrong":
        files = {f: fix("wrong", f) for f in ref}
    elif kind == "compile":
        files["sum.c"] = fix("compile-error", "sum.c")
    elif kind == "crash":
        files["sum.c"] = crash
    elif kind == "missing":
        del files["parity.c"]
    elif kind == "endless":
        files = {f: fix("endless", f) for f in ref}
    sid = "s%03d-%s" % (i, kind)
    if i % 10 == 3:
        with zipfile.ZipFile(os.path.join(cls, sid + ".zip"), "w", zipfile.ZIP_DEFLATED) as z:
            for f, d in files.items():
                z.writestr(sid + "/" + f, d)
    elif i % 10 == 7:
        with tarfile.open(os.path.join(cls, sid + ".tar.gz"), "w:gz") as t:
            for f, d in files.items():
                ti = tarfile.TarInfo(f)
                ti.size = len(d)
                t.addfile(ti, io.BytesIO(d))
    else:
        os.makedirs(os.path.join(cls, sid))
        for f, d in files.items():
            open(os.path.join(cls, sid, f), "wb").write(d)
EOF

# warm the reference cache so every run measures grading only
"$GRADER" $SMALL tests/batch/reference >/dev/null 2>&1 || true

echo "bench-batch: $N students, $(nproc) cores, grader $("$GRADER" --version | cut -d' ' -f2)"
# how much parallel CPU this machine really gives us right now (shared hosts, noisy neighbours)
python3 - "$(nproc)" <<'EOF'
import multiprocessing, sys, time
def spin(_):
    t = time.perf_counter()
    n = 0
    while n < 2_000_000:
        n += 1
    return time.perf_counter() - t
k = int(sys.argv[1])
one = spin(0)
with multiprocessing.Pool(k) as pool:
    t = time.perf_counter()
    pool.map(spin, range(k))
    par = time.perf_counter() - t
print("machine check: %d CPU-bound processes at once give %.2fx the throughput of one (ideal %dx)"
      % (k, k * one / par, k))
EOF
for j in $JOBS; do
	python3 - "$GRADER" "$T" "$j" "$N" $SMALL <<'EOF'
import glob, json, os, resource, subprocess, sys, time
grader, T, j, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
small = sys.argv[5:]
out = os.path.join(T, "out-j%d" % j)
before = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.monotonic()
rc = subprocess.call([grader, "batch", os.path.join(T, "class"), "-o", out, "-j", str(j)] + small,
                     stderr=subprocess.DEVNULL)
wall = time.monotonic() - t0
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
compile_s = student_s = per_student = 0.0
graded = 0
for path in glob.glob(os.path.join(out, "state", "*.json")):
    st = json.load(open(path))
    compile_s += st["compile_ms"] / 1000
    student_s += st["cpu_ms"] / 1000
    per_student += st["seconds"]
    graded += st["graded"]
rows = sum(1 for _ in open(os.path.join(out, "grades.csv"))) - 1
work = compile_s + student_s
workers = min(j, n)
print("-j %d: %6.1f s total, %.3f s/student, %.2f students/s (rc=%d, %d rows, %d graded)"
      % (j, wall, wall / n, n / wall, rc, rows, graded))
print("       in the workers: %.3f s/student; compiling %.3f s + student CPU %.3f s"
      % (per_student / n, compile_s / n, student_s / n))
cores = min(j, os.cpu_count())
print("       share spent compiling: %.0f%% of the workers' time; wall / ((compile + student CPU) / %d) = %.2fx "
      "(target <= 1.2x)" % (100 * compile_s / per_student if per_student else 0, cores,
                            wall / (work / cores) if work else 0))
if os.cpu_count() // workers > 1:
    print("       (each worker had %d test slots: its compiles overlap, so no per-student overhead figure)"
          % (os.cpu_count() // workers))
else:
    print("       the rest, %.3f s/student, is the engine's overhead (sandbox and runner start-up, judging,"
          % ((per_student - work) / n))
    print("       reports and their fsync)")
print("       batch machinery: total - sum(per student)/workers = %.1f s (%.0f ms/student: workers, "
      "reference, gradebook)" % (wall - per_student / workers, 1000 * (wall - per_student / workers) / n))
print("       CPU of the whole process tree: %.1f s (%.0f%% of %d cores over the run)"
      % (cpu, 100 * cpu / (wall * os.cpu_count()), os.cpu_count()))
open(os.path.join(T, "wall-j%d" % j), "w").write("%f\n" % wall)
EOF
done
set -- $JOBS
if [ $# -ge 2 ]; then
	python3 - "$T" "$@" <<'EOF'
import sys
T, jobs = sys.argv[1], [int(x) for x in sys.argv[2:]]
walls = {j: float(open("%s/wall-j%d" % (T, j)).read()) for j in jobs}
base = walls[jobs[0]]
for j in jobs[1:]:
    print("scaling: -j %d is %.2fx faster than -j %d (ideal %.0fx)" % (j, base / walls[j], jobs[0], j / jobs[0]))
EOF
fi
cmp -s "$T/out-j${1}/grades.csv" "$T/out-j${2:-$1}/grades.csv" &&
	echo "grades.csv identical across -j values" || echo "WARNING: grades.csv differs across -j values"
