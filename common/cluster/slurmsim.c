/*
 * slurmsim.c: the event-driven faithful model; see slurmsim.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/slurmsim.h"
#include "cluster/slurmsim_int.h"
#include "cluster/preempt.h"
#include "base/mem.h"
#include "base/rand.h"
#include "base/status.h"


void
mg_slurmsim_params_default(struct mg_slurmsim_params *c, int nodes)
{
	memset(c, 0, sizeof(*c));
	c->nodes = nodes;
	c->w_age = 1000;
	c->max_age = 7 * 86400;
	c->w_size = 1000;
	c->w_trace = 0;
	c->sched_interval = 60;
	c->bf_interval = 30;
	c->bf_resolution = 60;
	c->bf_window = 86400;
	c->bf_max_job_test = 100;
	c->queue_depth = 100;
	c->requeue_delay = 120;
	c->w_urgent = 1e6;	/* urgent jobs' QOS: ahead of any other */
	mg_dlgen_default(&c->dlgen);
	c->w_fairshare = 0;
	c->decay_half_life = 7 * 86400;
	c->calc_period = 300;
}

int
mg_slurmsim_params_preempts(const struct mg_slurmsim_params *c)
{
	return c->preempt_mode != MG_PREEMPT_OFF &&
	    c->preempt_type != MG_PTYPE_NONE;
}

static int
sort_arrivals(const struct mg_slurmsim *s, int32_t *idx, size_t n)
{
	struct pent *k = malloc((n ? n : 1) * sizeof(*k));
	size_t i;

	if (k == NULL)
		return MG_ENOMEM;
	for (i = 0; i < n; i++) {
		k[i].prio = 0;
		k[i].submit = s->job[idx[i]].submit;
		k[i].trace = s->job[idx[i]].trace;
		k[i].j = idx[i];
	}
	qsort(k, n, sizeof(*k), mg_slurmprio_qcmp);
	for (i = 0; i < n; i++)
		idx[i] = k[i].j;
	free(k);
	return 0;
}


/* slots of the per-user, per-QOS counts (at least one) */
static size_t
qslots(const struct mg_slurmsim *s)
{
	size_t n = (size_t)s->c.nqos * (s->t->nusers ? s->t->nusers : 1);

	return n ? n : 1;
}


/* room for one more job */
static int
grow_jobs(struct mg_slurmsim *s)
{
	if (mg_grow((void **)&s->job, &s->capjob, s->njob + 1,
	    sizeof(*s->job)) || mg_grow((void **)&s->juser, &s->capjuser,
	    s->njob + 1, sizeof(*s->juser)) || (s->elastic &&
	    mg_grow((void **)&s->jel, &s->capjel, s->njob + 1,
	    sizeof(*s->jel))))
		return MG_ENOMEM;
	return 0;
}


/* the node pools and which of them each partition may use; 0 or
 * MG_EINVAL (a partition of no pool, or of a pool that does not exist) */
static int
set_pools(struct mg_slurmsim *s, const struct mg_slurmsim_params *c)
{
	size_t i;

	if (c->nparts > 0 && c->npools > 0) {
		/* partitions of shared pools */
		s->npools = c->npools;
		for (i = 0; i < (size_t)s->npools; i++)
			s->free[i] = c->pool_nodes[i];
		for (i = 0; i < (size_t)c->nparts; i++) {
			s->pmask[i] = c->part_pools[i];
			if (s->pmask[i] == 0 || (c->npools < 32 &&
			    s->pmask[i] >> c->npools != 0))
				return MG_EINVAL;
		}
	} else {
		/* a pool of its own for each partition, or one for all */
		s->npools = c->nparts > 0 ? c->nparts : 1;
		for (i = 0; i < (size_t)s->npools; i++) {
			s->free[i] = c->nparts > 0 ? c->part_nodes[i] :
			    c->nodes;
			s->pmask[i] = 1u << i;
		}
	}
	return 0;
}

/*
 * job j of the model from trace job i: its request, user, account and
 * fair-share holder, and an elastic job's work (it asks for its
 * minimum; a job running at t0 of a warm start stays rigid)
 */
static void
trace_job(struct mg_slurmsim *s, const struct mg_slurmsim_params *c,
    size_t i, int running, struct fjob *j)
{
	const struct mg_trace *t = s->t;
	const struct mg_trace_job *tj = &t->job[i];

	j->submit = tj->submit;
	j->dur = tj->dur;
	j->limit = tj->limit;
	j->nodes = tj->nodes;
	j->start = -1;
	j->tprio = tj->prio > 0 ? (double)tj->prio : 0;
	j->trace = (int32_t)i;
	j->user = tj->user;
	j->handover = -1;
	j->end = -1;
	j->pred = -1;
	j->part = c->nparts > 0 && tj->part >= 0 ? tj->part : 0;
	j->qos = tj->qos >= 0 && tj->qos < c->nqos ? tj->qos : -1;
	j->account = tj->account >= 0 && (size_t)tj->account <
	    t->naccts ? tj->account : -1;
	j->fsh = mg_slurmprio_holder_of(s, j->user, j->account,
	    tj->assoc >= 0 && (size_t)tj->assoc < t->nassoc ?
	    tj->assoc : -1);
	j->eligible = tj->eligible > tj->submit ? tj->eligible : -1;
	s->has_elig |= j->eligible >= 0;
	j->accrue = -1;
	j->low_until = 0;
	j->urgent = s->preempt && c->dl[i].urgent;
	j->releasing = 0;
	j->first_start = -1;
	j->work_left = 0;
	j->res = 0;
	j->prio = 0;
	j->for_job = -1;
	j->promised = 0;
	j->npreempt = 0;
	j->lost = 0;
	j->caused = 0;
	j->ran = 0;
	j->susp_by = j->susp_next = j->susp_head = -1;
	j->lim_used = j->susp_at = j->suspended = 0;
	j->given = 0;
	j->elastic = 0;
	j->nresize = 0;
	j->eredo = 0;
	if (s->elastic && c->el[i].elastic && !running && c->el[i].min > 0 &&
	    c->el[i].min <= tj->nodes && c->el[i].max >= tj->nodes) {
		struct fjel *x = EL(s, j);

		j->elastic = 1;
		x->nreq = tj->nodes;
		x->emin = c->el[i].min;
		x->emax = c->el[i].max;
		x->alpha = c->el[i].alpha;
		x->ework = x->ework0 = (double)tj->dur;
		x->elimw = (double)tj->limit;
		x->epause = 0;
		x->eat = 0;
		x->erestart = c->dl != NULL ? mg_dlattr_resume_time(&c->dl[i],
		    &c->dlgen) : 0;
		j->nodes = x->emin;
		j->dur = (int64_t)ceil(x->ework /
		    mg_slurmelastic_speed(s, j, x->emin));
		j->limit = (int64_t)ceil(x->elimw /
		    mg_slurmelastic_speed(s, j, x->emin));
	}
}

