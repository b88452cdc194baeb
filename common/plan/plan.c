/*
 * plan.c: decisions from sampled futures; see plan.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/parse.h"
#include "base/rand.h"
#include "cluster/cluster.h"
#include "plan/plan.h"

#define DAY		86400
#define WEEK		(7 * DAY)
#define TICK		600
#define NCLS		5	/* limit classes; NCLS: all jobs */
#define MINSAMPLE	20	/* fewer in a class: draw from all jobs */
#define MINUSER		5	/* fewer of a user's in a class: the class */
#define RECENT_SCAN	1000	/* a user's jobs looked at for the recent */
#define PRIO_SCALE	1000.0	/* view priorities as the model's integers */
#define MAXWAIT		(30 * DAY)
#define FOLLOW_TRIES	8	/* draws for a past job of a running job's size */
#define BF_INTERVAL	300	/* the planner's backfill passes: a tenth of
				 * Slurm's (30 s), for its speed */

/* a job of the trace that ran, by its end */
struct uend {
	int64_t end;
	int32_t job;
};

/* an ended job of the history: when it ended, the share of its limit */
struct rt {
	int64_t end;
	float r;
};

struct mg_plan {
	struct mg_planconf c;
	const struct mg_trace *t;
	struct rt *cls[NCLS + 1];	/* by end time */
	size_t ncls[NCLS + 1];
	struct rt *ucls;	/* by (user, class), then end time */
	size_t *uoff;		/* (user, class) k: ucls[uoff[k] .. uoff[k+1]) */
	size_t nkeys;
	int32_t *capmost;	/* the most of c.cap_nodes[0..i] */
	/* c.follow > 0: resubmissions */
	int32_t *fol;		/* trace job: the job that follows it, or -1 */
	int32_t *pred;		/* trace job: the job it follows, or -1 */
	struct uend *uend;	/* trace jobs that ran, by (user, end) */
	size_t *ueoff;		/* user u: uend[ueoff[u] .. ueoff[u + 1]) */
};

/* candidate submission times after now, as offsets (seconds) */
static const int64_t cand_off[] = { 600, 1200, 1800, 2400, 3600, 5400,
	7200, 10800, 14400, 21600, 28800, 43200, 64800 };
#define NOFF	(sizeof(cand_off) / sizeof(cand_off[0]))

void
mg_planconf_default(struct mg_planconf *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->k = 8;
	pc->seed = 1;
	pc->window = DAY;
	pc->history = 30 * DAY;
	pc->margin = 12 * 3600;
	/* chosen on the training period's episodes (mirage-eval(1)) */
	pc->arrivals = MG_PLAN_ARR_BLOCKS;
	pc->block = 4 * 3600;
	pc->runtimes = MG_PLAN_RT_USER;
	pc->recent = 10;
}

/* "blocks[:H][,rate[:W]]" into pc; 0 or -1 (pc unchanged) */
static int
parse_blocks(struct mg_planconf *pc, const char *arg)
{
	const char *comma = strchr(arg, ',');
	size_t len = comma ? (size_t)(comma - arg) : strlen(arg);
	int64_t h = pc->block / 3600, w = 0;

	if (len < 6 || strncmp(arg, "blocks", 6) != 0 || (len > 6 &&
	    (arg[6] != ':' || mg_parse_i64(arg + 7, len - 7, 1, 24, &h) != 0)))
		return -1;
	if (comma != NULL) {
		const char *r = comma + 1;

		if (strncmp(r, "rate", 4) != 0 || (r[4] != '\0' &&
		    (r[4] != ':' || mg_parse_i64(r + 5, strlen(r + 5), 1, 720,
		    &w) != 0)))
			return -1;
		if (r[4] == '\0')
			w = 24;
	}
	pc->arrivals = MG_PLAN_ARR_BLOCKS;
	pc->block = h * 3600;
	pc->rate = w * 3600;
	return 0;
}

/* "p:q,p:q,..." of nondecreasing p in [0, 1] and q in [0, 1] into
 * p[], q[] (at most MG_PLAN_MAXK + 1); their count, or -1 */
static int
parse_knots(const char *s, size_t len, double *p, double *q)
{
	int n = 0;
	size_t i = 0;

	while (i < len) {
		size_t j = i, colon = 0;

		while (j < len && s[j] != ',') {
			if (s[j] == ':')
				colon = j;
			j++;
		}
		if (n > MG_PLAN_MAXK || colon <= i || mg_parse_f64(s + i,
		    colon - i, &p[n]) != 0 || mg_parse_f64(s + colon + 1,
		    j - colon - 1, &q[n]) != 0 || !(p[n] >= 0 && p[n] <= 1 &&
		    q[n] >= 0 && q[n] <= 1) || (n > 0 && p[n] <= p[n - 1]))
			return -1;
		n++;
		i = j + 1;
	}
	return n > 0 ? n : -1;
}

