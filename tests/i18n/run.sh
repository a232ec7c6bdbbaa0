#!/bin/sh
# tests/i18n/run.sh - the students' language (docs/i18n.md): Korean through gettext.
#
# Grades tests/fixtures/wrong-answers and a correct p4 (the reference) with
# the real problems (p4, plus p2 and p3 missing) under
#   LANG=ko_KR.UTF-8      (generated with localedef into a private LOCPATH
#                          when the machine lacks it: nothing outside $TMP
#                          changes, root or not),
#   LANG=C.UTF-8 --lang ko,  LANG=C --lang ko,  LANG=C,
#   LANG=ko_KR.UTF-8 --lang en,  LANG=C LANGUAGE=ko (gettext ignores
#   LANGUAGE under C: English),  LANG=ko_KR.UTF-8 with no such locale
#   (English, no error),
# and checks: the text and Markdown reports speak the language asked for
# (Korean verdicts and labels, no English ones; English with no Hangul);
# the same Korean whichever way it was asked for; every machine format
# (json, junit, tap, gradescope, github, prairielearn, classroom)
# byte-identical across languages once timings are zeroed; the columns of
# the summary table and of a failure's block line up by display width
# (Hangul is two columns: Python's unicodedata, not the grader's table) and
# hints wrap at 78 columns, filled greedily; problem files' hint_ko and
# hints: {en, ko} reach Korean reports and English ones keep `hint`, every
# hint of problems/*.yaml has its Korean translation and p1's (as shipped,
# graded with tests/fixtures/stack-overflow) are Korean in both reports, as
# is the depth of its stack overflow ("약 240만", not "2.4백만"), and the
# Python runtime's sentences in a traceback (py-import-error, py-recursion:
# a refused import, frames left out) Korean in text and Markdown; the
# Korean student guide quotes the stack overflow as the report words it; the
# catalogue is found beside a copied binary as `make install` lays it out
# (bin/../share/locale); --lang takes only en and ko; tools/po-check.sh
# passes on the tree and fails, naming it, on a new string with no Korean
# entry.
# Prints "ok - ..." / "not ok - ..." per check and "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
REPO=$PWD
: "${GRADER:=$REPO/build/asan/grader}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export PYTHONDONTWRITEBYTECODE=1
unset NO_COLOR LANGUAGE LC_ALL LC_MESSAGES LC_CTYPE LOCPATH

TMP=$(mktemp -d "${TMPDIR:-/tmp}/i18n-test.XXXXXX") || exit 2
trap '[ -n "${I18N_KEEP:-}" ] || rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM HUP
CACHE=$TMP/cache
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
check() { what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }
has() { grep -qF -- "$2" "$1"; }
hasnt() { ! grep -qF -- "$2" "$1"; }
tally() {
	while IFS= read -r line; do
		echo "$line"
		case $line in
		"ok "*) passed=$((passed + 1)) ;;
		"not ok "*) failed=$((failed + 1)) ;;
		esac
	done <"$1"
}

if [ ! -x "$GRADER" ]; then
	not_ok "grader '$GRADER' is built (make build/asan/grader)"
	echo "$passed passed, $failed failed"
	exit 1
fi
if [ ! -f "$REPO/build/locale/ko/LC_MESSAGES/combgrader.mo" ]; then
	not_ok "the Korean catalogue is built (make: build/locale/ko/LC_MESSAGES/combgrader.mo)"
	echo "$passed passed, $failed failed"
	exit 1
fi

# ---- a Korean locale: the machine's, or one generated into a private LOCPATH ----
KO_LOCPATH=
if [ "$(LANG=ko_KR.UTF-8 locale charmap 2>/dev/null)" != UTF-8 ]; then
	KO_LOCPATH=$TMP/locales
	mkdir -p "$KO_LOCPATH"
	if localedef -i ko_KR -f UTF-8 "$KO_LOCPATH/ko_KR.UTF-8" >"$TMP/localedef.err" 2>&1 ||
	   [ -f "$KO_LOCPATH/ko_KR.UTF-8/LC_CTYPE" ]; then
		ok "ko_KR.UTF-8 generated with localedef into a private LOCPATH (the machine has none)"
	else
		not_ok "localedef -i ko_KR -f UTF-8 into $KO_LOCPATH: $(tail -n 2 "$TMP/localedef.err")"
		echo "$passed passed, $failed failed"
		exit 1
	fi
