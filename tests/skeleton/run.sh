#!/bin/sh
# tests/skeleton/run.sh - `grader skeleton`: the students' starting files
# generated from problem files (issue 33, part 4), and `long long` arrays
# end to end (part 5).
#
#   1. the skeletons of examples/games/: the files and the guide's table with
#      the signatures the issue asks for (written here, not taken from the
#      grader); the Python self-test fails on the stub (exit 1) and passes
#      once the stub's body is the reference's (examples/games/reference/
#      python/); the C files and the Python files are graded, not refused:
#      built, some tests wrong, below full marks, the self-test's output
#      shown as start-up output;
#   2. the main set's skeletons (renamed Python calls, arrays) compile;
#      --only; an existing file is never replaced; bad operands;
#   3. fixtures/longarr: a problem with a `const long long *` array, values
#      beyond 2^31, graded in C and Python with a right and a wrong
#      solution; its skeletons too;
#   4. an unknown signature type: file:line:column and the types there are.
# $GRADER defaults to the ASan build.  Under 40 s on 2 cores.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
need_grader
lib_tmpdir skeleton-test
GAMES="--problems $REPO/examples/games/problems --reference $REPO/examples/games/reference"
FIX=$REPO/tests/skeleton/fixtures

# fail TEXT: not ok, with the end of the last command's stderr
fail() {
	not_ok "$1"
	[ -s "$T/last.err" ] && sed 's/^/     /' "$T/last.err" | tail -15
	: >"$T/last.err"
}
no_sanitizer() { ! grep -q 'Sanitizer\|runtime error:' "$T/last.err"; }

# json_check FILE PYTHON-EXPRESSION: true when the expression holds for d, the report
json_check() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
p = {q["id"]: q for q in d["problems"]}
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

# ---- 1. the games' skeletons ----
out=$T/games
if "$GRADER" skeleton $GAMES "$out" >"$T/last.out" 2>"$T/last.err" && no_sanitizer; then
	ok "grader skeleton wrote the games' skeletons"
else
	fail "grader skeleton on examples/games"
	finish
fi
want="problems.md canIWin.c grundy.c nim.c python/canIWin.py python/grundy.py python/nim.py"
missing=
for f in $want; do [ -f "$out/$f" ] || missing="$missing $f"; done
if [ -z "$missing" ] && [ "$(find "$out" -type f | wc -l)" -eq 7 ]; then
	ok "seven files: the guide's table, three C and three Python files"
else
	fail "the files written (missing:$missing): $(cd "$out" && find . -type f | tr '\n' ' ')"
fi

# the signatures the issue gives, each in its C file and in its row of the table
for sig in 'bool canIWin(int maxChoosableInteger, int desiredTotal)' 'bool nimWin(const int *piles, int n)' \
	'int grundy(int n, const int *moves, int k)'; do
	f=$(echo "$sig" | sed 's/^[a-z]* \([a-zA-Z]*\)(.*/\1/; s/nimWin/nim/')
	if grep -qxF "$sig;" "$out/$f.c" && grep -qxF "$sig" "$out/$f.c" &&
		grep -qF "| $f | $f.c: \`$sig\` |" "$out/problems.md"; then
		ok "$f.c and the table: $sig"
	else
		fail "$f: '$sig' not in $f.c (prototype and definition) or its table row"
	fi
done
for call in 'canIWin(maxChoosableInteger, desiredTotal)' 'nimWin(piles)' 'grundy(n, moves)'; do
	name=${call%%(*}
	f=$(echo "$name" | sed 's/nimWin/nim/')
	if grep -qxF "def $call:" "$out/python/$f.py" && grep -qF "$f.py: \`$call\`" "$out/problems.md"; then
		ok "$f.py and the table: $call"
	else
		fail "$f.py: 'def $call:' or its table entry"
	fi
done
if [ "$(grep -c '^|' "$out/problems.md")" -eq 5 ] && grep -qF '| Nim |' "$out/problems.md" &&
	grep -qF 'Grundy values of a subtraction game |' "$out/problems.md"; then
	ok "the table: a header, a rule and a row per problem, each with its title"
else
	fail "the table: $(cat "$out/problems.md")"
fi
if grep -qF 'LeetCode 464' "$out/canIWin.c" && grep -qF 'LeetCode 464' "$out/python/canIWin.py"; then
	ok "the statement is the C comment and the Python docstring"
else
	fail "canIWin's statement in its skeletons"
fi

# the Python self-test: fails on the stub, passes with the reference's body in place of the stub's
for f in canIWin nim grundy; do
	py=$out/python/$f.py
	if python3 "$py" >"$T/st.out" 2>"$T/last.err"; then
		fail "$f.py: the self-test passed on the stub"
	elif [ $? -eq 1 ] && grep -q '^Incorrect output for input' "$T/st.out" && ! grep -q '^Correct' "$T/st.out" &&
		[ ! -s "$T/last.err" ]; then
		ok "$f.py: python3 on the stub prints 'Incorrect output ...' and exits 1"
	else
		fail "$f.py on the stub: $(cat "$T/st.out")"
	fi
	mkdir -p "$T/solved"
	# the stub: from its def to its "# TODO" line; the reference: everything but its docstring
	python3 - "$py" "$REPO/examples/games/reference/python/$f.py" "$T/solved/$f.py" <<'EOF'
import ast, re, sys
skel, ref, dst = (open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3])
tree = ast.parse(ref)
body = "\n".join(ref.splitlines()[tree.body[0].end_lineno:]).strip() + "\n"
new, n = re.subn(r"^def \w+\(.*?# TODO: replace with your solution\n", lambda m: body, skel, count=1,
                 flags=re.S | re.M)
