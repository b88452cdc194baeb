/* simconf.c: the model's configuration file; see simconf.h. */
#include <errno.h>
#include <float.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/mem.h"
#include "base/parse.h"
#include "cluster/simconf_int.h"
#include "io/slurmfmt.h"
#include "cluster/preempt.h"


void
mg_simconf_init(struct mg_simconf *c)
{
	memset(c, 0, sizeof(*c));	/* no partitions, no QOS, ... */
	c->mode = MG_MODE_REFERENCE;
	mg_sim_params_reference(&c->ref, 88);
	mg_slurmsim_params_default(&c->slurm, 88);
	mg_loangen_default(&c->loangen, 0);
	c->loangen.base = c->loangen.amp = c->loangen.noise = -1;
	c->slurm.loan_interval = 300;
	c->slurm.loan_headroom = 2;
	c->slurm.reclaim_grace = 60;
	c->slurm.reclaim_policy = MG_VICTIM_FEWEST;
	c->el_alpha = 0.8;
}

#define MAX_SPAN	(366 * 86400)	/* a duration key's largest value */

static int
num(const char *v, int64_t lo, int64_t hi, int64_t *out)
{
	return mg_parse_i64(v, strlen(v), lo, hi, out);
}

/* a real number in [lo, hi] */
static int
real(const char *v, double lo, double hi, double *out)
{
	char *end;

	*out = strtod(v, &end);
	return *v != '\0' && *end == '\0' && *out >= lo && *out <= hi ? 0 :
	    -1;
}

/* SchedulerParameters' numeric keys and the ranges slurm.conf(5) gives
 * them (a value beyond would overflow the model's arithmetic) */
static const struct {
	const char *key;
	int64_t lo, hi;
} sched_keys[] = {
	{ "bf_interval", 1, 10800 },		/* seconds */
	{ "bf_resolution", 1, 3600 },		/* seconds */
	{ "bf_window", 1, 43200 },		/* minutes: 30 days */
	{ "bf_max_job_test", 1, 1000000 },
	{ "sched_interval", 1, 86400 },		/* seconds */
	{ "default_queue_depth", 1, 1000000 },
	{ "requeue_delay", 0, 86400 },		/* seconds */
};

static int
sched_params(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	char buf[512], *tok, *save = NULL, *eq;
	size_t n = strlen(v), k;
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
		for (k = 0; k < sizeof(sched_keys) / sizeof(*sched_keys); k++)
			if (strcmp(tok, sched_keys[k].key) == 0 &&
			    (x < sched_keys[k].lo || x > sched_keys[k].hi))
				return mg_diag_set(d, MG_EINVAL, "%s=%lld is out "
				    "of its range, %lld to %lld",
				    tok, (long long)x,
				    (long long)sched_keys[k].lo,
				    (long long)sched_keys[k].hi);
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
		} else if (strcmp(tok, "default_queue_depth") == 0 && x > 0) {
			c->slurm.queue_depth = (int)x;
		} else if (strcmp(tok, "requeue_delay") == 0) {
			c->slurm.requeue_delay = x;	/* 0 allowed */
		} else if (x <= 0) {
			return mg_diag_set(d, MG_EINVAL, "%s must be positive",
			    tok);
		}
	}
	return 0;
}

static void
free_names(char **names, size_t n)
{
	while (n > 0)
		free(names[--n]);
	free(names);
}

/* the number of nodes a hostlist names; 0 or an error status */
static int
count_hosts(const char *v, size_t n, int64_t *x, struct mg_diag *d)
{
	char **names = NULL;
	size_t count = 0, cap = 0;
	int rv = mg_hostlist(v, n, &names, &count, &cap, d);

	free_names(names, count);
	*x = (int64_t)count;
	return rv;
}

static int share(const struct mg_simconf *, uint32_t *, int32_t *, int *,
    struct mg_diag *);