int
mg_plan_option(struct mg_planconf *pc, double *lambda, const char *name,
    const char *arg, struct mg_diag *d)
{
	int64_t v;

	if (strcmp(name, "plan") == 0) {
		if (mg_parse_i64(arg, strlen(arg), 1, MG_PLAN_MAXK, &v) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid number of "
			    "futures '%s' (1 to %d)", arg, MG_PLAN_MAXK);
		pc->k = (int)v;
	} else if (strcmp(name, "lambda") == 0) {
		if (mg_parse_f64(arg, strlen(arg), lambda) != 0 ||
		    !(*lambda > 0 && *lambda < 1e6))
			return mg_diag_set(d, MG_EINVAL, "invalid --lambda '%s' "
			    "(a positive number)", arg);
	} else if (strcmp(name, "plan-seed") == 0) {
		if (mg_parse_i64(arg, strlen(arg), 0, INT64_MAX, &v) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-seed "
			    "'%s'", arg);
		pc->seed = (uint64_t)v;
	} else if (strcmp(name, "plan-arrivals") == 0) {
		if (strcmp(arg, "week") == 0)
			pc->arrivals = MG_PLAN_ARR_WEEK;
		else if (parse_blocks(pc, arg) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--plan-arrivals '%s' (week, or blocks[:H][,rate[:W]]"
			    ", H from 1 to 24 hours, W from 1 to 720)", arg);
	} else if (strcmp(name, "plan-runtimes") == 0) {
		if (strcmp(arg, "class") == 0)
			pc->runtimes = MG_PLAN_RT_CLASS;
		else if (strcmp(arg, "user") == 0)
			pc->runtimes = MG_PLAN_RT_USER;
		else if (strncmp(arg, "recent", 6) == 0 && (arg[6] == '\0' ||
		    (arg[6] == ':' && mg_parse_i64(arg + 7, strlen(arg + 7), 1,
		    1000, &v) == 0))) {
			pc->runtimes = MG_PLAN_RT_RECENT;
			if (arg[6] == ':')
				pc->recent = (int)v;
		} else
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--plan-runtimes '%s' (class, user, recent or "
			    "recent:N, N from 1 to 1000 jobs)", arg);
	} else if (strcmp(name, "plan-calibration") == 0) {
		const char *slash = strchr(arg, '/');
		int a, b;

		if (slash == NULL || (a = parse_knots(arg, (size_t)(slash -
		    arg), pc->calp[0], pc->calq[0])) < 0 ||
		    (b = parse_knots(slash + 1, strlen(slash + 1), pc->calp[1],
		    pc->calq[1])) < 0) {
			pc->ncal[0] = pc->ncal[1] = 0;
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--plan-calibration '%s' (p:q,... for submitting "
			    "now, '/', p:q,... for later: increasing chances p "
			    "and their calibrated q, from 0 to 1)", arg);
		}
		pc->ncal[0] = a;
		pc->ncal[1] = b;
	} else if (strcmp(name, "plan-limits") == 0) {
		const char *colon = strchr(arg, ':');
		int64_t m = 0;

		if (strcmp(arg, "none") == 0)
			v = 0;
		else if (mg_parse_i64(arg, colon ? (size_t)(colon - arg) :
		    strlen(arg), 0, 100000, &v) != 0 || (colon != NULL &&
		    mg_parse_i64(colon + 1, strlen(colon + 1), 0, 1000000,
		    &m) != 0))
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-limits "
			    "'%s' (none, or JOBS[:NODES], the running jobs and "
			    "nodes a user may hold, 0 for no limit)", arg);
		pc->max_jobs_pu = (int)v;
		pc->max_nodes_pu = (int)m;
	} else if (strcmp(name, "plan-capacity") == 0) {
		static const char *const cm[] = { "delta", "day", "now" };
		const char *colon = strchr(arg, ':');
		size_t len = colon ? (size_t)(colon - arg) : strlen(arg), i;

		for (i = 0; i < 3; i++)
			if (strlen(cm[i]) == len && strncmp(arg, cm[i], len) == 0)
				break;
		v = 0;
		if (i == 3 || (colon != NULL && mg_parse_i64(colon + 1,
		    strlen(colon + 1), 0, 1440, &v) != 0))
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--plan-capacity '%s' (delta, day or now, with "
			    ":M the minutes from 0 to 1440 that now's holds)",
			    arg);
		pc->cap_model = (enum mg_plancap)i;
		pc->cap_hold = v * 60;
	} else if (strcmp(name, "plan-followers") == 0) {
		if (strcmp(arg, "none") == 0)
			v = 0;
		else if (mg_parse_i64(arg, strlen(arg), 1, 1440, &v) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--plan-followers '%s' (none, or the minutes from 1 "
			    "to 1440 within which a user's next job follows "
			    "one that ended)", arg);
		pc->follow = v * 60;
	} else if (strcmp(name, "plan-model") == 0) {
		if (strcmp(arg, "faithful") == 0)
			pc->model = MG_PLAN_FAITHFUL;
		else if (strcmp(arg, "reference") == 0)
			pc->model = MG_PLAN_REFERENCE;
		else
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-model "
			    "'%s' (faithful or reference)", arg);
	} else
		return mg_diag_set(d, MG_EINVAL, "no planner option '%s'",
		    name);
	return 0;
}

static size_t
below(uint64_t *s, size_t n)
{
	return (size_t)(mg_rand64(s) % n);
}

static int
limit_class(int64_t limit)
{
	return limit <= 3600 ? 0 : limit <= 6 * 3600 ? 1 : limit <= DAY ? 2 :
	    limit <= 2 * DAY ? 3 : 4;
}

static int
rt_cmp(const void *a, const void *b)
{
	const struct rt *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (x->r > y->r) - (x->r < y->r);
}

/* the ended jobs of each (user, class), by end time (counting sort) */
static int
by_user(struct mg_plan *p)
{
	const struct mg_trace *t = p->t;
	size_t i, k, *fill;
	int32_t most = -1;

	for (i = 0; i < t->n; i++)
		if (t->job[i].user > most)
			most = t->job[i].user;
	p->nkeys = (size_t)(most + 1) * NCLS;
	if ((p->uoff = calloc(p->nkeys + 1, sizeof(*p->uoff))) == NULL ||
	    (p->ucls = malloc((t->n ? t->n : 1) * sizeof(*p->ucls))) == NULL ||
	    (fill = malloc((p->nkeys + 1) * sizeof(*fill))) == NULL)
		return MG_ENOMEM;
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *j = &t->job[i];

		if (j->limit > 0 && j->dur >= 0 && j->start >= 0 && j->user >= 0)
			p->uoff[(size_t)j->user * NCLS +
			    (size_t)limit_class(j->limit) + 1]++;
	}
	for (k = 0; k < p->nkeys; k++)
		p->uoff[k + 1] += p->uoff[k];
	memcpy(fill, p->uoff, (p->nkeys + 1) * sizeof(*fill));
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *j = &t->job[i];
		struct rt x;

		if (j->limit <= 0 || j->dur < 0 || j->start < 0 || j->user < 0)
			continue;
		x.end = j->start + j->dur;
		x.r = (float)((double)j->dur / (double)j->limit);
		p->ucls[fill[(size_t)j->user * NCLS +
		    (size_t)limit_class(j->limit)]++] = x;
	}
	free(fill);
	for (k = 0; k < p->nkeys; k++)
		qsort(p->ucls + p->uoff[k], p->uoff[k + 1] - p->uoff[k],
		    sizeof(struct rt), rt_cmp);
	return 0;
}

static int64_t
end_of(const struct mg_trace *t, int32_t i)
{
	return t->job[i].start + t->job[i].dur;
}

