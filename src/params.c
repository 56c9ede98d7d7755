/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * params.c - split "key=value,key=\"v, w\"" into an owned list (rules in
 * params.h).
 *
 * One pass over the text, one allocation for the item array (one entry
 * per comma + 1 bounds it) and one for the strings: every key and value
 * is a copy no longer than its source plus a NUL, so 2 * len + 2 bytes
 * always suffice.  Lookups compare keys in place and allocate nothing.
 *
 * Edge cases: NULL and "" are empty lists; "a=1,,b=2" and ",a=1," are two
 * and one item; "=1" has no key; "a" has no "="; "a=\"x" is unclosed;
 * "a=\"x\"y" has text after the closing quote; "a=x\"y" has a quote in
 * an unquoted value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "params.h"

struct scan {
	const char *text;
	size_t pos;
	char *out; /* next free byte of the strings block */
	struct ts_error *err;
};

static int is_space_or_tab(char c)
{
	return c == ' ' || c == '\t';
}

static int is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static void skip_blanks(struct scan *s)
{
	while (is_space_or_tab(s->text[s->pos]))
		s->pos++;
}

/* "'x'", "end of text", "byte 0x01" for messages. */
static const char *describe_char(char c, char *buf, size_t size)
{
	if (c == '\0')
		return "end of text";
	if ((unsigned char)c > ' ' && (unsigned char)c < 127)
		snprintf(buf, size, "'%c'", c);
	else
		snprintf(buf, size, "byte 0x%02x", (unsigned char)c);
	return buf;
}

/* Copy a quoted value; s->pos is at the opening quote. */
static int quoted_value(struct scan *s, const char *key, char *dst)
{
	char q = s->text[s->pos], buf[16];
	size_t open = s->pos;

	s->pos++;
	for (;;) {
		char c = s->text[s->pos];

		if (c == '\0' || (c == '\\' && s->text[s->pos + 1] == '\0'))
			return ts_error_set(
				s->err, TS_ESYNTAX, (long)open + 1,
				TS_QUOTE_FMT
				": quote opened at column %zu is not closed",
				TS_QUOTE(key), open + 1);
		if (c == q)
			break;
		if (c == '\\') {
			char e = s->text[s->pos + 1];

			if (e != q && e != '\\')
				return ts_error_set(
					s->err, TS_ESYNTAX, (long)s->pos + 1,
					TS_QUOTE_FMT
					": column %zu: unknown escape \\ before %s (inside %c...%c only \\%c and \\\\ are escapes)",
					TS_QUOTE(key), s->pos + 1,
					describe_char(e, buf, sizeof(buf)), q,
					q, q);
			c = e;
			s->pos++;
		}
		*dst++ = c;
		s->pos++;
	}
	*dst = '\0';
	s->pos++;
	skip_blanks(s);
	if (s->text[s->pos] != ',' && s->text[s->pos] != '\0')
		return ts_error_set(
			s->err, TS_ESYNTAX, (long)s->pos + 1,
			TS_QUOTE_FMT
			": column %zu: expected ',' after the closing quote, found %s",
			TS_QUOTE(key), s->pos + 1,
			describe_char(s->text[s->pos], buf, sizeof(buf)));
	s->out = dst + 1;
	return TS_OK;
}

/* Copy an unquoted value up to the next comma, trailing blanks dropped. */
static int plain_value(struct scan *s, const char *key, char *dst)
{
	size_t start = s->pos, end;

	while (s->text[s->pos] != ',' && s->text[s->pos] != '\0') {
		char c = s->text[s->pos];

		if (c == '"' || c == '\'')
			return ts_error_set(
				s->err, TS_ESYNTAX, (long)s->pos + 1,
				TS_QUOTE_FMT
				": column %zu: quote inside an unquoted value (quote the whole value)",
				TS_QUOTE(key), s->pos + 1);
		s->pos++;
	}
	end = s->pos;
	while (end > start && is_space_or_tab(s->text[end - 1]))
		end--;
	memcpy(dst, s->text + start, end - start);
	dst[end - start] = '\0';
	s->out = dst + (end - start) + 1;
	return TS_OK;
}