/* "NAME Nodes=N|HOSTLIST|ALL [Key=Value ...]" */
static int
partition(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	const char *sp = strchr(v, ' '), *p;
	size_t n = sp ? (size_t)(sp - v) : strlen(v);
	int64_t x = -1;
	int rv;

	if (n == 0 || n >= sizeof(c->part_name[0]))
		return mg_diag_set(d, MG_EINVAL, "bad partition name");
	if (c->nparts == MG_SLURM_MAXPART)
		return mg_diag_set(d, MG_EINVAL, "more than %d partitions",
		    MG_SLURM_MAXPART);
	c->part_hosts[c->nparts][0] = '\0';
	c->part_prio[c->nparts] = 1;	/* Slurm's default */
	c->part_tier[c->nparts] = 1;
	for (p = sp; p && *p; ) {
		const char *e, *h = p + 6;
		size_t hn;

		while (*p == ' ')
			p++;
		e = strchr(p, ' ');
		h = p + 6;
		hn = (size_t)((e ? e : p + strlen(p)) - h);
		if (strncasecmp(p, "PriorityJobFactor=", 18) == 0 ||
		    strncasecmp(p, "Priority=", 9) == 0) {
			const char *v0 = strchr(p, '=') + 1;
			int64_t pr;

			if (mg_parse_i64(v0, (size_t)((e ? e : p + strlen(p)) -
			    v0), 0, 65533, &pr) != 0)
				return mg_diag_set(d, MG_EINVAL, "bad "
				    "PriorityJobFactor of partition '%.*s'",
				    (int)n, v);
			c->part_prio[c->nparts] = (double)pr;
			p = e;
			continue;
		}
		if (strncasecmp(p, "PriorityTier=", 13) == 0) {
			int64_t pr;

			if (mg_parse_i64(p + 13, (size_t)((e ? e : p +
			    strlen(p)) - p - 13), 0, 65533, &pr) != 0)
				return mg_diag_set(d, MG_EINVAL, "bad "
				    "PriorityTier of partition '%.*s'", (int)n,
				    v);
			c->part_tier[c->nparts] = (int)pr;
			p = e;
			continue;
		}
		if (strncasecmp(p, "Nodes=", 6) != 0) {
			p = e;
			continue;
		}
		if (mg_parse_i64(h, hn, 1, 1000000, &x) == 0) {
			p = e;
			continue;
		}
		/* a hostlist: its nodes, or all that NodeName= lines name */
		if (hn >= sizeof(c->part_hosts[0]))
			return mg_diag_set(d, MG_EINVAL, "Nodes of partition "
			    "'%.*s' too long", (int)n, v);
		if (hn == 3 && strncasecmp(h, "ALL", 3) == 0)
			rv = count_hosts(c->node_names, strlen(c->node_names),
			    &x, d);
		else
			rv = count_hosts(h, hn, &x, d);
		if (rv != 0)
			return rv;
		if (x == 0)
			return mg_diag_set(d, MG_EINVAL, "partition '%.*s': "
			    "Nodes=ALL before any NodeName= line", (int)n, v);
		memcpy(c->part_hosts[c->nparts], h, hn);
		c->part_hosts[c->nparts][hn] = '\0';
		p = e;
	}
	if (x < 0)
		return mg_diag_set(d, MG_EINVAL, "partition '%.*s' has no "
		    "Nodes= (a count or a hostlist)", (int)n, v);
	memcpy(c->part_name[c->nparts], v, n);
	c->part_name[c->nparts][n] = '\0';
	c->part_nodes[c->nparts++] = (int32_t)x;
	if (c->part_hosts[c->nparts - 1][0] != '\0' &&
	    c->node_names[0] != '\0') {
		/* its nodes must be on NodeName= lines: say so on its line */
		uint32_t kpools[MG_SLURM_MAXPART];
		int32_t pn[MG_SLURM_MAXPOOL];
		int np;

		if ((rv = share(c, kpools, pn, &np, d)) != 0) {
			c->nparts--;
			return rv;
		}
	}
	return 0;
}

/*
 * "NAME StartTime=T EndTime=T|Duration=D NodeCnt=N|Nodes=HOSTLIST|ALL
 * [Key=Value ...]", as scontrol creates and shows reservations
 */
static int
reservation(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	const char *sp = strchr(v, ' '), *p;
	int n = (int)(sp ? sp - v : (ptrdiff_t)strlen(v));
	int64_t start = -1, end = -1, dur = -1, nodes = -1;
	int k = c->nresv;

	if (n == 0)
		return mg_diag_set(d, MG_EINVAL, "bad reservation name");
	if (k == MG_SIMCONF_MAXRESV)
		return mg_diag_set(d, MG_EINVAL, "more than %d reservations",
		    MG_SIMCONF_MAXRESV);
	for (p = sp; p && *p; ) {
		const char *e, *val;
		size_t vn;
		int rv = 0;

		while (*p == ' ')
			p++;
		e = strchr(p, ' ');
		if ((val = memchr(p, '=', (size_t)((e ? e : p + strlen(p)) -
		    p))) == NULL) {
			p = e;
			continue;
		}
		val++;
		vn = (size_t)((e ? e : p + strlen(p)) - val);
		if (strncasecmp(p, "StartTime=", 10) == 0)
			rv = mg_parse_time(val, vn, MG_TZ_UTC, &start);
		else if (strncasecmp(p, "EndTime=", 8) == 0)
			rv = mg_parse_time(val, vn, MG_TZ_UTC, &end);
		else if (strncasecmp(p, "Duration=", 9) == 0)
			rv = mg_parse_duration(val, vn, &dur) || dur <= 0 ||
			    dur > MAX_SPAN;
		else if (strncasecmp(p, "NodeCnt=", 8) == 0)
			rv = mg_parse_i64(val, vn, 1, 1000000, &nodes);
		else if (strncasecmp(p, "Nodes=", 6) == 0) {
			if (vn == 3 && strncasecmp(val, "ALL", 3) == 0)
				rv = count_hosts(c->node_names,
				    strlen(c->node_names), &nodes, d) ||
				    nodes == 0;
			else
				rv = count_hosts(val, vn, &nodes, d);
		}
		if (rv != 0)
			return mg_diag_set(d, MG_EINVAL, "reservation '%.*s': "
			    "bad '%.*s'", n, v, (int)(val - p + (ptrdiff_t)vn),
			    p);
		p = e;
	}
	if (start < 0 || (end < 0 && dur < 0) || nodes < 0)
		return mg_diag_set(d, MG_EINVAL, "reservation '%.*s' needs "
		    "StartTime=, EndTime= or Duration=, and NodeCnt= or "
		    "Nodes=", n, v);
	if (end < 0)
		end = start + dur;
	if (end <= start)
		return mg_diag_set(d, MG_EINVAL, "reservation '%.*s' ends "
		    "before it starts", n, v);
	c->resv_start[k] = start;
	c->resv_end[k] = end;
	c->resv_nodes[k] = (int32_t)nodes;
	c->nresv++;
	return 0;
}