static int
uend_cmp(const void *a, const void *b)
{
	const struct uend *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/*
 * Who resubmits: each job that ran followed by its user's first job
 * submitted in [its end - 60 s, its end + follow] (fol, pred), and the
 * jobs of each user by end time (uend, ueoff).
 */
static int
followers(struct mg_plan *p)
{
	const struct mg_trace *t = p->t;
	size_t i, u, nu = t->nusers, *fill = NULL;
	int32_t *bysub = NULL;		/* by (user, submission) */
	size_t *soff = NULL;
	if ((p->fol = malloc((t->n ? t->n : 1) * sizeof(*p->fol))) == NULL ||
	    (p->pred = malloc((t->n ? t->n : 1) * sizeof(*p->pred))) == NULL ||
	    (p->uend = malloc((t->n ? t->n : 1) * sizeof(*p->uend))) == NULL ||
	    (bysub = malloc((t->n ? t->n : 1) * sizeof(*bysub))) == NULL ||
	    (p->ueoff = calloc(nu + 1, sizeof(*p->ueoff))) == NULL ||
	    (soff = calloc(nu + 1, sizeof(*soff))) == NULL ||
	    (fill = malloc((nu + 1) * sizeof(*fill))) == NULL) {
		free(bysub);
		free(soff);
		free(fill);
		return MG_ENOMEM;
	}
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *j = &t->job[i];

		p->fol[i] = p->pred[i] = -1;
		if (j->user < 0 || (size_t)j->user >= nu)
			continue;
		soff[j->user + 1]++;
		if (j->start >= 0 && j->dur >= 0)
			p->ueoff[j->user + 1]++;
	}
	for (u = 0; u < nu; u++) {
		soff[u + 1] += soff[u];
		p->ueoff[u + 1] += p->ueoff[u];
	}
	/* the trace is in the order of submission: so is each user's list */
	memcpy(fill, soff, (nu + 1) * sizeof(*fill));
	for (i = 0; i < t->n; i++)
		if (t->job[i].user >= 0 && (size_t)t->job[i].user < nu)
			bysub[fill[t->job[i].user]++] = (int32_t)i;
	memcpy(fill, p->ueoff, (nu + 1) * sizeof(*fill));
	for (i = 0; i < t->n; i++)
		if (t->job[i].user >= 0 && (size_t)t->job[i].user < nu &&
		    t->job[i].start >= 0 && t->job[i].dur >= 0) {
			struct uend *e = &p->uend[fill[t->job[i].user]++];

			e->end = end_of(t, (int32_t)i);
			e->job = (int32_t)i;
		}
	for (u = 0; u < nu; u++)
		qsort(p->uend + p->ueoff[u], p->ueoff[u + 1] - p->ueoff[u],
		    sizeof(*p->uend), uend_cmp);
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *j = &t->job[i];
		int64_t end;
		size_t lo, hi;

		if (j->user < 0 || (size_t)j->user >= nu || j->start < 0 ||
		    j->dur < 0)
			continue;
		end = end_of(t, (int32_t)i);
		lo = soff[j->user];
		hi = soff[j->user + 1];
		while (lo < hi) {	/* the first submitted at end - 60 */
			size_t mid = lo + (hi - lo) / 2;

			if (t->job[bysub[mid]].submit < end - 60)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < soff[j->user + 1] && t->job[bysub[lo]].submit <=
		    end + p->c.follow; lo++) {
			int32_t a = bysub[lo];

			if ((size_t)a == i || t->job[a].submit <= j->submit ||
			    p->pred[a] >= 0)
				continue;
			p->fol[i] = a;
			p->pred[a] = (int32_t)i;
			break;
		}
	}
	free(bysub);
	free(soff);
	free(fill);
	return 0;
}

int
mg_plan_new(const struct mg_planconf *pc, const struct mg_trace *t,
    struct mg_plan **out)
{
	struct mg_plan *p;
	size_t i, k;
	int rv;

	*out = NULL;
	if (pc->k < 1 || pc->k > MG_PLAN_MAXK || pc->window <= 0 ||
	    (pc->model != MG_PLAN_FAITHFUL && pc->model != MG_PLAN_REFERENCE) ||
	    (pc->arrivals != MG_PLAN_ARR_WEEK &&
	    pc->arrivals != MG_PLAN_ARR_BLOCKS) || pc->block < 3600 ||
	    (pc->runtimes != MG_PLAN_RT_CLASS &&
	    pc->runtimes != MG_PLAN_RT_USER &&
	    pc->runtimes != MG_PLAN_RT_RECENT) ||
	    (pc->runtimes == MG_PLAN_RT_RECENT && pc->recent < 1) ||
	    pc->history <= 0 || pc->margin < 0 || pc->follow < 0 ||
	    pc->window + pc->margin > 5 * DAY || pc->handover < 0 ||
	    pc->nstop < 0 || pc->nstop > MG_PLAN_MAXSTOP)
		return MG_EINVAL;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return MG_ENOMEM;
	p->c = *pc;
	p->t = t;
	for (k = 0; k <= NCLS; k++)
		if ((p->cls[k] = malloc((t->n ? t->n : 1) *
		    sizeof(*p->cls[k]))) == NULL) {
			mg_plan_free(p);
			return MG_ENOMEM;
		}
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *j = &t->job[i];
		struct rt x;

		if (j->limit <= 0 || j->dur < 0 || j->start < 0)
			continue;
		x.end = j->start + j->dur;
		x.r = (float)((double)j->dur / (double)j->limit);
		k = (size_t)limit_class(j->limit);
		p->cls[k][p->ncls[k]++] = x;
		p->cls[NCLS][p->ncls[NCLS]++] = x;
	}
	for (k = 0; k <= NCLS; k++)
		qsort(p->cls[k], p->ncls[k], sizeof(struct rt), rt_cmp);
	if (pc->runtimes != MG_PLAN_RT_CLASS && (rv = by_user(p)) != 0) {
		mg_plan_free(p);
		return rv;
	}
	if (pc->follow > 0 && (rv = followers(p)) != 0) {
		mg_plan_free(p);
		return rv;
	}
	if (pc->cap_n > 0) {
		if ((p->capmost = malloc(pc->cap_n * sizeof(*p->capmost))) ==
		    NULL) {
			mg_plan_free(p);
			return MG_ENOMEM;
		}
		for (i = 0; i < pc->cap_n; i++)
			p->capmost[i] = i > 0 && p->capmost[i - 1] >
			    pc->cap_nodes[i] ? p->capmost[i - 1] :
			    pc->cap_nodes[i];
	}
	*out = p;
	return 0;
}

void
mg_plan_free(struct mg_plan *p)
{
	size_t k;

	if (p == NULL)
		return;
	for (k = 0; k <= NCLS; k++)
		free(p->cls[k]);
	free(p->ucls);
	free(p->uoff);
	free(p->capmost);
	free(p->fol);
	free(p->pred);
	free(p->uend);
	free(p->ueoff);
	free(p);
}

