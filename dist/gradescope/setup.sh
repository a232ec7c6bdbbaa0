#!/usr/bin/env bash
# setup.sh - Gradescope runs this once when it builds the autograder image
# (Ubuntu, as root, in /autograder/source where the zip was unpacked).
# Installs the build dependencies that are missing, builds the grader and
# computes the reference answers into a cache that is part of the image, so
# grading a submission does not recompute them.
#
# AUTOGRADER_ROOT (default /autograder) moves the whole tree, as for
# run_autograder: tests/reports/run.sh unpacks the zip into a temporary
# directory and runs setup.sh there, then run_autograder.  Nothing is
# installed when nothing is missing (the test needs no root and no network).
set -euo pipefail
ag=${AUTOGRADER_ROOT:-/autograder}   # another root only to try it out elsewhere
cd "$ag/source"

# the compiler and make first (tools/deps.sh needs pkg-config; the Makefile runs
# tools/deps.sh, which installs the missing -dev packages as root and otherwise
# fails naming them)
missing=""
for tool in gcc make pkg-config; do
	command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ] || [ ! -e /usr/include/stdio.h ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends gcc libc6-dev make pkg-config ca-certificates
fi
tools/deps.sh
make
# checks the problem files against the reference and fills the cache
bin/grader selftest --cache "$ag/source/cache"