/* "HOSTLIST [Key=Value ...]": named nodes, in order */
static int
nodename(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	size_t n = strcspn(v, " "), have = strlen(c->node_names);
	int64_t x;
	int rv;

	if (n == 0 || (n == 7 && strncasecmp(v, "DEFAULT", 7) == 0))
		return 0;
	if ((rv = count_hosts(v, n, &x, d)) != 0)
		return rv;
	if (have + n + 2 > sizeof(c->node_names))
		return mg_diag_set(d, MG_EINVAL, "NodeName= lines name too "
		    "many ranges");
	if (have > 0)
		c->node_names[have++] = ',';
	memcpy(c->node_names + have, v, n);
	c->node_names[have + n] = '\0';
	return 0;
}

/*
 * "NAME [Priority=P] [MaxJobsPerUser=N] [MaxNodesPerUser=N]
 * [Preempt=QOS[,QOS...]]"
 */
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
		if (len > 8 && strncasecmp(p, "Preempt=", 8) == 0) {
			if (len - 8 >= sizeof(c->qos_preempt[0]))
				return mg_diag_set(d, MG_EINVAL, "Preempt= of "
				    "QOS '%.*s' too long", (int)n, v);
			memcpy(c->qos_preempt[c->nqos], p + 8, len - 8);
			c->qos_preempt[c->nqos][len - 8] = '\0';
			p = e;
			continue;
		}
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
			    "MaxNodesPerUser=, Preempt=)", (int)n, v, (int)len,
			    p);
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

/*
 * the classes a Preempt= list names: bit i for trace QOS i, bit
 * MG_URGENT_CLASS for UrgentQOS
 */
static uint32_t
preempt_mask(const struct mg_simconf *c, const char *list,
    char *const *names, size_t n)
{
	uint32_t m = 0;
	size_t i, len;

	while (*list != '\0') {
		len = strcspn(list, ",");
		for (i = 0; i < n; i++)
			if (strlen(names[i]) == len &&
			    strncmp(names[i], list, len) == 0)
				m |= 1u << i;
		if (c->urgent_qos[0] != '\0' && strlen(c->urgent_qos) == len &&
		    strncmp(c->urgent_qos, list, len) == 0)
			m |= 1u << MG_URGENT_CLASS;
		list += len + (list[len] == ',');
	}
	return m;
}

int
mg_simconf_qos(struct mg_simconf *c, char *const *names, size_t n,
    struct mg_diag *d)
{
	size_t i;
	int k;

	if (c->nqos == 0)
		return 0;
	/* Preempt= lists, and the urgent jobs' QOS */
	c->slurm.qos_lists = 0;
	memset(c->slurm.qos_preempts, 0, sizeof(c->slurm.qos_preempts));
	for (k = 0; k < c->nqos; k++) {
		c->slurm.qos_lists |= c->qos_preempt[k][0] != '\0';
		if (c->urgent_qos[0] != '\0' &&
		    strcmp(c->urgent_qos, c->qos_name[k]) == 0)
			c->slurm.qos_preempts[MG_URGENT_CLASS] =
			    preempt_mask(c, c->qos_preempt[k], names,
			    n < MG_SLURM_MAXQOS ? n : MG_SLURM_MAXQOS);
	}
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
				c->slurm.qos_preempts[i] = preempt_mask(c,
				    c->qos_preempt[k], names, n);
			}
	}
	c->slurm.nqos = (int)n;
	return 0;
}

/* a node's name and its place in slurm.conf's order */
struct nref {
	const char *name;
	size_t idx;
};

