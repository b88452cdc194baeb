/*
 * target.h: a reliability target met by settings chosen on history.
 *
 * A user states a target, the share of a chain's links that should start
 * without an interruption (99%).  Each method's setting (a model's
 * threshold, the planner's price, the scheduler estimate's margin, a
 * fixed lead) is chosen on the episodes of a training period cut into
 * time-blocked folds: the cheapest point of its curve (the least mean
 * lease given up, or overlap without a handover) whose share reaches the
 * target in every fold, so that a loaded spell is not averaged away.  A
 * fold whose chains no submission time could all bring through (the
 * oracle's bound) asks for the share the bound reaches there.  If no
 * point reaches it, the one whose worst fold brings the most chains
 * through.  The method recommended is the one the training period says
 * is cheapest among those that reach the target.
 *
 * The same settings are then read on other episodes (the evaluated
 * period, never used to choose them): what a user who runs the tool with
 * them gets, written as a table (mirage-eval(1) --target).
 */
#ifndef MG_TARGET_H
#define MG_TARGET_H

#include <stdio.h>

#include "base/status.h"
#include "eval/compare.h"

#define MG_TARGET_MAXFOLDS	16
#define MG_TARGET_MAX		4	/* targets in one run */
#define MG_TARGET_CONFIDENCE	0.95	/* the confidence unless asked */

/* one method's setting for one chain size */
struct mg_choice {
	int point;		/* its curve's point, -1: no setting */
	double setting;		/* the threshold there (view's grid) */
	int reached;		/* the target reached in every fold */
	double worst;		/* the least share of a fold there */
	double bound;		/* the least share the bound reaches in a
				 * fold */
	double cost;		/* mean lease given up (or overlap), hours,
				 * over the training episodes */
	int best;		/* the method recommended for this size */
	size_t n;		/* the episodes chosen on */
	double lower;		/* their share's lower bound there, at the
				 * confidence asked (Clopper-Pearson) */
	int certified;		/* lower reaches the target */
	double promise;		/* what can be promised: the target where
				 * certified, else lower */
	double confidence;	/* the confidence asked */
	enum mg_setting kind;	/* the method's kind of setting */
	int insample;		/* a model trained on the weeks it would be
				 * chosen on: never recommended */
};

/*
 * mg_target_choose_all: for each of the n targets (0 < target < 1), every
 * method's setting in every table of c (the training period's
 * comparison) on folds time-blocked folds, into a block each of *out:
 * ch[table * nmethods + m] (nmethods as mg_compare_nmethods() says;
 * free() it).  A point whose share's lower bound at confidence conf
 * reaches the target (certified) comes before one that only reaches it
 * in every fold.  A model in sample (mg_target_insample()) for
 * models_before is never recommended.  MG_EINVAL if a table has fewer
 * episodes than folds.
 */
int mg_target_choose_all(const struct mg_compare *c, const double *target,
    int n, int folds, double conf, int64_t models_before,
    struct mg_choice **out, struct mg_diag *d);

/*
 * mg_target_insample: 1 if a model whose last episode trained on starts
 * at to (0: not known) was trained on what the episodes chosen on show:
 * those from first, each known workload seconds after its start, when
 * to > first - workload (models_before).  A setting chosen on them
 * would judge the model on its own training.
 */
int mg_target_insample(int64_t to, int64_t models_before);

/*
 * mg_target_training: the training period of the evaluated episodes sel
 * into *ts: count episodes of their kind (0: as many as sel's) from
 * *from, or with from NULL just before them, the last one's workload
 * ending before the first evaluated one starts, so that no job of the
 * evaluated period is seen.  Returns 1 if the period reaches into the
 * evaluated one all the same, else 0.
 */
int mg_target_training(const struct mg_epsel *sel, const int64_t *from,
    long count, struct mg_epsel *ts);

/* mg_target_known: when the last outcome of ts is known (its episode's
 * start and workload) */
int64_t mg_target_known(const struct mg_epsel *ts);

