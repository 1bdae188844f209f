# SPDX-License-Identifier: GPL-2.0
# perfconf: a conformance suite for the Linux perf_event_open() ABI.
#
#   make        build everything into build/ (perfconf_pmu.ko too, where
#               this kernel's headers are: else build/module/why says why)
#   make run    install what is missing, build, run the suite on this kernel, compare
#   make test   the project's own tests (lib and runner unit tests), the suite
#               on this kernel gated on the suite's own faults only (the host's
#               baseline comparison is printed, not gating: machines of our kind
#               differ from week to week), then the suite on TEST_TARGETS under
#               qemu, gated on their baselines (make matrix)
#   make install INSTALL_PATH=DIR, make dist ARCH=x86_64|arm64
#               the suite as a tree that runs without the source (a static
#               tarball for dist; README.md, Install)
#   make check-dist  that tarball run in a root with no libc, compiler or source
#   make check-fresh the README's commands in a clean Debian 12 root (debootstrap)
#   make clean  remove build/
#
# Test binaries are found, not listed: tests/<area>/<behaviour>.c becomes
# build/tests/<area>/<behaviour>. Unit tests live in lib/tests/ and runners/tests/.

B       := build
CC      ?= cc
# CFLAGS/LDFLAGS are the user's (make CFLAGS=-O0 keeps the project's own);
# PC_CFLAGS/PC_LDFLAGS are what the build needs.
CFLAGS  ?= -O2 -g
PC_CFLAGS := -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -Ilib -I$(B)/include
# The harness macros leave _metadata/variant unused and compare mixed signs.
TEST_CFLAGS := -Wno-unused-parameter -Wno-sign-compare
LDLIBS  := -lcap -lz -lpthread
LDFLAGS ?=
PC_LDFLAGS := $(if $(filter 1,$(STATIC)),-static)

