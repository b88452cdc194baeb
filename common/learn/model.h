/*
 * model.h: models of when to submit, and their file format.
 *
 * A model maps the features of a decision time to a score: the
 * predicted outcome x in hours (regressors: submit when the score is at
 * least -threshold, i.e. the predicted overlap is at most threshold
 * hours) or the probability that S would start after P's end if
 * submitted now (classifiers: submit when it is at least the accepted
 * risk threshold).
 *
 * Kinds: "gbt" gradient-boosted trees and "rf" a random forest (both
 * through xgboost's C API), "clf" a boosted-tree classifier, "svr"
 * epsilon-SVR (libsvm), "dqn" a Deep Q-Network (score: Q(submit) -
 * Q(wait), threshold 0) and "pg" a policy-gradient agent (score: its
 * probability of submitting, threshold 0.5), both on the RL core (rl.h),
 * and "relmas", not a model of when to submit but the learned
 * dispatcher of DNN inference inside a node (relmas.h; score: a pair's).  A model file is a magic, a version, the header
 * (kind, feature names and their normalisation, the reference window
 * they need, hyperparameters, seed, training period, provenance, a
 * classifier's calibration), the
 * backend's own bytes, and a CRC32 of everything; see mirage-model(5).
 */
#ifndef MG_MODEL_H
#define MG_MODEL_H

#define MG_MODEL_MAXWINDOW	200	/* as mirage-features computes */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/status.h"

#define MG_MODEL_MAJOR	1
#define MG_MODEL_MINOR	2
/* the features' definitions; bumped when a feature changes meaning */
#define MG_FEATURES_VERSION	2

struct mg_model {
	char kind[8];		/* gbt, rf, clf, svr, dqn, pg, relmas */
	int classifier;		/* submit when score >= threshold (else
				 * when the predicted x >= -threshold) */
	double threshold;	/* the default decision threshold */
	uint32_t features_version;
	size_t nfeat;
	char **names;		/* feature names, as in the samples stream */
	double *mean, *scale;	/* x' = (x - mean) / scale */
	uint32_t window;	/* reference snapshots the features need,
				 * 0 (none) to MG_MODEL_MAXWINDOW */
	char *params;		/* hyperparameters, "key=value ..." */
	uint64_t seed;
	int64_t from, to;	/* first and last episode start trained on */
	uint64_t nsamples;
	char *producer, *args;
	size_t ncal;		/* knots of a classifier's calibration */
	double *cal_x, *cal_y;	/* raw probability -> observed frequency
				 * (mg_interp()), or none */
	char *cluster;		/* 1.2: the cluster and trace trained on, as
				 * mg_clusterdef_describe() says; NULL or
				 * "" if not known */
	unsigned char *payload;	/* the backend's model */
	size_t npayload;
	void *impl;		/* the loaded backend */
};

/* training settings; mg_trainopts_init() sets the defaults */
struct mg_trainopts {
	int rounds;		/* boosting rounds (gbt, clf) */
	int depth;		/* tree depth */
	double eta;		/* learning rate */
	int trees;		/* trees of a forest (rf) */
	double subsample;	/* rows per tree */
	double colsample;	/* features per split (rf) */
	double C, epsilon, gamma;	/* svr; gamma 0: 1 / features */
	double quantile;	/* gbt: fit this quantile of x (pinball
				 * loss) instead of its mean; 0: mean */
	int threads;
	uint64_t seed;
};

void mg_trainopts_init(struct mg_trainopts *o);

struct mg_pairnet;

/*
 * mg_model_set_pairnet: net, trained, as the scorer of "relmas" model m
 * (accel/relmas.h), which then owns it.  0 or MG_ENOMEM.
 */
int mg_model_set_pairnet(struct mg_model *m, struct mg_pairnet *net);

/*
 * mg_model_kind: what a kind of model is, as MG_KIND_* flags; 0 for a
 * name that is no kind.  Callers ask it instead of naming kinds.
 */
#define MG_KIND_KNOWN		1	/* a kind of this build */
#define MG_KIND_WHEN		2	/* decides when to submit a successor
					 * (relmas dispatches inside a node) */
#define MG_KIND_EPISODES	4	/* learns by playing episodes, not
					 * from samples */
#define MG_KIND_CLASSIFIER	8	/* scores a chance, not hours */
#define MG_KIND_POLICY		16	/* the chance of submitting now,
					 * accumulated over the ticks (pg) */
#define MG_KIND_SMALL		32	/* trained on MG_MODEL_SMALL samples
					 * by default: its time grows as
					 * their square (svr) */
#define MG_MODEL_SMALL		4000
unsigned mg_model_kind(const char *name);

/* mg_model_new: an empty model of kind with n features (names copied) */
int mg_model_new(const char *kind, char *const *names, size_t n,
    struct mg_model **out, struct mg_diag *d);

/*
 * mg_model_train: fit m to n rows of X (n x m->nfeat, row-major, raw
 * features) and targets y (hours of x, or 0/1 for a classifier).  Sets
 * the normalisation, the payload and the backend.  Returns 0, or a
 * negative status with d set.
 */
