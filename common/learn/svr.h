/*
 * svr.h: epsilon-SVR with an RBF kernel through libsvm, for model.c.
 * Features arrive normalised.  libsvm saves and loads models only by
 * path, so the model's bytes pass through a temporary file.
 */
#ifndef MG_SVR_H
#define MG_SVR_H

#include <stddef.h>

#include "learn/model.h"

int mg_svr_train(const float *X, const float *y, size_t n, size_t nf,
    const struct mg_trainopts *o, void **h, unsigned char **buf, size_t *len,
    char *params, size_t cap, struct mg_diag *d);

int mg_svr_load(const unsigned char *buf, size_t len, void **h,
    struct mg_diag *d);

int mg_svr_predict(void *h, const float *X, size_t n, size_t nf, double *out,
    struct mg_diag *d);

void mg_svr_free(void *h);

#endif /* MG_SVR_H */
