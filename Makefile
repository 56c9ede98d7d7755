# treeshare - top-level Makefile (non-recursive; each directory adds its
# rules in a module.mk fragment included below).
#
#   make deps     install packages, fetch + configure Slurm's source (root)
#   make          libtreeshare, the plugin, sshare-ext, node_power
#   make check    every test stage; last line "N passed, N failed"
#   make demo     a live single-machine Slurm cluster running treeshare
#   make bench    treeshare vs Debian's priority/multifactor, side by side
#   make fuzz     the fuzz targets, longer than in make check
#   make install  PREFIX=/usr/local PLUGINDIR=/usr/local/lib/slurm
#   make clean

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif
FUZZ_CC ?= clang
BUILD ?= build
PREFIX ?= /usr/local
PLUGINDIR ?= $(PREFIX)/lib/slurm
MANDIR ?= $(PREFIX)/share/man
SLURM_SRC ?= $(BUILD)/slurm-src
DEB_PLUGINDIR := /usr/lib/x86_64-linux-gnu/slurm-wlm
# The configured tree's release, "22.05" or "24.11" (empty before make
# deps); plugins/slurm_compat.h refuses a release it does not know.
SLURM_SERIES := $(shell sed -n 's/^\#define SLURM_VERSION_STRING "\([0-9]*\.[0-9]*\)\..*"/\1/p' \
	$(SLURM_SRC)/config.h 2>/dev/null)
comma := ,

WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
BASE_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE $(WARN) -fPIC \
	-Isrc
export CC BUILD SLURM_SRC

.PHONY: all deps check bench fuzz demo install clean check-stages
all:

deps:
	@mkdir -p $(BUILD)
	@bash contrib/install-deps.sh $(abspath $(BUILD))

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
-include docs/module.mk
-include testsuite/structure/module.mk

# CHECK_STAGES is filled by the fragments in the order stages run: fast,
# self-contained ones first.  CHECK_STAGES_LATE (stages that need the real
# cluster lab) run after all of them.
check: deps
	@$(MAKE) --no-print-directory all
	@bash testsuite/check.sh $(CHECK_STAGES) $(CHECK_STAGES_LATE)

# install: the plugin (PLUGINDIR), node_power and its links (sbin),
# sshare-ext (bin) and every man page.  DESTDIR is honoured.
BINDIR ?= $(PREFIX)/bin
install: all install-plugin install-node_power
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	install -m 0755 $(BUILD)/bin/sshare-ext $(DESTDIR)$(BINDIR)/sshare-ext
	install -m 0644 docs/sshare-ext.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 docs/priority_treeshare.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 docs/fairshare-algorithms.7 $(DESTDIR)$(MANDIR)/man7/

clean:
	rm -rf $(BUILD)/obj $(BUILD)/lib $(BUILD)/bin $(BUILD)/check \
		$(BUILD)/fuzz $(BUILD)/plugins
