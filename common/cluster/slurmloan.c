/*
 * slurmloan.c: the faithful model's loaning: an inference pool's idle
 * nodes lent to the cluster and reclaimed; see slurmsim_int.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/slurmsim_int.h"
#include "cluster/preempt.h"
#include "base/mem.h"
#include "base/rand.h"
#include "base/status.h"

/* ---- loaning -------------------------------------------------------- */

/* usage from now until t */
void
mg_slurmloan_account(struct mg_slurmsim *s, int64_t t)
{
	double dt = (double)(t - s->now);
	int32_t base = s->c.cap_n > 0 ? s->cap : s->c.nodes, busy = 0;
	size_t i;

	for (i = 0; i < s->nrun; i++)
		if (s->job[s->run[i].j].for_job != RECLAIMED)
			busy += s->run[i].nodes;
	s->ls.span_s += dt;
	s->ls.lent_ns += (double)s->lent * dt;
	s->ls.cap_ns += (double)(base + s->lent) * dt;
	s->ls.busy_ns += (double)busy * dt;
	if (busy > base)
		s->ls.lent_busy_ns += (double)(busy - base) * dt;
	/* hour by hour (nothing kept when out of memory) */
	if ((s->lent > 0 || busy > base) && s->now >= s->hour0) {
		int64_t a = s->now, b;
		size_t h = (size_t)((t - 1 - s->hour0) / 3600), k;

		if (h >= s->nhours) {
			double *x = s->hlent, *y = s->hused;
			size_t cap = s->caphours;

			if (mg_grow((void **)&x, &cap, h + 1, sizeof(*x)) != 0)
				return;
			s->hlent = x;
			cap = s->caphours;
			if (mg_grow((void **)&y, &cap, h + 1, sizeof(*y)) != 0)
				return;
			s->hused = y;
			s->caphours = cap;
			for (k = s->nhours; k <= h; k++)
				s->hlent[k] = s->hused[k] = 0;
			s->nhours = h + 1;
		}
		for (; a < t; a = b) {
			k = (size_t)((a - s->hour0) / 3600);
			b = s->hour0 + (int64_t)(k + 1) * 3600;
			if (b > t)
				b = t;
			s->hlent[k] += (double)s->lent * (double)(b - a);
			if (busy > base)
				s->hused[k] += (double)(busy - base) *
				    (double)(b - a);
		}
	}
	if (s->owed > 0 && t > s->owed_since + s->c.reclaim_grace)
		s->ls.slo_short_ns += (double)s->owed * (double)(t -
		    (s->now > s->owed_since + s->c.reclaim_grace ? s->now :
		    s->owed_since + s->c.reclaim_grace));
}

/*
 * take n lent nodes back: idle ones first, then running jobs' (the
 * reclaim policy's victims, released after their release delay); what
 * none can give is owed, taken as nodes come free
 */
