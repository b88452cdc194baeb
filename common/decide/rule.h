/*
 * rule.h: the ways of deciding when to submit a chain's successor, in
 * one place for the comparison that chooses their settings (eval/), many
 * chains at once (eval/adoption) and the live chain (live/).
 *
 * A method is known by its name and the kind of its setting.  A model's
 * score passes its threshold by mg_rule_submits(), at a decision tick of
 * an episode and on a live view alike: a regressor predicts x, the
 * successor's start less its predecessor's end in hours, and a
 * successor cannot start before now, so the prediction is first raised
 * to -(the hours the predecessor has left).
 */
#ifndef MG_RULE_H
#define MG_RULE_H

#include <stddef.h>

#include "episode/episode.h"
#include "learn/model.h"

/* what a method's setting is, and so its curve's thresholds */
enum mg_setting {
	MG_SETTING_NONE,	/* it has one way of deciding */
	MG_SETTING_MARGIN,	/* hours of predicted overlap accepted */
	MG_SETTING_RISK,	/* a classifier's accepted risk */
	MG_SETTING_PRICE,	/* the planner's price (lambda) */
	MG_SETTING_LEAD		/* a fixed lead, hours before P's end */
};

/* mg_rule_setting_name: what kind's setting is, in words ("margin_h",
 * "risk", "price", "lead_h", "-") */
const char *mg_rule_setting_name(enum mg_setting kind);

/* mg_rule_setting_kind: the kind whose name (as mg_rule_setting_name()
 * writes it) is name: 0, or -1 if none is */
int mg_rule_setting_kind(const char *name, enum mg_setting *kind);

/*
 * mg_rule_plain: whether method with a setting of kind decides from the
 * queue alone, with no model or planner: a fixed lead ("lead", lead_h)
 * or the scheduler estimate's margin ("scheduler-estimate", margin_h).
 * These are the rules many chains at once and a live chain without -m
 * or --plan can apply.
 */
int mg_rule_plain(const char *method, enum mg_setting kind);

/* mg_rule_estimate_col: the scheduler estimate's column (plan_gap_h:
 * the backfill plan's start for the successor less its predecessor's
 * end, hours) among a chain's own features, mg_own_names (MG_OWN
 * if they had none) */
size_t mg_rule_estimate_col(void);

/* mg_rule_lead: a fixed lead of lead_h hours submits once at most that
 * is left of the predecessor's limit (left_h hours) */
int mg_rule_lead(double left_h, double lead_h);

/* mg_rule_estimate: the scheduler estimate with a margin of margin_h
 * hours submits once the backfill plan starts the successor, submitted
 * now, at most the margin before its predecessor's end (gap_h, hours,
 * the estimate's column: negative before the end) */
int mg_rule_estimate(double gap_h, double margin_h);

/*
 * mg_rule_submits: whether m's score for submitting now passes the
 * threshold thr: a classifier's when it is at least thr; a regressor's
 * predicted x, in hours, first raised to -left_h (a successor cannot
 * start before now, so at most the left_h hours its predecessor has
 * left, when not negative, can overlap it; *score is raised with it),
 * when it is at least -thr.
 */
int mg_rule_submits(const struct mg_model *m, double *score, double thr,
    double left_h);

/*
 * mg_rule_ticks: m's scores at the decision ticks of o before its
 * predecessor's end (score[j] for the j-th, in order) raised as
 * mg_rule_submits() raises them, so that mg_protocol_choose_first() at
 * the threshold (-thr for a regressor) submits at the first tick where
 * mg_rule_submits() would.
 */
void mg_rule_ticks(const struct mg_model *m, const struct mg_outcome *o,
    double *score);

/*
 * mg_rule_model_now: whether m decides from the view at one tick alone,
 * as the live chain and many chains at once ask it: 0, or MG_ETYPE with
 * d saying why not (a policy, pg, submits by the chance it has submitted
 * since its predecessor's first tick, which the comparison sums over the
 * episode's ticks and a run at one tick cannot know).
 */
int mg_rule_model_now(const struct mg_model *m, struct mg_diag *d);

/*
 * A model bound to the features of a chain's view: each of its features'
 * column among those the episodes compute with its window of reference
 * snapshots taken period seconds apart (mg_episode_feature_names()), and
 * room for one decision: the caller fills feat, in those columns' order,
 * and mg_rule_score() scores it.
 */
struct mg_rule_model {
	struct mg_model *m;
	size_t *col;		/* m->nfeat columns into feat */
	double *feat;		/* own, the snapshots, chain */
	float *X;
};

/* mg_rule_bind: m bound into b.  0, MG_ENOMEM, or MG_ETYPE (a feature
 * this build does not compute) with d saying which */
int mg_rule_bind(struct mg_rule_model *b, struct mg_model *m,
    int64_t period, struct mg_diag *d);

/* mg_rule_score: m's score of b->feat into *score: 0 or a status */
int mg_rule_score(struct mg_rule_model *b, double *score, struct mg_diag *d);

/* mg_rule_unbind: b's room freed (not its model) */
void mg_rule_unbind(struct mg_rule_model *b);

#endif /* MG_RULE_H */