/*
 * The jobs of a window.  Cold: those submitted in [from, to].  Warm: also
 * those submitted before t0 that had not ended by then; the ones that
 * were running at t0 are running from their real start.
 */
static int
build(const struct mg_slurmsim_params *c, const struct mg_trace *t, int64_t t0,
    int64_t from, int64_t to, int warm, struct mg_slurmsim **out)
{
	struct mg_slurmsim *s;
	int32_t *map;
	size_t i;

	*out = NULL;
	if (c->nodes <= 0 || c->max_age <= 0 || c->sched_interval <= 0 ||
	    c->bf_interval <= 0 || c->bf_resolution <= 0 || c->bf_window <= 0)
		return MG_EINVAL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return MG_ENOMEM;
	s->c = *c;
	s->t = t;
	s->now = t0;
	s->next_sched = t0;
	s->next_bf = t0;
	s->upd = t0;
	s->last_bf = INT64_MIN;
	if (c->nparts < 0 || c->nparts > MG_SLURM_MAXPART || c->npools < 0 ||
	    c->npools > MG_SLURM_MAXPOOL || c->nqos < 0 ||
	    c->nqos > MG_SLURM_MAXQOS) {
		free(s);
		return MG_EINVAL;
	}
	if (set_pools(s, c) != 0) {
		free(s);
		return MG_EINVAL;
	}
	for (i = 0; i < (size_t)c->nqos; i++)
		if (c->qos_prio[i] > s->qos_top)
			s->qos_top = c->qos_prio[i];
	for (i = 0; i < (size_t)c->nparts; i++)
		if (c->part_prio[i] > s->part_top)
			s->part_top = c->part_prio[i];
	s->cap = c->nodes;
	s->stuck_at = SIZE_MAX;
	s->nusers = t->nusers;
	s->urun = calloc(t->nusers ? t->nusers : 1, sizeof(*s->urun));
	s->uacc = calloc(t->nusers ? t->nusers : 1, sizeof(*s->uacc));
	s->unodes = calloc(t->nusers ? t->nusers : 1, sizeof(*s->unodes));
	s->naccts = t->naccts;
	s->usage = calloc(mg_slurmprio_holders(s), sizeof(*s->usage));
	s->hnodes = calloc(mg_slurmprio_holders(s), sizeof(*s->hnodes));
	s->fst = calloc(mg_slurmprio_holders(s), sizeof(*s->fst));
	s->fsf = calloc(mg_slurmprio_holders(s), sizeof(*s->fsf));
	s->fst_at = -1;
	s->next_calc = t0;	/* priorities are set at the first event */
	if (mg_slurmprio_first_submits(s) != 0) {
		mg_slurmsim_free(s);
		return MG_ENOMEM;
	}
	s->uqrun = calloc(qslots(s), sizeof(*s->uqrun));
	s->uqnodes = calloc(qslots(s), sizeof(*s->uqnodes));
	s->calc_at = t0;
	s->preempt = mg_slurmsim_params_preempts(c) && c->dl != NULL &&
	    s->npools == 1;
	s->prng = c->preempt_seed ^ 0x5DEECE66DULL;
	s->loan = c->inf_nodes > 0 && c->dem_n > 0 && c->loan_interval > 0 &&
	    s->npools == 1;
	s->elastic = c->el != NULL && s->npools == 1;
	s->next_loan = s->loan ? t0 : NEVER;
	s->run_end = -1;
	s->hour0 = t0 - ((t0 % 3600) + 3600) % 3600;
	s->charged = malloc(mg_slurmprio_holders(s) * sizeof(*s->charged));
	s->fsf_at = malloc(mg_slurmprio_holders(s) * sizeof(*s->fsf_at));
	for (i = 0; s->charged && s->fsf_at && i < mg_slurmprio_holders(s);
	    i++) {
		s->charged[i] = t0;
		s->fsf_at[i] = -1;
	}
	map = malloc((t->n ? t->n : 1) * sizeof(*map));
	if (s->urun == NULL || s->uacc == NULL || s->unodes == NULL ||
	    s->usage == NULL ||
	    s->uqrun == NULL || s->uqnodes == NULL || s->hnodes == NULL ||
	    s->fst == NULL || s->fsf == NULL || s->charged == NULL ||
	    s->fsf_at == NULL || map == NULL) {
		free(map);
		mg_slurmsim_free(s);
		return MG_ENOMEM;
	}
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *tj = &t->job[i];
		int keep = tj->submit >= from && tj->submit <= to;
		struct fjob *j;

		if (warm && tj->submit < t0 && tj->start + tj->dur > t0)
			keep = 1;
		map[i] = -1;
		if (!keep)
			continue;
		if (grow_jobs(s) || mg_grow((void **)&s->arr, &s->caparr,
		    s->narr + 1, sizeof(*s->arr))) {
			free(map);
			mg_slurmsim_free(s);
			return MG_ENOMEM;
		}
		map[i] = (int32_t)s->njob;
		j = &s->job[s->njob];
		trace_job(s, c, i, warm && tj->submit < t0 && tj->start < t0,
		    j);
		s->juser[s->njob] = j->user;
		if (j->part >= (c->nparts > 0 ? c->nparts : 1)) {
			free(map);
			mg_slurmsim_free(s);
			return MG_EINVAL;
		}
		/* a dependency outside the window counts as met */
		j->after = tj->after >= 0 && (size_t)tj->after < i &&
		    map[tj->after] >= 0 ? map[tj->after] : -1;
		if (warm && tj->submit < t0 && tj->start < t0) {
			/* running at t0, since its real start */
			int64_t now = s->now;

			s->now = tj->start;
			j->after = -1;
			if (mg_slurmsched_start(s, (int32_t)s->njob, NULL) != 0) {
				free(map);
				mg_slurmsim_free(s);
				return MG_ENOMEM;
			}
			s->now = now;
		} else {
			s->arr[s->narr++] = (int32_t)s->njob;
		}
		s->njob++;
	}
	free(map);
	if (sort_arrivals(s, s->arr, s->narr) != 0) {
		mg_slurmsim_free(s);
		return MG_ENOMEM;
	}
	*out = s;
	return 0;
}

