# SPDX-License-Identifier: GPL-2.0-or-later
# Code structure (issue 15): one-way calls in the fair-share core, log
# messages whole on one line, NO_VAL spelled once, statics with unique
# names and a comment when long, no circle of calls among plugins/ files,
# release tests only in slurm_compat.h; each check also run on a copy of the
# tree with a violation put in, where it must fail.  Python only, no
# build and no dependency beyond make deps; about 3 s.
CHECK_STAGES += structure
.PHONY: check-structure
check-structure:
	@mkdir -p $(BUILD)/check
	@python3 testsuite/structure/check_structure.py $(BUILD)/check/structure.tap
