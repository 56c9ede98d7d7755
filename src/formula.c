/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * formula.c - compile a priority formula to postfix, evaluate it, print it.
 *
 * Grammar and semantics are in formula.h.  Compilation is a recursive
 * descent parser that emits postfix instructions as it goes:
 *   "pow(2, -(u / p))"  ->  2 u p / neg pow(2)
 * Each instruction records its column (for fault reports), how many
 * instructions its subtree spans (so the printer can find operands
 * without building a tree) and its height.  Limits keep every recursion
 * bounded: TS_FORMULA_MAX_NEST for the parser, the same for the height
 * of the expression tree (the printer's recursion), TS_FORMULA_MAX_STACK
 * for the evaluation stack, which is therefore a fixed local array.
 *
 * Seed 000 (PBS PP-718): pow(2, -(fairshare_tree_usage/fairshare_perc))
 * runs as C's pow(2.0, -(u / p)), the same operations in the same order
 * on doubles, so it equals the library's fairshare_factor bit for bit;
 * with p == 0 it is a division by zero and the formula's value is 0.
 *
 * Edge cases: an empty formula, "()" and "f(,)" are syntax errors;
 * a number too large for a double ("1e999") is a compile error; -0.0 is
 * a finite result and left alone.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "formula.h"

enum op {
	OP_NUM,
	OP_VAR,
	OP_NEG,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_POW,	 /* a ^ b */
	OP_POWF, /* pow(a, b): same value, printed as written */
	OP_EXP,
	OP_LOG,
	OP_SQRT,
	OP_ABS,
	OP_FLOOR,
	OP_CEIL,
	OP_MIN,
	OP_MAX,
};

struct insn {
	unsigned char op;
	unsigned argc;	 /* operands popped */
	unsigned col;	 /* 1-based column of the token */
	unsigned span;	 /* instructions in this subtree, itself included */
	unsigned height; /* 1 for a leaf */
	unsigned name;	 /* OP_VAR: offset of its name in names[] */
	union {
		double num; /* OP_NUM */
		size_t var; /* OP_VAR */
	} u;
};

struct ts_formula {
	struct insn *code;
	size_t n;
	size_t depth; /* evaluation stack entries needed */
	size_t var_span;
	char *names; /* NUL-separated variable names */
	struct ts_logger logger;
	/* Fault kinds already logged; the only state eval() writes. */
	atomic_uint *reported;
	atomic_uint reported_store;
};

struct function {
	const char *name;
	enum op op;
	unsigned min_args, max_args;
};

static const struct function functions[] = {
	{ "pow", OP_POWF, 2, 2 },	  { "exp", OP_EXP, 1, 1 },
	{ "log", OP_LOG, 1, 1 },	  { "sqrt", OP_SQRT, 1, 1 },
	{ "abs", OP_ABS, 1, 1 },	  { "floor", OP_FLOOR, 1, 1 },
	{ "ceil", OP_CEIL, 1, 1 },	  { "min", OP_MIN, 2, UINT32_MAX },
	{ "max", OP_MAX, 2, UINT32_MAX },
};
#define N_FUNCTIONS (sizeof(functions) / sizeof(functions[0]))

/* ------------------------------------------------------------------ */
/* Lexer                                                                */
/* ------------------------------------------------------------------ */

enum tok {
	T_END,
	T_NUM,
	T_NAME,
	T_PLUS,
	T_MINUS,
	T_STAR,
	T_SLASH,
	T_CARET, /* "^" or "**" */
	T_LPAR,
	T_RPAR,
	T_COMMA,
};

struct parser {
	const char *text;
	size_t pos;   /* next unread byte */
	enum tok tok; /* current token */
	size_t tok_pos, tok_len;
	double num; /* T_NUM's value */
	unsigned nest;
	size_t sp; /* simulated stack depth */
	struct ts_formula *f;
	size_t cap, names_len;
	const struct ts_formula_vars *vars;
	struct ts_error *err;
};

static int is_c_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static int is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

static long col_of(const struct parser *p)
{
	return (long)p->tok_pos + 1;
}

/* "number '1.5'", "name 'x'", "')'", "end of formula" for messages. */
static const char *describe_token(const struct parser *p, char *buf,
				  size_t size)
{
	int len = p->tok_len > 40 ? 40 : (int)p->tok_len;
	const char *more = p->tok_len > 40 ? "..." : "";

	switch (p->tok) {
	case T_END:
		return "end of formula";
	case T_NUM:
		snprintf(buf, size, "number '%.*s%s'", len,
			 p->text + p->tok_pos, more);
		break;
	case T_NAME:
		snprintf(buf, size, "name '%.*s%s'", len, p->text + p->tok_pos,
			 more);
		break;
	default:
		snprintf(buf, size, "'%.*s'", len, p->text + p->tok_pos);
	}
	return buf;
}

static int bad_char(struct parser *p, size_t at)
{
	unsigned char c = (unsigned char)p->text[at];

	if (c > ' ' && c < 127)
		return ts_error_set(p->err, TS_ESYNTAX, (long)at + 1,
				    "column %zu: unexpected character '%c'",
				    at + 1, c);
	return ts_error_set(p->err, TS_ESYNTAX, (long)at + 1,
			    "column %zu: unexpected byte 0x%02x", at + 1, c);
}

static int lex_number(struct parser *p)
{
	const char *s = p->text + p->pos;
	size_t n = ts_decimal_scan(s), end = n;

	/* "1e", "1.2.3", "2x": not a number followed by something else */
	while (is_name_char(s[end]) || s[end] == '.')
		end++;
	if (end != n || !n)
		return ts_error_set(p->err, TS_ESYNTAX, (long)p->pos + 1,
				    "column %zu: malformed number '%.*s'",
				    p->pos + 1, end > 40 ? 40 : (int)end, s);
	if (ts_decimal_value(s, n, &p->num))
		return ts_error_set(p->err, TS_ERANGE, (long)p->pos + 1,
				    "column %zu: number '%.*s' is too large",
				    p->pos + 1, n > 40 ? 40 : (int)n, s);
	p->tok = T_NUM;
	p->tok_len = n;
	return TS_OK;
}

/* Read the next token into p->tok.  RET TS_OK or an error. */
static int next(struct parser *p)
{
	const char *t = p->text;
	char c;

	while (is_c_space(t[p->pos]))
		p->pos++;
	p->tok_pos = p->pos;
	p->tok_len = 1;
	c = t[p->pos];
	if (c == '\0') {
		p->tok = T_END;
		p->tok_len = 0;
		return TS_OK;
	}
	if ((c >= '0' && c <= '9') || c == '.') {
		int rc = lex_number(p);

		p->pos += p->tok_len;
		return rc;
	}
	if (is_name_start(c)) {
		while (is_name_char(t[p->pos + p->tok_len]))
			p->tok_len++;
		p->tok = T_NAME;
		p->pos += p->tok_len;
		return TS_OK;
	}
	switch (c) {
	case '+':
		p->tok = T_PLUS;
		break;
	case '-':
		p->tok = T_MINUS;
		break;
	case '*':
		p->tok = T_STAR;
		if (t[p->pos + 1] == '*') {
			p->tok = T_CARET;
			p->tok_len = 2;
		}
		break;
	case '/':
		p->tok = T_SLASH;
		break;
	case '^':
		p->tok = T_CARET;
		break;
	case '(':
		p->tok = T_LPAR;
		break;
	case ')':
		p->tok = T_RPAR;
		break;
	case ',':
		p->tok = T_COMMA;
		break;
	default:
		return bad_char(p, p->pos);
	}
	p->pos += p->tok_len;
	return TS_OK;
}

/* ------------------------------------------------------------------ */
/* Parser: emits postfix                                                */
/* ------------------------------------------------------------------ */

static int expected(struct parser *p, const char *what)
{
	char buf[64];

	return ts_error_set(p->err, TS_ESYNTAX, col_of(p),
			    "column %ld: expected %s, found %s", col_of(p),
			    what, describe_token(p, buf, sizeof(buf)));
}

/*
 * Append one instruction with argc operands already emitted; derive its
 * span and height from theirs and track the stack it needs.
 */
static int emit(struct parser *p, enum op op, unsigned argc, long col,
		struct insn **out)
{
	struct ts_formula *f = p->f;
	struct insn *in;
	size_t end = f->n, k;
	unsigned span = 1, height = 0;

	if (f->n >= p->cap) /* cannot happen: one token per instruction */
		return ts_error_set(p->err, TS_ERANGE, col,
				    "column %ld: formula too long", col);
	for (k = 0; k < argc; k++) {
		const struct insn *child = &f->code[end - 1];

		span += child->span;
		if (child->height > height)
			height = child->height;
		end -= child->span;
	}
	if (height + 1 > TS_FORMULA_MAX_NEST)
		return ts_error_set(
			p->err, TS_ERANGE, col,
			"column %ld: formula too complex (more than %d nested operations)",
			col, TS_FORMULA_MAX_NEST);
	p->sp = p->sp - argc + 1;
	if (p->sp > f->depth)
		f->depth = p->sp;
	if (f->depth > TS_FORMULA_MAX_STACK)
		return ts_error_set(
			p->err, TS_ERANGE, col,
			"column %ld: formula too complex (needs more than %d stack entries)",
			col, TS_FORMULA_MAX_STACK);
	in = &f->code[f->n++];
	memset(in, 0, sizeof(*in));
	in->op = (unsigned char)op;
	in->argc = argc;
	in->col = (unsigned)col;
	in->span = span;
	in->height = height + 1;
	if (out)
		*out = in;
	return TS_OK;
}

/*
 * Every recursion of the parser passes through parse_unary(), which
 * calls this: one level per "(", call argument, sign or "^" operand.
 */
static int nest_in(struct parser *p)
{
	if (++p->nest <= TS_FORMULA_MAX_NEST)
		return TS_OK;
	return ts_error_set(
		p->err, TS_ERANGE, col_of(p),
		"column %ld: formula nested too deeply (more than %d levels)",
		col_of(p), TS_FORMULA_MAX_NEST);
}

static int parse_expr(struct parser *p);
static int parse_unary(struct parser *p);

static const struct function *find_function(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < N_FUNCTIONS; i++)
		if (strlen(functions[i].name) == len &&
		    !memcmp(functions[i].name, name, len))
			return &functions[i];
	return NULL;
}

