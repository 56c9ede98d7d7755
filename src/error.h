/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * error.h - how libtreeshare reports failure.
 *
 * The library never prints and never exits.  A function that can fail
 * returns TS_OK or a TS_E* code and fills a struct ts_error with a message
 * and a position (node, job, line or column).  The first error set wins,
 * so the caller sees the cause, not a consequence.
 */
#ifndef TS_ERROR_H
#define TS_ERROR_H

#include <stddef.h>
#include <string.h>

enum ts_code {
	TS_OK = 0,
	TS_EINVAL,    /* bad argument or malformed input */
	TS_ENOMEM,    /* allocation failed */
	TS_ERANGE,    /* value out of its documented range */
	TS_ESYNTAX,   /* formula or config text does not parse */
	TS_EKEY,      /* unknown key */
	TS_EIO,	      /* read or write failed (errno in the message) */
	TS_ECORRUPT,  /* stored data fails its checks */
	TS_ENOENT,    /* named entity or file not found */
	TS_EBUSY,     /* limit reached, try later */
	TS_ETIMEDOUT, /* an external command or peer did not answer */
	TS_ECODE_COUNT
};

/*
 * A message names what is wrong first (key, column, file), so that the
 * part a reader needs comes before anything long; a value taken from the
 * input is quoted cut short (TS_ERROR_QUOTE characters, then "...").  A
 * message that still does not fit (paths near PATH_MAX) ends in "...":
 * a cut is never silent.
 */
#define TS_ERROR_MSG_MAX 1024
#define TS_ERROR_QUOTE	 40

/*
 * TS_QUOTE(s) - the arguments of TS_QUOTE_FMT ("%.*s%s") for input text
 * s: at most TS_ERROR_QUOTE characters of it, then "..." if it was cut.
 */
#define TS_QUOTE_FMT "%.*s%s"
#define TS_QUOTE(s)                                                            \
	(int)TS_ERROR_QUOTE, (s), (strlen(s) > TS_ERROR_QUOTE ? "..." : "")

/*
 * ts_quote() - bytes taken from a file (or any untrusted text), made safe
 * for a log line: printable ASCII as is, except backslash and both quotes
 * (\\ \' \"); every other byte (tab, newline, ESC and the other control
 * characters, DEL, bytes above 0x7f, NUL) as \xNN.  At most TS_ERROR_QUOTE bytes of
 * the input are shown; when some are left out the text ends in "...".
 * len bytes of bytes are read (NULs included).  buf receives the text,
 * NUL-terminated; TS_QUOTE_SIZE bytes hold any input, a smaller buf cuts
 * it sooner (still with "...").  RET buf, for use as a "%s" argument.
 * Error columns and lines count the input bytes, never these escapes.
 */
#define TS_QUOTE_SIZE (4 * TS_ERROR_QUOTE + 4)
const char *ts_quote(char *buf, size_t size, const void *bytes, size_t len);

struct ts_error {
	int code;   /* TS_OK or TS_E*; the first error set wins */
	long index; /* node, job, line or column (1-based); -1 if none */
	char msg[TS_ERROR_MSG_MAX]; /* "node 3: parent 7 is not before it" */
};
/* clang-format 14 would spread this initializer over four lines. */
/* clang-format off */
#define TS_ERROR_INIT { TS_OK, -1, "" }
/* clang-format on */

/*
 * ts_error_set() - record an error unless one is already recorded.
 * err may be NULL.  A message too long for msg ends in "...".
 * RET code, so "return ts_error_set(...)" works.
 */
int ts_error_set(struct ts_error *err, int code, long index, const char *fmt,
		 ...) __attribute__((format(printf, 4, 5)));

/* ts_error_clear() - reset err to TS_ERROR_INIT. */
void ts_error_clear(struct ts_error *err);

/* ts_strerror() - short name of a code: "invalid argument", ... */
const char *ts_strerror(int code);

#endif /* TS_ERROR_H */
