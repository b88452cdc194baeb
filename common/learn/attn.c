/*
 * attn.c: attention pooling over sets of rows; see attn.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/status.h"
#include "learn/attn.h"

struct mg_attn {
	struct mg_mlp *f;	/* the embedding: in -> hidden -> d */
	int d;
	double *w, *gw, *mw, *vw;	/* the query, its gradient, Adam's */
	long step;
	/* the last forward pass */
	size_t *n, nsets, capn;
	double *E, *alpha, *C, *dE;	/* rows x d, rows, sets x d, rows x d */
	size_t rows, caprows, capsets;
};

static int
alloc_query(struct mg_attn *a)
{
	size_t d = (size_t)a->d;

	a->w = calloc(d, sizeof(*a->w));
	a->gw = calloc(d, sizeof(*a->gw));
	a->mw = calloc(d, sizeof(*a->mw));
	a->vw = calloc(d, sizeof(*a->vw));
	return a->w && a->gw && a->mw && a->vw ? 0 : MG_ENOMEM;
}

int
mg_attn_new(int in, int hidden, int d, uint64_t seed, struct mg_attn **out)
{
	int sizes[3] = { in, hidden, d };
	struct mg_attn *a;
	int rv;

	*out = NULL;
	if (in < 1 || hidden < 1 || d < 1)
		return MG_EINVAL;
	if ((a = calloc(1, sizeof(*a))) == NULL)
		return MG_ENOMEM;
	a->d = d;
	if ((rv = mg_mlp_new(sizes, 3, seed, &a->f)) != 0 ||
	    (rv = alloc_query(a)) != 0) {
		mg_attn_free(a);
		return rv;
	}
	*out = a;
	return 0;
}

int
mg_attn_from(struct mg_mlp *f, const double *w, struct mg_attn **out)
{
	int sizes[MG_MLP_MAXLAYERS + 1], nl = mg_mlp_layers(f, sizes);
	struct mg_attn *a;

	*out = NULL;
	if (nl < 2 || sizes[nl - 1] < 1)
		return MG_EINVAL;
	if ((a = calloc(1, sizeof(*a))) == NULL)
		return MG_ENOMEM;
	a->d = sizes[nl - 1];
	if (alloc_query(a) != 0) {
		mg_attn_free(a);
		return MG_ENOMEM;
	}
	a->f = f;
	memcpy(a->w, w, (size_t)a->d * sizeof(*w));
	*out = a;
	return 0;
}

void
mg_attn_free(struct mg_attn *a)
{
	if (a == NULL)
		return;
	mg_mlp_free(a->f);
	free(a->w);
	free(a->gw);
	free(a->mw);
	free(a->vw);
	free(a->n);
	free(a->E);
	free(a->alpha);
	free(a->C);
	free(a->dE);
	free(a);
}

int
mg_attn_dim(const struct mg_attn *a)
{
	return a->d;
}

struct mg_mlp *
mg_attn_embedding(struct mg_attn *a)
{
	return a->f;
}

double *
mg_attn_query(struct mg_attn *a)
{
	return a->w;
}

double *
mg_attn_query_grad(struct mg_attn *a)
{
	return a->gw;
}

int
mg_attn_forward(struct mg_attn *a, const double *X, const size_t *n,
    size_t nsets, double *C)
{
	size_t d = (size_t)a->d, rows = 0, t, i, k, at = 0;
	int rv;

	for (t = 0; t < nsets; t++)
		rows += n[t];
	if (mg_grow((void **)&a->n, &a->capn, nsets ? nsets : 1,
	    sizeof(*a->n)) != 0 || mg_grow((void **)&a->C, &a->capsets,
	    (nsets ? nsets : 1) * d, sizeof(*a->C)) != 0)
		return MG_ENOMEM;
	if (rows * d > a->caprows) {
		size_t cap = rows * d;

		free(a->E);
		free(a->dE);
		free(a->alpha);
		a->caprows = 0;
		if ((a->E = malloc(cap * sizeof(*a->E))) == NULL ||
		    (a->dE = malloc(cap * sizeof(*a->dE))) == NULL ||
		    (a->alpha = malloc(rows * sizeof(*a->alpha))) == NULL)
			return MG_ENOMEM;
		a->caprows = cap;
	}
	memcpy(a->n, n, nsets * sizeof(*n));
	a->nsets = nsets;
	a->rows = rows;
	if (rows > 0 && (rv = mg_mlp_forward(a->f, X, rows, a->E)) != 0)
		return rv;
	for (t = 0; t < nsets; t++) {
		double mx = -INFINITY, z = 0, *c = a->C + t * d;

		for (i = 0; i < n[t]; i++) {
			double s = 0;

			for (k = 0; k < d; k++)
				s += a->w[k] * a->E[(at + i) * d + k];
			a->alpha[at + i] = s;
			if (s > mx)
				mx = s;
		}
		for (i = 0; i < n[t]; i++) {
			a->alpha[at + i] = exp(a->alpha[at + i] - mx);
			z += a->alpha[at + i];
		}
		memset(c, 0, d * sizeof(*c));
		for (i = 0; i < n[t]; i++) {
			a->alpha[at + i] /= z;
			for (k = 0; k < d; k++)
				c[k] += a->alpha[at + i] * a->E[(at + i) * d +
				    k];
		}
		at += n[t];
	}
	memcpy(C, a->C, nsets * d * sizeof(*C));
	return 0;
}

void
mg_attn_backward(struct mg_attn *a, const double *dC)
{
	size_t d = (size_t)a->d, t, i, k, at = 0;

	/*
	 * c = sum_i alpha_i e_i, alpha = softmax(w . e): with g = dL/dc,
	 * dL/dz_i = alpha_i (g . e_i - g . c), dL/de_i = alpha_i g +
	 * dL/dz_i w, dL/dw = sum_i dL/dz_i e_i
	 */
	for (t = 0; t < a->nsets; t++) {
		const double *g = dC + t * d, *c = a->C + t * d;
		double gc = 0;

		for (k = 0; k < d; k++)
			gc += g[k] * c[k];
		for (i = 0; i < a->n[t]; i++) {
			const double *e = a->E + (at + i) * d;
			double *de = a->dE + (at + i) * d, ge = 0, dz;

			for (k = 0; k < d; k++)
				ge += g[k] * e[k];
			dz = a->alpha[at + i] * (ge - gc);
			for (k = 0; k < d; k++) {
				de[k] = a->alpha[at + i] * g[k] + dz * a->w[k];
				a->gw[k] += dz * e[k];
			}
		}
		at += a->n[t];
	}
	if (a->rows > 0)
		mg_mlp_backward(a->f, a->dE);
}

void
mg_attn_zero_grad(struct mg_attn *a)
{
	mg_mlp_zero_grad(a->f);
	memset(a->gw, 0, (size_t)a->d * sizeof(*a->gw));
}

void
mg_attn_adam(struct mg_attn *a, double lr, double clip)
{
	mg_mlp_adam(a->f, lr, clip);
	mg_adam(a->w, a->gw, a->mw, a->vw, (size_t)a->d, ++a->step, lr, clip);
}
