#!/bin/sh
# tests/pack/run.sh - the student pack: made, unpacked on a "fresh machine"
# (an empty temporary directory), checked for leaks, built and used.
#
#   - tools/pack.sh makes the tarball (with $GRADER running `grader pack`);
#   - it holds no reference/ and no line distinctive of reference/*.c or
#     reference/python/*.py; tools/pack.sh refuses to pack a reference file;
#   - its problem files hold no hidden group and none of the hidden tests'
#     inputs or long values (taken from an instructor view of the real
#     problems), yet every public test with its name, and need no reference;
#   - `make` builds it there; the template grades to exit 1 with a complete
#     report; a copy of reference/*.c as a submission gets full marks, exit 0;
#   - .github/grade.sh (what the workflow runs) writes the JUnit report and
#     the step summary and fails on the template.
# tools/run-unprivileged.sh's [user] pass (GRADER_EXPECT_LEVEL set) leaves
# out the calibration on a slower machine: arithmetic on the workload's
# times, the same whoever runs it.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
top=$PWD
lib_tmpdir pack-test
tmp=$T
seed_cache "$tmp/cache"
cg=
at_exit() { [ -z "$cg" ] || rmdir "$cg" 2>/dev/null; } # the quota cgroup of the calibration check

# fail TEXT: not ok, with the end of the last command's stderr
fail() {
	not_ok "$1"
	[ -s "$tmp/last.err" ] && sed 's/^/     /' "$tmp/last.err" | tail -20
	: >"$tmp/last.err"
}

# ---- make the pack ----
if GRADER=$GRADER GRADER_CACHE=$tmp/cache tools/pack.sh "$tmp/pack.tar.gz" >"$tmp/last.err" 2>&1 &&
	! grep -q 'Sanitizer\|runtime error:' "$tmp/last.err"; then
	ok "tools/pack.sh made the tarball"
else
	fail "tools/pack.sh"
	finish
fi
mkdir "$tmp/fresh"
tar -xzf "$tmp/pack.tar.gz" -C "$tmp/fresh"
set -- "$tmp"/fresh/*
if [ $# -eq 1 ] && [ -d "$1" ]; then ok "one top directory: $(basename "$1")"; else fail "the tarball's layout"; finish; fi
root=$1

missing=""
for f in README.md Makefile grader/cmd/main.c grader/runtime/runtime.c tools/deps.sh tools/embed.sh \
	student_template/README.md student_template/p1.c student_template/python/P3.py .github/workflows/grade.yml .github/grade.sh .gitlab-ci.yml \
	Dockerfile .devcontainer/devcontainer.json; do
	[ -f "$root/$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "the pack has the sources, template, README and CI files"; else fail "missing:$missing"; fi
if [ ! -e "$root/reference" ] && [ ! -e "$root/tests" ] && [ -z "$(find "$root" -name '*.ref')" ]; then
	ok "no reference/, tests/ or cached answers"
else
	fail "reference/, tests/ or a cache in the pack"
fi

# ---- every way of building the pack installs what tools/deps.sh needs ----
# (the Dockerfile for macOS, the GitHub and GitLab workflows; the image itself
# is not built here: there is no Docker engine on the test machine)
need=$(sed -n 's/^need="\(.*\)"$/\1/p' tools/deps.sh | tr ' ' '\n' | sed 's/:.*//' | sort -u)
short=""
for f in Dockerfile .github/workflows/grade.yml .gitlab-ci.yml; do
	for pkg in $need; do
		grep -qw -- "$pkg" "$root/$f" || short="$short $f:$pkg"
	done
done
if [ -n "$need" ] && [ -z "$short" ]; then
	ok "Dockerfile and both workflows install every build dependency ($(echo $need | tr '\n' ' '))"
else
	fail "missing build dependencies:${short:- (none found in tools/deps.sh)}"
fi
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["build"]["dockerfile"] != "../Dockerfile")' \
	"$root/.devcontainer/devcontainer.json" 2>"$tmp/last.err"; then
	ok ".devcontainer/devcontainer.json is JSON and builds the pack's Dockerfile"
else
	fail ".devcontainer/devcontainer.json"