fi
# glibc's newlocale() keeps the list it splits LOCPATH into (__argz_add_sep), freelocale() or not (a
# ten-line program shows it): with a LOCPATH set, LeakSanitizer reports those bytes at exit; they are
# glibc's, so only they are suppressed
printf 'leak:__argz_add_sep\n' >"$TMP/lsan.supp"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$TMP/lsan.supp"
# the environment that makes ko_KR.UTF-8 available (LOCPATH only when generated)
KO=LANG=ko_KR.UTF-8
[ -z "$KO_LOCPATH" ] || KO="$KO LOCPATH=$KO_LOCPATH"

# ---- problems: the real p2, p3 and p4, p4 with a Korean title and a long Korean hint ----
PROBLEMS=$TMP/problems
mkdir -p "$PROBLEMS"
cp problems/p2.yaml problems/p3.yaml "$PROBLEMS/"
python3 - problems/p4.yaml "$PROBLEMS/p4.yaml" <<'EOF'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
assert "title: Card row (recursive)\n" in s
s = s.replace("title: Card row (recursive)\n", "title: 카드 줄 (재귀)\n")
old = "    hint_ko: 연습 문제지의 예시대로 f([4, 3, 1, 2]) = 6입니다.\n"
assert old in s
# long enough to wrap twice at 78 columns, and each line longer in bytes than in columns
s = s.replace(old, "    hint_ko: 연습 문제지의 예시대로 f([4, 3, 1, 2]) = 6입니다. 첫 번째 사람이 왼쪽 끝이나 오른쪽 끝의 "
              "카드를 가져가면 두 번째 사람도 남은 줄에서 똑같이 최선을 다해 고릅니다. 작은 줄부터 손으로 "
              "계산해 보고 재귀의 기저 사례를 확인하세요.\n")
open(sys.argv[2], "w", encoding="utf-8").write(s)
EOF

FORMATS="text md json junit tap gradescope github prairielearn classroom"
# grade NAME ENV... -- ARGS... FIXTURE: every format into $TMP/NAME.*, exit code in $TMP/NAME.rc
grade() {
	g_name=$1
	shift
	g_env=
	while [ "$1" != -- ]; do g_env="$g_env $1"; shift; done
	shift
	# shellcheck disable=SC2086
	env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LOCPATH $g_env "$GRADER" --cache "$CACHE" --color never \
		--problems "${G_PROBLEMS:-$PROBLEMS}" --reference "$REPO/reference" -j 2 --no-growth \
		--format "text:$TMP/$g_name.text" --format "markdown:$TMP/$g_name.md" \
		--format "json:$TMP/$g_name.json" --format "junit:$TMP/$g_name.junit" --format "tap:$TMP/$g_name.tap" \
		--format "gradescope:$TMP/$g_name.gradescope" --format "github:$TMP/$g_name.github" \
		--format "prairielearn:$TMP/$g_name.prairielearn" --format "classroom:$TMP/$g_name.classroom" \
		"$@" >"$TMP/$g_name.out" 2>"$TMP/$g_name.err"
	echo $? >"$TMP/$g_name.rc"
}
rc() { cat "$TMP/$1.rc"; }
# quiet NAME: no sanitizer report (but the suppression's summary), no error or warning of the grader
quiet() { ! grep -qE 'ERROR: |runtime error:|^grader: (error|warning)' "$TMP/$1.err"; }

