/*
 * relmas.c: the learned dispatcher's training; see relmas.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accel/relmas.h"
#include "base/mem.h"
#include "base/rand.h"
#include "learn/model.h"
#include <stdio.h>

void
mg_relmas_opts_init(struct mg_relmas_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->episodes = 400;
	o->requests = 600;
	o->load_lo = 0.3;
	o->load_hi = 0.8;
	o->hidden = 32;
	o->lr = 1e-3;
	o->gamma = 0.998;
	o->beta = 0.5;
	o->mix = 0.1;
	o->context = 8;
	o->feasible = 1;	/* these chosen on arrival seeds 201-205 (mirage-accel(1)) */
	o->prior = 10;
	o->strict = MG_ACCEL_STRICT;
	o->fit = MG_ACCEL_STRICT;
	o->seed = 1;
}

/* the features a network reads: standardised, and clipped to +-8 */
static void
standardise(const double *f, size_t n, const double *mean,
    const double *scale, double *x)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < MG_AFEAT; k++) {
			double v = (f[i * MG_AFEAT + k] - mean[k]) / scale[k];

			x[i * MG_AFEAT + k] = v > 8 ? 8 : v < -8 ? -8 : v;
		}
}

/*
 * out[0..n) += prior x the rule's scores of the raw features f: with
 * fit MG_AP_FIT's, else MG_AP_PLACE's
 */
static void
add_prior(const double *f, size_t n, double prior, double fit, double *out)
{
	size_t i;
	double p;

	for (i = 0; prior != 0 && i < n; i++) {
		if (fit > 0)
			mg_accel_fit_score(NULL, f + i * MG_AFEAT, 1, &p);
		else
			mg_accel_place_score(NULL, f + i * MG_AFEAT, 1, &p);
		out[i] += prior * p;
	}
}

/* an episode's record, as the dispatcher decides */
struct rec {
	struct mg_pairnet *net;
	const double *mean, *scale;
	int fixed;		/* standardisation set */
	double prior, fit;
	uint64_t rng;
	double *rows;		/* raw features of every candidate */
	size_t nrows, caprows;
	size_t *n, *a;		/* per decision: candidates, taken */
	double *r, *glob;	/* its rewards; 3 global features */
	size_t *q, capq;	/* its request */
	signed char *out;	/* each request's end: 1 met, -1 missed */
	size_t nreq;
	size_t ndec, capn, capa, capr, capg;
	double *x, *buf;	/* scratch */
	size_t capx, capbuf;
	int err;
};

static int
rec_score(void *ctx, const double *feat, size_t n, double *out)
{
	struct rec *c = ctx;
	size_t need = n * MG_AFEAT;
	int rv;

	if (mg_grow((void **)&c->x, &c->capx, need, sizeof(*c->x)) != 0)
		return MG_ENOMEM;
	if (!c->fixed) {		/* before the first update: raw */
		memcpy(c->x, feat, need * sizeof(*c->x));
	} else {
		standardise(feat, n, c->mean, c->scale, c->x);
	}
	if ((rv = mg_pairnet_score(c->net, c->x, n, out, &c->buf,
	    &c->capbuf)) != 0)
		return rv;
	add_prior(feat, n, c->prior, c->fit, out);
	return 0;
}

static size_t
rec_pick(void *ctx, const double *feat, const double *score, size_t n)
{
	struct rec *c = ctx;
	double mx = -INFINITY, z = 0, u;
	size_t i;

	for (i = 0; i < n; i++)
		if (score[i] > mx)
			mx = score[i];
	for (i = 0; i < n; i++)
		z += exp(score[i] - mx);
	u = mg_rand_unif(&c->rng) * z;
	for (i = 0; i + 1 < n; i++) {
		u -= exp(score[i] - mx);
		if (u <= 0)
			break;
	}

	/* keep the decision */
	if (mg_grow((void **)&c->rows, &c->caprows, (c->nrows + n) *
	    MG_AFEAT, sizeof(*c->rows)) != 0 || mg_grow((void **)&c->n,
	    &c->capn, c->ndec + 1, sizeof(*c->n)) != 0 ||
	    mg_grow((void **)&c->a, &c->capa, c->ndec + 1, sizeof(*c->a)) !=
	    0 || mg_grow((void **)&c->r, &c->capr, c->ndec + 1,
	    sizeof(*c->r)) != 0 || mg_grow((void **)&c->glob, &c->capg, 3 *
	    (c->ndec + 1), sizeof(*c->glob)) != 0) {
		c->err = MG_ENOMEM;
		return i;
	}
	memcpy(c->rows + c->nrows * MG_AFEAT, feat, n * MG_AFEAT *
	    sizeof(*c->rows));
	c->nrows += n;
	c->n[c->ndec] = n;
	c->a[c->ndec] = i;
	c->r[c->ndec] = 0;
	c->glob[3 * c->ndec] = feat[8];
	c->glob[3 * c->ndec + 1] = feat[9];
	c->glob[3 * c->ndec + 2] = feat[10];
	c->ndec++;
	return i;
}

