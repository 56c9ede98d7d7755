# treeshare - top-level Makefile (non-recursive; each directory adds its
# rules in a module.mk fragment included below).
#
#   make deps       install packages, fetch + configure Slurm's source (root)
#   make            libtreeshare, the plugin, sshare-ext, node_power; on a
#                   fresh clone it runs make deps first (as root)
#   make check      every test stage; last line "N passed, N failed"
#   make demo       a live single-machine Slurm cluster running treeshare
#   make bench      treeshare vs Debian's priority/multifactor, side by side
#   make fuzz       the fuzz targets, longer than in make check
#   make check-release DIST=trixie
#                   make check inside a fresh Debian DIST root (mmdebstrap)
#   make deps SLURM_TARBALL=../shared/slurm-src/slurm-25.11.7.tar.xz
#                   build that SchedMD release into build/upstream; every
#                   make with the same SLURM_TARBALL builds and tests
#                   against it (make check: its release-dependent stages
#                   run on its own daemons)
#   make check-upstream
#                   those stages for every release in SLURM_TARBALLS
#   make install    PREFIX=/usr/local (SLURM_PREFIX, if any), the plugin
#                   into Slurm's PluginDir;
#   make uninstall  DESTDIR honoured (see "install" below)
#   make deb        Debian packages treeshare and treeshare-as-multifactor
#                   for the installed Slurm, in build/deb (debian/)
#   make clean
#   make help       these targets, and every stage of make check
#   make check-STAGE   one stage (make help lists them); make check-unit
#                   and make check-structure need neither root nor
#                   Slurm's source (only Check's headers, python3)

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif
FUZZ_CC ?= clang
BUILD ?= build
# SLURM_TARBALL: a release tarball of SchedMD's (slurm-X.Y.Z.tar.xz);
# make deps builds it into $(BUILD)/upstream (contrib/slurm-build.sh) and
# every make with the same SLURM_TARBALL builds and tests against it:
# SLURM_SRC is its configured tree, SLURM_PREFIX its install prefix.
# SLURM_PREFIX alone: the install prefix of a Slurm built from source
# whose daemons and clients the tests run (empty: Debian's packages).
SLURM_TARBALL ?=
ifneq ($(SLURM_TARBALL),)
SLURM_TARBALL_VERSION := $(patsubst slurm-%.tar.xz,%,$(patsubst \
	%.tar.bz2,%.tar.xz,$(patsubst %.tar.gz,%.tar.xz,$(notdir $(SLURM_TARBALL)))))
SLURM_SRC ?= $(BUILD)/upstream/slurm-$(SLURM_TARBALL_VERSION)
endif
SLURM_SRC ?= $(BUILD)/slurm-src
# A configured tree other than make deps' Debian one ($(BUILD)/slurm-src,
# whose install is Debian's packages): SLURM_PREFIX defaults to the prefix
# the tree was configured for (configure --prefix: its Makefile's
# "prefix =", else its config.h's SLURM_PREFIX), so "make SLURM_SRC=tree" alone builds and links
# everything for that release as installed (SLURM_TARBALL's tree: its
# build/upstream/inst-X, also before make deps configured it).  An empty
# SLURM_PREFIX from the environment (make exports it) counts as none;
# SLURM_PREFIX= on the command line keeps the default paths' libslurm.
SLURM_SRC_PREFIX := $(or $(shell sed -n 's/^prefix = //p' $(SLURM_SRC)/Makefile \
	2>/dev/null),$(shell sed -n 's/^\#define SLURM_PREFIX "\(.*\)"/\1/p' \
	$(SLURM_SRC)/config.h 2>/dev/null))
# make deps' tree for Debian's installed Slurm is known by its stamp (the
# installed slurmctld's Debian version), wherever it is: make deb's
# debian/rules names it by its absolute path from an unpacked copy whose
# $(BUILD)/slurm-src is another path.
DEB_SLURM_VERSION := $(shell dpkg-query -W -f='$${Version}' slurmctld 2>/dev/null)
SLURM_SRC_IS_DEBIAN := $(if $(DEB_SLURM_VERSION),$(filter $(DEB_SLURM_VERSION),$(shell \
	cat $(SLURM_SRC)/.treeshare-configured 2>/dev/null)))