int
mg_slurmsim_new(const struct mg_slurmsim_params *c, const struct mg_trace *t,
    int64_t t0, int64_t from, int64_t to, struct mg_slurmsim **out)
{
	return build(c, t, t0, from, to, 0, out);
}

int
mg_slurmsim_new_warm(const struct mg_slurmsim_params *c,
    const struct mg_trace *t, int64_t t0, int64_t to,
    struct mg_slurmsim **out)
{
	return build(c, t, t0, t0, to, 1, out);
}

struct mg_slurmsim *
mg_slurmsim_copy(const struct mg_slurmsim *s)
{
	struct mg_slurmsim *d;

	if ((d = malloc(sizeof(*d))) == NULL)
		return NULL;
	*d = *s;
	d->tt = NULL;
	d->tf = NULL;
	d->tcap = 0;
	d->hlent = d->hused = NULL;	/* a copy keeps no hours */
	d->midx = NULL;		/* nor the moving entries' positions */
	d->nmidx = d->capmidx = 0;
	d->midx_ok = 0;
	d->ej = NULL;		/* nor scratch */
	d->ek = d->ejob = NULL;
	d->capej = 0;
	d->nhours = d->caphours = 0;
	d->resume = NULL;	/* empty between events */
	d->nresume = d->capresume = 0;
	d->held = malloc((s->nheld ? s->nheld : 1) * sizeof(*d->held));
	d->capheld = s->nheld ? s->nheld : 1;
	d->job = malloc((s->capjob ? s->capjob : 1) * sizeof(*d->job));
	d->juser = malloc((s->capjob ? s->capjob : 1) * sizeof(*d->juser));
	d->capjuser = s->capjob ? s->capjob : 1;
	d->jel = NULL;
	d->capjel = 0;
	if (s->jel != NULL && (d->jel = malloc(s->capjel *
	    sizeof(*d->jel))) != NULL) {
		d->capjel = s->capjel;
		mg_copy(d->jel, s->jel, s->njob, sizeof(*d->jel));
	}
	d->arr = malloc((s->caparr ? s->caparr : 1) * sizeof(*d->arr));
	d->pbuf = d->pend = malloc((s->npend ? s->npend : 1) *
	    sizeof(*d->pend));
	d->phead = 0;
	d->cappend = s->npend ? s->npend : 1;
	d->fsf = malloc(mg_slurmprio_holders(s) * sizeof(*d->fsf));
	d->fsf_at = malloc(mg_slurmprio_holders(s) * sizeof(*d->fsf_at));
	d->charged = malloc(mg_slurmprio_holders(s) * sizeof(*d->charged));
	d->run = malloc((s->caprun ? s->caprun : 1) * sizeof(*d->run));
	d->urun = malloc((s->nusers ? s->nusers : 1) * sizeof(*d->urun));
	d->uacc = malloc((s->nusers ? s->nusers : 1) * sizeof(*d->uacc));
	d->unodes = malloc((s->nusers ? s->nusers : 1) * sizeof(*d->unodes));
	d->usage = malloc(mg_slurmprio_holders(s) * sizeof(*d->usage));
	d->hnodes = malloc(mg_slurmprio_holders(s) * sizeof(*d->hnodes));
	d->fst = malloc(mg_slurmprio_holders(s) * sizeof(*d->fst));
	d->hfirst = malloc(mg_slurmprio_holders(s) * sizeof(*d->hfirst));
	d->hsorted = malloc(mg_slurmprio_holders(s) * sizeof(*d->hsorted));
	d->uqrun = malloc(qslots(s) * sizeof(*d->uqrun));
	d->uqnodes = malloc(qslots(s) * sizeof(*d->uqnodes));
	if (!d->job || !d->juser || (s->jel && !d->jel) || !d->arr || !d->pend ||
	    !d->run || !d->urun || !d->uacc || !d->unodes || !d->usage ||
	    !d->uqrun ||
	    !d->uqnodes || !d->hnodes || !d->fst || !d->hfirst ||
	    !d->hsorted || !d->fsf || !d->fsf_at || !d->charged || !d->held) {
		mg_slurmsim_free(d);
		return NULL;
	}
	mg_copy(d->job, s->job, s->njob, sizeof(*d->job));
	mg_copy(d->juser, s->juser, s->njob, sizeof(*d->juser));
	mg_copy(d->arr, s->arr, s->narr, sizeof(*d->arr));
	mg_copy(d->held, s->held, s->nheld, sizeof(*d->held));
	mg_copy(d->pend, s->pend, s->npend, sizeof(*d->pend));
	mg_copy(d->run, s->run, s->nrun, sizeof(*d->run));
	mg_copy(d->urun, s->urun, s->nusers, sizeof(*d->urun));
	mg_copy(d->uacc, s->uacc, s->nusers, sizeof(*d->uacc));
	mg_copy(d->unodes, s->unodes, s->nusers, sizeof(*d->unodes));
	mg_copy(d->usage, s->usage, mg_slurmprio_holders(s),
	    sizeof(*d->usage));
	mg_copy(d->hnodes, s->hnodes, mg_slurmprio_holders(s),
	    sizeof(*d->hnodes));
	mg_copy(d->fst, s->fst, mg_slurmprio_holders(s),
	    sizeof(*d->fst));
	mg_copy(d->fsf, s->fsf, mg_slurmprio_holders(s),
	    sizeof(*d->fsf));
	mg_copy(d->fsf_at, s->fsf_at, mg_slurmprio_holders(s),
	    sizeof(*d->fsf_at));
	mg_copy(d->charged, s->charged, mg_slurmprio_holders(s),
	    sizeof(*d->charged));
	mg_copy(d->hfirst, s->hfirst, mg_slurmprio_holders(s),
	    sizeof(*d->hfirst));
	mg_copy(d->hsorted, s->hsorted, mg_slurmprio_holders(s),
	    sizeof(*d->hsorted));
	mg_copy(d->uqrun, s->uqrun, qslots(s), sizeof(*d->uqrun));
	mg_copy(d->uqnodes, s->uqnodes, qslots(s), sizeof(*d->uqnodes));
	return d;
}

