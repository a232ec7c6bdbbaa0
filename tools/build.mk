# tools/build.mk - how bin/grader is built, shared by the course's Makefile
# and the student pack's (dist/student-pack/Makefile; tools/pack.sh copies
# both).  The including Makefile may set GRADER_DEFS (extra -D flags for
# every build of the grader) before including this file.

CC ?= gcc
PKG_CONFIG ?= pkg-config
LIBS_PC := yaml-0.1 jansson libseccomp libarchive libxml-2.0 nettle

WARN := -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wshadow -Wformat=2
ifeq ($(WERROR),1)
WARN += -Werror
endif
BASE_CFLAGS := -std=gnu11 -g $(WARN) -DHAVE_SECCOMP -Igrader -Ibuild
HARDEN := -D_FORTIFY_SOURCE=2 -fstack-protector-strong
OPT_CFLAGS := -O2 $(HARDEN)

# grader/<concern>/: the library (base, sandbox, run, problem, build, judge,
# report, mutate, batch, pack: grader/README.md); grader/cmd/: the command
# line over it; grader/runtime/: the runner's half, embedded as text (EMBED).
# Unit tests link the library only.  Sources include headers by their path
# below grader/ ("sandbox/filter.h"), hence -Igrader.
GRADER_SRCS := $(filter-out grader/cmd/% grader/runtime/%,$(wildcard grader/*/*.c))
CMD_SRCS := $(wildcard grader/cmd/*.c)
HEADERS := $(filter-out grader/runtime/%,$(wildcard grader/*/*.h)) grader/runtime/protocol.h
EMBED := build/runtime_embed.c
DEPS_STAMP := build/.deps-ok

$(DEPS_STAMP): tools/deps.sh
	@mkdir -p build
	@tools/deps.sh
	@touch $@

# Python submissions: the grader compiles a host embedding Debian's libpython
# with these flags (python3-embed: libpython3-dev), and names its version.
PY_CFLAGS = $(shell $(PKG_CONFIG) --cflags python3-embed)
PY_LIBS = $(shell $(PKG_CONFIG) --libs python3-embed)
PY_VERSION = $(shell printf '\043include <patchlevel.h>\nPY_VERSION\n' | $(CC) -E -P $(PY_CFLAGS) - | tail -n 1)
PY_DEFS = -DGRADER_PYTHON_CFLAGS='"$(PY_CFLAGS)"' -DGRADER_PYTHON_LIBS='"$(PY_LIBS)"' \
	  -DGRADER_PYTHON_VERSION='$(PY_VERSION)'
PC_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(LIBS_PC)) $(PY_DEFS) $(GRADER_DEFS)
PC_LIBS = $(shell $(PKG_CONFIG) --libs $(LIBS_PC))

$(EMBED): grader/runtime/protocol.h grader/runtime/runtime.c grader/runtime/pyhost.c tools/embed.sh tools/build.mk
	@mkdir -p build
	{ echo '/* generated from grader/runtime by tools/embed.sh: do not edit */'; \
	  echo '#include "base/embed.h"'; \
	  tools/embed.sh embed_protocol_h grader/runtime/protocol.h; \
	  tools/embed.sh embed_runtime_c grader/runtime/runtime.c; \
	  tools/embed.sh embed_pyhost_c grader/runtime/pyhost.c; } > $@.tmp && mv $@.tmp $@

bin/grader: $(DEPS_STAMP) $(GRADER_SRCS) $(CMD_SRCS) $(EMBED) $(HEADERS)
	@mkdir -p bin
	$(CC) $(BASE_CFLAGS) $(OPT_CFLAGS) $(PC_CFLAGS) $(CFLAGS_EXTRA) -o $@ \
		$(GRADER_SRCS) $(CMD_SRCS) $(EMBED) $(PC_LIBS) -lm
