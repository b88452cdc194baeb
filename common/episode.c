/*
 * episode.c: episodes, their snapshots and probes; see episode.h.
 */
#include <stdlib.h>
#include <string.h>

#include "episode.h"
#include "mem.h"
#include "parse.h"

#define DAY	86400
#define RECENT	DAY		/* the own features look back a day */
#define HORIZON	(60 * DAY)	/* how long a probe may wait for S */

struct ring {
	double *v;		/* window * MG_REF_SNAP, by snapshot number */
	int64_t taken;		/* snapshots taken so far */
};

struct mg_episode {
	const struct mg_clusterdef *def;
	struct mg_epconf e;
	int64_t s0;
	struct mg_cluster *c;
	int32_t p;
	int64_t p_submit;
	int64_t next_snap;	/* when the next snapshot is due */
	struct ring ring;
	struct mg_view view;
	double *scratch;
	size_t capscratch;
};

void
mg_epconf_paper(struct mg_epconf *e, int32_t nodes)
{
	memset(e, 0, sizeof(*e));
	e->workload = 5 * DAY;
	e->warmup = 2 * DAY;
	e->nodes = nodes;
	e->limit = e->p_dur = e->s_dur = 2 * DAY;
	e->period = 600;
	e->window = 144;
	e->chain = 2;
}

int
mg_epconf_check(const struct mg_epconf *e, const struct mg_clusterdef *def,
    struct mg_diag *d)
{
	if (e->workload <= 0)
		return mg_diag_set(d, MG_EINVAL, "the workload window must be "
		    "positive");
	if (e->warmup < 0 || e->warmup >= e->workload)
		return mg_diag_set(d, MG_EINVAL, "the warm-up (%lld s) must "
		    "be shorter than the workload window (%lld s)",
		    (long long)e->warmup, (long long)e->workload);
	if (e->nodes <= 0 || e->nodes > def->nodes)
		return mg_diag_set(d, MG_EINVAL, "P and S need %d nodes, the "
		    "cluster has %d", e->nodes, def->nodes);
	if (e->limit <= 0 || e->p_dur < 0 || e->p_dur > e->limit ||
	    e->s_dur < 0 || e->s_dur > e->limit)
		return mg_diag_set(d, MG_EINVAL, "run times must be between 0 "
		    "and the time limit (%lld s)", (long long)e->limit);
	if (e->period <= 0 || e->period % 60 != 0)
		return mg_diag_set(d, MG_EINVAL, "the snapshot period must be "
		    "a positive number of minutes");
	if (e->chain < 2 || e->chain > 100)
		return mg_diag_set(d, MG_EINVAL, "a chain has 2 to 100 jobs");
	if (e->window < 1 || e->window > 200)
		return mg_diag_set(d, MG_EINVAL, "the window must hold 1 to 200 "
		    "snapshots");
	return 0;
}

static int
snapshot(struct mg_episode *ep, const struct mg_cluster *c, struct ring *r)
{
	size_t need;

	if (mg_cluster_view(c, ep->e.nodes, 0, &ep->view) != 0)
		return MG_ENOMEM;
	need = ep->view.npend > ep->view.nrun ? ep->view.npend :
	    ep->view.nrun;
	if (mg_grow((void **)&ep->scratch, &ep->capscratch, need + 1,
	    sizeof(*ep->scratch)))
		return MG_ENOMEM;
	mg_ref_snapshot(&ep->view, ep->scratch, r->v + (size_t)(r->taken %
	    ep->e.window) * MG_REF_SNAP);
	r->taken++;
	return 0;
}

