/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake_clock.c - time(), gettimeofday() and clock_gettime() interposed
 * for the loaded plugin (see fake_clock.h).
 *
 * These definitions are exported by the executable (stubs.list), so the
 * dynamic linker binds every PLT call to them, including glibc-versioned
 * references such as time@GLIBC_2.2.5 in priority_multifactor.so.  The
 * real clocks are reached through the raw system call, which no
 * interposition can redirect.  A mutex guards the fake value so that
 * helgrind sees the harness thread's advance happen before the decay
 * thread's next read.
 */
#include <pthread.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "fake_clock.h"

/* Guards fake_on and fake_now. */
static pthread_mutex_t clock_mutex = PTHREAD_MUTEX_INITIALIZER;
static bool fake_on;
static time_t fake_now;

static int real_clock_gettime(clockid_t id, struct timespec *ts)
{
	return (int)syscall(SYS_clock_gettime, id, ts);
}

static bool fake_value(time_t *now)
{
	bool on;

	pthread_mutex_lock(&clock_mutex);
	on = fake_on;
	*now = fake_now;
	pthread_mutex_unlock(&clock_mutex);
	return on;
}

void th_clock_set(time_t now)
{
	pthread_mutex_lock(&clock_mutex);
	fake_on = true;
	fake_now = now;
	pthread_mutex_unlock(&clock_mutex);
}

void th_clock_advance(time_t secs)
{
	pthread_mutex_lock(&clock_mutex);
	fake_now += secs;
	pthread_mutex_unlock(&clock_mutex);
}

time_t th_clock_now(void)
{
	time_t now;

	fake_value(&now);
	return now;
}

time_t th_clock_real(void)
{
	struct timespec ts;

	real_clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec;
}

long long th_clock_mono_ns(void)
{
	struct timespec ts;

	real_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

time_t time(time_t *out)
{
	time_t now;

	if (!fake_value(&now))
		now = th_clock_real();
	if (out)
		*out = now;
	return now;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct timespec ts;
	time_t now;

	(void)tz;
	if (fake_value(&now)) {
		tv->tv_sec = now;
		tv->tv_usec = 0;
		return 0;
	}
	real_clock_gettime(CLOCK_REALTIME, &ts);
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	time_t now;

	if ((id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) &&
	    fake_value(&now)) {
		ts->tv_sec = now;
		ts->tv_nsec = 0;
		return 0;
	}
	return real_clock_gettime(id, ts);
}