assert n == 1, "no stub found"
open(dst, "w").write(new)
EOF
	if python3 "$T/solved/$f.py" >"$T/st.out" 2>"$T/last.err" && [ "$(cat "$T/st.out")" = "Correct for all inputs" ]; then
		ok "$f.py with the reference's body: 'Correct for all inputs', exit 0"
	else
		fail "$f.py with the reference's body: $(cat "$T/st.out")"
	fi
done
if [ "$(grep -c '^        (' "$out/python/canIWin.py")" -eq 6 ] &&
	grep -qxF '        (canIWin, (4, 9), False),' "$out/python/canIWin.py" &&
	grep -qxF '        (nimWin, ([1, 2, 3],), False),' "$out/python/nim.py"; then
	ok "the self-tests hold the public examples: canIWin's six, nim's lists"
else
	fail "the self-tests' checks"
fi

# graded as the students' files: built, wrong somewhere, never a compiler error
mkdir -p "$T/c"
cp "$out"/*.c "$T/c/"
for lang in c python; do
	dir=$T/c
	[ $lang = c ] || dir=$out/python
	"$GRADER" $GAMES --cache "$T/cache" --no-shrink -q --format json:"$T/$lang.json" "$dir" >/dev/null 2>"$T/last.err"
	rc=$?
	if [ $rc -eq 1 ] && no_sanitizer &&
		json_check "$T/$lang.json" 'len(p) == 3 and all(q["build"] == "correct" and q["language"] == "'$lang'" and 0 <= q["score"] < q["max_score"] and q["failed"] > 0 for q in p.values())'; then
		ok "the $lang skeletons graded: built, below full marks, exit 1"
	else
		fail "grading the $lang skeletons (exit $rc)"
	fi
done
if json_check "$T/python.json" 'all("Incorrect output for input" in (q["startup_output"] or "") for q in p.values())'; then
	ok "the Python self-test runs at import: its output is the start-up output"
else
	fail "the Python skeletons' start-up output"
fi

# ---- 2. the main set, --only, no file replaced, bad operands ----
if "$GRADER" skeleton "$T/main" >/dev/null 2>"$T/last.err" && no_sanitizer &&
	grep -qxF 'long long f(const int *L, int n);' "$T/main/p4.c" &&
	grep -qxF 'def P3_CanWin(n):' "$T/main/python/p3.py" &&
	grep -qxF '        (P3_CanWin, (44,), False),' "$T/main/python/p3.py" &&
	grep -qxF 'def AcanWin(n):' "$T/main/python/p1.py" && grep -qxF 'def BcanWin(n):' "$T/main/python/p1.py" &&
	python3 -m py_compile "$T"/main/python/*.py 2>>"$T/last.err"; then
	ok "problems/: p4.c's array, p3.py's renamed call and its checks, p1.py's two functions; Python compiles"
else
	fail "the main set's skeletons"
fi
if "$GRADER" skeleton $GAMES --only nim "$T/only" >/dev/null 2>"$T/last.err" &&
	[ "$(cd "$T/only" && find . -type f | sort | tr '\n' ' ')" = "./nim.c ./problems.md ./python/nim.py " ] &&
	[ "$(grep -c '^| nim |' "$T/only/problems.md")" -eq 1 ]; then
	ok "--only nim: nim's files and its row only"
else
	fail "--only nim"
fi
"$GRADER" skeleton $GAMES --only tic-tac-toe "$T/bogus" >/dev/null 2>"$T/last.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "tic-tac-toe" "$T/last.err" && [ ! -e "$T/bogus" ]; then
	ok "--only with an unknown id: exit 2, named, nothing written"
else
	fail "--only tic-tac-toe (exit $rc)"
fi
echo '/* mine */' >"$T/only/nim.c.new"
mv "$T/only/nim.c.new" "$T/only/nim.c"
rm "$T/only/problems.md"
"$GRADER" skeleton $GAMES --only nim "$T/only" >/dev/null 2>"$T/last.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "nim.c' exists" "$T/last.err" && [ "$(cat "$T/only/nim.c")" = '/* mine */' ] &&
	[ ! -e "$T/only/problems.md" ]; then
	ok "an existing nim.c: exit 2, named, nothing written (not even the missing table)"