void
mg_slurmsim_free(struct mg_slurmsim *s)
{
	if (s == NULL)
		return;
	free(s->job);
	free(s->juser);
	free(s->jel);
	free(s->arr);
	free(s->pbuf);
	free(s->midx);
	free(s->fsf);
	free(s->fsf_at);
	free(s->charged);
	free(s->run);
	free(s->urun);
	free(s->uacc);
	free(s->unodes);
	free(s->usage);
	free(s->hnodes);
	free(s->fst);
	free(s->hfirst);
	free(s->hsorted);
	free(s->uqrun);
	free(s->uqnodes);
	free(s->tt);
	free(s->tf);
	free(s->resume);
	free(s->hlent);
	free(s->hused);
	free(s->ej);
	free(s->ek);
	free(s->ejob);
	free(s->held);
	free(s);
}


/*
 * a preempted job's nodes have come free (the caller released them):
 * requeued with its work left plus its resume loss, or cancelled
 */
static int
released(struct mg_slurmsim *s, int32_t jr)
{
	struct fjob *b = &s->job[jr];

	struct fjob *u = b->for_job >= 0 ? &s->job[b->for_job] : NULL;
	int reclaimed = b->for_job == RECLAIMED;
	int mode = reclaimed ? MG_PREEMPT_REQUEUE : s->c.preempt_mode;
	double lost;

	b->releasing = 0;
	if (u != NULL)
		u->promised -= b->nodes;
	b->for_job = -1;
	if (b->elastic) {
		/* its work up to its release, less what a kill undid */
		mg_slurmelastic_progress(s, b, b->nodes);
		EL(s, b)->ework += b->eredo * mg_slurmelastic_speed(s, b,
		    b->nodes);
		if (EL(s, b)->ework > EL(s, b)->ework0)
			EL(s, b)->ework = EL(s, b)->ework0;
		b->eredo = 0;
	}
	if (b->work_left <= 0) {	/* it ended before its release */
		if (mode == MG_PREEMPT_SUSPEND)
			s->free[0] += b->nodes;
		b->end = s->now;
		return 0;
	}
	if (mode == MG_PREEMPT_SUSPEND) {
		/*
		 * its preemptor gets the nodes it still lacks; the rest
		 * stay the victim's, idle, until it resumes
		 */
		int32_t give = u == NULL || u->start >= 0 ? b->nodes :
		    u->nodes - (s->free[0] > 0 ? s->free[0] : 0);

		b->given = give < 0 ? 0 : give > b->nodes ? b->nodes : give;
		s->free[0] += b->given;
		b->lim_used += s->now - b->start;
		b->ran += (double)b->nodes * (double)(s->now - b->start);
		b->dur = b->work_left;
		b->start = -1;
		b->susp_at = s->now;
		if (u == NULL || u->start >= 0) {	/* nobody to wait for */
			s->free[0] -= b->nodes;
			return mg_slurmsched_resume(s, jr);
		}
		b->susp_by = (int32_t)(u - s->job);
		b->susp_next = u->susp_head;
		u->susp_head = jr;
		return 0;
	}
	if (mode == MG_PREEMPT_CANCEL) {
		lost = (double)b->nodes * (double)(s->now - b->start);
		b->lost += lost;
		if (u != NULL)
			u->caused += lost;
		b->end = s->now;
		return 0;
	}
	lost = (double)b->nodes * b->res;
	b->lost += lost;
	if (u != NULL)
		u->caused += lost;
	b->ran += (double)b->nodes * (double)(s->now - b->start);
	b->dur = b->work_left + (int64_t)ceil(b->res);
	if (b->dur > b->limit)
		b->dur = b->limit;	/* killed at its limit, as any job */
	if (b->elastic) {
		/* it waits again for its minimum, its resume loss ahead */
		struct fjel *x = EL(s, b);

		b->nodes = x->emin;
		x->epause = ceil(b->res);
		b->dur = (int64_t)ceil(x->epause + x->ework /
		    mg_slurmelastic_speed(s, b, x->emin));
		b->limit = (int64_t)ceil(x->epause + (x->elimw - (x->ework0 -
		    x->ework)) / mg_slurmelastic_speed(s, b, x->emin));
		if (b->limit < b->dur)
			b->limit = b->dur;
	}
	b->start = -1;
	b->accrue = -1;		/* admitted again as it arrives again */
	/* held a while; its age counts from then (slurmsim.h) */
	b->eligible = s->now + (s->c.requeue_delay > 0 ?
	    s->c.requeue_delay + 1 : 0);
	if (b->eligible > s->now) {
		if (mg_grow((void **)&s->held, &s->capheld, s->nheld + 1,
		    sizeof(*s->held)))
			return MG_ENOMEM;
		s->held[s->nheld++] = jr;
	}
	return mg_slurmprio_enqueue(s, jr);
}

