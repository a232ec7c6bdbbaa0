#!/bin/sh
# tools/embed.sh NAME FILE - print FILE as a C string constant called NAME.
set -eu
printf 'const char %s[] =\n' "$1"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$2"
printf ';\n'
