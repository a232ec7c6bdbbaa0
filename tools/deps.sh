#!/bin/sh
# tools/deps.sh - make sure the libraries the grader builds against are here.
# Installs the missing Debian packages when run as root (apt-get), otherwise
# prints the exact command and fails.  Usage: tools/deps.sh [test]
set -eu

need="libyaml-dev:yaml-0.1 libjansson-dev:jansson libseccomp-dev:libseccomp libarchive-dev:libarchive libxml2-dev:libxml-2.0 nettle-dev:nettle libpython3-dev:python3-embed"
if [ "${1:-}" = test ]; then
	need="$need libcmocka-dev:cmocka"
fi

missing=""
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"
for pair in $need; do
	pkg=${pair%%:*}
	pc=${pair#*:}
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$pc"; then
		missing="$missing $pkg"
	fi
done
# msgfmt compiles po/*.po (the students' language); the tests also use xgettext
command -v msgfmt >/dev/null 2>&1 || missing="$missing gettext"
# the test suite also uses these programs
if [ "${1:-}" = test ]; then
	command -v prove >/dev/null 2>&1 || missing="$missing perl"
	command -v xmllint >/dev/null 2>&1 || missing="$missing libxml2-utils"
	command -v unshare >/dev/null 2>&1 || missing="$missing util-linux"
	command -v xgettext >/dev/null 2>&1 || missing="$missing gettext"
	# tests/i18n: localedef generates ko_KR.UTF-8 into a temporary LOCPATH
	command -v localedef >/dev/null 2>&1 || missing="$missing libc-bin"
	[ -f /usr/share/i18n/locales/ko_KR ] || missing="$missing locales"
	command -v python3 >/dev/null 2>&1 || missing="$missing python3"
	# tests/reports: PrairieLearn's results.json against a JSON Schema, with
	# Debian's python3 (the first python3 on PATH may be another one)
	/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 || missing="$missing python3-jsonschema"
	# tests/mutate: a survivor's diff must apply with patch(1)
	command -v patch >/dev/null 2>&1 || missing="$missing patch"
	# tests/fuzz: clang 14 with its libFuzzer and sanitizer runtimes, and a
	# symbolizer for readable stacks (`make fuzz-build`, FUZZ_CC=clang-14)
	command -v clang-14 >/dev/null 2>&1 || missing="$missing clang-14"
	if ! command -v clang-14 >/dev/null 2>&1 ||
	   [ ! -f "$(clang-14 -print-runtime-dir)/libclang_rt.fuzzer-$(uname -m).a" ]; then
		missing="$missing libclang-rt-14-dev"
	fi
	command -v llvm-symbolizer >/dev/null 2>&1 || missing="$missing llvm"
	# tests/summary: summary.html rendered in headless Chromium, the
	# screenshot inspected with Debian's python3 and PIL
	command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
	/usr/bin/python3 -c 'import PIL' >/dev/null 2>&1 || missing="$missing python3-pil"
	# tests/cluster: the Slurm and GNU parallel recipes on real engines
	command -v slurmctld >/dev/null 2>&1 || missing="$missing slurm-wlm"
	command -v munged >/dev/null 2>&1 || missing="$missing munge"
	parallel --version 2>/dev/null | grep -q "GNU parallel" || missing="$missing parallel"
fi

[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null 2>&1 || apt-get update
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
	exit 0
fi
echo "deps: missing packages:$missing" >&2
echo "deps: install them with:  sudo apt-get install -y$missing" >&2
exit 1
