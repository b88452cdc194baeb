/*
 * slurmpreempt.c: the faithful model's preemption: who may preempt whom,
 * and the victims an urgent job takes (preempt.h's policies); see
 * slurmsim_int.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "cluster/slurmsim_int.h"
#include "cluster/preempt.h"
#include "base/rand.h"
#include "base/status.h"

/*
 * running job r as a victim candidate: its nodes, its release and
 * resume delays from its attributes a (none: 0; a job that ends before
 * it could release loses nothing), its priority, start and attained
 * service
 */
void
mg_slurmpreempt_cand(const struct mg_slurmsim *s, const struct frun *r,
    const struct mg_dlattr *a, struct mg_pcand *c)
{
	const struct fjob *b = &s->job[r->j];

	c->nodes = r->nodes;
	c->rel = a == NULL ? 0 : mg_dlattr_release_time(a, &s->c.dlgen,
	    (double)(s->now - b->start), (double)(r->end - s->now));
	c->res = a == NULL || c->rel >= (double)(r->end - s->now) ? 0 :
	    mg_dlattr_resume_time(a, &s->c.dlgen);
	c->prio = b->prio;
	c->start = b->start;
	c->attained = b->ran + (double)b->nodes * (double)(s->now -
	    b->start);
}

/* room for a victim choice among n running jobs (preempt.h) */
void
mg_slurmpreempt_cands_free(struct mg_pcand *c, double *rel,
    unsigned char *taken, size_t *at, size_t *out)
{
	free(c);
	free(rel);
	free(taken);
	free(at);
	free(out);
}

int
mg_slurmpreempt_cands_new(size_t n, struct mg_pcand **c, double **rel,
    unsigned char **taken, size_t **at, size_t **out)
{
	if (n == 0)
		n = 1;
	*c = malloc(n * sizeof(**c));
	*rel = malloc(n * sizeof(**rel));
	*taken = calloc(n, 1);
	*at = malloc(n * sizeof(**at));
	*out = malloc(n * sizeof(**out));
	if (*c == NULL || *rel == NULL || *taken == NULL || *at == NULL ||
	    *out == NULL) {
		mg_slurmpreempt_cands_free(*c, *rel, *taken, *at, *out);
		return MG_ENOMEM;
	}
	return 0;
}

/* a job's preemption class: its QOS, or the urgent jobs' */
static int
pclass(const struct fjob *j)
{
	return j->urgent ? MG_URGENT_CLASS : j->qos;
}

/* may u preempt b (slurmsim.h) */
static int
can_preempt(const struct mg_slurmsim *s, const struct fjob *u,
    const struct fjob *b)
{
	int cu = pclass(u), cb = pclass(b);

	if (s->c.preempt_type == MG_PTYPE_PARTITION)
		return s->c.part_tier[u->part] > s->c.part_tier[b->part];
	if (!s->c.qos_lists)
		return u->urgent && !b->urgent;
	return cu >= 0 && cb >= 0 && (s->c.qos_preempts[cu] >> cb & 1);
}

/* may u preempt anyone */
int
mg_slurmpreempt_any(const struct mg_slurmsim *s, const struct fjob *u)
{
	int p;

	if (s->c.preempt_type == MG_PTYPE_PARTITION) {
		for (p = 0; p < (s->c.nparts > 0 ? s->c.nparts : 1); p++)
			if (s->c.part_tier[p] < s->c.part_tier[u->part])
				return 1;
		return 0;
	}
	if (!s->c.qos_lists)
		return u->urgent;
	return pclass(u) >= 0 && s->c.qos_preempts[pclass(u)] != 0;
}

/*
 * urgent job jr cannot start: preempt best-effort jobs for the nodes it
 * lacks beyond those already being released for it (preempt.h's policy
 * on their predicted overheads).  Their runs end at their release.
 * Returns 0 (whether or not any was found) or MG_ENOMEM.
 */
int
mg_slurmpreempt_for(struct mg_slurmsim *s, int32_t jr)
{
	struct fjob *u = &s->job[jr];
	int susp = s->c.preempt_mode == MG_PREEMPT_SUSPEND;
	int32_t need = u->nodes - (s->free[0] > 0 ? s->free[0] : 0) -
	    u->promised;
	double *rel;		/* the true release delays */
	struct mg_pcand *c;
	unsigned char *taken;
	size_t *at, *out, m = 0, k, i;

	if (need <= 0 || s->nrun == 0)
		return 0;
	if (mg_slurmpreempt_cands_new(s->nrun, &c, &rel, &taken, &at, &out) != 0)
		return MG_ENOMEM;
	for (i = 0; i < s->nrun; i++) {
		const struct frun *r = &s->run[i];
		const struct fjob *b = &s->job[r->j];

		if (!can_preempt(s, u, b) || b->releasing ||
		    b->susp_head >= 0 || b->trace < 0 ||
		    (size_t)b->trace >= s->t->n || s->now - b->start <
		    s->c.preempt_exempt || r->end <= s->now)
			continue;
		/* suspended, a job stops at once and reloads nothing, and
		 * each of its nodes is stopped for the preemptor's run (its
		 * limit, as far as the scheduler knows) */
		mg_slurmpreempt_cand(s, r, susp ? NULL : &s->c.dl[b->trace],
		    &c[m]);
		if (susp)
			c[m].res = (double)u->limit;
		rel[m] = c[m].rel;
		if (s->c.predict_error > 0) {
			/* the scheduler's predictions, off by a relative
			 * error of sd predict_error (Box-Muller) */
			double e1 = mg_rand_unif(&s->prng) + 1e-300;
			double e2 = mg_rand_unif(&s->prng);
			double z = sqrt(-2 * log(e1)) * cos(2 * M_PI * e2);
			double f = 1 + s->c.predict_error * z;

			c[m].rel *= f > 0 ? f : 0;
			c[m].res *= f > 0 ? f : 0;
		}
		at[m++] = i;
	}
	if (m > 0 && mg_victims((enum mg_victim_policy)s->c.victims, c, m,
	    taken, need, u->nodes, 1.0, &s->prng, out, &k) == 0)
		for (i = 0; i < k; i++) {
			struct frun *r = &s->run[at[out[i]]];
			struct fjob *b = &s->job[r->j];
			/* the true delay, in whole seconds (not a rounding
			 * error up) */
			int64_t d = (int64_t)ceil(rel[out[i]] - 1e-6);

			if (s->now + d >= r->end)
				d = r->end - s->now;	/* it ends first */
			b->releasing = 1;
			b->work_left = r->end - (s->now + d);
			b->res = susp ? 0 : mg_dlattr_resume_time(
			    &s->c.dl[b->trace], &s->c.dlgen);
			b->for_job = jr;
			b->npreempt++;
			r->end = s->now + d;
			s->run_end = -1;
			u->promised += r->nodes;
		}
	mg_slurmpreempt_cands_free(c, rel, taken, at, out);
	return 0;
}
