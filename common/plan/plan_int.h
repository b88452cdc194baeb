/*
 * plan_int.h: the planner's internals, shared by its files: plan.c (a
 * decision's costs from simulated futures), future.c (drawing a future
 * from the view and the history) and planconf.c (its settings).  Not an
 * interface: see plan.h.
 */
#ifndef MG_PLAN_INT_H
#define MG_PLAN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/parse.h"
#include "base/rand.h"
#include "cluster/view.h"
#include "io/trace.h"
#include "plan/plan.h"

#define WEEK		(7 * MG_DAY)
#define TICK		600
#define NCLS		5	/* limit classes; NCLS: all jobs */
#define MINSAMPLE	20	/* fewer in a class: draw from all jobs */
#define MINUSER		5	/* fewer of a user's in a class: the class */
#define RECENT_SCAN	1000	/* a user's jobs looked at for the recent */
#define PRIO_SCALE	1000.0	/* view priorities as the model's integers */
#define MAXWAIT		(30 * MG_DAY)
#define FOLLOW_TRIES	8	/* draws for a past job of a running job's size */
#define BF_INTERVAL	300	/* the planner's backfill passes: a tenth of
				 * Slurm's (30 s), for its speed */

/* a job of the trace that ran, by its end */
struct uend {
	int64_t end;
	int32_t job;
};

/* an ended job of the history: when it ended, the share of its limit */
struct rt {
	int64_t end;
	float r;
};

struct mg_plan {
	struct mg_planconf c;
	const struct mg_trace *t;
	struct rt *cls[NCLS + 1];	/* by end time */
	size_t ncls[NCLS + 1];
	struct rt *ucls;	/* by (user, class), then end time */
	size_t *uoff;		/* (user, class) k: ucls[uoff[k] .. uoff[k+1]) */
	size_t nkeys;
	int32_t *capmost;	/* the most of c.cap_nodes[0..i] */
	/* c.follow > 0: resubmissions */
	int32_t *fol;		/* trace job: the job that follows it, or -1 */
	int32_t *pred;		/* trace job: the job it follows, or -1 */
	struct uend *uend;	/* trace jobs that ran, by (user, end) */
	size_t *ueoff;		/* user u: uend[ueoff[u] .. ueoff[u + 1]) */
};


#define MAXBLK	128	/* arrival blocks of a future: horizons of at
			 * most 5 days in blocks of 1 hour or more */

struct future {
	struct mg_trace_job *job;
	size_t n, cap;
	int32_t most;		/* the largest job */
	/* the arrivals' blocks: [from, to) came from lag seconds before */
	int nblk;
	int64_t bfrom[MAXBLK], bto[MAXBLK], blag[MAXBLK];
	/* its capacity, from the past days of its blocks */
	int64_t *ctime;
	int32_t *cnodes;
	size_t cn, ccap[2];
	unsigned char *claim;	/* the view's pending jobs taken as
				 * followers already there */
	size_t claimcap;
};

static inline size_t
below(uint64_t *s, size_t n)
{
	return (size_t)(mg_rand64(s) % n);
}

static inline int
limit_class(int64_t limit)
{
	return limit <= 3600 ? 0 : limit <= 6 * 3600 ? 1 : limit <= MG_DAY ? 2 :
	    limit <= 2 * MG_DAY ? 3 : 4;
}

static inline int64_t
end_of(const struct mg_trace *t, int32_t i)
{
	return t->job[i].start + t->job[i].dur;
}

/*
 * future.c: mg_future_draw: a future of the view v at t for chain ch,
 * horizon seconds long, from random state *rs, into *f (its arrays
 * reused); mg_future_claims: the view's pending jobs that are a running
 * job's followers already there (c.follow > 0); mg_future_prio: a view's
 * priority as the model's integer.  0 or MG_ENOMEM.
 */
int mg_future_draw(const struct mg_plan *p, const struct mg_view *v,
    const struct mg_planchain *ch, int64_t t, int64_t horizon,
    uint64_t *rs, struct future *f);
int mg_future_claims(const struct mg_view *v, struct future *f);
int64_t mg_future_prio(double prio);

/* planconf.c: a chance through calibration kind w (0: submitting now,
 * 1: later) of pc: linear between its knots */
double mg_plan_calibrated(const struct mg_planconf *pc, int w, double x);

#endif /* MG_PLAN_INT_H */
