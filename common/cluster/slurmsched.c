/*
 * slurmsched.c: the faithful model's schedulers: a job started on its
 * nodes, suspended victims resumed, the main scheduler, backfill; see
 * slurmsim_int.h.
 */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/slurmsim_int.h"
#include "cluster/preempt.h"
#include "base/mem.h"
#include "base/rand.h"
#include "base/status.h"

/* ---- a job starts ------------------------------------------------- */

/*
 * take[] of `nodes` nodes from the pools of mask that have avail[] nodes,
 * the first pools first; what they lack (a warm start on fewer nodes
 * than the trace ran) comes from the last pool of the mask
 */
static void
take_first(const int32_t *avail, int np, uint32_t mask, int32_t nodes,
    int32_t *take)
{
	int g, last = 0;

	for (g = 0; g < np; g++) {
		int32_t f = avail[g] > 0 ? avail[g] : 0;

		take[g] = 0;
		if (!(mask >> g & 1))
			continue;
		last = g;
		take[g] = f < nodes ? f : nodes;
		nodes -= take[g];
	}
	take[last] += nodes;
}

/* running job p ends by at (a take-over: it checkpoints and exits) */
static void
cut_short(struct mg_slurmsim *s, int32_t p, int64_t at)
{
	struct fjob *j = &s->job[p];
	size_t i;

	if (j->start < 0 || j->end >= 0 || j->releasing || j->elastic ||
	    j->susp_by >= 0 || j->start + j->dur <= at)
		return;
	j->dur = at - j->start;
	for (i = 0; i < s->nrun; i++)
		if (s->run[i].j == p && s->run[i].end > at)
			s->run[i].end = at;
	if (s->run_end >= 0 && at < s->run_end)
		s->run_end = at;
}

/* job jr starts now on take[g] nodes of each pool g (NULL: the first
 * free nodes of its partition) */
int
mg_slurmsched_start(struct mg_slurmsim *s, int32_t jr, const int32_t *take)
{
	struct fjob *j = &s->job[jr];
	int32_t tk[MG_SLURM_MAXPOOL];
	size_t k;
	int g, head = 1, last = -1;

	s->upd = s->now;

	if (take == NULL) {
		take_first(s->free, s->npools, s->pmask[j->part], j->nodes, tk);
		take = tk;
	}
	for (g = 0; g < s->npools; g++)
		if (take[g] > 0 || (last < 0 && g == s->npools - 1))
			last = g;	/* a job of no nodes: one entry */
	/* a job starts once at a time, never before it was submitted */
	assert(j->start < 0 && j->end < 0 && j->submit <= s->now);
	j->start = s->now;
	if (j->first_start < 0)
		j->first_start = s->now;
	j->promised = 0;
	if (j->elastic) {
		/* its run at this size from its work left, after any pause;
		 * its limit counts work */
		double sp = mg_slurmelastic_speed(s, j, j->nodes);
		struct fjel *x = EL(s, j);

		x->eat = (double)s->now + x->epause;
		j->dur = (int64_t)ceil(x->epause + x->ework / sp);
		j->limit = (int64_t)ceil(x->epause + (x->elimw - (x->ework0 -
		    x->ework)) / sp);
		if (j->limit < j->dur)
			j->limit = j->dur;
		x->epause = 0;
	}
	for (g = 0; g <= last; g++) {
		struct frun *r;

		if (take[g] <= 0 && g != last)
			continue;
		if (mg_grow((void **)&s->run, &s->caprun, s->nrun + 1,
		    sizeof(*s->run)))
			return MG_ENOMEM;
		/* kept in order of expected end, for the backfill timeline */
		for (k = s->nrun; k > 0 && s->run[k - 1].exp_end > s->now +
		    j->limit - j->lim_used; k--)
			s->run[k] = s->run[k - 1];
		s->nrun++;
		r = &s->run[k];
		r->end = s->now + j->dur;
		if (r->end < s->run_end)
			s->run_end = r->end;
		r->exp_end = s->now + j->limit - j->lim_used;
		r->exp_round = mg_slurmsim_round_up(r->exp_end, s->c.bf_resolution);
		r->nodes = take[g];
		r->j = jr;
		r->pool = g;
		r->head = head;
		head = 0;
		s->free[g] -= take[g];
	}
	s->nstarted++;
	if (j->handover >= 0 && j->pred >= 0)
		cut_short(s, j->pred, s->now + j->handover);
	if (j->fsh >= 0) {
		mg_slurmprio_charge(s, j->fsh);
		s->hnodes[j->fsh] += j->nodes;
	}
	if (j->user >= 0 && j->accrue >= 0 && s->c.max_accrue > 0 &&
	    !s->c.accrue_always) {
		s->uacc[j->user]--;	/* its place for another */
		j->accrue = -1;
	}
	if (j->user >= 0) {
		s->urun[j->user]++;
		s->unodes[j->user] += j->nodes;
		if (j->qos >= 0) {
			s->uqrun[mg_slurmsim_uq(s, j)]++;
			s->uqnodes[mg_slurmsim_uq(s, j)] += j->nodes;
		}
	}
	return 0;
}

