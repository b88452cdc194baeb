/*
 * plan.h: deciding when to submit a chain's successor by simulating the
 * cluster's likely futures from what Slurm shows now.
 *
 * At a decision time t the planner sees a struct mg_view (the pending
 * and running jobs with their limits, elapsed times and priorities, as
 * squeue shows them) and the history of the trace before t (the jobs
 * that had ended by t, the jobs submitted before t), nothing else.  It
 * draws K futures, each
 *   - a run time for every running job (at least its elapsed time) and
 *     every pending job, from an empirical model of the share of the
 *     limit used, by user and limit class (or limit class alone), over
 *     the jobs that ended in the last history seconds before t;
 *   - the jobs that arrive over the horizon: a block bootstrap of the
 *     past, blocks of hours each from one of the last 28 days at the
 *     same time of day (or the same hours of the same weekday one to
 *     four weeks before), shifted to now (their run times known if they
 *     had ended by t, else drawn as above);
 * and runs each future in a cluster model started from the view: the
 * faithful one (Slurm's schedulers), or the reference one for a world
 * in reference mode; running jobs hold their nodes until their drawn
 * end, pending jobs keep their priorities now.  One forward run
 * per future, copied at each candidate time, gives x = S's start - P's
 * end for S submitted then.
 *
 * The decision is optimal stopping, open-loop: submit now if the
 * expected cost of submitting now is no higher than that of any later
 * candidate time (mg_plan_submit_now()), where the cost is the chance
 * of an interruption + lambda x the overlap hours (the two axes of the
 * evaluation's curve: chains without interruption, mean overlap), or
 * with MG_PLAN_HOURS the interruption hours + lambda x the overlap
 * hours.  lambda is the knob of the method's curve.
 */
#ifndef MG_PLAN_H
#define MG_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "cluster/view.h"
#include "io/trace.h"

#define MG_PLAN_MAXCAND	16	/* candidate times, now included */
#define MG_PLAN_MAXSTOP	24	/* prices mg_plan_decided() follows */
#define MG_PLAN_MAXK	64	/* futures */

/*
 * The price of an hour of overlap (MG_PLAN_LAMBDA), and of an hour of
 * lease given up when the chain hands over (MG_PLAN_HANDOVER_LAMBDA):
 * each the median of what pipelines/plan-folds.sh chose on time-blocked
 * folds of LS6's training period (mirage-planner(7)).
 */
#define MG_PLAN_LAMBDA		1.5
#define MG_PLAN_HANDOVER_LAMBDA	0.001

/* what an interruption costs */
enum mg_plancost_kind {
	MG_PLAN_RISK,		/* its chance: chains interrupted */
	MG_PLAN_HOURS,		/* its expected hours */
	MG_PLAN_RISK_CV		/* its chance, and the plan that waits
				 * chosen on half the futures and judged
				 * on the other half (both ways), so that
				 * the least of many noisy costs does not
				 * make waiting look cheaper than it is */
};

/* the cluster model the futures run in */
enum mg_planmodel {
	MG_PLAN_FAITHFUL,	/* Slurm's schedulers (cluster.h), the
				 * pending jobs in the order of their
				 * priorities now: for a real cluster */
	MG_PLAN_REFERENCE	/* the original's scheduler, its priorities
				 * taken from the view: in evaluation, the
				 * reference world's own model */
};

/* how the arrivals of a future are drawn from the past */
enum mg_planarrivals {
	MG_PLAN_ARR_WEEK,	/* the jobs submitted over the same hours of
				 * the same weekday, one to four weeks back
				 * (one week drawn per future) */
	MG_PLAN_ARR_BLOCKS	/* blocks of block seconds, each from one of
				 * the last 28 days at the same time of day */
};

/* the run-time model's groups */
enum mg_planruntimes {
	MG_PLAN_RT_CLASS,	/* all jobs of the limit class */
	MG_PLAN_RT_USER,	/* the user's own jobs of the limit class
				 * when there are at least 5, else all */
	MG_PLAN_RT_RECENT	/* the user's last recent jobs of the limit
				 * class that ran longer than the job has,
				 * else as MG_PLAN_RT_USER */
};

/* how a future's capacity follows the past day its arrivals come from */
enum mg_plancap {
	MG_PLAN_CAP_DELTA,	/* now's, changed as that day's changed from
				 * the same time of day on */
	MG_PLAN_CAP_DAY,	/* that day's */
	MG_PLAN_CAP_NOW		/* now's, all along (the command gives no
				 * history) */
};

