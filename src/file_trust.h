/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_trust.h - who may own a file slurmctld or node_power reads from
 * its configuration (DESIGN.md: "Files named in the configuration are
 * trusted only if root or SlurmUser owns them and no one else can write
 * them").  One rule for both: the plugin's fs_targets= file, node_power's
 * configuration, its programs and password files.
 *
 * ts_trust_check() is the decision alone (owner, mode); ts_trust_open()
 * walks a path itself, so that what was checked is what is read: every
 * symbolic link on the way must be owned by root or SlurmUser (checked
 * on the link itself, as lstat() would), and the final file is checked on
 * the descriptor that is then read (fstat()), never by name before an
 * open.  A link placed by anyone else (say to /etc/shadow) is refused
 * before its target is opened, so no byte of that target is read.
 */
#ifndef TS_FILE_TRUST_H
#define TS_FILE_TRUST_H

#include <stddef.h>

#include "error.h"

/* Who is trusted: root and SlurmUser. */
struct ts_trust {
	unsigned slurm_uid;	/* SlurmUser's uid (0 when root) */
	const char *slurm_user; /* its name, for messages */
};

/* What ts_trust_check() is asked about (0 and 1 as node_power's is_dir). */
enum ts_trust_kind {
	TS_TRUST_FILE = 0,
	TS_TRUST_DIR = 1,  /* a directory above a file */
	TS_TRUST_LINK = 2, /* a symbolic link on the way: owner only */
};

/*
 * ts_trust_check() - may path (of owner uid, named owner_name, and
 * st_mode mode) be trusted?  Only if root or SlurmUser owns it and
 * neither group nor others may write it, except a directory owned by root
 * with the sticky bit (as /tmp), where no one may rename or remove what
 * another owns.  A symbolic link's mode means nothing: only its owner is
 * checked.  what names the key asking ("fs_targets", "key \"capmc_path\"",
 * "" for none).
 * RET TS_OK or TS_EINVAL, the message naming the owner and the mode:
 *   "fs_targets: /etc/t is owned by nobody (uid 65534), not by root or
 *    SlurmUser slurm (uid 64030); mode 0644"
 *   "fs_targets: /etc/t has mode 0666: writable by group or others (chmod
 *    go-w /etc/t); owner root (uid 0)"
 *   "fs_targets: symbolic link /etc/t is owned by nobody (uid 65534), ..."
 */
int ts_trust_check(const char *what, const char *path, unsigned uid,
		   const char *owner_name, unsigned mode,
		   enum ts_trust_kind kind, const struct ts_trust *trust,
		   struct ts_error *err);

/*
 * ts_trust_open() - open the regular file at path (absolute) for reading
 * if it and every symbolic link met on the way pass ts_trust_check().
 * Directories on the way are not checked (a file someone else puts there
 * is theirs, and refused).  At most 40 links are followed.  OUT *fd (the
 * caller closes it), -1 on error.
 * RET TS_OK; TS_ENOENT or TS_EIO ("fs_targets: /etc/t: No such file or
 * directory", "...: not a regular file"); TS_EINVAL as ts_trust_check().
 */
int ts_trust_open(const char *what, const char *path,
		  const struct ts_trust *trust, int *fd, struct ts_error *err);

/*
 * ts_trust_read() - ts_trust_open(), then the whole file as
 * ts_whole_file_read() (at most max bytes).  Errors name what and path.
 */
int ts_trust_read(const char *what, const char *path,
		  const struct ts_trust *trust, size_t max, char **buf,
		  size_t *len, struct ts_error *err);

#endif /* TS_FILE_TRUST_H */
