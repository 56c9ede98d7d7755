/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config_file.h - read node_power's JSON configuration with json-c and
 * hand every member to libtreeshare's src/power/config.c, which owns the
 * keys, types, ranges and defaults.  Then check what only the running
 * system can tell: files exist, programs are executable, password files
 * are private, every poweroff_eligible node can be reached.
 *
 * Every refusal is one line naming the file and the key, member, line
 * and column, or file mode, e.g.
 *   /etc/slurm/node_power.json: line 4, column 3: JSON syntax error: ...
 *   /etc/slurm/node_power.json: unknown key "max_concurent_nodes"
 *   /etc/slurm/node_power.json: bmc n1: password_file /etc/slurm/bmc.pass
 *       has mode 0644: readable by group or others (chmod 600 ...)
 */
#ifndef NP_CONFIG_FILE_H
#define NP_CONFIG_FILE_H

#include "error.h"
#include "power/config.h"

/*
 * np_config_default_path() - where the configuration is looked for
 * without -c: node_power.json beside $SLURM_CONF (slurmctld always sets
 * it for its programs), else /etc/slurm/node_power.json.
 * RET a malloc()ed string or NULL.
 */
char *np_config_default_path(void);

/*
 * np_config_load() - parse path into *cfg (ts_power_config_init()ed here;
 * free with ts_power_config_free() whatever the result), then run
 * np_config_check().  RET TS_OK or the first refusal.
 */
int np_config_load(const char *path, struct ts_power_config *cfg,
		   struct ts_error *err);

/*
 * np_config_check() - the system checks: the config file is not writable
 * by group or others (it names programs run as SlurmUser), the backend's
 * program is executable, each BMC password file is a readable regular
 * file of mode 0600 or stricter, each poweroff_eligible node has a BMC
 * (ipmi) or a nid (capmc), and the directories of log_file and
 * state_file exist and are writable.
 */
int np_config_check(const char *path, const struct ts_power_config *cfg,
		    struct ts_error *err);

#endif /* NP_CONFIG_FILE_H */
