/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_dir.h - a private directory and raw file helpers for the unit
 * tests of the state file formats (test_decay_record.c,
 * test_usage_state.c).  Header-only: each test file has its own copy.
 */
#ifndef TS_TEST_STATE_DIR_H
#define TS_TEST_STATE_DIR_H

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct state_dir {
	char path[64];
};

static inline void state_dir_make(struct state_dir *d, const char *tag)
{
	snprintf(d->path, sizeof(d->path), "/tmp/ts_%s_XXXXXX", tag);
	ck_assert_ptr_nonnull(mkdtemp(d->path));
}

/* "DIR/name" in buf (at least 128 bytes).  RET buf. */
static inline char *state_dir_file(const struct state_dir *d, const char *name,
				   char *buf)
{
	snprintf(buf, 128, "%s/%s", d->path, name);
	return buf;
}

static inline void state_dir_remove(struct state_dir *d)
{
	struct dirent *e;
	DIR *dir = opendir(d->path);
	char f[512];

	ck_assert_ptr_nonnull(dir);
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.' &&
		    (!e->d_name[1] || !strcmp(e->d_name, "..")))
			continue;
		snprintf(f, sizeof(f), "%s/%s", d->path, e->d_name);
		unlink(f);
	}
	closedir(dir);
	ck_assert_int_eq(rmdir(d->path), 0);
}

static inline void state_write_bytes(const char *path, const void *buf,
				     size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

/* The whole file at path (malloc'ed) and its length. */
static inline unsigned char *state_read_bytes(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	buf = malloc(st.st_size + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(read(fd, buf, st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

#endif /* TS_TEST_STATE_DIR_H */
