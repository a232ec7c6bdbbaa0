#!/bin/sh
# tests/games/run.sh - the second bundled problem set, examples/games/ (issue 33).
#
#   1. the references (C and Python) against independent brute force and the
#      published values (check_reference.py);
#   2. bin/grader --problems examples/games/problems --reference
#      examples/games/reference grades each reference, C and Python, to full
#      marks (exit 0), and the tests the generators chose hold what the files
#      ask: balanced groups, losing positions, XOR-0 rows (check_report.py);
#   3. every wrong solution in fixtures/ (constant answers, plain recursion,
#      an early-exit scan; C and Python) scores what its EXPECTED says:
#      a constant answer at most 60 %, the slow ones nothing on the large group;
#   4. growth (docs/growth.md): the C references' classes (or "cannot say"),
#      the slow fixtures' classes after their time limits (EXPECTED `growth`
#      lines: exponents and bases within margins, never times), and growth
#      sections naming a wrong argument refused with file:line:col;
#   5. a reference file missing: the instructor's message, in selftest and grade;
#   6. grader mutate kills at least 95 % of the references' mutants
#      (GAMES_MUTATE=0 skips it: several minutes on 2 cores).
# $GRADER defaults to build/asan/grader.  Prints "ok - ..." / "not ok - ..."
# per check and "N passed, M failed"; exit 1 on any failure.
set -u
cd "$(dirname "$0")/../.." || exit 2
REPO=$PWD
: "${GRADER:=$REPO/build/asan/grader}"
: "${GAMES_MUTATE:=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
GAMES="--problems $REPO/examples/games/problems --reference $REPO/examples/games/reference"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/grader-games.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM HUP
CACHE="$TMP/cache"
passed=0
failed=0

# count the ok / not ok lines of a checker's output, echoing them
tally() {
	while IFS= read -r line; do
		echo "$line"
		case $line in
		"ok "*) passed=$((passed + 1)) ;;
		"not ok "*) failed=$((failed + 1)) ;;
		esac
	done <"$1"
}

ok() {
	if [ "$1" = 0 ]; then
		echo "ok - $2"
		passed=$((passed + 1))
	else
		echo "not ok - $2"
		failed=$((failed + 1))
	fi
}

if [ ! -x "$GRADER" ]; then
	echo "not ok - grader '$GRADER' is built (make build/asan/grader)"
	echo "0 passed, 1 failed"
	exit 1
fi

python3 tests/games/check_reference.py >"$TMP/ref.out" 2>&1
echo "# exit $?" >>"$TMP/ref.out"
tally "$TMP/ref.out"

# selftest: every reference full marks, every explicit expected agrees, the languages agree
"$GRADER" selftest $GAMES --cache "$CACHE" >"$TMP/selftest.out" 2>&1
ok $? "grader selftest on examples/games (exit 0: $(tail -n 1 "$TMP/selftest.out"))"

for lang in c python; do
	dir=examples/games/reference
	growth=
	[ $lang = python ] && dir=examples/games/reference/python
	# the C references' growth too (it changes no score): their classes, or "cannot say"
	[ $lang = c ] && growth=--growth
	"$GRADER" $GAMES --cache "$CACHE" --show-hidden $growth --format json -o "$TMP/ref-$lang.json" "$dir" \
		>"$TMP/ref-$lang.out" 2>&1
	code=$?
	ok $code "the $lang reference gets full marks from bin/grader --problems examples/games/problems (exit $code)"
	[ -s "$TMP/ref-$lang.json" ] || continue
	python3 tests/games/check_report.py chosen "$TMP/ref-$lang.json" "$lang reference" >"$TMP/chosen.out" 2>&1
	echo "# exit $?" >>"$TMP/chosen.out"
	tally "$TMP/chosen.out"
	[ $lang = c ] || continue
	python3 tests/games/check_report.py expect "$TMP/ref-c.json" tests/games/growth-reference.expected \
		>"$TMP/growth.out" 2>&1
	echo "# exit $?" >>"$TMP/growth.out"
	tally "$TMP/growth.out"
	# the growth line of the log names the call once where the problem's id is the call's name
	# (it said "grader: canIWin: canIWin: the grader cannot say ...")
	grep -q '^grader: canIWin' "$TMP/ref-c.out" && ! grep -q 'canIWin: canIWin' "$TMP/ref-c.out"
	ok $? "the log's growth line for canIWin names it once ($(grep -m1 '^grader: canIWin' "$TMP/ref-c.out" | cut -c1-90))"
done

# wrong solutions: a submission of one file each, graded on that problem only
for fixture in tests/games/fixtures/*/; do
	fixture=${fixture%/}
	name=$(basename "$fixture")
	sub="$TMP/sub/$name"
	mkdir -p "$sub"
	cp "$fixture"/*.c "$fixture"/*.py "$sub"/ 2>/dev/null
	id=$(sed -n 's/^[a-z]* \([A-Za-z_]*\) .*/\1/p' "$fixture/EXPECTED" | head -n 1)
	# a fixture with a growth line is measured after its (hidden) time limit, as grade does by default;
	# the others not (up to 10 s of CPU each)
	growth=--no-growth
	grep -q '^growth ' "$fixture/EXPECTED" && growth=
	"$GRADER" $GAMES --cache "$CACHE" --only "$id" --show-hidden $growth --format json -o "$TMP/$name.json" "$sub" \
		>"$TMP/$name.out" 2>&1
	code=$?
	ok $((code != 1)) "$name: graded, some test failed (exit $code, expected 1)"
	python3 tests/games/check_report.py expect "$TMP/$name.json" "$fixture/EXPECTED" >"$TMP/expect.out" 2>&1
	echo "# exit $?" >>"$TMP/expect.out"
	tally "$TMP/expect.out"