/* the first of a[0..n) that ended after t */
static size_t
ended_by(const struct rt *a, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A run time for a job of this limit that has run elapsed seconds by t:
 * the share of the limit used by a job of its class that ended in the
 * history window, drawn until it exceeds elapsed; the limit if none does.
 */
static int64_t
draw_dur(const struct mg_plan *p, int32_t user, int64_t limit,
    int64_t elapsed, int64_t t, uint64_t *rs)
{
	size_t k = (size_t)limit_class(limit), lo, hi, i;
	const struct rt *a = NULL;

	if (p->c.runtimes == MG_PLAN_RT_RECENT && p->ucls != NULL &&
	    user >= 0 && (size_t)user * NCLS + k < p->nkeys) {
		/* the user's last jobs of the class that outlasted elapsed,
		 * however long ago: users resubmit the same work */
		size_t key = (size_t)user * NCLS + k, n, m = 0, seen = 0;
		int64_t pick[1000];

		a = p->ucls + p->uoff[key];
		n = p->uoff[key + 1] - p->uoff[key];
		for (i = ended_by(a, n, t); i > 0 && m < (size_t)p->c.recent &&
		    seen++ < RECENT_SCAN; i--) {
			int64_t d = (int64_t)llround(a[i - 1].r *
			    (double)limit);

			if (d > elapsed)
				pick[m++] = d < limit ? (d > 0 ? d : 1) : limit;
		}
		if (m > 0)
			return pick[below(rs, m)];
		a = NULL;
	}
	if (p->ucls != NULL && user >= 0 &&
	    (size_t)user * NCLS + k < p->nkeys) {
		/* the user's own jobs of the class, if enough */
		size_t key = (size_t)user * NCLS + k, n;

		a = p->ucls + p->uoff[key];
		n = p->uoff[key + 1] - p->uoff[key];
		hi = ended_by(a, n, t);
		lo = ended_by(a, n, t - p->c.history);
		if (hi - lo < MINUSER)
			a = NULL;
	}
	if (a == NULL) {
		a = p->cls[k];
		hi = ended_by(p->cls[k], p->ncls[k], t);
		lo = ended_by(p->cls[k], p->ncls[k], t - p->c.history);
	}
	if (hi - lo < MINSAMPLE && a == p->cls[k]) {
		k = NCLS;
		a = p->cls[k];
		hi = ended_by(p->cls[k], p->ncls[k], t);
		lo = ended_by(p->cls[k], p->ncls[k], t - p->c.history);
	}
	if (hi > lo)
		for (i = 0; i < 64; i++) {
			int64_t d = (int64_t)llround(a[lo + below(rs, hi -
			    lo)].r * (double)limit);

			if (d > elapsed)
				return d < limit ? (d > 0 ? d : 1) : limit;
		}
	return limit > elapsed ? limit : elapsed + 1;
}

/* the first trace job submitted at or after t (arrival order is by the
 * minute of submission) */
static size_t
submitted_from(const struct mg_trace *t, int64_t at)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->job[mid].submit / 60 < at / 60)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int64_t
scaled(double prio)
{
	double x = prio * PRIO_SCALE;

	return x < 1 ? 1 : x > 9e15 ? (int64_t)9e15 : (int64_t)llround(x);
}

/* a job's user in the faithful model when it keeps per-user limits
 * (else -1: no limit applies) */
static int32_t
user_of(const struct mg_plan *p, int32_t user)
{
	return (p->c.max_jobs_pu > 0 || p->c.max_nodes_pu > 0) && user >= 0 &&
	    (size_t)user < p->t->nusers ? user : -1;
}

#define MAXBLK	128	/* arrival blocks of a future: horizons of at
			 * most 5 days in blocks of 1 hour or more */

struct future {
	struct mg_trace_job *job;
	size_t n, cap;
	int32_t most;		/* the largest job */
	/* the arrivals' blocks: [from, to) came from lag seconds before */
	int nblk;
	int64_t bfrom[MAXBLK], bto[MAXBLK], blag[MAXBLK];
	/* its capacity, from the past days of its blocks */
	int64_t *ctime;
	int32_t *cnodes;
	size_t cn, ccap[2];
	int32_t cmost;		/* the most nodes of its capacity */
	unsigned char *claim;	/* the view's pending jobs taken as
				 * followers already there */
	size_t claimcap;
};

static int
push(struct future *f, const struct mg_trace_job *j)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 256;
		struct mg_trace_job *x = realloc(f->job, cap * sizeof(*x));

		if (x == NULL)
			return MG_ENOMEM;
		f->job = x;
		f->cap = cap;
	}
	f->job[f->n] = *j;
	/* ids in the order of pushing: the view's order among equals; ten
	 * digits with leading zeros, as "%010zu" (a future holds far fewer
	 * than 10^10 jobs), made by hand: a future pushes thousands */
	{
		char *id = f->job[f->n].id;
		size_t v = f->n;
		int i;

		for (i = 9; i >= 0; i--, v /= 10)
			id[i] = (char)('0' + v % 10);
		id[10] = '\0';
	}
	if (j->nodes > f->most)
		f->most = j->nodes;
	f->n++;
	return 0;
}

static int
tjob_cmp(const void *a, const void *b)
{
	return mg_trace_job_cmp(a, b);
}

/* the jobs submitted over the last w seconds before t over those over
 * the same span lag before, within [1/4, 4] (the history's only) */
static double
rate_ratio(const struct mg_trace *tr, int64_t t, int64_t w, int64_t lag)
{
	double now = (double)(submitted_from(tr, t) - submitted_from(tr,
	    t - w));
	double then = (double)(submitted_from(tr, t - lag) -
	    submitted_from(tr, t - lag - w));
	double r = then > 0 ? now / then : now > 0 ? 4 : 1;

	return r < 0.25 ? 0.25 : r > 4 ? 4 : r;
}

/* the jobs submitted in [from - lag, to - lag) and before t, shifted to
 * [from, to),
 * with their run times if they had ended by t, else drawn; with a rate
 * window, each kept floor(r) times and once more with the chance of
 * r's fraction, the repeats at uniform times in [from, to) */
