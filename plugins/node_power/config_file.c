/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config_file.c - JSON (json-c) to struct ts_power_config, and the checks
 * against the running system (config_file.h).
 */
#include <errno.h>
#include <json-c/json.h>
#include <libgen.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_file.h"
#include "file_trust.h"
#include "whole_file.h"

#define MAX_CONFIG (1024 * 1024)

char *np_config_default_path(void)
{
	const char *conf = getenv("SLURM_CONF");
	char *copy, *dir, *path;
	size_t n;

	if (!conf || conf[0] != '/')
		return strdup("/etc/slurm/node_power.json");
	copy = strdup(conf);
	if (!copy)
		return NULL;
	dir = dirname(copy);
	n = strlen(dir) + sizeof("/node_power.json");
	path = malloc(n);
	if (path)
		snprintf(path, n, "%s/node_power.json", dir);
	free(copy);
	return path;
}

/* Re-set *err's message as "PATH: message". */
static int with_path(const char *path, int rc, struct ts_error *err)
{
	char buf[sizeof(err->msg) + 4096];

	if (rc == TS_OK || !err)
		return rc;
	snprintf(buf, sizeof(buf), "%s: %s", path, err->msg);
	memcpy(err->msg, buf, sizeof(err->msg) - 1);
	err->msg[sizeof(err->msg) - 1] = '\0';
	return rc;
}

static int read_file(const char *path, char **text, size_t *len,
		     struct ts_error *err)
{
	struct ts_error why = TS_ERROR_INIT;
	int rc = ts_whole_file_read(path, MAX_CONFIG, text, len, &why);

	if (rc != TS_OK)
		return ts_error_set(err, rc, -1, "%s: %s", path, why.msg);
	return TS_OK;
}

/* 1-based line and column of byte offset off. */
static void line_col(const char *text, size_t off, long *line, long *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/*
 * text[0 .. len) as one JSON object.  OUT *out, the caller's to put.
 * RET TS_OK, TS_ENOMEM or TS_ESYNTAX naming the line and column.
 */
static int parse_json(const char *text, size_t len, json_object **out,
		      struct ts_error *err)
{
	json_tokener *tok = json_tokener_new();
	json_object *obj;
	enum json_tokener_error je;
	size_t end;
	long line, col;

	*out = NULL;
	if (!tok)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	obj = json_tokener_parse_ex(tok, text, (int)len);
	je = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!obj || je != json_tokener_success) {
		json_object_put(obj);
		line_col(text, end, &line, &col);
		if (je == json_tokener_continue || je == json_tokener_success)
			return ts_error_set(
				err, TS_ESYNTAX, line,
				"line %ld, column %ld: JSON syntax error: unexpected end of file",
				line, col);
		return ts_error_set(
			err, TS_ESYNTAX, line,
			"line %ld, column %ld: JSON syntax error: %s", line,
			col, json_tokener_error_desc(je));
	}
	while (end < len && strchr(" \t\r\n", text[end]))
		end++;
	if (end < len) {
		json_object_put(obj);
		line_col(text, end, &line, &col);
		return ts_error_set(
			err, TS_ESYNTAX, line,
			"line %ld, column %ld: JSON syntax error: text after the closing '}'",
			line, col);
	}
	if (!json_object_is_type(obj, json_type_object)) {
		json_object_put(obj);
		return ts_error_set(
			err, TS_ESYNTAX, 1,
			"JSON syntax error: the file must hold one object { \"key\": value, ... }");
	}
	*out = obj;
	return TS_OK;
}

static const char *json_text(json_object *v)
{
	return v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN)
		 : "null";
}

static int set_scalar(struct ts_power_config *cfg, const char *key,
		      json_object *v, struct ts_error *err)
{
	if (json_object_is_type(v, json_type_string))
		return ts_power_config_set(cfg, key, json_object_get_string(v),
					   1, err);
	return ts_power_config_set(cfg, key, json_text(v), 0, err);
}

/* An integer member: JSON integer or a string of digits. */
static int get_long(const char *what, json_object *v, long *out,
		    struct ts_error *err)
{
	const char *s;
	char *end;

	if (json_object_is_type(v, json_type_int)) {
		*out = (long)json_object_get_int64(v);
		return TS_OK;
	}
	if (json_object_is_type(v, json_type_string)) {
		s = json_object_get_string(v);
		errno = 0;
		*out = strtol(s, &end, 10);
		if (*s && !*end && !errno && *s != '-' && *s != '+')
			return TS_OK;
	}
	return ts_error_set(err, TS_EINVAL, -1, "%s: %s is not a whole number",
			    what, json_text(v));
}

