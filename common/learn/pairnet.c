/*
 * pairnet.c: a scorer of a decision's candidates; see pairnet.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "learn/pairnet.h"
#include "base/mem.h"
#include "base/status.h"

void
mg_pairnet_free(struct mg_pairnet *net)
{
	mg_mlp_free(net->actor);
	mg_attn_free(net->enc);
	net->actor = NULL;
	net->enc = NULL;
}

/* the context's size: 0 without an encoder */
static size_t
ctx_dim(const struct mg_pairnet *net)
{
	return net->enc != NULL ? (size_t)mg_attn_dim(net->enc) : 0;
}

/* rows of the actor's inputs: each row's features, then the context of
 * its decision (C: a context per decision) */
static void
join(const double *X, size_t nf, const size_t *n, size_t ndec,
    const double *C, size_t d, double *XA)
{
	size_t t, i, at = 0, f = nf + d;

	for (t = 0; t < ndec; t++)
		for (i = 0; i < n[t]; i++, at++) {
			memcpy(XA + at * f, X + at * nf, nf * sizeof(*X));
			memcpy(XA + at * f + nf, C + t * d, d * sizeof(*C));
		}
}

int
mg_pairnet_score(struct mg_pairnet *net, const double *X, size_t n,
    double *out, double **buf, size_t *cap)
{
	size_t d = ctx_dim(net);
	int rv;

	if (n == 0)
		return 0;
	if (d == 0)
		return mg_mlp_forward(net->actor, X, n, out);
	if (mg_grow((void **)buf, cap, d + n * (net->nfeat + d),
	    sizeof(**buf)) != 0)
		return MG_ENOMEM;
	if ((rv = mg_attn_forward(net->enc, X, &n, 1, *buf)) != 0)
		return rv;
	join(X, net->nfeat, &n, 1, *buf, d, *buf + d);
	return mg_mlp_forward(net->actor, *buf + d, n, out);
}

int
mg_pairnet_policy_grad(struct mg_pairnet *net, const double *X,
    const size_t *n, const size_t *a, const double *adv, size_t ndec,
    const double *off)
{
	size_t rows = 0, t, i, k, at = 0, dim = ctx_dim(net);
	size_t f = net->nfeat + dim;
	double *s, *d, *C = NULL, *XA = NULL, *dXA = NULL, *dC = NULL;
	const double *in = X;
	int rv = MG_ENOMEM;

	for (t = 0; t < ndec; t++)
		rows += n[t];
	if (rows == 0)
		return 0;
	s = malloc(rows * sizeof(*s));
	d = malloc(rows * sizeof(*d));
	if (s == NULL || d == NULL)
		goto out;
	if (dim > 0) {
		/* the contexts, and the actor's inputs that carry them */
		if ((C = malloc(ndec * dim * sizeof(*C))) == NULL ||
		    (dC = calloc(ndec * dim, sizeof(*dC))) == NULL ||
		    (XA = malloc(rows * f * sizeof(*XA))) == NULL ||
		    (dXA = malloc(rows * f * sizeof(*dXA))) == NULL)
			goto out;
		if ((rv = mg_attn_forward(net->enc, X, n, ndec, C)) != 0)
			goto out;
		join(X, net->nfeat, n, ndec, C, dim, XA);
		in = XA;
	}
	if ((rv = mg_mlp_forward(net->actor, in, rows, s)) != 0)
		goto out;
	for (i = 0; off != NULL && i < rows; i++)
		s[i] += off[i];
	for (t = 0; t < ndec; t++) {
		double mx = -INFINITY, z = 0;

		for (i = 0; i < n[t]; i++)
			if (s[at + i] > mx)
				mx = s[at + i];
		for (i = 0; i < n[t]; i++)
			z += exp(s[at + i] - mx);
		/* d(-adv log p_a)/d s_i = adv (p_i - [i = a]) */
		for (i = 0; i < n[t]; i++)
			d[at + i] = adv[t] * (exp(s[at + i] - mx) / z -
			    (i == a[t] ? 1 : 0));
		at += n[t];
	}
	if (dim == 0) {
		mg_mlp_backward(net->actor, d);
		goto out;
	}
	/* back through the actor to the contexts, then the encoder */
	mg_mlp_backward_input(net->actor, d, dXA);
	for (t = at = 0; t < ndec; t++)
		for (i = 0; i < n[t]; i++, at++)
			for (k = 0; k < dim; k++)
				dC[t * dim + k] += dXA[at * f + net->nfeat +
				    k];
	mg_attn_backward(net->enc, dC);
out:
	free(s);
	free(d);
	free(C);
	free(dC);
	free(XA);
	free(dXA);
	return rv;
}