done

# grader list --only: the one problem, and an unknown id refused
"$GRADER" list $GAMES --only nim >"$TMP/list.out" 2>&1
code=$?
lines=$(grep -c '^[A-Za-z]' "$TMP/list.out")
ok $((code != 0 || lines != 1)) "grader list --only nim lists one problem (exit $code, $lines problem lines)"
"$GRADER" list $GAMES --only nope >"$TMP/list.out" 2>&1
code=$?
grep -q "no problem 'nope' (known: canIWin grundy nim)" "$TMP/list.out"
ok $((code != 2 || $? != 0)) "grader list --only nope: usage error naming the known ids (exit $code)"

# growth naming an argument the function does not have, or drawing the growing one: file:line:col errors
mkdir -p "$TMP/badgrowth"
# NAME FILE SED-EXPRESSION CHANGED-LINE MARKER MESSAGE: the error stands at MARKER in the changed line
# (its line and column found in the changed file, not written here)
badgrowth() {
	name=$1 file=$2 edit=$3 changed=$4 marker=$5 message=$6
	mkdir -p "$TMP/badgrowth/$name"
	sed "$edit" "examples/games/problems/$file" >"$TMP/badgrowth/$name/$file"
	line=$(grep -nxF "$changed" "$TMP/badgrowth/$name/$file" | cut -d: -f1)
	col=$(awk -v l="$changed" -v m="$marker" 'BEGIN { print index(l, m) }')
	"$GRADER" list --problems "$TMP/badgrowth/$name" >"$TMP/badgrowth/$name.out" 2>&1
	code=$?
	grep -qF "$TMP/badgrowth/$name/$file:$line:$col: $message" "$TMP/badgrowth/$name.out"
	ok $((code != 2 || $? != 0)) "$name: exit $code, '$file:$line:$col: $message' ($(head -c 300 "$TMP/badgrowth/$name.out"))"
}
badgrowth wrong-size nim.yaml 's/^  size: piles$/  size: pile/' '  size: pile' 'pile' \
	"growth size 'pile' names no input of nimWin (its inputs: piles); say an input's name, 'length' or 'arg K' (K from 1 to 1)"
badgrowth drawn-size grundy.yaml 's/^  args: \[N, /  args: [{random: [1, 9]}, /' \
	'  args: [{random: [1, 9]}, {array: {length: 16, values: [1, 16], distinct: true}}]' '{random' \
	"growth args: 'n' is the size that grows: write N for it"

# a file not named after its id loads (test sets rename freely), and selftest notes it
mkdir -p "$TMP/renamed"
cp examples/games/problems/nim.yaml "$TMP/renamed/piles.yaml"
"$GRADER" selftest --problems "$TMP/renamed" --reference examples/games/reference --cache "$CACHE" \
	>"$TMP/renamed.out" 2>&1
code=$?
grep -q "^note '$TMP/renamed/piles.yaml' has id 'nim': naming it nim.yaml makes it easier to find" "$TMP/renamed.out"
ok $((code != 0 || $? != 0)) "selftest notes piles.yaml holding id nim, and passes (exit $code)"

# a reference file missing from --reference is the instructor's setup: selftest and grade say so, and no
# line speaks of "your submission" (selftest said "no file 'grundy.c' in your submission; found
# 'python/grundy.py' in a folder: move it to the top of your submission")
mkdir -p "$TMP/noref"
cp -r examples/games/reference/. "$TMP/noref/"
rm "$TMP/noref/grundy.c"
missing="the reference directory '$TMP/noref' has no file 'grundy.c' (check --reference, or add the file)"
"$GRADER" selftest --problems examples/games/problems --reference "$TMP/noref" --cache "$CACHE" --only grundy \
	>"$TMP/noref.out" 2>&1
code=$?
grep -qF "$missing" "$TMP/noref.out" && ! grep -q 'your submission' "$TMP/noref.out"
ok $((code != 1 || $? != 0)) "selftest without grundy.c: exit $code, the reference directory named, no 'your submission' ($(grep -m1 'submission' "$TMP/noref.out" | cut -c1-120))"
"$GRADER" --problems examples/games/problems --reference "$TMP/noref" --cache "$CACHE" --only grundy --no-growth \
	examples/games/reference >"$TMP/noref-grade.out" 2>&1
code=$?
grep -qF "warning: reference grundy (c): $missing" "$TMP/noref-grade.out"
ok $((code != 3 || $? != 0)) "grade without the reference's grundy.c: judge-error (exit $code), the reference directory named"

if [ "$GAMES_MUTATE" != 0 ]; then
	"$GRADER" mutate $GAMES --cache "$CACHE" -j 2 >"$TMP/mutate.out" 2>&1
	code=$?
	python3 - "$TMP/mutate.out" >"$TMP/mutate.check" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"Total: (\d+) of (\d+) mutants killed", text)
if not m:
    print("not ok - grader mutate prints its total: " + text[-300:].replace("\n", " | "))
else:
    killed, total = int(m.group(1)), int(m.group(2))
    rate = killed / total if total else 0
    print(("ok" if total >= 100 and rate >= 0.95 else "not ok")
          + f" - grader mutate kills {killed} of {total} mutants ({rate:.1%}; at least 95 %)")
PY
	tally "$TMP/mutate.check"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