int
mg_episode_new(const struct mg_clusterdef *def, const struct mg_epconf *e,
    int64_t s0, struct mg_episode **out, struct mg_diag *d)
{
	const struct mg_trace *t = def->trace;
	struct mg_episode *ep;
	size_t i, n = 0;
	char when[32], id[16];
	int rv, k;

	*out = NULL;
	for (i = 0; i < t->n && n == 0; i++)
		n += t->job[i].submit >= s0 && t->job[i].submit <= s0 +
		    e->workload;
	if (n == 0) {
		mg_format_time(s0, when, sizeof(when));
		return mg_diag_set(d, MG_EINVAL, "episode at %s: no job of the "
		    "trace is submitted in its workload window", when);
	}
	if ((ep = calloc(1, sizeof(*ep))) == NULL)
		return MG_ENOMEM;
	ep->def = def;
	ep->e = *e;
	ep->s0 = s0;
	ep->next_snap = s0;
	ep->ring.v = calloc((size_t)e->window * MG_REF_SNAP, sizeof(double));
	if (ep->ring.v == NULL) {
		free(ep);
		return MG_ENOMEM;
	}
	if ((rv = mg_cluster_new(def, s0, s0 + e->workload, &ep->c)) != 0) {
		mg_episode_free(ep);
		return rv;
	}
	ep->p_submit = s0 + e->warmup;
	ep->p_submit -= ep->p_submit % 60;
	/* the original's P is "1000000", ordered as a string among ids */
	ep->p = mg_cluster_add_job(ep->c, "1000000", e->nodes, e->limit,
	    e->p_dur, ep->p_submit, -1);
	for (k = 2; ep->p >= 0 && k < e->chain; k++) {
		/* the next link is submitted when this one ends */
		struct mg_cluster *c = mg_cluster_copy(ep->c);
		int64_t end;

		if (c == NULL) {
			mg_episode_free(ep);
			return MG_ENOMEM;
		}
		rv = mg_cluster_run_until_start(c, ep->p, ep->p_submit +
		    HORIZON);
		end = mg_cluster_job_start(c, ep->p) + e->p_dur;
		mg_cluster_free(c);
		if (rv != 1) {
			mg_episode_free(ep);
			mg_format_time(s0, when, sizeof(when));
			return rv < 0 ? rv : mg_diag_set(d, MG_EINVAL, "episode "
			    "at %s: job %d of the chain never starts", when,
			    k - 1);
		}
		snprintf(id, sizeof(id), "%d", 1000000 + k - 1);
		ep->p = mg_cluster_add_job(ep->c, id, e->nodes, e->limit,
		    e->p_dur, end, ep->p);
		if (ep->p >= 0)
			ep->p_submit = mg_cluster_job_submit(ep->c, ep->p);
	}
	if (ep->p < 0) {
		rv = ep->p;
		mg_episode_free(ep);
		return rv;
	}
	*out = ep;
	return 0;
}

void
mg_episode_free(struct mg_episode *ep)
{
	if (ep == NULL)
		return;
	mg_cluster_free(ep->c);
	mg_view_release(&ep->view);
	free(ep->ring.v);
	free(ep->scratch);
	free(ep);
}

int
mg_episode_presim(struct mg_episode *ep, int64_t *p_submit, int64_t *p_start,
    int64_t *p_end)
{
	struct mg_cluster *c = mg_cluster_copy(ep->c);
	int rv;

	if (c == NULL)
		return MG_ENOMEM;
	rv = mg_cluster_run_until_start(c, ep->p, ep->p_submit + HORIZON);
	*p_submit = ep->p_submit;
	*p_start = mg_cluster_job_start(c, ep->p);
	*p_end = *p_start < 0 ? -1 : *p_start + ep->e.p_dur;
	mg_cluster_free(c);
	return rv;
}

int
mg_episode_advance(struct mg_episode *ep, int64_t t)
{
	int rv;

	while (ep->next_snap <= t) {
		if ((rv = mg_cluster_run(ep->c, ep->next_snap)) != 0 ||
		    (rv = snapshot(ep, ep->c, &ep->ring)) != 0)
			return rv;
		ep->next_snap += ep->e.period;
	}
	return mg_cluster_run(ep->c, t);
}

