# Unit tests (Check) for libtreeshare.  Every testsuite/unit/test_NAME.c
# defines "Suite *suite_NAME(void)"; the runner's suite list is generated
# from the file names, so adding a test file needs no other edit.
UNIT_SRCS := $(wildcard testsuite/unit/test_*.c)
UNIT_NAMES := $(patsubst testsuite/unit/test_%.c,%,$(UNIT_SRCS))
UNIT_OBJS := $(patsubst testsuite/unit/%.c,$(BUILD)/obj/unit/%.o,$(UNIT_SRCS))
UNIT_BIN := $(BUILD)/bin/unit_tests
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

all: $(UNIT_BIN)

$(BUILD)/obj/unit/suites.h: $(UNIT_SRCS) testsuite/unit/module.mk
	@mkdir -p $(dir $@)
	@printf '%s\n' $(foreach s,$(UNIT_NAMES),"TS_SUITE($(s))") > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# Check's headers, before any unit object: one line naming the package.
UNIT_CHECK_H := $(BUILD)/obj/unit/check-h.ok
$(UNIT_CHECK_H):
	@mkdir -p $(dir $@)
	@echo '#include <check.h>' | $(CC) $(CHECK_CFLAGS) -fsyntax-only -x c - 2>/dev/null || \
		{ echo "treeshare: the unit tests need Check's headers (check.h, not found): apt-get install check (make deps installs it)" >&2; exit 1; }
	@touch $@
$(UNIT_OBJS) $(BUILD)/obj/unit/main.o: | $(UNIT_CHECK_H)

$(BUILD)/obj/unit/%.o: testsuite/unit/%.c $(wildcard src/*.h src/power/*.h testsuite/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(CHECK_CFLAGS) -Itestsuite/unit -c -o $@ $<

$(BUILD)/obj/unit/main.o: testsuite/unit/main.c $(BUILD)/obj/unit/suites.h
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(CHECK_CFLAGS) -I$(BUILD)/obj/unit -c -o $@ $<

$(UNIT_BIN): $(BUILD)/obj/unit/main.o $(UNIT_OBJS) $(LIBTS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(CHECK_LIBS) -lm

CHECK_STAGES += unit
.PHONY: check-unit
# Check's own limit per test is 4 s; CI runs this beside Slurm's builds
# (at nice 10 in the Debian 13 root), where two tests took longer: 60 s
# still catches a hang (a CK_DEFAULT_TIMEOUT given wins).
check-unit: $(UNIT_BIN)
	@mkdir -p $(BUILD)/check
	CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-60} $(UNIT_BIN) $(BUILD)/check/unit.tap

# The same unit tests in one process under valgrind: no leak, no invalid
# access (issue 2: "valgrind --leak-check=full on the unit test binary").
CHECK_STAGES += unit-valgrind
.PHONY: check-unit-valgrind
check-unit-valgrind: $(UNIT_BIN)
	@mkdir -p $(BUILD)/check
	@bash testsuite/unit/valgrind.sh $(UNIT_BIN) $(BUILD)/check/unit-valgrind.tap