/* ---- the event loop ------------------------------------------------- */

static int64_t
next_tick(int64_t next, int64_t now, int64_t every)
{
	if (next >= now)
		return next;
	return next + (now - next + every - 1) / every * every;
}

/* the next Eligible time of a pending job, after now; NEVER if none */
static int64_t
next_eligible(const struct mg_slurmsim *s)
{
	int64_t t = NEVER;
	size_t i;

	for (i = 0; s->has_elig && i < s->npend; i++) {
		int64_t e = s->job[s->pend[i].j].eligible;

		if (e > s->now && e < t)
			t = e;
	}
	for (i = 0; i < s->nheld; i++) {
		int64_t e = s->job[s->held[i]].eligible;

		if (e > s->now && e < t)
			t = e;
	}
	return t;
}

/* the first end of a running job, NEVER if none */
static int64_t
first_end(struct mg_slurmsim *s)
{
	size_t i;

	if (s->run_end < 0)
		for (i = 0, s->run_end = NEVER; i < s->nrun; i++)
			if (s->run[i].end < s->run_end)
				s->run_end = s->run[i].end;
	return s->run_end;
}

/* the time of the next event: an arrival, an end, a capacity change, a
 * pending job becoming eligible, or a scheduler run while jobs are
 * pending */
static int64_t
next_event(struct mg_slurmsim *s)
{
	int64_t t = next_eligible(s), e;

	if (s->next_arr < s->narr && s->job[s->arr[s->next_arr]].submit < t)
		t = s->job[s->arr[s->next_arr]].submit;
	if (s->next_cap < s->c.cap_n && s->c.cap_time[s->next_cap] < t)
		t = s->c.cap_time[s->next_cap];
	/* loan ticks matter while jobs are to come, wait or run */
	if (s->next_loan < t && (s->npend > 0 || s->nrun > 0 ||
	    s->next_arr < s->narr))
		t = s->next_loan;
	if (s->next_resv < s->c.resv_n && s->c.resv_time[s->next_resv] < t)
		t = s->c.resv_time[s->next_resv];
	if ((e = first_end(s)) < t)
		t = e;
	/* periods matter to pending jobs, and to usage while jobs run */
	if ((s->npend > 0 || (s->nrun > 0 && s->c.w_fairshare > 0)) &&
	    s->next_calc < t)
		t = s->next_calc;
	if (s->npend > 0) {
		s->next_sched = next_tick(s->next_sched, s->now,
		    s->c.sched_interval);
		s->next_bf = next_tick(s->next_bf, s->now, s->c.bf_interval);
		e = s->next_sched < s->next_bf ? s->next_sched : s->next_bf;
		if (e < t)
			t = e;
	}
	return t;
}

/*
 * the running jobs that end now leave: their nodes come free (a
 * suspended victim's through released(), a reclaimed one's to the
 * inference pool), their users' counts and fair-share are updated, and
 * preempted ones are requeued or cancelled.  0 or MG_ENOMEM.
 */
static int
ends(struct mg_slurmsim *s, int *changed)
{
	size_t i, w, n;
	int rv;

	n = s->now >= first_end(s) ? s->nrun : 0;
	for (i = w = 0; i < n; i++) {
		if (s->run[i].end <= s->now) {
			const struct frun *r = &s->run[i];
			struct fjob *e = &s->job[r->j];
			int32_t u = e->user;

			if (!e->releasing)
				e->end = r->end;
			/* a suspended victim's nodes: released();
			 * a reclaimed one's: the inference pool's */
			if (!e->releasing || (s->c.preempt_mode !=
			    MG_PREEMPT_SUSPEND && e->for_job !=
			    RECLAIMED))
				s->free[r->pool] += r->nodes;
			else if (e->for_job == RECLAIMED) {
				s->free[r->pool] += r->nodes - e->given;
				e->given = 0;
			}
			*changed = 1;
			if (!r->head)
				continue;
			if (e->susp_head >= 0) {
				if (mg_grow((void **)&s->resume,
				    &s->capresume, s->nresume + 1,
				    sizeof(*s->resume)))
					return MG_ENOMEM;
				s->resume[s->nresume++] = r->j;
			}
			if (e->fsh >= 0) {
				mg_slurmprio_charge(s, e->fsh);
				s->hnodes[e->fsh] -= e->nodes;
			}
			if (u >= 0) {
				s->urun[u]--;
				s->unodes[u] -= e->nodes;
				if (e->qos >= 0) {
					s->uqrun[mg_slurmsim_uq(s, e)]--;
					s->uqnodes[mg_slurmsim_uq(s, e)] -= e->nodes;
				}
			}
			if (e->releasing && (rv = released(s, r->j)) != 0)
				return rv;
		} else {
			s->run[w++] = s->run[i];
		}
	}
	if (n > 0) {
		s->nrun = w;
		s->run_end = -1;
	}
	return 0;
}

