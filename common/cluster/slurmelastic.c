/*
 * slurmelastic.c: the faithful model's elastic jobs (Aryl): their work,
 * resizes, shrinking and growing; see slurmsim_int.h.
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

/* ---- elastic jobs --------------------------------------------------- */

/* an elastic job's work done up to now on n nodes */
void
mg_slurmelastic_progress(struct mg_slurmsim *s, struct fjob *j, int32_t n)
{
	if ((double)s->now > EL(s, j)->eat) {
		EL(s, j)->ework -= ((double)s->now - EL(s, j)->eat) *
		    mg_slurmelastic_speed(s, j, n);
		if (EL(s, j)->ework < 0)
			EL(s, j)->ework = 0;
		EL(s, j)->eat = (double)s->now;
	}
}

/* run entry i moved in expected end: back in order */
static void
run_reorder(struct mg_slurmsim *s, size_t i)
{
	struct frun x = s->run[i];

	while (i > 0 && s->run[i - 1].exp_end > x.exp_end) {
		s->run[i] = s->run[i - 1];
		i--;
	}
	while (i + 1 < s->nrun && s->run[i + 1].exp_end < x.exp_end) {
		s->run[i] = s->run[i + 1];
		i++;
	}
	s->run[i] = x;
}

/*
 * the elastic job of run entry i goes to n nodes: its work so far is
 * counted, it pauses for its restart, and ends when its work at the new
 * speed is done
 */
static void
resize(struct mg_slurmsim *s, size_t i, int32_t n)
{
	struct frun *r = &s->run[i];
	struct fjob *j = &s->job[r->j];
	struct fjel *x = EL(s, j);
	int32_t delta = n - r->nodes;
	double sp = mg_slurmelastic_speed(s, j, n);

	s->upd = s->now;

	mg_slurmelastic_progress(s, j, r->nodes);
	if (j->fsh >= 0) {
		mg_slurmprio_charge(s, j->fsh);
		s->hnodes[j->fsh] += delta;
	}
	if (j->user >= 0) {
		s->unodes[j->user] += delta;
		if (j->qos >= 0)
			s->uqnodes[mg_slurmsim_uq(s, j)] += delta;
	}
	s->free[r->pool] -= delta;
	r->nodes = n;
	j->nodes = n;
	j->nresize++;
	if (delta > 0)
		s->ls.grows++;
	else
		s->ls.shrinks++;
	x->eat = (x->eat > (double)s->now ? x->eat : (double)s->now) +
	    x->erestart;
	r->end = (int64_t)ceil(x->eat + x->ework / sp);
	s->run_end = -1;
	r->exp_end = (int64_t)ceil(x->eat + (x->elimw - (x->ework0 -
	    x->ework)) / sp);
	if (r->exp_end < r->end)
		r->exp_end = r->end;
	r->exp_round = mg_slurmsim_round_up(r->exp_end, s->c.bf_resolution);
	run_reorder(s, i);
}

/* an elastic run entry that may change size (not stopping) */
static int
el_running(const struct mg_slurmsim *s, const struct frun *r)
{
	const struct fjob *j = &s->job[r->j];

	return j->elastic && !j->releasing && j->susp_head < 0 &&
	    r->end > s->now;
}

/*
 * free need nodes by shrinking elastic jobs toward their minimum, the
 * widest extras first; with all, only if they can give them all.
 * Returns the nodes freed.
 */
int32_t
mg_slurmelastic_shrink(struct mg_slurmsim *s, int32_t need, int all)
{
	int32_t extra = 0, got = 0;
	size_t i, best;

	for (i = 0; i < s->nrun; i++)
		if (el_running(s, &s->run[i]))
			extra += s->run[i].nodes - s->jel[s->run[i].j].emin;
	if (need <= 0 || extra == 0 || (all && extra < need))
		return 0;
	while (got < need) {
		int32_t most = 0, x;

		best = s->nrun;
		for (i = 0; i < s->nrun; i++)
			if (el_running(s, &s->run[i]) && s->run[i].nodes -
			    s->jel[s->run[i].j].emin > most) {
				most = s->run[i].nodes -
				    s->jel[s->run[i].j].emin;
				best = i;
			}
		if (best == s->nrun)
			break;
		x = most < need - got ? most : need - got;
		got += x;
		resize(s, best, s->run[best].nodes - x);
	}
	return got;
}

/*
 * the second phase: the free nodes the first waiting job does not need
 * go to running elastic jobs, by the knapsack (or greedy)
 */
int
mg_slurmelastic_grow(struct mg_slurmsim *s)
{
	int32_t avail = s->free[0];
	size_t m = 0, i;

	for (i = 0; i < s->npend; i++) {
		const struct fjob *j = &s->job[s->pend[i].j];

		if (j->start < 0 && !mg_slurmsim_held(s, j)) {
			avail -= j->nodes;
			break;
		}
	}
	if (avail <= 0)
		return 0;
	if (s->capej < s->nrun) {
		size_t cap = s->nrun * 2;
		struct mg_elastic_job *e = realloc(s->ej, cap * sizeof(*e));
		int32_t *k, *jb;

		if (e == NULL)
			return MG_ENOMEM;
		s->ej = e;
		if ((k = realloc(s->ek, cap * sizeof(*k))) == NULL)
			return MG_ENOMEM;
		s->ek = k;
		if ((jb = realloc(s->ejob, cap * sizeof(*jb))) == NULL)
			return MG_ENOMEM;
		s->ejob = jb;
		s->capej = cap;
	}
	for (i = 0; i < s->nrun; i++) {
		const struct frun *r = &s->run[i];
		const struct fjob *j = &s->job[r->j];
		struct mg_elastic_job *e = &s->ej[m];
		double left;

		if (!el_running(s, r) || r->nodes >= EL(s, j)->emax)
			continue;
		left = EL(s, j)->ework - ((double)s->now > EL(s, j)->eat ? ((double)s->now -
		    EL(s, j)->eat) * mg_slurmelastic_speed(s, j, r->nodes) : 0);
		e->base = r->nodes;
		e->max = EL(s, j)->emax;
		e->rem = (left > 0 ? left : 0) / mg_slurmelastic_speed(s, j,
		    r->nodes);
		e->alpha = EL(s, j)->alpha;
		e->restart = EL(s, j)->erestart;
		e->prof = s->c.el_prof;
		e->size = EL(s, j)->nreq;
		s->ejob[m++] = r->j;	/* by job: entries move */
	}
	if (m == 0 || (s->c.el_greedy ? mg_elastic_greedy(s->ej, m, avail,
	    s->ek) : mg_elastic_mckp(s->ej, m, avail, s->ek)) < 0)
		return 0;
	for (i = 0; i < m; i++) {
		size_t q;

		if (s->ek[i] <= 0)
			continue;
		for (q = 0; q < s->nrun && s->run[q].j != s->ejob[i]; q++)
			;
		if (q < s->nrun)
			resize(s, q, s->run[q].nodes + s->ek[i]);
	}
	return 0;
}
