/*
 * t_relmas.c: the learned dispatcher: the gradients of its new layers
 * (attention pooling over a decision's candidates, and the policy
 * through the actor and the encoder) against finite differences, scoring
 * one decision alone as the batched gradient does, and a short training,
 * the same for the same seed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/accel.h"
#include "learn/attn.h"
#include "accel/relmas.h"
#include "base/rand.h"
#include "tap.h"

#define NDEC 5
#define ROWS 15

static const size_t cnt[NDEC] = { 3, 1, 4, 2, 5 }, act[NDEC] = { 2, 0, 1, 1,
	4 };
static const double adv[NDEC] = { 0.5, -1, 2, -0.3, 1.2 };
static const double *OFF;	/* a number per row added to its score, or NULL */

/* -sum_t adv[t] log p(a_t), each decision scored alone */
static double
loss(struct mg_pairnet *net, const double *X)
{
	double s[8], l = 0, *buf = NULL;
	size_t t, i, at = 0, cap = 0;

	for (t = 0; t < NDEC; t++) {
		double mx = -INFINITY, z = 0;

		mg_pairnet_score(net, X + at * MG_AFEAT, cnt[t], s, &buf, &cap);
		for (i = 0; OFF != NULL && i < cnt[t]; i++)
			s[i] += OFF[at + i];
		for (i = 0; i < cnt[t]; i++)
			mx = s[i] > mx ? s[i] : mx;
		for (i = 0; i < cnt[t]; i++)
			z += exp(s[i] - mx);
		l -= adv[t] * (s[act[t]] - mx - log(z));
		at += cnt[t];
	}
	free(buf);
	return l;
}

/* sum_t r[t] . C_t: a loss of the contexts alone */
static double
ctx_loss(struct mg_attn *e, const double *X, const double *r)
{
	double C[NDEC * 8], l = 0;
	size_t k, d = (size_t)mg_attn_dim(e);

	mg_attn_forward(e, X, cnt, NDEC, C);
	for (k = 0; k < NDEC * d; k++)
		l += r[k] * C[k];
	return l;
}

/* the worst relative error of gradient g of parameters p[0..np) against
 * central differences of f */
static double
check(double *p, const double *g, size_t np, double (*f)(void *), void *arg)
{
	double worst = 0;
	size_t i;

	for (i = 0; i < np; i++) {
		double keep = p[i], up, dn, num, err;

		p[i] = keep + 1e-6;
		up = f(arg);
		p[i] = keep - 1e-6;
		dn = f(arg);
		p[i] = keep;
		num = (up - dn) / 2e-6;
		err = fabs(num - g[i]) / (fabs(num) + fabs(g[i]) + 1e-8);
		if (fabs(num) + fabs(g[i]) > 1e-7 && err > worst)
			worst = err;
	}
	return worst;
}

struct arg {
	struct mg_pairnet *net;
	struct mg_attn *enc;
	const double *X, *r;
};

static double
f_loss(void *a)
{
	struct arg *x = a;

	return loss(x->net, x->X);
}

static double
f_ctx(void *a)
{
	struct arg *x = a;

	return ctx_loss(x->enc, x->X, x->r);
}

static double *
copy(const double *g, size_t n)
{
	double *c = malloc(n * sizeof(*c));

	memcpy(c, g, n * sizeof(*c));
	return c;
}