/*
 * what arrives now: capacity and reservation changes, and submitted
 * jobs (a warm start's queue of 64 or more at once in one batch).
 * 0 or MG_ENOMEM.
 */
static int
arrive(struct mg_slurmsim *s, int *changed)
{
	while (s->next_cap < s->c.cap_n &&
	    s->c.cap_time[s->next_cap] <= s->now) {
		int32_t c = s->c.cap_nodes[s->next_cap++];

		s->free[0] += c - s->cap;	/* may go below 0 */
		s->cap = c;
		*changed = 1;
	}
	while (s->next_resv < s->c.resv_n &&
	    s->c.resv_time[s->next_resv] <= s->now) {
		int32_t r = s->c.resv_nodes[s->next_resv++];

		s->free[0] -= r - s->resv;	/* may go below 0 */
		s->resv = r;
		*changed = 1;
	}
	{
		size_t m = 0;

		while (s->next_arr + m < s->narr &&
		    s->job[s->arr[s->next_arr + m]].submit <= s->now)
			m++;
		if (m >= 64) {	/* a warm start's queue */
			if (mg_slurmprio_enqueue_batch(s,
			    s->arr + s->next_arr, m))
				return MG_ENOMEM;
			s->next_arr += m;
			*changed = 1;
		}
	}
	while (s->next_arr < s->narr &&
	    s->job[s->arr[s->next_arr]].submit <= s->now) {
		if (mg_slurmprio_enqueue(s, s->arr[s->next_arr++]) != 0)
			return MG_ENOMEM;
		*changed = 1;
	}
	return 0;
}

int
mg_slurmsim_run(struct mg_slurmsim *s, int64_t until)
{
	size_t i, w;
	int rv, changed;

	for (;;) {
		int64_t t = next_event(s);

		/*
		 * Only scheduler runs left, with nothing running, arriving or
		 * changing: the jobs still pending can never start (bigger
		 * than a limit, or waiting for a job that will not run).
		 */
		if (s->nrun == 0 && s->next_arr >= s->narr &&
		    s->next_cap >= s->c.cap_n && s->next_loan == NEVER &&
		    s->next_resv >= s->c.resv_n && s->npend > 0 &&
		    t != NEVER && s->stuck_at == s->nstarted &&
		    next_eligible(s) == NEVER) {
			if (until != NEVER && until > s->now)
				s->now = until;
			return 0;
		}
		if (s->nrun == 0 && s->next_arr >= s->narr &&
		    s->next_cap >= s->c.cap_n && s->next_resv >= s->c.resv_n &&
		    s->next_loan == NEVER)
			s->stuck_at = s->nstarted;
		else
			s->stuck_at = SIZE_MAX;
		if (t == NEVER || t > until) {
			if (until != NEVER && until > s->now)
				s->now = until;
			return 0;
		}
		if (s->loan && t > s->now)
			mg_slurmloan_account(s, t);
		if (t > s->now)
			s->now = t;
		for (i = w = 0; i < s->nheld; i++)	/* holds that end */
			if (s->job[s->held[i]].eligible > s->now)
				s->held[w++] = s->held[i];
		if (w < s->nheld)
			s->upd = s->now;
		s->nheld = w;
		/* priorities as of the last PriorityCalcPeriod */
		if (s->now >= s->next_calc &&
		    (rv = mg_slurmprio_recalc(s)) != 0)
			return rv;
		changed = 0;
		if ((rv = ends(s, &changed)) != 0)
			return rv;
		if (s->nresume > 0 && (rv = mg_slurmsched_resume_victims(s)) != 0)
			return rv;
		if (s->loan && (s->owed > 0 || s->now >= s->next_loan)) {
			if ((rv = mg_slurmloan_tick(s)) != 0)
				return rv;
			changed = 1;
		}
		if ((rv = arrive(s, &changed)) != 0)
			return rv;
		if (changed)	/* ends, capacity, reservations, loans */
			s->upd = s->now;
		if (s->npend == 0) {
			if (s->elastic && s->free[0] > 0 &&
			    (rv = mg_slurmelastic_grow(s)) != 0)
				return rv;
			continue;
		}
		/* the periodic runs keep their phase through idle times */
		s->next_sched = next_tick(s->next_sched, s->now,
		    s->c.sched_interval);
		s->next_bf = next_tick(s->next_bf, s->now, s->c.bf_interval);
		/*
		 * With no free node neither scheduler can start a job, and
		 * backfill reservations do not outlive their pass, so both
		 * runs are skipped without changing the schedule (but for
		 * the main one with preemption: an urgent job may preempt).
		 */
		/* a job's arrival or end tests default_queue_depth jobs,
		 * the periodic run the whole queue */
		if ((changed || s->now >= s->next_sched) &&
		    (mg_slurmsched_any_free(s) || s->preempt || s->elastic) &&
		    (rv = mg_slurmsched_main(s, s->now >= s->next_sched)) != 0)
			return rv;
		if (s->now >= s->next_sched)
			s->next_sched = s->now + s->c.sched_interval;
		if (s->npend > 0 && s->now >= s->next_bf && mg_slurmsched_any_free(s) &&
		    s->upd >= s->last_bf) {
			if ((rv = mg_slurmsched_backfill(s)) != 0)
				return rv;
			s->last_bf = s->now;
		}
		if (s->now >= s->next_bf)
			s->next_bf = s->now + s->c.bf_interval;
		if (s->elastic && s->free[0] > 0 &&
		    (rv = mg_slurmelastic_grow(s)) != 0)
			return rv;
	}
}