struct mg_planconf {
	int k;			/* futures drawn at each decision: 8 */
	uint64_t seed;		/* with the decision time, seeds its draws */
	int64_t window;		/* plan only when P ends within it: 24 h;
				 * before, waiting costs nothing */
	int64_t history;	/* run-time model: jobs ended in the last
				 * history seconds: 30 days */
	int64_t margin;		/* arrivals drawn up to P's end + margin */
	enum mg_plancost_kind cost;	/* MG_PLAN_RISK: a run stops at P's
				 * end, an interruption's length unknown */
	enum mg_planmodel model;	/* MG_PLAN_FAITHFUL */
	enum mg_planarrivals arrivals;	/* MG_PLAN_ARR_BLOCKS */
	int64_t block;		/* MG_PLAN_ARR_BLOCKS: 4 h */
	int64_t rate;		/* > 0: each block's arrivals thinned or
				 * repeated by the ratio of the jobs
				 * submitted over the last rate seconds to
				 * those over the same span before the
				 * block's day (0: off) */
	enum mg_planruntimes runtimes;	/* MG_PLAN_RT_USER */
	int recent;		/* MG_PLAN_RT_RECENT: 10 */
	int max_jobs_pu;	/* the cluster's limits per user that the
				 * faithful model keeps (MaxJobsPerUser,
				 * MaxTRESPerUser=node); 0: none */
	int max_nodes_pu;
	/*
	 * the cluster's capacity over the past (borrowed; what sacctmgr
	 * show event records of nodes down and drained): cap_nodes[k]
	 * nodes from cap_time[k] on.  The planner reads only the points
	 * before now; a future's capacity after cap_hold seconds is drawn
	 * from the past day its arrivals come from (cap_model).  cap_n 0:
	 * the capacity now holds.
	 */
	const int64_t *cap_time;
	const int32_t *cap_nodes;
	size_t cap_n;
	enum mg_plancap cap_model;	/* MG_PLAN_CAP_DELTA */
	int64_t cap_hold;	/* 0 */
	/*
	 * follow > 0: users resubmit.  A job submitted within follow
	 * seconds after one of its user's jobs ended (or up to a minute
	 * before) follows it.  Each running job of the view is followed
	 * as one of its user's jobs that ended in the history window,
	 * drawn at random (of its size if the user has any), was: by
	 * that job's follower, submitted as long after the running job's
	 * drawn end, unless the user already has a job pending that was
	 * submitted since it started; the arrivals drawn from a past day
	 * leave out the followers of the jobs that ran at that day's now.
	 * 0: off.
	 */
	int64_t follow;
	int episode_draws;	/* the same random numbers at every
				 * decision of a stream (common random
				 * numbers), not new ones each time */
	/* a calibration of the chances of interruption (mg_plancal),
	 * submitting now (0) and later (1); none if ncal is 0 */
	int ncal[2];
	double calp[2][MG_PLAN_MAXK + 1], calq[2][MG_PLAN_MAXK + 1];
	unsigned truth;		/* diagnostics only (evaluation): what the
				 * planner is told of the true future */
	/*
	 * handover > 0: the chain hands over in handover seconds (P
	 * checkpoints and leaves that long after S starts): no plan
	 * while P is pending, and a price is of an hour of P's limit
	 * given up (mg_plan_submit_handover()); 0: none.
	 */
	int64_t handover;
	/*
	 * every > 0: a decision within every seconds of the last planned
	 * one, at one of its candidate times before the last, reads that
	 * plan from there instead of drawing new futures
	 * (mg_plan_reuse()): 30 minutes; 0: each decision is planned.
	 * Only while P ends more than fresh seconds after the decision
	 * (6 h): closer, where a plan is cheap and most submissions are
	 * decided, each decision is planned.
	 */
	int64_t every;
	int64_t fresh;
	/*
	 * evaluation: an episode's decisions stop being planned once
	 * submitting now has been chosen at every price of
	 * stop[0..nstop) (mg_plan_decided()); nstop 0: every decision.
	 */
	double stop[MG_PLAN_MAXSTOP];
	int nstop;
	unsigned given;		/* MG_PLAN_GIVEN_*: the options given by
				 * mg_plan_option() */
};
#define MG_PLAN_GIVEN_PLAN	1u	/* plan: the planner is asked for */
#define MG_PLAN_GIVEN_LAMBDA	2u	/* lambda */
#define MG_PLAN_GIVEN_MODEL	4u	/* plan-model */
#define MG_PLAN_GIVEN_LIMITS	8u	/* plan-limits */
#define MG_PLAN_GIVEN_WINDOW	16u	/* plan-window */

