/*
 * sim.c: the reference-mode cluster simulator; see sim.h.  The order of
 * operations in a minute is the original's (spec section 3.5):
 *
 *   0. a job submitted by the provisioner joins the pending list;
 *   1. trace (and chain) jobs arriving this minute join it, and the list
 *      is stable-sorted by priority, highest first;
 *   2. the backfill pass (every bf_interval minutes from the start) or
 *      the FIFO pass picks jobs to start now;
 *   3. started jobs leave the list, their waits are remembered, chain
 *      successors learn their predecessor's end;
 *   4. the clock moves a minute; pending jobs age; running jobs that
 *      have had their max(1, ceil(run/60)) minutes free their nodes.
 *
 * Priorities are doubles updated with exactly the original's
 * operations, so that ties break the same way.  The original adds the
 * age increment to every pending job every minute; here a job's priority
 * is brought up to date only when it is compared or shown, by the same
 * additions (x + inc, k times, rounded each time), so an overloaded
 * cluster's long queue costs nothing while it waits.  Rounding is
 * monotone, so the list stays in order as it ages and a new job is
 * inserted where the original's insertion sort puts it.
 */
#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/sim.h"
#include "base/mem.h"
#include "base/status.h"

struct sjob {
	int64_t submit;		/* rounded down to the minute */
	int64_t dur, limit;
	int64_t start;		/* -1 until it starts */
	int64_t pred_end;	/* end of the predecessor, once known */
	int32_t nodes;
	int32_t trace;		/* index in the trace, or -1 */
	mg_jobref pred, succ;
	int32_t handover;	/* a chain job that takes over: its
				 * predecessor ends this many seconds after
				 * it starts; -1 if it does not */
	char id[20];
	int warm;		/* running or pending from the start of a
				 * warm model: never arrives again */
	int64_t low_until;	/* waits behind every other job until then,
				 * then as if submitted then; 0: never */
};

struct pend {
	double prio;		/* as of the aged-th minute */
	int64_t aged;
	mg_jobref j;
	int32_t nodes;		/* the job's, and its limit in backfill */
	int32_t need;		/* slots (at most 2^20): the passes read */
	int low;		/* behind every job that is not */
};				/* the list, not the jobs */

/* a job a backfill pass looked at, and the first slot of the window it
 * found: 0 started it, -1 none, -2 skipped (as one that found none) */
struct bfres {
	mg_jobref j;
	int32_t nodes, need, found;
};

struct run {
	int64_t free_at;	/* when its nodes come back */
	int64_t exp_end;	/* start + limit: what backfill plans with */
	int32_t nodes;
	mg_jobref j;
};

struct mg_sim {
	struct mg_sim_params c;
	const struct mg_trace *trace;
	int64_t t;		/* the current minute, seconds */
	int64_t steps;		/* minutes since creation */
	int32_t free;		/* free nodes */
	struct sjob *job;
	size_t njob, capjob;
	mg_jobref *arr;		/* arrivals in order, and the next one */
	size_t narr, caparr, next_arr;
	struct pend *pbuf;	/* the pending list is pend[0..npend), */
	struct pend *pend;	/* pbuf + phead: started jobs leave its */
	size_t phead, npend, cappend;	/* head without a move of its tail */
	size_t nsorted;		/* pend[0..nsorted) is in order */
	int64_t aged;		/* minutes the clock has moved */
	mg_jobref *pick;	/* a pass's picks */
	size_t cappick;
	struct run *run;
	size_t nrun, caprun;
	int64_t next_free;	/* no running job frees its nodes before
				 * (a lower bound; 0 at the start) */
	int64_t *wait;		/* ring of the last wait_hist waits */
	size_t nwait, headwait;
	/* the last backfill pass: its time (or INT64_MIN), the jobs
	 * started when it ended, its slots before any window, and the
	 * jobs it looked at, in order */
	int64_t bf_t;
	size_t bf_started;
	int32_t *bf_free;
	struct bfres *bf_res;
	size_t bf_n, bf_cap;
	int new_pending;	/* re-sort before scheduling */
	size_t nstarted;
	int64_t low_next;	/* no low entry rises before (INT64_MAX) */
};

void
mg_sim_params_reference(struct mg_sim_params *c, int nodes)
{
	c->nodes = nodes;
	c->w_age = 7000;
	c->max_age = 7.0 * 24 * 60 * 60;
	c->w_size = 100;
	c->bf_interval = 10;
	c->bf_window = 2880;
	c->bf_resolution = 600;
	c->bf_max_job_test = 3000;
	c->wait_hist = 100;
}

static int
arr_cmp(const struct mg_sim *s, mg_jobref a, mg_jobref b)
{
	const struct sjob *x = &s->job[a], *y = &s->job[b];

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return strcmp(x->id, y->id);
}

