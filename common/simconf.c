/* simconf.c: the model's configuration file; see simconf.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"
#include "simconf.h"

void
mg_simconf_init(struct mg_simconf *c)
{
	c->mode = MG_MODE_REFERENCE;
	c->dep_gap = 0;
	c->cap_window = 0;
	c->cap_slack = 0;
	c->nparts = 0;
	c->gpus_per_node = 0;
	mg_simcfg_reference(&c->ref, 88);
	mg_slurmcfg_default(&c->slurm, 88);
}

static int
num(const char *v, int64_t lo, int64_t hi, int64_t *out)
{
	return mg_parse_i64(v, strlen(v), lo, hi, out);
}

static int
sched_params(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	char buf[512], *tok, *save = NULL, *eq;
	size_t n = strlen(v);
	int64_t x;

	if (n >= sizeof(buf))
		return mg_diag_set(d, MG_EINVAL, "SchedulerParameters too long");
	memcpy(buf, v, n + 1);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",",
	    &save)) {
		if ((eq = strchr(tok, '=')) == NULL)
			continue;	/* flags such as bf_continue */
		*eq++ = '\0';
		if (num(eq, 0, INT32_MAX, &x) != 0)
			return mg_diag_set(d, MG_EINVAL, "bad value '%s' for "
			    "%s", eq, tok);
		if (strcmp(tok, "bf_interval") == 0 && x > 0) {
			c->slurm.bf_interval = x;
			c->ref.bf_interval = (int)((x + 59) / 60);
		} else if (strcmp(tok, "bf_resolution") == 0 && x > 0) {
			c->slurm.bf_resolution = x;
			c->ref.bf_resolution = (int)x;
		} else if (strcmp(tok, "bf_window") == 0 && x > 0) {
			c->slurm.bf_window = x * 60;
			c->ref.bf_window = (int)x;
		} else if (strcmp(tok, "bf_max_job_test") == 0 && x > 0) {
			c->slurm.bf_max_job_test = (int)x;
			c->ref.bf_max_job_test = (int)x;
		} else if (strcmp(tok, "sched_interval") == 0 && x > 0) {
			c->slurm.sched_interval = x;
		} else if (x <= 0) {
			return mg_diag_set(d, MG_EINVAL, "%s must be positive",
			    tok);
		}
	}
	return 0;
}

/* "NAME Nodes=N [Key=Value ...]" */
static int
partition(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	const char *sp = strchr(v, ' '), *p;
	size_t n = sp ? (size_t)(sp - v) : strlen(v);
	int64_t x = -1;

	if (n == 0 || n >= sizeof(c->part_name[0]))
		return mg_diag_set(d, MG_EINVAL, "bad partition name");
	if (c->nparts == MG_SLURM_MAXPART)
		return mg_diag_set(d, MG_EINVAL, "more than %d partitions",
		    MG_SLURM_MAXPART);
	for (p = sp; p && *p; ) {
		const char *e;

		while (*p == ' ')
			p++;
		e = strchr(p, ' ');
		if (strncasecmp(p, "Nodes=", 6) == 0 && mg_parse_i64(p + 6,
		    (size_t)((e ? e : p + strlen(p)) - p - 6), 1, 1000000, &x))
			return mg_diag_set(d, MG_EINVAL, "Nodes of partition "
			    "'%.*s' must be a count", (int)n, v);
		p = e;
	}
	if (x < 0)
		return mg_diag_set(d, MG_EINVAL, "partition '%.*s' has no "
		    "Nodes=count", (int)n, v);
	memcpy(c->part_name[c->nparts], v, n);
	c->part_name[c->nparts][n] = '\0';
	c->part_nodes[c->nparts++] = (int32_t)x;
	return 0;
}

/* "NAME [Priority=P] [MaxJobsPerUser=N] [MaxNodesPerUser=N]" */
static int
qos(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	static const char *const keys[] = { "Priority=", "MaxJobsPerUser=",
	    "MaxNodesPerUser=", "MaxTRESPerUser=node=" };
	const char *sp = strchr(v, ' '), *p;
	size_t n = sp ? (size_t)(sp - v) : strlen(v);
	int64_t x[4] = { 0, 0, 0, 0 };
	int k;

	if (n == 0 || n >= sizeof(c->qos_name[0]))
		return mg_diag_set(d, MG_EINVAL, "bad QOS name");
	if (c->nqos == MG_SLURM_MAXQOS)
		return mg_diag_set(d, MG_EINVAL, "more than %d QOS",
		    MG_SLURM_MAXQOS);
	for (p = sp; p && *p; ) {
		const char *e;
		size_t len;

		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		e = strchr(p, ' ');
		len = (size_t)((e ? e : p + strlen(p)) - p);
		for (k = 0; k < 4; k++) {
			size_t kl = strlen(keys[k]);

			if (len > kl && strncasecmp(p, keys[k], kl) == 0) {
				if (mg_parse_i64(p + kl, len - kl, 0, 1000000000,
				    &x[k]) != 0)
					return mg_diag_set(d, MG_EINVAL, "bad "
					    "%.*s of QOS '%.*s'", (int)(kl - 1),
					    keys[k], (int)n, v);
				break;
			}
		}
		if (k == 4)
			return mg_diag_set(d, MG_EINVAL, "QOS '%.*s': unknown "
			    "'%.*s' (Priority=, MaxJobsPerUser=, "
			    "MaxNodesPerUser=)", (int)n, v, (int)len, p);
		p = e;
	}
	memcpy(c->qos_name[c->nqos], v, n);
	c->qos_name[c->nqos][n] = '\0';
	c->qos_prio[c->nqos] = (double)x[0];
	c->qos_jobs[c->nqos] = (int)x[1];
	c->qos_nodes[c->nqos] = (int)(x[2] ? x[2] : x[3]);
	c->nqos++;
	return 0;
}