WRONG=tests/fixtures/wrong-answers
# a correct submission of p4: the reference (tests/fixtures/correct holds p1 to p3)
CORRECT=reference
grade c-en LANG=C -- "$WRONG"
# shellcheck disable=SC2086
grade ko-locale $KO -- "$WRONG"
grade cutf8-lang LANG=C.UTF-8 -- --lang ko "$WRONG"
grade c-lang LANG=C -- --lang ko "$WRONG"
# shellcheck disable=SC2086
grade ko-en $KO -- --lang en "$WRONG"
grade c-language LANG=C LANGUAGE=ko -- "$WRONG"
grade no-locale LANG=ko_KR.UTF-8 LOCPATH="$TMP/no-locales" -- "$WRONG"
# shellcheck disable=SC2086
grade ok-ko $KO -- --only p4 "$CORRECT"
grade ok-en LANG=C -- --only p4 "$CORRECT"
# p1 as shipped (problems/p1.yaml, its hints), a recursion without a base case: a depth in millions
G_PROBLEMS=$REPO/problems
# shellcheck disable=SC2086
grade so-ko $KO -- --only p1 tests/fixtures/stack-overflow
# the Python runtime's own sentences in a traceback: a refused import, frames left out
grade pyimport-ko LANG=C.UTF-8 -- --lang ko --only p1 tests/fixtures/py-import-error
grade pyrec-ko LANG=C.UTF-8 -- --lang ko --only p1 tests/fixtures/py-recursion
G_PROBLEMS=

for n in c-en ko-locale cutf8-lang c-lang ko-en c-language no-locale; do
	check "$n: wrong-answers exits 1 (got $(rc $n))" [ "$(rc $n)" = 1 ]
	check "$n: no sanitizer report, no error" quiet $n
done
for n in so-ko pyimport-ko pyrec-ko; do
	check "$n: exits 1 (got $(rc $n))" [ "$(rc $n)" = 1 ]
	check "$n: no sanitizer report, no error" quiet $n
done
for n in ok-ko ok-en; do
	check "$n: correct exits 0 (got $(rc $n))" [ "$(rc $n)" = 0 ]
	check "$n: no sanitizer report, no error" quiet $n
done

# ---- the language of the text and Markdown reports ----
korean() { # korean NAME: the Korean words of a report with failures
	has "$TMP/$1.text" "오답" && has "$TMP/$1.text" "요약" && has "$TMP/$1.text" "합계:" &&
		has "$TMP/$1.text" "기대값:" && has "$TMP/$1.text" "반환값:" && has "$TMP/$1.text" "누락" &&
		has "$TMP/$1.text" "찾은 가장 작은 실패 입력:" && has "$TMP/$1.text" "힌트(" &&
		hasnt "$TMP/$1.text" "wrong answer" && hasnt "$TMP/$1.text" "Summary" &&
		hasnt "$TMP/$1.text" "expected:" && hasnt "$TMP/$1.text" "Total:" &&
		has "$TMP/$1.md" "## 채점 결과:" && has "$TMP/$1.md" "| 테스트 | 판정 | 세부 내용 |" &&
		has "$TMP/$1.md" "오답" && hasnt "$TMP/$1.md" "wrong answer" && hasnt "$TMP/$1.md" "Grading results"
}
# no_hangul FILE...: no Hangul in them but the problem's own title (data, not the grader's words)
no_hangul() {
	python3 -c 'import sys
t = "".join(open(f, encoding="utf-8").read().replace("카드 줄 (재귀)", "") for f in sys.argv[1:])
sys.exit(any(0xac00 <= ord(c) <= 0xd7a3 or 0x1100 <= ord(c) <= 0x11ff for c in t))' "$@"
}
english() { # english NAME: English words, and no Hangul
	has "$TMP/$1.text" "wrong answer" && has "$TMP/$1.text" "Summary" && has "$TMP/$1.text" "expected:" &&
		has "$TMP/$1.md" "## Grading results:" && no_hangul "$TMP/$1.text" "$TMP/$1.md"
}
check "LANG=ko_KR.UTF-8: text and Markdown in Korean" korean ko-locale
check "LANG=C.UTF-8 --lang ko: text and Markdown in Korean" korean cutf8-lang
check "LANG=C --lang ko: text and Markdown in Korean (through C.UTF-8)" korean c-lang
check "LANG=C: text and Markdown in English, no Hangul" english c-en
check "LANG=ko_KR.UTF-8 --lang en: English, no Hangul" english ko-en
check "LANG=C LANGUAGE=ko: English (gettext ignores LANGUAGE under C)" english c-language
check "LANG=ko_KR.UTF-8 without that locale: English, no error" english no-locale
check "correct under ko_KR.UTF-8: '테스트 N개 중 N개 통과' and no failure line" \
	sh -c 'grep -qE "테스트 [0-9]+개 중 [0-9]+개 통과" "$1" && ! grep -q "^  x " "$1" && grep -q "요약" "$1"' sh "$TMP/ok-ko.text"