int
mg_sim_new(const struct mg_sim_params *c, const struct mg_trace *t, int64_t t0,
    int64_t from, int64_t to, struct mg_sim **out)
{
	struct mg_sim *s;
	size_t i;

	*out = NULL;
	if (c->nodes <= 0 || c->bf_interval <= 0 || c->bf_resolution <= 0 ||
	    c->bf_window <= 0 || c->wait_hist <= 0)
		return MG_EINVAL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return MG_ENOMEM;
	s->c = *c;
	s->trace = t;
	s->t = t0 - ((t0 % 60) + 60) % 60;
	s->free = c->nodes;
	s->bf_t = INT64_MIN;
	s->low_next = INT64_MAX;
	if ((s->wait = calloc((size_t)c->wait_hist, sizeof(*s->wait))) ==
	    NULL)
		goto nomem;
	/* the trace is sorted by (minute, id): the window is a slice */
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *tj = &t->job[i];
		struct sjob *j;

		if (tj->submit < from || tj->submit > to)
			continue;
		if (mg_grow((void **)&s->job, &s->capjob, s->njob + 1,
		    sizeof(*s->job)) || mg_grow((void **)&s->arr, &s->caparr,
		    s->narr + 1, sizeof(*s->arr)))
			goto nomem;
		j = &s->job[s->njob];
		j->submit = tj->submit - ((tj->submit % 60) + 60) % 60;
		j->dur = tj->dur;
		j->limit = tj->limit;
		j->nodes = tj->nodes;
		j->start = -1;
		j->pred_end = INT64_MIN;
		j->trace = (int32_t)i;
		j->pred = j->succ = -1;
		j->handover = -1;
		j->warm = 0;
		j->low_until = 0;
		memcpy(j->id, tj->id, sizeof(j->id));
		s->arr[s->narr++] = (mg_jobref)s->njob++;
	}
	/* arrivals in (minute, id) order even if the trace was not sorted */
	for (i = 1; i < s->narr; i++) {
		mg_jobref x = s->arr[i];
		size_t k;

		for (k = i; k > 0 && arr_cmp(s, s->arr[k - 1], x) > 0; k--)
			s->arr[k] = s->arr[k - 1];
		s->arr[k] = x;
	}
	*out = s;
	return 0;
nomem:
	mg_sim_free(s);
	return MG_ENOMEM;
}

struct mg_sim *
mg_sim_copy(const struct mg_sim *s)
{
	struct mg_sim *d;

	if ((d = malloc(sizeof(*d))) == NULL)
		return NULL;
	*d = *s;
	d->job = malloc((s->capjob ? s->capjob : 1) * sizeof(*d->job));
	d->arr = malloc((s->caparr ? s->caparr : 1) * sizeof(*d->arr));
	d->pbuf = d->pend = malloc((s->npend ? s->npend : 1) *
	    sizeof(*d->pend));
	d->phead = 0;
	d->cappend = s->npend ? s->npend : 1;
	d->pick = NULL;
	d->cappick = 0;
	d->bf_t = INT64_MIN;	/* the last pass is not carried */
	d->bf_free = NULL;
	d->bf_res = NULL;
	d->bf_n = d->bf_cap = 0;
	d->run = malloc((s->caprun ? s->caprun : 1) * sizeof(*d->run));
	d->wait = malloc((size_t)s->c.wait_hist * sizeof(*d->wait));
	if (!d->job || !d->arr || !d->pend || !d->run || !d->wait) {
		mg_sim_free(d);
		return NULL;
	}
	mg_copy(d->job, s->job, s->njob, sizeof(*d->job));
	mg_copy(d->arr, s->arr, s->narr, sizeof(*d->arr));
	mg_copy(d->pend, s->pend, s->npend, sizeof(*d->pend));
	mg_copy(d->run, s->run, s->nrun, sizeof(*d->run));
	memcpy(d->wait, s->wait, (size_t)s->c.wait_hist * sizeof(*d->wait));
	return d;
}

void
mg_sim_free(struct mg_sim *s)
{
	if (s == NULL)
		return;
	free(s->job);
	free(s->arr);
	free(s->pbuf);
	free(s->pick);
	free(s->run);
	free(s->wait);
	free(s->bf_free);
	free(s->bf_res);
	free(s);
}

/* room for n pending jobs from pend[0] */
static int
reserve_pending(struct mg_sim *s, size_t n)
{
	struct pend *p = mg_reserve_head((void **)&s->pbuf, &s->cappend,
	    &s->phead, s->npend, n, sizeof(*s->pbuf));

	if (p == NULL)
		return MG_ENOMEM;
	s->pend = p;
	return 0;
}

/* the original's priority of job j on its submission:
 * PriorityWeightJobSize * (nodes / N) */
