#!/usr/bin/env bash
# setup.sh - Gradescope runs this once when it builds the autograder image
# (Ubuntu, as root, in /autograder/source where the zip was unpacked).
# Installs the build dependencies, builds the grader and computes the
# reference answers into a cache that is part of the image, so grading a
# submission does not recompute them.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	gcc libc6-dev make pkg-config ca-certificates \
	libyaml-dev libjansson-dev libseccomp-dev libarchive-dev libxml2-dev nettle-dev libpython3-dev
cd /autograder/source
make
# checks the problem files against the reference and fills the cache
bin/grader selftest --cache /autograder/source/cache
