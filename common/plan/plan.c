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
#include "plan/plan_int.h"

/* candidate submission times after now, as offsets (seconds) */
static const int64_t cand_off[] = { 600, 1200, 1800, 2400, 3600, 5400,
	7200, 10800, 14400, 21600, 28800, 43200, 64800 };
#define NOFF	(sizeof(cand_off) / sizeof(cand_off[0]))

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
	    pc->window + pc->margin > 5 * MG_DAY || pc->handover < 0 ||
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
	int k, last, rv;

	memset(&tr, 0, sizeof(tr));
	tr.job = f->job;
	tr.n = f->n;
	tr.nusers = p->t->nusers;
	/* at the risk of an interruption with P running, no run goes past
	 * P's end (below): the jobs that arrive later are left out */
	if (ch->p_start >= 0 && p->c.cost != MG_PLAN_HOURS)
		while (tr.n > 0 && tr.job[tr.n - 1].submit > ch->p_end + 120)
			tr.n--;
	/* the view's priorities as the model's integers; in the faithful
	 * model the pending jobs keep their order now, new jobs behind */
	memset(&fd, 0, sizeof(fd));
	fd.mode = p->c.model == MG_PLAN_REFERENCE ? MG_MODE_REFERENCE :
	    MG_MODE_FAITHFUL;
	fd.nodes = model_nodes(v, ch, f);
	fd.prio_scale = PRIO_SCALE;
	fd.bf_next = v->bf_next;
	fd.chain_prio = (double)mg_future_prio(v->s_prio);
	fd.bf_interval = BF_INTERVAL;
	fd.max_jobs_pu = p->c.max_jobs_pu;
	fd.max_nodes_pu = p->c.max_nodes_pu;
	/* from now's capacity (the first point) */
	fd.cap_time = f->ctime;
	fd.cap_nodes = f->cnodes;
	fd.cap_n = f->cn;
	if ((rv = mg_cluster_new_future(&fd, &tr, t, t + horizon, &s)) != 0)
		return rv;
	if (ch->p_start < 0 && (pref = mg_cluster_add_job(s, "P",
	    ch->p_nodes, ch->p_limit, ch->p_dur, t, -1)) < 0) {
		mg_cluster_free(s);
		return pref;
	}
	for (last = n - 1; last >= 0 && pref < 0 && p->c.cost !=
	    MG_PLAN_HOURS && at[last] > ch->p_end; last--)
		;
	for (k = 0; k < n; k++) {
		int64_t p_end = ch->p_end, limit;

		/* S submitted after P's end starts after it: at the risk
		 * of an interruption, one, without a run */
		if (pref < 0 && p->c.cost != MG_PLAN_HOURS &&
		    at[k] > ch->p_end) {
			x[k] = outcome(p, at[k], ch->p_end);
			continue;
		}
		if ((rv = mg_cluster_run(s, at[k])) != 0)
			break;
		/* the last run takes the model itself */
		if (k == last) {
			c = s;
			s = NULL;
		} else if ((c = mg_cluster_copy(s)) == NULL) {
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
		rv = mg_future_claims(v, &f);
	for (k = 0; k < p->c.k && rv == 0; k++) {
		if ((rv = mg_future_draw(p, v, ch, t, horizon, &rs, &f)) != 0 ||
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
	out->planned = t;
	for (c = 0; c < out->n; c++) {
		out->intr[c] /= p->c.k;
		out->ovl[c] /= p->c.k;
		out->pint[c] = mg_plan_calibrated(&p->c, c > 0, out->pint[c] /
		    p->c.k);
		for (k = 0; k < 2; k++) {
			int nk = (p->c.k + 1 - k) / 2;

			out->hovl[k][c] /= nk > 0 ? nk : 1;
			out->hpint[k][c] = mg_plan_calibrated(&p->c, c > 0,
			    out->hpint[k][c] / (nk > 0 ? nk : 1));
		}
	}
	return 0;
}

int
mg_plan_own(const struct mg_plancost *c)
{
	return c->n > 0 && c->k > 0 && c->planned == c->at[0];
}

int
mg_plan_reuse(const struct mg_plan *p, const struct mg_plancost *prev,
    int64_t t, struct mg_plancost *out)
{
	int j, c, k, h, n;

	if (p->c.every <= 0 || prev->n < 2 || prev->k < 1 ||
	    t - prev->planned >= p->c.every ||
	    prev->at[prev->n - 1] - t <= p->c.fresh)
		return 0;
	for (j = 1; j < prev->n - 1 && prev->at[j] < t; j++)
		;
	if (j >= prev->n - 1 || prev->at[j] != t)
		return 0;
	n = prev->n - j;
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->k = prev->k;
	out->planned = prev->planned;
	for (c = 0; c < n; c++) {
		out->at[c] = prev->at[j + c];
		out->intr[c] = prev->intr[j + c];
		out->ovl[c] = prev->ovl[j + c];
		out->pint[c] = prev->pint[j + c];
		for (h = 0; h < 2; h++) {
			out->hpint[h][c] = prev->hpint[h][j + c];
			out->hovl[h][c] = prev->hovl[h][j + c];
		}
		for (k = 0; k < prev->k; k++)
			out->xk[k][c] = prev->xk[k][j + c];
	}
	return 1;
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

int
mg_plan_submit(const struct mg_plancost *c, enum mg_plancost_kind kind,
    double lambda, int64_t handover)
{
	return handover > 0 ? mg_plan_submit_handover(c, kind, lambda,
	    handover) : mg_plan_submit_now(c, kind, lambda);
}
