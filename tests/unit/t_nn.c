/*
 * t_nn.c: the RL core's networks: gradients of the backward pass against
 * central differences, Adam fitting a small function, determinism.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "learn/nn.h"
#include "tap.h"

#define B	5

static double
loss(struct mg_mlp *n, const double *X, const double *R, int nout)
{
	double out[B * 4], l = 0;
	int i;

	mg_mlp_forward(n, X, B, out);
	for (i = 0; i < B * nout; i++)
		l += out[i] * R[i];
	return l;
}

static void
gradcheck(void)
{
	static const int sizes[] = { 4, 8, 6, 3 };
	struct mg_mlp *n;
	double X[B * 4], R[B * 3], out[B * 3], worst = 0;
	double *p, *g;
	size_t i, np;
	unsigned s = 7;

	if (mg_mlp_new(sizes, 4, 42, &n) != 0) {
		ok(0, "a network");
		return;
	}
	for (i = 0; i < B * 4; i++) {
		s = s * 1103515245u + 12345u;
		X[i] = (double)((s >> 8) % 2000) / 1000 - 1;
	}
	for (i = 0; i < B * 3; i++) {
		s = s * 1103515245u + 12345u;
		R[i] = (double)((s >> 8) % 2000) / 1000 - 1;
	}
	mg_mlp_zero_grad(n);
	mg_mlp_forward(n, X, B, out);
	mg_mlp_backward(n, R);
	np = mg_mlp_nparams(n);
	p = mg_mlp_params(n);
	g = malloc(np * sizeof(*g));
	memcpy(g, mg_mlp_grads(n), np * sizeof(*g));
	for (i = 0; i < np; i++) {
		double keep = p[i], up, dn, num, err;

		p[i] = keep + 1e-6;
		up = loss(n, X, R, 3);
		p[i] = keep - 1e-6;
		dn = loss(n, X, R, 3);
		p[i] = keep;
		num = (up - dn) / 2e-6;
		err = fabs(num - g[i]) / fmax(1e-6, fabs(num) + fabs(g[i]));
		if (err > worst)
			worst = err;
	}
	ok(np == 4 * 8 + 8 + 8 * 6 + 6 + 6 * 3 + 3, "parameter count %zu", np);
	ok(worst < 1e-5, "backward pass = central differences on all %zu "
	    "parameters (worst relative error %.2g)", np, worst);
	free(g);
	mg_mlp_free(n);
}

static void
fit(void)
{
	static const int sizes[] = { 2, 16, 1 };
	struct mg_mlp *n, *m;
	double X[64 * 2], y[64], out[64], d[64], first = 0, last = 0;
	int it, i;

	mg_mlp_new(sizes, 3, 1, &n);
	mg_mlp_new(sizes, 3, 1, &m);
	ok(memcmp(mg_mlp_params(n), mg_mlp_params(m), mg_mlp_nparams(n) *
	    sizeof(double)) == 0, "same seed, same weights");
	for (i = 0; i < 64; i++) {
		X[2 * i] = (i % 8) / 4.0 - 1;
		X[2 * i + 1] = (i / 8) / 4.0 - 1;
		y[i] = X[2 * i] * X[2 * i + 1];	/* a saddle: needs the ReLUs */
	}
	for (it = 0; it < 2000; it++) {
		double l = 0;

		mg_mlp_forward(n, X, 64, out);
		for (i = 0; i < 64; i++) {
			d[i] = 2 * (out[i] - y[i]) / 64;
			l += (out[i] - y[i]) * (out[i] - y[i]) / 64;
		}
		if (it == 0)
			first = l;
		last = l;
		mg_mlp_zero_grad(n);
		mg_mlp_backward(n, d);
		mg_mlp_adam(n, 0.01, 10);
	}
	ok(last < first / 20 && last < 0.005, "Adam fits x*y (MSE %.4f -> "
	    "%.5f)", first, last);
	ok(mg_mlp_copy_params(m, n) == 0 && memcmp(mg_mlp_params(n),
	    mg_mlp_params(m), mg_mlp_nparams(n) * sizeof(double)) == 0,
	    "a target network copies the parameters");
	mg_mlp_free(n);
	mg_mlp_free(m);
}

int
main(void)
{
	static const int bad[] = { 3, 0, 1 };
	struct mg_mlp *n;

	gradcheck();
	fit();
	ok(mg_mlp_new(bad, 3, 1, &n) != 0, "a layer of 0 units is refused");
	return tap_done();
}