static int
nref_cmp(const void *a, const void *b)
{
	const struct nref *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

/* the first node of that name, or -1 */
static long
lookup(const struct nref *ix, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ix[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(ix[lo].name, name) == 0 ? (long)ix[lo].idx :
	    -1;
}

/*
 * The pools of nodes that belong to the same configured partitions, in
 * the order of their first node: kpools[k], the pools of partition k,
 * and pn[p], the nodes of pool p.  A partition given as a count is a
 * pool of its own.
 */
static int
share(const struct mg_simconf *c, uint32_t *kpools, int32_t *pn,
    int *npools, struct mg_diag *d)
{
	char **all = NULL, **some = NULL;
	size_t nall = 0, capall = 0, nsome = 0, capsome = 0, i;
	uint32_t *mask = NULL, pmask[MG_SLURM_MAXPOOL];
	struct nref *ix = NULL;
	int defined = c->node_names[0] != '\0', k, p, rv = 0;

	*npools = 0;
	if (defined)
		rv = mg_hostlist(c->node_names, strlen(c->node_names), &all,
		    &nall, &capall, d);
	for (k = 0; k < c->nparts && rv == 0 && !defined; k++)
		if (c->part_hosts[k][0] != '\0')
			rv = mg_hostlist(c->part_hosts[k],
			    strlen(c->part_hosts[k]), &all, &nall, &capall, d);
	if (rv != 0)
		goto out;
	if ((ix = malloc((nall ? nall : 1) * sizeof(*ix))) == NULL ||
	    (mask = calloc(nall ? nall : 1, sizeof(*mask))) == NULL) {
		rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < nall; i++) {
		ix[i].name = all[i];
		ix[i].idx = i;
	}
	qsort(ix, nall, sizeof(*ix), nref_cmp);
	for (k = 0; k < c->nparts; k++) {
		const char *h = c->part_hosts[k];

		if (h[0] == '\0')
			continue;
		if (strcasecmp(h, "ALL") == 0) {
			for (i = 0; i < nall; i++)
				mask[i] |= 1u << k;
			continue;
		}
		free_names(some, nsome);
		some = NULL;
		nsome = capsome = 0;
		if ((rv = mg_hostlist(h, strlen(h), &some, &nsome, &capsome,
		    d)) != 0)
			goto out;
		for (i = 0; i < nsome; i++) {
			long at = lookup(ix, nall, some[i]);

			if (at < 0) {
				rv = mg_diag_set(d, MG_EINVAL, "partition "
				    "'%s': node '%s' is on no NodeName= line",
				    c->part_name[k], some[i]);
				goto out;
			}
			mask[at] |= 1u << k;
		}
	}
	/* pools: the nodes (each name once) of the same partitions */
	for (i = 0; i < nall; i++) {
		if (mask[i] == 0 || lookup(ix, nall, all[i]) != (long)i)
			continue;
		for (p = 0; p < *npools && pmask[p] != mask[i]; p++)
			;
		if (p == *npools) {
			if (p == MG_SLURM_MAXPOOL) {
				rv = mg_diag_set(d, MG_EINVAL, "partitions "
				    "share nodes in more than %d ways",
				    MG_SLURM_MAXPOOL);
				goto out;
			}
			pmask[p] = mask[i];
			pn[p] = 0;
			(*npools)++;
		}
		pn[p]++;
	}
	for (k = 0; k < c->nparts; k++) {
		kpools[k] = 0;
		if (c->part_hosts[k][0] == '\0') {
			/* a count: a pool of its own */
			if (*npools == MG_SLURM_MAXPOOL) {
				rv = mg_diag_set(d, MG_EINVAL, "more than %d "
				    "pools of nodes", MG_SLURM_MAXPOOL);
				goto out;
			}
			pmask[*npools] = 1u << k;
			pn[*npools] = c->part_nodes[k];
			kpools[k] = 1u << (*npools)++;
			continue;
		}
		for (p = 0; p < *npools; p++)
			if (pmask[p] >> k & 1)
				kpools[k] |= 1u << p;
	}
out:
	free_names(all, nall);
	free_names(some, nsome);
	free(ix);
	free(mask);
	return rv;
}

int
mg_simconf_partitions(struct mg_simconf *c, char *const *names, size_t n,
    struct mg_diag *d)
{
	uint32_t kpools[MG_SLURM_MAXPART];
	int32_t pn[MG_SLURM_MAXPOOL];
	size_t i;
	int k, p, rv, npools = 0, hosts = 0, total = 0;

	if (c->nparts == 0)
		return 0;
	if (n > MG_SLURM_MAXPART)
		return mg_diag_set(d, MG_EINVAL, "the trace has more than %d "
		    "partitions", MG_SLURM_MAXPART);
	for (k = 0; k < c->nparts; k++)
		hosts |= c->part_hosts[k][0] != '\0';
	if (hosts && (rv = share(c, kpools, pn, &npools, d)) != 0)
		return rv;
	for (i = 0; i < n; i++) {
		for (k = 0; k < c->nparts; k++)
			if (strcmp(names[i], c->part_name[k]) == 0)
				break;
		if (k == c->nparts)
			return mg_diag_set(d, MG_EINVAL, "partition '%s' of the "
			    "trace is not in the config", names[i]);
		c->slurm.part_nodes[i] = c->part_nodes[k];
		c->slurm.part_prio[i] = c->part_prio[k];
		c->slurm.part_tier[i] = c->part_tier[k];
		if (!hosts)
			continue;
		c->slurm.part_pools[i] = kpools[k];
		c->slurm.part_nodes[i] = 0;
		for (p = 0; p < npools; p++)
			if (kpools[k] >> p & 1)
				c->slurm.part_nodes[i] += pn[p];
	}
	if (hosts)
		for (p = 0; p < npools; p++)
			total += c->slurm.pool_nodes[p] = pn[p];
	else
		for (k = 0; k < c->nparts; k++)
			total += c->part_nodes[k];
	c->slurm.npools = hosts ? npools : 0;
	c->slurm.nparts = n > 0 ? (int)n : 0;
	c->slurm.nodes = total;
	return 0;
}

/* PriorityFlags: a comma list; ACCRUE_ALWAYS is the flag modelled */
static int
prio_flags(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	c->slurm.accrue_always = 0;
	while (*v != '\0') {
		size_t n = strcspn(v, ",");

		if (n == 13 && strncasecmp(v, "ACCRUE_ALWAYS", 13) == 0)
			c->slurm.accrue_always = 1;
		else if (n > 0)
			return mg_diag_set(d, MG_EINVAL, "PriorityFlags: '%.*s' "
			    "is not modelled (the faithful model has "
			    "ACCRUE_ALWAYS)", (int)n, v);
		v += n + (v[n] == ',');
	}
	return 0;
}

/* PreemptMode: the mode, and GANG (SUSPEND's gang scheduler) */
static int
preempt_mode(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	if (strcasecmp(v, "OFF") == 0)
		c->slurm.preempt_mode = MG_PREEMPT_OFF;
	else if (strcasecmp(v, "REQUEUE") == 0)
		c->slurm.preempt_mode = MG_PREEMPT_REQUEUE;
	else if (strcasecmp(v, "CANCEL") == 0)
		c->slurm.preempt_mode = MG_PREEMPT_CANCEL;
	else if (strcasecmp(v, "SUSPEND,GANG") == 0 ||
	    strcasecmp(v, "GANG,SUSPEND") == 0)
		c->slurm.preempt_mode = MG_PREEMPT_SUSPEND;
	else if (strcasecmp(v, "SUSPEND") == 0)
		return mg_diag_set(d, MG_EINVAL, "PreemptMode=SUSPEND needs "
		    "the gang scheduler that resumes the suspended jobs: "
		    "SUSPEND,GANG");
	else
		return mg_diag_set(d, MG_EINVAL, "PreemptMode is OFF, REQUEUE, "
		    "CANCEL or SUSPEND,GANG, not '%s'", v);
	return 0;
}

/* PreemptParameters: youngest_first among Slurm's */
static int
preempt_params(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	(void)d;
	if (strstr(v, "youngest_first") != NULL)
		c->slurm.victims = MG_VICTIM_YOUNGEST;
	return 0;
}

static int
victim_policy(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	enum mg_victim_policy p;

	if (mg_victim_policy_parse(v, &p) != 0)
		return mg_diag_set(d, MG_EINVAL, "VictimPolicy is prio, "
		    "youngest, random, las, pickyman, greedy or exact, not "
		    "'%s'", v);
	c->slurm.victims = (int)p;
	return 0;
}

static int
reclaim_policy(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	enum mg_victim_policy p;

	if (mg_victim_policy_parse(v, &p) != 0 || (p != MG_VICTIM_FEWEST &&
	    p != MG_VICTIM_RANDOM && p != MG_VICTIM_YOUNGEST))
		return mg_diag_set(d, MG_EINVAL, "ReclaimPolicy is fewest, "
		    "random or youngest (last in, first out), not '%s'", v);
	c->slurm.reclaim_policy = (int)p;
	return 0;
}

/* InferenceDemand: diurnal (drawn), or a file of the demand */
static int
inference_demand(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	if (strcmp(v, "diurnal") == 0)
		c->inf_file[0] = '\0';
	else if (*v == '\0' || strlen(v) >= sizeof(c->inf_file))
		return mg_diag_set(d, MG_EINVAL, "bad value '%s' for "
		    "InferenceDemand", v);
	else
		memcpy(c->inf_file, v, strlen(v) + 1);
	return 0;
}

static int
elastic_profile(struct mg_simconf *c, const char *v, struct mg_diag *d)
{
	return mg_eprofile_read(v, &c->el_prof, d);
}

/*
 * The settings: one row each, read by mg_simconf_set() and listed in
 * mirage-cluster(5) (tests/unit/t_simconf.c checks the two agree, and
 * that each default given is the one mg_simconf_init() sets).
 */
enum kind {
	K_INT,		/* a whole number in [lo, hi] */
	K_REAL,		/* a number in [min, max] */
	K_SPAN,		/* D-HH:MM:SS or minutes, as seconds in [lo, hi] */
	K_WORD,		/* one of words (any case), stored as its value */
	K_TEXT,		/* a path or a name */
	K_OWN		/* its own syntax: own() */
};

enum ctype { C_NONE, C_INT, C_I32, C_I64, C_U64, C_DBL, C_STR };

struct dest {
	size_t off;
	enum ctype type;
	size_t size;		/* C_STR: the array's */
};

struct setting {
	const char *name;
	enum kind kind;
	int64_t lo, hi;
	double min, max;
	const char *words;	/* K_WORD: by '|' */
	int values[4];		/* K_WORD: each word's */
	struct dest to[2];
	int (*own)(struct mg_simconf *, const char *, struct mg_diag *);
	const char *dflt;	/* as written; NULL: none, or by mode */
	const char *doc;
};

#define AT(f, t)	{ offsetof(struct mg_simconf, f), t, 0 }
#define STR(f)		{ offsetof(struct mg_simconf, f), C_STR, \
			    sizeof(((struct mg_simconf *)0)->f) }
#define INT(n, lo, hi, t1, t2, dflt, doc) \
	{ n, K_INT, lo, hi, 0, 0, NULL, { 0 }, { t1, t2 }, NULL, dflt, doc }
#define REAL(n, min, max, t1, dflt, doc) \
	{ n, K_REAL, 0, 0, min, max, NULL, { 0 }, { t1, { 0 } }, NULL, dflt, \
	    doc }
#define SPAN(n, lo, t1, t2, dflt, doc) \
	{ n, K_SPAN, lo, MAX_SPAN, 0, 0, NULL, { 0 }, { t1, t2 }, NULL, \
	    dflt, doc }
#define WORD(n, words, v0, v1, v2, t1, dflt, doc) \
	{ n, K_WORD, 0, 0, 0, 0, words, { v0, v1, v2, 0 }, { t1, { 0 } }, \
	    NULL, dflt, doc }
#define TEXT(n, t1, doc) \
	{ n, K_TEXT, 0, 0, 0, 0, NULL, { 0 }, { t1, { 0 } }, NULL, NULL, doc }
#define OWN(n, fn, dflt, doc) \
	{ n, K_OWN, 0, 0, 0, 0, NULL, { 0 }, { { 0 }, { 0 } }, fn, dflt, doc }
#define NONE	{ 0 }

static const struct setting settings[] = {
	WORD("Mode", "reference|faithful", MG_MODE_REFERENCE,
	    MG_MODE_FAITHFUL, 0, AT(mode, C_INT), "reference",
	    "which model: the original's simulator or Slurm's schedulers"),
	INT("Nodes", 1, 1000000, AT(ref.nodes, C_INT), AT(slurm.nodes, C_INT),
	    "88", "identical whole nodes"),
	INT("GpusPerNode", 1, 1024, AT(gpus_per_node, C_INT), NONE, NULL,
	    "GPUs of a node, to turn GPU requests into whole nodes"),
	OWN("NodeName", nodename, NULL, "faithful: the nodes by a hostlist"),
	OWN("PartitionName", partition, NULL, "faithful: a partition, its "
	    "nodes and priority"),
	INT("PriorityWeightAge", 0, 1000000000, AT(ref.w_age, C_DBL),
	    AT(slurm.w_age, C_DBL), NULL, "the age factor's weight (7000 "
	    "reference, 1000 faithful)"),
	INT("PriorityWeightJobSize", 0, 1000000000, AT(ref.w_size, C_DBL),
	    AT(slurm.w_size, C_DBL), NULL, "the size factor's weight (100 "
	    "reference, 1000 faithful)"),
	SPAN("PriorityMaxAge", 1, AT(ref.max_age, C_DBL),
	    AT(slurm.max_age, C_I64), "7-0", "the age factor's cap "
	    "(faithful)"),
	OWN("PriorityFlags", prio_flags, NULL, "faithful: ACCRUE_ALWAYS, age "
	    "from submission"),
	OWN("ReservationName", reservation, NULL, "faithful: nodes out of "
	    "service for a while"),
	OWN("SchedulerParameters", sched_params, NULL, "the schedulers' "
	    "intervals, window and depth"),
	INT("MaxJobsPerUser", 0, 1000000, AT(slurm.max_jobs_per_user, C_INT),
	    NONE, "0", "faithful: running jobs per user (0: no limit)"),
	INT("MaxJobsAccrue", 0, 1000000, AT(slurm.max_accrue, C_INT), NONE,
	    "0", "faithful: a user's pending jobs whose age counts (0: all)"),
	INT("MaxNodesPerUser", 0, 1000000,
	    AT(slurm.max_nodes_per_user, C_INT), NONE, "0", "faithful: nodes "
	    "per user's running jobs (0: no limit)"),
	INT("PriorityWeightPartition", 0, 1000000000, AT(slurm.w_part, C_DBL),
	    NONE, "0", "faithful: the partition factor's weight"),
	INT("PriorityWeightQOS", 0, 1000000000, AT(slurm.w_qos, C_DBL), NONE,
	    "0", "faithful: the QOS factor's weight"),
	OWN("QOSName", qos, NULL, "faithful: a QOS, its priority and limits"),
	INT("PriorityWeightTrace", 0, 1000000, AT(slurm.w_trace, C_DBL), NONE,
	    "0", "faithful: the weight of the trace's recorded priority"),
	INT("PriorityWeightFairshare", 0, 1000000000,
	    AT(slurm.w_fairshare, C_DBL), NONE, "0", "faithful: the "
	    "fair-share factor's weight"),
	SPAN("PriorityDecayHalfLife", 1, AT(slurm.decay_half_life, C_I64),
	    NONE, "7-0", "faithful: the half-life of past usage"),
	SPAN("PriorityCalcPeriod", 1, AT(slurm.calc_period, C_I64), NONE, "5",
	    "faithful: how often pending jobs' priorities are set"),
	WORD("FairshareBy", "user|account|tree", MG_FS_USER, MG_FS_ACCOUNT,
	    MG_FS_TREE, AT(slurm.fs_by, C_INT), "user", "faithful: equal "
	    "shares per user, per account, or Fair Tree"),
	INT("DependencyFromTrace", 0, 86400, AT(dep_gap, C_I64), NONE, "0",
	    "faithful: infer dependencies within so many seconds"),
	INT("CapacityFromTrace", 0, 30 * 86400, AT(cap_window, C_I64), NONE,
	    "0", "faithful: the nodes up, from the trace, by windows of so "
	    "many seconds"),
	INT("CapacitySlack", 0, 1000000, AT(cap_slack, C_I32), NONE, "0",
	    "faithful: nodes added to that capacity"),
	OWN("PreemptMode", preempt_mode, "OFF", "faithful: what a preempted "
	    "job does"),
	WORD("PreemptType", "preempt/qos|preempt/partition_prio|preempt/none",
	    MG_PTYPE_QOS, MG_PTYPE_PARTITION, MG_PTYPE_NONE,
	    AT(slurm.preempt_type, C_INT), "preempt/qos", "faithful: who may "
	    "preempt whom"),
	TEXT("UrgentQOS", STR(urgent_qos), "faithful: the QOS of the urgent "
	    "jobs"),
	SPAN("PreemptExemptTime", 0, AT(slurm.preempt_exempt, C_I64), NONE,
	    "0", "faithful: a job runs so long before it may be preempted"),
	OWN("PreemptParameters", preempt_params, NULL, "faithful: "
	    "youngest_first"),
	OWN("VictimPolicy", victim_policy, "prio", "faithful: which jobs are "
	    "preempted"),
	REAL("PreemptPredictError", 0, 10, AT(slurm.predict_error, C_DBL),
	    "0", "faithful: the relative error of predicted overheads"),
	TEXT("DLAttrFile", STR(dl_file), "faithful: the jobs' deep-learning "
	    "attributes, a dlattrs stream"),
	INT("DLAttrSeed", 0, INT64_MAX, AT(dl_seed, C_U64),
	    AT(slurm.preempt_seed, C_U64), "0", "faithful: the seed of the "
	    "attributes drawn"),
	INT("DLEqualOverheads", 0, 1, AT(slurm.dlgen.equal, C_INT), NONE, "0",
	    "faithful: every job the same epoch time and family"),
	REAL("UrgentShare", 0, 1, AT(slurm.dlgen.urgent_share, C_DBL), "0.1",
	    "faithful: the share of the jobs drawn urgent"),
	INT("InferenceNodes", 0, 1000000, AT(slurm.inf_nodes, C_I32),
	    AT(loangen.nodes, C_I32), "0", "faithful: the inference pool that "
	    "lends its idle nodes"),
	OWN("InferenceDemand", inference_demand, "diurnal", "faithful: the "
	    "pool's demand, drawn or from a file"),
	REAL("InferenceNodeCapacity", 0, 1e12, AT(inf_capacity, C_DBL), "0",
	    "faithful: requests per second a node serves"),
	REAL("InferenceBase", 0, 1e6, AT(loangen.base, C_DBL), NULL,
	    "faithful: the demand at night, nodes"),
	REAL("InferenceAmplitude", 0, 1e6, AT(loangen.amp, C_DBL), NULL,
	    "faithful: the day's swing of the demand, nodes"),
	REAL("InferenceNoise", 0, 1e6, AT(loangen.noise, C_DBL), NULL,
	    "faithful: the demand's hourly noise, nodes"),
	REAL("InferencePeakHour", 0, 24, AT(loangen.peak_hour, C_DBL), "14",
	    "faithful: when the demand peaks, UTC hours"),
	INT("InferenceSeed", 0, INT64_MAX, AT(loangen.seed, C_U64), NONE, "1",
	    "faithful: the seed of the demand drawn"),
	SPAN("LoanInterval", 1, AT(slurm.loan_interval, C_I64), NONE, "5",
	    "faithful: how often idle nodes are lent"),
	INT("LoanHeadroom", 0, 1000000, AT(slurm.loan_headroom, C_I32), NONE,
	    "2", "faithful: idle nodes the pool keeps"),
	INT("ReclaimGrace", 0, 86400, AT(slurm.reclaim_grace, C_I64), NONE,
	    "60", "faithful: seconds a reclaim may take"),
	OWN("ReclaimPolicy", reclaim_policy, "fewest", "faithful: which "
	    "borrowers give back their nodes"),
	REAL("ElasticShare", 0, 1, AT(el_share, C_DBL), "0", "faithful: the "
	    "share of the jobs drawn elastic"),
	REAL("ElasticAlpha", DBL_MIN, 1, AT(el_alpha, C_DBL), "0.8",
	    "faithful: the elastic jobs' speedup exponent"),
	WORD("ElasticAlloc", "mckp|greedy", 0, 1, 0, AT(slurm.el_greedy,
	    C_INT), "mckp", "faithful: how nodes are shared among elastic "
	    "jobs"),
	TEXT("ElasticFile", STR(el_file), "faithful: which jobs are elastic, "
	    "an elastic stream"),
	OWN("ElasticProfile", elastic_profile, NULL, "faithful: a measured "
	    "speedup curve"),
	WORD("JobOrder", "priority|sjf", 0, 1, 0, AT(slurm.sjf, C_INT),
	    "priority", "faithful: the queue by priority or shortest limit "
	    "first")
};

#define NSETTINGS	(sizeof(settings) / sizeof(settings[0]))

/* "a, b or c" from "a|b|c" */
static void
word_list(const char *words, char *buf, size_t cap)
{
	size_t n = 0, k, nw = 1;
	const char *p;

	for (p = words; *p; p++)
		nw += *p == '|';
	buf[0] = '\0';
	for (k = 0, p = words; k < nw && n < cap; k++) {
		size_t w = strcspn(p, "|");

		n += (size_t)snprintf(buf + n, cap - n, "%s%.*s", k == 0 ? "" :
		    k == nw - 1 ? " or " : ", ", (int)w, p);
		p += w + (p[w] == '|');
	}
}

/* the value of word v in k->words, or -1 */
static int
word_of(const struct setting *k, const char *v)
{
	const char *p = k->words;
	int i;

	for (i = 0; *p; i++) {
		size_t w = strcspn(p, "|");

		if (strlen(v) == w && strncasecmp(p, v, w) == 0)
			return i;
		p += w + (p[w] == '|');
	}
	return -1;
}

static void
store(struct mg_simconf *c, const struct dest *t, int64_t x, double r,
    const char *v)
{
	char *at = (char *)c + t->off;

	switch (t->type) {
	case C_INT:
		*(int *)(void *)at = (int)x;
		break;
	case C_I32:
		*(int32_t *)(void *)at = (int32_t)x;
		break;
	case C_I64:
		*(int64_t *)(void *)at = x;
		break;
	case C_U64:
		*(uint64_t *)(void *)at = (uint64_t)x;
		break;
	case C_DBL:
		*(double *)(void *)at = r;
		break;
	case C_STR:
		memcpy(at, v, strlen(v) + 1);
		break;
	case C_NONE:
		break;
	}
}

static const struct setting *
setting_of(const char *key)
{
	size_t i;

	for (i = 0; i < NSETTINGS; i++)
		if (strcasecmp(settings[i].name, key) == 0)
			return &settings[i];
	return NULL;
}

int
mg_simconf_set(struct mg_simconf *c, const char *kv, struct mg_diag *d)
{
	static const char *const ignored[] = { "ClusterName", "SlurmctldHost",
	    "PriorityType", "SchedulerType", "SelectType",
	    "SelectTypeParameters", NULL };
	const struct setting *k;
	const char *eq = strchr(kv, '='), *v;
	char key[64], list[256];
	int64_t x = 0;
	double r = 0;
	size_t n;
	int i;

	if (eq == NULL || eq == kv || (size_t)(eq - kv) >= sizeof(key))
		return mg_diag_set(d, MG_EINVAL, "not Key=Value: '%s'", kv);
	n = (size_t)(eq - kv);
	memcpy(key, kv, n);
	key[n] = '\0';
	v = eq + 1;
	if ((k = setting_of(key)) == NULL) {
		for (i = 0; ignored[i]; i++)
			if (strcasecmp(key, ignored[i]) == 0)
				return 0;
		return mg_diag_set(d, MG_EINVAL, "unknown key '%s'", key);
	}
	switch (k->kind) {
	case K_OWN:
		return k->own(c, v, d);
	case K_INT:
		if (num(v, k->lo, k->hi, &x) != 0)
			goto bad;
		r = (double)x;
		break;
	case K_SPAN:
		if (mg_parse_duration(v, strlen(v), &x) != 0 || x < k->lo ||
		    x > k->hi)
			goto bad;
		r = (double)x;
		break;
	case K_REAL:
		if (real(v, k->min, k->max, &r) != 0)
			goto bad;
		break;
	case K_WORD:
		if ((i = word_of(k, v)) < 0) {
			word_list(k->words, list, sizeof(list));
			return mg_diag_set(d, MG_EINVAL, "%s is %s, not '%s'",
			    k->name, list, v);
		}
		x = k->values[i];
		break;
	case K_TEXT:
		if (*v == '\0' || strlen(v) >= k->to[0].size)
			goto bad;
		break;
	}
	store(c, &k->to[0], x, r, v);
	store(c, &k->to[1], x, r, v);
	return 0;
bad:
	return mg_diag_set(d, MG_EINVAL, "bad value '%s' for %s", v, key);
}

size_t
mg_simconf_settings(void)
{
	return NSETTINGS;
}

const char *
mg_simconf_setting(size_t i, const char **dflt, const char **doc)
{
	if (i >= NSETTINGS)
		return NULL;
	if (dflt != NULL)
		*dflt = settings[i].dflt;
	if (doc != NULL)
		*doc = settings[i].doc;
	return settings[i].name;
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
mg_simconf_option(struct mg_simconf *c, const char *name, const char *arg,
    struct mg_diag *d)
{
	char kv[256];

	if (strcmp(name, "config") == 0)
		return mg_simconf_load(c, arg, d);
	if (strcmp(name, "mode") == 0) {
		snprintf(kv, sizeof(kv), "Mode=%s", arg);
		return mg_simconf_set(c, kv, d);
	}
	if (strcmp(name, "nodes") == 0) {
		snprintf(kv, sizeof(kv), "Nodes=%s", arg);
		if (mg_simconf_set(c, kv, NULL) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid node count "
			    "'%s'", arg);
		return 0;
	}
	if (strcmp(name, "set") == 0)
		return mg_simconf_set(c, arg, d);
	return mg_diag_set(d, MG_EINVAL, "no cluster setting '%s'", name);
}

int
mg_simconf_new(struct mg_simconf **out)
{
	if ((*out = malloc(sizeof(**out))) == NULL)
		return MG_ENOMEM;
	mg_simconf_init(*out);
	return 0;
}

struct mg_simconf *
mg_simconf_dup(const struct mg_simconf *c)
{
	struct mg_simconf *x = malloc(sizeof(*x));

	if (x != NULL)
		*x = *c;
	return x;
}

void
mg_simconf_free(struct mg_simconf *c)
{
	free(c);
}

/* ---- what the tools and layers read of it -------------------------- */

enum mg_simmode
mg_simconf_mode(const struct mg_simconf *c)
{
	return c->mode;
}

int32_t
mg_simconf_nodes(const struct mg_simconf *c)
{
	return c->mode == MG_MODE_FAITHFUL ? c->slurm.nodes : c->ref.nodes;
}

int
mg_simconf_partition(const struct mg_simconf *c, const char *name,
    int32_t *nodes, char *hosts, size_t cap)
{
	int k;

	for (k = 0; k < c->nparts; k++)
		if (strcmp(c->part_name[k], name) == 0) {
			*nodes = c->part_nodes[k];
			if (cap > 0)
				snprintf(hosts, cap, "%s", c->part_hosts[k]);
			return 0;
		}
	return -1;
}

void
mg_simconf_user_limits(const struct mg_simconf *c, int *jobs, int *nodes)
{
	*jobs = c->slurm.max_jobs_per_user;
	*nodes = c->slurm.max_nodes_per_user;
}

int
mg_simconf_gpus_per_node(const struct mg_simconf *c)
{
	return c->gpus_per_node;
}

int
mg_simconf_preempts(const struct mg_simconf *c, const char **mode,
    const char **victims)
{
	if (mode != NULL)
		*mode = c->slurm.preempt_mode == MG_PREEMPT_CANCEL ? "CANCEL" :
		    c->slurm.preempt_mode == MG_PREEMPT_SUSPEND ?
		    "SUSPEND,GANG" : "REQUEUE";
	if (victims != NULL)
		*victims = mg_victim_policy_name((enum mg_victim_policy)
		    c->slurm.victims);
	return c->mode == MG_MODE_FAITHFUL && mg_slurmsim_params_preempts(&c->slurm);
}

int32_t
mg_simconf_loans(const struct mg_simconf *c, const char **reclaim)
{
	if (reclaim != NULL)
		*reclaim = mg_victim_policy_name((enum mg_victim_policy)
		    c->slurm.reclaim_policy);
	return c->mode == MG_MODE_FAITHFUL ? c->slurm.inf_nodes : 0;
}

uint64_t
mg_simconf_dl_seed(const struct mg_simconf *c)
{
	return c->dl_seed;
}
