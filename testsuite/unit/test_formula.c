/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The priority formula (src/formula.c): grammar, precedence, every
 * compile error with its column, faults, no NaN/inf, no allocation during
 * evaluation, canonical printing, and seed 000's PBS formula.
 */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formula.h"
#include "under_valgrind.h"

/*
 * Allocation watch.  Defining malloc() and friends in the program
 * replaces glibc's for the whole unit_tests binary (glibc documents this
 * as "Replacing malloc"); each forwards to glibc's own allocator, so other
 * suites and valgrind see no difference.  While alloc_watch is set on a
 * thread, every call there is counted and fails, so an allocation inside
 * ts_formula_eval() would show as a count and as a wrong value.
 */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

static _Thread_local volatile int alloc_watch;
static _Thread_local volatile unsigned long alloc_calls;

void *malloc(size_t size)
{
	if (alloc_watch) {
		alloc_calls++;
		return NULL;
	}
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	if (alloc_watch) {
		alloc_calls++;
		return NULL;
	}
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	if (alloc_watch) {
		alloc_calls++;
		return NULL;
	}
	return __libc_realloc(p, size);
}

void free(void *p)
{
	if (alloc_watch && p)
		alloc_calls++;
	__libc_free(p);
}

/*
 * valgrind replaces malloc() in the program too, so under it the watch
 * sees nothing: the unit stage proves "no allocation", the valgrind stage
 * memory safety.  Random properties run fewer rounds there.
 */
static int rounds(int n)
{
	return under_valgrind() ? n / 10 : n;
}

/* Variables every test can use; value index = position. */
enum { V_TU, V_PERC, V_A, V_B, V_X, V_ZERO, N_VARS };
static const char *const var_names[N_VARS] = {
	"fairshare_tree_usage", "fairshare_perc", "a", "b", "x", "zero",
};
static struct ts_formula_names names_list = { var_names, N_VARS };
static const struct ts_formula_vars vars = { ts_formula_by_name, &names_list };

/* A logger that counts, keeps the last line, and never allocates. */
struct log_count {
	atomic_int calls;
	char last[512];
};

static void count_log(void *arg, enum ts_log_level level, const char *msg)
{
	struct log_count *lc = arg;

	(void)level;
	atomic_fetch_add(&lc->calls, 1);
	snprintf(lc->last, sizeof(lc->last), "%s", msg);
}

static struct ts_formula *compile_ok(const char *text,
				     const struct ts_logger *lg)
{
	struct ts_formula *f = NULL;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_msg(ts_formula_compile(text, &vars, lg, &f, &err) == TS_OK,
		      "'%s' does not compile: %s", text, err.msg);
	return f;
}

static double eval_text(const char *text, const double *v)
{
	struct ts_formula *f = compile_ok(text, NULL);
	double r = ts_formula_eval(f, v, NULL);

	ts_formula_free(f);
	return r;
}

static const double no_vars[N_VARS] = { 0.125, 0.2, 2, 3, -1, 0 };

