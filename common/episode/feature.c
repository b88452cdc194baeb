/*
 * feature.c: the reference and our own representations; see
 * feature.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "episode/feature.h"
#include "base/mem.h"
#include "base/status.h"

static double mg_runtime_ratio(const struct mg_view *v);

static int64_t mg_feature_plan_start_expected(const struct mg_view *v, int32_t nodes,
    int64_t limit, double prio, double ratio, int64_t *p_start);

#define HOUR	3600.0
#define NEVER_FITS	(30 * 86400)
#define PLAN_MAX_AHEAD	200	/* jobs planned ahead of S, like bf_max_job_test */

const char *const mg_paper_snap_names[MG_PAPER_SNAP] = {
	"pend_jobs", "pend_nodes",
	"pend_limit_p0", "pend_limit_p25", "pend_limit_p50",
	"pend_limit_p75", "pend_limit_p100",
	"pend_wait_p0", "pend_wait_p25", "pend_wait_p50",
	"pend_wait_p75", "pend_wait_p100",
	"pend_elapsed_p0", "pend_elapsed_p25", "pend_elapsed_p50",
	"pend_elapsed_p75", "pend_elapsed_p100",
	"run_jobs", "run_nodes",
	"run_limit_p0", "run_limit_p25", "run_limit_p50",
	"run_limit_p75", "run_limit_p100",
	"run_wait_p0", "run_wait_p25", "run_wait_p50",
	"run_wait_p75", "run_wait_p100",
	"run_elapsed_p0", "run_elapsed_p25", "run_elapsed_p50",
	"run_elapsed_p75", "run_elapsed_p100",
};

const char *const mg_paper_chain_names[MG_PAPER_CHAIN] = {
	"p_limit", "p_nodes", "p_wait", "p_elapsed",
	"s_limit", "s_nodes", "s_wait", "s_elapsed",
};

const char *const mg_own_names[MG_OWN] = {
	"hour_sin", "hour_cos", "week_sin", "week_cos",
	"p_running", "p_wait_h", "p_end_h", "s_nodes_frac", "free_frac",
	"pend_jobs", "pend_nodes_frac", "pend_work_h",
	"ahead_jobs", "ahead_nodes_frac", "ahead_work_h",
	"run_jobs", "run_nodes_frac",
	"run_left_p0_h", "run_left_p25_h", "run_left_p50_h",
	"run_left_p75_h", "run_left_p100_h",
	"shadow_h", "plan_start_h", "plan_gap_h",
	"starts_per_h", "wait_mean_24h_h", "wait_mean_6h_h", "wait_trend_h",
	"pend_age_max_h", "runtime_ratio", "plan_exp_start_h", "plan_exp_gap_h",
};

static int
dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
mg_percentiles(double *x, size_t n, double out[5])
{
	int q;

	if (n == 0) {
		memset(out, 0, 5 * sizeof(*out));
		return;
	}
	qsort(x, n, sizeof(*x), dbl_cmp);
	for (q = 0; q < 5; q++) {
		double pos = (double)(n - 1) * q / 4.0, lo = floor(pos);
		size_t i = (size_t)lo;
		double f = pos - lo;

		/* numpy's lerp: a + (b - a) f, from the upper side past half */
		if (f == 0 || i + 1 >= n)
			out[q] = x[i];
		else if (f >= 0.5)
			out[q] = x[i + 1] - (x[i + 1] - x[i]) * (1 - f);
		else
			out[q] = x[i] + (x[i + 1] - x[i]) * f;
	}
}

/* count, node sum and three percentile groups of a list */
static void
list_stats(const struct mg_view_job *j, size_t n, int64_t t, int running,
    double *scratch, double *out)
{
	double nodes = 0;
	size_t i;

	for (i = 0; i < n; i++)
		nodes += j[i].nodes;
	out[0] = (double)n;
	out[1] = nodes;
	for (i = 0; i < n; i++)
		scratch[i] = (double)(j[i].limit / 60);
	mg_percentiles(scratch, n, out + 2);
	for (i = 0; i < n; i++)
		scratch[i] = (double)(running ? j[i].start - j[i].submit :
		    t - j[i].submit);
	mg_percentiles(scratch, n, out + 7);
	for (i = 0; i < n; i++)
		scratch[i] = running ? (double)(t - j[i].start) : 0;
	mg_percentiles(scratch, n, out + 12);
}

