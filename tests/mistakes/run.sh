#!/bin/sh
# tests/mistakes/run.sh - every classic mistake must lose points on the shipped tests.
#
# Grades each tests/mistakes/<name>/ with $GRADER (default build/asan/grader)
# and checks the report against <name>/EXPECTED with tests/integration/expect.py.
# Reference answers are cached in a private temporary directory (started from
# the run's seed: tests/lib.sh seed_cache).
# MISTAKES="p2-int py-p4-greedy" grades only those.
# Prints "ok - ..." / "not ok - ..." per check and "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
EXPECT="$REPO/tests/integration/expect.py"
lib_tmpdir grader-mistakes
TMP=$T
CACHE="$TMP/cache"
seed_cache "$CACHE"
need_grader

# The references (C, then Python): fill the cache and list the tests every report must list.
for lang in c python; do
	dir=reference
	[ $lang = python ] && dir=reference/python
	"$GRADER" --cache "$CACHE" --show-hidden --format json -o "$TMP/reference-$lang.json" $dir >/dev/null \
		2>"$TMP/reference.err"
	code=$?
	if [ "$code" = 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/reference-$lang.json" 2>/dev/null; then
		ok "the $lang reference grades (exit 0)"
	else
		# what was not correct, from the report, when there is one (a reference should never fail: say how)
		why=$(python3 - "$TMP/reference-$lang.json" 2>/dev/null <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
bad = ["%s/%s: %s %s" % (p["id"], t["name"][:60], t["verdict"], (t.get("message") or "")[:160])
       for p in r["problems"] for t in p["tests"] if t["verdict"] != "correct"]
print("; ".join(bad)[:1200])
EOF
)
		not_ok "the $lang reference grades (exit $code: $(tail -c 300 "$TMP/reference.err")) $why"
		finish
	fi
done

for dir in tests/mistakes/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	[ -f "$dir/EXPECTED" ] || continue
	case " ${MISTAKES:-$name} " in *" $name "*) ;; *) continue ;; esac # MISTAKES="a b": only these
	sub="$TMP/sub/$name"
	mkdir -p "$sub"
	for f in "$dir"/*.c "$dir"/*.py; do
		[ -f "$f" ] && cp "$f" "$sub"/
	done
	args=$(python3 "$EXPECT" --args "$dir/EXPECTED")
	# the student's view (json, text), then the instructor's (--show-hidden) that EXPECTED is about;
	# --no-growth: no EXPECTED asserts on the growth line, and measuring it after a time limit cost
	# up to 10 s of CPU per slow mistake and view (tests/growth checks growth)
	eval "\"\$GRADER\" --cache \"\$CACHE\" --color never --no-growth --format \"json:\$TMP/\$name.json\" \
		--format \"text:\$TMP/\$name.txt\" $args \"\$sub\"" >/dev/null 2>"$TMP/$name.err"
	code=$?
	eval "\"\$GRADER\" --cache \"\$CACHE\" --color never --no-growth --show-hidden --format \"json:\$TMP/\$name.shown.json\" \
		--format \"text:\$TMP/\$name.shown.txt\" $args \"\$sub\"" >/dev/null 2>>"$TMP/$name.err"
	shown_code=$?
	python3 "$EXPECT" "$name" "$dir/EXPECTED" "$TMP/$name.shown.json" "$TMP/$name.json" "$TMP/$name.txt" \
		"$code,$shown_code" "$TMP/$name.err" "$TMP/reference-c.json:$TMP/reference-python.json" \
		>"$TMP/$name.checks" 2>&1
	expect_rc=$?
	tally "$TMP/$name.checks"
	# expect.py that could not check (a usage error, a crash) is a failure, not silence
	if [ "$expect_rc" != 0 ] && ! grep -q '^not ok' "$TMP/$name.checks"; then
		not_ok "$name: expect.py failed (exit $expect_rc): $(tail -n 3 "$TMP/$name.checks" | tr '\n' ' ')"
	fi
done

finish
