#!/bin/sh
# .github/grade.sh - what the grade workflow runs; works the same on your machine.
#
#   .github/grade.sh [DIR]     DIR: your solutions (default: mywork/ when it
#                              exists, else student_template/)
#
# Prints the report, writes the JUnit report grade-report.xml and, on GitHub
# Actions, the annotations, the job summary ($GITHUB_STEP_SUMMARY) and the
# step output result= (GitHub Classroom's autograding result, base64 JSON,
# for the workflow's autograding-grading-reporter step), and says in an
# annotation and the summary that the score counts the public tests only
# (the hidden tests are not in this repository).  The
# report quotes what your program printed, so it is shown between
# ::stop-commands:: markers: nothing in it is taken for a workflow command.
# Exit status is the grader's: 0 every test correct, 1 some test failed,
# 2 usage or problem-file error, 3 the grader could not judge a test.
set -u
cd "$(dirname "$0")/.."
dir=${1:-}
if [ -z "$dir" ]; then
	if [ -d mywork ]; then dir=mywork; else dir=student_template; fi
fi
if [ "${GITHUB_ACTIONS:-}" != true ]; then
	# on CI (GitLab sets CI) every public test runs; a student's own run leaves out what repeats (README)
	exec bin/grader ${CI:+--all-tests} --format text --format junit:grade-report.xml "$dir"
fi

annotations=$(mktemp)
classroom=$(mktemp)
trap 'rm -f "$annotations" "$classroom"' EXIT
token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
echo "::stop-commands::$token"
# --all-tests: the score GitHub Classroom records counts every public test, as the instructor's run does
bin/grader --all-tests --color always --format text --format github:"$annotations" --format junit:grade-report.xml \
	--format classroom:"$classroom" "$dir"
rc=$?
echo "::$token::"
cat "$annotations"
# the score above is not the grade: impossible to miss in the run's annotations and its summary
echo "::notice title=Public tests only::this score counts the public tests in this repository; your grade comes from your instructor's run, which adds the hidden tests and can be lower"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	printf '\n> **Public tests only.** The score above, and the one GitHub Classroom shows, counts the public tests in this repository. Your grade comes from your instructor'"'"'s run, which adds the hidden tests: it can be lower.\n' \
		>>"$GITHUB_STEP_SUMMARY"
fi
if [ -n "${GITHUB_OUTPUT:-}" ] && [ -s "$classroom" ]; then
	echo "result=$(cat "$classroom")" >>"$GITHUB_OUTPUT"
fi
exit "$rc"
