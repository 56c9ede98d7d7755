/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * error_once.c - the last refusal logged, remembered (see error_once.h).
 */
#include "slurmctld_api.h"

#include <pthread.h>
#include <string.h>

#include "error_once.h"

/* The line logged last; survives an unload (-z nodelete).  Under mutex. */
static pthread_mutex_t once_mutex = PTHREAD_MUTEX_INITIALIZER;
static char *last;

void error_once(const char *line)
{
	bool again;

	slurm_mutex_lock(&once_mutex);
	again = last && !strcmp(line, last);
	if (!again) {
		xfree(last);
		last = xstrdup(line);
	}
	slurm_mutex_unlock(&once_mutex);
	if (again)
		debug("%s: %s (again)", plugin_type, line);
	else
		error("%s: %s", plugin_type, line);
}