static void
rec_taken(void *ctx, size_t request)
{
	struct rec *c = ctx;

	if (c->err == 0 && c->ndec > 0 && mg_grow((void **)&c->q, &c->capq,
	    c->ndec, sizeof(*c->q)) == 0)
		c->q[c->ndec - 1] = request;
	else
		c->err = MG_ENOMEM;
}

static void
rec_ended(void *ctx, size_t request, int met)
{
	struct rec *c = ctx;

	if (request < c->nreq)
		c->out[request] = met ? 1 : -1;
}

static void
rec_reward(void *ctx, double r)
{
	struct rec *c = ctx;

	if (c->ndec > 0)
		c->r[c->ndec - 1] += r;
}

int
mg_relmas_train(const struct mg_accel_scenario *sc, const struct mg_net *nets,
    size_t nnets, const struct mg_relmas_opts *o, struct mg_pairnet *net,
    double *mean, double *scale)
{
	int asz[4] = { MG_AFEAT + (o->context > 0 ? o->context : 0),
	    o->hidden, o->hidden, 1 };
	int csz[4] = { 3, o->hidden, o->hidden, 1 };
	struct mg_mlp *critic = NULL;
	struct rec c;
	struct mg_accel_hook h;
	struct mg_arun run;
	struct mg_accel_request *req = NULL;
	double *G = NULL, *V = NULL, *dv = NULL, *adv = NULL, *off = NULL;
	uint64_t lrng = o->seed ^ 0x5851F42D4C957F2DULL;
	int ep, rv;
	size_t t, k;

	memset(net, 0, sizeof(*net));
	net->nfeat = MG_AFEAT;
	memset(&c, 0, sizeof(c));
	if ((rv = mg_mlp_new(asz, 4, o->seed, &net->actor)) != 0 ||
	    (rv = mg_mlp_new(csz, 4, o->seed + 1, &critic)) != 0 ||
	    (o->context > 0 && (rv = mg_attn_new(MG_AFEAT, o->hidden,
	    o->context, o->seed + 2, &net->enc)) != 0))
		goto out;
	if (o->prior != 0) {
		/* its last layer 0: the dispatcher starts as the rule */
		size_t np = mg_mlp_nparams(net->actor);

		memset(mg_mlp_params(net->actor) + np - (size_t)o->hidden - 1,
		    0, ((size_t)o->hidden + 1) * sizeof(double));
	}
	for (k = 0; k < MG_AFEAT; k++) {
		mean[k] = 0;
		scale[k] = 1;
	}
	c.net = net;
	c.mean = mean;
	c.scale = scale;
	c.rng = o->seed ^ 0xD6E8FEB86659FD93ULL;
	c.prior = o->prior;
	c.fit = o->strict > 0 ? o->fit : 0;
	memset(&h, 0, sizeof(h));
	h.score = rec_score;
	h.pick = rec_pick;
	h.reward = rec_reward;
	h.taken = rec_taken;
	h.ended = rec_ended;
	h.ctx = &c;
	h.no_bw = o->no_bw;
	h.budget = o->budget;
	h.feasible = o->feasible;
	h.strict = o->strict;
	h.fit = c.fit;
	h.beta = o->beta;
	for (ep = 0; ep < o->episodes; ep++) {
		double load = o->load_lo + (o->load_hi - o->load_lo) *
		    mg_rand_unif(&lrng), g = 0, am = 0, as = 0;

		c.nrows = c.ndec = 0;
		free(req);
		req = NULL;
		free(c.out);
		c.nreq = o->requests;
		if ((c.out = calloc(o->requests ? o->requests : 1, 1)) == NULL) {
			rv = MG_ENOMEM;
			goto out;
		}
		if ((rv = mg_accel_requests(&sc->hw, nets, nnets, o->requests, load,
		    sc->q, sc->burst, o->seed * 7919 + (uint64_t)ep, &req)) != 0 ||
		    (rv = mg_accel_run_hook(&sc->hw, nets, nnets, req,
		    o->requests, &h, &run)) != 0)
			goto out;
		if ((rv = c.err) != 0)
			goto out;
		if (c.ndec == 0)
			continue;
		if (!c.fixed) {
			/* the standardisation, from the first episode */
			double ss[MG_AFEAT] = { 0 };

			for (t = 0; t < c.nrows; t++)
				for (k = 0; k < MG_AFEAT; k++) {
					double x = c.rows[t * MG_AFEAT + k];

					mean[k] += x / (double)c.nrows;
					ss[k] += x * x / (double)c.nrows;
				}
			for (k = 0; k < MG_AFEAT; k++) {
				double var = ss[k] - mean[k] * mean[k];

				scale[k] = var > 1e-12 ? sqrt(var) : 1;
			}
			c.fixed = 1;
		}
		free(G);
		free(V);
		free(dv);
		free(adv);
		G = malloc(c.ndec * sizeof(*G));
		V = malloc(c.ndec * sizeof(*V));
		dv = malloc(c.ndec * sizeof(*dv));
		adv = malloc(c.ndec * sizeof(*adv));
		if (G == NULL || V == NULL || dv == NULL || adv == NULL ||
		    mg_grow((void **)&c.x, &c.capx, c.nrows * MG_AFEAT,
		    sizeof(*c.x)) != 0) {
			rv = MG_ENOMEM;
			goto out;
		}
		/*
		 * a decision's return: what follows it for all, discounted;
		 * or its own request's end (+1 met, -1 missed) and mix times
		 * that
		 */
		for (t = c.ndec; t-- > 0;) {
			g = c.r[t] + o->gamma * g;
			G[t] = o->own ? c.out[c.q[t]] + o->mix * g : g;
		}
		/* the critic: the baseline, and a step toward the returns */
		mg_mlp_zero_grad(critic);
		if ((rv = mg_mlp_forward(critic, c.glob, c.ndec, V)) != 0)
			goto out;
		for (t = 0; t < c.ndec; t++) {
			dv[t] = (V[t] - G[t]) / (double)c.ndec;
			adv[t] = G[t] - V[t];
			am += adv[t] / (double)c.ndec;
		}
		mg_mlp_backward(critic, dv);
		mg_mlp_adam(critic, o->lr, 1);
		for (t = 0; t < c.ndec; t++)
			as += (adv[t] - am) * (adv[t] - am) / (double)c.ndec;
		as = as > 1e-12 ? sqrt(as) : 1;
		for (t = 0; t < c.ndec; t++)
			adv[t] = (adv[t] - am) / as / (double)c.ndec;
		/* the actor: the pairs taken, weighted by their advantage */
		standardise(c.rows, c.nrows, mean, scale, c.x);
		if (o->prior != 0) {
			free(off);
			if ((off = calloc(c.nrows, sizeof(*off))) == NULL) {
				rv = MG_ENOMEM;
				goto out;
			}
			add_prior(c.rows, c.nrows, o->prior, c.fit, off);
		}
		mg_mlp_zero_grad(net->actor);
		if (net->enc != NULL)
			mg_attn_zero_grad(net->enc);
		if ((rv = mg_pairnet_policy_grad(net, c.x, c.n, c.a, adv,
		    c.ndec, off)) != 0)
			goto out;
		mg_mlp_adam(net->actor, o->lr, 1);
		if (net->enc != NULL)
			mg_attn_adam(net->enc, o->lr, 1);
		if (o->progress != NULL)
			o->progress(o->ctx, ep + 1, o->episodes,
			    (double)run.met / (double)run.requests);
	}
	rv = 0;
out:
	if (rv != 0)
		mg_pairnet_free(net);
	mg_mlp_free(critic);
	free(req);
	free(G);
	free(V);
	free(dv);
	free(adv);
	free(off);
	free(c.rows);
	free(c.n);
	free(c.a);
	free(c.r);
	free(c.glob);
	free(c.q);
	free(c.out);
	free(c.x);
	free(c.buf);
	return rv;
}