/*
 * started jobs leave the list, which keeps its order: they are among the
 * first n a pass looked at, so the jobs before the last of them move
 * towards the tail and the head moves (no move of the long tail)
 */
static void
drop_started(struct mg_slurmsim *s, size_t n, size_t started)
{
	size_t i, w;

	if (started == 0)	/* nothing to drop (only a pass starts
				 * jobs, and each drops its own) */
		return;
	if (n > s->npend)
		n = s->npend;
	for (i = w = n; i > 0; i--)
		if (s->job[s->pend[i - 1].j].start < 0)
			s->pend[--w] = s->pend[i - 1];
	s->pend += w;
	s->phead += w;
	s->npend -= w;
	mg_slurmprio_dropped(s, n, w);
}

/* the most nodes reservations hold in [now, until) */
static int32_t
resv_peak(const struct mg_slurmsim *s, int64_t until)
{
	int32_t peak = s->resv;
	size_t k;

	for (k = s->next_resv; k < s->c.resv_n && s->c.resv_time[k] < until;
	    k++)
		if (s->c.resv_nodes[k] > peak)
			peak = s->c.resv_nodes[k];
	return peak;
}

/* ---- PreemptMode=SUSPEND ------------------------------------------- */

/*
 * victim jr resumes on its nodes: those its preemptor used are taken
 * back from the free ones (the caller made them free), the rest were
 * its own all along
 */
int
mg_slurmsched_resume(struct mg_slurmsim *s, int32_t jr)
{
	struct fjob *v = &s->job[jr];
	double idle = (double)(v->nodes - v->given) * (double)(s->now -
	    v->susp_at);

	v->lost += idle;
	if (v->susp_by >= 0)
		s->job[v->susp_by].caused += idle;
	v->suspended += s->now - v->susp_at;
	v->susp_by = -1;
	v->susp_next = -1;
	s->free[0] += v->nodes - v->given;
	v->given = 0;
	return mg_slurmsched_start(s, jr, NULL);
}

/* the victims of the preemptors that ended this second resume */
int
mg_slurmsched_resume_victims(struct mg_slurmsim *s)
{
	size_t i;
	int rv;

	for (i = 0; i < s->nresume; i++) {
		struct fjob *u = &s->job[s->resume[i]];

		while (u->susp_head >= 0) {
			int32_t v = u->susp_head;

			u->susp_head = s->job[v].susp_next;
			if ((rv = mg_slurmsched_resume(s, v)) != 0)
				return rv;
		}
	}
	s->nresume = 0;
	return 0;
}

/* the main scheduler: priority order until a job does not fit */
int
mg_slurmsched_main(struct mg_slurmsim *s, int full)
{
	int32_t take[MG_SLURM_MAXPOOL];
	uint32_t blocked = 0;	/* pools of partitions that wait */
	uint32_t all = s->npools >= 32 ? ~0u : (1u << s->npools) - 1;
	size_t i, started = 0, depth = full || s->c.queue_depth <= 0 ?
	    s->npend : (size_t)s->c.queue_depth;
	int rv;

	for (i = 0; i < s->npend && i < depth && (blocked & all) != all;
	    i++) {
		const struct fjob *j;
		uint32_t mask;

		if (mg_slurmsim_user_full(s, s->pend[i].j))
			continue;
		j = &s->job[s->pend[i].j];
		mask = s->pmask[j->part] & ~blocked;
		if (mask == 0 || mg_slurmsim_held(s, j))
			continue;
		/* nodes a reservation takes before its limit is up are
		 * not for it */
		if (s->elastic && s->npools == 1 && s->c.resv_n == 0 &&
		    j->nodes > s->free[0])
			mg_slurmelastic_shrink(s, j->nodes - (s->free[0] > 0 ?
			    s->free[0] : 0), 1);
		if (j->nodes > mg_slurmsim_pools_sum(s->free, s->npools,
		    mask) - (s->c.resv_n > 0 ? resv_peak(s,
		    s->now + j->limit) - s->resv : 0)) {
			/* the rest of this partition, and of any partition
			 * on its nodes, waits behind it */
			if (s->preempt && mg_slurmpreempt_any(s, j) &&
			    (rv = mg_slurmpreempt_for(s, s->pend[i].j)) != 0)
				return rv;
			blocked |= s->pmask[j->part];
			continue;
		}
		take_first(s->free, s->npools, mask, j->nodes, take);
		s->job[s->pend[i].j].prio = mg_slurmprio_value(s,
		    &s->pend[i]);
		if ((rv = mg_slurmsched_start(s, s->pend[i].j, take)) != 0)
			return rv;
		started++;
	}
	drop_started(s, i, started);
	return 0;
}