check "correct under C: English" has "$TMP/ok-en.text" "tests passed"
check "verdict identifiers stay in the text: none translated in JSON (wrong-answer, missing)" \
	sh -c 'grep -q "\"wrong-answer\"" "$1" && grep -q "\"missing\"" "$1"' sh "$TMP/ko-locale.json"

# the same Korean whichever way it was asked for (the elapsed time aside)
same_text() { # same_text A B
	for f in text md; do
		sed 's/, [0-9.]* s)$/, T s)/; s/[0-9.]*초 동안 시도/T초 동안 시도/; s/tried in [0-9.]* s/tried in T s/' \
			"$TMP/$1.$f" >"$TMP/$1.$f.norm"
		sed 's/, [0-9.]* s)$/, T s)/; s/[0-9.]*초 동안 시도/T초 동안 시도/; s/tried in [0-9.]* s/tried in T s/' \
			"$TMP/$2.$f" >"$TMP/$2.$f.norm"
		cmp -s "$TMP/$1.$f.norm" "$TMP/$2.$f.norm" || { diff "$TMP/$1.$f.norm" "$TMP/$2.$f.norm" | head -5; return 1; }
	done
}
check "the same Korean text and Markdown from LANG=ko_KR.UTF-8 and LANG=C.UTF-8 --lang ko" same_text ko-locale cutf8-lang
check "the same Korean text and Markdown from LANG=ko_KR.UTF-8 and LANG=C --lang ko" same_text ko-locale c-lang
check "the same English from LANG=C and LANG=ko_KR.UTF-8 --lang en" same_text c-en ko-en

# ---- machine formats: byte-identical across languages, once timings are zeroed ----
normalise() { # normalise FORMAT FILE: timings and memory peaks zeroed (measurements: they differ from run to run, not with the language)
	python3 - "$1" "$2" <<'EOF'
import base64, json, re, sys
fmt, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
TIMING = re.compile(r"(time|_ms|seconds|elapsed|execution|peak_kb|duration)")
def zero(x):
    if isinstance(x, dict):
        return {k: (0 if TIMING.search(k) and isinstance(v, (int, float)) else zero(v)) for k, v in x.items()}
    if isinstance(x, list):
        return [zero(v) for v in x]
    return x
if fmt in ("json", "gradescope", "prairielearn"):
    out = json.dumps(zero(json.loads(data)), sort_keys=True, ensure_ascii=False).encode()
elif fmt == "classroom":
    out = re.sub(rb"[A-Za-z0-9+/=]{40,}", lambda m: json.dumps(zero(json.loads(base64.b64decode(m.group(0)))),
                 sort_keys=True).encode(), data)
else:  # junit, tap, github: time attributes and "in N ms" figures
    out = re.sub(rb'time="[0-9.]+"', b'time="0"', data)
    out = re.sub(rb"[0-9]+(\.[0-9]+)? ?(ms|s|KiB|MiB)\b", b"T", out)
    out = re.sub(rb"(peak_kb|time_ms): [0-9]+", rb"\1: T", out)
sys.stdout.buffer.write(out)
EOF
}
for fmt in json junit tap gradescope github prairielearn classroom; do
	for n in ko-locale cutf8-lang c-lang; do
		normalise $fmt "$TMP/c-en.$fmt" >"$TMP/a.$fmt" 2>/dev/null
		normalise $fmt "$TMP/$n.$fmt" >"$TMP/b.$fmt" 2>/dev/null
		check "$fmt: $n byte-identical to LANG=C (timings zeroed)" \
			sh -c '[ -s "$1" ] && [ -s "$2" ] && cmp -s "$3" "$4"' sh "$TMP/c-en.$fmt" "$TMP/$n.$fmt" \
			"$TMP/a.$fmt" "$TMP/b.$fmt"
	done
done
check "json, junit, tap and github of a Korean run: no Hangul but the problem's title" \
	no_hangul "$TMP/ko-locale.junit" "$TMP/ko-locale.tap" "$TMP/ko-locale.github" "$TMP/ko-locale.json"

# ---- columns by display width ----
python3 - "$TMP/ko-locale.text" "$TMP/c-en.text" >"$TMP/columns.checks" <<'EOF'
import re, sys, unicodedata
def width(s):
    w = 0
    for c in s:
        if unicodedata.combining(c):
            continue
        w += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return w