/* Values worked by hand under Python's rules (PBS evaluates with Python). */
START_TEST(formula_precedence_follows_python)
{
	static const struct {
		const char *text;
		double value;
	} cases[] = {
		{ "2 + 3 * 4", 14 },
		{ "(2 + 3) * 4", 20 },
		{ "1 - 2 - 3", -4 },
		{ "1 - (2 - 3)", 2 },
		{ "8 / 4 / 2", 1 },
		{ "8 / (4 / 2)", 4 },
		{ "-2^2", -4 },
		{ "-2**2", -4 },
		{ "(-2)^2", 4 },
		{ "2^-1", 0.5 },
		{ "2^3^2", 512 },
		{ "2**3**2", 512 },
		{ "(2^3)^2", 64 },
		{ "2^-2^2", 0.0625 },
		{ "-2^-2", -0.25 },
		{ "-3^2 * 2", -18 },
		{ "2 * -3", -6 },
		{ "--2", 2 },
		{ "+2", 2 },
		{ "-+-2", 2 },
		{ "10 - 2^2 * 3", -2 },
		{ "a^b", 8 },
		{ "-a^b", -8 },
		{ "2 * a^b^x", 2 * 1.2599210498948732 },
		{ "a - -b", 5 },
		{ "x * -x", -1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double r = eval_text(cases[i].text, no_vars);

		ck_assert_msg(r == cases[i].value, "%s = %.17g, expected %.17g",
			      cases[i].text, r, cases[i].value);
	}
}
END_TEST

START_TEST(formula_reads_numbers_in_every_decimal_form)
{
	static const struct {
		const char *text;
		double value;
	} cases[] = {
		{ "0.5", 0.5 },	      { ".5", 0.5 },	{ "5.", 5 },
		{ "007", 7 },	      { "1e3", 1000 },	{ "1E+3", 1000 },
		{ "25e-1", 2.5 },     { "1.5e2", 150 }, { "0.1", 0.1 },
		{ "1e-320", 1e-320 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(eval_text(cases[i].text, no_vars) ==
				      cases[i].value,
			      "%s", cases[i].text);
}
END_TEST

/* Each function equals the C library's, bit for bit. */
START_TEST(formula_functions_equal_the_c_library)
{
	double v[N_VARS] = { 0.3, 0.7, 2.5, -2.5, 10, 0 };

	ck_assert(eval_text("pow(a, x)", v) == pow(2.5, 10));
	ck_assert(eval_text("a^x", v) == pow(2.5, 10));
	ck_assert(eval_text("exp(fairshare_tree_usage)", v) == exp(0.3));
	ck_assert(eval_text("log(fairshare_perc)", v) == log(0.7));
	ck_assert(eval_text("sqrt(a)", v) == sqrt(2.5));
	ck_assert(eval_text("abs(b)", v) == 2.5);
	ck_assert(eval_text("floor(b)", v) == -3);
	ck_assert(eval_text("ceil(b)", v) == -2);
	ck_assert(eval_text("floor(a)", v) == 2);
	ck_assert(eval_text("ceil(a)", v) == 3);
	ck_assert(eval_text("min(a, b)", v) == -2.5);
	ck_assert(eval_text("max(a, b)", v) == 2.5);
	ck_assert(eval_text("min(x, a, b, 7)", v) == -2.5);
	ck_assert(eval_text("max(b, 7, a, x)", v) == 10);
}
END_TEST

START_TEST(formula_checks_every_function_arity_at_compile_time)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "pow(2)", "column 1: pow() takes 2 arguments, given 1" },
		{ "pow(1, 2, 3)",
		  "column 1: pow() takes 2 arguments, given 3" },
		{ "exp()", "column 1: exp() takes 1 argument, given 0" },
		{ "exp(1, 2)", "column 1: exp() takes 1 argument, given 2" },
		{ "log(1, 2)", "column 1: log() takes 1 argument, given 2" },
		{ "sqrt()", "column 1: sqrt() takes 1 argument, given 0" },
		{ "abs(1, 2)", "column 1: abs() takes 1 argument, given 2" },
		{ "floor()", "column 1: floor() takes 1 argument, given 0" },
		{ "ceil(1, 2)", "column 1: ceil() takes 1 argument, given 2" },
		{ "1 + min(1)",
		  "column 5: min() takes at least 2 arguments, given 1" },
		{ "max()",
		  "column 1: max() takes at least 2 arguments, given 0" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_formula *f = (void *)1;
		struct ts_error err = TS_ERROR_INIT;

		ck_assert_int_eq(ts_formula_compile(cases[i].text, &vars, NULL,
						    &f, &err),
				 TS_ESYNTAX);
		ck_assert_ptr_null(f);
		ck_assert_str_eq(err.msg, cases[i].msg);
	}
}
END_TEST

/* Every parse error: its code, column and what was expected. */
START_TEST(formula_reports_every_syntax_error_with_its_column)
{
	static const struct {
		const char *text;
		int code;
		long col;
		const char *msg;
	} cases[] = {
		{ "", TS_ESYNTAX, 1,
		  "column 1: expected a number, a variable, a function or "
		  "'(', found end of formula" },
		{ "   ", TS_ESYNTAX, 4,
		  "column 4: expected a number, a variable, a function or "
		  "'(', found end of formula" },
		{ "1 +", TS_ESYNTAX, 4,
		  "column 4: expected a number, a variable, a function or "
		  "'(', found end of formula" },
		{ "(1 + 2", TS_ESYNTAX, 7,
		  "column 7: expected ')' to close '(' at column 1, found end "
		  "of formula" },
		{ "()", TS_ESYNTAX, 2,
		  "column 2: expected a number, a variable, a function or "
		  "'(', found ')'" },
		{ "1 2", TS_ESYNTAX, 3,
		  "column 3: expected an operator or end of formula, found "
		  "number '2'" },
		{ "a b", TS_ESYNTAX, 3,
		  "column 3: expected an operator or end of formula, found "
		  "name 'b'" },
		{ "1)", TS_ESYNTAX, 2,
		  "column 2: expected an operator or end of formula, found "
		  "')'" },
		{ "pow(2, -(fairshare_tree_usage/fairshare_perc)", TS_ESYNTAX,
		  46,
		  "column 46: expected ')' after function arguments, found end "
		  "of formula" },
		{ "pow(2 3)", TS_ESYNTAX, 7,
		  "column 7: expected ',' or ')' after function argument, "
		  "found number '3'" },
		{ "min(1,)", TS_ESYNTAX, 7,
		  "column 7: expected a number, a variable, a function or "
		  "'(', found ')'" },
		{ "min(,1)", TS_ESYNTAX, 5,
		  "column 5: expected a number, a variable, a function or "
		  "'(', found ','" },
		{ "2 * * 3", TS_ESYNTAX, 5,
		  "column 5: expected a number, a variable, a function or "
		  "'(', found '*'" },
		{ "2 ^ ^ 3", TS_ESYNTAX, 5,
		  "column 5: expected a number, a variable, a function or "
		  "'(', found '^'" },
		{ "a $ b", TS_ESYNTAX, 3,
		  "column 3: unexpected character '$'" },
		{ "a\x01", TS_ESYNTAX, 2, "column 2: unexpected byte 0x01" },
		{ "1e", TS_ESYNTAX, 1, "column 1: malformed number '1e'" },
		{ "x + 1.2.3", TS_ESYNTAX, 5,
		  "column 5: malformed number '1.2.3'" },
		{ "2x", TS_ESYNTAX, 1, "column 1: malformed number '2x'" },
		{ ".", TS_ESYNTAX, 1, "column 1: malformed number '.'" },
		{ "1 + 1e999", TS_ERANGE, 5,
		  "column 5: number '1e999' is too large" },
		{ "fairshare", TS_ESYNTAX, 1,
		  "column 1: unknown variable 'fairshare'" },
		{ "a + Fairshare_perc", TS_ESYNTAX, 5,
		  "column 5: unknown variable 'Fairshare_perc'" },
		{ "2 * foo(1)", TS_ESYNTAX, 5,
		  "column 5: unknown function 'foo'" },
		{ "a(1)", TS_ESYNTAX, 1, "column 1: unknown function 'a'" },
		{ "log + 1", TS_ESYNTAX, 1,
		  "column 1: expected '(' after function name 'log'" },
		{ "POW(1, 2)", TS_ESYNTAX, 1,
		  "column 1: unknown function 'POW'" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_formula *f = (void *)1;
		struct ts_error err = TS_ERROR_INIT;

		ck_assert_msg(ts_formula_compile(cases[i].text, &vars, NULL, &f,
						 &err) == cases[i].code,
			      "'%s': code %d (%s)", cases[i].text, err.code,
			      err.msg);
		ck_assert_ptr_null(f);
		ck_assert_int_eq(err.index, cases[i].col);
		ck_assert_str_eq(err.msg, cases[i].msg);
	}
}
END_TEST

START_TEST(formula_refuses_too_long_and_too_deep_input)
{
	char text[TS_FORMULA_MAX_LEN + 2];
	struct ts_formula *f;
	struct ts_error err = TS_ERROR_INIT;
	size_t i;

	memset(text, ' ', sizeof(text) - 1);
	text[0] = '1';
	text[sizeof(text) - 1] = '\0';
	ck_assert_int_eq(ts_formula_compile(text, &vars, NULL, &f, &err),
			 TS_ERANGE);
	ck_assert_str_eq(err.msg,
			 "column 4097: formula longer than 4096 characters");

	/* 300 nested parentheses: refused before the parser recurses */
	for (i = 0; i < 300; i++)
		text[i] = '(';
	text[300] = '1';
	for (i = 301; i < 601; i++)
		text[i] = ')';
	text[601] = '\0';
	ts_error_clear(&err);
	ck_assert_int_eq(ts_formula_compile(text, &vars, NULL, &f, &err),
			 TS_ERANGE);
	ck_assert_int_eq(err.index, 257);
	ck_assert_str_eq(err.msg, "column 257: formula nested too deeply "
				  "(more than 256 levels)");

	/* 300 operands in a row: a tree too tall for the printer */
	for (i = 0; i < 300; i++) {
		text[2 * i] = '1';
		text[2 * i + 1] = '+';
	}
	text[599] = '\0';
	ts_error_clear(&err);
	ck_assert_int_eq(ts_formula_compile(text, &vars, NULL, &f, &err),
			 TS_ERANGE);
	ck_assert_str_eq(err.msg, "column 512: formula too complex (more "
				  "than 256 nested operations)");

	/* 300 arguments: more stack than allowed */
	strcpy(text, "min(");
	for (i = 0; i < 300; i++)
		strcat(text, "1,");
	strcpy(text + strlen(text) - 1, ")");
	ts_error_clear(&err);
	ck_assert_int_eq(ts_formula_compile(text, &vars, NULL, &f, &err),
			 TS_ERANGE);
	ck_assert_str_eq(err.msg, "column 517: formula too complex (needs "
				  "more than 256 stack entries)");
}
END_TEST

START_TEST(formula_stack_depth_is_computed_at_compile_time)
{
	static const struct {
		const char *text;
		size_t depth;
	} cases[] = {
		{ "1", 1 },
		{ "1 + 2 + 3 + 4", 2 },
		{ "1 + (2 + (3 + 4))", 4 },
		{ "2^3^4^5", 4 },
		{ "min(1, 2, 3, 4, 5)", 5 },
		{ "pow(2, -(fairshare_tree_usage / fairshare_perc))", 3 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_formula *f = compile_ok(cases[i].text, NULL);

		ck_assert_uint_eq(ts_formula_stack_depth(f), cases[i].depth);
		ts_formula_free(f);
	}
}
END_TEST

START_TEST(formula_var_span_covers_the_largest_index_used)
{
	struct ts_formula *f = compile_ok("a + 1", NULL);

	ck_assert_uint_eq(ts_formula_var_span(f), V_A + 1);
	ts_formula_free(f);
	f = compile_ok("x * fairshare_tree_usage", NULL);
	ck_assert_uint_eq(ts_formula_var_span(f), V_X + 1);
	ts_formula_free(f);
	f = compile_ok("2", NULL);
	ck_assert_uint_eq(ts_formula_var_span(f), 0);
	ts_formula_free(f);
}
END_TEST

/*
 * Seed 000 (PBS PP-718): Bob's fairshare_tree_usage 0.125 over
 * fairshare_perc 0.2 gives 2^-(0.625) = 0.648...; Suzy's 0.5 over 0.36
 * gives 2^-(1.3889) = 0.382....  The formula must be exactly the
 * library's pow(2.0, -(tu / perc)).
 */
START_TEST(formula_seed000_equals_c_pow_bit_for_bit)
{
	struct ts_formula *f = compile_ok(
		"pow(2, -(fairshare_tree_usage/fairshare_perc))", NULL);
	static const double tu_perc[][2] = {
		{ 0.125, 0.2 },	    /* Bob */
		{ 0.5, 0.36 },	    /* Suzy */
		{ 0.125, 0.2 },	    /* Cathy */
		{ 0.832973, 0.24 }, /* scott, pbsfs -g */
	};
	double v[N_VARS] = { 0 }, want, got;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < 4; i++) {
		v[V_TU] = tu_perc[i][0];
		v[V_PERC] = tu_perc[i][1];
		want = pow(2.0, -(v[V_TU] / v[V_PERC]));
		got = ts_formula_eval(f, v, NULL);
		ck_assert(memcmp(&want, &got, sizeof(got)) == 0);
	}
	v[V_TU] = 0.125;
	v[V_PERC] = 0.2;
	ck_assert_double_eq_tol(ts_formula_eval(f, v, NULL), 0.648, 0.0005);
	v[V_TU] = 0.5;
	v[V_PERC] = 0.36;
	ck_assert_double_eq_tol(ts_formula_eval(f, v, NULL), 0.382, 0.0005);

	/* and over many usages and shares in (0, 1] */
	for (i = 0; i < (size_t)rounds(100000); i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		v[V_TU] = (double)(seed >> 11) / 9007199254740992.0;
		v[V_PERC] = (double)((seed >> 3) % 1000000 + 1) / 1e6;
		want = pow(2.0, -(v[V_TU] / v[V_PERC]));
		got = ts_formula_eval(f, v, NULL);
		ck_assert(memcmp(&want, &got, sizeof(got)) == 0);
	}
	ts_formula_free(f);
}
END_TEST

/* PP-718: "If an entity's shares is set to 0, this will cause a division
 * by zero error."  Ours: 0 and one log line, however often evaluated. */
START_TEST(formula_seed000_zero_perc_gives_zero_and_one_log_line)
{
	static struct log_count lc;
	struct ts_logger lg = { count_log, &lc };
	struct ts_formula *f = compile_ok(
		"pow(2, -(fairshare_tree_usage/fairshare_perc))", &lg);
	double v[N_VARS] = { 0.5, 0.0 };
	unsigned faults;
	int i;

	for (i = 0; i < 1000; i++) {
		ck_assert(ts_formula_eval(f, v, &faults) == 0.0);
		ck_assert_uint_eq(faults, TS_FORMULA_DIVZERO);
	}
	ck_assert_int_eq(atomic_load(&lc.calls), 1);
	ck_assert_str_eq(lc.last, "formula: division by zero at column 30; "
				  "the formula's value is 0 (reported once)");
	ck_assert_uint_eq(ts_formula_reported(f), TS_FORMULA_DIVZERO);
	/* a good value afterwards is computed as usual */
	v[V_PERC] = 0.36;
	ck_assert(ts_formula_eval(f, v, &faults) == pow(2.0, -(0.5 / 0.36)));
	ck_assert_uint_eq(faults, 0);
	ts_formula_free(f);
}
END_TEST

/* A fault zeroes the whole formula, not only its own operation. */
START_TEST(formula_fault_makes_whole_formula_zero)
{
	ck_assert(eval_text("1 + 1/zero", no_vars) == 0.0);
	ck_assert(eval_text("max(5, log(zero))", no_vars) == 0.0);
	ck_assert(eval_text("2^(1/zero)", no_vars) == 0.0);
	ck_assert(eval_text("-(10 - sqrt(x))", no_vars) == 0.0);
}
END_TEST

START_TEST(formula_logs_each_fault_kind_once_with_its_column)
{
	static const struct {
		const char *text;
		unsigned kind;
		const char *line;
	} cases[] = {
		{ "a / zero", TS_FORMULA_DIVZERO,
		  "formula: division by zero at column 3; the formula's value "
		  "is 0 (reported once)" },
		{ "zero ^ x", TS_FORMULA_DIVZERO,
		  "formula: division by zero: 0 to a negative power at column "
		  "6; the formula's value is 0 (reported once)" },
		{ "1 + log(zero)", TS_FORMULA_DOMAIN,
		  "formula: domain error in log() at column 5; the formula's "
		  "value is 0 (reported once)" },
		{ "log(x)", TS_FORMULA_DOMAIN,
		  "formula: domain error in log() at column 1; the formula's "
		  "value is 0 (reported once)" },
		{ "sqrt(x)", TS_FORMULA_DOMAIN,
		  "formula: domain error in sqrt() at column 1; the formula's "
		  "value is 0 (reported once)" },
		{ "pow(x, 0.5)", TS_FORMULA_DOMAIN,
		  "formula: domain error in pow() at column 1; the formula's "
		  "value is 0 (reported once)" },
		{ "exp(1000)", TS_FORMULA_OVERFLOW,
		  "formula: overflow in exp() at column 1; the formula's value "
		  "is 0 (reported once)" },
		{ "1e308 * 10", TS_FORMULA_OVERFLOW,
		  "formula: overflow in '*' at column 7; the formula's value "
		  "is 0 (reported once)" },
		{ "1e308 + 1e308", TS_FORMULA_OVERFLOW,
		  "formula: overflow in '+' at column 7; the formula's value "
		  "is 0 (reported once)" },
		{ "-1e308 - 1e308", TS_FORMULA_OVERFLOW,
		  "formula: overflow in '-' at column 8; the formula's value "
		  "is 0 (reported once)" },
		{ "10 ^ 400", TS_FORMULA_OVERFLOW,
		  "formula: overflow in '^' at column 4; the formula's value "
		  "is 0 (reported once)" },
		{ "1 / 1e-310", TS_FORMULA_OVERFLOW,
		  "formula: overflow in '/' at column 3; the formula's value "
		  "is 0 (reported once)" },
	};
	double v[N_VARS] = { 0.5, 0.2, 2, 3, -1, 0 };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct log_count lc;
		struct ts_logger lg = { count_log, &lc };
		struct ts_formula *f;
		unsigned faults;
		int k;

		atomic_store(&lc.calls, 0);
		f = compile_ok(cases[i].text, &lg);
		for (k = 0; k < 3; k++) {
			ck_assert(ts_formula_eval(f, v, &faults) == 0.0);
			ck_assert_uint_eq(faults, cases[i].kind);
		}
		ck_assert_msg(atomic_load(&lc.calls) == 1, "%s: %d lines",
			      cases[i].text, atomic_load(&lc.calls));
		ck_assert_str_eq(lc.last, cases[i].line);
		ts_formula_free(f);
	}
}
END_TEST

/* Two kinds in one formula: two lines in all, one per kind. */
START_TEST(formula_logs_two_kinds_in_one_formula_once_each)
{
	static struct log_count lc;
	struct ts_logger lg = { count_log, &lc };
	struct ts_formula *f = compile_ok("a / b + log(x)", &lg);
	double v[N_VARS] = { 0 };
	int i;

	for (i = 0; i < 10; i++) {
		v[V_A] = 1, v[V_B] = 0, v[V_X] = 1; /* division by zero */
		ck_assert(ts_formula_eval(f, v, NULL) == 0.0);
		v[V_B] = 1, v[V_X] = -1; /* log of -1 */
		ck_assert(ts_formula_eval(f, v, NULL) == 0.0);
		v[V_X] = 1;
		ck_assert(ts_formula_eval(f, v, NULL) == 1.0);
	}
	ck_assert_int_eq(atomic_load(&lc.calls), 2);
	ck_assert_uint_eq(ts_formula_reported(f),
			  TS_FORMULA_DIVZERO | TS_FORMULA_DOMAIN);
	ts_formula_free(f);
}
END_TEST

START_TEST(formula_nonfinite_variable_gives_zero_and_names_it)
{
	static struct log_count lc;
	struct ts_logger lg = { count_log, &lc };
	struct ts_formula *f = compile_ok("1 + 2 * fairshare_perc", &lg);
	double v[N_VARS] = { 0 };
	unsigned faults;

	v[V_PERC] = NAN;
	ck_assert(ts_formula_eval(f, v, &faults) == 0.0);
	ck_assert_uint_eq(faults, TS_FORMULA_NONFINITE);
	v[V_PERC] = -INFINITY;
	ck_assert(ts_formula_eval(f, v, &faults) == 0.0);
	ck_assert_int_eq(atomic_load(&lc.calls), 1);
	ck_assert_str_eq(lc.last,
			 "formula: variable 'fairshare_perc' is NaN at column "
			 "9; the formula's value is 0 (reported once)");
	ts_formula_free(f);
}
END_TEST

/* Many threads faulting at once still log each kind exactly once. */
struct thread_arg {
	struct ts_formula *f;
	int bad;
};

static void *eval_many(void *arg)
{
	struct thread_arg *ta = arg;
	double v[N_VARS] = { 1, 0, 1, 0, 1, 0 };
	int i;

	for (i = 0; i < 20000; i++)
		if (ts_formula_eval(ta->f, v, NULL) != 0.0)
			ta->bad++;
	return NULL;
}

START_TEST(formula_reports_once_across_threads)
{
	static struct log_count lc;
	struct ts_logger lg = { count_log, &lc };
	struct ts_formula *f = compile_ok("a / b", &lg);
	struct thread_arg ta[4];
	pthread_t th[4];
	int i;

	for (i = 0; i < 4; i++) {
		ta[i].f = f;
		ta[i].bad = 0;
		ck_assert_int_eq(
			pthread_create(&th[i], NULL, eval_many, &ta[i]), 0);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		ck_assert_int_eq(ta[i].bad, 0);
	}
	ck_assert_int_eq(atomic_load(&lc.calls), 1);
	ts_formula_free(f);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Random expressions                                                   */
/* ------------------------------------------------------------------ */

static uint64_t rng = 88172645463325252ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static const char *const leaves[] = {
	"0",
	"1",
	"2",
	"0.5",
	"3",
	"10",
	"1e308",
	"1e-308",
	"5e-324",
	"1e300",
	"700",
	"0.1",
	"a",
	"b",
	"x",
	"zero",
	"fairshare_tree_usage",
	"fairshare_perc",
};
static const char *const ops[] = { " + ", " - ", " * ", " / ", "^", "**" };
static const char *const fn1[] = {
	"exp", "log", "sqrt", "abs", "floor", "ceil"
};

/* Append a random expression of at most depth levels to buf. */
static void gen(char *buf, size_t size, int depth)
{
	unsigned pick = depth > 0 ? rnd(8) : 0;
	char *end = buf + strlen(buf);
	size_t room = size - (size_t)(end - buf);

	switch (pick) {
	case 0:
	case 1:
		snprintf(end, room, "%s",
			 leaves[rnd(sizeof(leaves) / sizeof(leaves[0]))]);
		return;
	case 2:
		strncat(buf, "-", size - strlen(buf) - 1);
		gen(buf, size, depth - 1);
		return;
	case 3:
	case 4:
		strncat(buf, "(", size - strlen(buf) - 1);
		gen(buf, size, depth - 1);
		strncat(buf, ops[rnd(6)], size - strlen(buf) - 1);
		gen(buf, size, depth - 1);
		strncat(buf, ")", size - strlen(buf) - 1);
		return;
	case 5:
		gen(buf, size, depth - 1);
		strncat(buf, ops[rnd(6)], size - strlen(buf) - 1);
		gen(buf, size, depth - 1);
		return;
	case 6:
		strncat(buf, fn1[rnd(6)], size - strlen(buf) - 1);
		strncat(buf, "(", size - strlen(buf) - 1);
		gen(buf, size, depth - 1);
		strncat(buf, ")", size - strlen(buf) - 1);
		return;
	default:
		strncat(buf,
			rnd(2)	 ? "pow("
			: rnd(2) ? "min("
				 : "max(",
			size - strlen(buf) - 1);
		gen(buf, size, depth - 1);
		strncat(buf, ", ", size - strlen(buf) - 1);
		gen(buf, size, depth - 1);
		strncat(buf, ")", size - strlen(buf) - 1);
	}
}

static const double specials[] = {
	0.0, -0.0,  1.0,    -1.0,   1e308, -1e308, 5e-324,   -5e-324,	0.5,
	2.0, 700.0, -700.0, 1e-300, 3.0,   NAN,	   INFINITY, -INFINITY, 0.36,
};
#define N_SPECIALS (sizeof(specials) / sizeof(specials[0]))

/* Property: whatever the expression and the values, never NaN or inf. */
START_TEST(formula_result_is_always_finite)
{
	char text[4096];
	double v[N_VARS];
	int i, k, j;

	rng = 0x2545F4914F6CDD1DULL;
	for (i = 0; i < rounds(3000); i++) {
		struct ts_formula *f;

		text[0] = '\0';
		gen(text, sizeof(text), 6);
		f = compile_ok(text, NULL);
		for (k = 0; k < 20; k++) {
			double r;

			for (j = 0; j < N_VARS; j++)
				v[j] = specials[rnd(N_SPECIALS)];
			r = ts_formula_eval(f, v, NULL);
			ck_assert_msg(isfinite(r), "%s gives %g", text, r);
		}
		ts_formula_free(f);
	}
}
END_TEST

/* Property: the canonical text compiles to the same program. */
START_TEST(formula_print_round_trips)
{
	char text[4096], p1[8192], p2[8192];
	double v[N_VARS];
	int i, k, j;

	rng = 0x853c49e6748fea9bULL;
	for (i = 0; i < rounds(3000); i++) {
		struct ts_formula *f, *g;

		text[0] = '\0';
		gen(text, sizeof(text), 6);
		f = compile_ok(text, NULL);
		ck_assert_int_lt(ts_formula_print(f, p1, sizeof(p1)),
				 (int)sizeof(p1));
		g = compile_ok(p1, NULL);
		ts_formula_print(g, p2, sizeof(p2));
		ck_assert_str_eq(p1, p2);
		ck_assert_uint_eq(ts_formula_stack_depth(f),
				  ts_formula_stack_depth(g));
		for (k = 0; k < 5; k++) {
			double r1, r2;
			unsigned f1, f2;

			for (j = 0; j < N_VARS; j++)
				v[j] = specials[rnd(N_SPECIALS)];
			r1 = ts_formula_eval(f, v, &f1);
			r2 = ts_formula_eval(g, v, &f2);
			ck_assert_msg(!memcmp(&r1, &r2, sizeof(r1)),
				      "%s -> %s: %g vs %g", text, p1, r1, r2);
			ck_assert_uint_eq(f1, f2);
		}
		ts_formula_free(f);
		ts_formula_free(g);
	}
}
END_TEST

START_TEST(formula_prints_canonical_text)
{
	static const struct {
		const char *text;
		const char *canon;
	} cases[] = {
		{ "pow(2,-(fairshare_tree_usage/fairshare_perc))",
		  "pow(2, -(fairshare_tree_usage / fairshare_perc))" },
		{ "((a))+((b)*x)", "a + b * x" },
		{ "(a+b)*x", "(a + b) * x" },
		{ "a-(b-x)", "a - (b - x)" },
		{ "(a-b)-x", "a - b - x" },
		{ "a/(b*x)", "a / (b * x)" },
		{ "-(2^2)", "-2^2" },
		{ "(-2)**2", "(-2)^2" },
		{ "2^(-1)", "2^-1" },
		{ "(2^3)^2", "(2^3)^2" },
		{ "2^(3^2)", "2^3^2" },
		{ "-(-a)", "--a" },
		{ "+a", "a" },
		{ "a*(-b)", "a * -b" },
		{ "(-a)*b", "-a * b" },
		{ "MIN_x", NULL },
		{ "min( a ,b,  x )", "min(a, b, x)" },
		{ "0.50", "0.5" },
		{ "1e3", "1000" },
		{ "100000000000000000000", "1e+20" },
		{ "0.1", "0.1" },
		{ ".3e-7", "3e-08" },
	};
	size_t i;
	char buf[256];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_formula *f;
		struct ts_error err = TS_ERROR_INIT;
		int rc = ts_formula_compile(cases[i].text, &vars, NULL, &f,
					    &err);

		if (!cases[i].canon) {
			ck_assert_int_ne(rc, TS_OK);
			continue;
		}
		ck_assert_int_eq(rc, TS_OK);
		ck_assert_int_eq(ts_formula_print(f, buf, sizeof(buf)),
				 (int)strlen(cases[i].canon));
		ck_assert_str_eq(buf, cases[i].canon);
		/* a short buffer is cut and still terminated */
		ck_assert_int_eq(ts_formula_print(f, buf, 4),
				 (int)strlen(cases[i].canon));
		ck_assert_uint_le(strlen(buf), 3);
		ts_formula_free(f);
	}
}
END_TEST

/* With the failing allocator installed, evaluation still works and makes
 * no allocator call, on the normal path and on every fault path. */
START_TEST(formula_eval_makes_no_allocation)
{
	static struct log_count lc;
	struct ts_logger lg = { count_log, &lc };
	static const char *const texts[] = {
		"pow(2, -(fairshare_tree_usage/fairshare_perc))",
		"min(a, b, x) + max(a, b) * abs(x) - floor(a) / ceil(b)",
		"a / zero",
		"log(x)",
		"exp(1e308)",
		"sqrt(x) ^ 2",
	};
	double v[N_VARS] = { 0.125, 0.2, 2, 3, -1, 0 };
	double want[6], got[6];
	struct ts_formula *f[6];
	size_t i;
	void *p;

	for (i = 0; i < 6; i++) {
		f[i] = compile_ok(texts[i], &lg);
		want[i] = ts_formula_eval(f[i], v, NULL);
	}
	atomic_store(&lc.calls, 0);
	for (i = 0; i < 6; i++)
		ts_formula_free(f[i]);
	for (i = 0; i < 6; i++)
		f[i] = compile_ok(texts[i], &lg); /* faults not yet logged */

	alloc_calls = 0;
	alloc_watch = 1;
	for (i = 0; i < 6; i++)
		got[i] = ts_formula_eval(f[i], v, NULL);
	alloc_watch = 0;

	for (i = 0; i < 6; i++)
		ck_assert(!memcmp(&want[i], &got[i], sizeof(got[i])));
	if (under_valgrind()) {
		for (i = 0; i < 6; i++)
			ts_formula_free(f[i]);
		return;
	}
	ck_assert_uint_eq(alloc_calls, 0);
	ck_assert_int_eq(atomic_load(&lc.calls), 4); /* the fault lines */
	for (i = 0; i < 6; i++)
		ts_formula_free(f[i]);

	/* the watch itself works: an allocation is seen and fails */
	alloc_watch = 1;
	p = malloc(16);
	alloc_watch = 0;
	ck_assert_ptr_null(p);
	ck_assert_uint_eq(alloc_calls, 1);
}
END_TEST

START_TEST(formula_compile_reports_out_of_memory)
{
	struct ts_formula *f = (void *)1;
	struct ts_error err = TS_ERROR_INIT;
	int rc;

	if (under_valgrind())
		return;
	alloc_watch = 1;
	rc = ts_formula_compile("a + b", &vars, NULL, &f, &err);
	alloc_watch = 0;
	ck_assert_int_eq(rc, TS_ENOMEM);
	ck_assert_ptr_null(f);
}
END_TEST

START_TEST(formula_without_resolver_knows_no_variable)
{
	struct ts_formula *f;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_formula_compile("age", NULL, NULL, &f, &err),
			 TS_ESYNTAX);
	ck_assert_str_eq(err.msg, "column 1: unknown variable 'age'");
	ts_error_clear(&err);
	ck_assert_int_eq(ts_formula_compile("2 * 3", NULL, NULL, &f, &err),
			 TS_OK);
	ck_assert(ts_formula_eval(f, NULL, NULL) == 6.0);
	ts_formula_free(f);
}
END_TEST

