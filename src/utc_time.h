/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * utc_time.h - a Unix time as ISO 8601 UTC text, the one way treeshare's
 * logs and messages show an absolute time ("2026-03-01T12:00:00Z").
 * A pure conversion: reads no clock.
 */
#ifndef TS_UTC_TIME_H
#define TS_UTC_TIME_H

#include <stddef.h>
#include <stdint.h>

/*
 * ts_utc_time() - t as "YYYY-MM-DDTHH:MM:SSZ" in buf[0 .. len), or as the
 * decimal number when it has no such form or does not fit (len of at
 * least 21 always fits either).  RET buf.
 */
char *ts_utc_time(int64_t t, char *buf, size_t len);

#endif /* TS_UTC_TIME_H */
