/*
 * gbt.c: xgboost boosters for model.c; see gbt.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xgboost/c_api.h>

#include "base/dynload.h"
#include "learn/gbt.h"

/* xgboost, loaded when first used (see base/dynload.h) */
#ifndef MG_XGBOOST_SONAME
#define MG_XGBOOST_SONAME "libxgboost.so.0"
#endif
#define XGB_FUNCS(X) X(GetLastError, XGBGetLastError) \
	X(BoosterCreate, XGBoosterCreate) X(BoosterFree, XGBoosterFree) \
	X(BoosterSetParam, XGBoosterSetParam) \
	X(BoosterUpdateOneIter, XGBoosterUpdateOneIter) \
	X(BoosterBoostOneIter, XGBoosterBoostOneIter) \
	X(BoosterPredictFromDMatrix, XGBoosterPredictFromDMatrix) \
	X(BoosterSaveModelToBuffer, XGBoosterSaveModelToBuffer) \
	X(BoosterLoadModelFromBuffer, XGBoosterLoadModelFromBuffer) \
	X(DMatrixCreateFromMat, XGDMatrixCreateFromMat) \
	X(DMatrixSetFloatInfo, XGDMatrixSetFloatInfo) \
	X(DMatrixFree, XGDMatrixFree)
#define FIELD(f, name) __typeof__(name) *f;
#define NAME(f, name) #name,
static struct {
	XGB_FUNCS(FIELD)
} xgb;
static const char *const xgb_names[] = { XGB_FUNCS(NAME) };
static struct mg_dynlib xgb_lib = { MG_XGBOOST_SONAME, "libxgboost0",
	xgb_names, sizeof(xgb_names) / sizeof(xgb_names[0]), &xgb, 0, "" };

/* xgboost's last error, its first line (a stack trace follows) */
static const char *
xgb_error(char *buf, size_t cap)
{
	const char *e = xgb.GetLastError(), *p;

	/* "[04:16:48] ./src/...:407: Expecting ..." */
	if (e[0] == '[' && (p = strchr(e, ' ')) != NULL)
		e = p + 1;
	snprintf(buf, cap, "%.*s", (int)strcspn(e, "\n"), e);
	return buf;
}

static int
xgb_fail(struct mg_diag *d, const char *what)
{
	char b[256];

	return mg_diag_set(d, MG_EFORMAT, "xgboost: %s: %s", what,
	    xgb_error(b, sizeof(b)));
}

static int
set(BoosterHandle b, const char *k, const char *v, char *params, size_t cap)
{
	size_t n = strlen(params);

	snprintf(params + n, cap - n, "%s%s=%s", n ? " " : "", k, v);
	return xgb.BoosterSetParam(b, k, v);
}

/*
 * Boosting on the pinball loss of quantile q (xgboost 1.7 has no quantile
 * objective): each round's gradient is 1 - q where the prediction is
 * above the label and -q where below, with a unit hessian, so the trees
 * move the prediction towards the qth quantile of the labels that share
 * their leaves.
 */
static int
pinball(BoosterHandle b, DMatrixHandle dm, const float *y, size_t n,
    double q, int rounds, struct mg_diag *d)
{
	static const char cfg[] = "{\"type\": 1, \"training\": true, "
	    "\"iteration_begin\": 0, \"iteration_end\": 0, "
	    "\"strict_shape\": false}";
	float *g = malloc(n * sizeof(*g)), *h = malloc(n * sizeof(*h));
	const bst_ulong *shape;
	bst_ulong dim;
	const float *pred;
	size_t k;
	int i, rv = 0;

	if (g == NULL || h == NULL) {
		rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < n; k++)
		h[k] = 1;
	for (i = 0; i < rounds; i++) {
		if (i == 0)
			for (k = 0; k < n; k++)
				g[k] = y[k] < 0 ? (float)(1 - q) : (float)-q;
		else {
			if (xgb.BoosterPredictFromDMatrix(b, dm, cfg, &shape,
			    &dim, &pred)) {
				rv = xgb_fail(d, "training");
				goto out;
			}
			for (k = 0; k < n; k++)
				g[k] = pred[k] > y[k] ? (float)(1 - q) :
				    (float)-q;
		}
		if (xgb.BoosterBoostOneIter(b, dm, g, h, (bst_ulong)n)) {
			rv = xgb_fail(d, "training");
			goto out;
		}
	}
out:
	free(g);
	free(h);
	return rv;
}

