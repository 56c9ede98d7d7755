/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake_clock.h - the wall clock a loaded plugin sees.
 *
 * ts-harness defines time(), gettimeofday() and clock_gettime() in the
 * executable and exports them, so the plugin's and libslurmfull's calls
 * bind here instead of glibc.  While the fake clock is on, the wall clock
 * (time(), gettimeofday(), CLOCK_REALTIME*) reads the fixture's "now",
 * which the harness advances by PriorityCalcPeriod between cycles: both
 * plugins see the same instants, so ages and decay are identical.  Every
 * other clock (CLOCK_MONOTONIC, CPU clocks) is the real one.
 *
 * A fake "now" lies in the past, so the decay thread's
 * pthread_cond_timedwait() until "last cycle + PriorityCalcPeriod"
 * returns at once; cycle_gate.h paces the cycles instead.
 */
#ifndef TH_FAKE_CLOCK_H
#define TH_FAKE_CLOCK_H

#include <time.h>

/* th_clock_set() - turn the fake clock on at now. */
void th_clock_set(time_t now);

/* th_clock_advance() - move the fake clock forward by secs. */
void th_clock_advance(time_t secs);

/* th_clock_now() - the fake clock's current value. */
time_t th_clock_now(void);

/* th_clock_real() - the real CLOCK_REALTIME, whatever the fake says. */
time_t th_clock_real(void);

/* th_clock_mono_ns() - the real CLOCK_MONOTONIC in nanoseconds. */
long long th_clock_mono_ns(void);

#endif