/* NAME "(" [ expr { "," expr } ] ")"; the current token is "(". */
static int parse_call(struct parser *p, const struct function *fn, long col)
{
	unsigned argc = 0;
	int rc;

	if ((rc = next(p)))
		return rc;
	if (p->tok != T_RPAR) {
		for (;;) {
			if ((rc = parse_expr(p)))
				return rc;
			argc++;
			if (p->tok == T_RPAR)
				break;
			if (p->tok != T_COMMA)
				return expected(
					p,
					argc < fn->max_args
						? "',' or ')' after function argument"
						: "')' after function arguments");
			if ((rc = next(p)))
				return rc;
		}
	}
	if (argc < fn->min_args || argc > fn->max_args) {
		if (fn->min_args == fn->max_args)
			return ts_error_set(
				p->err, TS_ESYNTAX, col,
				"column %ld: %s() takes %u argument%s, given %u",
				col, fn->name, fn->min_args,
				fn->min_args == 1 ? "" : "s", argc);
		return ts_error_set(
			p->err, TS_ESYNTAX, col,
			"column %ld: %s() takes at least %u arguments, given %u",
			col, fn->name, fn->min_args, argc);
	}
	if ((rc = emit(p, fn->op, argc, col, NULL)))
		return rc;
	return next(p);
}