void
mg_paper_snapshot(const struct mg_view *v, double *scratch,
    double out[MG_PAPER_SNAP])
{
	list_stats(v->pend, v->npend, v->t, 0, scratch, out);
	list_stats(v->run, v->nrun, v->t, 1, scratch, out + 17);
}

void
mg_paper_chain(const struct mg_chainnow *c, double out[MG_PAPER_CHAIN])
{
	out[0] = (double)(c->p_limit / 60);
	out[1] = c->p_nodes;
	out[2] = (double)(c->p_start >= 0 ? c->p_start - c->p_submit :
	    c->t - c->p_submit);
	out[3] = (double)(c->p_start >= 0 ? c->p_elapsed : 0);
	out[4] = (double)(c->s_limit / 60);
	out[5] = c->s_nodes;
	out[6] = 0;
	out[7] = 0;
}

/* ---- the backfill plan ----------------------------------------------- */

/* free nodes f[k] on [t[k], t[k+1]), the last segment without end */
struct profile {
	int64_t *t;
	int32_t *f;
	size_t n, cap;
};

static int
split(struct profile *p, int64_t at)
{
	size_t k = p->n;

	while (k > 0 && p->t[k - 1] > at)
		k--;
	/* segment k - 1 holds at */
	if (k == 0 || p->t[k - 1] == at)
		return 0;
	if (p->n + 1 > p->cap) {
		size_t c1 = p->cap, c2 = p->cap;

		if (mg_grow((void **)&p->t, &c1, p->n + 1, sizeof(*p->t)) ||
		    mg_grow((void **)&p->f, &c2, p->n + 1, sizeof(*p->f)))
			return MG_ENOMEM;
		p->cap = c1 < c2 ? c1 : c2;
	}
	memmove(p->t + k + 1, p->t + k, (p->n - k) * sizeof(*p->t));
	memmove(p->f + k + 1, p->f + k, (p->n - k) * sizeof(*p->f));
	p->t[k] = at;
	p->f[k] = p->f[k - 1];
	p->n++;
	return 0;
}

/* the earliest start of a window of len seconds with n free nodes, or -1 */
static int64_t
earliest(const struct profile *p, int32_t n, int64_t len)
{
	size_t k, cand = 0;

	for (k = 0; k < p->n; k++) {
		if (p->f[k] < n) {
			cand = k + 1;
			continue;
		}
		if (k + 1 == p->n || p->t[k + 1] - p->t[cand] >= len)
			return p->t[cand];
	}
	return -1;
}

static int
reserve(struct profile *p, int64_t at, int32_t n, int64_t len)
{
	size_t k;

	if (split(p, at) || split(p, at + len))
		return MG_ENOMEM;
	for (k = 0; k < p->n; k++)
		if (p->t[k] >= at && p->t[k] < at + len)
			p->f[k] -= n;
	return 0;
}

struct ev {
	int64_t t;
	int32_t n;
};

static int
ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	return (x->t > y->t) - (x->t < y->t);
}