static int
arrive(const struct mg_plan *p, const struct mg_view *v, int64_t t,
    int64_t from, int64_t to, int64_t lag, uint64_t *rs, struct future *f)
{
	const struct mg_trace *tr = p->t;
	struct mg_trace_job j;
	double r = p->c.rate > 0 ? rate_ratio(tr, t, p->c.rate, lag) : 1;
	size_t i;
	int rv;

	if (f->nblk < MAXBLK) {
		f->bfrom[f->nblk] = from;
		f->bto[f->nblk] = to;
		f->blag[f->nblk++] = lag;
	}
	memset(&j, 0, sizeof(j));
	j.user = j.after = j.part = j.qos = j.account = j.assoc = -1;
	j.uid = -1;
	j.eligible = -1;
	for (i = submitted_from(tr, from - lag); i < tr->n &&
	    tr->job[i].submit < to - lag; i++) {
		const struct mg_trace_job *a = &tr->job[i];
		int copies = 1, c;

		if (a->submit < from - lag)
			continue;
		if (a->submit >= t)	/* a block from yesterday that
					 * reaches past now: not yet known */
			break;
		if (p->pred != NULL && p->pred[i] >= 0 &&
		    end_of(tr, p->pred[i]) <= t &&
		    tr->job[p->pred[i]].start <= t - lag &&
		    end_of(tr, p->pred[i]) > t - lag)
			continue;	/* it followed a job that ran at
					 * that day's now: the view's
					 * running jobs have their own */
		if (p->c.rate > 0) {
			copies = (int)r;
			if (mg_rand_unif(rs) < r - copies)
				copies++;
		}
		j.limit = a->limit;
		j.nodes = a->nodes;
		j.user = user_of(p, a->user);
		j.prio = scaled(v->s_prio);
		for (c = 0; c < copies; c++) {
			j.submit = c == 0 ? a->submit + lag :
			    from + (int64_t)below(rs, (size_t)(to - from));
			j.start = j.submit;
			j.dur = a->start + a->dur <= t ? a->dur :
			    draw_dur(p, a->user, a->limit, 0, t, rs);
			if (j.submit <= t)
				continue;
			if ((rv = push(f, &j)) != 0)
				return rv;
		}
	}
	return 0;
}

/* the first capacity record after when */
static size_t
cap_after(const struct mg_plan *p, int64_t when)
{
	size_t lo = 0, hi = p->c.cap_n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->c.cap_time[mid] <= when)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* the cluster's capacity at when < t as the history records it; -1
 * before its first record */
static int32_t
past_cap(const struct mg_plan *p, int64_t when)
{
	size_t i = cap_after(p, when);

	return i > 0 ? p->c.cap_nodes[i - 1] : -1;
}

static int
cap_push(struct future *f, int64_t when, int32_t nodes)
{
	if (nodes < 1)
		return 0;
	if (f->cn > 0 && f->cnodes[f->cn - 1] == nodes)
		return 0;
	if (mg_grow((void **)&f->ctime, &f->ccap[0], f->cn + 1,
	    sizeof(*f->ctime)) != 0 || mg_grow((void **)&f->cnodes,
	    &f->ccap[1], f->cn + 1, sizeof(*f->cnodes)) != 0)
		return MG_ENOMEM;
	f->ctime[f->cn] = when;
	f->cnodes[f->cn++] = nodes;
	if (nodes > f->cmost)
		f->cmost = nodes;
	return 0;
}

static int32_t
clampcap(int32_t c, int32_t most)
{
	return c < 1 ? 1 : c > most ? most : c;
}

/* a future's capacity: the view's for cap_hold seconds, then over each
 * arrival block that of the past day it came from (only the history's
 * records before t) */
static int
future_capacity(const struct mg_plan *p, const struct mg_view *v,
    int64_t t, struct future *f)
{
	int b, rv;
	int32_t most;
	size_t i;

	f->cn = 0;
	f->cmost = 0;
	if (p->c.cap_n == 0 || p->c.cap_model == MG_PLAN_CAP_NOW)
		return 0;
	if ((rv = cap_push(f, t, v->nodes)) != 0)
		return rv;
	/* no more than the most it has had */
	most = v->nodes;
	if ((i = cap_after(p, t - 1)) > 0 && p->capmost[i - 1] > most)
		most = p->capmost[i - 1];
	for (b = 0; b < f->nblk; b++) {
		int64_t from = f->bfrom[b], to = f->bto[b], lag = f->blag[b];
		int32_t c, base, shift;

		if (from < t + p->c.cap_hold)
			from = t + p->c.cap_hold;
		if (to - lag > t)
			to = t + lag;	/* not yet known */
		if (from >= to)
			continue;
		/* the change since that day's now, from now's */
		shift = 0;
		if (p->c.cap_model == MG_PLAN_CAP_DELTA) {
			if ((base = past_cap(p, t - lag)) < 0)
				continue;
			shift = v->nodes - base;
		}
		if ((c = past_cap(p, from - lag)) > 0 &&
		    (rv = cap_push(f, from, clampcap(c + shift, most))) != 0)
			return rv;
		for (i = cap_after(p, from - lag); i < p->c.cap_n &&
		    p->c.cap_time[i] < to - lag; i++)
			if ((rv = cap_push(f, p->c.cap_time[i] + lag, clampcap(
			    p->c.cap_nodes[i] + shift, most))) != 0)
				return rv;
	}
	return 0;
}

/* the first of e[0..n) that ended at or after when */
static size_t
uend_by(const struct uend *e, size_t n, int64_t when)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e[mid].end < when)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * claim[i] for the view's running job i: its follower is already
 * pending, a job of its user submitted since it started (one each, in
 * the order of the lists); claim[nrun + q] for the pending job q taken
 */
static int
claims(const struct mg_view *v, struct future *f)
{
	size_t i, q;

	if (mg_grow((void **)&f->claim, &f->claimcap, v->nrun + v->npend + 1,
	    1) != 0)
		return MG_ENOMEM;
	memset(f->claim, 0, v->nrun + v->npend + 1);
	for (i = 0; i < v->nrun; i++) {
		const struct mg_vjob *r = &v->run[i];

		if (r->chain || r->user < 0)
			continue;
		for (q = 0; q < v->npend; q++)
			if (!f->claim[v->nrun + q] && v->pend[q].user ==
			    r->user && !v->pend[q].chain &&
			    v->pend[q].submit >= r->start) {
				f->claim[v->nrun + q] = f->claim[i] = 1;
				break;
			}
	}
	return 0;
}

/*
 * The resubmission that follows the view's running job r, ending at
 * end in this future: none if claims() found it pending; else
 * as one of the user's jobs (of r's size, if one of a few draws is) that ended in the
 * history window, long enough before t for its follower to be known,
 * was followed, by a job like that follower as long after end.
 */
static int
follow(const struct mg_plan *p, const struct mg_view *v,
    const struct mg_vjob *r, int64_t end, int64_t t, uint64_t *rs,
    struct future *f)
{
	const struct mg_trace *tr = p->t;
	const struct uend *e;
	struct mg_trace_job j;
	size_t lo, hi, n, k;
	int32_t b, a;

