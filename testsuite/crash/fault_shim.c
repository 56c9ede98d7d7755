/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fault_shim.c - LD_PRELOAD library that kills the process (SIGKILL, as
 * kill -9) or fails a call at a chosen step of priority/treeshare's state
 * save, for the crash tests (testsuite/crash/, docs/ts-crash.7).  Test
 * only; never installed.
 *
 * A save begins when a file named treeshare_state.new is created in
 * TS_FAULT_DIR.  From there its steps are counted, one per call that
 * changes or syncs a state file of that directory (a file whose name
 * begins with treeshare_state or priority_last_decay_ran, or the
 * directory itself):
 *   open(O_CREAT) write fsync close unlink link rename fsync(dir)
 * so a save of the two files is 16 steps (atomic_file.h's 4 steps each).
 * Reads are not counted.
 *
 * Environment:
 *   TS_FAULT_DIR     the StateSaveLocation (required; else no effect)
 *   TS_FAULT_SAVE    which save, 1 = the first after the process started
 *                    (default 1)
 *   TS_FAULT_STEP    the step to act at, before it runs; 0 or unset:
 *                    count and log only
 *   TS_FAULT_ACTION  kill (default): SIGKILL before the step;
 *                    torn: at a write, write the first half, then SIGKILL;
 *                    eio, enospc: the step fails with that errno (once)
 *   TS_FAULT_LOG     append one line per counted step ("save 2 step 7:
 *                    rename /x/treeshare_state.new /x/treeshare_state")
 *                    and one for the action
 *   TS_FAULT_IF_ENV  act only in a process whose environment has this
 *                    variable (SLURMCTLD_RECONF: the new slurmctld a
 *                    24.11+ reconfigure starts, not the one started)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FD 65536

enum action { ACT_KILL, ACT_TORN, ACT_EIO, ACT_ENOSPC };

static pthread_mutex_t shim_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t shim_once = PTHREAD_ONCE_INIT;
static char dir[4096];
static size_t dir_len;
static long want_save = 1, want_step;
static enum action action;
static const char *log_path;
static long save, step;	     /* the current save and its steps so far */
static int done;	     /* the action was taken (eio, enospc: once) */
static char tracked[MAX_FD]; /* 1: a state file open to write; 2: dir */

static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_close)(int);
static int (*real_unlink)(const char *);
static int (*real_link)(const char *, const char *);
static int (*real_rename)(const char *, const char *);

static void shim_init(void)
{
	const char *v;

	*(void **)&real_open = dlsym(RTLD_NEXT, "open");
	*(void **)&real_open64 = dlsym(RTLD_NEXT, "open64");
	*(void **)&real_write = dlsym(RTLD_NEXT, "write");
	*(void **)&real_fsync = dlsym(RTLD_NEXT, "fsync");
	*(void **)&real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
	*(void **)&real_close = dlsym(RTLD_NEXT, "close");
	*(void **)&real_unlink = dlsym(RTLD_NEXT, "unlink");
	*(void **)&real_link = dlsym(RTLD_NEXT, "link");
	*(void **)&real_rename = dlsym(RTLD_NEXT, "rename");
	v = getenv("TS_FAULT_IF_ENV");
	if (v && *v && !getenv(v))
		return; /* not the process to act in: no effect */
	v = getenv("TS_FAULT_DIR");
	if (v && *v && strlen(v) < sizeof(dir)) {
		strcpy(dir, v);
		dir_len = strlen(dir);
		while (dir_len > 1 && dir[dir_len - 1] == '/')
			dir[--dir_len] = '\0';
	}
	if ((v = getenv("TS_FAULT_SAVE")))
		want_save = strtol(v, NULL, 10);
	if ((v = getenv("TS_FAULT_STEP")))
		want_step = strtol(v, NULL, 10);
	v = getenv("TS_FAULT_ACTION");
	if (v && !strcmp(v, "torn"))
		action = ACT_TORN;
	else if (v && !strcmp(v, "eio"))
		action = ACT_EIO;
	else if (v && !strcmp(v, "enospc"))
		action = ACT_ENOSPC;
	log_path = getenv("TS_FAULT_LOG");
}

static void note(const char *fmt, ...)
{
	char line[8400];
	va_list ap;
	int fd, n;

	if (!log_path)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	fd = real_open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
		       0644);
	if (fd < 0)
		return;
	if (real_write(fd, line, (size_t)n) < 0)
		n = 0;
	real_close(fd);
}

/* A state file (or the directory itself) of TS_FAULT_DIR? */
static int is_state_path(const char *path)
{
	const char *base;

	if (!dir_len || !path || strncmp(path, dir, dir_len))
		return 0;
	if (!path[dir_len])
		return 2;
	if (path[dir_len] != '/')
		return 0;
	base = path + dir_len + 1;
	if (!*base)
		return 2;
	if (strchr(base, '/'))
		return 0;
	return !strncmp(base, "treeshare_state", 15) ||
	       !strncmp(base, "priority_last_decay_ran", 23);
}

/*
 * One counted step of the current save.  RET 0: go on; -1: fail the
 * call with errno set.  Does not return for kill (and torn at a write
 * after writing half).  Caller holds shim_mutex.
 */