Suite *suite_formula(void)
{
	Suite *s = suite_create("formula");
	TCase *tc = tcase_create("grammar");
	TCase *tf = tcase_create("faults");
	TCase *tp = tcase_create("properties");

	tcase_add_test(tc, formula_precedence_follows_python);
	tcase_add_test(tc, formula_reads_numbers_in_every_decimal_form);
	tcase_add_test(tc, formula_functions_equal_the_c_library);
	tcase_add_test(tc, formula_checks_every_function_arity_at_compile_time);
	tcase_add_test(tc, formula_reports_every_syntax_error_with_its_column);
	tcase_add_test(tc, formula_refuses_too_long_and_too_deep_input);
	tcase_add_test(tc, formula_stack_depth_is_computed_at_compile_time);
	tcase_add_test(tc, formula_var_span_covers_the_largest_index_used);
	tcase_add_test(tc, formula_prints_canonical_text);
	tcase_add_test(tc, formula_without_resolver_knows_no_variable);
	suite_add_tcase(s, tc);

	tcase_add_test(tf, formula_seed000_equals_c_pow_bit_for_bit);
	tcase_add_test(tf,
		       formula_seed000_zero_perc_gives_zero_and_one_log_line);
	tcase_add_test(tf, formula_fault_makes_whole_formula_zero);
	tcase_add_test(tf, formula_logs_each_fault_kind_once_with_its_column);
	tcase_add_test(tf, formula_logs_two_kinds_in_one_formula_once_each);
	tcase_add_test(tf, formula_nonfinite_variable_gives_zero_and_names_it);
	tcase_add_test(tf, formula_reports_once_across_threads);
	tcase_add_test(tf, formula_eval_makes_no_allocation);
	tcase_add_test(tf, formula_compile_reports_out_of_memory);
	suite_add_tcase(s, tf);

	tcase_add_test(tp, formula_result_is_always_finite);
	tcase_add_test(tp, formula_print_round_trips);
	tcase_set_timeout(tp, 60);
	suite_add_tcase(s, tp);
	return s;
}