else
	fail "an existing file (exit $rc)"
fi
"$GRADER" skeleton $GAMES >/dev/null 2>"$T/last.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "one operand" "$T/last.err"; then ok "no OUTDIR: exit 2"; else fail "no OUTDIR (exit $rc)"; fi


# ---- 3. a long long array (fixtures/longarr: values beyond 2^31), C and Python, right and wrong ----
LONG="--problems $FIX/longarr/problems --reference $FIX/longarr/reference"
for sub in right wrong right/python wrong/python; do
	case $sub in right*) want=0 ;; *) want=1 ;; esac
	lang=c
	case $sub in */python) lang=python ;; esac
	"$GRADER" $LONG --cache "$T/lcache" --no-shrink -q --format json:"$T/long.json" "$FIX/longarr/$sub" >/dev/null 2>"$T/last.err"
	rc=$?
	# the first example's values, beyond 2^31, reach the solution and the report whole
	cond='p["bignim"]["language"] == "'$lang'" and p["bignim"]["tests"][0]["call"] == "nimSum([4294967296, 1])" and p["bignim"]["tests"][0]["expected"] == 4294967297'
	if [ $want = 0 ]; then
		cond="$cond"' and p["bignim"]["score"] == p["bignim"]["max_score"] == 18'
	else
		cond="$cond"' and p["bignim"]["score"] < 18 and p["bignim"]["tests"][0]["actual"] == 1 and p["bignim"]["tests"][0]["verdict"] == "wrong-answer"'
	fi
	if [ $rc -eq $want ] && no_sanitizer && json_check "$T/long.json" "$cond"; then
		ok "long long array, $sub ($lang): exit $want, nimSum([4294967296, 1]) expected 4294967297"
	else
		fail "long long array, $sub (exit $rc)"
	fi
done
if "$GRADER" skeleton $LONG "$T/long" >/dev/null 2>"$T/last.err" &&
	grep -qxF 'long long nimSum(const long long *piles, int n);' "$T/long/bignim.c" &&
	grep -qF '| bignim | bignim.c: `long long nimSum(const long long *piles, int n)` | bignim.py: `nimSum(piles)`; piles is a list of int |' "$T/long/problems.md" &&
	grep -qxF '        (nimSum, ([4294967296, 1],), 4294967297),' "$T/long/python/bignim.py" &&
	grep -qF "A \"* /\" and a \"\"\" stay inside" "$T/long/bignim.c" &&
	grep -qF "A \"*/\" and a ''' stay inside" "$T/long/python/bignim.py"; then
	ok "long long array skeletons: C prototype, table row, Python checks; */ and triple quotes in the statement defused"
else
	fail "the long long array's skeletons"
fi
python3 "$T/long/python/bignim.py" >/dev/null 2>&1
pyrc=$?
mkdir -p "$T/longc"
cp "$T/long/bignim.c" "$T/longc/"
"$GRADER" $LONG --cache "$T/lcache" --no-shrink -q --format json:"$T/long.json" "$T/longc" >/dev/null 2>"$T/last.err"
rc=$?
if [ $pyrc -eq 1 ] && [ $rc -eq 1 ] && json_check "$T/long.json" 'p["bignim"]["build"] == "correct" and p["bignim"]["score"] < 18'; then
	ok "its Python self-test fails on the stub; its C skeleton builds and grades below full marks"
else
	fail "the long long skeletons run (python3 exit $pyrc, grader exit $rc)"
fi

# ---- 4. an unknown type: where, and the types there are ----
mkdir -p "$T/badtype"
sed 's/^  - long long nimSum(const long long \*piles, int n)$/  - bool nimWin(const unsigned *piles, int n)/' \
	"$FIX/longarr/problems/bignim.yaml" >"$T/badtype/bignim.yaml"
"$GRADER" list --problems "$T/badtype" >/dev/null 2>"$T/last.err"
rc=$?
if [ $rc -eq 2 ] && grep -qF "$T/badtype/bignim.yaml:9:23: bad signature 'bool nimWin(const unsigned *piles, int n)': unknown type 'unsigned': the types are bool, int, long long, and the arrays const int * and const long long * (each followed by its int length)" "$T/last.err"; then
	ok "an unknown type: file:9:23 (the word itself) and the types there are"
else
	fail "an unknown type (exit $rc): $(cat "$T/last.err")"
fi

finish
