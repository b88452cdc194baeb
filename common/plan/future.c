/*
 * future.c: the planner's futures: arrivals, run times, capacity and
 * followers drawn from the view and the history before it; see
 * plan_int.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "plan/plan_int.h"

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

int64_t
mg_future_prio(double prio)
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
		j.prio = mg_future_prio(v->s_prio);
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
int
mg_future_claims(const struct mg_view *v, struct future *f)
{
	size_t i, q;

	if (mg_grow((void **)&f->claim, &f->claimcap, v->nrun + v->npend + 1,
	    1) != 0)
		return MG_ENOMEM;
	memset(f->claim, 0, v->nrun + v->npend + 1);
	for (i = 0; i < v->nrun; i++) {
		const struct mg_view_job *r = &v->run[i];

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
    const struct mg_view_job *r, int64_t end, int64_t t, uint64_t *rs,
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
	j.prio = mg_future_prio(v->s_prio);
	j.dur = draw_dur(p, r->user, j.limit, 0, t, rs);
	return push(f, &j);
}

/* one future's jobs: the view's with drawn run times, P if it runs, and
 * the arrivals drawn from the past */
int
mg_future_draw(const struct mg_plan *p, const struct mg_view *v,
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
		const struct mg_view_job *r = &v->run[i];

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
		const struct mg_view_job *q = &v->pend[i];

		if (q->chain)
			continue;
		j.submit = q->submit < t ? q->submit : t - 1;
		j.start = t;		/* pending at t: not running */
		j.limit = q->limit;
		j.nodes = q->nodes;
		j.user = user_of(p, q->user);
		j.prio = mg_future_prio(q->prio);
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
			j.prio = mg_future_prio(v->s_prio);
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
			    28)) * MG_DAY, rs, f);
	}
	if (rv != 0 || (rv = future_capacity(p, v, t, f)) != 0)
		return rv;
	qsort(f->job, f->n, sizeof(*f->job), tjob_cmp);
	return 0;
}
