/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

static const char *const code_names[TS_ECODE_COUNT] = {
	[TS_OK] = "success",
	[TS_EINVAL] = "invalid argument",
	[TS_ENOMEM] = "out of memory",
	[TS_ERANGE] = "value out of range",
	[TS_ESYNTAX] = "syntax error",
	[TS_EKEY] = "unknown key",
	[TS_EIO] = "input/output error",
	[TS_ECORRUPT] = "corrupt data",
	[TS_ENOENT] = "not found",
	[TS_EBUSY] = "busy",
	[TS_ETIMEDOUT] = "timed out",
};

int ts_error_set(struct ts_error *err, int code, long index, const char *fmt,
		 ...)
{
	va_list ap;
	int n;

	if (!err || err->code != TS_OK)
		return code;
	err->code = code;
	err->index = index;
	va_start(ap, fmt);
	n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(err->msg))
		memcpy(err->msg + sizeof(err->msg) - 4, "...", 4);
	return code;
}

void ts_error_clear(struct ts_error *err)
{
	if (!err)
		return;
	err->code = TS_OK;
	err->index = -1;
	err->msg[0] = '\0';
}

/* One input byte as ts_quote() writes it, into out[5]; RET its length. */
static size_t quote_byte(unsigned char c, char *out)
{
	static const char hex[] = "0123456789abcdef";

	if (c == '\\' || c == '\'' || c == '"') {
		out[0] = '\\';
		out[1] = (char)c;
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		out[0] = (char)c;
		return 1;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
	return 4;
}

const char *ts_quote(char *buf, size_t size, const void *bytes, size_t len)
{
	const unsigned char *in = bytes;
	size_t i, at = 0, n, safe = 0; /* safe: "..." still fits after it */
	char one[4];

	if (!size)
		return buf;
	for (i = 0; i < len && i < TS_ERROR_QUOTE; i++) {
		n = quote_byte(in[i], one);
		if (at + n >= size)
			break;
		memcpy(buf + at, one, n);
		at += n;
		if (at + 3 < size)
			safe = at;
	}
	if (i < len) { /* cut: back to where the marker fits */
		at = safe;
		if (at + 3 < size) {
			memcpy(buf + at, "...", 3);
			at += 3;
		}
	}
	buf[at] = '\0';
	return buf;
}

const char *ts_strerror(int code)
{
	if (code < 0 || code >= TS_ECODE_COUNT || !code_names[code])
		return "unknown error";
	return code_names[code];
}