/* ---- backfill ------------------------------------------------------- */

/* a step function of free nodes: row tf[k] on [tt[k], tt[k+1]) */
static int
tl_split(struct mg_slurmsim *s, size_t *m, int64_t at, size_t *idx)
{
	size_t np = (size_t)s->npools, g;
	size_t k, lo = *m > 0 && s->tt[*m - 1] < at ? *m : 0, hi = *m;

	/* the first breakpoint not before at */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->tt[mid] < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	k = lo;
	if (k < *m && s->tt[k] == at) {
		*idx = k;
		return 0;
	}
	if (*m + 1 > s->tcap) {
		size_t cap = s->tcap;
		int32_t *f;

		if (mg_grow((void **)&s->tt, &cap, *m + 1, sizeof(*s->tt)))
			return MG_ENOMEM;
		if ((f = realloc(s->tf, cap * np * sizeof(*s->tf))) == NULL)
			return MG_ENOMEM;
		s->tf = f;
		s->tcap = cap;
	}
	if (k < *m) {		/* not an append */
		memmove(s->tt + k + 1, s->tt + k, (*m - k) * sizeof(*s->tt));
		memmove(s->tf + (k + 1) * np, s->tf + k * np, (*m - k) * np *
		    sizeof(*s->tf));
	}
	s->tt[k] = at;
	if (np == 1)
		s->tf[k] = k > 0 ? s->tf[k - 1] : s->free[0];
	else if (k > 0)
		memcpy(s->tf + k * np, s->tf + (k - 1) * np, np *
		    sizeof(*s->tf));
	else
		for (g = 0; g < np; g++)
			s->tf[g] = s->free[g];
	(*m)++;
	*idx = k;
	return 0;
}


/*
 * the step function of free nodes of every pool from the running jobs'
 * limits; the running jobs are kept in order of expected end
 */
static int
build_timeline(struct mg_slurmsim *s, size_t *m)
{
	size_t i, k, np = (size_t)s->npools;
	int64_t prev = s->now;
	int32_t held;
	int rv;

	/* room for every breakpoint the running jobs make: appends, done
	 * here without tl_split's search (a pass runs this often) */
	if (s->nrun + 1 > s->tcap) {
		size_t cap = s->tcap;
		int32_t *f;

		if (mg_grow((void **)&s->tt, &cap, s->nrun + 1, sizeof(*s->tt)))
			return MG_ENOMEM;
		if ((f = realloc(s->tf, cap * np * sizeof(*s->tf))) == NULL)
			return MG_ENOMEM;
		s->tf = f;
		s->tcap = cap;
	}
	s->tt[0] = s->now;
	memcpy(s->tf, s->free, np * sizeof(*s->tf));
	*m = 1;
	for (i = 0; i < s->nrun; i++) {
		int64_t e = s->run[i].exp_round;

		if (e <= s->now)
			e = s->now + 1;
		if (e < prev)
			e = prev;	/* rounding keeps the order */
		if (e != prev) {
			/* later than every breakpoint so far: append */
			s->tt[*m] = e;
			memcpy(s->tf + *m * np, s->tf + (*m - 1) * np, np *
			    sizeof(*s->tf));
			(*m)++;
			prev = e;
		}
		s->tf[(*m - 1) * np + (size_t)s->run[i].pool] +=
		    s->run[i].nodes;
	}
	/* less the nodes reservations will take (one pool) */
	for (i = s->next_resv, held = s->resv; i < s->c.resv_n; i++) {
		int32_t delta = s->c.resv_nodes[i] - held;

		if ((rv = tl_split(s, m, s->c.resv_time[i], &k)) != 0)
			return rv;
		for (; k < *m; k++)
			s->tf[k * np] -= delta;
		held = s->c.resv_nodes[i];
	}
	return 0;
}

/*
 * The earliest breakpoint, up to horizon, from which the pools of mask
 * have `nodes` nodes free together throughout len seconds; mn[] gets each
 * pool's fewest free nodes over that window.  -1 if there is none.
 */
