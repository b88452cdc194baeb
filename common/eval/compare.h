/*
 * compare.h: the ways of deciding when to submit a chain's successor,
 * compared on the same episodes (episode.h): the baselines (reactive,
 * average-wait, scheduler-estimate, the oracle), the models, the planner
 * and its hybrids with the models, the fixed leads (with a handover) and
 * reactive-preempt (with preemption); each one's outcome episode by
 * episode, its curve as its threshold moves, and the reports made of
 * them (mirage-eval(1)).
 *
 * A comparison is made from its methods (mg_compare_new()), told the
 * episodes' sizes and the features an outcome carries
 * (mg_compare_begin()), fed every outcome in the order of the episodes
 * (mg_compare_run()), then written: the table, the curves, the outcome
 * stream.  The writers format onto the stream the caller gives.
 */
#ifndef MG_COMPARE_H
#define MG_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "decide/rule.h"
#include "episode/episode.h"
#include "io/stream.h"
#include "learn/model.h"
#include "plan/plan.h"

#define MG_COMPARE_NBASE	4	/* the baselines, always compared */
#define MG_COMPARE_MAX		(MG_COMPARE_NBASE + 16)	/* methods in all */
/* models, the planner and reactive-preempt left room for */
#define MG_COMPARE_MAXMODELS	(MG_COMPARE_MAX - MG_COMPARE_NBASE - 2)

/* a hybrid submits where the planner and (or) a model would, or where
 * the planner would with its futures weighed by the model (weight) */
enum mg_hybrid {
	MG_HYBRID_AND = 1,
	MG_HYBRID_OR = 2,
	MG_HYBRID_BOTH = MG_HYBRID_AND | MG_HYBRID_OR,
	MG_HYBRID_WEIGHT = 4
};

/* the table's formats */
enum mg_compare_format { MG_COMPARE_TEXT, MG_COMPARE_TSV, MG_COMPARE_JSON };

struct mg_compareconf {
	struct mg_model *model[MG_COMPARE_MAXMODELS];	/* the caller's */
	const char *name[MG_COMPARE_MAXMODELS];		/* their names */
	int nmodels;
	int plan;		/* the planner is a method */
	int hybrid;		/* enum mg_hybrid bits, 0: none */
	double lambda;		/* the planner's price (plan.h) */
	enum mg_plancost_kind cost;
	int64_t handover;	/* the handover time (seconds), 0: none */
	int preempt;		/* reactive-preempt: S urgent at P's end */
	char namebuf[MG_COMPARE_MAXMODELS][64];	/* mg_compare_models() */
};

struct mg_compare;

/*
 * mg_compare_models: the n model files at path[0..n) read into conf,
 * each named after its file without directory or extension; *window is
 * the most reference snapshots one of them needs (at least 1).  Returns
 * 0, or MG_EIO (a file that does not open) or mg_model_read()'s status,
 * with d naming the file.  mg_compare_models_free() frees the models.
 */
int mg_compare_models(struct mg_compareconf *conf, const char *const *path,
    int n, int *window, struct mg_diag *d);
void mg_compare_models_free(struct mg_compareconf *conf);

/*
 * mg_compare_open: mg_compare_new() and mg_compare_begin() with the names
 * of sel's features.  On a model that needs a feature not there, *bad is
 * its index (else -1).
 */
int mg_compare_open(const struct mg_compareconf *conf,
    const struct mg_epsel *sel, struct mg_compare **out, int *bad,
    struct mg_diag *d);

/*
 * mg_compare_tally: what the planner did in the outcomes res[0..n): the
 * decisions it planned into *decided, of them those with futures of
 * their own into *planned; with cal, its chances against what happened.
 */
void mg_compare_tally(const struct mg_outcome *res, size_t n,
    size_t *decided, size_t *planned, struct mg_plancal *cal);

/*
 * mg_compare_new: a comparison of the baselines and conf's methods.  The
 * models stay the caller's, and must outlive it.  MG_EINVAL when the
 * hybrids or the fixed leads make more methods than MG_COMPARE_MAX.
 */