	if (r->user < 0 || (size_t)r->user >= p->t->nusers ||
	    f->claim[r - v->run])
		return 0;
	e = p->uend + p->ueoff[r->user];
	n = p->ueoff[r->user + 1] - p->ueoff[r->user];
	hi = uend_by(e, n, t - p->c.follow);
	lo = uend_by(e, n, t - p->c.history);
	if (hi <= lo)
		return 0;
	/* of r's size if one of a few draws is */
	for (k = 0, b = -1; k < FOLLOW_TRIES; k++) {
		b = e[lo + below(rs, hi - lo)].job;
		if (tr->job[b].nodes == r->nodes)
			break;
	}
	if ((a = p->fol[b]) < 0)
		return 0;
	memset(&j, 0, sizeof(j));
	j.user = j.after = j.part = j.qos = j.account = j.assoc = -1;
	j.uid = -1;
	j.eligible = -1;
	j.submit = end + (tr->job[a].submit - end_of(tr, b));
	if (j.submit <= t)
		j.submit = t + 1;
	j.start = j.submit;
	j.limit = tr->job[a].limit;
	j.nodes = tr->job[a].nodes;
	j.user = user_of(p, r->user);
	j.prio = scaled(v->s_prio);
	j.dur = draw_dur(p, r->user, j.limit, 0, t, rs);
	return push(f, &j);
}

/* one future's jobs: the view's with drawn run times, P if it runs, and
 * the arrivals drawn from the past */
static int
draw_future(const struct mg_plan *p, const struct mg_view *v,
    const struct mg_planchain *ch, int64_t t, int64_t horizon, uint64_t *rs,
    struct future *f)
{
	const struct mg_trace *tr = p->t;
	struct mg_trace_job j;
	int64_t lag = (int64_t)(1 + below(rs, 4)) * WEEK;	/* drawn always:
				 * the diagnostics keep the other draws */
	int fol = p->c.follow > 0 && !(p->c.truth & MG_PLAN_TRUE_ARRIVALS);
	size_t i;
	int rv;

	f->n = 0;
	f->most = 0;
	f->nblk = 0;
	f->cn = 0;
	memset(&j, 0, sizeof(j));
	j.user = j.after = j.part = j.qos = j.account = j.assoc = -1;
	j.uid = -1;
	j.eligible = -1;
	for (i = 0; i < v->nrun; i++) {
		const struct mg_vjob *r = &v->run[i];

		if (r->chain)
			continue;
		j.submit = r->submit < r->start ? r->submit : r->start;
		j.start = r->start;
		j.limit = r->limit;
		j.nodes = r->nodes;
		j.user = user_of(p, r->user);
		j.prio = 1;
		j.dur = draw_dur(p, r->user, r->limit, t - r->start, t, rs);
		if ((p->c.truth & MG_PLAN_TRUE_RUNTIMES) && r->trace >= 0 &&
		    (size_t)r->trace < tr->n)
			j.dur = tr->job[r->trace].dur;
		if (j.start + j.dur <= t)
			j.dur = t - j.start + 1;
		if ((rv = push(f, &j)) != 0)
			return rv;
		if (fol && (rv = follow(p, v, r, j.start + j.dur, t, rs,
		    f)) != 0)
			return rv;
	}
	if (ch->p_start >= 0) {
		j.submit = j.start = ch->p_start;
		j.user = -1;
		j.limit = ch->p_limit;
		j.dur = ch->p_end - ch->p_start;
		j.nodes = ch->p_nodes;
		j.prio = 1;
		if ((rv = push(f, &j)) != 0)
			return rv;
	}
	for (i = 0; i < v->npend; i++) {
		const struct mg_vjob *q = &v->pend[i];

		if (q->chain)
			continue;
		j.submit = q->submit < t ? q->submit : t - 1;
		j.start = t;		/* pending at t: not running */
		j.limit = q->limit;
		j.nodes = q->nodes;
		j.user = user_of(p, q->user);
		j.prio = scaled(q->prio);
		j.dur = draw_dur(p, q->user, q->limit, 0, t, rs);
		if ((p->c.truth & MG_PLAN_TRUE_RUNTIMES) && q->trace >= 0 &&
		    (size_t)q->trace < tr->n)
			j.dur = tr->job[q->trace].dur;
		if ((rv = push(f, &j)) != 0)
			return rv;
	}
	if (p->c.truth & MG_PLAN_TRUE_ARRIVALS) {
		/* the jobs that do arrive (a diagnostic: it knows) */
		for (i = submitted_from(tr, t); i < tr->n &&
		    tr->job[i].submit < t + horizon &&
		    tr->job[i].submit <= ch->world_end; i++) {
			const struct mg_trace_job *a = &tr->job[i];

			if (a->submit < t)	/* the view's (it is before
						 * anything at t) */
				continue;
			j.submit = j.start = a->submit;
			j.limit = a->limit;
			j.nodes = a->nodes;
			j.user = user_of(p, a->user);
			j.prio = scaled(v->s_prio);
			j.dur = p->c.truth & MG_PLAN_TRUE_RUNTIMES ? a->dur :
			    draw_dur(p, a->user, a->limit, 0, t, rs);
			if ((rv = push(f, &j)) != 0)
				return rv;
		}
		qsort(f->job, f->n, sizeof(*f->job), tjob_cmp);
		return 0;
	}
	/* arrivals: the same hours of the same weekday, lag weeks ago; or
	 * in blocks of hours, each from one of the last 28 days
	 * at the same time of day */
	if (p->c.arrivals == MG_PLAN_ARR_WEEK)
		rv = arrive(p, v, t, t, t + horizon, lag, rs, f);
	else {
		int64_t b0, blk = p->c.block;

		for (b0 = t, rv = 0; rv == 0 && b0 < t + horizon; b0 += blk)
			rv = arrive(p, v, t, b0, b0 + blk < t + horizon ?
			    b0 + blk : t + horizon, (int64_t)(1 + below(rs,
			    28)) * DAY, rs, f);
	}
	if (rv != 0 || (rv = future_capacity(p, v, t, f)) != 0)
		return rv;
	qsort(f->job, f->n, sizeof(*f->job), tjob_cmp);
	return 0;
}

/* the candidate times: now, then ahead, the last the first tick at or
 * after P's end (where every method submits) */
static int
candidates(int64_t t, int64_t p_end, int64_t *at)
{
	int n = 0;
	size_t i;

	at[n++] = t;
	for (i = 0; i < NOFF && n < MG_PLAN_MAXCAND - 1; i++)
		if (t + cand_off[i] < p_end)
			at[n++] = t + cand_off[i];
	if (p_end > t)
		at[n++] = t + (p_end - t + TICK - 1) / TICK * TICK;
	return n;
}

/* the nodes of a future's model: the view's now, at least the largest
 * job's (a capacity that fell under a job's size) */
