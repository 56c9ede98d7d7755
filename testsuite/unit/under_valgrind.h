/* SPDX-License-Identifier: GPL-2.0-or-later */
/* under_valgrind.h - whether the unit tests run under valgrind (stage unit-valgrind). */
#ifndef TS_UNIT_UNDER_VALGRIND_H
#define TS_UNIT_UNDER_VALGRIND_H

#include <stdlib.h>
#include <string.h>

/*
 * valgrind preloads its own malloc() and computes long double at double
 * precision; tests whose checks depend on either ask here.
 */
static inline int under_valgrind(void)
{
	const char *pre = getenv("LD_PRELOAD");

	return pre && strstr(pre, "vgpreload");
}

#endif