/* One non-empty item; s->pos is at its first non-blank character. */
static int item(struct scan *s, const struct ts_params *list,
		struct ts_param *it)
{
	size_t start = s->pos, len, i;
	char buf[16], *key;
	int rc;

	while (is_key_char(s->text[s->pos]))
		s->pos++;
	len = s->pos - start;
	if (!len)
		return ts_error_set(
			s->err, TS_ESYNTAX, (long)start + 1,
			"column %zu: expected a key name, found %s", start + 1,
			describe_char(s->text[start], buf, sizeof(buf)));
	key = s->out;
	memcpy(key, s->text + start, len);
	key[len] = '\0';
	s->out += len + 1;
	it->key = key;
	it->key_col = (long)start + 1;
	for (i = 0; i < list->n; i++)
		if (!strcasecmp(list->item[i].key, key))
			return ts_error_set(
				s->err, TS_ESYNTAX, it->key_col,
				TS_QUOTE_FMT
				": column %ld: key given twice (first at column %ld)",
				TS_QUOTE(key), it->key_col,
				list->item[i].key_col);
	skip_blanks(s);
	if (s->text[s->pos] != '=')
		return ts_error_set(
			s->err, TS_ESYNTAX, (long)s->pos + 1,
			TS_QUOTE_FMT
			": column %zu: expected '=' after the key, found %s",
			TS_QUOTE(key), s->pos + 1,
			describe_char(s->text[s->pos], buf, sizeof(buf)));
	s->pos++;
	skip_blanks(s);
	it->value_col = (long)s->pos + 1;
	it->value = s->out;
	it->quote = 0;
	if (s->text[s->pos] == '"' || s->text[s->pos] == '\'') {
		it->quote = s->text[s->pos];
		rc = quoted_value(s, key, s->out);
	} else {
		rc = plain_value(s, key, s->out);
	}
	return rc;
}

int ts_params_parse(const char *text, struct ts_params *out,
		    struct ts_error *err)
{
	struct scan s = { .text = text, .err = err };
	size_t len, commas = 0, i;
	int rc = TS_OK;

	out->item = NULL;
	out->n = 0;
	out->strings = NULL;
	if (!text || !*text)
		return TS_OK;
	len = strlen(text);
	for (i = 0; i < len; i++)
		commas += text[i] == ',';
	out->item = calloc(commas + 1, sizeof(*out->item));
	out->strings = malloc(2 * len + 2);
	if (!out->item || !out->strings) {
		ts_params_free(out);
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	}
	s.out = out->strings;
	for (;;) {
		skip_blanks(&s);
		if (text[s.pos] == '\0')
			break;
		if (text[s.pos] == ',') {
			s.pos++;
			continue;
		}
		rc = item(&s, out, &out->item[out->n]);
		if (rc)
			break;
		out->n++;
	}
	if (rc)
		ts_params_free(out);
	return rc;
}

const struct ts_param *ts_params_find(const struct ts_params *p,
				      const char *key)
{
	size_t i;

	for (i = 0; p && i < p->n; i++)
		if (!strcasecmp(p->item[i].key, key))
			return &p->item[i];
	return NULL;
}

void ts_params_free(struct ts_params *p)
{
	if (!p)
		return;
	free(p->item);
	free(p->strings);
	p->item = NULL;
	p->strings = NULL;
	p->n = 0;
}

static void put_char(char *buf, size_t size, size_t *len, char c)
{
	if (*len + 1 < size)
		buf[*len] = c;
	(*len)++;
}

int ts_params_quote(const char *value, char *buf, size_t size)
{
	size_t n = strlen(value), len = 0;
	int plain = n && !strpbrk(value, ",\"'\\ \t");

	if (plain)
		return snprintf(buf, size, "%s", value);
	put_char(buf, size, &len, '"');
	for (; *value; value++) {
		if (*value == '"' || *value == '\\')
			put_char(buf, size, &len, '\\');
		put_char(buf, size, &len, *value);
	}
	put_char(buf, size, &len, '"');
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	return (int)len;
}