static int set_hostlist(struct ts_power_config *cfg, const char *key,
			json_object *v, struct ts_error *err)
{
	size_t i, n;
	int rc = TS_OK;

	if (!json_object_is_type(v, json_type_array))
		return set_scalar(cfg, key, v, err);
	n = json_object_array_length(v);
	for (i = 0; i < n && rc == TS_OK; i++)
		rc = set_scalar(cfg, key, json_object_array_get_idx(v, i), err);
	return rc;
}

static int set_levels(struct ts_power_config *cfg, json_object *v,
		      struct ts_error *err)
{
	long levels[TS_POWER_MAX_LEVELS];
	size_t i, n;
	int rc;

	if (!json_object_is_type(v, json_type_array))
		return ts_error_set(
			err, TS_EINVAL, -1,
			"key \"sleep_state_levels\": %s is not an array of levels",
			json_text(v));
	n = json_object_array_length(v);
	if (n > TS_POWER_MAX_LEVELS)
		return ts_power_config_set_levels(cfg, levels, n, err);
	for (i = 0; i < n; i++) {
		rc = get_long("key \"sleep_state_levels\"",
			      json_object_array_get_idx(v, i), &levels[i], err);
		if (rc != TS_OK)
			return rc;
	}
	return ts_power_config_set_levels(cfg, levels, n, err);
}

static int set_nid_map(struct ts_power_config *cfg, json_object *v,
		       struct ts_error *err)
{
	if (!json_object_is_type(v, json_type_object))
		return ts_error_set(
			err, TS_EINVAL, -1,
			"key \"nid_map\": %s is not an object { \"nodes\": first_nid }",
			json_text(v));
	json_object_object_foreach(v, expr, val) {
		char *what = NULL; /* the expression whole, however long */
		long nid;
		int rc;

		if (asprintf(&what, "key \"nid_map\": \"%s\"", expr) < 0)
			return ts_error_set(err, TS_ENOMEM, -1,
					    "out of memory");
		rc = get_long(what, val, &nid, err);
		free(what);
		if (rc == TS_OK)
			rc = ts_power_config_add_nid(cfg, expr, nid, err);
		if (rc != TS_OK)
			return rc;
	}
	return TS_OK;
}

/*
 * Key "bmc": { "nodes": { "address", "user", "password_file", "port" } }
 * into cfg, each entry checked.  RET TS_OK or the first error.
 */
static int set_bmc(struct ts_power_config *cfg, json_object *v,
		   struct ts_error *err)
{
	if (!json_object_is_type(v, json_type_object))
		return ts_error_set(
			err, TS_EINVAL, -1,
			"key \"bmc\": %s is not an object { \"nodes\": { \"address\": ... } }",
			json_text(v));
	json_object_object_foreach(v, expr, entry) {
		const char *address = NULL, *user = NULL, *pass = NULL;
		long port = 0;
		int rc;

		if (!json_object_is_type(entry, json_type_object))
			return ts_error_set(
				err, TS_EINVAL, -1,
				"key \"bmc\": \"%s\": %s is not an object",
				expr, json_text(entry));
		json_object_object_foreach(entry, k, val) {
			const char **dst = NULL;
			char *what = NULL;

			if (!strcmp(k, "address"))
				dst = &address;
			else if (!strcmp(k, "user"))
				dst = &user;
			else if (!strcmp(k, "password_file"))
				dst = &pass;
			if (dst) {
				if (!json_object_is_type(val, json_type_string))
					return ts_error_set(
						err, TS_EINVAL, -1,
						"key \"bmc\": \"%s\": %s: %s is not a string",
						expr, k, json_text(val));
				*dst = json_object_get_string(val);
				continue;
			}
			if (strcmp(k, "port"))
				return ts_error_set(
					err, TS_EKEY, -1,
					"key \"bmc\": \"%s\": unknown member \"%s\" (address, port, user, password_file)",
					expr, k);
			if (asprintf(&what, "key \"bmc\": \"%s\": port", expr) <
			    0)
				return ts_error_set(err, TS_ENOMEM, -1,
						    "out of memory");
			rc = get_long(what, val, &port, err);
			if (rc == TS_OK && (port < 1 || port > 65535))
				rc = ts_error_set(
					err, TS_ERANGE, -1,
					"%s %ld is out of range 1..65535", what,
					port);
			free(what);
			if (rc != TS_OK)
				return rc;
		}
		rc = ts_power_config_add_bmc(cfg, expr, address, port, user,
					     pass, err);
		if (rc != TS_OK)
			return rc;
	}
	return TS_OK;
}

int np_config_load(const char *path, struct ts_power_config *cfg,
		   struct ts_error *err)
{
	json_object *top = NULL;
	char *text = NULL;
	size_t len = 0;
	int rc = ts_power_config_init(cfg, err);

