/*
 * evaluation.h: mirage-eval's protocol, set up once: the ways of deciding
 * (the baselines, the models, the planner and its hybrids; compare.h) on
 * one trace's episodes and its cluster model, compared on the episodes
 * evaluated as they are, after a target's settings were chosen on a
 * training period before them (target.h), or walked forward (walk.h).
 * Each batch of outcomes goes to the caller's callback; the caller writes
 * the results with the writers of those headers.
 */
#ifndef MG_EVALUATION_H
#define MG_EVALUATION_H

#include <stdio.h>

#include "base/status.h"
#include "cluster/cluster.h"
#include "eval/compare.h"
#include "eval/target.h"
#include "eval/walk.h"
#include "io/trace.h"
#include "plan/plan.h"

struct mg_evalconf {
	struct mg_epsel sel;	/* the episodes evaluated */
	const char *model[MG_COMPARE_MAXMODELS];	/* model files */
	int nmodels;
	struct mg_planconf pc;	/* the planner: a method if asked for
				 * (pc.given & MG_PLAN_GIVEN_PLAN) */
	double lambda;		/* its price; under a handover, unless
				 * given, the handover's */
	int hybrid;		/* enum mg_hybrid bits */
	int fit_calibration;	/* the knots that calibrate the planner's
				 * chances here (--plan-fit-calibration) */
	int keep_decisions;	/* every planner's decision is read (a
				 * hybrid, a calibration) */
	int64_t handover;	/* seconds, 0: none */
	int64_t ready_time;	/* a successor's start to ready (--real) */
	int ahead;		/* the links a chain keeps queued (--real):
				 * 0 or 1, the successor; 2, also the
				 * successor's successor */
	int threads;
	FILE *say;		/* what was chosen and found, in words, or
				 * NULL */
	const char *prefix;	/* before each line said: "" */
	/* each batch of outcomes, with how many are done of all */
	void (*each)(void *, const struct mg_outcome *, size_t, size_t,
	    size_t);
	void *arg;
	/* a target's settings: its shares, folds and confidence; the
	 * training period's first episode (NULL: just before sel's) and
	 * count (0: as many as sel's); a walk's period and history */
	double target[MG_TARGET_MAX];
	int ntarget, folds;
	double confidence;
	int64_t train_from;
	int have_train_from;
	long train_count;
	int64_t walk, history;
};

/* mg_evalconf_init: the paper's episodes, no model, no planner (its
 * defaults), every CPU's thread, no target */
void mg_evalconf_init(struct mg_evalconf *c);

/*
 * mg_evalconf_set: setting name ("target": shares separated by commas,
 * "folds", "confidence", "train-from", "train-count", "walk-forward",
 * "history", "hybrid", "handover") to arg.  Returns 0, or MG_EINVAL with
 * d naming the option and its bad value.
 */
int mg_evalconf_set(struct mg_evalconf *c, const char *name,
    const char *arg, struct mg_diag *d);

/*
 * mg_evalconf_check: the settings that do not go together (MG_EINVAL,
 * d saying which), and the defaults that depend on others: a target's
 * 4 folds at 95%, a walk's 28 days of history (which must hold as many
 * ended episodes as folds), the planner's price under a handover.
 */
int mg_evalconf_check(struct mg_evalconf *c, struct mg_diag *d);

struct mg_evaluation {
	struct mg_evalconf *c;
	const struct mg_clusterdef *def;
	struct mg_compareconf cc;
	struct mg_plan *plan;	/* NULL: no planner */
	int window;		/* the reference snapshots the models need */
	int bad;		/* after mg_evaluation_run(): the model whose
				 * features are not there, or -1 */
	struct mg_compare *walked;	/* the walk's comparison, which its
					 * rows name methods of */
	size_t decided, planned;	/* the planner's decisions in the
					 * last comparison; of them, with
					 * futures of their own */
	struct mg_plancal *cal;	/* not NULL: its chances against what
				 * happened are counted into it */
};

/*
 * mg_evaluation_open: c's models read, its methods checked, its planner
 * given what def implies and set up on t, its episodes resolved on def,
 * into ev (which keeps c and def).  Returns 0, or a status with d saying
 * why: a model's (MG_EIO: a file that does not open; MG_ETYPE: one that
 * needs more than 200 snapshots), MG_EINVAL (too many methods, planner
 * settings, episodes), MG_ENOMEM.
 */
int mg_evaluation_open(struct mg_evaluation *ev, struct mg_evalconf *c,
    const struct mg_clusterdef *def, const struct mg_trace *t,
    struct mg_diag *d);

/*
 * mg_evaluation_run: the methods compared on sel's episodes into *out.
 * MG_EINVAL (and ev->bad >= 0) for a model bound to features not there;
 * else mg_compare_run()'s status.  With c->say, the planner's decisions
 * and reactive-preempt's cost to other jobs.
 */
int mg_evaluation_run(struct mg_evaluation *ev, const struct mg_epsel *sel,
    struct mg_compare **out, struct mg_diag *d);

/*
 * mg_evaluation_choose: the training period (mg_target_training())
 * compared, and every method's
 * setting for each target chosen on it into *out
 * (mg_target_choose_all()), where and when into *pv; with c->say, on
 * what.  *run is 1 if the comparison itself failed (its status:
 * mg_evaluation_run()'s).
 */
int mg_evaluation_choose(struct mg_evaluation *ev, struct mg_choice **out,
    struct mg_target_prov *pv, int *run, struct mg_diag *d);

/*
 * mg_evaluation_walk: the episodes of the walk (mg_walk_episodes())
 * compared and walked forward into *out, valid until ev is closed; *run
 * as above; with c->say, how many periods.
 */
int mg_evaluation_walk(struct mg_evaluation *ev, struct mg_walk **out,
    int *run, struct mg_diag *d);

void mg_evaluation_close(struct mg_evaluation *ev);

#endif /* MG_EVALUATION_H */
