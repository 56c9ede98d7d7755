/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maui_import.h - fs_import=DIR in slurmctld (issue 27, migration): a
 * Maui or Moab statistics directory's FS.<EPOCH> files as the usage per
 * credential it starts from (src/maui_fs_dir.h, src/maui_fs_history.h).
 * Names are resolved as the targets file's are (cred_table.h): users and
 * groups through the system's databases, accounts (their own
 * association) and QOS in slurmctld's tables under assoc_mgr's read
 * locks, classes by name.  Read only when no usage per credential is
 * saved: the first start with it (usage_windows.c decides).
 */
#ifndef PT_MAUI_IMPORT_H
#define PT_MAUI_IMPORT_H

#include "slurmctld_api.h"

#include "src/credential_usage.h"

#include "priority_conf.h"

/*
 * maui_import_load() - c's fs_import= directory at now into *cu
 * (initialised here with c's windows; free it with ts_cred_usage_free()).
 * The caller holds no assoc_mgr lock.  Logs what was imported.
 * RET 0, or -1 with *msg (xfree it) naming fs_import, the file and the
 * line; nothing is left in *cu then.
 */
int maui_import_load(const struct priority_conf *c, time_t now,
		     struct ts_cred_usage *cu, char **msg);

#endif /* PT_MAUI_IMPORT_H */