static int count(const char *what, int fd, const void *buf, size_t len)
{
	if (save != want_save)
		return 0;
	step++;
	note("save %ld step %ld: %s", save, step, what);
	if (step != want_step || done)
		return 0;
	switch (action) {
	case ACT_TORN:
		if (buf) {
			if (real_write(fd, buf, len / 2) < 0)
				note("torn write failed: %s", strerror(errno));
			note("save %ld step %ld: killed after writing %zu of "
			     "%zu bytes",
			     save, step, len / 2, len);
			kill(getpid(), SIGKILL);
		}
		/* not a write: killed before it, as the plain action */
		__attribute__((fallthrough));
	case ACT_KILL:
		note("save %ld step %ld: killed before it", save, step);
		kill(getpid(), SIGKILL);
		pause();
		return 0;
	case ACT_EIO:
	case ACT_ENOSPC:
		done = 1;
		note("save %ld step %ld: fails with %s", save, step,
		     action == ACT_EIO ? "EIO" : "ENOSPC");
		errno = action == ACT_EIO ? EIO : ENOSPC;
		return -1;
	}
	return 0;
}

static int open_common(int (*real)(const char *, int, ...), const char *path,
		       int flags, mode_t mode)
{
	int kind, fd, writing = (flags & O_ACCMODE) != O_RDONLY;
	char what[8400];

	pthread_once(&shim_once, shim_init);
	kind = is_state_path(path);
	if (!kind || (kind == 1 && !writing) ||
	    (kind == 2 && !(flags & O_DIRECTORY)))
		return real(path, flags, mode);
	pthread_mutex_lock(&shim_mutex);
	if (kind == 1 && (flags & O_CREAT)) {
		size_t n = strlen(path);

		if (n >= 19 && !strcmp(path + n - 19, "treeshare_state.new")) {
			save++;
			step = 0;
		}
		snprintf(what, sizeof(what), "open %s", path);
		if (count(what, -1, NULL, 0)) {
			pthread_mutex_unlock(&shim_mutex);
			return -1;
		}
	}
	fd = real(path, flags, mode);
	if (fd >= 0 && fd < MAX_FD)
		tracked[fd] = (char)kind;
	pthread_mutex_unlock(&shim_mutex);
	return fd;
}

/* The mode argument of open(), present with O_CREAT or O_TMPFILE. */
#define OPEN_MODE(flags, mode)                                                 \
	do {                                                                   \
		va_list ap;                                                    \
		if ((flags) & (O_CREAT | O_TMPFILE)) {                         \
			va_start(ap, flags);                                   \
			(mode) = va_arg(ap, mode_t);                           \
			va_end(ap);                                            \
		}                                                              \
	} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	pthread_once(&shim_once, shim_init);
	return open_common(real_open, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	pthread_once(&shim_once, shim_init);
	return open_common(real_open64 ? real_open64 : real_open, path, flags,
			   mode);
}

/* A step on a tracked fd: RET the call's result, or -1 (errno set). */
static int fd_step(const char *name, int fd, const void *buf, size_t len)
{
	char what[64];
	int rc = 0;

	if (fd < 0 || fd >= MAX_FD || !tracked[fd])
		return 0;
	pthread_mutex_lock(&shim_mutex);
	if (tracked[fd] == 2 && strcmp(name, "fsync")) {
		pthread_mutex_unlock(&shim_mutex);
		return 0; /* only the directory's fsync is a step */
	}
	snprintf(what, sizeof(what), "%s%s fd %d", name,
		 tracked[fd] == 2 ? " (directory)" : "", fd);
	rc = count(what, fd, buf, len);
	pthread_mutex_unlock(&shim_mutex);
	return rc;
}

ssize_t write(int fd, const void *buf, size_t len)
{
	pthread_once(&shim_once, shim_init);
	if (fd_step("write", fd, buf, len))
		return -1;
	return real_write(fd, buf, len);
}

int fsync(int fd)
{
	pthread_once(&shim_once, shim_init);
	if (fd_step("fsync", fd, NULL, 0))
		return -1;
	return real_fsync(fd);
}

int fdatasync(int fd)
{
	pthread_once(&shim_once, shim_init);
	if (fd_step("fsync", fd, NULL, 0))
		return -1;
	return real_fdatasync(fd);
}

int close(int fd)
{
	int rc;

	pthread_once(&shim_once, shim_init);
	rc = fd_step("close", fd, NULL, 0);
	if (fd >= 0 && fd < MAX_FD)
		tracked[fd] = 0;
	if (rc) {
		int e = errno;

		real_close(fd);
		errno = e;
		return -1;
	}
	return real_close(fd);
}

static int path_step(const char *name, const char *a, const char *b)
{
	char what[8400];
	int rc;

	if (is_state_path(a) != 1 && (!b || is_state_path(b) != 1))
		return 0;
	pthread_mutex_lock(&shim_mutex);
	snprintf(what, sizeof(what), "%s %s%s%s", name, a, b ? " " : "",
		 b ? b : "");
	rc = count(what, -1, NULL, 0);
	pthread_mutex_unlock(&shim_mutex);
	return rc;
}

int unlink(const char *path)
{
	pthread_once(&shim_once, shim_init);
	if (path_step("unlink", path, NULL))
		return -1;
	return real_unlink(path);
}

int link(const char *from, const char *to)
{
	pthread_once(&shim_once, shim_init);
	if (path_step("link", from, to))
		return -1;
	return real_link(from, to);
}

int rename(const char *from, const char *to)
{
	pthread_once(&shim_once, shim_init);
	if (path_step("rename", from, to))
		return -1;
	return real_rename(from, to);
}