/*
 * A name token: a function call (handed to parse_call()) or a variable,
 * resolved through p->vars and emitted as OP_VAR with its name kept for
 * printing.  RET TS_OK or TS_ESYNTAX (unknown name, function without '(').
 */
static int parse_name_or_call(struct parser *p)
{
	const char *name = p->text + p->tok_pos;
	size_t len = p->tok_len;
	const struct function *fn = find_function(name, len);
	long col = col_of(p), idx;
	struct insn *in;
	int rc;

	if ((rc = next(p)))
		return rc;
	if (p->tok == T_LPAR) {
		if (!fn)
			return ts_error_set(
				p->err, TS_ESYNTAX, col,
				"column %ld: unknown function '%.*s'", col,
				len > 40 ? 40 : (int)len, name);
		return parse_call(p, fn, col);
	}
	if (fn)
		return ts_error_set(
			p->err, TS_ESYNTAX, col,
			"column %ld: expected '(' after function name '%s'",
			col, fn->name);
	idx = p->vars && p->vars->resolve
		      ? p->vars->resolve(p->vars->arg, name, len)
		      : -1;
	if (idx < 0)
		return ts_error_set(p->err, TS_ESYNTAX, col,
				    "column %ld: unknown variable '%.*s'", col,
				    len > 40 ? 40 : (int)len, name);
	if ((rc = emit(p, OP_VAR, 0, col, &in)))
		return rc;
	in->u.var = (size_t)idx;
	in->name = (unsigned)p->names_len;
	memcpy(p->f->names + p->names_len, name, len);
	p->names_len += len;
	p->f->names[p->names_len++] = '\0';
	if ((size_t)idx + 1 > p->f->var_span)
		p->f->var_span = (size_t)idx + 1;
	return TS_OK;
}