/*
 * mg_target_best: the method to recommend among ch[0..nm) (one size's
 * choices; point -2: not a method), or -1 if none reached the target: a
 * certified one first, then one that decides on the queue now (a margin
 * on an estimate, a model, the planner) before a fixed lead, and a fixed
 * lead before a rule with no setting (afterany, the average wait): the
 * history's waits need not be the coming weeks'; then the cheapest
 */
int mg_target_best(const struct mg_choice *ch, int nm);

/*
 * mg_target_choose_view: one view's setting, as mg_target_choose_all() chooses
 * it (its best flag left 0); v may be a span of a table's episodes
 * (mg_target_span())
 */
void mg_target_choose_view(const struct mg_compare_view *v, double target,
    int folds, double conf, struct mg_choice *ch);

/* mg_target_share: the share of x[lo..hi) without an interruption (1 of
 * none) */
double mg_target_share(const int64_t *x, size_t lo, size_t hi);

/*
 * mg_target_folds: v's share without interruption in each of folds folds
 * at its curve's point (-1: its own setting) into out[0..folds); 1 if
 * that reaches target in every fold (or the bound's share where it is
 * lower), else 0
 */
int mg_target_folds(const struct mg_compare_view *v, int point, int folds,
    double target, double *out);

/*
 * mg_target_span: the episodes lo..hi of v into *out, whose curve's
 * pointers go into xc (v->npoints of them)
 */
void mg_target_span(const struct mg_compare_view *v, size_t lo, size_t hi,
    const int64_t **xc, struct mg_compare_view *out);

/* where a table's settings were chosen: what mirage-advise checks */
struct mg_target_prov {
	int32_t cluster_nodes;	/* the cluster model's nodes */
	int64_t history_end;	/* when the last outcome chosen on was
				 * known (its episode's start + workload) */
	int64_t history_from;	/* the first episode chosen on */
	int64_t models_before;	/* a model trained on an episode that
				 * starts after this is left out */
	char insample[1024];	/* the models left out, in words, or "" */
};

/*
 * mg_target_write: what the settings chs (chosen on another comparison
 * of the same methods and sizes, for each of the nwant targets wants: a
 * block of mg_target_choose_all()'s each) bring on c's episodes, per target,
 * method and size: the share without interruption with its 95% interval
 * (Wilson), the mean lease given up, GPU time held twice, and 30 days of
 * service; in text, each size ends with the method recommended and its
 * lease against the fixed lead's; each row carries pv.
 */
int mg_target_write(const struct mg_compare *c, const struct mg_choice *chs,
    const double *wants, int nwant, const struct mg_target_prov *pv,
    FILE *fp, enum mg_compare_format fmt, struct mg_diag *d);

/* where a model's threshold was chosen (its target_* keys) */
struct mg_target_span {
	double target;
	int64_t handover;	/* seconds, 0: none */
	int folds;
	int64_t from, to;	/* the first and last episode's start */
	size_t episodes;	/* of every size */
};

/* one size's threshold as mg_target_threshold() chose it */
struct mg_target_size {
	int32_t nodes;
	double setting, worst, cost;
	int reached;
};

/*
 * mg_target_threshold: m's threshold chosen for sp->target on the
 * episodes of sel on def (sp->folds time-blocked folds, at confidence
 * conf, on threads threads), as mirage-eval --target chooses it, and m
 * stamped with it: its threshold the most cautious size's, its params
 * the target's keys (target, target_handover_s, target_folds,
 * target_episodes, target_from, target_to, target_worst_share,
 * target_reached, each fold's share); each size's choice into
 * each[0..sel->nsizes).  0, or a status with d naming model (the name
 * of m's file) or trace: a replay that cannot run is MG_EINVAL.
 */
int mg_target_threshold(struct mg_model *m, const char *model,
    const struct mg_clusterdef *def, const struct mg_epsel *sel,
    const char *trace, const struct mg_target_span *sp, double conf,
    int threads, struct mg_target_size *each, double *worst, int *reached,
    double *promise, struct mg_diag *d);

#endif /* MG_TARGET_H */