int mg_model_train(struct mg_model *m, const float *X, const float *y,
    size_t n, const struct mg_trainopts *o, struct mg_diag *d);

/*
 * mg_model_predict: scores of n rows of raw features X (n x m->nfeat),
 * a classifier's mapped through its calibration.  Not thread-safe on one
 * model.  Returns 0 or a negative status.
 */
int mg_model_predict(struct mg_model *m, const float *X, size_t n,
    double *out, struct mg_diag *d);

/* mg_model_write: the model file on fp.  0 or MG_EIO / MG_ENOMEM. */
int mg_model_write(FILE *fp, const struct mg_model *m, struct mg_diag *d);

/*
 * mg_model_read: a model file from fp (name for messages), checked
 * (magic, version, CRC32, structure) and its backend loaded.  Returns 0
 * and *out, or MG_ECORRUPT, MG_ECHECKSUM, MG_ETRUNC, MG_EVERSION,
 * MG_ENOMEM with d set.
 */
int mg_model_read(FILE *fp, const char *name, struct mg_model **out,
    struct mg_diag *d);

/*
 * mg_model_read_container: the same checks without loading the backend
 * (m->impl stays NULL: the model cannot predict).  For tools that only
 * describe a model, and for fuzzing the container's parser apart from
 * the libraries' own loaders.
 */
int mg_model_read_container(FILE *fp, const char *name, struct mg_model **out,
    struct mg_diag *d);

void mg_model_free(struct mg_model *m);

struct mg_rlenv;
struct mg_rlopts;

/*
 * mg_model_train_rl: train a dqn or pg model (made by mg_model_new() with
 * the names of env's features) in the environment env, whose mean and
 * scale are set here from its episodes.  Returns 0 or < 0 with d set.
 */
int mg_model_train_rl(struct mg_model *m, struct mg_rlenv *env,
    const struct mg_rlopts *o, struct mg_diag *d);

/*
 * mg_model_calibrate: what m's predictions are worth, from a twin of m
 * trained on the first 80 % of its n samples (in time order) and tested
 * on the last 20 %: a regressor's residual spread (mg_model_spread()),
 * a classifier's calibration (its raw probabilities against what
 * happened, isotonic over at most 64 bins, kept when it is not
 * constant).  Nothing when the last 20 % holds fewer than 10 samples.
 * 0, or a negative status with d set.
 */
int mg_model_calibrate(struct mg_model *m, const float *X, const float *y,
    size_t n, const struct mg_trainopts *to, struct mg_diag *d);

/*
 * mg_model_spread: a regressor's residual spread, the 10th and 90th
 * percentiles of x - x_hat (hours) that mirage-train keeps in its
 * parameters (resid_p10, resid_p90).  Returns 0, or -1 with both NAN
 * (a classifier, or a model without them).
 */
int mg_model_spread(const struct mg_model *m, double *p10, double *p90);

/*
 * The residuals by the prediction's size: bands of |x_hat| below 2, 8
 * and 24 hours, and above; a band's spread is kept (resid_p10_bK,
 * resid_p90_bK) when the held-out samples hold MG_MODEL_BAND_MIN of it.
 */
#define MG_MODEL_BANDS		4
#define MG_MODEL_BAND_MIN	20

/* mg_model_band: the band of a prediction of pred hours */
int mg_model_band(double pred);

/*
 * mg_model_spread_at: the spread of a prediction of pred hours: its
 * band's, or (a model without bands) the spread over all.  0, or -1
 * with both NAN: a classifier, or no held-out prediction of that size
 * to measure it on.
 */
int mg_model_spread_at(const struct mg_model *m, double pred, double *p10,
    double *p90);

/*
 * mg_model_param: the number a key=value of m's parameters holds, as
 * mirage-train --target keeps them (target, target_handover_s, ...).
 * Returns 0, or -1 if the key is not there or not a number.
 */
int mg_model_param(const struct mg_model *m, const char *key, double *v);

/*
 * mg_model_bind: where each of m's features is among names[0..n) (the
 * features a caller computes): col[i] for m's feature i (col holds
 * m->nfeat).  Returns 0, or MG_ETYPE with d naming a feature the caller
 * does not compute (a model of another feature schema).
 */
int mg_model_bind(const struct mg_model *m, char *const *names, size_t n,
    size_t *col, struct mg_diag *d);

/*
 * mg_model_write_info: what m (read from path) says about itself, a
 * "key<TAB>value" line each: its kind, score, threshold, features (with
 * their scaling), what it was trained on and by what; a classifier's
 * calibration knots (mirage-train(1) -i)
 */
void mg_model_write_info(FILE *fp, const char *path,
    const struct mg_model *m);

/*
 * mg_model_check: can m (read whole, with mg_model_read()) be used?  Its
 * features are ones this build computes (mg_episode_feature_names() for
 * its window), and it scores a row to a finite number.  A relmas model,
 * whose features are the accelerator model's, is scored only.  Returns
 * 0, or MG_ETYPE or MG_ECORRUPT with d saying why, or MG_ENOMEM.
 */
int mg_model_check(struct mg_model *m, struct mg_diag *d);

#endif /* MG_MODEL_H */