/* primary = NUMBER | NAME | call | "(" expr ")" */
static int parse_primary(struct parser *p)
{
	struct insn *in;
	long open;
	int rc;

	switch (p->tok) {
	case T_NUM:
		if ((rc = emit(p, OP_NUM, 0, col_of(p), &in)))
			return rc;
		in->u.num = p->num;
		return next(p);
	case T_NAME:
		return parse_name_or_call(p);
	case T_LPAR:
		open = col_of(p);
		if ((rc = next(p)) || (rc = parse_expr(p)))
			return rc;
		if (p->tok != T_RPAR) {
			char what[48];

			snprintf(what, sizeof(what),
				 "')' to close '(' at column %ld", open);
			return expected(p, what);
		}
		return next(p);
	default:
		return expected(p, "a number, a variable, a function or '('");
	}
}

/* power = primary [ "^" unary ]: right-associative via unary. */
static int parse_power(struct parser *p)
{
	long col;
	int rc;

	if ((rc = parse_primary(p)))
		return rc;
	if (p->tok != T_CARET)
		return TS_OK;
	col = col_of(p);
	if ((rc = next(p)) || (rc = parse_unary(p)))
		return rc;
	return emit(p, OP_POW, 2, col, NULL);
}

/* unary = ("-" | "+") unary | power: -2^2 is -(2^2) as in Python. */
static int parse_unary(struct parser *p)
{
	enum tok sign = p->tok;
	long col = col_of(p);
	int rc;

	if ((rc = nest_in(p)))
		return rc;
	if (sign == T_MINUS || sign == T_PLUS) {
		if ((rc = next(p)) || (rc = parse_unary(p)))
			return rc;
		if (sign == T_MINUS && (rc = emit(p, OP_NEG, 1, col, NULL)))
			return rc;
	} else if ((rc = parse_power(p))) {
		return rc;
	}
	p->nest--;
	return TS_OK;
}

