/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_formula - the formula compiler and evaluator on arbitrary bytes.
 *
 * Input: formula text up to the first NUL byte; the bytes after it, 8 at
 * a time, are the raw bits of the variable values (so NaN, inf, -0 and
 * subnormals all occur).  Checked on every input, abort() otherwise:
 *   - a refused formula has an error code, a message and a column within
 *     1 .. length + 1;
 *   - evaluation returns a finite value and calls no allocator (ASan's
 *     malloc hooks count);
 *   - the canonical text compiles again, prints the same, and evaluates
 *     to the same bits with the same faults.
 */
#include <math.h>
#include <sanitizer/allocator_interface.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formula.h"

enum { N_VARS = 6 };
static const char *const names[N_VARS] = {
	"fairshare_tree_usage", "fairshare_perc", "age", "a", "b", "x",
};
static struct ts_formula_names name_list = { names, N_VARS };
static const struct ts_formula_vars vars = { ts_formula_by_name, &name_list };

static volatile int watching;
static volatile unsigned long allocations;

static void on_malloc(const volatile void *p, size_t size)
{
	(void)p;
	(void)size;
	if (watching)
		allocations++;
}

static void on_free(const volatile void *p)
{
	(void)p;
	if (watching)
		allocations++;
}

static void quiet_log(void *arg, enum ts_log_level level, const char *msg)
{
	(void)arg;
	(void)level;
	if (!msg[0])
		abort();
}

static double eval_watched(const struct ts_formula *f, const double *v,
			   unsigned *faults)
{
	double r;

	allocations = 0;
	watching = 1;
	r = ts_formula_eval(f, v, faults);
	watching = 0;
	if (allocations)
		abort(); /* evaluation must not allocate */
	if (!isfinite(r))
		abort();
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int hooked;
	struct ts_logger lg = { quiet_log, NULL };
	struct ts_error err = TS_ERROR_INIT;
	struct ts_formula *f, *g;
	double v[N_VARS] = { 0 };
	size_t len = strnlen((const char *)data, size), i;
	char *text, *canon, *again;
	unsigned f1, f2;
	double r1, r2;
	int n;

	if (!hooked) {
		__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
		hooked = 1;
	}
	text = malloc(len + 1);
	if (!text)
		return 0;
	memcpy(text, data, len);
	text[len] = '\0';
	for (i = 0; i < N_VARS && len + 1 + 8 * (i + 1) <= size; i++)
		memcpy(&v[i], data + len + 1 + 8 * i, 8);

	if (ts_formula_compile(text, &vars, &lg, &f, &err) != TS_OK) {
		if (f || err.code == TS_OK || !err.msg[0])
			abort();
		if (err.code != TS_ENOMEM &&
		    (err.index < 1 || (size_t)err.index > len + 1))
			abort();
		free(text);
		return 0;
	}
	r1 = eval_watched(f, v, &f1);

	n = ts_formula_print(f, NULL, 0);
	canon = malloc((size_t)n + 1);
	again = malloc((size_t)n + 1);
	if (!canon || !again)
		abort();
	if (ts_formula_print(f, canon, (size_t)n + 1) != n ||
	    strlen(canon) != (size_t)n)
		abort();
	if (n <= TS_FORMULA_MAX_LEN) {
		if (ts_formula_compile(canon, &vars, &lg, &g, &err) != TS_OK)
			abort(); /* canonical text must compile */
		if (ts_formula_print(g, again, (size_t)n + 1) != n ||
		    strcmp(canon, again))
			abort();
		if (ts_formula_stack_depth(f) != ts_formula_stack_depth(g) ||
		    ts_formula_var_span(f) != ts_formula_var_span(g))
			abort();
		r2 = eval_watched(g, v, &f2);
		if (memcmp(&r1, &r2, sizeof(r1)) || f1 != f2)
			abort();
		ts_formula_free(g);
	}
	free(canon);
	free(again);
	ts_formula_free(f);
	free(text);
	return 0;
}