/* the true futures a diagnostic planner is told (mg_planconf.truth) */
#define MG_PLAN_TRUE_RUNTIMES	1u	/* of the view's jobs and arrivals */
#define MG_PLAN_TRUE_ARRIVALS	2u	/* the trace's jobs after now */

/* mg_planconf_default: the defaults above, seed 1, MG_PLAN_RISK, the
 * faithful model, arrivals in 4-hour blocks, run times by user, plans
 * reused for 30 minutes until 6 hours before P's end. */
void mg_planconf_default(struct mg_planconf *pc);

/*
 * mg_planconf_world: what pc takes from the world it plans in, def,
 * where its options did not set it (pc->given): a handover (seconds, 0:
 * none) with a window over all of P's limit, the world's own cluster
 * model, its limits per user as sacctmgr shows them (faithful), its
 * capacity over the past (faithful, unless the capacity now is assumed).
 */
struct mg_clusterdef;
void mg_planconf_world(struct mg_planconf *pc, const struct mg_clusterdef *def,
    int64_t limit, int64_t handover);

/*
 * mg_plan_option: the planner's options shared by the commands: name
 * "plan" (the futures, 1 to MG_PLAN_MAXK), "lambda" (a positive price,
 * into *lambda), "plan-seed", "plan-model" ("faithful", "reference") or
 * "plan-arrivals" ("week", "blocks[:H][,rate[:W]]") or "plan-runtimes"
 * ("class", "user", "recent", "recent:N") or "plan-calibration" (as
 * mg_plancal_knots() writes it) or "plan-limits" ("none", "JOBS[:NODES]")
 * or "plan-capacity" ("delta", "day" or "now", each with ":M", the
 * minutes the capacity now holds) or "plan-followers" ("none" or M,
 * the minutes from 1 to 1440 within which a resubmission follows),
 * "plan-cost" ("risk", "hours", "risk-cv"), "plan-draws" ("decision",
 * "episode"), "plan-truth" ("none", "runtimes", "arrivals", "both"),
 * "plan-window" (a span up to 4 days), with its argument.  Returns 0,
 * or MG_EINVAL with d saying what is wrong.
 */
int mg_plan_option(struct mg_planconf *pc, double *lambda, const char *name,
    const char *arg, struct mg_diag *d);

/*
 * The planner's chances of interruption are shares of K futures.  On
 * past episodes they can be checked against what happened: mg_plancal
 * counts, per candidate kind (submitting now, 0; later, 1) and share
 * k/K, the candidates and those that were interrupted.
 * mg_plancal_knots() makes a calibration of them: the observed
 * frequencies made nondecreasing (pool adjacent violators), as the
 * option string "p:q,.../p:q,..." (now / later) that "plan-calibration"
 * takes; it returns the string's length, or -1 if len is too short or
 * a kind has no candidate.
 */
struct mg_plancal {
	int k;			/* K */
	double n[2][MG_PLAN_MAXK + 1], y[2][MG_PLAN_MAXK + 1];
};
int mg_plancal_knots(const struct mg_plancal *cal, char *buf, size_t len);

/* What the chain's owner knows of P and S at the decision time. */
struct mg_planchain {
	int64_t p_start;	/* -1 while P is pending */
	int64_t p_end;		/* P's end if started (start + run time) */
	int64_t p_dur;		/* P's run time, for a P still pending */
	int64_t p_limit;
	int32_t p_nodes;
	int32_t nodes;		/* S's */
	int64_t s_limit, s_dur;
	int64_t world_end;	/* diagnostics: the last submission the
				 * world replays (INT64_MAX: none) */
};

/*
 * The planner's estimate at one decision time: for S submitted at at[c]
 * (at[0] the decision time itself, later ones ascending, the last at or
 * after P's end), the mean over the futures of the interruption and
 * overlap hours.
 */
struct mg_plancost {
	int n;
	int64_t at[MG_PLAN_MAXCAND];
	double intr[MG_PLAN_MAXCAND];	/* MG_PLAN_HOURS only */
	double ovl[MG_PLAN_MAXCAND];
	double pint[MG_PLAN_MAXCAND];	/* share of futures interrupted */
	/* the same over the even and the odd futures */
	double hpint[2][MG_PLAN_MAXCAND], hovl[2][MG_PLAN_MAXCAND];
	/* each future's x (S's start - P's end, seconds) at each candidate,
	 * for methods that weigh the futures (mg_plan_weigh()) */
	int32_t xk[MG_PLAN_MAXK][MG_PLAN_MAXCAND];
	int k;			/* futures drawn */
	int64_t planned;	/* when they were drawn: at[0], or earlier
				 * for a plan reused (mg_plan_reuse()) */
};