static double
new_prio(const struct mg_sim *s, mg_jobref j)
{
	return s->c.w_size * ((double)s->job[j].nodes / (double)s->c.nodes);
}

static int
push_pending(struct mg_sim *s, mg_jobref j)
{
	struct pend *p;
	int64_t lim;

	if (reserve_pending(s, s->npend + 1))
		return MG_ENOMEM;
	p = &s->pend[s->npend++];
	p->j = j;
	p->nodes = s->job[j].nodes;
	lim = (s->job[j].limit + s->c.bf_resolution - 1) / s->c.bf_resolution;
	p->need = lim < 1 << 20 ? (int32_t)lim : 1 << 20;
	p->prio = new_prio(s, j);
	p->aged = s->aged;
	p->low = s->job[j].low_until > s->t;
	if (p->low && s->job[j].low_until < s->low_next)
		s->low_next = s->job[j].low_until;
	s->new_pending = 1;
	return 0;
}

/*
 * p's priority now: the original's per-minute additions it has not had
 * yet.  A cache of the same value, so it may be brought up to date
 * through a const simulator.
 */
static double
prio_peek(const struct mg_sim *s, const struct pend *p)
{
	/* w_age * 60 / max_age, as the original computes it */
	double inc = s->c.w_age * 60 / s->c.max_age, x = p->prio;
	int64_t k;

	for (k = p->aged; k < s->aged; k++)
		x += inc;
	return x;
}

/* the same, kept in p: the same additions whether kept or not */
static double
prio_now(const struct mg_sim *s, struct pend *p)
{
	p->prio = prio_peek(s, p);
	p->aged = s->aged;
	return p->prio;
}

/*
 * stable, highest priority first (a low entry behind every other), as
 * the original's insertion sort over the whole list: its sorted head
 * stays put (ageing keeps it in order), so only the new jobs at its tail
 * move
 */
static void
sort_pending(struct mg_sim *s)
{
	size_t i, k;
	struct pend x;

	for (i = s->nsorted > 0 ? s->nsorted : 1; i < s->npend; i++) {
		x = s->pend[i];
		prio_now(s, &x);
		for (k = i; k > 0 && (s->pend[k - 1].low > x.low ||
		    (s->pend[k - 1].low == x.low &&
		    prio_now(s, &s->pend[k - 1]) < x.prio)); k--)
			s->pend[k] = s->pend[k - 1];
		s->pend[k] = x;
	}
	s->nsorted = s->npend;
	s->new_pending = 0;
}

int
mg_sim_new_warm(const struct mg_sim_params *c, const struct mg_trace *t,
    int64_t t0, int64_t to, struct mg_sim **out)
{
	struct mg_sim *s;
	size_t i;
	int rv;

	/* every job of t, by index; those submitted before t0 become
	 * running or pending below, the others arrive */
	if ((rv = mg_sim_new(c, t, t0, INT64_MIN, INT64_MAX, &s)) != 0)
		return rv;
	*out = NULL;
	if (s->njob > 0 && (mg_grow((void **)&s->run, &s->caprun, s->njob,
	    sizeof(*s->run)) || reserve_pending(s, s->njob))) {
		mg_sim_free(s);
		return MG_ENOMEM;
	}
	for (i = 0; i < s->njob; i++) {
		struct sjob *j = &s->job[i];
		const struct mg_trace_job *tj = &t->job[j->trace];
		int64_t occ = (j->dur + 59) / 60, free_at;
		struct run *u;

		if (tj->submit >= t0 || tj->submit > to)
			continue;
		/* submitted before t0, perhaps within t0's minute: its
		 * arrival, at that minute, is not another */
		j->warm = 1;
		if (tj->start < 0 || tj->start >= t0) {
			push_pending(s, (mg_jobref)i);
			continue;
		}
		j->start = tj->start;
		free_at = j->start + (occ < 1 ? 1 : occ) * 60;
		if (free_at <= s->t)
			continue;	/* ended: its nodes are free */
		u = &s->run[s->nrun++];
		u->free_at = free_at;
		if (free_at < s->next_free)
			s->next_free = free_at;
		u->exp_end = j->start + j->limit;
		u->nodes = j->nodes;
		u->j = (mg_jobref)i;
		s->free -= j->nodes;
	}
	/* the arrivals still to come */
	for (i = 0; i < s->narr && s->job[s->arr[i]].submit < s->t; i++)
		;
	s->next_arr = i;
	/* s->free < 0: more running than the nodes (a cluster whose
	 * capacity fell under its jobs); nothing starts until they end */
	*out = s;
	return 0;
}

int
mg_sim_set_prio(struct mg_sim *s, mg_jobref j, double prio)
{
	size_t i;

	for (i = 0; i < s->npend; i++)
		if (s->pend[i].j == j) {
			s->pend[i].prio = prio;
			s->pend[i].aged = s->aged;
			s->nsorted = 0;	/* sort it all again */
			s->new_pending = 1;
			return 0;
		}
	return MG_EINVAL;
}