static int
run_score(void *ctx, const double *feat, size_t n, double *out)
{
	struct mg_relmas_run *st = ctx;
	int rv;

	if (mg_grow((void **)&st->x, &st->capx, n * MG_AFEAT,
	    sizeof(*st->x)) != 0)
		return MG_ENOMEM;
	standardise(feat, n, st->mean, st->scale, st->x);
	if ((rv = mg_pairnet_score(st->net, st->x, n, out, &st->buf,
	    &st->capbuf)) != 0)
		return rv;
	add_prior(feat, n, st->prior, st->fit, out);
	return 0;
}

void
mg_relmas_hook(struct mg_relmas_run *st, int no_bw, int budget,
    int feasible, struct mg_accel_hook *h)
{
	memset(h, 0, sizeof(*h));
	h->score = run_score;
	h->ctx = st;
	h->no_bw = no_bw;
	h->budget = budget;
	h->feasible = feasible;
	if (st->strict <= 0)
		st->fit = 0;	/* fit widens strict's pairs only */
	h->strict = st->strict;
	h->fit = st->fit;
}

void
mg_relmas_run_free(struct mg_relmas_run *st)
{
	free(st->x);
	free(st->buf);
	st->x = st->buf = NULL;
	st->capx = st->capbuf = 0;
}

