/*
 * advise.h: the decision mirage-advise makes for a chain on a live
 * cluster: submit the successor S of the chain's running job P now, or
 * wait; by a model of the gap (learn/model.h) computed from the queue,
 * or by the planner (plan/plan.h) over futures drawn from the queue and
 * the history; and the report of it, as text or JSON
 * (mirage-advise(1)).
 */
#ifndef MG_ADVISE_H
#define MG_ADVISE_H

#include <stdint.h>
#include <stdio.h>

#include "base/parse.h"
#include "learn/model.h"
#include "live/event.h"
#include "live/live.h"
#include "plan/plan.h"

#define MG_ADVISE_PERIOD	600	/* decisions, snapshots: 10 minutes */
/* handing over, what both jobs holding their nodes costs: the planner
 * prices the lease given up beyond it */
#define MG_ADVISE_HANDOVER	600

/* the question */
struct mg_advise {
	const char *job;	/* P */
	int64_t now;
	int now_given;		/* now is --now, not the clock */
	int32_t nodes;		/* the cluster's (up) */
	int32_t s_nodes;	/* S's nodes and limit, 0: P's */
	int64_t s_limit;
	double prio;		/* S's priority, NAN: the recent median */
	double threshold;	/* the model's, NAN: its own */
	const char *model;	/* the model's file, in messages */
	const char *partition;	/* or NULL */
	int handover;		/* the chain hands over */
	double lambda;		/* the planner's price */
	enum mg_tz tz;		/* times in the report */
};

/* the decision and what it rests on */
struct mg_advice {
	int submit;		/* 1 submit now, 0 wait */
	const char *rule;	/* model, planner, reactive, dependency, ... */
	char why[512];
	char note[MG_DIAG_MAX + 256];	/* a fallback's reason, or "" */
	double score;		/* the model's output, NAN without one */
	double p10, p90;	/* a regressor's residual spread, or NAN */
	double risk;		/* the planner's chance of an interruption
				 * if it waits, or NAN */
	int classifier;
	int64_t next;		/* the next useful check */
	int64_t p_start, p_limit, p_end;	/* -1 if unknown */
	int32_t p_nodes;
	int p_state;		/* 0 in no dump, 1 pending, 2 running,
				 * 3 ended, 4 unknown (no queue) */
	int p_preempted;	/* ended, preempted (not at its limit) */
	char submitted[32];	/* a job submitted by this run */
	int dependency;		/* submitted with afterany on P */
	/* what the settings promise for the chain's size: the share of
	 * links, at confidence, and the history's bound on any rule (what
	 * any submission time could keep); NAN: no promise stated */
	double promise, confidence, bound;
	int certified;		/* the promise is the target, certified */
};

/* mg_advice_init: no decision yet, nothing known */
void mg_advice_init(struct mg_advice *a);

/* mg_advise_find: P's state in the dumps l, as of now, into a */
void mg_advise_find(struct mg_live *l, const char *job, int64_t now,
    struct mg_advice *a);

/*
 * mg_advise_misfit: what makes model m a poor fit for q's cluster
 * (another node count by a quarter or more, another partition, a trace
 * that ended long before now, few samples), a sentence each into
 * msg[0..max); returns how many
 */
int mg_advise_misfit(const struct mg_advise *q, const struct mg_model *m,
    char (*msg)[512], int max);

/*
 * mg_advise_model: model m's decision for q's running P, from the queue
 * in l.  0; -1 with a->note set when m cannot decide (a feature it needs
 * is not computed, it fails to predict); MG_ENOMEM.
 */
int mg_advise_model(const struct mg_advise *q, struct mg_model *m,
    struct mg_live *l, struct mg_advice *a);

/*
 * mg_advise_plan: the planner's decision for q's running P (settings
 * pc), from the queue in l, the history tr of ended jobs and the
 * capacity cap (cap->n 0: the nodes up now hold).  0; -1 with a->note
 * set; MG_ENOMEM.
 */
int mg_advise_plan(const struct mg_advise *q, const struct mg_planconf *pc,
    struct mg_live *l, const struct mg_trace *tr,
    const struct mg_capacity *cap, struct mg_advice *a);

/*
 * mg_advise_lead, mg_advise_estimate: the rules a target may choose
 * (mirage-eval --target) for q's running P: a fixed lead (submit once at
 * most lead_h hours of P's limit are left), or the scheduler estimate's
 * margin (submit once the backfill plan of the queue in l starts S,
 * submitted now, at most margin_h hours before P's end).  The estimate
 * returns 0 or MG_ENOMEM.
 */
void mg_advise_lead(const struct mg_advise *q, double lead_h,
    struct mg_live *l, struct mg_advice *a);
int mg_advise_estimate(const struct mg_advise *q, double margin_h,
    struct mg_live *l, struct mg_advice *a);

/*
 * mg_advise_rule: the decisions no model is needed for, into a (P's
 * state found by mg_advise_find()): the queue could not be read
 * (queue_ok 0: submit with an afterany dependency on P), P has ended
 * (submit), P has not started (wait).  Returns 1 when a is decided, 0
 * for a running P.
 */
int mg_advise_rule(const struct mg_advise *q, int queue_ok,
    struct mg_advice *a);

/*
 * mg_advise_ready: whether a model or the planner can decide for q's
 * running P: not when the cluster's node count is unknown (why: what
 * sinfo said, or ""), the queue lacks limits or submission times, or P
 * has no limit; a->note says which.  A note already set is left, and
 * the answer is yes.
 */
int mg_advise_ready(const struct mg_advise *q, struct mg_live *l,
    const char *why, struct mg_advice *a);

/*
 * mg_advise_reactive: where no model, planner or chosen rule decided,
 * the reactive rule: wait, and submit when P ends; modelless: no model
 * was loaded and the planner was not asked (none_asked: nor was a
 * model).  Then, for a decision to wait, the next useful check.
 */
void mg_advise_reactive(const struct mg_advise *q, int modelless,
    int none_asked, struct mg_advice *a);

/* mg_advise_write: the report of decision a (as text, or JSON) */
void mg_advise_write(FILE *fp, const struct mg_advise *q,
    const struct mg_advice *a, const char *decision, int json);

#endif /* MG_ADVISE_H */
