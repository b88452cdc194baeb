/*
 * gbt.h: tree ensembles through xgboost's C API, for model.c: boosted
 * regression trees (gbt), a random forest (rf: one round of parallel
 * trees on row and feature samples, xgboost's own recipe) and a boosted
 * classifier (clf).
 */
#ifndef MG_GBT_H
#define MG_GBT_H

#include <stddef.h>

#include "learn/model.h"

/*
 * mg_gbt_train: fit kind on n rows of nf features; *h is the booster,
 * *buf (malloc'd, *len bytes) its JSON model; params gets a description
 * of the hyperparameters.  0 or a negative status with d set.
 */
int mg_gbt_train(const char *kind, const float *X, const float *y, size_t n,
    size_t nf, const struct mg_trainopts *o, void **h, unsigned char **buf,
    size_t *len, char *params, size_t cap, struct mg_diag *d);

int mg_gbt_load(const unsigned char *buf, size_t len, void **h,
    struct mg_diag *d);

int mg_gbt_predict(void *h, const float *X, size_t n, size_t nf, double *out,
    struct mg_diag *d);

void mg_gbt_free(void *h);

#endif /* MG_GBT_H */