/* the sub-accelerators of dataflow df in sc */
static int
accel_count(const struct mg_accel_scenario *sc, int df)
{
	int i, k = 0;

	for (i = 0; i < sc->hw.nsa; i++)
		k += sc->hw.df[i] == df;
	return k;
}

int
mg_relmas_train_model(struct mg_model *m, const struct mg_accel_scenario *sc,
    const struct mg_net *nets, size_t nnets,
    const struct mg_relmas_opts *o, struct mg_diag *d)
{
	struct mg_pairnet *n;
	char params[640];
	int rv;

	if (strcmp(m->kind, "relmas") != 0 || m->nfeat != MG_AFEAT)
		return mg_diag_set(d, MG_EINVAL, "not a relmas model of the "
		    "dispatcher's features");
	if ((n = calloc(1, sizeof(*n))) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	if ((rv = mg_relmas_train(sc, nets, nnets, o, n, m->mean,
	    m->scale)) != 0) {
		free(n);
		return mg_diag_set(d, rv, "relmas training failed: %s",
		    mg_strerror(rv));
	}
	if ((rv = mg_model_set_pairnet(m, n)) != 0) {
		mg_pairnet_free(n);
		free(n);
		return rv;
	}
	m->seed = o->seed;
	m->nsamples = (uint64_t)o->episodes;
	snprintf(params, sizeof(params), "episodes=%d requests=%zu load=%g-%g "
	    "hidden=%d lr=%g gamma=%g beta=%g credit=%s mix=%g no_bw=%d "
	    "context=%d "
	    "budget=%d window=%s prior=%g strict=%g fit=%g "
	    "networks=%s ws=%d rs=%d pes=%d bandwidth=%g q=%g "
	    "softmax-actor-critic%s", o->episodes, o->requests, o->load_lo,
	    o->load_hi, o->hidden, o->lr, o->gamma, o->beta, o->own ? "own" :
	    "all", o->mix, o->no_bw,
	    o->context, o->budget, o->feasible ? "feasible" : "deadline",
	    o->prior, o->strict, o->strict > 0 ? o->fit : 0, sc->nets,
	    accel_count(sc, MG_DF_WS), accel_count(sc, MG_DF_RS), sc->hw.pes,
	    sc->hw.bw / 1e9,
	    sc->q, o->context > 0 ? "+attention" : "");
	free(m->params);
	if ((m->params = strdup(params)) == NULL)
		return MG_ENOMEM;
	return 0;
}