static int32_t
model_nodes(const struct mg_view *v, const struct mg_planchain *ch,
    const struct future *f)
{
	int32_t nodes = v->nodes;

	if (nodes < f->most)
		nodes = f->most;
	if (nodes < ch->nodes)
		nodes = ch->nodes;
	if (nodes < ch->p_nodes)
		nodes = ch->p_nodes;
	return nodes;
}

/* x for S started at start, P ending at p_end; S not started (-1): by
 * P's end (an interruption of unknown length), or within MAXWAIT */
static int64_t
outcome(const struct mg_plan *p, int64_t start, int64_t p_end)
{
	return start >= 0 ? start - p_end : p->c.cost != MG_PLAN_HOURS ? 1 :
	    MAXWAIT;
}

/* S's outcome x in one future for each candidate time */
static int
simulate(const struct mg_plan *p, const struct mg_view *v,
    const struct mg_planchain *ch, int64_t t, int64_t horizon,
    const struct future *f, const int64_t *at, int n, int64_t *x)
{
	struct mg_trace tr;
	struct mg_futuredef fd;
	struct mg_cluster *s = NULL, *c;
	int32_t pref = -1, sref;
	int k, rv;

	memset(&tr, 0, sizeof(tr));
	tr.job = f->job;
	tr.n = f->n;
	tr.nusers = p->t->nusers;
	/* the faithful model: Slurm's schedulers; the order of the pending
	 * jobs is that of their priorities now, new jobs behind them */
	memset(&fd, 0, sizeof(fd));
	fd.mode = p->c.model == MG_PLAN_REFERENCE ? MG_MODE_REFERENCE :
	    MG_MODE_FAITHFUL;
	fd.nodes = model_nodes(v, ch, f);
	fd.prio_scale = PRIO_SCALE;
	fd.bf_next = v->bf_next;
	fd.chain_prio = (double)scaled(v->s_prio);
	fd.bf_interval = BF_INTERVAL;
	fd.max_jobs_pu = p->c.max_jobs_pu;
	fd.max_nodes_pu = p->c.max_nodes_pu;
	if (f->cn > 1) {
		/* from now's capacity (the first point) */
		fd.cap_time = f->ctime;
		fd.cap_nodes = f->cnodes;
		fd.cap_n = f->cn;
		if (fd.mode == MG_MODE_FAITHFUL && fd.nodes < f->cmost)
			fd.nodes = f->cmost;
	}
	if ((rv = mg_cluster_new_future(&fd, &tr, t, t + horizon, &s)) != 0)
		return rv;
	if (ch->p_start < 0 && (pref = mg_cluster_add_job(s, "P",
	    ch->p_nodes, ch->p_limit, ch->p_dur, t, -1)) < 0) {
		mg_cluster_free(s);
		return pref;
	}
	for (k = 0; k < n; k++) {
		int64_t p_end = ch->p_end, limit;

		if ((rv = mg_cluster_run(s, at[k])) != 0)
			break;
		if ((c = mg_cluster_copy(s)) == NULL) {
			rv = MG_ENOMEM;
			break;
		}
		if ((sref = mg_cluster_add_job(c, "S", ch->nodes, ch->s_limit,
		    ch->s_dur, at[k], pref)) < 0) {
			mg_cluster_free(c);
			rv = sref;
			break;
		}
		/* at the risk of an interruption, nothing after P's end
		 * matters: S has not started by then (a start in its last
		 * second, or minute, is in time), or it has */
		limit = pref < 0 && p->c.cost != MG_PLAN_HOURS ? ch->p_end + 1 :
		    at[k] + MAXWAIT + 1;
		rv = mg_cluster_run_until_start(c, sref, limit);
		if (rv >= 0 && pref >= 0)
			rv = mg_cluster_run_until_start(c, pref, at[k] +
			    MAXWAIT + 1);
		if (rv < 0) {
			mg_cluster_free(c);
			break;
		}
		if (pref >= 0 && mg_cluster_job_start(c, pref) >= 0)
			p_end = mg_cluster_job_start(c, pref) + ch->p_dur;
		x[k] = outcome(p, mg_cluster_job_start(c, sref), p_end);
		mg_cluster_free(c);
		rv = 0;
	}
	mg_cluster_free(s);
	return rv;
}

/* a chance through calibration kind w: linear between the knots */
static double
calibrated(const struct mg_planconf *pc, int w, double x)
{
	const double *p = pc->calp[w], *q = pc->calq[w];
	int n = pc->ncal[w], i;

	if (n == 0)
		return x;
	if (x <= p[0])
		return q[0];
	for (i = 1; i < n; i++)
		if (x <= p[i])
			return q[i - 1] + (q[i] - q[i - 1]) * (x - p[i - 1]) /
			    (p[i] - p[i - 1]);
	return q[n - 1];
}

int
mg_plancal_knots(const struct mg_plancal *cal, char *buf, size_t len)
{
	size_t off = 0;
	int w;

	for (w = 0; w < 2; w++) {
		double v[MG_PLAN_MAXK + 1], wt[MG_PLAN_MAXK + 1];
		int first[MG_PLAN_MAXK + 1], nb = 0, i, j;

		/* pool adjacent violators over the shares seen */
		for (i = 0; i <= cal->k && i <= MG_PLAN_MAXK; i++) {
			if (cal->n[w][i] <= 0)
				continue;
			v[nb] = cal->y[w][i] / cal->n[w][i];
			wt[nb] = cal->n[w][i];
			first[nb++] = i;
			while (nb > 1 && v[nb - 2] > v[nb - 1]) {
				v[nb - 2] = (v[nb - 2] * wt[nb - 2] + v[nb - 1] *
				    wt[nb - 1]) / (wt[nb - 2] + wt[nb - 1]);
				wt[nb - 2] += wt[nb - 1];
				nb--;
			}
		}
		if (nb == 0)
			return -1;
		/* a knot at each share seen, valued by its block */
		for (j = 0, i = 0; i <= cal->k; i++) {
			int r;

			if (cal->n[w][i] <= 0)
				continue;
			while (j + 1 < nb && first[j + 1] <= i)
				j++;
			r = snprintf(buf + off, len - off, "%s%.4g:%.4f",
			    off == 0 || buf[off - 1] == '/' ? "" : ",",
			    (double)i / cal->k, v[j]);
			if (r < 0 || (size_t)r >= len - off)
				return -1;
			off += (size_t)r;
		}
		if (w == 0) {
			if (off + 1 >= len)
				return -1;
			buf[off++] = '/';
			buf[off] = '\0';
		}
	}
	return (int)off;
}