static int64_t
window(const struct mg_slurmsim *s, size_t m, uint32_t mask, int32_t nodes,
    int64_t len, int64_t horizon, int32_t *mn)
{
	size_t a, b, np = (size_t)s->npools;
	int32_t sum;
	int g;

	if (np == 1) {
		/* one pool: free throughout is enough (the hot path) */
		for (a = 0; a < m && s->tt[a] <= horizon; a++) {
			if (s->tf[a] < nodes)
				continue;
			for (b = a + 1; b < m && s->tt[b] < s->tt[a] + len; b++)
				if (s->tf[b] < nodes)
					break;
			if (b == m || s->tt[b] >= s->tt[a] + len) {
				mn[0] = nodes;
				return s->tt[a];
			}
			a = b - 1;	/* resume after the blocking segment */
		}
		return -1;
	}
	for (a = 0; a < m && s->tt[a] <= horizon; a++) {
		if (mg_slurmsim_pools_sum(s->tf + a * np, s->npools, mask) < nodes)
			continue;
		for (g = 0; g < s->npools; g++)
			mn[g] = s->tf[a * np + (size_t)g];
		for (b = a + 1; b < m && s->tt[b] < s->tt[a] + len; b++) {
			if (mg_slurmsim_pools_sum(s->tf + b * np, s->npools, mask) < nodes)
				break;
			for (g = 0; g < s->npools; g++)
				if (s->tf[b * np + (size_t)g] < mn[g])
					mn[g] = s->tf[b * np + (size_t)g];
		}
		if (b < m && s->tt[b] < s->tt[a] + len) {
			/* resume after the blocking segment */
			a = b - 1;
			continue;
		}
		/* each pool's nodes free throughout, together */
		for (sum = 0, g = 0; g < s->npools; g++)
			if (mask >> g & 1 && mn[g] > 0)
				sum += mn[g];
		if (sum >= nodes)
			return s->tt[a];
	}
	return -1;
}

int
mg_slurmsched_any_free(const struct mg_slurmsim *s)
{
	int p;

	for (p = 0; p < s->npools; p++)
		if (s->free[p] > 0)
			return 1;
	return 0;
}

/*
 * backfill: the pending jobs in priority order, across partitions, each
 * given the earliest window of its limit in which its partition's pools
 * have its nodes free throughout, and holding the nodes of each pool it
 * takes there; a job whose window begins now starts
 */
int
mg_slurmsched_backfill(struct mg_slurmsim *s)
{
	size_t m = 0, i, k, a, b, tested = 0, started = 0;
	size_t np = (size_t)s->npools;
	int64_t horizon = s->now + s->c.bf_window;
	int32_t mn[MG_SLURM_MAXPOOL], take[MG_SLURM_MAXPOOL];
	int rv, g;

	/* free now, then +nodes at each running job's expected end */
	if ((rv = build_timeline(s, &m)) != 0)
		return rv;
	for (i = 0; i < s->npend && tested < (size_t)s->c.bf_max_job_test;
	    i++) {
		struct fjob *j;
		uint32_t mask;
		int64_t len, st, e;

		if (mg_slurmsim_user_full(s, s->pend[i].j))
			continue;
		j = &s->job[s->pend[i].j];
		if (j->start >= 0 || mg_slurmsim_held(s, j))
			continue;
		mask = s->pmask[j->part];
		len = j->limit < s->c.bf_window ? j->limit : s->c.bf_window;
		tested++;
		/* with no node left free nothing more starts in this
		 * pass, and its reservations do not outlive it */
		if (j->nodes > 0 && !mg_slurmsched_any_free(s))
			continue;
		st = window(s, m, mask, j->nodes, len, horizon, mn);
		if (st < 0)
			continue;
		take_first(mn, s->npools, mask, j->nodes, take);
		e = mg_slurmsim_round_up(st + len, s->c.bf_resolution);
		if ((rv = tl_split(s, &m, st, &a)) != 0 ||
		    (rv = tl_split(s, &m, e, &b)) != 0)
			return rv;
		for (k = a; k < b; k++)
			if (np == 1)
				s->tf[k] -= take[0];
			else
				for (g = 0; g < s->npools; g++)
					s->tf[k * np + (size_t)g] -= take[g];
		if (st == s->now && j->nodes <= mg_slurmsim_pools_sum(s->free, s->npools,
		    mask)) {
			j->prio = mg_slurmprio_value(s, &s->pend[i]);
			if ((rv = mg_slurmsched_start(s, s->pend[i].j, take)) != 0)
				return rv;
			started++;
		}
	}
	drop_started(s, i, started);
	return 0;
}