void
mg_sim_set_bf_next(struct mg_sim *s, int64_t when)
{
	int64_t m = (when - s->t) / 60, bf = s->c.bf_interval;

	if (when >= s->t)
		s->steps = ((bf - m % bf) % bf);
}

mg_jobref
mg_sim_add_chain_job(struct mg_sim *s, const char *id, int32_t nodes,
    int64_t limit, int64_t dur, int64_t submit, mg_jobref pred, int arrive)
{
	struct sjob *j;
	mg_jobref r;
	size_t k;

	if (nodes <= 0 || limit < 0 || dur < 0 || (pred >= 0 &&
	    (size_t)pred >= s->njob))
		return MG_EINVAL;
	if (mg_grow((void **)&s->job, &s->capjob, s->njob + 1, sizeof(*s->job)))
		return MG_ENOMEM;
	r = (mg_jobref)s->njob;
	j = &s->job[r];
	memset(j, 0, sizeof(*j));
	j->submit = (arrive ? submit : s->t);
	j->submit -= ((j->submit % 60) + 60) % 60;
	j->dur = dur > limit ? limit : dur;
	j->limit = limit;
	j->nodes = nodes;
	j->start = -1;
	j->pred_end = INT64_MIN;
	j->trace = -1;
	j->pred = pred;
	j->succ = -1;
	j->handover = -1;
	strncpy(j->id, id, sizeof(j->id) - 1);
	s->njob++;
	if (pred >= 0) {
		s->job[pred].succ = r;
		if (s->job[pred].start >= 0)
			j->pred_end = s->job[pred].start + s->job[pred].dur;
	}
	if (!arrive)
		return push_pending(s, r) == 0 ? r : MG_ENOMEM;
	/* into the arrivals, in (minute, id) order, after the next one */
	if (mg_grow((void **)&s->arr, &s->caparr, s->narr + 1, sizeof(*s->arr)))
		return MG_ENOMEM;
	for (k = s->narr; k > s->next_arr && arr_cmp(s, s->arr[k - 1], r) > 0;
	    k--)
		s->arr[k] = s->arr[k - 1];
	s->arr[k] = r;
	s->narr++;
	return r;
}

/*
 * running chain job p ends by at (a take-over: it checkpoints and exits);
 * its nodes come back at the end of the minute that holds its end, as
 * every job's.  Backfill plans with its limit still, as Slurm does.
 */
static void
cut_short(struct mg_sim *s, mg_jobref p, int64_t at)
{
	struct sjob *j = &s->job[p];
	int64_t occ;
	size_t i;

	if (j->start < 0 || j->start + j->dur <= at)
		return;
	j->dur = at - j->start;
	occ = (j->dur + 59) / 60;
	for (i = 0; i < s->nrun; i++)
		if (s->run[i].j == p) {
			s->run[i].free_at = j->start + (occ < 1 ? 1 : occ) * 60;
			if (s->run[i].free_at < s->next_free)
				s->next_free = s->run[i].free_at;
		}
	if (j->succ >= 0)
		s->job[j->succ].pred_end = j->start + j->dur;
}

static void
start_job(struct mg_sim *s, mg_jobref r)
{
	struct sjob *j = &s->job[r];
	struct run *u;
	int64_t occ;

	/* once, never before its submission: its wait enters the history
	 * the average-wait baseline reads */
	assert(j->start < 0 && j->submit <= s->t);
	if (j->handover >= 0 && j->pred >= 0)
		cut_short(s, j->pred, s->t + j->handover);
	j->start = s->t;
	s->nstarted++;
	s->wait[s->headwait] = s->t - j->submit;
	s->headwait = (s->headwait + 1) % (size_t)s->c.wait_hist;
	if (s->nwait < (size_t)s->c.wait_hist)
		s->nwait++;
	if (j->succ >= 0)
		s->job[j->succ].pred_end = s->t + j->dur;
	occ = (j->dur + 59) / 60;
	if (occ < 1)
		occ = 1;
	/* capacity was grown before the pass */
	u = &s->run[s->nrun++];
	u->free_at = s->t + occ * 60;
	if (u->free_at < s->next_free)
		s->next_free = u->free_at;
	u->exp_end = s->t + j->limit;
	u->nodes = j->nodes;
	u->j = r;
	s->free -= j->nodes;
}

#define LO_MAX	256	/* job widths whose first fitting slot is kept */
#define FAIL_MAX 64	/* shapes that found no window, kept in a pass */

/*
 * the first of slots v[cur .. end) with fewer than w nodes free, or end:
 * eight at a time, which the compiler turns into one vector comparison
 * (most windows are long: 48 hours is 288 slots)
 */
