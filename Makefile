# stablekit: Linux stable-tree and backport maintenance, driven by libgit2.
#
#   make              build tools/stablekit into build/ (or build/asan with SANITIZE=1)
#   make deps         install the Debian packages the command-line tool needs to
#                     build and run (idempotent)
#   make deps-test    install those and what the tests, the gate, LAVA and the
#                     embedded demo (make run) need: cross compilers, QEMU, ...
#   make install      the binary, the manual pages and the shipped data under
#                     $(DESTDIR)$(PREFIX) (PREFIX default /usr/local); make uninstall
#   make deb          the Debian package (build/<dir>/deb/stablekit_*.deb)
#   make man          the manual pages as man(1) pages (build/<dir>/man)
#   make check        the layering check, unit tests (cmocka) and command-line
#                     tests (sharness, prove)
#   make check SANITIZE=1   the same under ASan+UBSan
#   make bench        benchmarks, printed as ratios against a baseline in the same run
#   make run          the main job on the embedded default (ci/main-job)
#   make fuzz         build every tools/stablekit/fuzz/fuzz-*.c with clang and
#                     libFuzzer (build/fuzz) and run each FUZZ_TIME seconds
#   make fuzz-replay  every seed and crash reproducer through its harness
#                     (part of make check; gcc, or ASan with SANITIZE=1)

PKGS := libgit2 jansson sqlite3 libdeflate libcurl libcrypto
SK := tools/stablekit

ifeq ($(SANITIZE),1)
BUILD := build/asan
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD := build/default
SAN_FLAGS :=
endif

# Where `make install` puts things.  The binary knows PREFIX (its data
# directory when it runs from neither an installed tree nor this checkout,
# lib/core/datadir.h) and no path of this checkout: the debug information
# names the sources relative to it (-ffile-prefix-map).
PREFIX ?= /usr/local
DESTDIR ?=
bindir := $(PREFIX)/bin
datadir := $(PREFIX)/share/stablekit
man1dir := $(PREFIX)/share/man/man1

CC ?= cc
CFLAGS ?= -O2 -g
# Quiet before `make deps` has installed them; the build itself then fails
# on the missing headers, naming them.
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
	-Werror=implicit-function-declaration -ffile-prefix-map=$(CURDIR)=. \
	-I$(SK)/lib $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
BASE_LDLIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
SK_CFLAGS := $(BASE_CFLAGS) $(SAN_FLAGS)
SK_LDLIBS := $(BASE_LDLIBS) $(SAN_FLAGS)

