/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_params - the PriorityParameters list parser and the typed settings
 * on arbitrary text (up to the first NUL byte).  Checked on every input,
 * abort() otherwise:
 *   - a refused text has an error code, a message and a column within
 *     1 .. length + 1, and leaves an empty list / default settings;
 *   - every parsed item is found again by its key, and its value survives
 *     ts_params_quote() and a second parse byte for byte;
 *   - accepted settings render to a text that parses to settings that
 *     render the same.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "settings.h"

static const char *const names[] = {
	"age",
	"assoc",
	"fairshare",
	"jobsize",
	"partition",
	"qos",
	"site",
	"nice",
	"fairshare_tree_usage",
	"fairshare_perc",
	"fairshare_factor",
};
static struct ts_formula_names name_list = { names,
					     sizeof(names) / sizeof(names[0]) };
static const struct ts_formula_vars vars = { ts_formula_by_name, &name_list };

static void check_error(const struct ts_error *err, size_t len)
{
	if (err->code == TS_OK || !err->msg[0])
		abort();
	if (err->code != TS_ENOMEM &&
	    (err->index < 1 || (size_t)err->index > len + 1))
		abort();
}

static void check_list(const struct ts_params *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		const struct ts_param *it = &p->item[i];
		struct ts_params back;
		struct ts_error err = TS_ERROR_INIT;
		char *text;
		int n;

		if (ts_params_find(p, it->key) != it || !it->key[0])
			abort();
		n = ts_params_quote(it->value, NULL, 0);
		text = malloc((size_t)n + 3);
		if (!text)
			abort();
		memcpy(text, "k=", 2);
		ts_params_quote(it->value, text + 2, (size_t)n + 1);
		if (ts_params_parse(text, &back, &err) != TS_OK ||
		    back.n != 1 || strcmp(back.item[0].value, it->value))
			abort();
		ts_params_free(&back);
		free(text);
	}
}

static void check_settings(const char *text, size_t len)
{
	struct ts_settings s, t;
	struct ts_error err = TS_ERROR_INIT;
	char *r1, *r2;
	int n;

	if (ts_settings_parse(text, &vars, NULL, &s, &err) != TS_OK) {
		check_error(&err, len);
		if (s.given || s.formula || s.fs_targets)
			abort();
		return;
	}
	n = ts_settings_render(&s, NULL, 0);
	r1 = malloc((size_t)n + 1);
	r2 = malloc((size_t)n + 1);
	if (!r1 || !r2)
		abort();
	ts_settings_render(&s, r1, (size_t)n + 1);
	/* a canonical formula longer than the limit cannot be read back */
	if (!s.formula || n <= TS_FORMULA_MAX_LEN) {
		if (ts_settings_parse(r1, &vars, NULL, &t, &err) != TS_OK)
			abort();
		if (ts_settings_render(&t, r2, (size_t)n + 1) != n ||
		    strcmp(r1, r2))
			abort();
		ts_settings_free(&t);
	}
	free(r1);
	free(r2);
	ts_settings_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = strnlen((const char *)data, size);
	struct ts_params p;
	struct ts_error err = TS_ERROR_INIT;
	char *text = malloc(len + 1);

	if (!text)
		return 0;
	memcpy(text, data, len);
	text[len] = '\0';
	if (ts_params_parse(text, &p, &err) == TS_OK) {
		check_list(&p);
		ts_params_free(&p);
	} else {
		check_error(&err, len);
		if (p.n || p.item || p.strings)
			abort();
	}
	check_settings(text, len);
	free(text);
	return 0;
}