ifeq ($(SLURM_PREFIX),)
ifneq ($(abspath $(SLURM_SRC)),$(abspath $(BUILD)/slurm-src))
ifeq ($(SLURM_SRC_IS_DEBIAN),)
SLURM_PREFIX := $(or $(SLURM_SRC_PREFIX),$(if $(SLURM_TARBALL),$(abspath \
	$(BUILD)/upstream/inst-$(SLURM_TARBALL_VERSION))))
endif
endif
endif
# install's PREFIX: that Slurm's prefix (sshare-ext beside sshare), else
# /usr/local.
PREFIX ?= $(or $(SLURM_PREFIX),/usr/local)
# The PluginDir of the Slurm we build against (its configured source is
# Debian's installed version): where Debian's slurm-wlm-basic-plugins put
# priority_multifactor.so, on Debian /usr/lib/<multiarch>/slurm-wlm.
# Without dpkg (a Slurm built from source): pass PLUGINDIR=.
SLURM_PLUGINDIR := $(patsubst %/priority_multifactor.so,%,$(filter \
	%/priority_multifactor.so,$(shell dpkg-query -L \
	slurm-wlm-basic-plugins 2>/dev/null)))
DEB_PLUGINDIR := $(or $(SLURM_PLUGINDIR),/usr/lib/x86_64-linux-gnu/slurm-wlm)
# SLURM_PREFIX: the install prefix of a Slurm built from source (the
# SLURM_SRC tree, installed); empty: Debian's packages.  REF_PLUGINDIR
# is that Slurm's PluginDir: its libslurmfull.so and its own
# priority_multifactor.so, the parity reference of ts-harness.
SLURM_PREFIX ?=
REF_PLUGINDIR := $(if $(SLURM_PREFIX),$(SLURM_PREFIX)/lib/slurm,$(DEB_PLUGINDIR))
# Clients (sshare-ext, node_power) link that Slurm's own libslurm.
SLURM_LIB_LDFLAGS = $(if $(SLURM_PREFIX),-L$(SLURM_PREFIX)/lib \
	-Wl$(comma)-rpath$(comma)$(SLURM_PREFIX)/lib)
PLUGINDIR ?= $(if $(SLURM_PREFIX),$(REF_PLUGINDIR),$(or $(SLURM_PLUGINDIR),$(PREFIX)/lib/slurm))
MANDIR ?= $(PREFIX)/share/man
# The configured tree's release, "22.05" or "24.11" (empty before make
# deps); plugins/slurm_compat.h refuses a release it does not know.
SLURM_SERIES := $(shell sed -n 's/^\#define SLURM_VERSION_STRING "\([0-9]*\.[0-9]*\)\..*"/\1/p' \
	$(SLURM_SRC)/config.h 2>/dev/null)
comma := ,
# Slurm's public slurm.h for sshare-ext and node_power: Debian's
# libslurm-dev, or SLURM_PREFIX's (the libslurm they link, below).
SLURM_API_CFLAGS = $(if $(SLURM_PREFIX),-I$(SLURM_PREFIX)/include)

WARN := -Wall -Wextra -Werror
# pow() is the C library's, as in Slurm's own build (gcc): clang turns
# pow(2.0, x) into exp2(x), which in glibc 2.36 differs from pow() in the
# last bit for 111 of 100000 x in [-1e6, 0] (a fair-share factor one ulp
# off multifactor's; a formula's pow() no longer the library's value).
MATH_CFLAGS := -fno-builtin-pow
CFLAGS ?= -O2 -g
# Link-time optimisation of libtreeshare and the plugin (gcc): the
# plugin's per-job path then inlines src/'s pure functions across files
# (issue 21: 3% fewer instructions in the set pass, 6% in a cycle), and
# src/ keeps no Slurm header.  LTO= turns it off; with another compiler
# (clang) it is off.  Every program linking libtreeshare.a is then linked
# by gcc's LTO plugin, and the archive is made with gcc-ar.
CC_IS_GCC := $(shell $(CC) -v 2>&1 | grep -q '^gcc version' && echo 1)
LTO ?= $(if $(CC_IS_GCC),-flto=auto)
LTO_AR := $(if $(LTO),gcc-ar,ar)
BASE_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE $(WARN) -fPIC \
	$(MATH_CFLAGS) -Isrc
export CC BUILD SLURM_SRC SLURM_PREFIX REF_PLUGINDIR SLURM_TARBALL

