/* SPDX-License-Identifier: GPL-2.0-or-later */
/* slurm_prio_conf.c - slurm.conf's priority keys (slurm_prio_conf.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slurm_prio_conf.h"

#define DAY (24L * 3600)

long ts_slurm_time_secs(const char *s)
{
	int d = 0, h = 0, m = 0, sec = 0;
	const char *p;

	if (!*s)
		return -2;
	if (!strcasecmp(s, "-1") || !strcasecmp(s, "INFINITE") ||
	    !strcasecmp(s, "UNLIMITED"))
		return -1;
	for (p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') || *p == ':' || *p == '-'))
			return -2;
	if (strlen(s) > 20)
		return -2;
	/* time_str2secs() */
	if (strchr(s, '-')) {
		if (sscanf(s, "%d-%d:%d:%d", &d, &h, &m, &sec) < 1)
			return -2;
	} else if (sscanf(s, "%d:%d:%d", &h, &m, &sec) != 3) {
		if (sscanf(s, "%d:%d", &m, &sec) < 1)
			return -2;
		h = 0;
	}
	if (d < 0 || h < 0 || m < 0 || sec < 0)
		return -2;
	return d * DAY + h * 3600L + m * 60L + sec;
}

/* Minutes, rounded up, times 60, as read_config.c stores them. */
static int minutes_secs(const char *key, const char *v, long line, long min,
			uint32_t *out, struct ts_error *err)
{
	long s = ts_slurm_time_secs(v);

	if (s == -1 && min == 0)
		s = 0;
	if (s < 0 || (s + 59) / 60 * 60 < min || s > 100L * 365 * DAY)
		return ts_error_set(
			err, TS_EINVAL, line,
			"line %ld: %s=%.40s: not a Slurm time (minutes, min:sec, h:m:s, d-h[:m[:s]])%s",
			line, key, v, min ? " of at least a minute" : "");
	*out = (uint32_t)((s + 59) / 60 * 60);
	return TS_OK;
}

static int whole(const char *key, const char *v, long line, uint32_t lo,
		 uint32_t hi, uint32_t *out, struct ts_error *err)
{
	char *end;
	unsigned long x;

	if (*v < '0' || *v > '9')
		goto bad;
	x = strtoul(v, &end, 10);
	if (*end || x < lo || x > hi)
		goto bad;
	*out = (uint32_t)x;
	return TS_OK;
bad:
	return ts_error_set(
		err, TS_ERANGE, line,
		"line %ld: %s=%.40s: must be a whole number from %u to %u",
		line, key, v, lo, hi);
}