int
mg_simconf_qos(struct mg_simconf *c, char *const *names, size_t n,
    struct mg_diag *d)
{
	size_t i;
	int k;

	if (c->nqos == 0)
		return 0;
	if (n > MG_SLURM_MAXQOS)
		return mg_diag_set(d, MG_EINVAL, "the trace has more than %d "
		    "QOS", MG_SLURM_MAXQOS);
	/* a QOS the config does not name: priority 0, no limits */
	for (i = 0; i < n; i++) {
		c->slurm.qos_prio[i] = 0;
		c->slurm.qos_max_jobs_pu[i] = c->slurm.qos_max_nodes_pu[i] = 0;
		for (k = 0; k < c->nqos; k++)
			if (strcmp(names[i], c->qos_name[k]) == 0) {
				c->slurm.qos_prio[i] = c->qos_prio[k];
				c->slurm.qos_max_jobs_pu[i] = c->qos_jobs[k];
				c->slurm.qos_max_nodes_pu[i] = c->qos_nodes[k];
			}
	}
	c->slurm.nqos = (int)n;
	return 0;
}

int
mg_simconf_partitions(struct mg_simconf *c, char *const *names, size_t n,
    struct mg_diag *d)
{
	size_t i;
	int k, total = 0;

	if (c->nparts == 0)
		return 0;
	if (n > MG_SLURM_MAXPART)
		return mg_diag_set(d, MG_EINVAL, "the trace has more than %d "
		    "partitions", MG_SLURM_MAXPART);
	for (i = 0; i < n; i++) {
		for (k = 0; k < c->nparts; k++)
			if (strcmp(names[i], c->part_name[k]) == 0)
				break;
		if (k == c->nparts)
			return mg_diag_set(d, MG_EINVAL, "partition '%s' of the "
			    "trace is not in the config", names[i]);
		c->slurm.part_nodes[i] = c->part_nodes[k];
	}
	for (k = 0; k < c->nparts; k++)
		total += c->part_nodes[k];
	c->slurm.nparts = n > 0 ? (int)n : 0;
	c->slurm.nodes = total;
	return 0;
}

