#!/bin/sh
# tools/render-summary.sh - render a batch's summary.html in headless Chromium.
#
#   tools/render-summary.sh OUTDIR/summary.html [SCREENSHOT.png]
#
# WINDOW=W,H sets the viewport (default 1100,1600; the screenshot is that size).
# Installs Debian's `chromium` with apt-get when it is missing and we are
# root (set NO_INSTALL=1 to never install).  Chromium runs with no network
# features and a throwaway profile; the page must not need the network.
# Exit status: 0 when a non-empty screenshot was written, 1 when rendering
# failed, 77 when no Chromium is available (the caller may skip).
set -eu

html=${1:?usage: tools/render-summary.sh SUMMARY.html [SCREENSHOT.png]}
shot=${2:-${html%.html}.png}
[ -f "$html" ] || { echo "render-summary: no such file: $html" >&2; exit 1; }

find_chromium() {
	for c in chromium chromium-browser google-chrome; do
		if command -v "$c" >/dev/null 2>&1; then
			command -v "$c"
			return 0
		fi
	done
	return 1
}

if ! chrome=$(find_chromium); then
	if [ "${NO_INSTALL:-0}" != 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "render-summary: installing chromium (apt-get)" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 ||
			{ apt-get update -q >/dev/null 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; } || true
	fi
	chrome=$(find_chromium) || { echo "render-summary: chromium is not available" >&2; exit 77; }
fi

profile=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$profile" "$log"' EXIT INT TERM

case $html in
/*) url="file://$html" ;;
*) url="file://$(pwd)/$html" ;;
esac
rm -f "$shot"
# timeout: a wedged browser must not hang a test suite
if ! timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --disable-dev-shm-usage \
	--user-data-dir="$profile" --window-size=${WINDOW:-1100,1600} --screenshot="$shot" "$url" >"$log" 2>&1; then
	echo "render-summary: chromium failed:" >&2
	tail -n 20 "$log" >&2
	exit 1
fi
if [ ! -s "$shot" ]; then
	echo "render-summary: no screenshot was written" >&2
	tail -n 20 "$log" >&2
	exit 1
fi
echo "render-summary: $shot ($(wc -c <"$shot") bytes)"