/* One Key=Value: ours stored in *o (checked), any other ignored. */
static int pair(struct ts_slurm_prio *o, const char *k, const char *v,
		long line, struct ts_error *err)
{
	static const char *const resets[] = { "none",	"now",	   "daily",
					      "weekly", "monthly", "quarterly",
					      "yearly" };
	static const struct {
		const char *key;
		size_t off;
	} weights[] = {
		{ "PriorityWeightAge", offsetof(struct ts_slurm_prio, w_age) },
		{ "PriorityWeightFairShare",
		  offsetof(struct ts_slurm_prio, w_fs) },
		{ "PriorityWeightJobSize",
		  offsetof(struct ts_slurm_prio, w_js) },
		{ "PriorityWeightPartition",
		  offsetof(struct ts_slurm_prio, w_part) },
		{ "PriorityWeightQOS", offsetof(struct ts_slurm_prio, w_qos) },
		{ "PriorityWeightAssoc",
		  offsetof(struct ts_slurm_prio, w_assoc) },
	};
	size_t i;

	if (!strcasecmp(k, "PriorityDecayHalfLife"))
		return minutes_secs(k, v, line, 0, &o->decay_hl, err);
	if (!strcasecmp(k, "PriorityCalcPeriod"))
		return minutes_secs(k, v, line, 60, &o->calc_period, err);
	if (!strcasecmp(k, "PriorityMaxAge"))
		return minutes_secs(k, v, line, 0, &o->max_age, err);
	if (!strcasecmp(k, "FairShareDampeningFactor"))
		return whole(k, v, line, 1, 65535, &o->damp, err);
	for (i = 0; i < sizeof(weights) / sizeof(weights[0]); i++)
		if (!strcasecmp(k, weights[i].key))
			return whole(k, v, line, 0, UINT32_MAX - 1,
				     (uint32_t *)((char *)o + weights[i].off),
				     err);
	if (!strcasecmp(k, "PriorityFlags")) {
		/* read_config.c: substrings, any case */
		o->fair_tree = true;
		o->depth_oblivious = false;
		o->calculate_running = strcasestr(v, "CALCULATE_RUNNING");
		if (strcasestr(v, "DEPTH_OBLIVIOUS")) {
			o->depth_oblivious = true;
			o->fair_tree = false;
		} else if (strcasestr(v, "NO_FAIR_TREE")) {
			o->fair_tree = false;
		}
		return TS_OK;
	}
	if (!strcasecmp(k, "PriorityUsageResetPeriod")) {
		for (i = 0; i < sizeof(resets) / sizeof(resets[0]); i++)
			if (!strcasecmp(v, resets[i])) {
				o->reset = (enum ts_reset_period)i;
				return TS_OK;
			}
		return ts_error_set(
			err, TS_EINVAL, line,
			"line %ld: %s=%.40s: must be NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY",
			line, k, v);
	}
	if (!strcasecmp(k, "AccountingStorageEnforce")) {
		/* read_config.c: "limits", "safe" and "all" set LIMITS */
		o->charge_at_end = strcasestr(v, "limits") ||
				   strcasestr(v, "safe") ||
				   strcasestr(v, "all");
		return TS_OK;
	}
	if (!strcasecmp(k, "PriorityParameters")) {
		if (strlen(v) >= sizeof(o->params))
			return ts_error_set(
				err, TS_ERANGE, line,
				"line %ld: %s: longer than %zu bytes", line, k,
				sizeof(o->params) - 1);
		strcpy(o->params, v);
	}
	return TS_OK;
}

/* One line's pairs (line is a writable copy). */
static int one_line(struct ts_slurm_prio *o, char *p, long line,
		    struct ts_error *err)
{
	for (;;) {
		char *k, *v, *eq;
		int rc;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			return TS_OK;
		k = p;
		while (*p && *p != '=' && *p != ' ' && *p != '\t')
			p++;
		if (*p != '=') {
			/* A word alone ("Include x" and the like): not ours. */
			while (*p && *p != ' ' && *p != '\t')
				p++;
			continue;
		}
		eq = p;
		*eq = 0;
		v = ++p;
		if (*p == '"') {
			v = ++p;
			p = strchr(p, '"');
			if (!p)
				return ts_error_set(
					err, TS_EINVAL, line,
					"line %ld: %s: no closing double quote",
					line, k);
			*p++ = 0;
		} else {
			while (*p && *p != ' ' && *p != '\t' && *p != '#')
				p++;
			if (*p) {
				char c = *p;

				*p = 0;
				rc = pair(o, k, v, line, err);
				if (rc)
					return rc;
				if (c == '#')
					return TS_OK;
				p++;
				continue;
			}
		}
		rc = pair(o, k, v, line, err);
		if (rc || !*p)
			return rc;
	}
}

int ts_slurm_prio_parse(const char *text, size_t len, struct ts_slurm_prio *out,
			struct ts_error *err)
{
	const char *p = text, *end = text + len;
	long line = 0;
	char buf[8192];

	memset(out, 0, sizeof(*out));
	out->decay_hl = 7 * DAY;
	out->calc_period = 300;
	out->fair_tree = true;
	out->damp = 1;
	out->max_age = 7 * DAY;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		int rc;

		line++;
		if (n >= sizeof(buf))
			return ts_error_set(err, TS_ERANGE, line,
					    "line %ld: longer than %zu bytes",
					    line, sizeof(buf) - 1);
		memcpy(buf, p, n);
		buf[n] = 0;
		if (n && buf[n - 1] == '\r')
			buf[n - 1] = 0;
		rc = one_line(out, buf, line, err);
		if (rc)
			return rc;
		p = nl ? nl + 1 : end;
	}
	if (!out->decay_hl && out->reset == TS_RESET_NONE)
		return ts_error_set(
			err, TS_EINVAL, line,
			"PriorityDecayHalfLife=0 needs a PriorityUsageResetPeriod (Slurm refuses this slurm.conf)");
	return TS_OK;
}