int
mg_simconf_set(struct mg_simconf *c, const char *kv, struct mg_diag *d)
{
	static const char *const ignored[] = { "ClusterName", "SlurmctldHost",
	    "PriorityType", "SchedulerType", "SelectType",
	    "SelectTypeParameters", "PriorityWeightPartition",
	    "PriorityCalcPeriod", NULL };
	const char *eq = strchr(kv, '='), *v;
	char key[64];
	int64_t x;
	size_t n;
	int i;

	if (eq == NULL || eq == kv || (size_t)(eq - kv) >= sizeof(key))
		return mg_diag_set(d, MG_EINVAL, "not Key=Value: '%s'", kv);
	n = (size_t)(eq - kv);
	memcpy(key, kv, n);
	key[n] = '\0';
	v = eq + 1;
	if (strcasecmp(key, "Mode") == 0) {
		if (strcmp(v, "reference") == 0)
			c->mode = MG_MODE_REFERENCE;
		else if (strcmp(v, "faithful") == 0)
			c->mode = MG_MODE_FAITHFUL;
		else
			return mg_diag_set(d, MG_EINVAL, "Mode is reference or "
			    "faithful, not '%s'", v);
	} else if (strcasecmp(key, "Nodes") == 0) {
		if (num(v, 1, 1000000, &x) != 0)
			goto bad;
		c->ref.nodes = c->slurm.nodes = (int)x;
	} else if (strcasecmp(key, "GpusPerNode") == 0) {
		if (num(v, 1, 1024, &x) != 0)
			goto bad;
		c->gpus_per_node = (int)x;
	} else if (strcasecmp(key, "PriorityWeightAge") == 0) {
		if (num(v, 0, 1000000000, &x) != 0)
			goto bad;
		c->ref.w_age = c->slurm.w_age = (double)x;
	} else if (strcasecmp(key, "PriorityWeightJobSize") == 0) {
		if (num(v, 0, 1000000000, &x) != 0)
			goto bad;
		c->ref.w_size = c->slurm.w_size = (double)x;
	} else if (strcasecmp(key, "PriorityWeightFairshare") == 0) {
		if (num(v, 0, 1000000000, &x) != 0)
			goto bad;
		c->slurm.w_fairshare = (double)x;
	} else if (strcasecmp(key, "PriorityDecayHalfLife") == 0) {
		if (mg_parse_duration(v, strlen(v), &x) != 0 || x <= 0)
			goto bad;
		c->slurm.decay_half_life = x;
	} else if (strcasecmp(key, "PriorityWeightTrace") == 0) {
		if (num(v, 0, 1000000, &x) != 0)
			goto bad;
		c->slurm.w_trace = (double)x;
	} else if (strcasecmp(key, "CapacitySlack") == 0) {
		if (num(v, 0, 1000000, &x) != 0)
			goto bad;
		c->cap_slack = (int32_t)x;
	} else if (strcasecmp(key, "CapacityFromTrace") == 0) {
		if (num(v, 0, 30 * 86400, &x) != 0)
			goto bad;
		c->cap_window = x;
	} else if (strcasecmp(key, "DependencyFromTrace") == 0) {
		if (num(v, 0, 86400, &x) != 0)
			goto bad;
		c->dep_gap = x;
	} else if (strcasecmp(key, "MaxNodesPerUser") == 0) {
		if (num(v, 0, 1000000, &x) != 0)
			goto bad;
		c->slurm.max_nodes_per_user = (int)x;
	} else if (strcasecmp(key, "MaxJobsPerUser") == 0) {
		if (num(v, 0, 1000000, &x) != 0)
			goto bad;
		c->slurm.max_jobs_per_user = (int)x;
	} else if (strcasecmp(key, "PriorityMaxAge") == 0) {
		if (mg_parse_duration(v, strlen(v), &x) != 0 || x <= 0)
			goto bad;
		c->ref.max_age = (double)x;
		c->slurm.max_age = x;
	} else if (strcasecmp(key, "FairshareBy") == 0) {
		if (strcasecmp(v, "user") == 0)
			c->slurm.fs_by_account = 0;
		else if (strcasecmp(v, "account") == 0)
			c->slurm.fs_by_account = 1;
		else
			return mg_diag_set(d, MG_EINVAL, "FairshareBy is user "
			    "or account, not '%s'", v);
	} else if (strcasecmp(key, "PriorityWeightQOS") == 0) {
		if (num(v, 0, 1000000000, &x) != 0)
			goto bad;
		c->slurm.w_qos = (double)x;
	} else if (strcasecmp(key, "PartitionName") == 0) {
		return partition(c, v, d);
	} else if (strcasecmp(key, "QOSName") == 0) {
		return qos(c, v, d);
	} else if (strcasecmp(key, "SchedulerParameters") == 0) {
		return sched_params(c, v, d);
	} else {
		for (i = 0; ignored[i]; i++)
			if (strcasecmp(key, ignored[i]) == 0)
				return 0;
		return mg_diag_set(d, MG_EINVAL, "unknown key '%s'", key);
	}
	return 0;
bad:
	return mg_diag_set(d, MG_EINVAL, "bad value '%s' for %s", v, key);
}

int
mg_simconf_load(struct mg_simconf *c, const char *path, struct mg_diag *d)
{
	char line[1024], *p, *e;
	int lineno = 0, rv = 0;
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		return mg_diag_set(d, MG_EIO, "cannot open '%s': %s", path,
		    strerror(errno));
	while (rv == 0 && fgets(line, sizeof(line), fp)) {
		lineno++;
		if ((p = strchr(line, '#')) != NULL)
			*p = '\0';
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		for (e = p + strlen(p); e > p && (e[-1] == '\n' ||
		    e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		*e = '\0';
		if (*p == '\0')
			continue;
		if ((rv = mg_simconf_set(c, p, d)) != 0)
			mg_diag_prefix(d, "'%s': line %d", path, lineno);
	}
	if (rv == 0 && ferror(fp))
		rv = mg_diag_set(d, MG_EIO, "cannot read '%s'", path);
	fclose(fp);
	return rv;
}

int
mg_simconf_option(struct mg_simconf *c, int opt, const char *arg,
    struct mg_diag *d)
{
	char kv[256];

	switch (opt) {
	case 'c':
		return mg_simconf_load(c, arg, d);
	case 'm':
		snprintf(kv, sizeof(kv), "Mode=%s", arg);
		return mg_simconf_set(c, kv, d);
	case 'n':
		snprintf(kv, sizeof(kv), "Nodes=%s", arg);
		if (mg_simconf_set(c, kv, NULL) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid node count "
			    "'%s'", arg);
		return 0;
	case 's':
		return mg_simconf_set(c, arg, d);
	default:
		return mg_diag_set(d, MG_EINVAL, "no such option");
	}
}
