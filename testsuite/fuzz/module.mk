# SPDX-License-Identifier: GPL-2.0-or-later
# libFuzzer targets (clang).  Every testsuite/fuzz/fuzz_NAME.c defining
# LLVMFuzzerTestOneInput() becomes $(BUILD)/fuzz/bin/fuzz_NAME, linked with
# one sanitizer-instrumented copy of libtreeshare built for all targets.
# Seeds: testsuite/fuzz/corpus/NAME/; inputs that once failed:
# testsuite/fuzz/regressions/NAME/; optional dictionary NAME.dict.
# A target needing more libraries sets FUZZ_LDLIBS_NAME in this file.
# See testsuite/fuzz/README.md.
#
#   make check-fuzz   replay all regressions, then each target briefly
#                     (FUZZ_CHECK_BUDGET seconds shared by all, 5..15 each)
#   make fuzz         each target for FUZZ_SECONDS (default 300)
FUZZ_SRCS := $(wildcard testsuite/fuzz/fuzz_*.c)
FUZZ_NAMES := $(patsubst testsuite/fuzz/fuzz_%.c,%,$(FUZZ_SRCS))
FUZZ_BINS := $(patsubst %,$(BUILD)/fuzz/bin/fuzz_%,$(FUZZ_NAMES))
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE $(WARN) $(MATH_CFLAGS) -Isrc \
	-g -O1 -fno-omit-frame-pointer $(FUZZ_SAN)
FUZZ_LIB_OBJS := $(patsubst src/%.c,$(BUILD)/fuzz/obj/src/%.o,$(LIB_SRCS))
FUZZ_LIB := $(BUILD)/fuzz/lib/libtreeshare-fuzz.a
FUZZ_SECONDS ?= 300
FUZZ_CHECK_BUDGET ?= 84

$(BUILD)/fuzz/obj/src/%.o: src/%.c $(wildcard src/*.h src/power/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/bin/fuzz_%: testsuite/fuzz/fuzz_%.c $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB) \
		$(FUZZ_LDLIBS_$*) -lm

CHECK_STAGES += fuzz
.PHONY: check-fuzz
check-fuzz: $(FUZZ_BINS)
	@mkdir -p $(BUILD)/check
	@bash testsuite/fuzz/run.sh check $(BUILD) $(FUZZ_CHECK_BUDGET) \
		$(FUZZ_NAMES)

fuzz: $(FUZZ_BINS)
	@mkdir -p $(BUILD)/check
	@bash testsuite/fuzz/run.sh long $(BUILD) $(FUZZ_SECONDS) $(FUZZ_NAMES)
