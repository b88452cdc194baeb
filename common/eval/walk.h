/*
 * walk.h: a reliability target judged as it is deployed, walking
 * forward.
 *
 * The evaluated span is cut into periods (a day, a week).  For each
 * period, every method's setting is chosen (target.h) only on the
 * episodes of the history before it: those that start within the
 * history's length before the period and whose workload has ended when
 * it starts, the window a nightly run would have.  The setting then
 * decides the period's episodes.  A row "recommended" follows, in each
 * period, the method the history recommended, as mirage-advise
 * --target --settings does with the table of that night.  A model's
 * setting is chosen only on the history's episodes that start after its
 * training episodes' workload ended; until the whole history is such,
 * it is not compared with the others (never recommended), and until
 * there are enough of them to fold, it promises nothing.
 *
 * What is kept is pooled over the periods and given month by month: the
 * share of links without an interruption, its one-sided lower bound at
 * the confidence asked (Clopper and Pearson), the lease given up, GPU
 * time held twice, what was promised (target.h: the target where the
 * history certified it, else the history's lower bound) and what any
 * submission time could have kept (the oracle's bound).
 */
#ifndef MG_WALK_H
#define MG_WALK_H

#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "eval/compare.h"

#define MG_WALK_MAXMONTHS	24

struct mg_walkconf {
	int64_t from;		/* the first period's start */
	int64_t period;		/* its length (seconds) */
	int64_t history;	/* the history chosen on (seconds) */
	int64_t workload;	/* an episode's outcome is known this long
				 * after its start */
	double target, confidence;
	int folds;		/* the history's time-blocked folds */
	int64_t handover;	/* the episodes' handover (seconds, 0: none),
				 * said with the choices */
};

struct mg_walk;

/*
 * mg_walk_episodes: the episodes a walk over sel needs, as one span: a
 * history and a workload before sel's first (in whole steps of sel's),
 * then sel's
 */
struct mg_epsel mg_walk_episodes(const struct mg_epsel *sel,
    int64_t history);

/*
 * mg_walk_run: c's episodes (which reach back a history and a workload
 * before wc->from) walked forward.  MG_EINVAL if a period's history has
 * fewer episodes than folds, or more months than MG_WALK_MAXMONTHS are
 * evaluated.
 */
int mg_walk_run(const struct mg_compare *c, const struct mg_walkconf *wc,
    struct mg_walk **out, struct mg_diag *d);

/* mg_walk_periods: how many periods were walked */
int mg_walk_periods(const struct mg_walk *w);

/*
 * mg_walk_write: the table, a row per method, size and month and one
 * for all the months ("all"); in text, the months side by side and, for
 * each size, a bottom line: what following the recommendation kept
 * against what it promised, and its lease against the fixed lead's.
 */
int mg_walk_write(const struct mg_walk *w, FILE *fp,
    enum mg_compare_format fmt, struct mg_diag *d);

/*
 * mg_walk_write_choices: every period's choice, as TSV: the period's
 * start, the size, the method, the first and last start of the history's
 * episodes (epoch seconds) and the number it was chosen on (0: a model
 * with too few episodes it was not trained on), the setting, whether it
 * reached the target in every fold and was certified, its promise, and
 * whether the history recommended it
 */
int mg_walk_write_choices(const struct mg_walk *w, FILE *fp,
    struct mg_diag *d);

void mg_walk_free(struct mg_walk *w);

#endif /* MG_WALK_H */