static int
first_short(const int32_t *v, int cur, int end, int32_t w)
{
	int i, m;

	for (; cur + 8 <= end; cur += 8) {
		for (i = m = 0; i < 8; i++)
			m |= v[cur + i] < w;
		if (m)
			break;
	}
	for (; cur < end; cur++)
		if (v[cur] < w)
			return cur;
	return end;
}

/* the first of slots v[cur .. end) with at least w nodes free, or end */
static int
first_fit(const int32_t *v, int cur, int end, int32_t w)
{
	int i, m;

	for (; cur + 8 <= end; cur += 8) {
		for (i = m = 0; i < 8; i++)
			m |= v[cur + i] >= w;
		if (m)
			break;
	}
	for (; cur < end; cur++)
		if (v[cur] >= w)
			return cur;
	return end;
}

/* slots v[from .. end) reserved for a job of w nodes */
static void
take(int32_t *v, int from, int end, int32_t w)
{
	int i;

	for (; from + 8 <= end; from += 8)
		for (i = 0; i < 8; i++)
			v[from + i] -= w;
	for (; from < end; from++)
		v[from] -= w;
}

/* what a job that found no window tells the rest of the pass */
static void
bf_failed(int *minfail, int wm, int32_t *failw, int *failn, int *nfail,
    int32_t nodes, int need)
{
	int w;

	if (nodes <= wm) {
		for (w = nodes; w <= wm; w++)
			if (minfail[w] == 0 || minfail[w] > need + 1)
				minfail[w] = need + 1;
	} else if (*nfail < FAIL_MAX) {
		failw[*nfail] = nodes;
		failn[(*nfail)++] = need;
	}
}

/*
 * The pass a slot after the last one, worked out from it as far as it
 * holds.  If no job started or ended between them but the last pass's
 * own, those hold the slots their windows held, and the jobs at the
 * head of the list are the ones it looked at: each one's search sees
 * what it saw then, less that pass's first slot and plus a last one.
 * A window that did not fit still does not (it only grew); one that
 * fitted still does if the new last slot has room for it, and it has
 * (as many nodes as the last slot had, for fewer windows).  So every
 * job goes where it went then, a slot earlier (a job in the second slot
 * now starts), until a job that is new or moved, or one that found no
 * window finding one in the new last slot.  Returns the jobs worked out
 * so (s->bf_res[0 .. *nres), those started in pick[0 .. *n)), with the
 * nodes left in the first slot in *first.
 */
static size_t
bf_follow(struct mg_sim *s, const int32_t *freev, int L, size_t tested,
    mg_jobref *pick, size_t *n, size_t *nres, int32_t *first)
{
	int32_t hold[4096], avail = freev[L - 1];
	size_t i, idx = 0, w = 0;
	int k, e;

	*n = *nres = 0;
	*first = freev[0];
	if (s->bf_t == INT64_MIN || s->t != s->bf_t + s->c.bf_resolution ||
	    s->nstarted != s->bf_started)
		return 0;
	/* the slots the last pass saw, less those its started jobs hold:
	 * a slot earlier, through the limits they started with */
	memcpy(hold, freev, (size_t)(L - 1) * sizeof(*hold));
	for (i = 0; i < s->bf_n; i++)
		if (s->bf_res[i].found == 0)
			for (e = s->bf_res[i].need - 1, k = 0; k < e && k < L - 1;
			    k++)
				hold[k] += s->bf_res[i].nodes;
	if (memcmp(hold, s->bf_free + 1, (size_t)(L - 1) * sizeof(*hold)))
		return 0;
	for (i = 0; i < s->bf_n && idx < tested && *first > 0; i++) {
		struct bfres r = s->bf_res[i];

		if (r.found == 0)
			continue;	/* started: off the list */
		if (s->pend[idx].j != r.j ||
		    (r.found == -1 && avail >= r.nodes))
			break;
		if (r.found > 0) {
			r.found--;
			if (r.found + r.need >= L) {
				if (avail < r.nodes)
					break;	/* not expected: see above */
				avail -= r.nodes;
			}
			if (r.found == 0) {
				pick[(*n)++] = r.j;
				*first -= r.nodes;
			}
		}
		s->bf_res[w++] = r;
		idx++;
	}
	*nres = w;
	return idx;
}