int64_t
mg_episode_time(const struct mg_episode *ep)
{
	return mg_cluster_time(ep->c);
}

int
mg_episode_ref_columns(const struct mg_epconf *e)
{
	return e->window * MG_REF_SNAP + MG_REF_CHAIN;
}

static void
chain_now(const struct mg_episode *ep, struct mg_chainnow *c)
{
	c->t = mg_cluster_time(ep->c);
	c->p_submit = ep->p_submit;
	c->p_start = mg_cluster_job_start(ep->c, ep->p);
	c->p_elapsed = 0;
	if (c->p_start >= 0) {
		c->p_elapsed = c->t - c->p_start;
		if (c->p_elapsed > ep->e.p_dur)
			c->p_elapsed = ep->e.p_dur;
	}
	c->p_limit = ep->e.limit;
	c->p_nodes = ep->e.nodes;
	c->s_limit = ep->e.limit;
	c->s_nodes = ep->e.nodes;
}

/* the window of r, oldest first, then the tuples of now */
static void
ref_out(const struct mg_episode *ep, const struct ring *r, double *out)
{
	struct mg_chainnow cn;
	int64_t k, w = ep->e.window;

	for (k = 0; k < w; k++) {
		int64_t idx = r->taken - w + k;
		double *o = out + k * MG_REF_SNAP;

		if (idx < 0)
			memset(o, 0, MG_REF_SNAP * sizeof(*o));
		else
			memcpy(o, r->v + (idx % w) * MG_REF_SNAP,
			    MG_REF_SNAP * sizeof(*o));
	}
	chain_now(ep, &cn);
	mg_ref_chain(&cn, out + w * MG_REF_SNAP);
}

int
mg_episode_features(struct mg_episode *ep, double *ref, double *own)
{
	struct mg_chainnow cn;

	if (ref)
		ref_out(ep, &ep->ring, ref);
	if (own == NULL)
		return 0;
	chain_now(ep, &cn);
	if (mg_cluster_view(ep->c, ep->e.nodes, RECENT, &ep->view) != 0)
		return MG_ENOMEM;
	return mg_own_features(&ep->view, &cn, own);
}

int
mg_episode_probe(struct mg_episode *ep, int64_t *x, double *ref_at)
{
	struct mg_cluster *c = mg_cluster_copy(ep->c);
	struct ring r = { NULL, ep->ring.taken };
	int64_t now = mg_cluster_time(ep->c), next = ep->next_snap;
	size_t sz = (size_t)ep->e.window * MG_REF_SNAP * sizeof(double);
	char id[16];
	int32_t s;
	int rv, ok;

	*x = 0;
	if (c == NULL)
		return MG_ENOMEM;
	snprintf(id, sizeof(id), "%d", 1000000 + ep->e.chain - 1);
	s = mg_cluster_add_job(c, id, ep->e.nodes, ep->e.limit,
	    ep->e.s_dur, now, ep->p);
	if (s < 0) {
		rv = s;
		goto out;
	}
	if (!ep->e.at_start) {
		rv = mg_cluster_run_until_start(c, s, now + HORIZON);
	} else {
		/* the original keeps taking snapshots until S starts */
		if ((r.v = malloc(sz)) == NULL) {
			rv = MG_ENOMEM;
			goto out;
		}
		memcpy(r.v, ep->ring.v, sz);
		for (;;) {
			rv = mg_cluster_run_until_start(c, s, next);
			if (rv != 0 || next > now + HORIZON)
				break;
			if ((rv = snapshot(ep, c, &r)) != 0)
				break;
			next += ep->e.period;
		}
		if (rv == 1 && ref_at)
			ref_out(ep, &r, ref_at);
	}
	if (rv == 1)
		*x = mg_cluster_gap(c, s, &ok);
out:
	free(r.v);
	mg_cluster_free(c);
	return rv;
}