fi

# ---- no line distinctive of a reference solution ----
# every reference line of 20+ characters that no file the pack may hold
# (the template, the grader's sources, the tools) shares; lines compared
# whole, leading and trailing blanks ignored
cat student_template/*.c student_template/python/*.py grader/*/* tools/*.sh Makefile |
	sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' | sort -u >"$tmp/shipped.lines"
find "$root" -type f -exec cat {} + | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' | sort -u >"$tmp/pack.lines"
for ref in reference/*.c reference/python/*.py; do
	sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$ref" | awk 'length >= 20' | sort -u >"$tmp/ref.lines"
	comm -23 "$tmp/ref.lines" "$tmp/shipped.lines" >"$tmp/distinct.lines"
	n=$(wc -l <"$tmp/distinct.lines")
	long=$(wc -l <"$tmp/ref.lines")
	# a short reference (an instructor's added nim.py: 3 of its 4 long lines) is checked on what it has;
	# fewer than 5 distinctive lines fail only when most of its lines are in the shipped files too
	if [ "$n" -lt 5 ] && [ $((2 * n)) -le "$long" ]; then
		fail "$ref: only $n of its $long lines of 20+ characters are distinctive"
	elif comm -12 "$tmp/distinct.lines" "$tmp/pack.lines" | grep -q .; then
		comm -12 "$tmp/distinct.lines" "$tmp/pack.lines" | head -3 >"$tmp/last.err"
		fail "$ref: its code is in the pack"
	else
		ok "$ref: none of its $n distinctive lines is in the pack"
	fi
done

# ---- no hidden group, input or value ----
"$GRADER" list >"$tmp/list.orig" 2>"$tmp/last.err"
"$GRADER" list --problems "$root/problems" >"$tmp/list.pack" 2>>"$tmp/last.err"
hidden_groups=$(awk '$1 == "group" && $3 == "hidden" { print $2 }' "$tmp/list.orig" | sort -u)
public_groups=$(awk '$1 == "group" && $3 == "public" { print $2 }' "$tmp/list.orig" | sort -u | tr '\n' ' ')
pack_groups=$(awk '$1 == "group" { print $2 }' "$tmp/list.pack" | sort -u | tr '\n' ' ')
if [ -n "$hidden_groups" ] && [ "$public_groups" = "$pack_groups" ] && ! grep -q ' hidden ' "$tmp/list.pack"; then
	ok "the pack's problems have exactly the public groups ($pack_groups)"
else
	fail "groups: public [$public_groups], pack [$pack_groups]"
fi
leaked=""
for g in $hidden_groups; do
	# a hidden group's name may also be a public group's elsewhere (p1 and p3 both have 'small')
	for f in "$root"/problems/*.yaml; do
		id=$(basename "$f" .yaml)
		if awk -v id="$id" -v g="$g" '$1 == id { p = 1; next } /^[^ ]/ { p = 0 } p && $1 == "group" && $2 == g && $3 == "hidden"' \
			"$tmp/list.orig" | grep -q . && grep -q "^- name: $g\$" "$f"; then
			leaked="$leaked $id/$g"
		fi
	done
done
if [ -z "$leaked" ]; then ok "no hidden group's name in its problem file"; else fail "hidden groups in the pack:$leaked"; fi

# the hidden tests of the real problem set, seen by an instructor, against
# the pack (graded on the reference, so that every test has its expected value)
mkdir "$tmp/solution"
cp reference/*.c "$tmp/solution/"
"$GRADER" --cache "$tmp/cache" --show-hidden --format json:"$tmp/hidden.json" "$tmp/solution" >/dev/null 2>"$tmp/last.err"
(cd "$root" && "$GRADER" --no-cache --show-hidden --format json:"$tmp/pack.json" "$tmp/solution") >/dev/null 2>>"$tmp/last.err"
if python3 - "$tmp/hidden.json" "$tmp/pack.json" "$root" >"$tmp/py.out" 2>&1 <<'EOF'; then
import json, os, re, sys
orig, pack, root = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
hidden_calls, public = set(), {}
numbers = set()
for p in orig["problems"]:
    for t in p["tests"]:
        if t["visibility"] == "hidden":
            hidden_calls.add((p["id"], t["call"]))
            numbers.update(re.findall(r"-?[0-9]{8,}", t["call"]))
            if isinstance(t.get("expected"), int) and abs(t["expected"]) >= 10**8:
                numbers.add(str(t["expected"]))
        else:
            public[(p["id"], t["name"])] = t
packed = {(p["id"], t["name"]): t for p in pack["problems"] for t in p["tests"]}
assert hidden_calls and numbers, "no hidden tests to look for"
assert all(t["visibility"] == "public" for t in packed.values()), "a hidden test in the pack"
assert not {(pid, t["call"]) for (pid, _), t in packed.items()} & hidden_calls, "a hidden call in the pack"
assert set(packed) == set(public), f"public tests differ: {len(packed)} packed, {len(public)} public"
assert all(t["verdict"] == "correct" for t in list(packed.values()) + list(public.values())), "the reference failed"
assert all(packed[k]["call"] == public[k]["call"] and packed[k]["expected"] == public[k]["expected"]
           for k in public), "a public test's call or expected value changed"
text = b"".join(open(os.path.join(d, f), "rb").read() for d, _, fs in os.walk(root) for f in fs)
found = numbers & set(n.decode() for n in re.findall(rb"-?[0-9]+", text))
assert not found, f"hidden values in the pack: {sorted(found)[:5]}"
print(f"{len(hidden_calls)} hidden calls and {len(numbers)} long hidden values absent; "
      f"{len(public)} public tests with the same names, calls and expected values")
EOF
	ok "hidden inputs and values absent, public tests intact: $(cat "$tmp/py.out")"
else
	cp "$tmp/py.out" "$tmp/last.err"
	fail "hidden tests against the pack"
fi
if ! grep -q 'cpu_factor' "$root"/problems/*.yaml && [ "$(grep -c 'cpu_ms:' "$root"/problems/*.yaml | grep -c ':0$')" -eq 0 ]; then
	ok "every group of the pack has an absolute CPU limit"
else
	fail "relative CPU limits in the pack"
fi

# ---- the limits follow the machine's speed (issue 30, part 5; calibrate.h) ----
# Every CPU limit carries the calibration workload's CPU time where the pack
# was made; grading times the workload again and scales the limits by
# here / there.  The checker takes the packed cpu_ms (the YAML), the two
# times (the report's note) and the limits that applied (the JSON report),
# and asserts limit = ceil(packed x here / there) up to the note's rounding.
if [ "$(grep -c 'limits: {cpu_ms: [0-9]*, calibration_ms: [0-9]*,' "$root"/problems/*.yaml | grep -c ':0$')" -eq 0 ] &&
	[ "$(grep -c 'limits:' "$root"/problems/*.yaml | tr '\n' ' ')" = "$(grep -c 'calibration_ms: [0-9]' "$root"/problems/*.yaml | tr '\n' ' ')" ]; then
	ok "every packed CPU limit carries calibration_ms"
else
	grep -h 'limits:' "$root"/problems/*.yaml | sort | uniq -c >"$tmp/last.err"
	fail "packed limits without calibration_ms"
fi
# calibrated KIND MIN MAX: grade p4 (the reference's p4.c) in the pack with
# the environment already set; the C factor must lie in [MIN, MAX], the note
# say KIND (slower, trusts: clamped; "": any), the limits scale.  The same
# machine gives x1 give or take the noise of a loaded machine's CPU time
# ($cgroup_procs: the cgroup.procs file to run the grader in, or empty)
cgroup_procs=
calibrated() {
	(cd "$root" && sh -c 'if [ -n "$0" ]; then echo $$ >"$0" || exit 99; fi; exec "$@"' "$cgroup_procs" \
		"$GRADER" --no-cache --only p4 --format text --format json:"$tmp/cal.json" "$tmp/solution") \
		>"$tmp/cal.txt" 2>"$tmp/last.err"
	python3 - "$root/problems/p4.yaml" "$tmp/cal.json" "$tmp/cal.txt" "$1" "$2" "$3" >>"$tmp/last.err" 2>&1 <<'EOF'
import json, math, re, sys
yaml_text, rep, txt, kind, lo, hi = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), open(sys.argv[3]).read(), sys.argv[4], float(sys.argv[5]), float(sys.argv[6])
c_part = yaml_text.split("\nlanguages:")[0]                 # the C variant's groups come first
packed = [int(x) for x in re.findall(r"^  limits: \{cpu_ms: (\d+), calibration_ms: \d+,", c_part, re.M)]
note = rep["calibration"]
assert note and note in txt, f"the note is not in both reports: {note!r}"
m = re.search(r"for C \(calibration workload: (\d+) ms of CPU here, (\d+) ms there\)|the C calibration workload about as fast .*\((\d+) ms of CPU here, (\d+) ms there\)", note)
assert m, f"no C timing in the note: {note!r}"
here, there = (int(m.group(1)), int(m.group(2))) if m.group(1) else (int(m.group(3)), int(m.group(4)))
factor = here / there
assert lo <= factor <= hi, f"factor {factor:.2f} not in [{lo}, {hi}] ({note})"
assert kind in note, f"the note does not say {kind!r}: {note!r}"
applied = min(max(factor, 1 / 3), 5)
m = re.search(r"scaled by x(\d+\.\d+)", note)
assert m and abs(float(m.group(1)) - applied) < 0.006, f"scaled by {m and m.group(1)}, expected {applied:.2f}"
limits = [g["limits"]["cpu_ms"] for g in rep["problems"][0]["groups"]]
assert len(limits) == len(packed) and packed, (limits, packed)
for p, l in zip(packed, limits):
    assert abs(l - math.ceil(p * applied)) <= 1, f"limit {l} ms, packed {p} ms x {applied:.3f} = {p * applied:.0f}"
assert all(t["verdict"] == "correct" for t in rep["problems"][0]["tests"]), "the reference failed in the pack"
print(f"x{factor:.2f} ({here} ms here, {there} ms there): limits {packed[0]} -> {limits[0]} ms")
EOF
}
if calibrated "" 0.5 2; then
	ok "the same machine: the C limits scaled by here / there, within [0.5, 2] ($(tail -1 "$tmp/last.err"))"
else
	fail "calibration on the machine the pack was made on"
fi
# (the limits' scaling on a slower machine is the same whoever runs the grader: in the main run only,
# not again in tools/run-unprivileged.sh's [user] pass; the check above grades the pack at that level)
if [ -z "${GRADER_EXPECT_LEVEL:-}" ]; then
	# a slower machine: the workload really does 3 times its work (a test-only
	# hook, calibrate.h), so its CPU time is 3 times as much, as on a CPU 3
	# times slower; a cgroup CPU quota cannot stand for it (it delays, it does
	# not add CPU time: the check after this one)
	export GRADER_TEST_CALIBRATION_WORK=3
	if calibrated "slower" 1.7 5; then
		ok "a machine 3x slower: the note says so and the C limits are 3x ($(tail -1 "$tmp/last.err"))"
	else
		fail "calibration on a slower machine"
	fi
	GRADER_TEST_CALIBRATION_WORK=10
	if calibrated "more than the grader trusts" 5.01 20; then
		ok "a machine 10x slower: past the bound, the limits 5x only and the note says so ($(tail -1 "$tmp/last.err"))"
	else
		fail "calibration past the bound"
	fi
	unset GRADER_TEST_CALIBRATION_WORK
fi
# a busy machine is not a slow one: under a cgroup v1 CPU quota of a tenth of
# a CPU (root only) the grader waits (the group's cpu.stat counts how long),
# but the workload's CPU time is the same
cg=/sys/fs/cgroup/cpu/pack-calib.$$
if [ "$(id -u)" -eq 0 ] && [ -w /sys/fs/cgroup/cpu ] && mkdir "$cg" 2>/dev/null; then
	echo 100000 >"$cg/cpu.cfs_period_us" && echo 10000 >"$cg/cpu.cfs_quota_us"
	cgroup_procs=$cg/cgroup.procs
	if calibrated "" 0.5 2 &&
		[ "$(awk '$1 == "throttled_time" { print int($2 / 1e9) }' "$cg/cpu.stat")" -ge 1 ]; then
		ok "a tenth of a CPU (cgroup quota: $(awk '$1 == "throttled_time" { printf "%.1f", $2 / 1e9 }' "$cg/cpu.stat") s throttled): not slower, x in [0.5, 2] ($(tail -1 "$tmp/last.err"))"
	else
		fail "calibration under a CPU quota"
	fi
	cgroup_procs=
	rmdir "$cg" 2>/dev/null || { sleep 1; rmdir "$cg"; }
else
	echo "skip a tenth of a CPU under a cgroup v1 quota: needs root and /sys/fs/cgroup/cpu"
fi

# ---- a fresh machine: build, grade ----
if (cd "$root" && make >"$tmp/make.out" 2>&1) && [ -x "$root/bin/grader" ]; then
	ok "make builds the pack's grader"
else
	cp "$tmp/make.out" "$tmp/last.err"
	fail "make in the pack"
	finish
fi
(cd "$root" && bin/grader --no-cache student_template >"$tmp/template.txt" 2>"$tmp/last.err")
rc=$?
if [ "$rc" -eq 1 ] && grep -q '^Total: ' "$tmp/template.txt" &&
	[ "$(awk '/^Summary$/ { s = 1; next } /^Total:/ { s = 0 } s' "$tmp/template.txt" | wc -l)" -eq "$(ls problems/*.yaml | wc -l)" ]; then
	ok "the template: exit 1, a complete report (every problem in the summary)"
else
	cp "$tmp/template.txt" "$tmp/last.err"
	fail "the template: exit $rc"
fi
(cd "$root" && bin/grader --no-cache "$tmp/solution" >"$tmp/solution.txt" 2>"$tmp/last.err")
rc=$?
if [ "$rc" -eq 0 ] && grep -Eq '^Total: ([0-9.]+) / \1  ' "$tmp/solution.txt"; then
	ok "the reference as a submission: full marks, exit 0 ($(grep '^Total:' "$tmp/solution.txt"))"
else
	cp "$tmp/solution.txt" "$tmp/last.err"
	fail "the reference as a submission: exit $rc"
fi

# the Python reference too, graded by the pack's own problem files (the Python
# parts of them): full marks, exit 0
mkdir "$tmp/solution-py"
cp reference/python/*.py "$tmp/solution-py/"
(cd "$root" && bin/grader --no-cache "$tmp/solution-py" >"$tmp/solution-py.txt" 2>"$tmp/last.err")
rc=$?
if [ "$rc" -eq 0 ] && grep -Eq '^Total: ([0-9.]+) / \1  ' "$tmp/solution-py.txt" && grep -q '(Python ' "$tmp/solution-py.txt"; then
	ok "the Python reference as a submission: full marks, exit 0 ($(grep '^Total:' "$tmp/solution-py.txt"))"
else
	cp "$tmp/solution-py.txt" "$tmp/last.err"
	fail "the Python reference as a submission: exit $rc"
fi
# the course's skeletons, unsolved: a report, exit 1, what their self-tests printed shown
(cd "$root" && bin/grader --no-cache student_template/python >"$tmp/skeleton.txt" 2>"$tmp/last.err")
rc=$?
if [ "$rc" -eq 1 ] && grep -q '^Total: ' "$tmp/skeleton.txt" && grep -q 'printed while starting' "$tmp/skeleton.txt"; then
	ok "the Python skeletons: exit 1, a complete report with their self-tests' output"
else
	cp "$tmp/skeleton.txt" "$tmp/last.err"
	fail "the Python skeletons: exit $rc"
fi

# ---- what the workflow runs ----
: >"$tmp/summary.md"
(cd "$root" && GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$tmp/summary.md .github/grade.sh >"$tmp/ci.out" 2>"$tmp/last.err")
rc=$?
if [ "$rc" -eq 1 ] && xmllint --noout "$root/grade-report.xml" 2>>"$tmp/last.err" &&
	grep -q '^## Grading results' "$tmp/summary.md" && grep -q '^::error file=student_template/p1.c,' "$tmp/ci.out" &&
	python3 - "$tmp/ci.out" <<'EOF'; then
import re, sys
log = open(sys.argv[1]).read()
m = re.match(r"::stop-commands::([0-9a-f]{32})\n(.*)\n::\1::\n((::.*\n)+)$", log, re.S)
assert m and "Total:" in m.group(2), "the report is not between stop-commands markers, annotations after"
EOF
	ok "the workflow's grade step: exit 1 on the template, report between ::stop-commands:: markers, annotations, JUnit report, step summary"
else
	fail "the workflow's grade step: exit $rc"
fi
# a Python student: mywork/ from the course's skeletons, one function solved,
# the self-test left in; the same step annotates the .py files
cp -r "$root/student_template/python" "$root/mywork"
sed -i '0,/return False  # TODO.*/s//return state % 8 not in (0, 7)/' "$root/mywork/P1.py"
: >"$tmp/summary-py.md"
(cd "$root" && GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$tmp/summary-py.md .github/grade.sh >"$tmp/ci-py.out" 2>"$tmp/last.err")
rc=$?
if [ "$rc" -eq 1 ] && xmllint --noout "$root/grade-report.xml" 2>>"$tmp/last.err" &&
	grep -q '^::error file=mywork/P2.py,' "$tmp/ci-py.out" && grep -q '(Python ' "$tmp/ci-py.out" &&
	grep -q 'printed while starting' "$tmp/ci-py.out" && grep -q '^## Grading results' "$tmp/summary-py.md"; then
	ok "the workflow's grade step on a Python mywork/: annotations on the .py files, the self-tests' output shown"