static int parse_term(struct parser *p)
{
	int rc;

	if ((rc = parse_unary(p)))
		return rc;
	while (p->tok == T_STAR || p->tok == T_SLASH) {
		enum op op = p->tok == T_STAR ? OP_MUL : OP_DIV;
		long col = col_of(p);

		if ((rc = next(p)) || (rc = parse_unary(p)) ||
		    (rc = emit(p, op, 2, col, NULL)))
			return rc;
	}
	return TS_OK;
}

static int parse_expr(struct parser *p)
{
	int rc;

	if ((rc = parse_term(p)))
		return rc;
	while (p->tok == T_PLUS || p->tok == T_MINUS) {
		enum op op = p->tok == T_PLUS ? OP_ADD : OP_SUB;
		long col = col_of(p);

		if ((rc = next(p)) || (rc = parse_term(p)) ||
		    (rc = emit(p, op, 2, col, NULL)))
			return rc;
	}
	return TS_OK;
}

long ts_formula_by_name(void *names, const char *name, size_t len)
{
	const struct ts_formula_names *list = names;
	size_t i;

	for (i = 0; list && i < list->n; i++)
		if (strlen(list->names[i]) == len &&
		    !memcmp(list->names[i], name, len))
			return (long)i;
	return -1;
}

int ts_formula_compile(const char *text, const struct ts_formula_vars *vars,
		       const struct ts_logger *lg, struct ts_formula **out,
		       struct ts_error *err)
{
	struct parser p = { .text = text, .vars = vars, .err = err };
	struct ts_formula *f;
	size_t len;
	int rc;

	*out = NULL;
	if (!text)
		return ts_error_set(err, TS_EINVAL, -1, "no formula given");
	len = strlen(text);
	if (len > TS_FORMULA_MAX_LEN)
		return ts_error_set(
			err, TS_ERANGE, TS_FORMULA_MAX_LEN + 1,
			"column %d: formula longer than %d characters",
			TS_FORMULA_MAX_LEN + 1, TS_FORMULA_MAX_LEN);
	f = calloc(1, sizeof(*f));
	if (!f)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	/* Every instruction comes from its own token of >= 1 character. */
	p.cap = len ? len : 1;
	f->code = malloc(p.cap * sizeof(*f->code));
	f->names = malloc(2 * len + 1);
	if (!f->code || !f->names) {
		ts_formula_free(f);
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	}
	f->reported = &f->reported_store;
	atomic_init(f->reported, 0);
	if (lg)
		f->logger = *lg;
	p.f = f;

	rc = next(&p);
	if (!rc)
		rc = parse_expr(&p);
	if (!rc && p.tok != T_END)
		rc = expected(&p, "an operator or end of formula");
	if (rc) {
		ts_formula_free(f);
		return rc;
	}
	*out = f;
	return TS_OK;
}

void ts_formula_free(struct ts_formula *f)
{
	if (!f)
		return;
	free(f->code);
	free(f->names);
	free(f);
}

/* ------------------------------------------------------------------ */
/* Evaluation                                                           */
/* ------------------------------------------------------------------ */

static const char *op_name(enum op op)
{
	static const char *const names[] = {
		[OP_NUM] = "number",  [OP_VAR] = "variable",
		[OP_NEG] = "'-'",     [OP_ADD] = "'+'",
		[OP_SUB] = "'-'",     [OP_MUL] = "'*'",
		[OP_DIV] = "'/'",     [OP_POW] = "'^'",
		[OP_POWF] = "pow()",  [OP_EXP] = "exp()",
		[OP_LOG] = "log()",   [OP_SQRT] = "sqrt()",
		[OP_ABS] = "abs()",   [OP_FLOOR] = "floor()",
		[OP_CEIL] = "ceil()", [OP_MIN] = "min()",
		[OP_MAX] = "max()",
	};
	return names[op];
}

