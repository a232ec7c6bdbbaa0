#!/bin/sh
# grade.sh - PrairieLearn's external grading entrypoint (dist/prairielearn/README.md).
#
# PrairieLearn starts the question's image, puts the student's files in
# /grade/student and runs this; it must leave /grade/results/results.json
# (PrairieLearn's format: gradable, score in [0, 1], message,
# format_errors, tests).  The files of /grade/student a problem accepts in
# any of its languages (grader list --sources: p1.c, p1.py, ...; any case,
# up to 4 folders deep, the shallowest copy of a name wins) are copied to a
# fresh directory and graded in the student's view (hidden groups as counts).
#
# Environment (set in info.json's externalGradingOptions.environment):
#   COMBGRADER_ONLY       the problems this question grades, e.g. "p1" (default: all)
#   COMBGRADER            the grader (default: /opt/combgrader/bin/grader, as the Dockerfile installs it)
#   COMBGRADER_CACHE      the reference answers' cache (default: /opt/combgrader/cache when it exists)
#   COMBGRADER_PROBLEMS, COMBGRADER_REFERENCE   other problem and reference directories
#   GRADE_ROOT            another /grade, to try the script out elsewhere (the tests do)
set -u
root=${GRADE_ROOT:-/grade}
grader=${COMBGRADER:-/opt/combgrader/bin/grader}
cache=${COMBGRADER_CACHE:-/opt/combgrader/cache}
results=$root/results/results.json
mkdir -p "$root/results"
work=$(mktemp -d "${TMPDIR:-/tmp}/submission.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"   # the sandbox's uid reads the files

# the options every grader call shares
set --
[ -n "${COMBGRADER_PROBLEMS:-}" ] && set -- "$@" --problems "$COMBGRADER_PROBLEMS"
[ -n "${COMBGRADER_REFERENCE:-}" ] && set -- "$@" --reference "$COMBGRADER_REFERENCE"

# regular files only (no symbolic links), shallowest first
"$grader" list --sources "$@" | while read -r name; do
	find "$root/student" -maxdepth 4 -type f -iname "$name" -printf '%d %p\n'
done | sort -n | while read -r _ f; do
	base=$(basename "$f")
	[ -e "$work/$base" ] || cp -- "$f" "$work/$base"
done

[ -d "$cache" ] && set -- "$@" --cache "$cache"
[ -n "${COMBGRADER_ONLY:-}" ] && set -- "$@" --only "$COMBGRADER_ONLY"
rm -f "$results"
# the grade that counts: every test runs (a student's own run would leave out the rest of a group after
# 3 failures in a row of one kind: README, --all-tests)
"$grader" "$@" --all-tests --format prairielearn:"$results" --format text "$work"
rc=$?
# 0: all correct, 1: some test failed - results.json is complete either way;
# 3: some test could not be judged - results.json says so.  Anything else
# (or no results.json): the grader failed, not the student: not gradable,
# so the attempt does not count, and the message says why.
if [ "$rc" -gt 3 ] || [ ! -s "$results" ]; then
	msg="The autograder failed (exit code $rc): this is not your fault, please tell your instructor."
	cat >"$results" <<JSON
{"gradable": false, "score": 0, "message": "$msg", "format_errors": ["$msg"], "tests": []}
JSON
fi
exit 0