else
	cp "$tmp/ci-py.out" "$tmp/last.err"
	fail "the workflow's grade step on Python: exit $rc"
fi
# GitLab runs the script lines of .gitlab-ci.yml (make, then the same grade.sh) without
# GitHub's variables: the text report and the JUnit report for its Tests tab
if python3 - "$root/.gitlab-ci.yml" >"$tmp/gitlab-script" 2>"$tmp/last.err" <<'EOF'; then
import re, sys
block = re.search(r"^  script:\n((?:    - .*\n)+)", open(sys.argv[1]).read(), re.M).group(1)
print("\n".join(line.strip()[2:] for line in block.splitlines()))
EOF
	rm -f "$root/grade-report.xml"
	(cd "$root" && env -u GITHUB_ACTIONS -u GITHUB_STEP_SUMMARY sh -c "$(cat "$tmp/gitlab-script")" >"$tmp/gitlab.out" 2>"$tmp/last.err")
	rc=$?
	if [ "$rc" -eq 1 ] && grep -qx 'make' "$tmp/gitlab-script" && xmllint --noout "$root/grade-report.xml" 2>>"$tmp/last.err" &&
		grep -q 'file="mywork/P2.py"' "$root/grade-report.xml" && grep -q '(Python ' "$tmp/gitlab.out" &&
		! grep -q '^::' "$tmp/gitlab.out"; then
		ok "GitLab's script on a Python mywork/: exit 1, the report, a JUnit report naming the .py files"
	else
		cp "$tmp/gitlab.out" "$tmp/last.err"
		fail "GitLab's script on Python: exit $rc"
	fi
