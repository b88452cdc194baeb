/*
 * nn.c: multi-layer perceptrons on cblas_dgemm and Adam; see nn.h.
 *
 * Layer l maps A_l (batch x s_l) to Z_{l+1} = A_l W_l + b_l, with
 * A_{l+1} = relu(Z_{l+1}) for hidden layers and the identity at the
 * output.  All parameters live in one vector (W_0, b_0, W_1, ...), so
 * that Adam, copies and files see one array.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "base/dynload.h"
#include "base/rand.h"
#include "learn/nn.h"
#include "base/status.h"

/* OpenBLAS, loaded when first used (see base/dynload.h) */
#ifndef MG_OPENBLAS_SONAME
#define MG_OPENBLAS_SONAME "libopenblas.so.0"
#endif
static struct {
	__typeof__(cblas_dgemm) *dgemm;
	__typeof__(openblas_set_num_threads) *set_num_threads;
} blas;
static const char *const blas_names[] = { "cblas_dgemm",
	"openblas_set_num_threads" };
static struct mg_dynlib blas_lib = { MG_OPENBLAS_SONAME, "libopenblas0",
	blas_names, 2, &blas, 0, "" };

int
mg_mlp_blas(int threads, struct mg_diag *d)
{
	int rv = mg_dynload(&blas_lib, d);

	if (rv == 0 && threads > 0)
		blas.set_num_threads(threads);
	return rv;
}

struct mg_mlp {
	int nl;			/* layers of weights */
	int size[MG_MLP_MAXLAYERS + 1];
	size_t np;
	double *p, *g, *m, *v;	/* parameters, gradients, Adam moments */
	size_t woff[MG_MLP_MAXLAYERS], boff[MG_MLP_MAXLAYERS];
	long step;
	size_t batch, capbatch;
	double *act[MG_MLP_MAXLAYERS + 1];	/* A_0 .. A_nl */
	double *dz, *da;	/* scratch for backward */
};

int
mg_mlp_new(const int *sizes, int nlayers, uint64_t seed, struct mg_mlp **out)
{
	struct mg_mlp *n;
	uint64_t s = seed;
	size_t off = 0, i;
	int l;

	*out = NULL;
	if (nlayers < 2 || nlayers > MG_MLP_MAXLAYERS + 1)
		return MG_EINVAL;
	if (mg_mlp_blas(0, NULL) != 0)
		return MG_EIO;
	for (l = 0; l < nlayers; l++)
		if (sizes[l] <= 0 || sizes[l] > 100000)
			return MG_EINVAL;
	if ((n = calloc(1, sizeof(*n))) == NULL)
		return MG_ENOMEM;
	n->nl = nlayers - 1;
	for (l = 0; l < nlayers; l++)
		n->size[l] = sizes[l];
	for (l = 0; l < n->nl; l++) {
		n->woff[l] = off;
		off += (size_t)sizes[l] * (size_t)sizes[l + 1];
		n->boff[l] = off;
		off += (size_t)sizes[l + 1];
	}
	n->np = off;
	n->p = calloc(off, sizeof(double));
	n->g = calloc(off, sizeof(double));
	n->m = calloc(off, sizeof(double));
	n->v = calloc(off, sizeof(double));
	if (!n->p || !n->g || !n->m || !n->v) {
		mg_mlp_free(n);
		return MG_ENOMEM;
	}
	for (l = 0; l < n->nl; l++) {
		double lim = sqrt(6.0 / sizes[l]);
		size_t nw = (size_t)sizes[l] * (size_t)sizes[l + 1];

		for (i = 0; i < nw; i++)
			n->p[n->woff[l] + i] = lim * ((double)(mg_rand64(&s) >> 11) /
			    9007199254740992.0 * 2 - 1);
	}
	*out = n;
	return 0;
}

void
mg_mlp_free(struct mg_mlp *n)
{
	int l;

	if (n == NULL)
		return;
	for (l = 0; l <= n->nl; l++)
		free(n->act[l]);
	free(n->dz);
	free(n->da);
	free(n->p);
	free(n->g);
	free(n->m);
	free(n->v);
	free(n);
}

int
mg_mlp_copy_params(struct mg_mlp *dst, const struct mg_mlp *src)
{
	if (dst->np != src->np)
		return MG_EINVAL;
	memcpy(dst->p, src->p, src->np * sizeof(double));
	return 0;
}

static int
widest(const struct mg_mlp *n)
{
	int l, w = 0;

	for (l = 0; l <= n->nl; l++)
		if (n->size[l] > w)
			w = n->size[l];
	return w;
}

