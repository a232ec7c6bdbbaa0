# Makefile for the combinatorial-games autograder.
#   make            build bin/grader (installs missing -dev packages when root)
#   make test       unit, integration and hostile-submission tests (ASan/UBSan build)
#   make bench      performance figures
#   make fuzz       libFuzzer campaigns (clang-14): FUZZ_SECONDS, FUZZ_RUNS, FUZZ_TARGETS
#   make check-ci   what .ci/run calls: warnings are errors
# Variables: CC, CFLAGS_EXTRA, WERROR=1, PREFIX, DESTDIR.

PREFIX ?= /usr/local
# where `make install` puts problems/, reference/ and student_template/ (the
# grader also looks in bin/../share/combgrader/, wherever it was installed)
SHARE_DIR = $(PREFIX)/share/combgrader
LOCALE_DIR = $(PREFIX)/share/locale
GRADER_DEFS = -DGRADER_SHARE_DIR='"$(SHARE_DIR)"' -DGRADER_LOCALE_DIR='"$(LOCALE_DIR)"'
SAN_CFLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
TEST_DEPS_STAMP := build/.test-deps-ok

all: bin/grader

# CC, the flags, the sources, the runtime embedding and bin/grader itself
include tools/build.mk

# the catalogues of the students' language (MO_FILES: tools/build.mk)
all: $(MO_FILES)

# after the build dependencies: two apt-get runs at once would fight over dpkg's lock
$(TEST_DEPS_STAMP): tools/deps.sh $(DEPS_STAMP)
	@mkdir -p build
	@tools/deps.sh test
	@touch $@

# The grader built with AddressSanitizer and UBSan, for the test suite: the
# library compiled once, an object per source with its -MMD dependencies
# (build/asan/obj/<folder>/<name>.o and .d), into one archive that
# build/asan/grader and every unit test link.  The unit tests' own files get
# -DUNIT_TESTING (cmocka's); no library source reads it, so one set of
# objects serves both.
ASAN_DIR := build/asan
ASAN_CFLAGS = $(BASE_CFLAGS) $(SAN_CFLAGS) $(PC_CFLAGS) $(CFLAGS_EXTRA)
ASAN_LIB_OBJS := $(patsubst grader/%.c,$(ASAN_DIR)/obj/%.o,$(GRADER_SRCS)) $(ASAN_DIR)/obj/runtime_embed.o
ASAN_CMD_OBJS := $(patsubst grader/%.c,$(ASAN_DIR)/obj/%.o,$(CMD_SRCS))
# the compiler and flags the objects were built with: changing them
# (WERROR=1, CFLAGS_EXTRA=..., CC=...) rebuilds the objects
ASAN_FLAGS_STAMP := $(ASAN_DIR)/.cflags

$(ASAN_FLAGS_STAMP): asan-flags-check $(DEPS_STAMP)
	@mkdir -p $(ASAN_DIR)
	@echo '$(CC) $(ASAN_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(ASAN_CFLAGS)' > $@
asan-flags-check:
.PHONY: asan-flags-check

$(ASAN_DIR)/obj/%.o: grader/%.c $(ASAN_FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ASAN_CFLAGS) -MMD -MP -c -o $@ $<

$(ASAN_DIR)/obj/runtime_embed.o: $(EMBED) $(ASAN_FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ASAN_CFLAGS) -MMD -MP -c -o $@ $<

