/*
 * episode.c: episodes, their snapshots and probes; see episode.h.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "episode/episode.h"
#include "base/mem.h"
#include "base/parse.h"

#define RECENT	MG_DAY		/* the own features look back a day */
#define HORIZON	(60 * MG_DAY)	/* how long a probe may wait for S */

struct ring {
	double *v;		/* window * MG_PAPER_SNAP, by snapshot number */
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
	e->workload = 5 * MG_DAY;
	e->warmup = 2 * MG_DAY;
	e->nodes = nodes;
	e->limit = e->p_dur = e->s_dur = 2 * MG_DAY;
	e->period = 600;
	e->window = 144;
	e->chain = 2;
}

/*
 * mg_epconf_check: 0, or MG_EINVAL with d saying what is wrong (warm-up
 * not inside the workload window, P larger than the cluster, ...).
 */
static int
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
	mg_paper_snapshot(&ep->view, ep->scratch, r->v + (size_t)(r->taken %
	    ep->e.window) * MG_PAPER_SNAP);
	r->taken++;
	return 0;
}

int
mg_episode_new(const struct mg_clusterdef *def, const struct mg_epconf *e,
    int64_t s0, struct mg_episode **out, struct mg_diag *d)
{
	struct mg_episode *ep;
	char when[32], id[16];
	int rv, k;

	*out = NULL;
	if (mg_episode_empty(def, e, s0)) {
		mg_format_time(s0, when, sizeof(when));
		return mg_diag_set(d, MG_EFORMAT, "episode at %s: no job of "
		    "the trace is submitted in its workload window (of %.1f "
		    "days before it): choose episodes inside the trace's span "
		    "(mirage-cat -s shows it)", when,
		    (double)e->workload / 86400);
	}
	if ((ep = calloc(1, sizeof(*ep))) == NULL)
		return MG_ENOMEM;
	ep->def = def;
	ep->e = *e;
	ep->s0 = s0;
	ep->next_snap = s0;
	ep->ring.v = calloc((size_t)e->window * MG_PAPER_SNAP, sizeof(double));
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

int
mg_episode_empty(const struct mg_clusterdef *def, const struct mg_epconf *e,
    int64_t s0)
{
	const struct mg_trace *t = def->trace;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->job[i].submit >= s0 && t->job[i].submit <= s0 +
		    e->workload)
			return 0;
	return 1;
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

int
mg_episode_paper_columns(const struct mg_epconf *e)
{
	return e->window * MG_PAPER_SNAP + MG_PAPER_CHAIN;
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
paper_out(const struct mg_episode *ep, const struct ring *r, double *out)
{
	struct mg_chainnow cn;
	int64_t k, w = ep->e.window;

	for (k = 0; k < w; k++) {
		int64_t idx = r->taken - w + k;
		double *o = out + k * MG_PAPER_SNAP;

		if (idx < 0)
			memset(o, 0, MG_PAPER_SNAP * sizeof(*o));
		else
			memcpy(o, r->v + (idx % w) * MG_PAPER_SNAP,
			    MG_PAPER_SNAP * sizeof(*o));
	}
	chain_now(ep, &cn);
	mg_paper_chain(&cn, out + w * MG_PAPER_SNAP);
}

int
mg_episode_features(struct mg_episode *ep, double *paper, double *own)
{
	struct mg_chainnow cn;

	if (paper)
		paper_out(ep, &ep->ring, paper);
	if (own == NULL)
		return 0;
	chain_now(ep, &cn);
	if (mg_cluster_view(ep->c, ep->e.nodes, RECENT, &ep->view) != 0)
		return MG_ENOMEM;
	return mg_own_features(&ep->view, &cn, own);
}

/* a copy of the episode's cluster with S submitted now: *c and S's
 * index, or a negative status (*c, then, is NULL or to be freed) */
static int32_t
with_s(struct mg_episode *ep, struct mg_cluster **c)
{
	char id[16];

	if ((*c = mg_cluster_copy(ep->c)) == NULL)
		return MG_ENOMEM;
	snprintf(id, sizeof(id), "%d", 1000000 + ep->e.chain - 1);
	return mg_cluster_add_job(*c, id, ep->e.nodes, ep->e.limit,
	    ep->e.s_dur, mg_cluster_time(ep->c), ep->p);
}

/*
 * mg_episode_probe_urgent: the same for S submitted now as an urgent job
 * of a cluster that preempts; *caused = the node-seconds of work its
 * victims lost.  Returns 1, 0 or a negative status as above.
 */
static int
mg_episode_probe_urgent(struct mg_episode *ep, int64_t *x, double *caused)
{
	struct mg_cluster *c;
	int64_t now = mg_cluster_time(ep->c);
	int32_t s = with_s(ep, &c);
	int rv, ok;

	*x = 0;
	*caused = 0;
	if (s < 0)
		rv = s;
	else if ((rv = mg_cluster_set_urgent(c, s)) == 0 &&
	    (rv = mg_cluster_run_until_start(c, s, now + HORIZON)) == 1) {
		*x = mg_cluster_gap(c, s, &ok);
		*caused = mg_cluster_victims_lost(c, s);
	}
	mg_cluster_free(c);
	return rv;
}

int
mg_episode_probe(struct mg_episode *ep, int64_t *x, double *paper_at)
{
	struct mg_cluster *c;
	struct ring r = { NULL, ep->ring.taken };
	int64_t now = mg_cluster_time(ep->c), next = ep->next_snap;
	size_t sz = (size_t)ep->e.window * MG_PAPER_SNAP * sizeof(double);
	int32_t s = with_s(ep, &c);
	int rv, ok;

	*x = 0;
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
		if (rv == 1 && paper_at)
			paper_out(ep, &r, paper_at);
	}
	if (rv == 1)
		*x = mg_cluster_gap(c, s, &ok);
out:
	free(r.v);
	mg_cluster_free(c);
	return rv;
}

void
mg_outcome_release(struct mg_outcome *o)
{
	free(o->t);
	free(o->x);
	free(o->tick);
	free(o->feat);
	free(o->plan);
	memset(o, 0, sizeof(*o));
}

static int
time_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The planner's estimate at tick t, from the view and what P's owner
 * knows: P's start once it has started, and its run time.
 */
static int
plan_tick(struct mg_episode *ep, const struct mg_plan *plan,
    const struct mg_outcome *o, int64_t t, struct mg_plancost *pc)
{
	struct mg_planchain ch;

	if (mg_cluster_view(ep->c, ep->e.nodes, 0, &ep->view) != 0)
		return MG_ENOMEM;
	memset(&ch, 0, sizeof(ch));
	ch.p_start = o->p_start <= t ? o->p_start : -1;
	ch.p_end = ch.p_start >= 0 ? o->p_end : -1;
	ch.p_dur = ep->e.p_dur;
	ch.p_limit = ep->e.limit;
	ch.nodes = ch.p_nodes = ep->e.nodes;
	ch.s_limit = ep->e.limit;
	ch.s_dur = ep->e.s_dur;
	ch.world_end = ep->s0 + ep->e.workload;
	return mg_plan_costs(plan, &ep->view, &ch, t, (uint64_t)ep->s0 ^
	    (uint64_t)ep->e.nodes << 40, pc);
}

int
mg_episode_outcomes(const struct mg_clusterdef *def,
    const struct mg_epconf *e, int64_t s0, int feat,
    const struct mg_plan *plan, size_t probe, struct mg_outcome *o,
    struct mg_diag *d)
{
	struct mg_episode *ep = NULL;
	struct mg_cluster *c;
	int64_t first, last, t, t_avg, *tt = NULL;
	size_t n = 0, k, nt, f = 0, npaper;
	double *buf = NULL;
	char when[32];
	unsigned char done[MG_PLAN_MAXSTOP] = { 0 };
	int rv, decided = 0;

	memset(o, 0, sizeof(*o));
	o->s0 = s0;
	mg_format_time(s0, when, sizeof(when));
	if ((rv = mg_episode_new(def, e, s0, &ep, d)) != 0)
		return rv;
	if ((rv = mg_episode_presim(ep, &o->p_submit, &o->p_start,
	    &o->p_end)) != 1) {
		mg_episode_free(ep);
		return rv < 0 ? rv : mg_diag_set(d, MG_EINVAL, "episode at %s: "
		    "P never starts", when);
	}
	/* the average wait as seen when P starts */
	if ((c = mg_cluster_copy(ep->c)) == NULL ||
	    mg_cluster_run_until_start(c, ep->p, o->p_submit + HORIZON) != 1 ||
	    mg_cluster_avg_wait(c, &o->avg_wait) != 0) {
		mg_cluster_free(c);
		mg_episode_free(ep);
		return MG_ENOMEM;
	}
	mg_cluster_free(c);
	first = s0 + (o->p_submit - s0) / e->period * e->period + e->period;
	last = s0 + (o->p_end - s0 + e->period - 1) / e->period * e->period;
	t_avg = o->p_end - o->avg_wait;
	if (t_avg < o->p_submit + 60)
		t_avg = o->p_submit + 60;
	nt = (size_t)((last - first) / e->period) + 1;
	npaper = (size_t)mg_episode_paper_columns(e);
	o->nfeat = feat ? MG_OWN + npaper : 0;
	tt = malloc((nt + 2) * sizeof(*tt));
	o->x = malloc((nt + 2) * sizeof(*o->x));
	o->tick = calloc(nt + 2, 1);
	if (feat) {
		o->feat = malloc(nt * o->nfeat * sizeof(*o->feat));
		buf = malloc(o->nfeat * sizeof(*buf));
	}
	if (plan != NULL)
		o->plan = calloc(nt, sizeof(*o->plan));
	if (tt == NULL || o->x == NULL || o->tick == NULL || (feat &&
	    (o->feat == NULL || buf == NULL)) || (plan && o->plan == NULL)) {
		rv = MG_ENOMEM;
		goto fail;
	}
	for (t = first; t <= last; t += e->period)
		tt[n++] = t;
	tt[n++] = o->p_end;
	tt[n++] = t_avg;
	qsort(tt, n, sizeof(*tt), time_cmp);
	for (k = nt = 0; k < n; k++)
		if (nt == 0 || tt[nt - 1] != tt[k])
			tt[nt++] = tt[k];
	o->t = tt;
	o->n = nt;
	for (k = 0; k < o->n; k++) {
		t = o->t[k];
		o->tick[k] = (t - s0) % e->period == 0 && t >= first;
		if (t == o->p_end)
			o->k_reactive = k;
		if (t == t_avg)
			o->k_avg = k;
		if ((rv = mg_episode_advance(ep, t)) != 0)
			goto fail;
		if (feat && o->tick[k]) {
			size_t i;

			if ((rv = mg_episode_features(ep, buf + MG_OWN,
			    buf)) != 0)
				goto fail;
			for (i = 0; i < o->nfeat; i++)
				o->feat[f * o->nfeat + i] = (float)buf[i];
		}
		if (plan != NULL && o->tick[k] && !decided) {
			if ((f == 0 || !mg_plan_reuse(plan, &o->plan[f - 1], t,
			    &o->plan[f])) &&
			    (rv = plan_tick(ep, plan, o, t, &o->plan[f])) != 0)
				goto fail;
			/* no later decision of it is read */
			decided = mg_plan_decided(plan, &o->plan[f], done);
		}
		f += o->tick[k];
		o->x[k] = MG_X_UNKNOWN;
		if (probe != MG_PROBE_ALL && probe != k)
			continue;
		if ((rv = mg_episode_probe(ep, &o->x[k], NULL)) != 1) {
			if (rv == 0)
				rv = mg_diag_set(d, MG_EINVAL, "episode at %s: "
				    "S never starts", when);
			goto fail;
		}
		/* reacting at P's end, but preempting for S */
		if (k == o->k_reactive && t == o->p_end &&
		    mg_clusterdef_preempts(def)) {
			if ((rv = mg_episode_probe_urgent(ep, &o->x_urgent,
			    &o->caused_urgent)) != 1) {
				if (rv == 0)
					rv = mg_diag_set(d, MG_EINVAL,
					    "episode at %s: S never starts",
					    when);
				goto fail;
			}
			o->has_urgent = 1;
		}
		if (probe == k)
			break;
	}
	free(buf);
	mg_episode_free(ep);
	return 0;
fail:
	free(buf);
	mg_episode_free(ep);
	if (o->t == NULL)
		free(tt);
	mg_outcome_release(o);
	return rv < 0 ? rv : MG_EINVAL;
}

int
mg_episode_outcome_at(const struct mg_clusterdef *def,
    const struct mg_epconf *e, int64_t s0, size_t k, int64_t *x,
    struct mg_diag *d)
{
	struct mg_outcome o;
	int rv;

	if ((rv = mg_episode_outcomes(def, e, s0, 0, NULL, k, &o, d)) != 0)
		return rv;
	if (k >= o.n || o.x[k] == MG_X_UNKNOWN)
		rv = mg_diag_set(d, MG_EINVAL, "no time %zu in the episode", k);
	else
		*x = o.x[k];
	mg_outcome_release(&o);
	return rv;
}

void
mg_names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

int
mg_episode_feature_names(const struct mg_epconf *e, char ***names, size_t *n)
{
	size_t total = MG_OWN + (size_t)mg_episode_paper_columns(e), k = 0;
	char **v = calloc(total, sizeof(*v)), buf[64];
	int i, s;

	*names = NULL;
	*n = 0;
	if (v == NULL)
		return MG_ENOMEM;
	for (i = 0; i < MG_OWN; i++) {
		snprintf(buf, sizeof(buf), "f_%s", mg_own_names[i]);
		v[k++] = strdup(buf);
	}
	for (s = 0; s < e->window; s++)
		for (i = 0; i < MG_PAPER_SNAP; i++) {
			snprintf(buf, sizeof(buf), "r%d_%s", e->window - 1 - s,
			    mg_paper_snap_names[i]);
			v[k++] = strdup(buf);
		}
	for (i = 0; i < MG_PAPER_CHAIN; i++) {
		snprintf(buf, sizeof(buf), "r_%s", mg_paper_chain_names[i]);
		v[k++] = strdup(buf);
	}
	for (k = 0; k < total; k++)
		if (v[k] == NULL) {
			mg_names_free(v, total);
			return MG_ENOMEM;
		}
	*names = v;
	*n = total;
	return 0;
}

void
mg_epsel_init(struct mg_epsel *s)
{
	memset(s, 0, sizeof(*s));
	mg_epconf_paper(&s->e, 1);
	s->every = 4 * 3600;
	s->count = -1;
	s->sizes[0] = 1;
	s->nsizes = 1;
	s->p_dur = -1;
	s->shards = 1;
	s->istep = 1;
}

size_t
mg_epsel_index(const struct mg_epsel *s, size_t i)
{
	return s->ibase + i * s->istep;
}

struct mg_epsel
mg_epsel_span(const struct mg_epsel *s, int64_t from, long count)
{
	struct mg_epsel ts = *s;

	ts.from = from;
	ts.count = count;
	ts.n = (size_t)count;
	ts.have_from = 1;
	ts.have_until = 0;
	ts.shards = 0;
	ts.ibase = 0;
	ts.istep = 1;
	ts.skip_empty = 0;
	return ts;
}

static int
span(const char *what, const char *arg, int64_t min, int64_t *out,
    struct mg_diag *d)
{
	if (mg_parse_span(arg, out) != 0 || *out < min)
		return mg_diag_set(d, MG_EINVAL, "invalid %s '%s' (want e.g. "
		    "90s, 10m, 4h, 5d or D-HH:MM:SS%s)", what, arg, min > 0 ?
		    ", more than 0" : "");
	return 1;
}

static int
integer(const char *what, const char *arg, int64_t min, int64_t max,
    int64_t *out, struct mg_diag *d)
{
	if (mg_parse_i64(arg, strlen(arg), min, max, out) != 0)
		return mg_diag_set(d, MG_EINVAL, "invalid %s '%s' (want %lld "
		    "to %lld)", what, arg, (long long)min, (long long)max);
	return 1;
}

static int
sizes(struct mg_epsel *s, const char *arg, int gpus, struct mg_diag *d)
{
	const char *p = arg, *q;
	int64_t v;

	s->nsizes = 0;
	for (;;) {
		q = strchr(p, ',');
		if (s->nsizes == MG_EPSEL_MAXSIZES || mg_parse_i64(p, q ?
		    (size_t)(q - p) : strlen(p), 1, INT32_MAX, &v) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid chain sizes "
			    "'%s' (want up to %d numbers, comma-separated)",
			    arg, MG_EPSEL_MAXSIZES);
		s->sizes[s->nsizes++] = (int32_t)v;
		if (q == NULL)
			break;
		p = q + 1;
	}
	s->gpus = gpus;
	return 1;
}

int
mg_epsel_set(struct mg_epsel *s, const char *name, const char *arg,
    struct mg_diag *d)
{
	int64_t v;
	int rv;

	if (strcmp(name, "from") == 0) {
		if (mg_parse_date(arg, MG_TZ_UTC, &s->from) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid date '%s' "
			    "(want YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)", arg);
		s->have_from = 1;
		return 0;
	}
	if (strcmp(name, "until") == 0) {
		if (mg_parse_date(arg, MG_TZ_UTC, &s->until) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid date '%s' "
			    "(want YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)", arg);
		s->have_until = 1;
		return 0;
	}
	if (strcmp(name, "count") == 0) {
		rv = integer("count", arg, 1, 1000000, &v, d);
		s->count = (long)v;
	} else if (strcmp(name, "every") == 0)
		rv = span("interval", arg, 1, &s->every, d);
	else if (strcmp(name, "sizes") == 0 || strcmp(name, "gpus") == 0)
		rv = sizes(s, arg, strcmp(name, "gpus") == 0, d);
	else if (strcmp(name, "window") == 0) {
		rv = integer("window", arg, 1, 200, &v, d);
		s->e.window = (int)v;
	} else if (strcmp(name, "chain") == 0) {
		rv = integer("chain length", arg, 2, 100, &v, d);
		s->e.chain = (int)v;
	} else if (strcmp(name, "workload") == 0)
		rv = span("workload", arg, 1, &s->e.workload, d);
	else if (strcmp(name, "warmup") == 0)
		rv = span("warm-up", arg, 0, &s->e.warmup, d);
	else if (strcmp(name, "limit") == 0)
		rv = span("limit", arg, 1, &s->e.limit, d);
	else if (strcmp(name, "p-runtime") == 0)
		rv = span("run time", arg, 0, &s->p_dur, d);
	else if (strcmp(name, "shard") == 0) {
		const char *slash = strchr(arg, '/');
		int64_t i, n;

		if (slash == NULL || mg_parse_i64(arg, (size_t)(slash - arg),
		    0, 100000, &i) != 0 || mg_parse_i64(slash + 1,
		    strlen(slash + 1), 1, 100000, &n) != 0 || i >= n)
			return mg_diag_set(d, MG_EINVAL, "invalid shard '%s' "
			    "(want i/n with 0 <= i < n, as "
			    "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)",
			    arg);
		s->shard = (int)i;
		s->shards = (int)n;
		return 0;
	} else
		return mg_diag_set(d, MG_EINVAL, "no episode setting '%s'",
		    name);
	return rv < 0 ? rv : 0;
}

int
mg_epsel_resolve(struct mg_epsel *s, const struct mg_clusterdef *def,
    struct mg_diag *d)
{
	const struct mg_trace *t = def->trace;
	int gpn = mg_simconf_gpus_per_node(def->conf);
	int64_t first, last;
	int k, rv;

	if (s->have_until && s->count > 0)
		return mg_diag_set(d, MG_EINVAL, "give either a count or an "
		    "end date, not both");
	if (s->gpus && gpn == 0)
		return mg_diag_set(d, MG_EINVAL, "sizes in GPUs need the GPUs "
		    "of a node: GpusPerNode=G in the model's configuration");
	for (k = 0; k < s->nsizes && s->gpus; k++)
		s->sizes[k] = (s->sizes[k] + gpn - 1) / gpn;
	s->gpus = 0;
	s->e.p_dur = s->e.s_dur = s->e.limit;
	if (s->p_dur >= 0)
		s->e.p_dur = s->p_dur;
	for (k = 0; k < s->nsizes; k++) {
		s->e.nodes = s->sizes[k];
		if ((rv = mg_epconf_check(&s->e, def, d)) != 0)
			return rv;
	}
	if (t->n == 0)
		return mg_diag_set(d, MG_EINVAL, "no job in the trace");
	mg_trace_span(t, &first, &last);
	if (!s->have_from)
		s->from = first - first % 86400;
	if (s->have_until && s->until > last) {
		char a[32], b[32];

		mg_format_time(s->until, a, sizeof(a));
		mg_format_time(last, b, sizeof(b));
		return mg_diag_set(d, MG_EINVAL, "-u %s is past the trace's last "
		    "submission (%s): episodes there would see a cluster "
		    "draining of work; give -u %.10s or earlier", a, b, b);
	}
	s->skip_empty = !s->have_from && !s->have_until && s->count < 0;
	if (s->count > 0)
		s->n = (size_t)s->count;
	else if (s->have_until)
		s->n = s->until < s->from ? 0 : (size_t)((s->until - s->from) /
		    s->every) + 1;
	else
		s->n = last - s->e.workload < s->from ? 0 :
		    (size_t)((last - s->e.workload - s->from) / s->every) + 1;
	if (s->n == 0) {
		char a[32], b[32];

		mg_format_time(first, a, sizeof(a));
		mg_format_time(last, b, sizeof(b));
		return mg_diag_set(d, MG_EFORMAT, "no episode: the trace's "
		    "submissions span %.1f days (%s to %s); the first episode "
		    "needs %.1f days of it (its start at %.1f days, then a "
		    "workload window of %.1f days): give a longer dump, or "
		    "an earlier -f", (double)(last - first) / 86400, a, b,
		    (double)(s->from - first + s->e.workload) / 86400,
		    (double)(s->from - first) / 86400,
		    (double)s->e.workload / 86400);
	}
	if (s->shards > 1) {
		/* shard i of n: episodes i, i + n, i + 2n, ... */
		if ((size_t)s->shard >= s->n)
			return mg_diag_set(d, MG_EINVAL, "shard %d/%d has no "
			    "episode (there are %zu)", s->shard, s->shards,
			    s->n);
		s->from += (int64_t)s->shard * s->every;
		s->every *= s->shards;
		s->ibase = (size_t)s->shard;
		s->istep = (size_t)s->shards;
		s->n = (s->n - (size_t)s->shard + (size_t)s->shards - 1) /
		    (size_t)s->shards;
		s->shards = 1;
	}
	return 0;
}

int64_t
mg_epsel_start(const struct mg_epsel *s, size_t i)
{
	return s->from + (int64_t)i * s->every;
}

struct runwork {
	const struct mg_clusterdef *def;
	const struct mg_epsel *sel;
	int window;
	const struct mg_plan *plan;
	int probe;
	size_t first, n, next;
	struct mg_outcome *o;
	int *status;
	struct mg_diag *diag;
	pthread_mutex_t mu;
};

static void *
run_worker(void *arg)
{
	struct runwork *w = arg;
	size_t k, i;

	for (;;) {
		struct mg_epconf e;
		int64_t s0;

		pthread_mutex_lock(&w->mu);
		k = w->next++;
		pthread_mutex_unlock(&w->mu);
		if (k >= w->n)
			return NULL;
		i = w->first + k;
		e = w->sel->e;
		e.nodes = w->sel->sizes[i / w->sel->n];
		e.window = w->window;
		s0 = mg_epsel_start(w->sel, i % w->sel->n);
		if (w->sel->skip_empty && mg_episode_empty(w->def, &e, s0))
			continue;
		w->status[k] = mg_episode_outcomes(w->def, &e, s0, 1, w->plan,
		    w->probe ? MG_PROBE_ALL : MG_PROBE_NONE, &w->o[k],
		    &w->diag[k]);
	}
}

int
mg_outcomes_run(const struct mg_clusterdef *def, const struct mg_epsel *s,
    int window, size_t first, size_t count, int threads,
    const struct mg_plan *plan, int probe, struct mg_outcome *o,
    struct mg_diag *d)
{
	struct runwork w;
	pthread_t tid[64];
	size_t k;
	int t, rv = 0;

	memset(o, 0, count * sizeof(*o));
	memset(&w, 0, sizeof(w));
	w.def = def;
	w.sel = s;
	w.window = window;
	w.plan = plan;
	w.probe = probe;
	w.first = first;
	w.n = count;
	w.o = o;
	w.status = calloc(count ? count : 1, sizeof(*w.status));
	w.diag = calloc(count ? count : 1, sizeof(*w.diag));
	if (w.status == NULL || w.diag == NULL) {
		free(w.status);
		free(w.diag);
		return MG_ENOMEM;
	}
	threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
	pthread_mutex_init(&w.mu, NULL);
	for (t = 0; t < threads; t++)
		if (pthread_create(&tid[t], NULL, run_worker, &w) != 0)
			break;
	if (t == 0)
		run_worker(&w);
	while (t-- > 0)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&w.mu);
	for (k = 0; k < count && rv == 0; k++)
		if (w.status[k] != 0) {
			rv = w.status[k];
			if (d)
				*d = w.diag[k];
			if (d && d->msg[0] == '\0')
				mg_diag_set(d, rv, "%s", mg_strerror(rv));
		}
	free(w.status);
	free(w.diag);
	return rv;
}
