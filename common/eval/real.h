/*
 * real.h: a reliability target judged by what really happened, not by
 * the cluster model.
 *
 * Every job of a trace that looks like a chain's successor is a test: a
 * job of a chain size's nodes up to twice that, less one, with a limit
 * of a day or more, that started.  At its submission the queue is built
 * again from the trace as squeue would have shown it (the jobs submitted
 * and not yet started, in priority order, and those running, each to
 * its limit), and each rule is asked what its setting must be for this
 * job to have kept its link:
 *
 *   lead      a fixed lead keeps the link when the successor's wait is
 *             at most the lead: the need is the job's real wait;
 *   estimate  the scheduler estimate submits once the backfill plan of
 *             the queue starts the successor at most its margin before
 *             the predecessor's end: the need is the real start less
 *             the start that plan gave the job.
 *
 * Walked forward, as a nightly run chooses: each period's setting, per
 * size and rule, is the smallest that met the target share of the needs
 * of the history's tests (those submitted within the history before the
 * period whose job had started when it begins); it then judges the
 * period's tests.  The adaptive rules (lead-adapt, estimate-adapt)
 * learn from the misses as adaptive conformal inference does (Gibbs and
 * Candes, 2021): the quantile's level starts at the target and, as each
 * test's outcome becomes known (its job starts), rises by
 * MG_REAL_GAMMA x (1 - (1 - target)) after a miss and falls by
 * MG_REAL_GAMMA x (1 - target) after a hit; over a level of 1 the setting
 * is the limit.  The queue's alarm (estimate-load) widens the margin
 * before any outcome arrives: the history's tests are split in thirds
 * by the pending node-hours (eligible jobs' nodes times their limits)
 * at their submission, and a test's margin is the target's quantile of
 * the needs of its own third (of them all, with fewer than the least
 * history in it).  A setting is given at most the predecessor's limit
 * (taken as the successor's own: a chain's links are alike), and a job
 * that waited longer than that is kept by no rule; with c->ahead 2 (the
 * successor's successor queued when the successor is, and aging in the
 * queue meanwhile, as a site whose priority accrues from submission
 * lets it) at most twice that.  What a kept link
 * gave up of its predecessor's lease is the setting less the need.
 * Kept means up: with c->up (the handover and the successor's ready
 * time) every need grows by it, and a link missed is down for the need
 * less the setting (from the predecessor's drain to the successor's
 * ready).  The trace holds only jobs that ran: a
 * job cancelled while pending is missing from the queues built.
 */
#ifndef MG_REAL_H
#define MG_REAL_H

#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "eval/evaluation.h"
#include "io/trace.h"

#define MG_REAL_MAXSIZES	8
#define MG_REAL_MAXMONTHS	24

/* the two rules, each chosen as the history's quantile (static) and
 * with a level that learns from the misses (adaptive) */
enum mg_real_rule { MG_REAL_LEAD, MG_REAL_ESTIMATE, MG_REAL_LEAD_ADAPT,
	MG_REAL_ESTIMATE_ADAPT, MG_REAL_ESTIMATE_LOAD, MG_REAL_RULES };

/* the adaptive rules' step: a miss raises the quantile's level by about
 * this, a hit lowers it by this times the share of misses allowed */
#define MG_REAL_GAMMA	0.01

struct mg_realconf {
	int64_t from, until;	/* the tests judged: submitted in [from, until) */
	int64_t period;		/* a setting's span (a day) */
	int64_t history;	/* chosen on (28 days) */
	double target;		/* the share of links kept (0 to 1) */
	double confidence;	/* of the lower bounds (0.95) */
	int32_t sizes[MG_REAL_MAXSIZES];
	int nsizes;
	int32_t nodes;		/* the cluster's */
	int64_t min_limit;	/* a successor's limit at least (a day) */
	int64_t handover;	/* both jobs hold their nodes (0: none) */
	int64_t up;		/* how long before its predecessor's limit a
				 * successor must start to serve from it on:
				 * the handover and its ready time (0) */
	size_t min_history;	/* fewer tests in a history: no setting */
	int ahead;		/* the links a chain keeps queued: 1, or 2
				 * (the successor's successor queued before
				 * the successor starts: a lead of up to two
				 * limits) */
};

struct mg_real;

/* mg_realconf_eval: c from an evaluation's walk: its episodes' span and
 * sizes (resolved), period, history, target and confidence, on a
 * cluster of `nodes`; limits of a day or more, at least 20 tests to
 * choose on.  0, or MG_EINVAL for a walk with models or the
 * planner, which the real jobs do not judge (d says so). */
int mg_realconf_eval(struct mg_realconf *c, const struct mg_evalconf *ev,
    int32_t nodes, struct mg_diag *d);

/*
 * mg_real_run: t's tests walked forward as c says.  0 with *out set
 * (free with mg_real_free()), MG_EINVAL (no size, a span of more than
 * MG_REAL_MAXMONTHS months, a size over the cluster) or MG_ENOMEM, d
 * saying why.
 */
int mg_real_run(const struct mg_trace *t, const struct mg_realconf *c,
    struct mg_real **out, struct mg_diag *d);

/*
 * mg_real_write: per size and rule, month by month and in all, the tests
 * judged, the links kept, their share and its lower bounds at the
 * confidence asked (by links, Clopper and Pearson's; by days, a block
 * bootstrap, never above the first), the mean setting, the lease a kept
 * link gave up, what any rule could keep, and the misses against the
 * month's budget;
 * as TSV, or (text) in words.  0 or MG_EIO.
 */
int mg_real_write(const struct mg_real *r, FILE *fp, int text,
    struct mg_diag *d);

/*
 * mg_real_write_settings: the settings of the period after the span (a
 * walk over the history before a day: mg_realconf_eval without a walk),
 * as a table mirage-advise --settings reads (mirage-eval --target's
 * columns; judge "real", the adaptive level, the walk's share), or
 * (text) in words.  Per size, the adaptive estimate's margin and the
 * adaptive lead, the one that kept more of the walk recommended; reached
 * if it keeps the target share of the history in sample; the promise
 * the target where the walk's lower bound by days certifies it, else
 * that bound (never above what any rule kept).  0 or MG_EIO.
 */
int mg_real_write_settings(const struct mg_real *r, FILE *fp, int text,
    struct mg_diag *d);

/*
 * mg_real_write_tests: each test, a TSV line: its job, size, submission,
 * real wait, the estimate's need, and per rule the setting of its
 * period and whether it kept the link (empty: not judged, a test of
 * the first history only or one with too few before it).  0 or MG_EIO.
 */
int mg_real_write_tests(const struct mg_real *r, FILE *fp,
    struct mg_diag *d);

void mg_real_free(struct mg_real *r);

#endif /* MG_REAL_H */
