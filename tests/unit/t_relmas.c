/* t_relmas.c: the learned dispatcher: its policy gradient against finite
 * differences, and a short training, the same for the same seed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/accel.h"
#include "learn/relmas.h"
#include "base/rand.h"
#include "tap.h"

/* -sum_t adv[t] log p(a_t) for the actor's current parameters */
static double
loss(struct mg_mlp *n, const double *X, const size_t *cnt, const size_t *a,
    const double *adv, size_t ndec, size_t rows)
{
	double *s = malloc(rows * sizeof(*s)), l = 0;
	size_t t, i, at = 0;

	mg_mlp_forward(n, X, rows, s);
	for (t = 0; t < ndec; t++) {
		double mx = -INFINITY, z = 0;

		for (i = 0; i < cnt[t]; i++)
			mx = s[at + i] > mx ? s[at + i] : mx;
		for (i = 0; i < cnt[t]; i++)
			z += exp(s[at + i] - mx);
		l -= adv[t] * (s[at + a[t]] - mx - log(z));
		at += cnt[t];
	}
	free(s);
	return l;
}

int
main(void)
{
	int sz[4] = { MG_AFEAT, 8, 8, 1 };
	struct mg_mlp *n;
	size_t cnt[5] = { 3, 1, 4, 2, 5 }, a[5] = { 2, 0, 1, 1, 4 };
	double adv[5] = { 0.5, -1, 2, -0.3, 1.2 }, X[15 * MG_AFEAT];
	double *g, *p, worst = 0;
	size_t i, np, rows = 15;
	uint64_t rng = 11;

	for (i = 0; i < rows * MG_AFEAT; i++)
		X[i] = 2 * mg_rand_unif(&rng) - 1;
	mg_mlp_new(sz, 4, 3, &n);
	mg_mlp_zero_grad(n);
	mg_relmas_policy_grad(n, X, cnt, a, adv, 5);
	np = mg_mlp_nparams(n);
	p = mg_mlp_params(n);
	g = malloc(np * sizeof(*g));
	memcpy(g, mg_mlp_grads(n), np * sizeof(*g));
	for (i = 0; i < np; i++) {
		double keep = p[i], up, dn, num, err;

		p[i] = keep + 1e-6;
		up = loss(n, X, cnt, a, adv, 5, rows);
		p[i] = keep - 1e-6;
		dn = loss(n, X, cnt, a, adv, 5, rows);
		p[i] = keep;
		num = (up - dn) / 2e-6;
		err = fabs(num - g[i]) / (fabs(num) + fabs(g[i]) + 1e-8);
		if (fabs(num) + fabs(g[i]) > 1e-7 && err > worst)
			worst = err;
	}
	ok(worst < 1e-5, "the softmax policy's gradient over pairs matches "
	    "finite differences on all %zu parameters (worst relative "
	    "error %.2g)", np, worst);
	free(g);
	mg_mlp_free(n);

	{
		/* a short training: twice the same, another seed another */
		struct mg_ascen sc;
		struct mg_net nets[2];
		struct mg_relmas_opts o;
		struct mg_mlp *a1, *a2, *a3;
		double m1[MG_AFEAT], s1[MG_AFEAT], m2[MG_AFEAT], s2[MG_AFEAT];
		double m3[MG_AFEAT], s3[MG_AFEAT];
		int same;

		mg_ascen_default(&sc);
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
		same = a1 != NULL && a2 != NULL && a3 != NULL &&
		    memcmp(mg_mlp_params(a1), mg_mlp_params(a2),
		    mg_mlp_nparams(a1) * sizeof(double)) == 0 &&
		    memcmp(m1, m2, sizeof(m1)) == 0;
		ok(same && memcmp(mg_mlp_params(a1), mg_mlp_params(a3),
		    mg_mlp_nparams(a1) * sizeof(double)) != 0, "training: the "
		    "same seed gives the same network, another seed another");
		mg_mlp_free(a1);
		mg_mlp_free(a2);
		mg_mlp_free(a3);
		mg_net_free(&nets[0]);
		mg_net_free(&nets[1]);
	}
	return tap_done();
}