int
main(void)
{
	int sz[4] = { MG_AFEAT, 8, 8, 1 }, szc[4] = { MG_AFEAT + 4, 8, 8, 1 };
	struct mg_pairnet net = { NULL, NULL, MG_AFEAT };
	struct mg_mlp *f;
	struct arg x;
	double X[ROWS * MG_AFEAT], r[NDEC * 4], C[NDEC * 4], *g, *gf, *gw;
	size_t i, np;
	uint64_t rng = 11;

	for (i = 0; i < ROWS * MG_AFEAT; i++)
		X[i] = 2 * mg_rand_unif(&rng) - 1;
	for (i = 0; i < NDEC * 4; i++)
		r[i] = 2 * mg_rand_unif(&rng) - 1;
	x.X = X;
	x.r = r;

	/* the actor alone, as before the encoder */
	mg_mlp_new(sz, 4, 3, &net.actor);
	x.net = &net;
	mg_mlp_zero_grad(net.actor);
	mg_pairnet_policy_grad(&net, X, cnt, act, adv, NDEC, NULL);
	np = mg_mlp_nparams(net.actor);
	g = copy(mg_mlp_grads(net.actor), np);
	ok(check(mg_mlp_params(net.actor), g, np, f_loss, &x) < 1e-5, "the "
	    "softmax policy's gradient over pairs matches finite differences "
	    "on all %zu parameters", np);
	{
		/* with a number per row added to the scores (the prior) */
		double off[ROWS], *g2;

		for (i = 0; i < ROWS; i++)
			off[i] = 3 * mg_rand_unif(&rng) - 1.5;
		OFF = off;
		mg_mlp_zero_grad(net.actor);
		mg_pairnet_policy_grad(&net, X, cnt, act, adv, NDEC, off);
		g2 = copy(mg_mlp_grads(net.actor), np);
		ok(check(mg_mlp_params(net.actor), g2, np, f_loss, &x) < 1e-5 &&
		    memcmp(g, g2, np * sizeof(*g)) != 0, "with the prior added "
		    "to the scores: the gradient differs, and matches finite "
		    "differences");
		OFF = NULL;
		free(g2);
	}
	free(g);
	mg_pairnet_free(&net);

	/* the attention layer alone, with a query away from 0 */
	mg_attn_new(MG_AFEAT, 8, 4, 5, &x.enc);
	for (i = 0; i < 4; i++)
		mg_attn_query(x.enc)[i] = 2 * mg_rand_unif(&rng) - 1;
	mg_attn_zero_grad(x.enc);
	mg_attn_forward(x.enc, X, cnt, NDEC, C);
	mg_attn_backward(x.enc, r);
	f = mg_attn_embedding(x.enc);
	np = mg_mlp_nparams(f);
	gf = copy(mg_mlp_grads(f), np);
	gw = copy(mg_attn_query_grad(x.enc), 4);
	ok(check(mg_mlp_params(f), gf, np, f_ctx, &x) < 1e-5, "attention "
	    "pooling: the embedding's gradient matches finite differences "
	    "(%zu parameters)", np);
	ok(check(mg_attn_query(x.enc), gw, 4, f_ctx, &x) < 1e-5, "attention "
	    "pooling: the query's gradient matches finite differences");
	free(gf);
	free(gw);
	{
		/* the context is a convex mix: within the rows' embeddings,
		 * and one row's set is that row's embedding */
		double e[4], c1[4];
		size_t one = 1;

		mg_attn_forward(x.enc, X + 3 * MG_AFEAT, &one, 1, c1);
		mg_mlp_forward(f, X + 3 * MG_AFEAT, 1, e);
		ok(fabs(c1[0] - e[0]) < 1e-12 && fabs(c1[3] - e[3]) < 1e-12,
		    "a set of one row: its context is its embedding");
	}

	/* the policy through the actor and the encoder */
	mg_mlp_new(szc, 4, 3, &net.actor);
	net.enc = x.enc;
	mg_mlp_zero_grad(net.actor);
	mg_attn_zero_grad(net.enc);
	mg_pairnet_policy_grad(&net, X, cnt, act, adv, NDEC, NULL);
	np = mg_mlp_nparams(net.actor);
	g = copy(mg_mlp_grads(net.actor), np);
	gf = copy(mg_mlp_grads(f), mg_mlp_nparams(f));
	gw = copy(mg_attn_query_grad(net.enc), 4);
	ok(check(mg_mlp_params(net.actor), g, np, f_loss, &x) < 1e-5 &&
	    check(mg_mlp_params(f), gf, mg_mlp_nparams(f), f_loss, &x) <
	    1e-5 && check(mg_attn_query(net.enc), gw, 4, f_loss, &x) < 1e-5,
	    "with the encoder: the policy's gradient matches finite "
	    "differences on the actor, the embedding and the query (%zu "
	    "parameters)", np + mg_mlp_nparams(f) + 4);
	free(g);
	free(gf);
	free(gw);
	mg_pairnet_free(&net);

	{
		/* a short training: twice the same, another seed another */
		struct mg_accel_scenario sc;
		struct mg_net nets[2];
		struct mg_relmas_opts o;
		struct mg_pairnet a1, a2, a3;
		double m1[MG_AFEAT], s1[MG_AFEAT], m2[MG_AFEAT], s2[MG_AFEAT];
		double m3[MG_AFEAT], s3[MG_AFEAT];
		int same;

		mg_accel_scenario_default(&sc);
		mg_net_build("mobilenetv2", 1024, &nets[0]);
		mg_net_build("lstm", 1024, &nets[1]);
		mg_relmas_opts_init(&o);
		o.episodes = 4;
		o.requests = 60;
		o.hidden = 8;
		mg_relmas_train(&sc, nets, 2, &o, &a1, m1, s1);
		mg_relmas_train(&sc, nets, 2, &o, &a2, m2, s2);
		o.seed = 2;
		mg_relmas_train(&sc, nets, 2, &o, &a3, m3, s3);
		same = a1.actor && a2.actor && a3.actor && a1.enc && a2.enc &&
		    memcmp(mg_mlp_params(a1.actor), mg_mlp_params(a2.actor),
		    mg_mlp_nparams(a1.actor) * sizeof(double)) == 0 &&
		    memcmp(mg_mlp_params(mg_attn_embedding(a1.enc)),
		    mg_mlp_params(mg_attn_embedding(a2.enc)),
		    mg_mlp_nparams(mg_attn_embedding(a1.enc)) *
		    sizeof(double)) == 0 && memcmp(m1, m2, sizeof(m1)) == 0;
		ok(same && memcmp(mg_mlp_params(a1.actor),
		    mg_mlp_params(a3.actor), mg_mlp_nparams(a1.actor) *
		    sizeof(double)) != 0, "training with the encoder: the same "
		    "seed gives the same networks, another seed another");
		mg_pairnet_free(&a1);
		mg_pairnet_free(&a2);
		mg_pairnet_free(&a3);
		mg_net_free(&nets[0]);
		mg_net_free(&nets[1]);
	}
	{
		/* an actor that scores every pair 0: with the prior the
		 * dispatcher is the place rule, to the decision; without it,
		 * the first pair (fedf's) */
		struct mg_accel_scenario sc;
		struct mg_net nets[MG_NNETS];
		struct mg_pairnet z = { NULL, NULL, MG_AFEAT };
		struct mg_relmas_run st;
		struct mg_accel_hook h;
		struct mg_accel_request *rq;
		struct mg_arun rp, rh, rf;
		double mean[MG_AFEAT], scale[MG_AFEAT];
		int sz0[3] = { MG_AFEAT, 4, 1 };
		size_t k, nn = 0;

		mg_accel_scenario_default(&sc);
		for (k = 0; k < MG_NNETS; k++)
			nn += mg_net_build(mg_net_names[k], 1024, &nets[nn]) == 0;
		mg_mlp_new(sz0, 3, 1, &z.actor);
		memset(mg_mlp_params(z.actor), 0, mg_mlp_nparams(z.actor) *
		    sizeof(double));
		for (k = 0; k < MG_AFEAT; k++) {
			mean[k] = 0;
			scale[k] = 1;
		}
		memset(&st, 0, sizeof(st));
		st.net = &z;
		st.mean = mean;
		st.scale = scale;
		st.prior = 1;
		mg_relmas_hook(&st, 0, 0, 1, &h);
		mg_accel_requests(&sc.hw, nets, nn, 800, 0.6, 2, 1, 9, &rq);
		mg_accel_run(&sc.hw, nets, nn, rq, 800, MG_AP_PLACE, 1, &rp);
		mg_accel_run_hook(&sc.hw, nets, nn, rq, 800, &h, &rh);
		ok(rp.met == rh.met && rp.decisions == rh.decisions &&
		    rp.energy == rh.energy && rp.lat_mean == rh.lat_mean,
		    "an actor of zeros with the prior: the place rule's run "
		    "(%zu met of 800)", rh.met);
		/* with fit: the fit rule's */
		st.strict = st.fit = MG_ACCEL_STRICT;
		mg_relmas_hook(&st, 0, 0, 1, &h);
		mg_accel_run(&sc.hw, nets, nn, rq, 800, MG_AP_FIT, 1, &rf);
		mg_accel_run_hook(&sc.hw, nets, nn, rq, 800, &h, &rh);
		ok(rf.met == rh.met && rf.decisions == rh.decisions &&
		    rf.energy == rh.energy && rf.lat_mean == rh.lat_mean &&
		    rf.lat_mean != rp.lat_mean, "with fit: the fit rule's run "
		    "(%zu met of 800)", rh.met);
		st.strict = st.fit = 0;
		mg_relmas_hook(&st, 0, 0, 1, &h);
		st.prior = 0;
		mg_accel_run(&sc.hw, nets, nn, rq, 800, MG_AP_FEDF, 1, &rf);
		mg_accel_run_hook(&sc.hw, nets, nn, rq, 800, &h, &rh);
		ok(rf.met == rh.met && rf.lat_mean == rh.lat_mean &&
		    rp.lat_mean != rh.lat_mean, "without it: fedf's (%zu met), "
		    "not place's (%zu)", rh.met, rp.met);
		mg_relmas_run_free(&st);
		mg_pairnet_free(&z);
		free(rq);
		for (k = 0; k < nn; k++)
			mg_net_free(&nets[k]);
	}
	return tap_done();
}