else
	fail "the script lines of .gitlab-ci.yml"
fi
rm -rf "$root/mywork"
if grep -q 'run: .github/grade.sh' "$root/.github/workflows/grade.yml" &&
	grep -q 'actions/upload-artifact' "$root/.github/workflows/grade.yml" && grep -q 'run: make' "$root/.github/workflows/grade.yml"; then
	ok "the workflow builds, grades and uploads the report"
else
	fail "the workflow's steps"
fi
if python3 -c 'import yaml' 2>/dev/null; then
	if python3 -c 'import sys, yaml; w = yaml.safe_load(open(sys.argv[1])); assert w["jobs"]["run-autograding-tests"]["steps"]' \
		"$root/.github/workflows/grade.yml" 2>"$tmp/last.err"; then
		ok "the workflow is valid YAML"
	else
		fail "the workflow's YAML"
	fi
fi
# ---- GitHub Classroom: the grade step's `result` output, read by Classroom's reporter ----
# (issue 14, item 3) grade.sh writes result=<base64 JSON> to $GITHUB_OUTPUT
# (bin/grader --format classroom); the workflow's grade step has an id, and
# a classroom-resources/autograding-grading-reporter step reads it as
# <ID>_RESULTS with runners: <id>, even when grading failed, as GitHub
# Classroom's own template does.  A submission of p1 and p4 only: quick.
mkdir -p "$tmp/two"
cp "$root/student_template/p1.c" "$root/student_template/p4.c" "$tmp/two/"
: >"$tmp/gh-output"
(cd "$root" && GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$tmp/summary-two.md GITHUB_OUTPUT=$tmp/gh-output \
	.github/grade.sh "$tmp/two" >"$tmp/ci-two.out" 2>"$tmp/last.err")