int mg_compare_new(const struct mg_compareconf *conf,
    struct mg_compare **out, struct mg_diag *d);

/*
 * mg_compare_begin: the episodes compared (sel's sizes: a table each;
 * its P's duration for the service figures) and the names of the nfn
 * features of their outcomes, which each model is bound to.  On a model
 * that needs a feature not there, *bad is its index and d says which.
 */
int mg_compare_begin(struct mg_compare *c, const struct mg_epsel *sel,
    char *const *fnames, size_t nfn, int *bad, struct mg_diag *d);

/*
 * mg_compare_prices: the planner's prices whose decisions the
 * comparison reads (its curve's, then its own); at most
 * MG_PLAN_MAXSTOP into price.  Returns how many.
 */
size_t mg_compare_prices(const struct mg_compare *c, double *price);

/*
 * mg_compare_write: the table (one row per method and size); in text,
 * with a handover, followed by the reach of each method (the least mean
 * lease given up with 99% and 99.9% of the chains through) and 30 days
 * of service.
 */
int mg_compare_write(const struct mg_compare *c, FILE *fp,
    enum mg_compare_format fmt, struct mg_diag *d);

/* mg_compare_write_curve: each curve, the perfect predictors' and the
 * oracle bound's, as TSV (mirage-eval(1)) */
int mg_compare_write_curve(const struct mg_compare *c, FILE *fp,
    struct mg_diag *d);

/*
 * mg_compare_write_outcomes: every method's outcome per episode, as an
 * outcomes stream (mirage-stream(5)) with the writer options wo; the
 * episodes numbered by their start in sel
 */
int mg_compare_write_outcomes(const struct mg_compare *c, FILE *fp,
    const struct mg_epsel *sel, const struct mg_writer_opts *wo,
    struct mg_diag *d);

/* mg_compare_victims_lost: the table'th table's size and episodes, and the
 * node-seconds reactive-preempt's victims lost; 0 if it has none */
int mg_compare_victims_lost(const struct mg_compare *c, int table,
    int32_t *nodes, size_t *n, double *lost);

/*
 * mg_compare_run: the episodes of sel (every size) computed on threads
 * threads, a batch at a time, and added to c in their order; with the
 * planner's estimates if plan is not NULL.  Before a batch's outcomes
 * are released, each(arg, o, n, done, all) sees them (NULL: nothing).
 * Returns 0, or a negative status with d naming the episode.
 */
int mg_compare_run(struct mg_compare *c, const struct mg_clusterdef *def,
    const struct mg_epsel *sel, int window, const struct mg_plan *plan,
    int threads, void (*each)(void *, const struct mg_outcome *, size_t,
    size_t, size_t), void *arg, struct mg_diag *d);

/* one method of one table, as mg_compare_view() shows it */
struct mg_compare_view {
	const char *name;	/* "lead" for the fixed leads' curve */
	enum mg_setting kind;
	const double *grid;	/* the thresholds of its curve, npoints */
	size_t npoints;		/* 0 without a setting */
	int64_t *const *xc;	/* xc[c][k]: episode k's outcome at grid[c] */
	const int64_t *x;	/* episode k's at its own setting */
	const int64_t *bound;	/* episode k's least overlap without an
				 * interruption by any time, -1: none */
	const int64_t *start;	/* episode k's start (its window's) */
	int64_t trained_to;	/* a model's last episode trained on (its
				 * start), 0: no model */
	int32_t nodes;		/* the table's chain size */
	size_t n;		/* its episodes, in the order of their starts */
	int64_t handing;	/* the handover time, 0: none */
	int64_t dur;		/* P's duration */
};

/* how many methods each table has */
int mg_compare_nmethods(const struct mg_compare *c);
int mg_compare_ntables(const struct mg_compare *c);

/*
 * mg_compare_view: method m of table table into v.  Returns 0, or -1
 * for the oracle (it knows the future) and the fixed leads after the
 * first (whose view is "lead", every lead on its curve).
 */
int mg_compare_view(const struct mg_compare *c, int table, int m,
    struct mg_compare_view *v);

void mg_compare_free(struct mg_compare *c);

#endif /* MG_COMPARE_H */
