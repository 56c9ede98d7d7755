/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * formula.h - the job priority formula (PBS job_sort_formula in spirit).
 *
 * A formula is compiled once (at start and at reconfigure) into a postfix
 * program and then evaluated for every job with no allocation:
 *
 *   struct ts_formula *f;
 *   ts_formula_compile("pow(2, -(fairshare_tree_usage/fairshare_perc))",
 *                      &vars, &logger, &f, &err);
 *   prio = ts_formula_eval(f, values, NULL);  // values[i] per variable
 *   ts_formula_free(f);
 *
 * Grammar, loosest binding first (Python's precedence, as PBS evaluates
 * its formula with Python):
 *   expr    = term { ("+" | "-") term }            left-associative
 *   term    = unary { ("*" | "/") unary }          left-associative
 *   unary   = ("-" | "+") unary | power
 *   power   = primary [ ("^" | "**") unary ]       right-associative
 *   primary = NUMBER | NAME | NAME "(" expr { "," expr } ")" | "(" expr ")"
 * So -2^2 = -(2^2) = -4, 2^-1 = 0.5, 2^3^2 = 2^(3^2) = 512.
 * NUMBER is decimal ("3", "0.5", ".5", "5.", "1e-3"); NAME is
 * [A-Za-z_][A-Za-z0-9_]*, case-sensitive.  Functions and their arity:
 * pow 2, exp 1, log 1 (natural), sqrt 1, abs 1, floor 1, ceil 1,
 * min >= 2, max >= 2.  Any other NAME is a variable, resolved at compile
 * time by the caller's resolver to an index into the array passed to
 * ts_formula_eval().
 *
 * Faults: division by zero, a domain error (log of x <= 0, sqrt of
 * x < 0, pow() giving NaN), an overflow to +-inf, or a variable whose
 * value is NaN or inf make the value of the WHOLE formula 0 (not just of
 * the faulting operation: pow(2, -(u/0)) must be 0 like PBS's
 * fairshare_factor, not pow(2, -0) = 1).  Each kind is logged once per
 * compiled formula.  The value returned is therefore always finite.
 */
#ifndef TS_FORMULA_H
#define TS_FORMULA_H

#include <stddef.h>

#include "error.h"
#include "log.h"

#define TS_FORMULA_MAX_LEN   4096 /* characters of formula text */
#define TS_FORMULA_MAX_NEST  256  /* parentheses, unary signs, "^" */
#define TS_FORMULA_MAX_STACK 256  /* evaluation stack entries */

/* Kinds of fault, as bits (ts_formula_eval()'s *faults, _reported()). */
enum ts_formula_fault {
	TS_FORMULA_DIVZERO = 1u << 0,	/* x / 0, pow(0, negative) */
	TS_FORMULA_DOMAIN = 1u << 1,	/* log(x <= 0), sqrt(x < 0), NaN */
	TS_FORMULA_OVERFLOW = 1u << 2,	/* a result of +-inf */
	TS_FORMULA_NONFINITE = 1u << 3, /* a variable's value NaN or inf */
};

/*
 * How names become variables.  resolve() gets a name (len bytes, not
 * NUL-terminated) and returns its index in the value array, >= 0, or -1
 * if the caller has no such variable (a compile error).
 */
struct ts_formula_vars {
	long (*resolve)(void *arg, const char *name, size_t len);
	void *arg;
};

/* A fixed list of names, index = position: arg of ts_formula_by_name(). */
struct ts_formula_names {
	const char *const *names;
	size_t n;
};

struct ts_formula;

/*
 * ts_formula_by_name() - a resolve() for a struct ts_formula_names.
 * RET the position of name in the list, or -1.
 */
long ts_formula_by_name(void *names, const char *name, size_t len);

/*
 * ts_formula_compile() - parse and resolve text.  lg (may be NULL) is
 * copied and later receives the fault reports; lg->arg must outlive *out.
 * RET TS_OK with *out set (free it with ts_formula_free()), or TS_ESYNTAX
 * (grammar, unknown name, arity), TS_ERANGE (number too large, formula
 * too long or too deeply nested) or TS_ENOMEM, with *out NULL,
 * err->index the 1-based column and err->msg
 * "column 14: expected ')' after function arguments".
 */
int ts_formula_compile(const char *text, const struct ts_formula_vars *vars,
		       const struct ts_logger *lg, struct ts_formula **out,
		       struct ts_error *err);

/*
 * ts_formula_eval() - the formula's value for one set of variable values.
 * vars[i] is the value of the variable resolved to index i; the array
 * must have ts_formula_var_span() entries at least.  Allocates nothing,
 * locks nothing; safe to call from several threads at once.
 * OUT *faults (may be NULL): the fault bits of this evaluation, 0 if none.
 * RET the value, always finite; 0 after a fault.
 */
double ts_formula_eval(const struct ts_formula *f, const double *vars,
		       unsigned *faults);

/* ts_formula_free() - release f; NULL is fine. */
void ts_formula_free(struct ts_formula *f);

/*
 * ts_formula_print() - f as canonical text: one space around + - * /,
 * none around ^, ", " between arguments, only the parentheses the
 * grammar needs, numbers in shortest round-trip form.  Compiling the
 * text again gives the same program and the same values.
 * RET the length snprintf() would give; buf NUL-terminated if size > 0.
 */
int ts_formula_print(const struct ts_formula *f, char *buf, size_t size);

/* ts_formula_var_span() - 1 + the largest variable index used, or 0. */
size_t ts_formula_var_span(const struct ts_formula *f);

/* ts_formula_stack_depth() - evaluation stack entries f needs. */
size_t ts_formula_stack_depth(const struct ts_formula *f);

/* ts_formula_reported() - fault bits already logged for f. */
unsigned ts_formula_reported(const struct ts_formula *f);

#endif /* TS_FORMULA_H */