LIB_SRC := $(sort $(wildcard $(SK)/lib/*/*.c))
CMD_SRC := $(sort $(wildcard $(SK)/cmd-*.c)) $(SK)/stablekit.c
UNIT_SRC := $(sort $(wildcard $(SK)/unit/test-*.c))
HELPER_SRC := $(sort $(wildcard $(SK)/helpers/*.c))
FUZZ_SRC := $(sort $(wildcard $(SK)/fuzz/fuzz-*.c))
FUZZ_NAMES := $(FUZZ_SRC:$(SK)/fuzz/fuzz-%.c=%)

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN := $(UNIT_SRC:$(SK)/unit/%.c=$(BUILD)/unit/%)
HELPER_BIN := $(HELPER_SRC:$(SK)/helpers/%.c=$(BUILD)/helpers/%)

# What the command-line tool needs to build and run: its libraries (libssl-dev:
# libcrypto's sha256 that checks the pinned trees), git, patch, quilt, b4,
# coccinelle and curl for pull and port, what a kernel's objects build needs
# (the port's compile check, stablekit build on x86_64), and apt, dpkg
# (dpkg-deb), tar, xz-utils and debian-archive-keyring: how workspace init
# fetches and unpacks the pinned trees (ci/trees.conf); man-db for its
# manual pages.
DEPS := libgit2-dev libjansson-dev libsqlite3-dev libdeflate-dev libcurl4-openssl-dev libssl-dev \
	pkg-config gcc make git patch quilt coccinelle b4 curl perl man-db \
	bc flex bison libelf-dev \
	xz-utils apt dpkg debian-archive-keyring tar

# What the tests, the gate, LAVA and the embedded demo (make run) need on top:
# cmocka and sharness; the 6.12 tree of the workspace; cross compilers and
# libcs for arm64 and i386 (kselftests cross-built statically) and riscv64
# (built, never booted); QEMU, busybox-static and cpio for the guests;
# ccache and distcc for kernel builds; public-inbox for the lore tests;
# chromium, poppler-utils and python3-jsonschema for the report's; clang for
# the fuzzers; a single-host LAVA (t9000); debootstrap for the package's
# fresh container (t0320).
DEPS_TEST := libcmocka-dev sharness jq python3 procps debhelper dpkg-dev debootstrap \
	linux-source-6.12 cpio kmod ccache distcc \
	gcc-aarch64-linux-gnu gcc-i686-linux-gnu gcc-riscv64-linux-gnu \
	libc6-dev-arm64-cross libc6-dev-i386-cross \
	busybox-static qemu-system-x86 qemu-system-arm \
	chromium poppler-utils python3-jsonschema public-inbox libsearch-xapian-perl xapian-tools \
	clang-14 libclang-rt-14-dev llvm-14 \
	lava-server lava-dispatcher lavacli postgresql iproute2

.PHONY: all deps deps-test check check-build layers unit-test fuzz-replay cli-test bench run \
	clean fuzz fuzz-build man install uninstall deb FORCE
.DELETE_ON_ERROR:

all: $(BUILD)/stablekit $(HELPER_BIN)

$(BUILD)/%.o: %.c $(wildcard $(SK)/lib/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SK_CFLAGS) -c -o $@ $<

$(BUILD)/libstablekit.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/stablekit: $(CMD_OBJ) $(BUILD)/libstablekit.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libstablekit.a $(SK_LDLIBS)

# The install prefix is compiled into lib/core/datadir.c alone, and that
# object is made again when PREFIX changes (git's GIT-PREFIX).
$(BUILD)/PREFIX: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PREFIX)' | cmp -s - $@ || echo '$(PREFIX)' >$@

$(BUILD)/$(SK)/lib/core/datadir.o: $(BUILD)/PREFIX
$(BUILD)/$(SK)/lib/core/datadir.o: SK_CFLAGS += -DSK_PREFIX='"$(PREFIX)"'

# The unit tests read this checkout's files (they are never installed).
$(BUILD)/unit/%: $(SK)/unit/%.c $(BUILD)/libstablekit.a $(BUILD)/PREFIX
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SK_CFLAGS) -DSK_TEST_TOP='"$(CURDIR)"' \
		-DSK_TEST_PREFIX='"$(PREFIX)"' -o $@ $< \
		$(BUILD)/libstablekit.a \
		$(SK_LDLIBS) $(shell pkg-config --libs cmocka 2>/dev/null)

$(BUILD)/helpers/%: $(SK)/helpers/%.c $(SK)/helpers/helper.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra $(SAN_FLAGS) -o $@ $<

# apt-get install of the packages of $(1) that are not installed yet.
define apt_install
	@missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends $$missing; \
	else echo "$(2): all installed"; fi
endef

deps:
	$(call apt_install,$(DEPS),deps)

deps-test:
	$(call apt_install,$(DEPS) $(DEPS_TEST),deps-test)

# The manual pages: Documentation/stablekit-<command>.txt, the one source
# (stablekit help prints it), made into man(7) source by ci/txt2man.
MAN_TXT := $(sort $(wildcard $(SK)/Documentation/stablekit-*.txt))
MAN_PAGES := $(MAN_TXT:$(SK)/Documentation/%.txt=$(BUILD)/man/%.1)

$(BUILD)/man/%.1: $(SK)/Documentation/%.txt ci/txt2man
	@mkdir -p $(dir $@)
	ci/txt2man $< >$@

man: $(MAN_PAGES)

# The data directory (lib/core/datadir.h): what stablekit reads at run time.
DATA_DIRS := ci/kconfig ci/guest Documentation helpers
DATA_FILES := $(wildcard ci/kconfig/*.config) ci/guest/init ci/guest/bench.sh \
	ci/guest/kernel.config ci/trees.conf ci/gate.conf MAINTAINERS

install: all man
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(man1dir) \
		$(addprefix $(DESTDIR)$(datadir)/,$(DATA_DIRS))
	install -m 755 $(BUILD)/stablekit $(DESTDIR)$(bindir)/stablekit
	for f in $(DATA_FILES); do \
		install -m 644 $$f $(DESTDIR)$(datadir)/$$f || exit 1; done
	chmod 755 $(DESTDIR)$(datadir)/ci/guest/init $(DESTDIR)$(datadir)/ci/guest/bench.sh
	install -m 644 $(MAN_TXT) $(SK)/Documentation/report-schema.json \
		$(DESTDIR)$(datadir)/Documentation
	install -m 644 $(HELPER_SRC) $(SK)/helpers/helper.h $(DESTDIR)$(datadir)/helpers
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(man1dir)
	ln -sf stablekit-help.1 $(DESTDIR)$(man1dir)/stablekit.1

uninstall:
	rm -f $(DESTDIR)$(bindir)/stablekit $(DESTDIR)$(man1dir)/stablekit.1 \
		$(MAN_PAGES:$(BUILD)/man/%=$(DESTDIR)$(man1dir)/%)
	rm -rf $(DESTDIR)$(datadir)

# The Debian package (tools/stablekit/debian): dpkg-buildpackage in a copy
# of this checkout's tracked files (all but build/ and work/ without git)
# under $(BUILD)/deb, debian/ at its top; nothing is written in the
# checkout.  The .deb lands in $(BUILD)/deb.  Needs dpkg-dev and debhelper
# (make deps-test).
DEB_SRC := $(BUILD)/deb/stablekit

deb:
	rm -rf $(BUILD)/deb
	mkdir -p $(DEB_SRC)
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git ls-files -z | tar --null -T - -cf - | tar -xf - -C $(DEB_SRC); \
	else \
		tar --exclude=./build --exclude=./work -cf - . | tar -xf - -C $(DEB_SRC); \
	fi
	cp -R $(SK)/debian $(DEB_SRC)/debian
	cd $(DEB_SRC) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		dpkg-buildpackage -b -us -uc --jobs-try=auto
	@ls $(BUILD)/deb/stablekit_*.deb

check: layers unit-test fuzz-replay cli-test

# What make check runs, built alone: make -j2 check-build uses both cores
# for the compiles, where make check itself runs the tests in order.
check-build: all $(UNIT_BIN) $(REPLAY_BIN)

# The library's folders keep their promise: stages include only those
# below them, no include cycle, no function under another module's prefix.
layers:
	ci/check-layers

unit-test: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done

# Two test files at a time: spatch, QEMU under TCG and git are single
# threaded, so another test fills the second core.  The embedded workspace
# (the four pinned trees of ci/trees.conf; cold, it fetches about 490 MB
# and imports four trees, see README "Kernel trees") is made first, as
# several files share it (SK_WORK, default work/tests: the tests' own,
# apart from the main job's work/).
PROVE_FLAGS ?= -j2 --timer

#
# Under ASan+UBSan (SANITIZE=1) the files whose time is the kernel's own
# make, spatch over a whole tree, QEMU under TCG or a LAVA server are left
# out: the sanitizers watch stablekit, not those tools, and the stablekit
# code they drive (build, port's compile check, test, gate, boot verdict,
# LAVA job and log) runs sanitized in the small-tree tests (t5210, t5220,
# t6050, t7010, t7100) and the unit tests.  So are t0310 and t0320:
# dpkg-buildpackage builds the package without sanitizers, and t0300 runs
# the same installed flow sanitized.  The plain run has them all.
CLI_TESTS := $(notdir $(sort $(wildcard $(SK)/t/t[0-9]*.t)))
SAN_SKIP_TESTS := t4100-cocci-linux-6.12.t t6000-build.t t6100-build-distcc.t \
	t7000-boot.t t7020-boot-arm64.t t7200-gate-6.12.t t9000-lava.t t0310-deb.t \
	t0320-container.t
ifeq ($(SANITIZE),1)
CLI_TESTS := $(filter-out $(SAN_SKIP_TESTS),$(CLI_TESTS))
endif

cli-test: all
	SK_WORK=$${SK_WORK:-$(CURDIR)/work/tests} $(BUILD)/stablekit -C $(CURDIR) workspace init
	rm -rf $(BUILD)/test-logs
	cd $(SK)/t && SK_BUILD=$(CURDIR)/$(BUILD) SK_TOP=$(CURDIR) \
		prove $(PROVE_FLAGS) $(CLI_TESTS:%=./%) || \
		{ $(CURDIR)/ci/test-failures $(CURDIR)/$(BUILD)/test-logs; exit 1; }

bench: all
	SK_BUILD=$(CURDIR)/$(BUILD) SK_TOP=$(CURDIR) ci/bench

run: all
	SK_BUILD=$(CURDIR)/$(BUILD) SK_TOP=$(CURDIR) ci/main-job

# Fuzzing.  The library is built again by clang with coverage hooks
# (fuzzer-no-link) and ASan+UBSan into build/fuzz; each harness links it
# with libFuzzer.  New inputs go to build/fuzz/corpus/<name>/, crashes to
# build/fuzz/crash-<name>-*; the committed seeds (fuzz/corpus/<name>/) and
# reproducers (fuzz/regress/<name>/) are read, never written.  One process
# a harness, so the corpus is not re-listed every second (-reload=0).
FUZZ_CC ?= clang-14
FUZZ_TIME ?= 60
FUZZ_ARGS ?=
FUZZ_BUILD := build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BIN := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz-%)
REPLAY_BIN := $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay-%)

$(FUZZ_BUILD)/%.o: %.c $(wildcard $(SK)/lib/*/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -O1 -g $(BASE_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN) \
		-c -o $@ $<

$(FUZZ_BUILD)/libstablekit.a: $(FUZZ_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz-%: $(SK)/fuzz/fuzz-%.c $(FUZZ_BUILD)/libstablekit.a
	$(FUZZ_CC) -O1 -g $(BASE_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< \
		$(FUZZ_BUILD)/libstablekit.a $(BASE_LDLIBS)

fuzz-build: $(FUZZ_BIN)

# One target a harness, so that make -j2 fuzz runs two at a time (each
# libFuzzer process is single threaded); each writes build/fuzz/fuzz-<name>.log
# (tail -f it on a long run), and its last lines, or all of it when the
# harness failed, are printed when it ends.
FUZZ_RUN := $(FUZZ_NAMES:%=fuzz-run-%)
.PHONY: $(FUZZ_RUN)
fuzz: $(FUZZ_RUN)

$(FUZZ_RUN): fuzz-run-%: $(FUZZ_BUILD)/fuzz-%
	@mkdir -p $(FUZZ_BUILD)/corpus/$*
	@seeds=; for d in corpus regress; do \
		if [ -d $(SK)/fuzz/$$d/$* ]; then \
			seeds="$$seeds $(SK)/fuzz/$$d/$*"; fi; \
	done; \
	echo "== fuzz-$*: $(FUZZ_TIME) s"; \
	$(FUZZ_BUILD)/fuzz-$* -max_total_time=$(FUZZ_TIME) -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -reload=0 \
		-artifact_prefix=$(FUZZ_BUILD)/crash-$*- $(FUZZ_ARGS) \
		$(FUZZ_BUILD)/corpus/$* $$seeds >$(FUZZ_BUILD)/fuzz-$*.log 2>&1; \
	rc=$$?; tail -n 12 $(FUZZ_BUILD)/fuzz-$*.log; \
	if [ $$rc -ne 0 ]; then echo "fuzz-$*: exit $$rc, log $(FUZZ_BUILD)/fuzz-$*.log"; \
		cat $(FUZZ_BUILD)/fuzz-$*.log; exit $$rc; fi

# The replay driver is plain C: gcc builds it, and SANITIZE=1 runs it
# under ASan+UBSan like the unit tests.
$(BUILD)/fuzz/replay-%: $(SK)/fuzz/fuzz-%.c $(SK)/fuzz/replay.c \
		$(BUILD)/libstablekit.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SK_CFLAGS) -o $@ $(SK)/fuzz/replay.c $< \
		$(BUILD)/libstablekit.a $(SK_LDLIBS)

fuzz-replay: $(REPLAY_BIN)
	@set -e; for n in $(FUZZ_NAMES); do \
		$(BUILD)/fuzz/replay-$$n $(SK)/fuzz/corpus/$$n \
			$(SK)/fuzz/regress/$$n; \
	done

clean:
	rm -rf build
