#!/bin/sh
# tools/po-check.sh - the students' language (docs/i18n.md): every
# student-facing string of the sources has a translation in each po/*.po.
#
#   tools/po-check.sh             check (make po-check, part of make test)
#   tools/po-check.sh --update    regenerate po/combgrader.pot from the sources
#                                 and merge it into each po/*.po (make po-update)
#
# The check extracts the strings marked _(), N_() and P_() from grader/
# with xgettext, merges them into a copy of each catalogue and fails when
# one has no translation or only a fuzzy one, naming it; then prints
# msgfmt --check --statistics of each catalogue, and fails when
# po/combgrader.pot is not the sources' (run make po-update).
set -eu
cd "$(dirname "$0")/.."

tmp=$(mktemp -d "${TMPDIR:-/tmp}/po-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

extract() {
	find grader -name '*.c' | LC_ALL=C sort > "$tmp/files"
	xgettext --from-code=UTF-8 --language=C -k --keyword=_ --keyword=N_ --keyword=P_:1,2 \
		--add-comments=TRANSLATORS: --package-name=combgrader --msgid-bugs-address='the course staff' \
		--no-wrap --sort-by-file -f "$tmp/files" -o "$1"
	# no creation date: the file changes only when the strings do
	sed -i '/^"POT-Creation-Date:/d' "$1"
}

if [ "${1:-}" = --update ]; then
	extract po/combgrader.pot
	for po in po/*.po; do
		msgmerge --quiet --update --backup=none --no-wrap "$po" po/combgrader.pot
	done
	exit 0
fi

extract "$tmp/fresh.pot"
rc=0
# the same msgids as the sources (locations and comments aside)
msgcat --no-location --sort-output --no-wrap po/combgrader.pot | grep -v '^#' > "$tmp/a"
msgcat --no-location --sort-output --no-wrap "$tmp/fresh.pot" | grep -v '^#' > "$tmp/b"
if ! cmp -s "$tmp/a" "$tmp/b"; then
	echo "po-check: po/combgrader.pot is not the sources' strings: run make po-update, then translate" >&2
	diff "$tmp/a" "$tmp/b" | sed -n 's/^> msgid /po-check:   new: /p; s/^< msgid /po-check:   gone: /p' >&2
	rc=1
fi
for po in po/*.po; do
	lang=$(basename "$po" .po)
	msgmerge --quiet --no-fuzzy-matching --no-wrap "$po" "$tmp/fresh.pot" -o "$tmp/$lang.po"
	msgattrib --untranslated --no-obsolete --no-wrap "$tmp/$lang.po" | grep '^msgid ' | grep -v '^msgid ""$' \
		> "$tmp/$lang.missing" || true
	msgattrib --only-fuzzy --no-obsolete --no-wrap "$tmp/$lang.po" | grep '^msgid ' | grep -v '^msgid ""$' \
		>> "$tmp/$lang.missing" || true
	if [ -s "$tmp/$lang.missing" ]; then
		echo "po-check: $po has no (or only a fuzzy) translation for $(wc -l < "$tmp/$lang.missing") string(s):" >&2
		sed 's/^/po-check:   /' "$tmp/$lang.missing" >&2
		rc=1
	fi
	printf 'po-check: %s: ' "$po"
	msgfmt --check --statistics -o /dev/null "$po" 2>&1 || rc=1
done
[ $rc -eq 0 ] && echo "po-check: every student-facing string has a translation"
exit $rc