.PHONY: all deps deps-deb deps-upstream check bench fuzz demo install uninstall deb \
	programs clean check-stages
all:

deps:
	@mkdir -p $(BUILD)
	@bash contrib/install-deps.sh $(abspath $(BUILD))

# Plain "make" on a fresh clone: nothing builds before make deps has
# installed the packages and configured Slurm's source, and the
# pkg-config look-ups of the fragments need those packages when they are
# read.  So, while $(SLURM_SRC) is not configured, $(BUILD)/deps.mk is
# included: GNU make remakes it first (running make deps, as root), then
# reads every makefile again.  Not root: one line saying what to run.
# A SLURM_SRC elsewhere than $(BUILD)/slurm-src (a site's own configured
# tree, an upstream release) is never configured by make deps:
# contrib/slurm-src-check.sh accepts or refuses it as it is.
DEPS_STAMP := $(SLURM_SRC)/.treeshare-configured
DEPS_MK := $(BUILD)/deps$(SLURM_TARBALL_VERSION:%=-%).mk
# check-unit and check-structure test only libtreeshare (pure C, no
# Slurm header; Check) and the sources (python3): a contributor runs them
# on a fresh clone, without root and without Slurm's source.
# check-release and check-upstream bring their own Slurm (a Debian root,
# SchedMD's releases): not this machine's, which .ci/run's host lane
# fetches and configures beside them (two make deps on one build/ race).
NO_DEPS_GOALS := deps deps-deb deps-upstream upstream-slurm clean help check-upstream \
	check-release check-unit check-structure
# SLURM_TARBALL's tree (build/upstream/slurm-X.Y.Z) is made by make deps too.
ifneq ($(filter $(abspath $(SLURM_SRC)),$(abspath $(BUILD)/slurm-src) \
	$(if $(SLURM_TARBALL),$(abspath $(BUILD)/upstream/slurm-$(SLURM_TARBALL_VERSION)))),)
ifeq ($(wildcard $(DEPS_STAMP)),)
ifneq ($(filter-out $(NO_DEPS_GOALS) print-%,$(or $(MAKECMDGOALS),all)),)
ifneq ($(shell id -u),0)
$(error $(SLURM_SRC) is not configured yet: run "make deps" as root (it installs Debian's packages and configures Slurm's source), then make again)
endif
include $(DEPS_MK)
endif
endif
endif
$(DEPS_MK):
	@mkdir -p $(BUILD)
	@bash contrib/install-deps.sh $(abspath $(BUILD))
	@echo '# written by make once make deps had run' >$@

# make deb's tools: debhelper and lintian to build and check the
# packages, mmdebstrap for the root that stage "package" installs them in.
# make deps, plus the packages that building SchedMD's releases needs
# (make upstream-slurm, .ci/run): no apt-get while those builds run.
deps-upstream:
	@mkdir -p $(BUILD)
	@TS_DEPS_UPSTREAM=1 bash contrib/install-deps.sh $(abspath $(BUILD))

deps-deb:
	@mkdir -p $(BUILD)
	@TS_DEPS_EXTRA="debhelper lintian mmdebstrap" \
		bash contrib/install-deps.sh $(abspath $(BUILD))

include src/module.mk
-include plugins/priority_treeshare/module.mk
-include plugins/node_power/module.mk
-include sshare-ext/module.mk
include testsuite/unit/module.mk
-include testsuite/fuzz/module.mk
-include testsuite/sshare-ext/module.mk
-include testsuite/harness/module.mk
-include testsuite/crash/module.mk
-include testsuite/power/module.mk
-include testsuite/cluster/module.mk
-include testsuite/bench/module.mk
-include testsuite/release/module.mk
-include docs/module.mk
-include testsuite/structure/module.mk
-include testsuite/package/module.mk

# Every object built against Slurm's internal headers needs a configured
# tree of a supported Slurm release, never a snapshot or pre-release
# (contrib/slurm-src-check.sh, docs/treeshare-build.7).  The check runs
# on every make that builds one; the stamp changes only when the tree
# (path or version) does, so a new SLURM_SRC rebuilds what uses it.
SLURM_SRC_STAMP := $(BUILD)/obj/slurm-src.stamp
.PHONY: FORCE
FORCE:
# With SLURM_PREFIX, the same check refuses a prefix where that very
# release is not installed (the clients link its libslurm), also before
# anything is compiled.
$(SLURM_SRC_STAMP): FORCE
	@CFLAGS="$(CFLAGS)" bash contrib/slurm-src-check.sh $(SLURM_SRC) $@ $(SLURM_PREFIX)