/* the original's backfill pass: conservative reservations in slots */
static size_t
backfill(struct mg_sim *s, mg_jobref *pick)
{
	int L = s->c.bf_window * 60 / s->c.bf_resolution, k, cur, end;
	int32_t freev[4096 + 1];
	int lo[LO_MAX + 1];
	int32_t failw[FAIL_MAX];
	int failn[FAIL_MAX], nfail = 0, f, w;
	/* 1 + the shortest need that failed at most this wide, or 0 */
	int minfail[LO_MAX + 1];
	int32_t acc;
	size_t i, n = 0, tested, nres;
	int64_t res = s->c.bf_resolution;
	/* the widths kept in lo[] and minfail[] (a job wider than the
	 * cluster finds no window, and is kept as one wider than wm) */
	int wm = s->c.nodes < LO_MAX ? s->c.nodes : LO_MAX, keep;

	if (L > 4096)
		L = 4096;
	/*
	 * a job starts only where it fits in the first slot, and slots
	 * only fill during a pass: with no node free in it by the running
	 * jobs' limits, the pass starts nothing
	 */
	for (i = 0, acc = 0; i < s->nrun; i++)
		if (s->run[i].exp_end > s->t)
			acc += s->run[i].nodes;
	if (acc >= s->c.nodes) {
		s->bf_t = INT64_MIN;
		return 0;
	}
	/* a running job holds the slots that start before its expected
	 * end, the first e of them: counted at the last, then summed */
	memset(freev, 0, (size_t)(L + 1) * sizeof(freev[0]));
	for (i = 0; i < s->nrun; i++) {
		int64_t d = s->run[i].exp_end - s->t;
		int e = d <= 0 ? 0 : d >= res * L ? L : (int)((d + res - 1) / res);

		if (e > 0)
			freev[e - 1] += s->run[i].nodes;
	}
	for (k = L - 1, acc = 0; k >= 0; k--) {
		acc += freev[k];
		freev[k] = s->c.nodes - acc;
	}
	tested = s->npend < (size_t)s->c.bf_max_job_test ? s->npend :
	    (size_t)s->c.bf_max_job_test;
	memset(lo, 0, (size_t)(wm + 1) * sizeof(lo[0]));
	memset(minfail, 0, (size_t)(wm + 1) * sizeof(minfail[0]));
	/* the head of the list as the last pass put it, a slot earlier */
	i = bf_follow(s, freev, L, tested, pick, &n, &nres, &acc);
	/* this pass is kept for the next (as memory allows) */
	s->bf_t = INT64_MIN;
	s->bf_n = nres;
	keep = s->bf_free != NULL || (s->bf_free = malloc((size_t)L *
	    sizeof(*s->bf_free))) != NULL;
	if (keep)
		memcpy(s->bf_free, freev, (size_t)L * sizeof(*freev));
	if (acc <= 0)
		i = tested;	/* the first slot is full */
	else if (i > 0) {
		for (k = 0; k < (int)nres; k++) {
			const struct bfres *r = &s->bf_res[k];

			if (r->found >= 0)
				take(freev, r->found, r->found + r->need < L ?
				    r->found + r->need : L, r->nodes);
			else if (r->found == -1)
				bf_failed(minfail, wm, failw, failn, &nfail,
				    r->nodes, r->need);
		}
	}
	/* nor once the first slot is full */
	for (; i < tested && freev[0] > 0; i++) {
		const struct pend *j = &s->pend[i];
		int need = j->need, found = -1;

		/* slots only fill during a pass: a job at least as wide and
		 * as long as one that found no window finds none either */
		w = j->nodes <= wm ? j->nodes : wm;
		if (minfail[w] > 0 && need + 1 >= minfail[w])
			found = -2;
		for (f = 0; f < nfail && found == -1; f++)
			if (j->nodes >= failw[f] && need >= failn[f])
				found = -2;
		if (found == -1) {
			/* slots only fill during a pass, so a slot that did
			 * not fit a job this wide still does not: the search
			 * starts past them */
			cur = first_fit(freev, j->nodes <= wm ?
			    lo[j->nodes] : 0, L, j->nodes);
			if (j->nodes <= wm)
				lo[j->nodes] = cur;
			while (cur < L) {
				if ((cur = first_fit(freev, cur, L,
				    j->nodes)) >= L)
					break;
				end = cur + need < L ? cur + need : L;
				k = first_short(freev, cur, end, j->nodes);
				if (k == end) {
					found = cur;
					break;
				}
				cur = k + 1;
			}
		}
		if (keep && (s->bf_n < s->bf_cap || mg_grow((void **)&s->bf_res,
		    &s->bf_cap, s->bf_n + 1, sizeof(*s->bf_res)) == 0)) {
			s->bf_res[s->bf_n].j = j->j;
			s->bf_res[s->bf_n].nodes = j->nodes;
			s->bf_res[s->bf_n].need = need;
			s->bf_res[s->bf_n++].found = found;
		} else
			keep = 0;
		if (found == -1)
			bf_failed(minfail, wm, failw, failn, &nfail,
			    j->nodes, need);
		if (found < 0)
			continue;
		end = found + need < L ? found + need : L;
		take(freev, found, end, j->nodes);
		if (found == 0)
			pick[n++] = j->j;
	}
	if (keep) {
		s->bf_t = s->t;
		s->bf_started = s->nstarted + n;
	}
	return n;
}