int
mg_slurmsim_run_all(struct mg_slurmsim *s)
{
	return mg_slurmsim_run(s, NEVER);
}

int64_t
mg_slurmsim_time(const struct mg_slurmsim *s)
{
	return s->now;
}

size_t
mg_slurmsim_njobs(const struct mg_slurmsim *s)
{
	return s->njob;
}

struct started {
	int64_t start, wait;
	size_t j;
};

static int
started_cmp(const void *a, const void *b)
{
	const struct started *x = a, *y = b;

	if (x->start != y->start)
		return x->start > y->start ? -1 : 1;
	return (x->j < y->j) - (x->j > y->j);
}

int64_t
mg_slurmsim_avg_wait(const struct mg_slurmsim *s, size_t n)
{
	struct started *a = malloc((s->njob ? s->njob : 1) * sizeof(*a));
	size_t i, k = 0;
	double sum = 0;

	if (a == NULL)
		return MG_ENOMEM;
	for (i = 0; i < s->njob; i++)
		if (s->job[i].start >= 0 && s->job[i].start <= s->now) {
			a[k].start = s->job[i].start;
			a[k].wait = s->job[i].start - s->job[i].submit;
			a[k++].j = i;
		}
	if (k > 1)
		qsort(a, k, sizeof(*a), started_cmp);
	if (k > n)
		k = n;
	for (i = 0; i < k; i++)
		sum += (double)a[i].wait;
	free(a);
	return k ? (int64_t)(sum / (double)k) : 0;
}

int64_t
mg_slurmsim_job_submit(const struct mg_slurmsim *s, size_t j)
{
	return j < s->njob ? s->job[j].submit : -1;
}

int64_t
mg_slurmsim_job_start(const struct mg_slurmsim *s, size_t j)
{
	return j < s->njob ? s->job[j].start : -1;
}

size_t
mg_slurmsim_pending(const struct mg_slurmsim *s)
{
	return s->npend + s->nheld;
}

/* whether job j was added and has not arrived yet: among the arrivals to
 * come */
static int
to_arrive(const struct mg_slurmsim *s, int32_t j)
{
	size_t k;

	if (j < 0 || (size_t)j >= s->njob)
		return 0;
	for (k = s->next_arr; k < s->narr && s->arr[k] != j; k++)
		;
	return k < s->narr;
}

int
mg_slurmsim_set_user(struct mg_slurmsim *s, int32_t j, int32_t user)
{
	if (!to_arrive(s, j) || user < -1 ||
	    (user >= 0 && (size_t)user >= s->nusers))
		return MG_EINVAL;
	s->job[j].user = s->juser[j] = user;
	s->job[j].fsh = mg_slurmprio_holder_of(s, user, -1, -1);
	return 0;
}

int64_t
mg_slurmsim_job_end(const struct mg_slurmsim *s, size_t j)
{
	return j < s->njob ? s->job[j].end : -1;
}

int
mg_slurmsim_set_handover(struct mg_slurmsim *s, int32_t j, int64_t secs)
{
	if (j < 0 || (size_t)j >= s->njob || s->job[j].pred < 0 ||
	    s->job[j].start >= 0 || secs < 1 || secs > INT32_MAX)
		return MG_EINVAL;
	s->job[j].handover = (int32_t)secs;
	return 0;
}

int
mg_slurmsim_set_begin(struct mg_slurmsim *s, int32_t j, int64_t t)
{
	if (!to_arrive(s, j))
		return MG_EINVAL;	/* submitted already, or not added */
	s->job[j].eligible = t > s->job[j].submit ? t : -1;
	s->has_elig |= s->job[j].eligible >= 0;
	return 0;
}

int
mg_slurmsim_set_low(struct mg_slurmsim *s, int32_t j, int64_t until)
{
	if (!to_arrive(s, j))
		return MG_EINVAL;	/* submitted already, or not added */
	s->job[j].low_until = until;
	return 0;
}

void
mg_slurmsim_job_preempt(const struct mg_slurmsim *s, size_t j,
    struct mg_joblife *out)
{
	const struct fjob *x = &s->job[j];

	out->first_start = x->first_start;
	out->end = x->end;
	out->urgent = x->urgent;
	out->npreempt = x->npreempt;
	out->lost = x->lost;
	out->caused = x->caused;
	out->suspended = x->suspended;
	out->nresize = x->nresize;
}

int
mg_slurmsim_set_urgent(struct mg_slurmsim *s, int32_t j)
{
	if (!s->preempt || j < 0 || (size_t)j >= s->njob ||
	    s->job[j].start >= 0)
		return MG_EINVAL;
	/* the priorities set so far stay as they are, and the next
	 * period sets every moving one again */
	mg_slurmprio_freeze(s);
	s->job[j].urgent = 1;
	return 0;
}