def say(cond, what, detail=""):
    print(("ok - " if cond else "not ok - ") + what + ("" if cond or not detail else "  [" + detail + "]"))
for path, lang in ((sys.argv[1], "ko"), (sys.argv[2], "en")):
    lines = open(path, encoding="utf-8").read().split("\n")
    head = "요약" if lang == "ko" else "Summary"
    total = "합계:" if lang == "ko" else "Total:"
    i = lines.index(head)
    rows = []
    for l in lines[i + 1:]:
        if l.startswith(total):
            break
        rows.append(l)
    cols = set()
    for r in rows:
        m = re.search(r"[0-9.]+ / [0-9.]+", r)
        cols.add((width(r[:m.start()]), width(r[:m.start()]) + 14))
    tail = set(width(r[:re.search(r"[0-9.]+ / [0-9.]+ +", r).end()]) for r in rows)
    say(len(rows) == 3 and len(cols) == 1 and len(tail) == 1,
        f"{lang}: the summary's score and result columns start at one display column on every row",
        f"{len(rows)} rows, score columns {sorted(cols)}, result columns {sorted(tail)}")
    if lang == "ko":
        say(any("카드 줄 (재귀)" in r for r in rows) and any(len(r.encode()) != width(r) for r in rows),
            "ko: the summary has the Hangul title (bytes and columns differ there)")
    labels = ("호출:", "기대값:", "반환값:", "이유:", "사용량:", "출력:") if lang == "ko" else \
             ("call:", "expected:", "returned:", "why:", "used:", "printed:")
    starts = set()
    n = 0
    for l in lines:
        for lab in labels:
            if l.startswith("      " + lab + " "):
                rest = l[6 + len(lab):]
                starts.add(width(l[:6 + len(lab)]) + len(rest) - len(rest.lstrip(" ")))
                n += 1
    say(n >= 6 and len(starts) == 1, f"{lang}: in every failure's block the values start at one display column",
        f"{n} label lines, value columns {sorted(starts)}")
    # hints: at most 78 columns, and filled greedily (a line wrapped early would show byte counting)
    hint_lines, k = [], 0
    while k < len(lines):
        if lines[k].startswith("  힌트(" if lang == "ko" else "  hint ("):
            block = [lines[k]]
            k += 1
            while k < len(lines) and lines[k].startswith("      ") and not lines[k].startswith("      " + labels[0]):
                block.append(lines[k])
                k += 1
            hint_lines.append(block)
        else:
            k += 1
    too_wide = [l for b in hint_lines for l in b if width(l) > 78]
    early = [b[j] for b in hint_lines for j in range(len(b) - 1) if width(b[j]) + 1 + width(b[j + 1].split()[0]) <= 78]
    wrapped = [b for b in hint_lines if len(b) > 1]
    say(wrapped and not too_wide and not early, f"{lang}: hints wrap at 78 display columns, filled greedily",
        f"{len(wrapped)} wrapped hints, too wide: {too_wide[:1]}, wrapped early: {early[:1]}")
    if lang == "ko":
        say(any(len(l.encode()) > 78 for b in wrapped for l in b), "ko: a wrapped Hangul hint line is longer in bytes than 78")
EOF
tally "$TMP/columns.checks"

# ---- problem files' translated hints ----
check "hint_ko reaches the Korean report" has "$TMP/ko-locale.text" "카드 값은 음수나 0일 수도 있습니다."
check "hints: {en, ko}: the ko one in Korean" has "$TMP/ko-locale.md" "문제의 힌트에 있는 재귀를 쓰세요."
check "hints: {en, ko}: the en one in English" has "$TMP/c-en.text" "Use the hint's recursion; the opponent"
check "hint_ko does not reach the English report" hasnt "$TMP/c-en.text" "카드 값은"
check "the instructor's JSON keeps the English hint" has "$TMP/ko-locale.json" "Card values may be negative or zero"
# every hint a Korean report shows is in Korean: the label's line of each hint carries Hangul (p1's
# hints as shipped in problems/p1.yaml, p4's as the copy above has them)
check "every hint of Korean text reports is in Korean (p1: $(grep -c '^  힌트(' "$TMP/so-ko.text") hints, p4: $(grep -c '^  힌트(' "$TMP/ko-locale.text"))" \
	python3 -c 'import re, sys