	if (rc == TS_OK)
		rc = read_file(path, &text, &len, err);
	if (rc == TS_OK)
		rc = with_path(path, parse_json(text, len, &top, err), err);
	free(text);
	if (rc != TS_OK)
		return rc;
	json_object_object_foreach(top, key, val) {
		switch (ts_power_config_key_kind(key)) {
		case TS_POWER_KEY_SCALAR:
		case TS_POWER_KEY_UNKNOWN:
			rc = set_scalar(cfg, key, val, err);
			break;
		case TS_POWER_KEY_HOSTLIST:
			rc = set_hostlist(cfg, key, val, err);
			break;
		case TS_POWER_KEY_LEVELS:
			rc = set_levels(cfg, val, err);
			break;
		case TS_POWER_KEY_NID_MAP:
			rc = set_nid_map(cfg, val, err);
			break;
		case TS_POWER_KEY_BMC:
			rc = set_bmc(cfg, val, err);
			break;
		}
		if (rc != TS_OK)
			break;
	}
	json_object_put(top);
	if (rc != TS_OK)
		return with_path(path, rc, err);
	return np_config_check(path, cfg, err);
}

/* ------------------------------------------------------------- trust */

/* SlurmUser and its uid, what node_power runs as under slurmctld. */
struct trust {
	struct ts_trust t; /* file_trust.h: the rule the plugin uses too */
	char name[64];
};

/*
 * SlurmUser from slurm.conf ($SLURM_CONF, else /etc/slurm/slurm.conf):
 * the last "SlurmUser=NAME" line, key in any case.  Slurm's default,
 * root, when there is none, the file cannot be read or NAME is unknown.
 */
static void trust_init(struct trust *tr)
{
	const char *conf = getenv("SLURM_CONF");
	struct ts_error ignored = TS_ERROR_INIT;
	struct passwd *pw;
	char *text = NULL, *line, *save = NULL;
	size_t len;

	snprintf(tr->name, sizeof(tr->name), "root");
	tr->t.slurm_uid = 0;
	tr->t.slurm_user = tr->name;
	if (ts_whole_file_read(conf && *conf ? conf : "/etc/slurm/slurm.conf",
			       MAX_CONFIG, &text, &len, &ignored))
		return;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n;

		line += strspn(line, " \t");
		if (strncasecmp(line, "SlurmUser", 9))
			continue;
		line += 9;
		line += strspn(line, " \t");
		if (*line != '=')
			continue;
		line++;
		line += strspn(line, " \t");
		n = strcspn(line, " \t#\r");
		if (n && n < sizeof(tr->name))
			snprintf(tr->name, sizeof(tr->name), "%.*s", (int)n,
				 line);
	}
	free(text);
	pw = getpwnam(tr->name);
	if (pw)
		tr->t.slurm_uid = (unsigned)pw->pw_uid;
	else
		snprintf(tr->name, sizeof(tr->name), "root");
}

/* One file or directory: who owns it, who may write it. */
static int check_owner(const struct trust *tr, const char *what,
		       const char *path, int is_dir, struct ts_error *err)
{
	struct passwd *pw;
	struct stat sb;
	char name[32];

	if (stat(path, &sb))
		return ts_error_set(err, TS_ENOENT, -1, "%s%s%s: %s", what,
				    *what ? ": " : "", path, strerror(errno));
	pw = getpwuid(sb.st_uid);
	snprintf(name, sizeof(name), "%s", pw ? pw->pw_name : "no user");
	return ts_trust_check(
		what, path, (unsigned)sb.st_uid, name, (unsigned)sb.st_mode,
		is_dir ? TS_TRUST_DIR : TS_TRUST_FILE, &tr->t, err);
}

/* Every directory above path, from its parent up to "/". */
static int check_dirs(const struct trust *tr, const char *what,
		      const char *path, struct ts_error *err)
{
	char *copy = strdup(path), *dir;
	int rc = TS_OK;

	if (!copy)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	dir = copy;
	do {
		dir = dirname(dir);
		rc = check_owner(tr, what, dir, 1, err);
	} while (rc == TS_OK && strcmp(dir, "/") && strcmp(dir, "."));
	free(copy);
	return rc;
}

/*
 * A file node_power reads or runs: the directories above the path as
 * given (where a symbolic link lives), then the file it names and every
 * directory above that.
 */
static int check_trusted(const struct trust *tr, const char *what,
			 const char *path, struct ts_error *err)
{
	char *real = realpath(path, NULL);
	int rc = TS_OK;

	if (!real)
		return ts_error_set(err, TS_ENOENT, -1, "%s%s%s: %s", what,
				    *what ? ": " : "", path, strerror(errno));
	if (path[0] == '/' && strcmp(real, path))
		rc = check_dirs(tr, what, path, err);
	if (rc == TS_OK)
		rc = check_dirs(tr, what, real, err);
	if (rc == TS_OK)
		rc = check_owner(tr, what, real, 0, err);
	free(real);
	return rc;
}