$(ASAN_DIR)/libgrader.a: $(ASAN_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

build/asan/grader: $(ASAN_CMD_OBJS) $(ASAN_DIR)/libgrader.a
	$(CC) $(ASAN_CFLAGS) -o $@ $(ASAN_CMD_OBJS) $(ASAN_DIR)/libgrader.a $(PC_LIBS) -lm

# ---- tests ----
UNIT_TESTS := $(patsubst tests/unit/%.c,build/tests/%,$(filter-out tests/unit/test_reference.c,$(wildcard tests/unit/test_*.c)))

$(UNIT_TESTS): build/tests/%: tests/unit/%.c $(ASAN_DIR)/libgrader.a $(TEST_DEPS_STAMP)
	@mkdir -p build/tests
	$(CC) $(ASAN_CFLAGS) -DUNIT_TESTING -MMD -MP -o $@ $< $(ASAN_DIR)/libgrader.a \
		$(PC_LIBS) $$($(PKG_CONFIG) --libs cmocka) -lm

-include $(ASAN_LIB_OBJS:.o=.d) $(ASAN_CMD_OBJS:.o=.d) $(UNIT_TESTS:=.d)

# The reference solutions against independent brute force (each renamed: p2 and p3 both define canWin).
build/tests/test_reference: tests/unit/test_reference.c reference/*.c $(TEST_DEPS_STAMP)
	@mkdir -p build/tests/ref
	$(CC) $(BASE_CFLAGS) -O2 -c reference/p1.c -o build/tests/ref/p1.o
	$(CC) $(BASE_CFLAGS) -O2 -DcanWin=ref_p2_canWin -c reference/p2.c -o build/tests/ref/p2.o
	$(CC) $(BASE_CFLAGS) -O2 -DcanWin=ref_p3_canWin -c reference/p3.c -o build/tests/ref/p3.o
	$(CC) $(BASE_CFLAGS) -O2 -Df=ref_p4_f -c reference/p4.c -o build/tests/ref/p4.o
	$(CC) $(BASE_CFLAGS) -O2 -Df=ref_p4dp_f -c reference/p4_dp.c -o build/tests/ref/p4_dp.o
	$(CC) $(BASE_CFLAGS) -O2 -o $@ $< build/tests/ref/*.o $$($(PKG_CONFIG) --libs cmocka) -lm

# A command under a seccomp filter that refuses new user namespaces (tools/run-unprivileged.sh).
build/tests/deny-userns: tests/tools/deny-userns.c $(TEST_DEPS_STAMP)
	@mkdir -p build/tests
	$(CC) $(BASE_CFLAGS) -O2 $(PC_CFLAGS) $(CFLAGS_EXTRA) -o $@ $< $$($(PKG_CONFIG) --libs libseccomp)

# The same references as a shared library (same renames, position-independent),
# for the Python references' test, which calls them through ctypes.
REF_PIC := build/tests/refpic
build/tests/libref.so: reference/*.c
	@mkdir -p $(REF_PIC)
	$(CC) $(BASE_CFLAGS) -O2 -fPIC -c reference/p1.c -o $(REF_PIC)/p1.o
	$(CC) $(BASE_CFLAGS) -O2 -fPIC -DcanWin=ref_p2_canWin -c reference/p2.c -o $(REF_PIC)/p2.o
	$(CC) $(BASE_CFLAGS) -O2 -fPIC -DcanWin=ref_p3_canWin -c reference/p3.c -o $(REF_PIC)/p3.o
	$(CC) $(BASE_CFLAGS) -O2 -fPIC -Df=ref_p4_f -c reference/p4.c -o $(REF_PIC)/p4.o
	$(CC) $(BASE_CFLAGS) -O2 -fPIC -Df=ref_p4dp_f -c reference/p4_dp.c -o $(REF_PIC)/p4_dp.o
	$(CC) -shared -o $@ $(REF_PIC)/p1.o $(REF_PIC)/p2.o $(REF_PIC)/p3.o $(REF_PIC)/p4.o $(REF_PIC)/p4_dp.o

# The cmocka tests, then the Python references against brute force, the
# published values and the C references (build/tests/libref.so).
unit-tests: $(UNIT_TESTS) build/tests/test_reference build/tests/libref.so
	@set -e; for t in $(UNIT_TESTS) build/tests/test_reference; do echo "== $$t"; $$t; done
	@echo "== tests/unit/test_reference_py.py"
	@LIBREF=build/tests/libref.so python3 tests/unit/test_reference_py.py
	@echo "== tests/unit/handler_calls.sh"
	@PYTHON_CFLAGS='$(PY_CFLAGS)' sh tests/unit/handler_calls.sh

# What make test needs built, built two at a time (make test-build; the
# build and test dependencies are installed first, one apt-get after the
# other: their stamps come before every compile).
TEST_BUILD = $(TEST_DEPS_STAMP) bin/grader build/asan/grader build/tests/deny-userns \
	$(UNIT_TESTS) build/tests/test_reference build/tests/libref.so $(MO_FILES) fuzz-build
test-build: $(TEST_BUILD)

# Everything built (two jobs at a time), the catalogue checked, then two
# lanes side by side (tools/run-lanes.sh): every tests/<suite>/run.sh with
# GRADER pointing at the sanitizer build; beside them the unit tests, then
# the suites again as a normal user, with and without user namespaces, each
# pass with the checks whose outcome can differ at its level
# (tools/run-unprivileged.sh).  Each suite's wall-clock and CPU time is
# printed at the end, and the whole run's, so the test-time budget (30
# minutes, docs/testing.md) shows in every CI log.  The reference answers of
# problems/ are computed once, into build/test-seed, for every lane
# (tools/seed-cache.sh, removed afterwards).
test:
	@$(MAKE) --no-print-directory -j2 test-build
	@$(MAKE) --no-print-directory po-check
	@rm -rf build/test-seed; \
	TEST_SEED_CACHE=$(CURDIR)/build/test-seed SUITE_TIMES=$(CURDIR)/build/suite-times.txt \
		LANE2_FIRST='$(MAKE) --no-print-directory unit-tests' tools/run-lanes.sh; \
	rc=$$?; rm -rf build/test-seed; exit $$rc

# The Korean catalogue (docs/i18n.md): msgfmt's statistics, then every
# student-facing string of the sources (xgettext) has a translation in each po/*.po.
po-check: $(MO_FILES)
	@tools/po-check.sh

# po/combgrader.pot from the sources, and each po/*.po merged with it (run after changing messages)
po-update:
	tools/po-check.sh --update

# ---- fuzzing (tests/fuzz, docs/fuzzing.md) ----
# libFuzzer harnesses for what reads untrusted bytes, built with clang into
# build/fuzz/ (apart from the gcc builds): the library compiled once with
# coverage + ASan/UBSan into an archive, each harness linked against it.
#   make fuzz-build                      build them
#   make fuzz                            run each for FUZZ_SECONDS (default 60)
#   make fuzz FUZZ_RUNS=10000000         ... or for that many executions
#   make fuzz FUZZ_TARGETS='record elf'  only some of them
FUZZ_CC ?= clang-14
FUZZ_TARGETS ?= record yaml elf archive
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_FLAGS ?=
FUZZ_DIR ?= build/fuzz
FUZZ_SAN ?= -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Wno-missing-field-initializers -DHAVE_SECCOMP -DFUZZING -Igrader -Ibuild $(FUZZ_SAN)
# the whole library, as the unit tests link it; a harness pulls only the members it needs
FUZZ_LIB_SRCS ?= $(GRADER_SRCS)
FUZZ_LIB_OBJS := $(patsubst grader/%.c,$(FUZZ_DIR)/obj/%.o,$(FUZZ_LIB_SRCS)) $(FUZZ_DIR)/obj/runtime_embed.o
FUZZ_BINS := $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_TARGETS))
# the compiler and flags the objects were built with: changing them
# (FUZZ_SAN=..., FUZZ_CC=...) rebuilds everything in $(FUZZ_DIR)
FUZZ_FLAGS_STAMP := $(FUZZ_DIR)/.cflags

$(FUZZ_FLAGS_STAMP): fuzz-flags-check
	@mkdir -p $(FUZZ_DIR)
	@echo '$(FUZZ_CC) $(FUZZ_CFLAGS)' | cmp -s - $@ || echo '$(FUZZ_CC) $(FUZZ_CFLAGS)' > $@
fuzz-flags-check:
.PHONY: fuzz-flags-check

$(FUZZ_DIR)/obj/%.o: grader/%.c $(HEADERS) $(TEST_DEPS_STAMP) $(FUZZ_FLAGS_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(PC_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/obj/runtime_embed.o: $(EMBED) $(FUZZ_FLAGS_STAMP)
	@mkdir -p $(FUZZ_DIR)/obj
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/libgrader.a: $(FUZZ_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# the runtime as c_setup() compiles it: the runner's imports for elfcheck_inspect
$(FUZZ_DIR)/runtime.o: grader/runtime/runtime.c grader/runtime/protocol.h
	@mkdir -p $(FUZZ_DIR)
	$(CC) -std=gnu11 -O2 -pipe -fno-stack-protector -Igrader/runtime -c -o $@ $<

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_DIR)/libgrader.a $(FUZZ_DIR)/runtime.o $(FUZZ_FLAGS_STAMP)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DFUZZ_RUNTIME_O='"$(abspath $(FUZZ_DIR)/runtime.o)"' \
		$(PC_CFLAGS) -o $@ $< $(FUZZ_DIR)/libgrader.a $(PC_LIBS) -lm

# writes a problem's calling stub: tests/fuzz/make-seeds.py links real runners with it
$(FUZZ_DIR)/stubgen: tests/fuzz/stubgen.c $(FUZZ_DIR)/libgrader.a $(FUZZ_FLAGS_STAMP)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(PC_CFLAGS) -o $@ $< $(FUZZ_DIR)/libgrader.a $(PC_LIBS) -lm

fuzz-build: $(FUZZ_BINS)

# Each harness, one after the other, niced, on its seeds (tests/fuzz/corpus/<h>,
# read-only) plus what it found before ($(FUZZ_DIR)/corpus/<h>, where new inputs
# go); crashes in $(FUZZ_DIR)/artifacts/<h>/ (tools/fuzz.sh).
fuzz: fuzz-build
	@set -e; for h in $(FUZZ_TARGETS); do \
		echo "== fuzz_$$h"; \
		FUZZ_DIR=$(FUZZ_DIR) tools/fuzz.sh $$h $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS)) $(FUZZ_FLAGS); \
	done

student-pack: bin/grader
	tools/pack.sh

check-ci:
	$(MAKE) WERROR=1 test

bench: bin/grader
	tools/bench.sh

# The grader, and what it grades with by default, under $(SHARE_DIR): the
# installed grader finds them from any directory.
install: bin/grader $(MO_FILES)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(SHARE_DIR)/problems \
		$(DESTDIR)$(SHARE_DIR)/reference/python $(DESTDIR)$(SHARE_DIR)/student_template/python
	install -m 755 bin/grader $(DESTDIR)$(PREFIX)/bin/grader
	install -m 644 problems/*.yaml $(DESTDIR)$(SHARE_DIR)/problems
	install -m 644 reference/*.c $(DESTDIR)$(SHARE_DIR)/reference
	install -m 644 reference/python/*.py $(DESTDIR)$(SHARE_DIR)/reference/python
	install -m 644 student_template/*.c student_template/README*.md $(DESTDIR)$(SHARE_DIR)/student_template
	install -m 644 student_template/python/*.py $(DESTDIR)$(SHARE_DIR)/student_template/python
	for l in $(LINGUAS); do \
		install -d $(DESTDIR)$(LOCALE_DIR)/$$l/LC_MESSAGES && \
		install -m 644 build/locale/$$l/LC_MESSAGES/combgrader.mo $(DESTDIR)$(LOCALE_DIR)/$$l/LC_MESSAGES/ || exit 1; \
	done

clean:
	rm -rf bin build

.PHONY: all test test-build unit-tests po-check po-update check-ci bench install clean student-pack fuzz fuzz-build