static size_t
fifo(struct mg_sim *s, mg_jobref *pick)
{
	int32_t avail = s->free;
	size_t i, n = 0;

	for (i = 0; i < s->npend; i++) {
		int32_t nodes = s->pend[i].nodes;

		if (nodes > avail)
			break;
		avail -= nodes;
		pick[n++] = s->pend[i].j;
	}
	return n;
}

/*
 * the low entries whose time has come rise: each as if submitted now (its
 * priority a new job's), and the list is sorted again
 */
static void
rise_low(struct mg_sim *s)
{
	size_t i;

	s->low_next = INT64_MAX;
	for (i = 0; i < s->npend; i++) {
		struct pend *p = &s->pend[i];
		const struct sjob *j = &s->job[p->j];

		if (!p->low)
			continue;
		if (j->low_until > s->t) {
			if (j->low_until < s->low_next)
				s->low_next = j->low_until;
			continue;
		}
		p->low = 0;
		p->prio = new_prio(s, p->j);
		p->aged = s->aged;
		s->nsorted = 0;
		s->new_pending = 1;
	}
}

static void
arrivals(struct mg_sim *s)
{
	while (s->next_arr < s->narr &&
	    s->job[s->arr[s->next_arr]].submit <= s->t) {
		mg_jobref r = s->arr[s->next_arr++];

		/* the original drops a job that arrives in the past */
		if (s->job[r].submit == s->t && !s->job[r].warm)
			push_pending(s, r);
	}
	if (s->t >= s->low_next)
		rise_low(s);
	if (s->new_pending)
		sort_pending(s);
}

static void
schedule_and_advance(struct mg_sim *s)
{
	size_t n, i, k, w;

	if (s->new_pending)
		sort_pending(s);
	if (s->npend > 0 && mg_grow((void **)&s->run, &s->caprun, s->nrun +
	    s->npend, sizeof(*s->run)) == 0 && mg_grow((void **)&s->pick,
	    &s->cappick, s->npend, sizeof(*s->pick)) == 0) {
		n = s->steps % s->c.bf_interval == 0 ? backfill(s, s->pick) :
		    fifo(s, s->pick);
		for (i = 0; i < n; i++)
			start_job(s, s->pick[i]);
		/*
		 * drop started jobs from the list, keeping its order: they
		 * are among the first the pass looked at, so the jobs before
		 * the last of them move towards the tail and the head moves
		 */
		for (i = k = 0; k < n; i++)
			if (s->job[s->pend[i].j].start >= 0)
				k++;
		for (w = i; i > 0; i--)
			if (s->job[s->pend[i - 1].j].start < 0)
				s->pend[--w] = s->pend[i - 1];
		s->pend += w;
		s->phead += w;
		s->npend -= w;
		s->nsorted = s->npend;
	}
	s->t += 60;
	s->steps++;
	s->aged++;		/* pending jobs age: see prio_now() */
	if (s->t < s->next_free)
		return;		/* no job ends this minute */
	s->next_free = INT64_MAX;
	for (i = k = 0; i < s->nrun; i++) {
		if (s->run[i].free_at <= s->t)
			s->free += s->run[i].nodes;
		else {
			if (s->run[i].free_at < s->next_free)
				s->next_free = s->run[i].free_at;
			s->run[k++] = s->run[i];
		}
	}
	s->nrun = k;
}

void
mg_sim_step(struct mg_sim *s)
{
	arrivals(s);
	schedule_and_advance(s);
}

int
mg_sim_run_until_start(struct mg_sim *s, mg_jobref j, int64_t limit)
{
	while (s->job[j].start < 0 && s->t < limit)
		mg_sim_step(s);
	return s->job[j].start >= 0;
}

int64_t
mg_sim_time(const struct mg_sim *s)
{
	return s->t;
}

int64_t
mg_sim_job_start(const struct mg_sim *s, mg_jobref j)
{
	return s->job[j].start;
}

int64_t
mg_sim_job_end(const struct mg_sim *s, mg_jobref j)
{
	const struct sjob *x = &s->job[j];

	return x->start >= 0 && x->start + x->dur <= s->t ?
	    x->start + x->dur : -1;
}

int
mg_sim_set_handover(struct mg_sim *s, mg_jobref j, int64_t secs)
{
	if (j < 0 || (size_t)j >= s->njob || s->job[j].pred < 0 ||
	    s->job[j].start >= 0 || secs < 1 || secs > INT32_MAX)
		return MG_EINVAL;
	s->job[j].handover = (int32_t)secs;
	return 0;
}

