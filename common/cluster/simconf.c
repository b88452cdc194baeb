/* simconf.c: the model's configuration file; see simconf.h. */
#include <errno.h>
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
	mg_simcfg_reference(&c->ref, 88);
	mg_slurmcfg_default(&c->slurm, 88);
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

int
mg_simconf_set(struct mg_simconf *c, const char *kv, struct mg_diag *d)
{
	static const char *const ignored[] = { "ClusterName", "SlurmctldHost",
	    "PriorityType", "SchedulerType", "SelectType",
	    "SelectTypeParameters", NULL };
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
		if (mg_parse_duration(v, strlen(v), &x) != 0 || x <= 0 ||
		    x > MAX_SPAN)
			goto bad;
		c->slurm.decay_half_life = x;
	} else if (strcasecmp(key, "PriorityCalcPeriod") == 0) {
		if (mg_parse_duration(v, strlen(v), &x) != 0 || x <= 0 ||
		    x > MAX_SPAN)
			goto bad;
		c->slurm.calc_period = x;
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
		if (mg_parse_duration(v, strlen(v), &x) != 0 || x <= 0 ||
		    x > MAX_SPAN)
			goto bad;
		c->ref.max_age = (double)x;
		c->slurm.max_age = x;
	} else if (strcasecmp(key, "PriorityFlags") == 0) {
		if (prio_flags(c, v, d) != 0)
			return MG_EINVAL;
	} else if (strcasecmp(key, "FairshareBy") == 0) {
		if (strcasecmp(v, "user") == 0)
			c->slurm.fs_by = MG_FS_USER;
		else if (strcasecmp(v, "account") == 0)
			c->slurm.fs_by = MG_FS_ACCOUNT;
		else if (strcasecmp(v, "tree") == 0)
			c->slurm.fs_by = MG_FS_TREE;
		else
			return mg_diag_set(d, MG_EINVAL, "FairshareBy is user, "
			    "account or tree, not '%s'", v);
	} else if (strcasecmp(key, "PriorityWeightPartition") == 0) {
		if (num(v, 0, 1000000000, &x) != 0)
			goto bad;
		c->slurm.w_part = (double)x;
	} else if (strcasecmp(key, "PriorityWeightQOS") == 0) {
		if (num(v, 0, 1000000000, &x) != 0)
			goto bad;
		c->slurm.w_qos = (double)x;
	} else if (strcasecmp(key, "PartitionName") == 0) {
		return partition(c, v, d);
	} else if (strcasecmp(key, "NodeName") == 0) {
		return nodename(c, v, d);
	} else if (strcasecmp(key, "ReservationName") == 0) {
		return reservation(c, v, d);
	} else if (strcasecmp(key, "QOSName") == 0) {
		return qos(c, v, d);
	} else if (strcasecmp(key, "SchedulerParameters") == 0) {
		return sched_params(c, v, d);
	} else if (strcasecmp(key, "PreemptMode") == 0) {
		/* the mode, and GANG (SUSPEND's gang scheduler) */
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
			return mg_diag_set(d, MG_EINVAL, "PreemptMode=SUSPEND "
			    "needs the gang scheduler that resumes the "
			    "suspended jobs: SUSPEND,GANG");
		else
			return mg_diag_set(d, MG_EINVAL, "PreemptMode is OFF, "
			    "REQUEUE, CANCEL or SUSPEND,GANG, not '%s'", v);
	} else if (strcasecmp(key, "PreemptType") == 0) {
		if (strcmp(v, "preempt/none") == 0)
			c->slurm.preempt_type = MG_PTYPE_NONE;
		else if (strcmp(v, "preempt/qos") == 0)
			c->slurm.preempt_type = MG_PTYPE_QOS;
		else if (strcmp(v, "preempt/partition_prio") == 0)
			c->slurm.preempt_type = MG_PTYPE_PARTITION;
		else
			return mg_diag_set(d, MG_EINVAL, "PreemptType is "
			    "preempt/qos, preempt/partition_prio or preempt/none, "
			    "not '%s'", v);
	} else if (strcasecmp(key, "UrgentQOS") == 0) {
		if (*v == '\0' || strlen(v) >= sizeof(c->urgent_qos))
			goto bad;
		memcpy(c->urgent_qos, v, strlen(v) + 1);
	} else if (strcasecmp(key, "PreemptExemptTime") == 0) {
		if (mg_parse_duration(v, strlen(v), &x) != 0 || x < 0 ||
		    x > MAX_SPAN)
			goto bad;
		c->slurm.preempt_exempt = x;
	} else if (strcasecmp(key, "PreemptParameters") == 0) {
		if (strstr(v, "youngest_first") != NULL)
			c->slurm.victims = MG_VICTIM_YOUNGEST;
	} else if (strcasecmp(key, "VictimPolicy") == 0) {
		enum mg_victim_policy p;

		if (mg_victim_policy_parse(v, &p) != 0)
			return mg_diag_set(d, MG_EINVAL, "VictimPolicy is prio, "
			    "youngest, random, las, pickyman, greedy or exact, "
			    "not '%s'", v);
		c->slurm.victims = (int)p;
	} else if (strcasecmp(key, "DLAttrSeed") == 0) {
		if (num(v, 0, INT64_MAX, &x) != 0)
			goto bad;
		c->dl_seed = (uint64_t)x;
		c->slurm.preempt_seed = (uint64_t)x;
	} else if (strcasecmp(key, "DLAttrFile") == 0) {
		if (*v == '\0' || strlen(v) >= sizeof(c->dl_file))
			goto bad;
		memcpy(c->dl_file, v, strlen(v) + 1);
	} else if (strcasecmp(key, "DLEqualOverheads") == 0) {
		if (num(v, 0, 1, &x) != 0)
			goto bad;
		c->slurm.dlgen.equal = (int)x;
	} else if (strcasecmp(key, "PreemptPredictError") == 0) {
		if (real(v, 0, 10, &c->slurm.predict_error) != 0)
			goto bad;
	} else if (strcasecmp(key, "InferenceNodes") == 0) {
		if (num(v, 0, 1000000, &x) != 0)
			goto bad;
		c->slurm.inf_nodes = (int32_t)x;
		c->loangen.nodes = (int32_t)x;
	} else if (strcasecmp(key, "InferenceDemand") == 0) {
		if (strcmp(v, "diurnal") == 0)
			c->inf_file[0] = '\0';
		else if (*v == '\0' || strlen(v) >= sizeof(c->inf_file))
			goto bad;
		else
			memcpy(c->inf_file, v, strlen(v) + 1);
	} else if (strcasecmp(key, "InferenceNodeCapacity") == 0) {
		if (real(v, 0, 1e12, &c->inf_capacity) != 0)
			goto bad;
	} else if (strcasecmp(key, "InferenceBase") == 0) {
		if (real(v, 0, 1e6, &c->loangen.base) != 0)
			goto bad;
	} else if (strcasecmp(key, "InferenceAmplitude") == 0) {
		if (real(v, 0, 1e6, &c->loangen.amp) != 0)
			goto bad;
	} else if (strcasecmp(key, "InferenceNoise") == 0) {
		if (real(v, 0, 1e6, &c->loangen.noise) != 0)
			goto bad;
	} else if (strcasecmp(key, "InferencePeakHour") == 0) {
		if (real(v, 0, 24, &c->loangen.peak_hour) != 0)
			goto bad;
	} else if (strcasecmp(key, "InferenceSeed") == 0) {
		if (num(v, 0, INT64_MAX, &x) != 0)
			goto bad;
		c->loangen.seed = (uint64_t)x;
	} else if (strcasecmp(key, "LoanInterval") == 0) {
		if (mg_parse_duration(v, strlen(v), &x) != 0 || x <= 0 ||
		    x > MAX_SPAN)
			goto bad;
		c->slurm.loan_interval = x;
	} else if (strcasecmp(key, "LoanHeadroom") == 0) {
		if (num(v, 0, 1000000, &x) != 0)
			goto bad;
		c->slurm.loan_headroom = (int32_t)x;
	} else if (strcasecmp(key, "ReclaimGrace") == 0) {
		if (num(v, 0, 86400, &x) != 0)
			goto bad;
		c->slurm.reclaim_grace = x;
	} else if (strcasecmp(key, "ReclaimPolicy") == 0) {
		enum mg_victim_policy p;

		if (mg_victim_policy_parse(v, &p) != 0 || (p !=
		    MG_VICTIM_FEWEST && p != MG_VICTIM_RANDOM &&
		    p != MG_VICTIM_YOUNGEST))
			return mg_diag_set(d, MG_EINVAL, "ReclaimPolicy is "
			    "fewest, random or youngest (last in, first "
			    "out), not '%s'", v);
		c->slurm.reclaim_policy = (int)p;
	} else if (strcasecmp(key, "ElasticShare") == 0) {
		if (real(v, 0, 1, &c->el_share) != 0)
			goto bad;
	} else if (strcasecmp(key, "ElasticProfile") == 0) {
		return mg_eprofile_read(v, &c->el_prof, d);
	} else if (strcasecmp(key, "ElasticFile") == 0) {
		if (*v == '\0' || strlen(v) >= sizeof(c->el_file))
			goto bad;
		memcpy(c->el_file, v, strlen(v) + 1);
	} else if (strcasecmp(key, "ElasticAlpha") == 0) {
		if (real(v, 0, 1, &c->el_alpha) != 0 || c->el_alpha <= 0)
			goto bad;
	} else if (strcasecmp(key, "JobOrder") == 0) {
		if (strcmp(v, "priority") == 0)
			c->slurm.sjf = 0;
		else if (strcmp(v, "sjf") == 0)
			c->slurm.sjf = 1;
		else
			return mg_diag_set(d, MG_EINVAL, "JobOrder is priority "
			    "or sjf, not '%s'", v);
	} else if (strcasecmp(key, "ElasticAlloc") == 0) {
		if (strcmp(v, "mckp") == 0)
			c->slurm.el_greedy = 0;
		else if (strcmp(v, "greedy") == 0)
			c->slurm.el_greedy = 1;
		else
			return mg_diag_set(d, MG_EINVAL, "ElasticAlloc is mckp "
			    "or greedy, not '%s'", v);
	} else if (strcasecmp(key, "UrgentShare") == 0) {
		if (real(v, 0, 1, &c->slurm.dlgen.urgent_share) != 0)
			goto bad;
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
	return c->mode == MG_MODE_FAITHFUL && mg_slurmcfg_preempts(&c->slurm);
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