/*
 * mg_plan_weigh: c's chances and overlaps over its futures weighed by
 * w[0..c->k) (not all 0), into out (the halves are the whole's).  The
 * calibration is not applied.
 */
void mg_plan_weigh(const struct mg_plancost *c, const double *w,
    struct mg_plancost *out);

struct mg_plan;

/*
 * mg_plan_new: a planner for a cluster of `nodes` nodes (its node count
 * now is the view's), with the history of trace t (borrowed; it must
 * outlive the planner).  Returns 0, MG_EINVAL for a bad configuration,
 * or MG_ENOMEM.  A planner is read-only once made: threads may share it.
 */
int mg_plan_new(const struct mg_planconf *pc, const struct mg_trace *t,
    struct mg_plan **out);

void mg_plan_free(struct mg_plan *p);

/*
 * mg_plan_costs: the estimate at time t from view v (the chain's own
 * jobs marked in it are left out: ch describes them).  stream makes
 * independent draws for independent decisions (an episode's number);
 * the result depends only on the planner, v, ch, t and stream.  If P
 * ends after t + window, out->n is 0 (no plan: wait).  Returns 0 or a
 * negative status.
 */
int mg_plan_costs(const struct mg_plan *p, const struct mg_view *v,
    const struct mg_planchain *ch, int64_t t, uint64_t stream,
    struct mg_plancost *out);

/*
 * mg_plan_reuse: the estimate at time t read from prev, an earlier one
 * of the same chain, if the planner reuses plans (mg_planconf.every),
 * prev was planned less than every seconds before t, P ends more than
 * fresh seconds after t (prev's last candidate) and t is one of
 * its candidate times before the last: prev's candidates from t on,
 * into out, and 1.  Else 0: t needs a plan of its own.
 */
int mg_plan_reuse(const struct mg_plan *p, const struct mg_plancost *prev,
    int64_t t, struct mg_plancost *out);

/* mg_plan_own: 1 if c has futures drawn at its own time (not a plan
 * reused), else 0 (or no plan) */
int mg_plan_own(const struct mg_plancost *c);

/*
 * mg_plan_submit_now: 1 if submitting now costs no more than any later
 * candidate at overlap price lambda (per hour of overlap: a chance of
 * interruption, or hours of it), else 0; 0 without a plan.
 */
int mg_plan_submit_now(const struct mg_plancost *c, enum mg_plancost_kind k,
    double lambda);

/*
 * mg_plan_submit_handover: as mg_plan_submit_now() (MG_PLAN_RISK or
 * MG_PLAN_HOURS), for a chain that hands over in handover seconds (P
 * checkpoints and leaves that long after S starts): lambda prices an
 * hour of P's limit given up (an overlap beyond the handover), not an
 * hour of overlap.
 */
int mg_plan_submit_handover(const struct mg_plancost *c,
    enum mg_plancost_kind kind, double lambda, int64_t handover);

/* mg_plan_submit: the planner's rule, one for every caller: with a
 * handover (seconds, > 0) mg_plan_submit_handover(), else
 * mg_plan_submit_now() */
int mg_plan_submit(const struct mg_plancost *c, enum mg_plancost_kind kind,
    double lambda, int64_t handover);

/* mg_plan_lease: the mean hours of P's limit given up over c's futures
 * if S is submitted at candidate j and the chain hands over in
 * handover seconds */
double mg_plan_lease(const struct mg_plancost *c, int j, int64_t handover);

/*
 * mg_plan_decided: marks in done[0..nstop) the prices of the planner's
 * stop set (mg_planconf) at which c chooses to submit now; 1 once every
 * one has been marked (at this decision or an earlier one of the same
 * episode, done kept between them), 0 otherwise and without a stop set.
 */
int mg_plan_decided(const struct mg_plan *p, const struct mg_plancost *c,
    unsigned char *done);

/*
 * mg_plan_risk_next: the estimated chance of an interruption if S is
 * submitted at the next candidate time rather than now: the share of
 * futures in which it starts after P's end.  NAN without a plan.
 */
double mg_plan_risk_next(const struct mg_plancost *c);

#endif /* MG_PLAN_H */
