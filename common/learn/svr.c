/*
 * svr.c: libsvm's epsilon-SVR for model.c; see svr.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libsvm/svm.h>

#include "base/dynload.h"
#include "learn/svr.h"

/* libsvm, loaded when first used (see base/dynload.h) */
#ifndef MG_LIBSVM_SONAME
#define MG_LIBSVM_SONAME "libsvm.so.3"
#endif
#define SVM_FUNCS(X) X(set_print_string_function) X(check_parameter) \
	X(train) X(free_and_destroy_model) X(save_model) X(load_model) \
	X(predict)
#define FIELD(f) __typeof__(svm_##f) *f;
#define NAME(f) "svm_" #f,
static struct {
	SVM_FUNCS(FIELD)
} svm;
static const char *const svm_names[] = { SVM_FUNCS(NAME) };
static struct mg_dynlib svm_lib = { MG_LIBSVM_SONAME, "libsvm3", svm_names,
	sizeof(svm_names) / sizeof(svm_names[0]), &svm, 0, "" };

static void
quiet(const char *s)
{
	(void)s;
}

/* a temporary file name (created, empty); 0 or MG_EIO */
static int
tmpname(char *buf, size_t cap, struct mg_diag *d)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(buf, cap, "%s/mirage-svr-XXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkstemp(buf)) < 0)
		return mg_diag_set(d, MG_EIO, "temporary file %s: %s", buf,
		    strerror(errno));
	close(fd);
	return 0;
}

/* rows of nf values as libsvm's nodes (index from 1, -1 ends a row) */
static struct svm_node *
nodes(const float *X, size_t n, size_t nf, struct svm_node ***rows)
{
	struct svm_node *v = malloc(n * (nf + 1) * sizeof(*v) + 1);
	size_t i, k;

	*rows = malloc((n ? n : 1) * sizeof(**rows));
	if (v == NULL || *rows == NULL) {
		free(v);
		free(*rows);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		struct svm_node *r = v + i * (nf + 1);

		(*rows)[i] = r;
		for (k = 0; k < nf; k++) {
			r[k].index = (int)k + 1;
			r[k].value = X[i * nf + k];
		}
		r[nf].index = -1;
	}
	return v;
}

int
mg_svr_train(const float *X, const float *y, size_t n, size_t nf,
    const struct mg_trainopts *o, void **h, unsigned char **buf, size_t *len,
    char *params, size_t cap, struct mg_diag *d)
{
	struct svm_parameter p;
	struct svm_problem prob;
	struct svm_model *m;
	struct svm_node *v, **rows;
	const char *why;
	char path[512];
	double *yy;
	size_t i;
	FILE *fp;
	long sz = 0;
	int rv;

	*h = NULL;
	*buf = NULL;
	if ((rv = mg_dynload(&svm_lib, d)) != 0)
		return rv;
	svm.set_print_string_function(quiet);
	if ((v = nodes(X, n, nf, &rows)) == NULL ||
	    (yy = malloc((n ? n : 1) * sizeof(*yy))) == NULL) {
		if (v) {
			free(v);
			free(rows);
		}
		return MG_ENOMEM;
	}
	for (i = 0; i < n; i++)
		yy[i] = y[i];
	memset(&p, 0, sizeof(p));
	p.svm_type = EPSILON_SVR;
	p.kernel_type = RBF;
	p.gamma = o->gamma > 0 ? o->gamma : 1.0 / (double)nf;
	p.C = o->C;
	p.p = o->epsilon;
	p.eps = 1e-3;
	p.cache_size = 200;
	p.shrinking = 1;
	prob.l = (int)n;
	prob.y = yy;
	prob.x = rows;
	snprintf(params, cap, "kernel=rbf gamma=%g C=%g epsilon=%g", p.gamma,
	    p.C, p.p);
	if ((why = svm.check_parameter(&prob, &p)) != NULL) {
		rv = mg_diag_set(d, MG_EINVAL, "libsvm: %s", why);
		goto out;
	}
	srand((unsigned)o->seed);
	m = svm.train(&prob, &p);
	if ((rv = tmpname(path, sizeof(path), d)) != 0) {
		svm.free_and_destroy_model(&m);
		goto out;
	}
	rv = svm.save_model(path, m);
	svm.free_and_destroy_model(&m);
	if (rv != 0 || (fp = fopen(path, "rb")) == NULL) {
		unlink(path);
		rv = mg_diag_set(d, MG_EIO, "libsvm cannot save its model");
		goto out;
	}
	rv = 0;
	if (fseek(fp, 0, SEEK_END) != 0 || (sz = ftell(fp)) < 0 ||
	    fseek(fp, 0, SEEK_SET) != 0 || (*buf = malloc((size_t)sz + 1)) ==
	    NULL || fread(*buf, 1, (size_t)sz, fp) != (size_t)sz)
		rv = mg_diag_set(d, MG_EIO, "cannot read libsvm's model back");
	fclose(fp);
	unlink(path);
	if (rv == 0) {
		*len = (size_t)sz;
		rv = mg_svr_load(*buf, *len, h, d);
	}
out:
	free(v);
	free(rows);
	free(yy);
	return rv;
}

int
mg_svr_load(const unsigned char *buf, size_t len, void **h, struct mg_diag *d)
{
	char path[512];
	FILE *fp;
	struct svm_model *m;
	int rv;

	*h = NULL;
	if ((rv = mg_dynload(&svm_lib, d)) != 0 ||
	    (rv = tmpname(path, sizeof(path), d)) != 0)
		return rv;
	if ((fp = fopen(path, "wb")) != NULL) {
		rv = fwrite(buf, 1, len, fp) != len;
		rv |= fclose(fp) != 0;
	}
	if (fp == NULL || rv != 0) {
		unlink(path);
		return mg_diag_set(d, MG_EIO, "cannot write libsvm's model to "
		    "%s", path);
	}
	m = svm.load_model(path);
	unlink(path);
	if (m == NULL)
		return mg_diag_set(d, MG_ECORRUPT, "libsvm cannot load the "
		    "model");
	*h = m;
	return 0;
}

int
mg_svr_predict(void *h, const float *X, size_t n, size_t nf, double *out,
    struct mg_diag *d)
{
	struct svm_node *r = malloc((nf + 1) * sizeof(*r));
	size_t i, k;

	if (r == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		for (k = 0; k < nf; k++) {
			r[k].index = (int)k + 1;
			r[k].value = X[i * nf + k];
		}
		r[nf].index = -1;
		out[i] = svm.predict(h, r);
	}
	free(r);
	return 0;
}

void
mg_svr_free(void *h)
{
	struct svm_model *m = h;

	if (m)
		svm.free_and_destroy_model(&m);
}