/* Rare path: note the fault, log it the first time, value 0. */
static double fault(const struct ts_formula *f, const struct insn *in,
		    unsigned kind, double value, unsigned *faults)
{
	char what[96];

	if (faults)
		*faults |= kind;
	if (atomic_load_explicit(f->reported, memory_order_relaxed) & kind)
		return 0.0;
	if (atomic_fetch_or(f->reported, kind) & kind)
		return 0.0; /* another thread logged it first */
	switch (kind) {
	case TS_FORMULA_DIVZERO:
		snprintf(what, sizeof(what), "%s",
			 in->op == OP_DIV
				 ? "division by zero"
				 : "division by zero: 0 to a negative power");
		break;
	case TS_FORMULA_DOMAIN:
		snprintf(what, sizeof(what), "domain error in %s",
			 op_name(in->op));
		break;
	case TS_FORMULA_OVERFLOW:
		snprintf(what, sizeof(what), "overflow in %s", op_name(in->op));
		break;
	default:
		snprintf(what, sizeof(what), "variable '%s' is %s",
			 f->names + in->name,
			 isnan(value) ? "NaN" : "infinite");
	}
	ts_log(&f->logger, TS_LOG_ERROR,
	       "formula: %s at column %u; the formula's value is 0 (reported once)",
	       what, in->col);
	return 0.0;
}

double ts_formula_eval(const struct ts_formula *f, const double *vars,
		       unsigned *faults)
{
	double st[TS_FORMULA_MAX_STACK];
	size_t sp = 0, i, k;

	if (faults)
		*faults = 0;
	if (!f)
		return 0.0;
	for (i = 0; i < f->n; i++) {
		const struct insn *in = &f->code[i];
		double a, b, r;

		switch ((enum op)in->op) {
		case OP_NUM:
			st[sp++] = in->u.num;
			continue;
		case OP_VAR:
			r = vars[in->u.var];
			if (!isfinite(r))
				return fault(f, in, TS_FORMULA_NONFINITE, r,
					     faults);
			st[sp++] = r;
			continue;
		case OP_NEG:
			st[sp - 1] = -st[sp - 1];
			continue;
		case OP_ADD:
			b = st[--sp];
			r = st[sp - 1] + b;
			break;
		case OP_SUB:
			b = st[--sp];
			r = st[sp - 1] - b;
			break;
		case OP_MUL:
			b = st[--sp];
			r = st[sp - 1] * b;
			break;
		case OP_DIV:
			b = st[--sp];
			if (b == 0.0)
				return fault(f, in, TS_FORMULA_DIVZERO, 0,
					     faults);
			r = st[sp - 1] / b;
			break;
		case OP_POW:
		case OP_POWF:
			b = st[--sp];
			a = st[sp - 1];
			r = pow(a, b);
			if (isnan(r))
				return fault(f, in, TS_FORMULA_DOMAIN, 0,
					     faults);
			if (isinf(r) && a == 0.0)
				return fault(f, in, TS_FORMULA_DIVZERO, 0,
					     faults);
			break;
		case OP_EXP:
			r = exp(st[sp - 1]);
			break;
		case OP_LOG:
			a = st[sp - 1];
			if (a <= 0.0)
				return fault(f, in, TS_FORMULA_DOMAIN, 0,
					     faults);
			r = log(a);
			break;
		case OP_SQRT:
			a = st[sp - 1];
			if (a < 0.0)
				return fault(f, in, TS_FORMULA_DOMAIN, 0,
					     faults);
			r = sqrt(a);
			break;
		case OP_ABS:
			r = fabs(st[sp - 1]);
			break;
		case OP_FLOOR:
			r = floor(st[sp - 1]);
			break;
		case OP_CEIL:
			r = ceil(st[sp - 1]);
			break;
		case OP_MIN:
		case OP_MAX:
			sp -= in->argc - 1;
			r = st[sp - 1];
			for (k = 1; k < in->argc; k++) {
				b = st[sp - 1 + k];
				if (in->op == OP_MIN ? b < r : b > r)
					r = b;
			}
			break;
		default:
			return 0.0;
		}
		if (!isfinite(r))
			return fault(f, in, TS_FORMULA_OVERFLOW, r, faults);
		st[sp - 1] = r;
	}
	return sp == 1 ? st[0] : 0.0;
}