static int
reclaim(struct mg_slurmsim *s, int32_t n)
{
	struct mg_pcand *c;
	double *rel;
	unsigned char *taken;
	size_t *at, *out, m = 0, k = 0, i;
	int32_t take = s->free[0] > 0 ? (s->free[0] < n ? s->free[0] : n) : 0;

	s->free[0] -= take;
	n -= take;
	if (n > 0 && s->elastic) {
		/* then elastic jobs shrink: no one is preempted */
		int64_t before = s->ls.shrinks;
		int32_t got = mg_slurmelastic_shrink(s, n, 0);

		s->free[0] -= got;
		n -= got;
		s->ls.reclaim_shrinks += s->ls.shrinks - before;
	}
	if (n <= 0)
		return 0;
	if (mg_slurmpreempt_cands_new(s->nrun, &c, &rel, &taken, &at, &out) != 0)
		return MG_ENOMEM;
	for (i = 0; i < s->nrun; i++) {
		const struct frun *r = &s->run[i];
		const struct fjob *b = &s->job[r->j];

		/* chain and added jobs are never victims */
		if (b->releasing || b->susp_head >= 0 || r->end <= s->now ||
		    b->trace < 0 || (size_t)b->trace >= s->t->n)
			continue;
		mg_slurmpreempt_cand(s, r, s->c.dl != NULL ?
		    &s->c.dl[b->trace] : NULL, &c[m]);
		rel[m] = c[m].rel;
		at[m++] = i;
	}
	if (m > 0 && mg_victims((enum mg_victim_policy)s->c.reclaim_policy,
	    c, m, taken, n, 0, 1.0, &s->prng, out, &k) == 0) {
		for (i = 0; i < k; i++) {
			struct frun *r = &s->run[at[out[i]]];
			struct fjob *b = &s->job[r->j];
			int64_t d = (int64_t)ceil(rel[out[i]] - 1e-6);

			int64_t redo = 0;

			if (d < 0)
				d = 0;
			if (s->now + d >= r->end)
				d = r->end - s->now;	/* it ends first */
			if (d > s->c.reclaim_grace) {
				/*
				 * the inference pool does not wait past the
				 * grace: the job is killed then, and redoes
				 * the epoch it was in from its last
				 * checkpoint
				 */
				const struct mg_dlattr *a = &s->c.dl[b->trace];
				double ran = (double)(s->now - b->start);

				d = s->c.reclaim_grace;
				redo = (int64_t)ceil((a->epoch_s > 0 ? fmod(ran,
				    a->epoch_s) : 0) + (double)d);
				b->lost += (double)b->nodes * (double)redo;
				b->eredo = (double)redo;
			}
			b->releasing = 1;
			b->work_left = r->end - (s->now + d) + redo;
			b->res = b->trace >= 0 && (size_t)b->trace < s->t->n &&
			    s->c.dl != NULL ? mg_dlattr_resume_time(&s->c.dl[b->trace],
			    &s->c.dlgen) : 0;
			b->for_job = RECLAIMED;
			b->npreempt++;
			r->end = s->now + d;
			s->run_end = -1;
			/* at its release, the inference pool takes what it
			 * needs, the rest comes back free */
			b->given = r->nodes < n ? r->nodes : n;
			n -= b->given;
			s->ls.reclaim_jobs++;
		}
	}
	mg_slurmpreempt_cands_free(c, rel, taken, at, out);
	if (n > 0) {			/* nobody could give them */
		if (s->owed == 0)
			s->owed_since = s->now;
		s->owed += n;
	}
	return 0;
}

/* a loan tick: lend the spare inference nodes, or take them back */
int
mg_slurmloan_tick(struct mg_slurmsim *s)
{
	int32_t dem, spare;
	int rv;

	/* what is owed is paid from the nodes that came free */
	if (s->owed > 0 && s->free[0] > 0) {
		int32_t p = s->free[0] < s->owed ? s->free[0] : s->owed;

		s->free[0] -= p;
		s->owed -= p;
		if (s->owed == 0 && s->now > s->owed_since +
		    s->c.reclaim_grace)
			s->ls.slo_violations++;
	}
	if (s->now < s->next_loan)
		return 0;
	while (s->next_dem < s->c.dem_n &&
	    s->c.dem_time[s->next_dem] <= s->now)
		s->next_dem++;
	dem = s->next_dem > 0 ? s->c.dem_nodes[s->next_dem - 1] : 0;
	spare = s->c.inf_nodes - dem - s->c.loan_headroom;
	if (spare < 0)
		spare = 0;
	if (spare > s->lent) {
		s->free[0] += spare - s->lent;
	} else if (spare < s->lent) {
		s->ls.reclaims++;
		if ((rv = reclaim(s, s->lent - spare)) != 0)
			return rv;
	}
	s->lent = spare;
	/* the demand holds after its last point: no tick needed */
	s->next_loan = s->next_dem >= s->c.dem_n ? NEVER : s->next_loan +
	    s->c.loan_interval * ((s->now - s->next_loan) /
	    s->c.loan_interval + 1);
	return 0;
}

void
mg_slurmsim_loan_stats(const struct mg_slurmsim *s,
    struct mg_loanstats *out)
{
	*out = s->ls;
}

size_t
mg_slurmsim_loan_hours(const struct mg_slurmsim *s, int64_t *from,
    const double **lent, const double **used)
{
	*from = s->hour0;
	*lent = s->hlent;
	*used = s->hused;
	return s->nhours;
}