int
mg_gbt_train(const char *kind, const float *X, const float *y, size_t n,
    size_t nf, const struct mg_trainopts *o, void **h, unsigned char **buf,
    size_t *len, char *params, size_t cap, struct mg_diag *d)
{
	DMatrixHandle dm = NULL;
	BoosterHandle b = NULL;
	bst_ulong blen;
	const char *bbuf;
	char v[64];
	int rounds, i, rf = strcmp(kind, "rf") == 0, rv = 0;

	*h = NULL;
	*buf = NULL;
	params[0] = '\0';
	if ((rv = mg_dynload(&xgb_lib, d)) != 0)
		return rv;
	if (xgb.DMatrixCreateFromMat(X, (bst_ulong)n, (bst_ulong)nf, NAN,
	    &dm) ||
	    xgb.DMatrixSetFloatInfo(dm, "label", y, (bst_ulong)n) ||
	    xgb.BoosterCreate(&dm, 1, &b)) {
		rv = xgb_fail(d, "cannot set up training");
		goto out;
	}
#define P(k, ...) do { snprintf(v, sizeof(v), __VA_ARGS__); \
	if (set(b, k, v, params, cap)) { rv = xgb_fail(d, k); goto out; } \
	} while (0)
	P("objective", "%s", strcmp(kind, "clf") == 0 ? "binary:logistic" :
	    "reg:squarederror");
	P("tree_method", "hist");
	P("max_depth", "%d", o->depth);
	P("seed", "%llu", (unsigned long long)o->seed);
	P("nthread", "%d", o->threads);
	P("verbosity", "0");
	if (rf) {
		/* xgboost's random forest: one round of parallel trees */
		P("num_parallel_tree", "%d", o->trees);
		P("eta", "1");
		P("subsample", "%g", o->subsample);
		P("colsample_bynode", "%g", o->colsample);
		P("base_score", "0");
		rounds = 1;
	} else {
		P("eta", "%g", o->eta);
		P("subsample", "%g", o->subsample);
		if (strcmp(kind, "gbt") == 0)
			P("base_score", "0");
		rounds = o->rounds;
	}
#undef P
	if (o->quantile > 0 && strcmp(kind, "gbt") == 0)
		snprintf(params + strlen(params), cap - strlen(params),
		    " quantile=%g", o->quantile);
	if (o->quantile > 0 && strcmp(kind, "gbt") == 0) {
		rv = pinball(b, dm, y, n, o->quantile, rounds, d);
		if (rv != 0)
			goto out;
	} else
		for (i = 0; i < rounds; i++)
			if (xgb.BoosterUpdateOneIter(b, i, dm)) {
				rv = xgb_fail(d, "training");
				goto out;
			}
	snprintf(params + strlen(params), cap - strlen(params), " rounds=%d",
	    rounds);
	if (xgb.BoosterSaveModelToBuffer(b, "{\"format\": \"ubj\"}", &blen,
	    &bbuf)) {
		rv = xgb_fail(d, "saving");
		goto out;
	}
	if ((*buf = malloc(blen ? blen : 1)) == NULL) {
		rv = MG_ENOMEM;
		goto out;
	}
	memcpy(*buf, bbuf, blen);
	*len = blen;
	*h = b;
	b = NULL;
out:
	if (b)
		xgb.BoosterFree(b);
	if (dm)
		xgb.DMatrixFree(dm);
	return rv;
}

int
mg_gbt_load(const unsigned char *buf, size_t len, void **h, struct mg_diag *d)
{
	BoosterHandle b;
	int rv;

	*h = NULL;
	if ((rv = mg_dynload(&xgb_lib, d)) != 0)
		return rv;
	if (xgb.BoosterCreate(NULL, 0, &b))
		return xgb_fail(d, "cannot create a booster");
	if (xgb.BoosterLoadModelFromBuffer(b, buf, (bst_ulong)len) ||
	    xgb.BoosterSetParam(b, "nthread", "1")) {
		char e[256];

		xgb.BoosterFree(b);
		return mg_diag_set(d, MG_ECORRUPT, "xgboost cannot load the "
		    "model: %s", xgb_error(e, sizeof(e)));
	}
	*h = b;
	return 0;
}

int
mg_gbt_predict(void *h, const float *X, size_t n, size_t nf, double *out,
    struct mg_diag *d)
{
	static const char cfg[] = "{\"type\": 0, \"training\": false, "
	    "\"iteration_begin\": 0, \"iteration_end\": 0, "
	    "\"strict_shape\": false}";
	DMatrixHandle dm;
	const bst_ulong *shape;
	bst_ulong dim;
	const float *res;
	size_t i;

	if (n == 0)
		return 0;
	if (xgb.DMatrixCreateFromMat(X, (bst_ulong)n, (bst_ulong)nf, NAN, &dm))
		return xgb_fail(d, "prediction matrix");
	if (xgb.BoosterPredictFromDMatrix(h, dm, cfg, &shape, &dim, &res)) {
		xgb.DMatrixFree(dm);
		return xgb_fail(d, "prediction");
	}
	for (i = 0; i < n; i++)
		out[i] = res[i];
	xgb.DMatrixFree(dm);
	return 0;
}

void
mg_gbt_free(void *h)
{
	if (h)
		xgb.BoosterFree(h);
}