hints = [l for f in sys.argv[1:] for l in open(f, encoding="utf-8") if l.startswith("  힌트(")]
bad = [l for l in hints if not re.search("[\uac00-\ud7a3]", l.split("): ", 1)[1])]
print("".join(bad[:2]), end="", file=sys.stderr)
sys.exit(len(hints) < 8 or bool(bad))' "$TMP/so-ko.text" "$TMP/ko-locale.text"
check "Korean Markdown: p1's hints in Korean, not English ('Check the positions with few stones')" \
	sh -c 'grep -q "힌트: 돌이 적은 상태를" "$1" && ! grep -q "Check the positions with few stones" "$1"' sh "$TMP/so-ko.md"
# a depth of millions as Korean counts it (만: ten thousand), and the English figure unchanged in JSON
check "a stack overflow's depth in Korean: '약 N0만 단계', not '백만'" \
	sh -c 'grep -qE "재귀가 약 [0-9]+0만 단계까지" "$1" && ! grep -q "백만" "$1"' sh "$TMP/so-ko.text"
# the Korean student guide quotes that message as the grader words it (figures aside): the verdict's
# name, and the reason as a test's lines give it, wrapped lines joined (the headline may quote another
# test: on a busy machine the first one can reach its CPU limit before the stack's end - CI, 2026-11-27)
check "student_template/README.ko.md quotes the stack overflow as the Korean report says it" \
	python3 -c 'import re, sys
joined = lambda s: re.sub(r"\s*\n\s*", " ", s)
guide = joined(open(sys.argv[1], encoding="utf-8").read())
quote = re.search(r"`(런타임 에러): (스택 오버플로: [^`]*)`", guide)
report = joined(open(sys.argv[2], encoding="utf-8").read())
norm = lambda s: re.sub(r"[0-9][0-9.,]*", "N", s)
print(quote.group(0) if quote else "no quote", file=sys.stderr)
sys.exit(not quote or ": " + quote.group(1) not in report or norm(quote.group(2)) not in norm(report))' \
	student_template/README.ko.md "$TMP/so-ko.text"
# grader/runtime/pyhost.c writes these in English inside the exception's text; verdict.c puts them in
# the report's language (matched word for word: a change of wording in one needs the other)
check "Python's refused import in Korean in text and Markdown, English in the JSON" \
	sh -c 'grep -q "ImportError: 모듈 .stone_tables.은(는) 채점 중에 import할 수 없습니다" "$1" &&
		grep -q "모듈 .stone[^ ]*tables.은(는) 채점 중에" "$2" && ! grep -q "cannot be imported while grading" "$1" "$2" &&
		grep -q "module .stone_tables. cannot be imported while grading: only the standard library" "$3"' \
	sh "$TMP/pyimport-ko.text" "$TMP/pyimport-ko.md" "$TMP/pyimport-ko.json"
check "a traceback's left-out frames in Korean ('여러분 코드의 앞선 호출 N번 생략'), English in the JSON" \
	sh -c 'grep -qE "^ +\.\.\. \(여러분 코드의 앞선 호출 [0-9]+번 생략\)$" "$1" && ! grep -q "earlier calls of your code" "$1" &&
		grep -qE "[.]{3} \([0-9]+ earlier calls of your code\)" "$2"' sh "$TMP/pyrec-ko.text" "$TMP/pyrec-ko.json"
check "the same depth in the JSON: 'about N.N million calls deep'" \
	grep -qE "the recursion went about [0-9]+\.[0-9] million calls deep" "$TMP/so-ko.json"
# the shipped problem files: every hint, also a language's override, has its Korean translation
# (hint_ko: or hints: {en, ko}); an English-only hint would show in every Korean report
check "problems/*.yaml: every group's hint (and every override's) has a Korean translation" \
	python3 -c 'import glob, sys, yaml