/* the timeline of free nodes as running jobs end after ratio x limit */
static int
build(const struct mg_view *v, struct profile *p, double ratio)
{
	struct ev *e = malloc((v->nrun ? v->nrun : 1) * sizeof(*e));
	size_t i;

	p->cap = v->nrun + 1 + 2 * PLAN_MAX_AHEAD + 4;
	p->t = malloc(p->cap * sizeof(*p->t));
	p->f = malloc(p->cap * sizeof(*p->f));
	if (e == NULL || p->t == NULL || p->f == NULL) {
		free(e);
		return MG_ENOMEM;
	}
	for (i = 0; i < v->nrun; i++) {
		e[i].t = v->run[i].start + (ratio >= 1 ? v->run[i].limit :
		    (int64_t)(ratio * (double)v->run[i].limit));
		if (e[i].t <= v->t)
			e[i].t = v->t + (ratio >= 1 ? 1 : 60);
		e[i].n = v->run[i].nodes;
	}
	qsort(e, v->nrun, sizeof(*e), ev_cmp);
	p->t[0] = v->t;
	p->f[0] = v->free;
	p->n = 1;
	for (i = 0; i < v->nrun; i++) {
		if (p->t[p->n - 1] != e[i].t) {
			p->t[p->n] = e[i].t;
			p->f[p->n] = p->f[p->n - 1];
			p->n++;
		}
		p->f[p->n - 1] += e[i].n;
	}
	free(e);
	return 0;
}

int64_t
mg_feature_plan_start(const struct mg_view *v, int32_t nodes, int64_t limit,
    double prio, int64_t *p_start)
{
	return mg_feature_plan_start_expected(v, nodes, limit, prio, 1,
	    p_start);
}

/*
 * mg_feature_plan_start_expected: the same plan where every other job
 * runs ratio of its limit (running jobs end then, or in a minute if
 * already past).
 */
static int64_t
mg_feature_plan_start_expected(const struct mg_view *v, int32_t nodes,
    int64_t limit, double prio, double ratio, int64_t *p_start)
{
	struct profile p = { 0 };
	size_t i, planned = 0;
	int64_t at, len, rv = MG_ENOMEM;

	*p_start = -1;
	if (build(v, &p, ratio) != 0)
		goto out;
	for (i = 0; i < v->npend && planned < PLAN_MAX_AHEAD; i++) {
		const struct mg_view_job *j = &v->pend[i];

		if (j->prio < prio && !j->chain)
			continue;
		planned++;
		len = j->chain || ratio >= 1 ? j->limit :
		    (int64_t)(ratio * (double)j->limit) + 60;
		if (j->nodes > v->nodes || (at = earliest(&p, j->nodes,
		    len)) < 0)
			continue;
		if (j->chain && *p_start < 0)
			*p_start = at;
		if (reserve(&p, at, j->nodes, len) != 0)
			goto out;
	}
	if (nodes > v->nodes || (at = earliest(&p, nodes, limit)) < 0)
		at = v->t + NEVER_FITS;
	rv = at;
out:
	free(p.t);
	free(p.f);
	return rv;
}

/* ---- our representation ---------------------------------------------- */