# lib/ in layers (lib/README.md): includes name their layer ("event/pmu.h").
LIB_SRC    := $(sort $(filter-out lib/tests/%,$(wildcard lib/*/*.c)))
LIB_OBJ    := $(LIB_SRC:%.c=$(B)/%.o)
LIB_A      := $(B)/lib/libperfconf.a
SUITE_SRC  := $(sort $(wildcard tests/*/*.c))
SUITE_BIN  := $(SUITE_SRC:%.c=$(B)/%)
UNIT_SRC   := $(sort $(wildcard lib/tests/*.c runners/tests/*.c))
UNIT_BIN   := $(UNIT_SRC:%.c=$(B)/%)
RUNNER_SRC := $(sort $(wildcard runners/*.c))
RUNNER_OBJ := $(RUNNER_SRC:%.c=$(B)/%.o)
RUNNER     := $(B)/perfconf
DEPS_STAMP := $(B)/.deps-ok
HEADERS    := $(wildcard lib/*.h lib/*/*.h runners/*.h)
# Fragments that field binaries share (tests/attr/config_word.h and the like).
TEST_HEADERS := $(wildcard tests/*/*.h)

# perfconf_pmu.ko (module/) for the kernel this machine runs, against
# MODULE_KDIR when it exists: $(B)/module/perfconf_pmu.ko, or
# $(B)/module/why (one line) when it cannot be built; never a failed
# build (scripts/build-module.sh). The stamp names the release and whether
# its headers are there, so a reboot or new headers rebuild it.
KERNEL_RELEASE := $(shell uname -r)
MODULE_KDIR ?= /lib/modules/$(KERNEL_RELEASE)/build
MODULE_SRC := $(wildcard module/Kbuild module/*.c module/*.h)
MODULE_STAMP := $(B)/module/.stamp-$(KERNEL_RELEASE)$(if $(wildcard $(MODULE_KDIR)/Makefile),,-noheaders)

.PHONY: all suite deps run test coverage matrix clean module
all: $(LIB_A) $(SUITE_BIN) $(UNIT_BIN) $(if $(RUNNER_SRC),$(RUNNER)) $(MODULE_STAMP)

module: $(MODULE_STAMP)
$(MODULE_STAMP): $(MODULE_SRC) scripts/build-module.sh
	@scripts/build-module.sh $(B)/module $(MODULE_KDIR)
	@rm -f $(B)/module/.stamp-* && touch $@

# The suite and its runner only (what the VM matrix packs).
suite: $(SUITE_BIN) $(if $(RUNNER_SRC),$(RUNNER))

deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/deps.sh scripts/apt-install.sh
	@mkdir -p $(B)
	@scripts/deps.sh $(B)
	@touch $@

$(B)/lib/%.o: lib/%.c $(HEADERS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(PC_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB_A): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/tests/%: tests/%.c $(LIB_A) $(HEADERS) $(TEST_HEADERS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(PC_CFLAGS) $(CFLAGS) $(TEST_CFLAGS) $(PC_LDFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

$(B)/lib/tests/%: lib/tests/%.c $(LIB_A) $(HEADERS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(PC_CFLAGS) $(CFLAGS) $(TEST_CFLAGS) $(PC_LDFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

$(B)/runners/tests/%: runners/tests/%.c $(LIB_A) $(HEADERS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(PC_CFLAGS) $(CFLAGS) $(TEST_CFLAGS) -Irunners $(PC_LDFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

# The runner's tests share helpers (runners/tests/fake.h) and read the
# runner's output with runners/tests/tapcheck.py of this tree.
$(filter $(B)/runners/tests/%,$(UNIT_BIN)): $(wildcard runners/tests/*.h)
$(filter $(B)/runners/tests/%,$(UNIT_BIN)): PC_CFLAGS += -DPERFCONF_SOURCE='"$(CURDIR)"'

$(B)/runners/%.o: runners/%.c $(HEADERS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(PC_CFLAGS) $(CFLAGS) -Irunners -c -o $@ $<

# The runner finds runners/vm/matrix.sh in the tree it was built from.
$(B)/runners/main.o: PC_CFLAGS += -DPERFCONF_SOURCE='"$(CURDIR)"'

$(RUNNER): $(RUNNER_OBJ) $(LIB_A)
	$(CC) $(PC_LDFLAGS) $(LDFLAGS) -o $@ $(RUNNER_OBJ) $(LIB_A) $(LDLIBS)

# The suite on this kernel, compared with its baseline (runners/README.md).
# Extra runner options: make run PERFCONF_ARGS="-t attr -v".
run: all
	@scripts/run-suite.sh $(B) $(PERFCONF_ARGS)

# The project's own tests; the suite on this kernel, where only the suite's
# own faults fail (ERROR, TIMEOUT, a crash, a leak, unparsable output, a
# binary that did not run) and the comparison with the host's baseline is
# shown; then one x86_64 and one arm64 kernel under qemu, each gated on its
# baseline (TEST_TARGETS= skips the qemu part); then the static x86_64
# tarball (make dist) run in a root that holds nothing else (make check-dist).
TEST_TARGETS ?= x86_64-6.1 arm64-6.1
test: all
	@scripts/check-lib.sh
	@scripts/run-unit.sh $(B) $(UNIT_BIN)
	@scripts/run-suite.sh $(B) --gate suite $(PERFCONF_ARGS)
	$(if $(strip $(TEST_TARGETS)),@$(RUNNER) matrix $(TEST_TARGETS))
	@$(MAKE) --no-print-directory check-dist ARCH=x86_64

# The suite on other Debian kernels under qemu (runners/vm/README.md):
#   make matrix TARGETS="arm64-6.1 x86_64-7.2"
matrix: $(RUNNER)
	@$(RUNNER) matrix $(TARGETS)

# The suite as a tree that runs without the source, a compiler or network
# (scripts/install.sh): the runner, the test binaries, expected/,
# timeouts.conf, run_perfconf.sh and VERSION. Linked as built here, i.e.
# dynamically: the target needs libc6, libcap2 and zlib1g.
#   make install INSTALL_PATH=/srv/perfconf
INSTALL_PATH ?= $(B)/install
install: suite
	@scripts/install.sh install $(B) $(INSTALL_PATH)

# The same tree, static and stripped, built as the VM matrix builds it
# (runners/vm/build-static.sh): $(B)/perfconf-<version>-<arch>.tar.gz.
#   make dist ARCH=x86_64|arm64      (default: this machine's)
ARCH ?= $(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x86_64)
dist: $(DEPS_STAMP)
	@scripts/install.sh dist $(ARCH) $(B)

# That tarball run in a root holding nothing else (no libc, compiler or
# source; scripts/check-dist.sh): make test does it for x86_64 with -t abi.
CHECK_DIST_ARGS ?= -t abi
check-dist: $(DEPS_STAMP)
	@t=$$(scripts/install.sh dist $(ARCH) $(B)) && scripts/check-dist.sh "$$t" $(CHECK_DIST_ARGS)

.PHONY: install dist check-dist

# runners/lava/perfconf.yaml as a real LAVA job: Debian's lava-dispatcher
# (lava-run) boots Debian's x86_64 kernel under qemu with the dist tarball,
# and what LAVA recorded is checked against the runner's results.txt
# (runners/lava/check.sh; runners/lava/README.md). Not part of make test:
#   make check-lava [LAVA_KERNEL=6.12] [LAVA_ARGS="-t abi"]
LAVA_KERNEL ?= 6.1
LAVA_ARGS ?=
check-lava: $(DEPS_STAMP)
	@runners/lava/check.sh -k $(LAVA_KERNEL) -a "$(LAVA_ARGS)" -o $(B)/lava

.PHONY: check-lava

# Bisecting proven end to end: Debian's linux-source-6.12 as a git history
# with a planted perf ABI regression, and `git bisect run
# scripts/bisect-kernel.sh` must name it, with the whole suite and with
# --cases-from, for each arch (scripts/check-bisect.sh; README, "Bisecting
# a regression"). Not part of make test (about 15 minutes an arch here):
#   make check-bisect [BISECT_ARCH="x86_64 arm64"]
BISECT_ARCH ?= x86_64 arm64
check-bisect: $(DEPS_STAMP) $(RUNNER)
	@scripts/check-bisect.sh $(addprefix --arch ,$(BISECT_ARCH))

.PHONY: check-bisect

# The README's commands on a fresh Debian 12 machine: a clean root made
# with debootstrap, a fresh clone of HEAD, `make run` and a matrix of one
# default and one opt-in target of each kind (scripts/check-fresh.sh). It
# needs no build here. Not part of make test:
#   make check-fresh [FRESH_TARGETS="x86_64-6.1 riscv64-6.12"]
FRESH_TARGETS ?=
check-fresh:
	@scripts/check-fresh.sh $(FRESH_TARGETS)

.PHONY: check-fresh

# perfconf_pmu.ko built for each guest kernel (runners/vm/module.sh) and
# loaded, checked and unloaded in a small guest (runners/vm/check-module.sh;
# runners/vm/README.md, "perfconf_pmu.ko"). Not part of make test:
#   make check-module [MODULE_TARGETS="x86_64-6.1 arm64-7.2"]
MODULE_TARGETS ?=
check-module:
	@runners/vm/check-module.sh $(MODULE_TARGETS)

.PHONY: check-module

# The attr fields that have no test binary in tests/attr (the list must be empty).
coverage: $(RUNNER)
	@$(RUNNER) coverage tests

clean:
	rm -rf $(B)
