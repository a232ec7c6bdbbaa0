#!/bin/sh
# tests/summary/run.sh - summary.html as an instructor sees it, in a real
# browser: a class of tests/batch's small problems (tests/summary/make-class.py)
# graded once and in two shards merged (the same page, byte for byte); then
#   - the page's figures against what the class was built to contain
#     (verdicts per problem, the flagged pairs, escaping of HTML-like ids);
#   - headless Chromium (Debian `chromium`): a screenshot checked with
#     python3-pil (not blank, histogram and the student table drawn), and
#     the DOM after the page's script ran (--dump-dom) sorted by a column
#     through the page's own click handler (#sort=N), with no injected
#     element from the ids.
# Uses $GRADER (default: the ASan build).  Prints one line per check and
# "N passed, M failed"; exits 0 when green.  Without chromium the browser
# checks are reported as "SKIP" (not counted as passed).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
ROOT=$REPO

# the class's endless and crashing code runs in a throwaway PID namespace (root)
in_pid_namespace SUMMARY_TEST_IN_NS "$0" "$@"

lib_tmpdir summary-test
bad() { not_ok "$@"; }
no_sanitizer_errors() { ! grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$@"; }

mkdir "$T/tmp"
chmod 711 "$T" "$T/tmp"   # the sandboxed compiler (nobody) must reach its scratch space
export TMPDIR="$T/tmp"
SMALL="--problems tests/batch/problems --reference tests/batch/reference --cache $T/cache"
export GRADER_BATCH_TIMEOUT= GRADER_TEST_BATCH_CRASH=

python3 tests/summary/make-class.py "$T/class" || { echo "FAIL - cannot build the class"; exit 1; }

# ---- 1. one run, and two shards merged ----
"$GRADER" batch "$T/class" -o "$T/out" $SMALL -j 2 >/dev/null 2>"$T/out.err"
rc=$?
check "batch grades the class (rc=$rc)" [ "$rc" -eq 0 ]
"$GRADER" batch "$T/class" -o "$T/s1" $SMALL --shard 1/2 -j 1 >/dev/null 2>"$T/s1.err" &
p1=$!
"$GRADER" batch "$T/class" -o "$T/s2" $SMALL --shard 2/2 -j 1 >/dev/null 2>"$T/s2.err"
wait $p1
"$GRADER" merge "$T/s1" "$T/s2" -o "$T/merged" >/dev/null 2>"$T/merge.err"
check "merged shards: summary.html == one run, byte for byte" cmp "$T/merged/summary.html" "$T/out/summary.html"
check "merged shards: similarity/ == one run" diff -r "$T/merged/similarity" "$T/out/similarity"
check "no sanitizer reports" no_sanitizer_errors "$T/out.err" "$T/s1.err" "$T/s2.err" "$T/merge.err"

# ---- 2. the figures of the page ----
python3 tests/summary/check_page.py "$T/out" >"$T/page.out" 2>&1 || echo "FAIL - check_page.py crashed" >>"$T/page.out"
tally "$T/page.out"

# ---- 3. in a browser ----
find_chromium() {
	for c in chromium chromium-browser; do
		command -v "$c" >/dev/null 2>&1 && { command -v "$c"; return 0; }
	done
	return 1
}
# chromium URL OUTPUT-ARGS...: as root the sandbox cannot start (--no-sandbox);
# as a normal user it is kept, and dropped only when it cannot start here
# (no user namespaces), which is said.
chrome() {
	url=$1
	shift
	profile=$(mktemp -d "$T/profile.XXXXXX")
	set -- --headless --disable-gpu --disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --disable-dev-shm-usage --user-data-dir="$profile" "$@" "$url"
	if [ "$(id -u)" = 0 ]; then
		timeout 120 "$CHROME" --no-sandbox "$@" 2>>"$T/chrome.log"
	elif ! timeout 120 "$CHROME" "$@" 2>>"$T/chrome.log"; then
		echo "note: chromium's sandbox cannot start as $(id -un) here: retrying with --no-sandbox" >&2
		timeout 120 "$CHROME" --no-sandbox "$@" 2>>"$T/chrome.log"
	fi
	rc=$?
	rm -rf "$profile"
	return $rc
}

page="file://$T/out/summary.html"
if ! CHROME=$(find_chromium); then
	skip "chromium is not installed (Debian package chromium; tools/deps.sh test): no browser checks"
else
	ncols=$(($(head -n 1 "$T/out/grades.csv" | tr ',' '\n' | wc -l) - 3))   # Student, problems, Total
	chrome "$page" --window-size=1280,2400 --screenshot="$T/shot.png" >/dev/null 2>&1
	check "chromium takes a screenshot of summary.html" [ -s "$T/shot.png" ]
	# python3-pil is Debian's: for /usr/bin/python3, which may not be the first python3 on PATH
	pil=
	for py in /usr/bin/python3 python3; do
		if "$py" -c 'import PIL' 2>/dev/null; then pil=$py; break; fi
	done
	if [ -z "$pil" ]; then
		skip "python3-pil is not installed (tools/deps.sh test): the screenshot is not inspected"
	else
		"$pil" tests/summary/check_shot.py "$T/shot.png" >"$T/shot.out" 2>&1 ||
			echo "FAIL - check_shot.py crashed" >>"$T/shot.out"
		tally "$T/shot.out"
	fi
	chrome "$page" --dump-dom >"$T/dom-plain.html"
	chrome "$page#sort=$ncols" --dump-dom >"$T/dom-total.html"
	chrome "$page#sort=0-desc" --dump-dom >"$T/dom-id-desc.html"
	python3 tests/summary/check_dom.py "$T/out/grades.csv" "$ncols" "$T/dom-plain.html" "$T/dom-total.html" \
		"$T/dom-id-desc.html" >"$T/dom.out" 2>&1 || echo "FAIL - check_dom.py crashed" >>"$T/dom.out"
	tally "$T/dom.out"
fi

finish