/* ------------------------------------------------------------------ */
/* Printing                                                             */
/* ------------------------------------------------------------------ */

struct out {
	char *buf;
	size_t size, len;
};

static void print_text(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->len + 1 < o->size) {
		size_t room = o->size - 1 - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
		o->buf[o->len + (n < room ? n : room)] = '\0';
	}
	o->len += n;
}

/* Binding strength: what may appear unparenthesised as an operand. */
static int prec(enum op op)
{
	switch (op) {
	case OP_ADD:
	case OP_SUB:
		return 1;
	case OP_MUL:
	case OP_DIV:
		return 2;
	case OP_NEG:
		return 3;
	case OP_POW:
		return 4;
	default:
		return 5;
	}
}

static void print_node(const struct ts_formula *f, size_t i, struct out *o);

static void print_operand(const struct ts_formula *f, size_t i, int min,
			  struct out *o)
{
	if (prec(f->code[i].op) >= min) {
		print_node(f, i, o);
		return;
	}
	print_text(o, "(");
	print_node(f, i, o);
	print_text(o, ")");
}

/* Operand k (0-based) of the instruction at i. */
static size_t operand(const struct ts_formula *f, size_t i, unsigned k)
{
	size_t end = i - 1;
	unsigned j;

	for (j = f->code[i].argc - 1; j > k; j--)
		end -= f->code[end].span;
	return end;
}

/*
 * Print the subexpression whose last instruction is i, with only the
 * parentheses operator precedence needs (print_operand()).
 */
static void print_node(const struct ts_formula *f, size_t i, struct out *o)
{
	static const char *const infix[] = {
		[OP_ADD] = " + ", [OP_SUB] = " - ", [OP_MUL] = " * ",
		[OP_DIV] = " / ", [OP_POW] = "^",
	};
	const struct insn *in = &f->code[i];
	char num[40];
	unsigned k;

	switch ((enum op)in->op) {
	case OP_NUM:
		ts_decimal_format(in->u.num, num, sizeof(num));
		print_text(o, num);
		return;
	case OP_VAR:
		print_text(o, f->names + in->name);
		return;
	case OP_NEG:
		print_text(o, "-");
		print_operand(f, i - 1, 3, o);
		return;
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_DIV:
	case OP_POW: {
		int p = prec(in->op);

		/* left-associative: the right operand binds tighter; ^ is
		 * right-associative and its base must be a primary */
		print_operand(f, operand(f, i, 0), in->op == OP_POW ? 5 : p, o);
		print_text(o, infix[in->op]);
		print_operand(f, i - 1, in->op == OP_POW ? 3 : p + 1, o);
		return;
	}
	default:
		for (k = 0; k < N_FUNCTIONS; k++)
			if (functions[k].op == (enum op)in->op)
				print_text(o, functions[k].name);
		print_text(o, "(");
		for (k = 0; k < in->argc; k++) {
			if (k)
				print_text(o, ", ");
			print_node(f, operand(f, i, k), o);
		}
		print_text(o, ")");
	}
}

int ts_formula_print(const struct ts_formula *f, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	if (f && f->n)
		print_node(f, f->n - 1, &o);
	return (int)o.len;
}

size_t ts_formula_var_span(const struct ts_formula *f)
{
	return f ? f->var_span : 0;
}

size_t ts_formula_stack_depth(const struct ts_formula *f)
{
	return f ? f->depth : 0;
}

unsigned ts_formula_reported(const struct ts_formula *f)
{
	return f ? atomic_load(f->reported) : 0;
}