int
mg_sim_set_low(struct mg_sim *s, mg_jobref j, int64_t until)
{
	size_t i;

	if (j < 0 || (size_t)j >= s->njob || s->job[j].start >= 0)
		return MG_EINVAL;
	s->job[j].low_until = until;
	for (i = 0; i < s->npend; i++)
		if (s->pend[i].j == j) {
			s->pend[i].low = until > s->t;
			if (s->pend[i].low && until < s->low_next)
				s->low_next = until;
			s->nsorted = 0;
			s->new_pending = 1;
		}
	return 0;
}

int64_t
mg_sim_job_submit(const struct mg_sim *s, mg_jobref j)
{
	return s->job[j].submit;
}

int64_t
mg_sim_chain_gap(const struct mg_sim *s, mg_jobref j, int *ok)
{
	const struct sjob *x = &s->job[j];

	*ok = x->start >= 0 && x->pred_end != INT64_MIN;
	return *ok ? x->start - x->pred_end : 0;
}

size_t
mg_sim_pending(const struct mg_sim *s)
{
	return s->npend;
}

size_t
mg_sim_njobs(const struct mg_sim *s)
{
	return s->njob;
}

size_t
mg_sim_started(const struct mg_sim *s)
{
	return s->nstarted;
}

/*
 * mg_sim_avg_wait: the integer mean, in minutes, of the waits of the
 * last wait_hist jobs started (0 if none).
 */
static int64_t
mg_sim_avg_wait(const struct mg_sim *s)
{
	int64_t sum = 0;
	size_t i;

	if (s->nwait == 0)
		return 0;
	for (i = 0; i < s->nwait; i++)
		sum += s->wait[i];
	return (int64_t)((double)sum / (double)s->nwait / 60.0);
}

int
mg_sim_stats_after_start(const struct mg_sim *s, int64_t *avg_wait_min,
    size_t *qsize)
{
	struct mg_sim *c = mg_sim_copy(s);

	if (c == NULL)
		return MG_ENOMEM;
	if (c->next_arr < c->narr) {
		int64_t next = c->job[c->arr[c->next_arr]].submit;

		while (c->t < next)
			schedule_and_advance(c);
		arrivals(c);
	}
	*avg_wait_min = mg_sim_avg_wait(c);
	*qsize = mg_sim_pending(c);
	mg_sim_free(c);
	return 0;
}

static void
vjob(const struct mg_sim *s, mg_jobref r, struct mg_view_job *v)
{
	const struct sjob *j = &s->job[r];

	v->submit = j->submit;
	v->start = j->start;
	v->limit = j->limit;
	v->nodes = j->nodes;
	v->chain = j->trace < 0;
	v->trace = j->trace >= 0 ? j->trace : -1;
	v->user = j->trace >= 0 ? s->trace->job[j->trace].user : -1;
	v->job = r;
	v->prio = 0;
	v->end = -1;
}

int
mg_sim_view(const struct mg_sim *s, int32_t s_nodes, int64_t recent,
    struct mg_view *v)
{
	struct mg_view_job x;
	size_t i;

	mg_view_clear(v);
	v->t = s->t;
	v->nodes = s->c.nodes;
	v->free = s->free;
	v->s_prio = s->c.w_size * ((double)s_nodes / (double)s->c.nodes);
	v->bf_next = s->t + (s->c.bf_interval - s->steps % s->c.bf_interval) %
	    s->c.bf_interval * 60;
	/* the list is in priority order: it was sorted when jobs arrived
	 * and ages grow alike */
	for (i = 0; i < s->npend; i++) {
		vjob(s, s->pend[i].j, &x);
		/* a low entry below every other, as the faithful model's */
		x.prio = prio_peek(s, &s->pend[i]) - (s->pend[i].low ?
		    MG_VIEW_LOW : 0);
		if (mg_view_add(&v->pend, &v->npend, &v->cappend, &x))
			return MG_ENOMEM;
	}
	for (i = 0; i < s->nrun; i++) {
		vjob(s, s->run[i].j, &x);
		if (mg_view_add(&v->run, &v->nrun, &v->caprun, &x))
			return MG_ENOMEM;
	}
	/* without a recent window, no job started or ended in it */
	for (i = 0; recent > 0 && i < s->njob; i++) {
		const struct sjob *j = &s->job[i];
		int64_t occ, end;

		if (j->start < 0)
			continue;
		if (j->start > s->t - recent) {
			vjob(s, (mg_jobref)i, &x);
			if (mg_view_add(&v->recent, &v->nrecent,
			    &v->caprecent, &x))
				return MG_ENOMEM;
		}
		/* its nodes came back after its whole minutes */
		occ = (j->dur + 59) / 60;
		end = j->start + (occ < 1 ? 1 : occ) * 60;
		if (end <= s->t && end > s->t - recent) {
			vjob(s, (mg_jobref)i, &x);
			x.end = j->start + j->dur;
			if (mg_view_add(&v->ended, &v->nended, &v->capended,
			    &x))
				return MG_ENOMEM;
		}
	}
	return 0;
}