int32_t
mg_slurmsim_add_job(struct mg_slurmsim *s, int32_t nodes, int64_t limit,
    int64_t dur, int64_t submit, int32_t pred, int32_t user)
{
	struct fjob *j;
	int32_t r;
	size_t k;

	if (nodes <= 0 || limit <= 0 || dur < 0 || submit < s->now ||
	    (pred >= 0 && (size_t)pred >= s->njob) ||
	    (user >= 0 && (size_t)user >= s->nusers))
		return MG_EINVAL;
	if (grow_jobs(s) || mg_grow((void **)&s->arr, &s->caparr,
	    s->narr + 1, sizeof(*s->arr)))
		return MG_ENOMEM;
	r = (int32_t)s->njob++;
	j = &s->job[r];
	memset(j, 0, sizeof(*j));
	j->submit = submit;
	j->dur = dur > limit ? limit : dur;
	j->limit = limit;
	j->nodes = nodes;
	j->start = -1;
	j->end = -1;
	j->trace = INT32_MAX;		/* after trace jobs of the same second */
	j->user = s->juser[r] = user;
	j->after = -1;
	j->pred = pred;
	j->handover = -1;
	j->part = 0;
	j->qos = -1;
	j->account = -1;
	j->fsh = mg_slurmprio_holder_of(s, user, -1, -1);
	j->eligible = -1;
	j->accrue = -1;
	j->first_start = -1;
	j->for_job = -1;
	j->susp_by = j->susp_next = j->susp_head = -1;
	for (k = s->narr; k > s->next_arr &&
	    s->job[s->arr[k - 1]].submit > submit; k--)
		s->arr[k] = s->arr[k - 1];
	s->arr[k] = r;
	s->narr++;
	return r;
}

int
mg_slurmsim_set_prio(struct mg_slurmsim *s, int32_t j, double prio)
{
	size_t i;

	if (j < 0 || (size_t)j >= s->njob)
		return MG_EINVAL;
	s->job[j].tprio = prio > 0 ? prio : 0;
	/* pending: its priority is set again now, as scontrol does */
	for (i = 0; i < s->npend; i++)
		if (s->pend[i].j == j) {
			memmove(s->pend + i, s->pend + i + 1, (s->npend - i -
			    1) * sizeof(*s->pend));
			s->npend--;
			s->midx_ok = 0;
			return mg_slurmprio_enqueue(s, j);
		}
	return 0;
}

int
mg_slurmsim_run_until_start(struct mg_slurmsim *s, int32_t j, int64_t limit)
{
	while (s->job[j].start < 0) {
		int64_t t = next_event(s);

		if (t == NEVER || t > limit)
			break;
		if (mg_slurmsim_run(s, t) != 0)
			return MG_ENOMEM;
	}
	return s->job[j].start >= 0;
}

int64_t
mg_slurmsim_chain_gap(const struct mg_slurmsim *s, int32_t j, int *ok)
{
	const struct fjob *x = &s->job[j], *p;

	*ok = 0;
	if (x->start < 0 || x->pred < 0)
		return 0;
	p = &s->job[x->pred];
	if (p->start < 0)
		return 0;
	*ok = 1;
	return x->start - (p->start + p->dur);
}

static void
vjob(const struct mg_slurmsim *s, int32_t r, struct mg_view_job *v)
{
	const struct fjob *j = &s->job[r];

	v->submit = j->submit;
	v->start = j->start;
	v->limit = j->limit;
	v->nodes = j->nodes;
	v->chain = j->trace == INT32_MAX;
	v->trace = j->trace == INT32_MAX ? -1 : j->trace;
	v->user = j->user;
	v->job = r;
	v->prio = 0;
	v->end = -1;
}

size_t
mg_slurmsim_disorder(const struct mg_slurmsim *s)
{
	size_t i, n = 0;

	for (i = 1; i < s->npend; i++) {
		const struct pent *x = &s->pend[i - 1], *y = &s->pend[i];
		double a = mg_slurmprio_value(s, x);
		double b = mg_slurmprio_value(s, y);

		n += a < b || (a == b && (x->submit > y->submit ||
		    (x->submit == y->submit && x->trace > y->trace)));
	}
	return n;
}

int
mg_slurmsim_view(const struct mg_slurmsim *s, int32_t s_nodes, int64_t recent,
    struct mg_view *v)
{
	struct fjob fresh;
	struct mg_view_job x;
	struct fsnow fs;
	size_t i;
	int p;

	mg_view_clear(v);
	v->t = s->now;
	v->nodes = s->cap;
	for (v->free = 0, p = 0; p < s->npools; p++)
		v->free += s->free[p] > 0 ? s->free[p] : 0;
	/* usage as of the last event: the view must not change the state */
	if (mg_slurmprio_fs_prepare(s, &fs) != 0)
		return MG_ENOMEM;
	memset(&fresh, 0, sizeof(fresh));
	fresh.submit = s->now;
	fresh.nodes = s_nodes;
	fresh.user = -1;
	fresh.fsh = -1;
	v->s_prio = mg_slurmprio_priority(s, &fresh, &fs);
	for (i = 0; i < s->npend; i++) {
		vjob(s, s->pend[i].j, &x);
		/* as squeue shows it */
		x.prio = mg_slurmprio_value(s, &s->pend[i]);
		if (mg_view_add(&v->pend, &v->npend, &v->cappend, &x)) {
			mg_slurmprio_fs_done(&fs);
			return MG_ENOMEM;
		}
	}
	mg_slurmprio_fs_done(&fs);
	mg_view_sort_pending(v);
	for (i = 0; i < s->nrun; i++) {
		if (!s->run[i].head)
			continue;
		vjob(s, s->run[i].j, &x);
		if (mg_view_add(&v->run, &v->nrun, &v->caprun, &x))
			return MG_ENOMEM;
	}
	/* without a recent window, no job started or ended in it */
	for (i = 0; recent > 0 && i < s->njob; i++) {
		const struct fjob *j = &s->job[i];

		if (j->start >= 0 && j->start > s->now - recent &&
		    j->start <= s->now) {
			vjob(s, (int32_t)i, &x);
			if (mg_view_add(&v->recent, &v->nrecent,
			    &v->caprecent, &x))
				return MG_ENOMEM;
		}
		if (j->end >= 0 && j->end <= s->now && j->end > s->now -
		    recent) {
			vjob(s, (int32_t)i, &x);
			x.end = j->end;
			if (mg_view_add(&v->ended, &v->nended, &v->capended,
			    &x))
				return MG_ENOMEM;
		}
	}
	return 0;
}
