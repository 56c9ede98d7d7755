/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cycle_gate.c - hold the decay thread between cycles (see cycle_gate.h).
 *
 * Waits use a CLOCK_MONOTONIC condition variable: the wall clock is fake
 * (fake_clock.h) and lies in the past.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

#include "cycle_gate.h"
#include "fake_clock.h"

/* Guards every variable below; cond signals any change of them. */
static pthread_mutex_t gate_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond;
static pthread_once_t gate_once = PTHREAD_ONCE_INIT;
static unsigned ended;		/* cycles ended */
static unsigned allowed = 1;	/* cycles the thread may run */
static int open_forever;	/* shutting down: never hold */
static int stop_armed;		/* a restart's fini() is under way */
static int stop_release;	/* ... and has joined: let the held go */
static long long started_ns;	/* real start of the running cycle */
static long long ended_ns[128]; /* real end of cycle n, n < 128 */

static void gate_init(void)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&gate_cond, &attr);
	pthread_condattr_destroy(&attr);
}

void th_gate_cycle_ended(void)
{
	long long now = th_clock_mono_ns();

	pthread_once(&gate_once, gate_init);
	pthread_mutex_lock(&gate_mutex);
	ended++;
	if (ended < sizeof(ended_ns) / sizeof(ended_ns[0]))
		ended_ns[ended] = now - started_ns;
	pthread_cond_broadcast(&gate_cond);
	while (!open_forever && !stop_release && ended >= allowed)
		pthread_cond_wait(&gate_cond, &gate_mutex);
	pthread_mutex_unlock(&gate_mutex);
}

bool th_gate_wait(unsigned n, unsigned timeout_s, long long *ns)
{
	struct timespec deadline;
	bool done;

	pthread_once(&gate_once, gate_init);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_s;
	pthread_mutex_lock(&gate_mutex);
	while (ended < n) {
		if (pthread_cond_timedwait(&gate_cond, &gate_mutex,
					   &deadline) == ETIMEDOUT)
			break;
	}
	done = ended >= n;
	if (done && ns)
		*ns = n < sizeof(ended_ns) / sizeof(ended_ns[0]) ? ended_ns[n]
								 : -1;
	pthread_mutex_unlock(&gate_mutex);
	return done;
}

void th_gate_start_at(unsigned done)
{
	pthread_once(&gate_once, gate_init);
	pthread_mutex_lock(&gate_mutex);
	ended = done;
	allowed = done + 1;
	pthread_mutex_unlock(&gate_mutex);
}

void th_gate_arm(void)
{
	pthread_once(&gate_once, gate_init);
	pthread_mutex_lock(&gate_mutex);
	started_ns = th_clock_mono_ns();
	pthread_mutex_unlock(&gate_mutex);
}

void th_gate_allow(unsigned n)
{
	pthread_once(&gate_once, gate_init);
	pthread_mutex_lock(&gate_mutex);
	allowed = n;
	started_ns = th_clock_mono_ns();
	pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_mutex);
}

void th_gate_open(void)
{
	pthread_once(&gate_once, gate_init);
	pthread_mutex_lock(&gate_mutex);
	open_forever = 1;
	pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_mutex);
}

void th_gate_arm_stop(void)
{
	pthread_once(&gate_once, gate_init);
	pthread_mutex_lock(&gate_mutex);
	stop_armed = 1;
	pthread_mutex_unlock(&gate_mutex);
}

void th_gate_disarm_stop(void)
{
	pthread_once(&gate_once, gate_init);
	pthread_mutex_lock(&gate_mutex);
	stop_armed = 0;
	stop_release = 0;
	pthread_mutex_unlock(&gate_mutex);
}

/*
 * The plugin's fini() joins its decay thread after telling it to stop;
 * the thread is held here at the end of its last cycle.  So, during a
 * restart, a pthread_join() releases it: it then sees its stop flag
 * before starting another cycle.  Any other join passes straight on.
 */
int pthread_join(pthread_t thread, void **retval)
{
	static int (*real_join)(pthread_t, void **);

	if (!real_join)
		*(void **)&real_join = dlsym(RTLD_NEXT, "pthread_join");
	pthread_once(&gate_once, gate_init);
	pthread_mutex_lock(&gate_mutex);
	if (stop_armed) {
		stop_release = 1;
		pthread_cond_broadcast(&gate_cond);
	}
	pthread_mutex_unlock(&gate_mutex);
	return real_join(thread, retval);
}

unsigned th_gate_cycles(void)
{
	unsigned n;

	pthread_mutex_lock(&gate_mutex);
	n = ended;
	pthread_mutex_unlock(&gate_mutex);
	return n;
}
