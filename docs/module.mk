# Man pages: they render cleanly and document every key the code accepts.
CHECK_STAGES += docs
.PHONY: check-docs
check-docs:
	@mkdir -p $(BUILD)/check
	@python3 testsuite/docs/check_docs.py $(BUILD)/check/docs.tap