bad, n = [], 0
for path in sorted(glob.glob("problems/*.yaml")):
    d = yaml.safe_load(open(path, encoding="utf-8"))
    groups = [(g.get("name"), g) for g in d.get("groups") or []]
    for lang, ld in (d.get("languages") or {}).items():
        groups += [(lang + ":" + name, g or {}) for name, g in ((ld or {}).get("groups") or {}).items()]
    for name, g in groups:
        if "hint" in g or "hints" in g:
            n += 1
            if not (g.get("hint_ko") or (g.get("hints") or {}).get("ko")):
                bad.append(path + " " + str(name))
print(" ".join(bad), file=sys.stderr)
sys.exit(n < 20 or bool(bad))'
cat >"$TMP/bad-hints.yaml" <<'EOF'
id: px
title: x
source: px.c
functions:
  - int f(int n)
groups:
  - name: g
    points: 1
    hint: a
    hints: {en: a, ko: 가}
    cases:
      - {args: [1], expected: 1}
EOF
mkdir -p "$TMP/badp"
cp "$TMP/bad-hints.yaml" "$TMP/badp/px.yaml"
"$GRADER" list --problems "$TMP/badp" >"$TMP/bad.out" 2>"$TMP/bad.err"
check "hint: and hints: together: a problem-file error (exit 2) naming both" \
	sh -c '[ "$1" = 2 ] && grep -q "hints: {en, ko} or hint: and hint_ko:, not both" "$2"' sh $? "$TMP/bad.err"

# ---- the catalogue beside the binary, as make install lays it out ----
mkdir -p "$TMP/prefix/bin" "$TMP/prefix/share/locale/ko/LC_MESSAGES" "$TMP/lonely/bin"
cp "$GRADER" "$TMP/prefix/bin/grader"
cp "$GRADER" "$TMP/lonely/bin/grader"
cp build/locale/ko/LC_MESSAGES/combgrader.mo "$TMP/prefix/share/locale/ko/LC_MESSAGES/"
LANG=C "$TMP/prefix/bin/grader" --cache "$CACHE" --problems "$PROBLEMS" --reference reference --only p2 --lang ko \
	--color never "$WRONG" >"$TMP/prefix.text" 2>"$TMP/prefix.err"
check "an installed layout (bin/../share/locale): Korean with --lang ko" has "$TMP/prefix.text" "누락: 제출물에"
if [ ! -e /usr/local/share/locale/ko/LC_MESSAGES/combgrader.mo ]; then
	LANG=C "$TMP/lonely/bin/grader" --cache "$CACHE" --problems "$PROBLEMS" --reference reference --only p2 \
		--lang ko --color never "$WRONG" >"$TMP/lonely.text" 2>"$TMP/lonely.err"
	check "no catalogue anywhere: --lang ko gives English, exit 1, no error" \
		sh -c '[ "$1" = 1 ] && grep -q "missing: no file" "$2" && ! grep -v "^grader: computing" "$3" | grep -q .' \
		sh $? "$TMP/lonely.text" "$TMP/lonely.err"
fi

# ---- --lang takes en and ko only ----
"$GRADER" --lang fr --problems "$PROBLEMS" "$WRONG" >"$TMP/fr.out" 2>"$TMP/fr.err"
check "--lang fr: usage error (exit 2) saying what it takes" \
	sh -c '[ "$1" = 2 ] && grep -q "\-\-lang takes en or ko" "$2"' sh $? "$TMP/fr.err"

# ---- the catalogue is complete, and the check fails on a string without a translation ----
tools/po-check.sh >"$TMP/po.out" 2>&1
check "tools/po-check.sh: every student-facing string has a Korean entry" \
	sh -c '[ "$1" = 0 ] && grep -q "po/ko.po: [0-9]* translated messages\.$" "$2"' sh $? "$TMP/po.out"
mkdir -p "$TMP/tree/tools"
cp -r grader po "$TMP/tree/"
cp tools/po-check.sh "$TMP/tree/tools/"
cat >>"$TMP/tree/grader/report_text.c" <<'EOF'
const char *i18n_test_new_message(void);
const char *i18n_test_new_message(void) { return _("a brand new message for students"); }
EOF
"$TMP/tree/tools/po-check.sh" >"$TMP/po-new.out" 2>&1
check "tools/po-check.sh fails on a new _() string with no Korean entry, naming it" \
	sh -c '[ "$1" = 1 ] && grep -q "a brand new message for students" "$2"' sh $? "$TMP/po-new.out"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