$(SLURM_SRC)/config.h:
	@CFLAGS="$(CFLAGS)" bash contrib/slurm-src-check.sh $(SLURM_SRC)
# Every object of the clients: they see SLURM_PREFIX's slurm.h.
$(PT_OBJS) $(HARNESS_OBJS) $(SSHARE_EXT_OBJS) $(PT_MF_OBJ) \
	$(BENCH_TOUCH_SO) $(NP_OBJS) \
	$(SSHARE_EXT_BIN) $(NP_BIN): $(SLURM_SRC_STAMP)

# CHECK_STAGES is filled by the fragments in the order stages run: fast,
# self-contained ones first.  CHECK_STAGES_LATE are the stages that need
# the real cluster lab.  CHECK_STAGES_CI run last, only with
# WITH_CI_STAGES=1 (.ci/run sets it): they build Debian packages and a
# Debian root from the archive.
# With SLURM_TARBALL (a Slurm built from SchedMD's source), only the
# stages that depend on the release run (UPSTREAM_STAGES,
# testsuite/release/module.mk); the others test nothing new there.
# The lab stages (CHECK_STAGES_LATE, or UPSTREAM_STAGES' lab stages) run
# beside each other and beside the stages after them (CHECK_BESIDE,
# testsuite/check.sh), so they start first: they mostly wait for decay
# cycles, and the CPU-bound stages fill that time (after them, they were
# make check's longest path).  CHECK_BESIDE= runs every stage in turn,
# the lab stages after the others.
CHECK_BESIDE ?= $(CHECK_STAGES_LATE)
CHECK_ORDER = $(if $(strip $(CHECK_BESIDE)),$(CHECK_STAGES_LATE) $(CHECK_STAGES),\
	$(CHECK_STAGES) $(CHECK_STAGES_LATE))
check: deps
	@$(MAKE) --no-print-directory all
	@CHECK_SKIP="$(CHECK_SKIP)" CHECK_BESIDE="$(CHECK_BESIDE)" \
		bash testsuite/check.sh $(if $(SLURM_TARBALL),\
		$(UPSTREAM_STAGES),$(CHECK_ORDER) \
		$(if $(WITH_CI_STAGES),$(CHECK_STAGES_CI)))

# check-lab-prereqs: what the lab stages' own makes would build (LAB_PREREQS,
# from the fragments), built once before they start beside each other.
.PHONY: check-lab-prereqs
check-lab-prereqs: $(LAB_PREREQS)