rc=$?
# a test per problem of problems/, in the grader's order (the ids' strcmp order): read from the files,
# so that an instructor's added problem keeps this green
ids=$(sed -n 's/^id: *//p' problems/*.yaml | LC_ALL=C sort | tr '\n' ' ')
if [ "$rc" -eq 1 ] && python3 - "$tmp/gh-output" "$tmp/ci-two.out" "$ids" >>"$tmp/last.err" 2>&1 <<'EOF'; then
import base64, json, re, sys
out = open(sys.argv[1]).read().splitlines()
assert len(out) == 1 and out[0].startswith("result="), out
r = json.loads(base64.b64decode(out[0][len("result="):], validate=True))
assert r["version"] == 1 and r["status"] == "fail", r
names = [t["name"].split()[0] for t in r["tests"]]
assert names == sys.argv[3].split() and "p2" in names, (names, sys.argv[3])
assert all(t["status"] == "fail" for t in r["tests"]) and r["tests"][names.index("p2")]["score"] == 0
m = re.search(r"^::notice title=Score ([0-9.]+) / ([0-9.]+)::", open(sys.argv[2]).read(), re.M)
assert m and abs(sum(t["score"] for t in r["tests"]) - float(m.group(1))) < 1e-3 and abs(r["max_score"] - float(m.group(2))) < 1e-3, m
EOF
	ok "the workflow's grade step writes result= (Classroom's base64 JSON, its scores the run's score) to \$GITHUB_OUTPUT"
else
	cp "$tmp/ci-two.out" "$tmp/last.err"
	fail "the grade step's Classroom result: exit $rc"
fi
if python3 -c 'import yaml' 2>/dev/null; then
	if python3 - "$root/.github/workflows/grade.yml" 2>"$tmp/last.err" <<'EOF'; then
import re, sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
assert w["permissions"].get("checks") == "write", "Classroom's template grants checks: write"
steps = w["jobs"]["run-autograding-tests"]["steps"]
grade = next(i for i, s in enumerate(steps) if s.get("run") == ".github/grade.sh")
sid = steps[grade].get("id", "")
assert re.fullmatch(r"[a-zA-Z0-9]+", sid), f"the grade step's id {sid!r}: the reporter accepts letters and digits"
rep = [i for i, s in enumerate(steps) if str(s.get("uses", "")).startswith("classroom-resources/autograding-grading-reporter@v1")]
assert len(rep) == 1 and rep[0] > grade, "one reporter step, after the grade step"
s = steps[rep[0]]
assert s["with"]["runners"] == sid, s
assert re.fullmatch(r"\$\{\{ *steps\." + sid + r"\.outputs\.result *\}\}", s["env"][sid.upper() + "_RESULTS"]), s["env"]
assert "cancelled()" in s.get("if", "") or "always()" in s.get("if", ""), "the reporter runs when the grade step failed"
up = next(x for x in steps if "upload-artifact" in str(x.get("uses", "")))
assert up.get("if") == "always()", "the JUnit report is uploaded whatever happened"
EOF
		ok "the workflow: a Classroom reporter step (runners: the grade step's id, <ID>_RESULTS: its result output)"
	else
		fail "the workflow's Classroom reporter step"
	fi
fi
cd "$top"
finish
