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
#include "learn/compare.h"

#define MG_TARGET_MAXFOLDS	16
#define MG_TARGET_MAX		4	/* targets in one run */

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
};

/*
 * mg_target_choose: every method's setting in every table of c (the
 * training period's comparison) for target (0 < target < 1) on folds
 * time-blocked folds, into ch[table * nmethods + m] (nmethods as
 * mg_compare_nmethods() says).  MG_EINVAL if a table has fewer episodes
 * than folds.
 */
int mg_target_choose(const struct mg_compare *c, double target, int folds,
    struct mg_choice *ch, struct mg_diag *d);

/*
 * mg_target_folds: v's share without interruption in each of folds
 * folds at its curve's point (-1: its own setting) into out[0..folds);
 * 1 if that reaches target in every fold (or the bound's share where it
 * is lower), else 0
 */
int mg_target_folds(const struct mg_compare_view *v, int point, int folds,
    double target, double *out);

/* mg_target_setting_name: what kind's setting is, in words ("margin_h",
 * "risk", "price", "lead_h", "-") */
const char *mg_target_setting_name(enum mg_setting kind);

/*
 * mg_target_write: what the settings chs (chosen on another comparison
 * of the same methods and sizes, for each of the nwant targets wants: a
 * block of mg_target_choose()'s each) bring on c's episodes, per target,
 * method and size: the share without interruption with its 95% interval
 * (Wilson), the mean lease given up, GPU time held twice, and 30 days of
 * service; in text, each size ends with the method recommended and its
 * lease against the fixed lead's.
 */
int mg_target_write(const struct mg_compare *c, const struct mg_choice *chs,
    const double *wants, int nwant, FILE *fp, enum mg_compare_format fmt,
    struct mg_diag *d);

#endif /* MG_TARGET_H */