int
mg_own_features(const struct mg_view *v, const struct mg_chainnow *c,
    double out[MG_OWN])
{
	const double N = v->nodes > 0 ? v->nodes : 1, t = (double)v->t;
	double *left, sum, work, nodes, w24 = 0, w6 = 0, n6 = 0, age = 0;
	int64_t s_at, p_at, p_end, shadow;
	struct profile p = { 0 };
	size_t i, ahead = 0;
	const double pi2 = 2 * 3.14159265358979323846;

	memset(out, 0, MG_OWN * sizeof(*out));
	/* hour of the day and of the week (UTC; 1970-01-01 was a Thursday) */
	out[0] = sin(pi2 * fmod(t, 86400) / 86400);
	out[1] = cos(pi2 * fmod(t, 86400) / 86400);
	out[2] = sin(pi2 * fmod(t + 3 * 86400, 7 * 86400) / (7 * 86400));
	out[3] = cos(pi2 * fmod(t + 3 * 86400, 7 * 86400) / (7 * 86400));
	s_at = mg_feature_plan_start(v, c->s_nodes, c->s_limit, v->s_prio,
	    &p_at);
	if (s_at < 0)
		return MG_ENOMEM;
	out[4] = c->p_start >= 0;
	out[5] = (double)((c->p_start >= 0 ? c->p_start : c->t) -
	    c->p_submit) / HOUR;
	if (c->p_start >= 0)
		p_end = c->p_start + c->p_limit;
	else
		p_end = (p_at >= 0 ? p_at : c->t) + c->p_limit;
	out[6] = (double)(p_end - c->t) / HOUR;
	out[7] = c->s_nodes / N;
	out[8] = v->free / N;
	for (i = 0, sum = work = 0; i < v->npend; i++) {
		const struct mg_view_job *j = &v->pend[i];

		sum += j->nodes;
		work += (double)j->nodes * (double)j->limit;
		if (c->t - j->submit > age)
			age = (double)(c->t - j->submit);
		if (j->prio >= v->s_prio || j->chain) {
			ahead++;
			out[13] += j->nodes;
			out[14] += (double)j->nodes * (double)j->limit;
		}
	}
	out[9] = (double)v->npend;
	out[10] = sum / N;
	out[11] = work / N / HOUR;
	out[12] = (double)ahead;
	out[13] /= N;
	out[14] /= N * HOUR;
	for (i = 0, nodes = 0; i < v->nrun; i++)
		nodes += v->run[i].nodes;
	out[15] = (double)v->nrun;
	out[16] = nodes / N;
	if ((left = malloc((v->nrun ? v->nrun : 1) * sizeof(*left))) == NULL)
		return MG_ENOMEM;
	for (i = 0; i < v->nrun; i++) {
		double l = (double)(v->run[i].start + v->run[i].limit - v->t);

		left[i] = (l > 0 ? l : 0) / HOUR;
	}
	mg_percentiles(left, v->nrun, out + 17);
	free(left);
	if (build(v, &p, 1) != 0)
		return MG_ENOMEM;
	shadow = c->s_nodes > v->nodes ? -1 : earliest(&p, c->s_nodes, 1);
	free(p.t);
	free(p.f);
	out[22] = (double)((shadow < 0 ? v->t + NEVER_FITS : shadow) - v->t) /
	    HOUR;
	out[23] = (double)(s_at - v->t) / HOUR;
	out[24] = (double)(s_at - p_end) / HOUR;
	for (i = 0; i < v->nrecent; i++) {
		double w = (double)(v->recent[i].start - v->recent[i].submit);

		w24 += w;
		if (v->recent[i].start > v->t - 6 * 3600) {
			w6 += w;
			n6++;
		}
	}
	out[25] = (double)v->nrecent / 24;
	out[26] = v->nrecent ? w24 / (double)v->nrecent / HOUR : 0;
	out[27] = n6 ? w6 / n6 / HOUR : 0;
	out[28] = n6 && v->nrecent ? out[27] - out[26] : 0;
	out[29] = age / HOUR;
	/* the plan again, with the run times jobs have had of late */
	out[30] = mg_runtime_ratio(v);
	if ((s_at = mg_feature_plan_start_expected(v, c->s_nodes, c->s_limit,
	    v->s_prio, out[30], &p_at)) < 0)
		return MG_ENOMEM;
	if (c->p_start < 0)
		p_end = (p_at >= 0 ? p_at : c->t) + c->p_limit;
	out[31] = (double)(s_at - v->t) / HOUR;
	out[32] = (double)(s_at - p_end) / HOUR;
	return 0;
}

/* mg_runtime_ratio: the median run time / limit of v's ended jobs, or 1 */
static double
mg_runtime_ratio(const struct mg_view *v)
{
	double *r, q[5];
	size_t i, n = 0;

	if (v->nended == 0 || (r = malloc(v->nended * sizeof(*r))) == NULL)
		return 1;
	for (i = 0; i < v->nended; i++)
		if (v->ended[i].limit > 0)
			r[n++] = (double)(v->ended[i].end - v->ended[i].start) /
			    (double)v->ended[i].limit;
	mg_percentiles(r, n, q);
	free(r);
	return n ? (q[2] > 0.01 ? q[2] : 0.01) : 1;
}