int
mg_plan_costs(const struct mg_plan *p, const struct mg_view *v,
    const struct mg_planchain *ch, int64_t t, uint64_t stream,
    struct mg_plancost *out)
{
	struct future f = { 0 };
	int64_t p_end = ch->p_start >= 0 ? ch->p_end : t + ch->p_dur;
	int64_t horizon, x[MG_PLAN_MAXCAND];
	uint64_t rs;
	int k, c, rv = 0;

	memset(out, 0, sizeof(*out));
	if (p_end <= t || p_end > t + p->c.window ||
	    (p->c.handover > 0 && ch->p_start < 0))
		return 0;
	horizon = p_end - t + p->c.margin;
	out->n = candidates(t, p_end, out->at);
	rs = p->c.seed ^ (stream * 0xD1B54A32D192ED03ULL) ^
	    (p->c.episode_draws ? 0 : (uint64_t)t * 0x8CB92BA72F3D8DD7ULL);
	if (p->c.follow > 0)
		rv = claims(v, &f);
	for (k = 0; k < p->c.k && rv == 0; k++) {
		if ((rv = draw_future(p, v, ch, t, horizon, &rs, &f)) != 0 ||
		    (rv = simulate(p, v, ch, t, horizon, &f, out->at, out->n,
		    x)) != 0)
			break;
		for (c = 0; c < out->n; c++) {
			out->xk[k][c] = x[c] > INT32_MAX ? INT32_MAX :
			    x[c] < -INT32_MAX ? -INT32_MAX : (int32_t)x[c];
			out->intr[c] += x[c] > 0 ? (double)x[c] / 3600 : 0;
			out->ovl[c] += x[c] < 0 ? (double)-x[c] / 3600 : 0;
			out->pint[c] += x[c] > 0;
			out->hovl[k & 1][c] += x[c] < 0 ?
			    (double)-x[c] / 3600 : 0;
			out->hpint[k & 1][c] += x[c] > 0;
		}
	}
	free(f.job);
	free(f.ctime);
	free(f.cnodes);
	free(f.claim);
	if (rv != 0) {
		memset(out, 0, sizeof(*out));
		return rv;
	}
	out->k = p->c.k;
	for (c = 0; c < out->n; c++) {
		out->intr[c] /= p->c.k;
		out->ovl[c] /= p->c.k;
		out->pint[c] = calibrated(&p->c, c > 0, out->pint[c] /
		    p->c.k);
		for (k = 0; k < 2; k++) {
			int nk = (p->c.k + 1 - k) / 2;

			out->hovl[k][c] /= nk > 0 ? nk : 1;
			out->hpint[k][c] = calibrated(&p->c, c > 0,
			    out->hpint[k][c] / (nk > 0 ? nk : 1));
		}
	}
	return 0;
}

void
mg_plan_weigh(const struct mg_plancost *c, const double *w,
    struct mg_plancost *out)
{
	double sum = 0;
	int k, j, h;

	*out = *c;
	for (k = 0; k < c->k; k++)
		sum += w[k];
	for (j = 0; j < c->n; j++) {
		double pi = 0, ov = 0, in = 0;

		for (k = 0; k < c->k; k++) {
			double x = (double)c->xk[k][j] / 3600;

			pi += w[k] * (x > 0);
			in += w[k] * (x > 0 ? x : 0);
			ov += w[k] * (x < 0 ? -x : 0);
		}
		out->pint[j] = sum > 0 ? pi / sum : c->pint[j];
		out->intr[j] = sum > 0 ? in / sum : c->intr[j];
		out->ovl[j] = sum > 0 ? ov / sum : c->ovl[j];
		for (h = 0; h < 2; h++) {
			out->hpint[h][j] = out->pint[j];
			out->hovl[h][j] = out->ovl[j];
		}
	}
}

int
mg_plan_submit_now(const struct mg_plancost *c, enum mg_plancost_kind kind,
    double lambda)
{
	const double *intr = kind == MG_PLAN_HOURS ? c->intr : c->pint;
	double now;
	int k;

	if (c->n < 1)
		return 0;
	if (kind == MG_PLAN_RISK_CV) {
		/* the best plan that waits on one half, judged on the
		 * other, both ways */
		double gain = 0;
		int h;

		for (h = 0; h < 2; h++) {
			const double *pi = c->hpint[h], *ov = c->hovl[h];
			const double *pj = c->hpint[!h], *oj = c->hovl[!h];
			int best = -1;

			for (k = 1; k < c->n; k++)
				if (best < 0 || pi[k] + lambda * ov[k] <
				    pi[best] + lambda * ov[best])
					best = k;
			if (best > 0)
				gain += pj[0] + lambda * oj[0] - (pj[best] +
				    lambda * oj[best]);
		}
		return gain <= 1e-9;
	}
	now = intr[0] + lambda * c->ovl[0];
	for (k = 1; k < c->n; k++)
		if (intr[k] + lambda * c->ovl[k] < now - 1e-9)
			return 0;
	return 1;
}

double
mg_plan_lease(const struct mg_plancost *c, int j, int64_t handover)
{
	double l = 0;
	int k;

	for (k = 0; k < c->k; k++)
		if (-(int64_t)c->xk[k][j] > handover)
			l += (double)(-(int64_t)c->xk[k][j] - handover);
	return c->k > 0 ? l / 3600 / c->k : 0;
}

int
mg_plan_submit_handover(const struct mg_plancost *c,
    enum mg_plancost_kind kind, double lambda, int64_t handover)
{
	const double *intr = kind == MG_PLAN_HOURS ? c->intr : c->pint;
	double now;
	int j;

	if (c->n < 1 || c->k < 1)
		return 0;
	now = intr[0] + lambda * mg_plan_lease(c, 0, handover);
	for (j = 1; j < c->n; j++)
		if (intr[j] + lambda * mg_plan_lease(c, j, handover) <
		    now - 1e-9)
			return 0;
	return 1;
}

int
mg_plan_decided(const struct mg_plan *p, const struct mg_plancost *c,
    unsigned char *done)
{
	int i, all = p->c.nstop > 0;

	for (i = 0; i < p->c.nstop; i++) {
		if (!done[i])
			done[i] = p->c.handover > 0 ?
			    mg_plan_submit_handover(c, p->c.cost,
			    p->c.stop[i], p->c.handover) : mg_plan_submit_now(c, p->c.cost,
			    p->c.stop[i]);
		all &= done[i];
	}
	return all;
}

double
mg_plan_risk_next(const struct mg_plancost *c)
{
	return c->n > 1 ? c->pint[1] : NAN;
}