# help: this file's opening comment, then the stages of make check as the
# fragments list them (CHECK_STAGES*, UPSTREAM_STAGES), the other check-*
# targets they define, and the Check suites (testsuite/unit/test_*.c).
CHECK_TARGETS := $(sort $(patsubst %:,%,$(shell grep -ho '^check-[a-z0-9-]*:' \
	Makefile $(wildcard */module.mk */*/module.mk))))
help:
	@sed -n '/^#   make deps/,/^[^#]/s/^# \{0,1\}//p' Makefile
	@echo
	@echo 'make check runs, in this order (make check-STAGE runs one stage;'
	@echo 'make check CHECK_SKIP="STAGE ..." skips some):'
	@echo '$(CHECK_STAGES)' | fold -s -w 72 | sed 's/^/    /'
	@echo '  and on the cluster lab (real daemons on loopback), started first,'
	@echo '  in the background beside them (CHECK_BESIDE= runs them after, in turn):'
	@echo '$(CHECK_STAGES_LATE)' | fold -s -w 72 | sed 's/^/    /'
	@echo '  then, with WITH_CI_STAGES=1 (.ci/run): $(CHECK_STAGES_CI)'
	@echo '  With SLURM_TARBALL= (make check-upstream: for each release) only:'
	@echo '$(UPSTREAM_STAGES)' | fold -s -w 72 | sed 's/^/    /'
	@echo 'Other check targets: $(filter-out $(addprefix check-,$(CHECK_STAGES) \
		$(CHECK_STAGES_LATE) $(CHECK_STAGES_CI)),$(CHECK_TARGETS))'
	@echo
	@echo 'One Check suite: make check-unit CK_RUN_SUITE=NAME, or'
	@echo '  CK_RUN_SUITE=NAME CK_FORK=no $(UNIT_BIN)   (after make $(UNIT_BIN));'
	@echo '  suites:'
	@echo '$(UNIT_NAMES)' | fold -s -w 72 | sed 's/^/    /'

# programs: what install and the packages take (no test binary).
programs: $(LIBTS) $(PT_SO) $(PT_MF_SO) $(SSHARE_EXT_BIN) $(TS_REPLAY_BIN) \
	$(NP_BIN)

# install: the plugin into PLUGINDIR (Slurm's own PluginDir, above: the
# plugin must be where slurmctld and sshare look, whatever PREFIX is),
# sshare-ext and ts-replay into BINDIR, node_power and its links into SBINDIR (the
# lead's and node_power's fragments), the man pages, the example
# configurations and README under DOCDIR.  Everything under DESTDIR;
# nothing else is written.  uninstall removes exactly these files.
# treeshare-as-multifactor's priority_multifactor.so is not installed
# here: only its package may replace Debian's file, by a dpkg diversion.
BINDIR ?= $(PREFIX)/bin
DOCDIR ?= $(PREFIX)/share/doc/treeshare
MAN_PAGES := man1/sshare-ext.1 man1/ts-replay.1 man5/priority_treeshare.5 \
	man7/fairshare-algorithms.7 man8/node_power.8
EXAMPLES := contrib/node_power.json.example \
	contrib/slurm.conf.treeshare.example \
	contrib/systemd/node_power-cycle.service \
	contrib/systemd/node_power-cycle.timer
install: programs install-plugin install-node_power
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(DOCDIR)/examples
	install -m 0755 $(SSHARE_EXT_BIN) $(DESTDIR)$(BINDIR)/sshare-ext
	install -m 0755 $(TS_REPLAY_BIN) $(DESTDIR)$(BINDIR)/ts-replay
	install -m 0644 docs/sshare-ext.1 docs/ts-replay.1 \
		$(DESTDIR)$(MANDIR)/man1/
	install -m 0644 docs/priority_treeshare.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 docs/fairshare-algorithms.7 $(DESTDIR)$(MANDIR)/man7/
	for l in $(NP_LINKS); do \
		ln -sf node_power.8 $(DESTDIR)$(MANDIR)/man8/$$l.8; done
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/
	install -m 0644 $(filter-out %.service,$(EXAMPLES)) \
		$(DESTDIR)$(DOCDIR)/examples/
	sed 's,/usr/local/sbin/,$(SBINDIR)/,' \
		contrib/systemd/node_power-cycle.service \
		>$(DESTDIR)$(DOCDIR)/examples/node_power-cycle.service
	chmod 0644 $(DESTDIR)$(DOCDIR)/examples/node_power-cycle.service

uninstall:
	rm -f $(DESTDIR)$(PLUGINDIR)/priority_treeshare.so \
		$(DESTDIR)$(BINDIR)/sshare-ext $(DESTDIR)$(BINDIR)/ts-replay \
		$(DESTDIR)$(SBINDIR)/node_power \
		$(addprefix $(DESTDIR)$(SBINDIR)/,$(NP_LINKS)) \
		$(addprefix $(DESTDIR)$(MANDIR)/,$(MAN_PAGES)) \
		$(patsubst %,$(DESTDIR)$(MANDIR)/man8/%.8,$(NP_LINKS)) \
		$(DESTDIR)$(DOCDIR)/README.md \
		$(addprefix $(DESTDIR)$(DOCDIR)/examples/,$(notdir $(EXAMPLES)))
	-rmdir $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) 2>/dev/null

# deb: both packages for the Slurm installed here (contrib/build-deb.sh).
deb: deps-deb
	@bash contrib/build-deb.sh $(abspath $(BUILD))

# print-VAR: the value of make variable VAR (tests read PLUGINDIR).
print-%:
	@echo '$($*)'

clean:
	rm -rf $(BUILD)/obj $(BUILD)/lib $(BUILD)/bin $(BUILD)/check \
		$(BUILD)/fuzz $(BUILD)/plugins $(BUILD)/deb