int
mg_mlp_forward(struct mg_mlp *n, const double *X, size_t batch, double *out)
{
	int l, o = n->size[n->nl];
	size_t i, k;

	if (batch > n->capbatch) {
		for (l = 0; l <= n->nl; l++) {
			free(n->act[l]);
			n->act[l] = malloc(batch * (size_t)n->size[l] *
			    sizeof(double));
			if (n->act[l] == NULL)
				goto nomem;
		}
		free(n->dz);
		free(n->da);
		n->dz = malloc(batch * (size_t)widest(n) * sizeof(double));
		n->da = malloc(batch * (size_t)widest(n) * sizeof(double));
		if (n->dz == NULL || n->da == NULL)
			goto nomem;
		n->capbatch = batch;
	}
	n->batch = batch;
	memcpy(n->act[0], X, batch * (size_t)n->size[0] * sizeof(double));
	for (l = 0; l < n->nl; l++) {
		int a = n->size[l], b = n->size[l + 1];
		double *z = n->act[l + 1];
		const double *bias = n->p + n->boff[l];

		for (i = 0; i < batch; i++)
			memcpy(z + i * (size_t)b, bias, (size_t)b *
			    sizeof(double));
		blas.dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
		    (int)batch, b, a, 1.0, n->act[l], a, n->p + n->woff[l], b,
		    1.0, z, b);
		if (l + 1 < n->nl)
			for (k = 0; k < batch * (size_t)b; k++)
				if (z[k] < 0)
					z[k] = 0;
	}
	memcpy(out, n->act[n->nl], batch * (size_t)o * sizeof(double));
	return 0;
nomem:
	n->capbatch = 0;
	return MG_ENOMEM;
}

void
mg_mlp_backward(struct mg_mlp *n, const double *dout)
{
	mg_mlp_backward_input(n, dout, NULL);
}

void
mg_mlp_backward_input(struct mg_mlp *n, const double *dout, double *dx)
{
	size_t batch = n->batch, i, k;
	int l, j;

	/* dZ at the output is dL/d(out) */
	memcpy(n->dz, dout, batch * (size_t)n->size[n->nl] * sizeof(double));
	for (l = n->nl - 1; l >= 0; l--) {
		int a = n->size[l], b = n->size[l + 1];
		double *gb = n->g + n->boff[l];

		/* dW += A_l^T dZ; db += column sums of dZ */
		blas.dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, a, b,
		    (int)batch, 1.0, n->act[l], a, n->dz, b, 1.0,
		    n->g + n->woff[l], b);
		for (i = 0; i < batch; i++)
			for (j = 0; j < b; j++)
				gb[j] += n->dz[i * (size_t)b + (size_t)j];
		if (l == 0) {
			/* dX = dZ W_0^T: the inputs are not through a ReLU */
			if (dx != NULL)
				blas.dgemm(CblasRowMajor, CblasNoTrans,
				    CblasTrans, (int)batch, a, b, 1.0, n->dz, b,
				    n->p + n->woff[0], b, 0.0, dx, a);
			break;
		}
		/* dA_l = dZ W^T, then through the ReLU of layer l */
		blas.dgemm(CblasRowMajor, CblasNoTrans, CblasTrans,
		    (int)batch, a, b, 1.0, n->dz, b, n->p + n->woff[l], b,
		    0.0, n->da, a);
		for (k = 0; k < batch * (size_t)a; k++)
			n->dz[k] = n->act[l][k] > 0 ? n->da[k] : 0;
	}
}

void
mg_mlp_zero_grad(struct mg_mlp *n)
{
	memset(n->g, 0, n->np * sizeof(double));
}

void
mg_adam(double *p, const double *grad, double *m, double *v, size_t n,
    long step, double lr, double clip)
{
	const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
	double norm = 0, s = 1, c1, c2;
	size_t i;

	if (clip > 0) {
		for (i = 0; i < n; i++)
			norm += grad[i] * grad[i];
		norm = sqrt(norm);
		if (norm > clip)
			s = clip / norm;
	}
	c1 = 1 - pow(b1, (double)step);
	c2 = 1 - pow(b2, (double)step);
	for (i = 0; i < n; i++) {
		double g = grad[i] * s;

		m[i] = b1 * m[i] + (1 - b1) * g;
		v[i] = b2 * v[i] + (1 - b2) * g * g;
		p[i] -= lr * (m[i] / c1) / (sqrt(v[i] / c2) + eps);
	}
}

void
mg_mlp_adam(struct mg_mlp *n, double lr, double clip)
{
	mg_adam(n->p, n->g, n->m, n->v, n->np, ++n->step, lr, clip);
}

size_t
mg_mlp_nparams(const struct mg_mlp *n)
{
	return n->np;
}

double *
mg_mlp_params(struct mg_mlp *n)
{
	return n->p;
}

double *
mg_mlp_grads(struct mg_mlp *n)
{
	return n->g;
}

int
mg_mlp_layers(const struct mg_mlp *n, int *sizes)
{
	int l;

	for (l = 0; l <= n->nl; l++)
		sizes[l] = n->size[l];
	return n->nl + 1;
}