static int check_program(const struct trust *tr, const char *key,
			 const char *prog, struct ts_error *err)
{
	char what[64];

	if (access(prog, X_OK))
		return ts_error_set(err, TS_ENOENT, -1, "key \"%s\": %s: %s",
				    key, prog, strerror(errno));
	snprintf(what, sizeof(what), "key \"%s\"", key);
	return check_trusted(tr, what, prog, err);
}

/*
 * A BMC password file: there, a regular file, private (mode 0600 or
 * stricter), readable, and trusted as every file node_power reads.
 */
static int check_password_file(const struct trust *tr,
			       const struct ts_power_bmc *b,
			       struct ts_error *err)
{
	struct stat sb;
	char *what;
	int rc;

	if (stat(b->password_file, &sb))
		return ts_error_set(err, TS_ENOENT, -1,
				    "bmc %s: password_file %s: %s", b->node,
				    b->password_file, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return ts_error_set(
			err, TS_EINVAL, -1,
			"bmc %s: password_file %s is not a regular file",
			b->node, b->password_file);
	if (ts_power_config_check_secret_mode(b->node, b->password_file,
					      (unsigned)sb.st_mode,
					      err) != TS_OK)
		return TS_EINVAL;
	if (access(b->password_file, R_OK))
		return ts_error_set(err, TS_EIO, -1,
				    "bmc %s: password_file %s: %s", b->node,
				    b->password_file, strerror(errno));
	what = malloc(strlen(b->node) + 32);
	if (!what)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	sprintf(what, "bmc %s: password_file", b->node);
	rc = check_trusted(tr, what, b->password_file, err);
	free(what);
	return rc;
}

/* The directory of a file we create must exist and be writable. */
static int check_dir_of(const char *key, const char *file, struct ts_error *err)
{
	char *copy = strdup(file);
	const char *dir;
	int rc = TS_OK;

	if (!copy)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	dir = dirname(copy);
	if (access(dir, W_OK | X_OK))
		rc = ts_error_set(err, TS_EIO, -1,
				  "key \"%s\": directory %s: %s", key, dir,
				  strerror(errno));
	free(copy);
	return rc;
}

int np_config_check(const char *path, const struct ts_power_config *cfg,
		    struct ts_error *err)
{
	struct trust tr;
	struct stat sb;
	size_t i;
	int rc = TS_OK;

	if (stat(path, &sb) == 0 && (sb.st_mode & 022))
		return with_path(
			path,
			ts_error_set(
				err, TS_EINVAL, -1,
				"has mode %04o: writable by group or others, and it names programs node_power runs (chmod go-w %s)",
				(unsigned)sb.st_mode & 07777, path),
			err);
	trust_init(&tr);
	rc = check_trusted(&tr, "", path, err);
	if (rc == TS_OK && cfg->backend == TS_POWER_BACKEND_CAPMC) {
		rc = check_program(&tr, "capmc_path", cfg->capmc_path, err);
		for (i = 0; rc == TS_OK && i < cfg->poweroff_eligible.n; i++) {
			const char *n = cfg->poweroff_eligible.name[i];

			if (ts_power_config_nid(cfg, n) < 0)
				rc = ts_error_set(
					err, TS_EINVAL, -1,
					"key \"poweroff_eligible\": node %s has no nid (add it to nid_map)",
					n);
		}
	} else if (rc == TS_OK) {
		rc = check_program(&tr, "ipmitool_path", cfg->ipmitool_path,
				   err);
		if (rc == TS_OK && cfg->power_ramp_rate_enable)
			rc = ts_error_set(
				err, TS_EINVAL, -1,
				"key \"power_ramp_rate_enable\": True needs backend \"capmc\" (IPMI has no sleep states)");
		for (i = 0; rc == TS_OK && i < cfg->poweroff_eligible.n; i++) {
			const char *n = cfg->poweroff_eligible.name[i];

			if (!ts_power_config_bmc(cfg, n))
				rc = ts_error_set(
					err, TS_EINVAL, -1,
					"key \"poweroff_eligible\": node %s has no bmc entry",
					n);
		}
	}
	for (i = 0; rc == TS_OK && i < cfg->n_bmc; i++)
		rc = check_password_file(&tr, &cfg->bmc[i], err);
	if (rc == TS_OK)
		rc = check_dir_of("log_file", cfg->log_file, err);
	if (rc == TS_OK)
		rc = check_dir_of("state_file", cfg->state_file, err);
	return with_path(path, rc, err);
}
