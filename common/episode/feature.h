/*
 * feature.h: what a model sees at a decision time, computed from a
 * struct mg_view (what squeue and sacct would show then) and the chain.
 *
 * Two representations:
 *
 *   paper      the Mirage paper's ("reference" in the tools' options and
 *              the models' columns, r0_, r1_, ...): a snapshot of the queue
 *              and the running jobs reduced to MG_PAPER_SNAP numbers
 *              (counts, node sums, and the 0/25/50/75/100th
 *              percentiles of limits in minutes, waits and elapsed
 *              times in seconds), taken every 10 minutes and kept in a
 *              window, plus MG_PAPER_CHAIN numbers for P and S.  Raw
 *              units, no normalisation, exactly as the original.
 *   own        MG_OWN scale-free values designed to predict the
 *              successor's outcome: the work queued ahead of a job of
 *              S's size at S's priority, the start the backfill plan
 *              gives S if it were submitted now (squeue --start's
 *              estimate) and the same plan with the run times the last
 *              day's jobs had (a fraction of their limits), the
 *              remaining limits of the running jobs, P's
 *              state, time of day and week, the recent start rate and
 *              wait trend.  Hours and fractions of the cluster.
 */
#ifndef MG_FEATURE_H
#define MG_FEATURE_H

#include <stddef.h>
#include <stdint.h>

#include "cluster/view.h"

#define MG_PAPER_SNAP	34
#define MG_PAPER_CHAIN	8
#define MG_OWN		33

/* The chain at the decision time. */
struct mg_chainnow {
	int64_t t;		/* now */
	int64_t p_submit;
	int64_t p_start;	/* -1 while pending */
	int64_t p_elapsed;	/* run time so far, stopped at its end */
	int64_t p_limit;
	int32_t p_nodes;
	int64_t s_limit;
	int32_t s_nodes;
};

/* column names (without a prefix), in order */
extern const char *const mg_paper_snap_names[MG_PAPER_SNAP];
extern const char *const mg_paper_chain_names[MG_PAPER_CHAIN];
extern const char *const mg_own_names[MG_OWN];

/*
 * mg_percentiles: the 0/25/50/75/100th percentiles of x[0..n) (sorted in
 * place) by numpy's default linear interpolation; all 0 if n is 0.
 */
void mg_percentiles(double *x, size_t n, double out[5]);

/*
 * mg_paper_snapshot: the paper's snapshot of v.  scratch holds at least
 * max(v->npend, v->nrun) doubles.
 */
void mg_paper_snapshot(const struct mg_view *v, double *scratch,
    double out[MG_PAPER_SNAP]);

/* mg_paper_chain: the paper's P and S tuples. */
void mg_paper_chain(const struct mg_chainnow *c, double out[MG_PAPER_CHAIN]);

/*
 * mg_own_features: our representation.  v must have been filled for
 * S's size.  Returns 0 or MG_ENOMEM.
 */
int mg_own_features(const struct mg_view *v, const struct mg_chainnow *c,
    double out[MG_OWN]);

/*
 * mg_feature_plan_start: the backfill plan's start for a job of `nodes`
 * nodes and limit seconds submitted now at priority prio: every pending job of
 * higher priority (and the chain's pending jobs) gets the earliest
 * window of its limit in a timeline of free nodes where running jobs end
 * at their limits, then the job does.  *p_start is set to the planned
 * start of the first pending chain job (P), or -1.  Returns the start
 * time, t + 30 days if it never fits, or MG_ENOMEM as a negative value.
 */
int64_t mg_feature_plan_start(const struct mg_view *v, int32_t nodes,
    int64_t limit, double prio, int64_t *p_start);

#endif /* MG_FEATURE_H */
