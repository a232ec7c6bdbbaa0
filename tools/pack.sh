#!/bin/sh
# tools/pack.sh - make the student pack (what `make student-pack` runs).
#
#   tools/pack.sh [OUTPUT]        default OUTPUT: build/student-pack.tar.gz
#
# The tarball holds one directory, combgrader-student-VERSION/, with:
#   README.md                  how to build and grade (dist/student-pack/README.md)
#   Makefile                   dist/student-pack/Makefile: builds bin/grader, nothing else
#   grader/ tools/             the grader's sources (tools: deps.sh, embed.sh, build.mk)
#   problems/*.yaml            made by `grader pack`: public groups only, every
#                              answer written out, absolute CPU limits
#   student_template/          the template, the Python skeletons (python/) and the student guide
#   .github/workflows/grade.yml + .github/grade.sh   grading on every push
#   .gitlab-ci.yml             the same for GitLab
#   Dockerfile .devcontainer/  the grader in a Debian container (macOS, Docker)
# and never reference/, the original problem files, tests/ or a cache.
#
# Environment: GRADER (default bin/grader) runs `grader pack`; GRADER_CACHE
# names the reference-answer cache to use (default: the grader's own);
# SOURCE_DATE_EPOCH fixes the files' dates (default: the last commit's).
set -eu
cd "$(dirname "$0")/.."

out=${1:-build/student-pack.tar.gz}
case $out in
/*) ;;
*) out=$PWD/$out ;;
esac
grader=${GRADER:-$PWD/bin/grader}
[ -x "$grader" ] || { echo "pack: no grader at $grader (run make first)" >&2; exit 2; }
version=$("$grader" --version | sed -n 's/^grader //p')
name=combgrader-student-$version

stage=$(mktemp -d "${TMPDIR:-/tmp}/pack.XXXXXX")
trap 'rm -rf "$stage"' EXIT
trap 'exit 130' INT TERM HUP
root=$stage/$name
mkdir -p "$root/tools" "$root/problems" "$root/.github/workflows"

cp dist/student-pack/Makefile "$root/Makefile"
# every folder of grader/ (a folder per concern, cmd/, runtime/): its sources and README
for d in grader/*/; do
	mkdir -p "$root/$d"
	cp "$d"*.c "$d"*.h "$root/$d"
	[ ! -f "$d"README.md ] || cp "$d"README.md "$root/$d"
done
[ ! -f grader/README.md ] || cp grader/README.md "$root/grader/"
cp tools/deps.sh tools/embed.sh tools/build.mk "$root/tools/"
mkdir -p "$root/student_template/python"
cp student_template/*.c student_template/README.md "$root/student_template/"
cp student_template/python/*.py "$root/student_template/python/"
cp dist/student-pack/README.md "$root/README.md"
cp dist/student-pack/Dockerfile "$root/Dockerfile"
mkdir -p "$root/.devcontainer"
cp dist/student-pack/devcontainer/devcontainer.json "$root/.devcontainer/devcontainer.json"
cp dist/github/grade.yml "$root/.github/workflows/grade.yml"
cp dist/github/grade.sh "$root/.github/grade.sh"
chmod 755 "$root/.github/grade.sh"
cp dist/gitlab/gitlab-ci.yml "$root/.gitlab-ci.yml"
printf '%s\n' '/bin/' '/build/' '/grade-report.xml' '*.o' > "$root/.gitignore"

# the problem files, generated from problems/ and the reference's answers
if [ -n "${GRADER_CACHE:-}" ]; then
	"$grader" pack --cache "$GRADER_CACHE" "$root/problems"
else
	"$grader" pack "$root/problems"
fi

# belt and braces: no file of the pack may be a reference solution (of any
# language); the loops run in pipelines' subshells, so they report and the
# script decides
leaks=$(find reference -type f | while IFS= read -r ref; do
	find "$root" -type f | while IFS= read -r f; do
		if cmp -s "$ref" "$f"; then echo "$f is a copy of $ref"; fi
	done
done)
if [ -n "$leaks" ]; then
	echo "pack: refusing to pack reference solutions:" >&2
	echo "$leaks" | sed 's/^/pack:   /' >&2
	exit 1
fi

epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
mkdir -p "$(dirname "$out")"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
	-C "$stage" -cf - "$name" | gzip -n -9 > "$out.tmp"
mv "$out.tmp" "$out"
echo "pack: wrote $out ($name/)"
