/*
 * slurmsim_int.h: the faithful model's internals, shared by its files:
 * slurmsim.c (building jobs, the event loop, preempted jobs released),
 * slurmsched.c (a job started, the main scheduler, backfill, suspended
 * victims resumed), slurmpreempt.c (who may preempt whom, the victims),
 * slurmprio.c (Slurm's priorities, fair-share and the pending list in
 * their order), slurmelastic.c (elastic jobs) and slurmloan.c (loaning).
 * Not an interface: see slurmsim.h.
 */
#ifndef MG_SLURMSIM_INT_H
#define MG_SLURMSIM_INT_H

#include <stddef.h>
#include <math.h>
#include <stdint.h>

#include "cluster/slurmsim.h"
#include "cluster/elastic.h"
#include "cluster/preempt.h"

struct fjob {
	int64_t submit, dur, limit, start;
	double tprio;		/* recorded priority, 0 if none */
	int32_t nodes;
	int32_t trace;
	int32_t user;
	int32_t after;		/* a job that must end first, or -1 */
	int32_t pred;		/* chain predecessor, or -1 */
	int32_t part;		/* its pool */
	int32_t qos;		/* index into the configured QOS, or -1 */
	int32_t account;	/* the trace's account index, or -1 */
	int32_t fsh;		/* its fair-share holder, or -1 */
	int32_t handover;	/* a chain job that takes over: its
				 * predecessor ends this many seconds
				 * after it starts; -1 if it does not */
	int64_t eligible;	/* not before (a --begin time), or -1 */
	int64_t accrue;		/* with MaxJobsAccrue: when its age began
				 * to count, -1 while it does not */
	int64_t end;		/* when it ended, -1 */
	int64_t low_until;	/* waits behind every job that does not
				 * until then, then as if submitted then;
				 * 0: never */
	/* preemption */
	int urgent;		/* an urgent job; else best-effort */
	int releasing;		/* preempted: its nodes come free at its
				 * run's end */
	int64_t first_start;	/* its first start, -1 */
	int64_t work_left;	/* a releasing job's work after release */
	double res;		/* its resume loss, seconds */
	double prio;		/* its priority when it started */
	int32_t for_job;	/* the urgent job it is released for */
	int32_t promised;	/* an urgent job: nodes being released */
	int32_t npreempt;	/* times preempted */
	double lost;		/* node-seconds of work lost to them */
	double caused;		/* an urgent job: node-seconds its victims
				 * lost */
	double ran;		/* node-seconds run before its last start */
	/* PreemptMode=SUSPEND */
	int64_t lim_used;	/* seconds of its limit run before its last
				 * start */
	int64_t susp_at;	/* a victim: when it was suspended */
	int64_t suspended;	/* seconds suspended in all */
	int32_t given;		/* a victim: its nodes its preemptor uses */
	int32_t susp_by;	/* a victim: its preemptor, or -1 */
	int32_t susp_next;	/* the preemptor's next victim, or -1 */
	int32_t susp_head;	/* a preemptor: its first victim, or -1 */
	/* an elastic job (slurmsim.h, and struct fjel); nodes is its
	 * minimum while it waits, its nodes while it runs */
	int elastic;
	int32_t nresize;
	double eredo;		/* seconds of its last run's work lost to a
				 * kill at a reclaim's grace */
};

/* an elastic job's work, apart from the job so that a model without
 * elastic jobs copies less */
struct fjel {
	int32_t emin, emax, nreq;
	double alpha;
	double ework;		/* work left, seconds at nreq nodes */
	double ework0;		/* all its work */
	double elimw;		/* its limit, seconds of work */
	double eat;		/* its progress (re)starts then */
	double epause;		/* seconds without progress at its next
				 * start (a resume) */
	double erestart;	/* what a resize costs it, seconds */
};

/*
 * a pending job: its sort key (priority, submission, trace order) and
 * whether its priority can still change (the age factor is not yet at
 * its cap, or fair-share is on).  prio is as set at the calcs-th
 * PriorityCalcPeriod (or on submission after it); a moving entry that
 * a later period did not set has the priority of that period's start
 * (mg_slurmprio_value()).
 */
struct pent {
	double prio;
	int64_t submit;
	int32_t trace, j;
	int32_t moving;
	uint32_t calcs;
};

/* a moving pending entry without fair-share: its position in pend, its
 * job, the period its age factor reaches its cap, and the job of the
 * moving entry just before it when the two are known to stay in order
 * while both move (their priorities far enough apart), else -1 */
struct mslot {
	size_t pos;
	int64_t cap;
	int32_t j, prev;
};

/* a running job's nodes in one pool; a job in several pools has an
 * entry for each, the first its head */
struct frun {
	int64_t end, exp_end;
	int64_t exp_round;	/* exp_end rounded up to bf_resolution */
	int32_t nodes, j, pool;
	int32_t head;
};

struct mg_slurmsim {
	struct mg_slurmsim_params c;
	const struct mg_trace *t;
	int64_t now, next_sched, next_bf;
	/* backfill runs only when a job, node or reservation changed since
	 * its last pass (Slurm's _more_work()): upd is the last change */
	int64_t upd, last_bf;
	struct fjob *job;
	size_t njob, capjob;
	struct fjel *jel;	/* by job, if elastic */
	size_t capjel;
	int32_t *juser;		/* by job: its user (job[].user), kept
				 * apart so that a walk of a long queue
				 * passes users at their limit quickly */
	size_t capjuser;
	int32_t *arr;		/* arrival order: (submit, trace order) */
	size_t narr, caparr;
	size_t next_arr;
	struct pent *pbuf;	/* pending jobs in priority order are */
	struct pent *pend;	/* pend[0..npend), pend = pbuf + phead: */
	size_t phead, npend, cappend;	/* started ones leave the head */
	/* without fair-share, the entries of pend that can move, by
	 * position, when midx_ok: what a PriorityCalcPeriod looks at,
	 * without a walk of the long tail of capped entries between them */
	struct mslot *midx;
	size_t nmidx, capmidx;
	int midx_ok;
	uint64_t prng;		/* random victims */
	int preempt;		/* preemption is on */
	int elastic;		/* some jobs are elastic */
	/* loaning (slurmsim.h) */
	int loan;		/* it is on */
	int32_t lent;		/* nodes lent now */
	int32_t owed;		/* reclaimed nodes no job could free yet */
	int64_t next_loan;	/* the next loan tick, NEVER after the last */
	int64_t run_end;	/* the first end of a running job (NEVER:
				 * none), or -1 to be found: first_end() */
	int64_t owed_since;
	size_t next_dem;
	struct mg_loanstats ls;
	double *hlent, *hused;	/* per hour from hour0 */
	size_t nhours, caphours;
	int64_t hour0;
	struct mg_elastic_job *ej;	/* scratch of the elastic jobs' second */
	int32_t *ek, *ejob;	/* phase: candidates, shares, jobs */
	size_t capej;
	int32_t *held;		/* requeued jobs held until their */
	size_t nheld, capheld;	/* Eligible times */
	int32_t *resume;	/* preemptors that ended this second, */
	size_t nresume, capresume;	/* their victims to resume */
	int64_t next_calc;	/* when priorities are next set */
	double *fsf;		/* each holder's fair-share factor then */
	struct frun *run;
	size_t nrun, caprun;
	int32_t free[MG_SLURM_MAXPOOL];	/* free nodes of each pool */
	int npools;
	uint32_t pmask[MG_SLURM_MAXPART];	/* each partition's pools */
	size_t nstarted;
	int32_t *urun;		/* running jobs per user */
	int32_t *uacc;		/* with MaxJobsAccrue: pending jobs per
				 * user whose age counts */
	int32_t *unodes;	/* nodes they hold */
	int32_t *uqrun;		/* running jobs per user and QOS */
	int32_t *uqnodes;	/* nodes they hold; [user * nqos + qos] */
	int32_t *hnodes;	/* nodes held per fair-share holder */
	size_t naccts;
	double *usage;		/* decayed node-seconds, for fair-share, per
				 * holder: user, account or association */
	int64_t *charged;	/* each holder's usage counts its nodes
				 * until then */
	int64_t calc_at;	/* the last PriorityCalcPeriod's start */
	int64_t calcs;		/* how many there have been */
	int64_t *fsf_at;	/* fsf[h] is of the calcs-th, if equal */
	double fs_total;	/* all usage then */
	size_t fs_known;	/* the holders known then */
	double *fst;		/* Fair Tree's factor of each holder */
	int64_t *hfirst;	/* each holder's first submission in the
				 * trace, INT64_MAX if none: a holder is known
				 * from then on, as sacctmgr would list it */
	int64_t *hsorted;	/* the same, ascending */
	int64_t fst_at;		/* when computed; -1: not yet */
	size_t nusers;
	int32_t cap;		/* nodes now */
	size_t stuck_at;	/* nstarted when only ticks were left */
	int has_elig;		/* some job has an Eligible time */
	double qos_top;		/* the largest QOS priority */
	double part_top;	/* the largest PriorityJobFactor */
	size_t next_cap;	/* next capacity change */
	size_t next_resv;	/* next change of the reserved nodes */
	int32_t resv;		/* nodes reserved now */
	/* backfill timeline, scratch: free nodes of every pool (a row of
	 * npools) from each breakpoint on */
	int64_t *tt;
	int32_t *tf;
	size_t tcap;
};

/* fair-share as of one scheduler pass, or one view */
struct fsnow {
	double total;		/* all holders' usage */
	const double *tree;	/* Fair Tree: each holder's factor; or NULL */
	double *own;		/* tree, if computed for this pass alone */
};


/* slurmprio.c: pending entries in the pending list's order (qsort) */
int mg_slurmprio_qcmp(const void *a, const void *b);

/* the fair-share holder of a job of user, account and association,
 * and how many holders there are */
int32_t mg_slurmprio_holder_of(const struct mg_slurmsim *s, int32_t user,
    int32_t account, int32_t assoc);
size_t mg_slurmprio_holders(const struct mg_slurmsim *s);

/* each holder's first submission in the trace: 0 or MG_ENOMEM */
int mg_slurmprio_first_submits(struct mg_slurmsim *s);

/* holder h's usage brought up to now (its nodes changing next) */
void mg_slurmprio_charge(struct mg_slurmsim *s, int32_t h);

/* fair-share as of one pass (fs_prepare: 0 or MG_ENOMEM; fs_done
 * releases it), and job j's priority now with it */
int mg_slurmprio_fs_prepare(const struct mg_slurmsim *s, struct fsnow *fs);
void mg_slurmprio_fs_done(struct fsnow *fs);
double mg_slurmprio_priority(const struct mg_slurmsim *s,
    const struct fjob *j, const struct fsnow *fs);

/* PriorityCalcPeriod's run: usage decays, every pending job's priority
 * is set, the list sorted again.  0 or MG_ENOMEM */
int mg_slurmprio_recalc(struct mg_slurmsim *s);

/* job jr (mg_slurmprio_enqueue), or the m jobs jr[] arriving together
 * (mg_slurmprio_enqueue_batch), into the pending list at its priority's
 * place.  0 or MG_ENOMEM */
int mg_slurmprio_enqueue(struct mg_slurmsim *s, int32_t jr);
int mg_slurmprio_enqueue_batch(struct mg_slurmsim *s, const int32_t *jr,
    size_t m);

/* mg_slurmprio_freeze: every pending priority stored as set now, and
 * every moving one set again at the next period (a job's factors
 * change) */
void mg_slurmprio_freeze(struct mg_slurmsim *s);

/* mg_slurmprio_value: pending entry e's priority as Slurm has it now */
double mg_slurmprio_value(const struct mg_slurmsim *s, const struct pent *e);

/* mg_slurmprio_dropped: the first n entries lost w started ones */
void mg_slurmprio_dropped(struct mg_slurmsim *s, size_t n, size_t w);

#define NEVER INT64_MAX
#define RECLAIMED (-2)		/* for_job of a job a reclaim preempts */
#define EL(s, j) (&(s)->jel[(j) - (s)->job])	/* an elastic job's work */

/* an elastic job's speed on n nodes, relative to its own size */
static inline double
mg_slurmelastic_speed(const struct mg_slurmsim *s, const struct fjob *j,
    int32_t n)
{
	if (s->c.el_prof != NULL && s->c.el_prof->n > 0)
		return mg_eprofile_speed(s->c.el_prof, (double)n /
		    (double)EL(s, j)->nreq);
	return pow((double)n / (double)EL(s, j)->nreq, EL(s, j)->alpha);
}


/* ---- shared by the model's files ---------------------------------- */

/* slurmpreempt.c: preemption; room for a victim choice among n running
 * jobs, running job r as a candidate, whether u may preempt anyone,
 * victims for urgent job jr */
void mg_slurmpreempt_cands_free(struct mg_pcand *c, double *rel,
    unsigned char *taken, size_t *at, size_t *out);
int mg_slurmpreempt_cands_new(size_t n, struct mg_pcand **c, double **rel,
    unsigned char **taken, size_t **at, size_t **out);
void mg_slurmpreempt_cand(const struct mg_slurmsim *s, const struct frun *r,
    const struct mg_dlattr *a, struct mg_pcand *c);
int mg_slurmpreempt_any(const struct mg_slurmsim *s, const struct fjob *u);
int mg_slurmpreempt_for(struct mg_slurmsim *s, int32_t jr);

/* slurmelastic.c: elastic jobs */
void mg_slurmelastic_progress(struct mg_slurmsim *s, struct fjob *j, int32_t n);
int32_t mg_slurmelastic_shrink(struct mg_slurmsim *s, int32_t need, int all);
int mg_slurmelastic_grow(struct mg_slurmsim *s);

/* slurmloan.c: loaning */
void mg_slurmloan_account(struct mg_slurmsim *s, int64_t t);
int mg_slurmloan_tick(struct mg_slurmsim *s);

/* slurmsched.c: a job started (take[g] nodes of each pool g, NULL: the
 * first free ones), the schedulers */
int mg_slurmsched_start(struct mg_slurmsim *s, int32_t jr, const int32_t *take);
int mg_slurmsched_resume(struct mg_slurmsim *s, int32_t jr);
int mg_slurmsched_resume_victims(struct mg_slurmsim *s);
int mg_slurmsched_main(struct mg_slurmsim *s, int full);
int mg_slurmsched_any_free(const struct mg_slurmsim *s);
int mg_slurmsched_backfill(struct mg_slurmsim *s);

/* a job's slot in them; its user and QOS are known */
static inline size_t
mg_slurmsim_uq(const struct mg_slurmsim *s, const struct fjob *j)
{
	return (size_t)j->user * (size_t)s->c.nqos + (size_t)j->qos;
}

/*
 * job j's user is at its limit of running jobs: mg_slurmsim_held() says
 * so too, whatever else holds it, from a small array instead of the job
 */
static inline int
mg_slurmsim_user_full(const struct mg_slurmsim *s, int32_t j)
{
	int32_t u = s->juser[j];

	return u >= 0 && s->c.max_jobs_per_user > 0 &&
	    s->urun[u] >= s->c.max_jobs_per_user;
}

static inline int64_t
mg_slurmsim_round_up(int64_t t, int64_t res)
{
	return (t + res - 1) / res * res;
}

/* the nodes f[] holds of the pools of mask (free now, or in a row of the
 * backfill timeline) */
static inline int32_t
mg_slurmsim_pools_sum(const int32_t *f, int np, uint32_t mask)
{
	int32_t n = 0;
	int g;

	for (g = 0; g < np; g++)
		if (mask >> g & 1)
			n += f[g];
	return n;
}

/*
 * the job cannot start for a reason of its own: its dependency has not
 * ended, or its user is at a limit of running jobs or nodes
 */
static inline int
mg_slurmsim_held(const struct mg_slurmsim *s, const struct fjob *j)
{
	if (j->after >= 0 && s->job[j->after].end < 0)
		return 1;
	if (j->eligible > s->now)
		return 1;
	if (j->user < 0)
		return 0;
	if (s->c.max_jobs_per_user > 0 &&
	    s->urun[j->user] >= s->c.max_jobs_per_user)
		return 1;
	if (s->c.max_nodes_per_user > 0 &&
	    s->unodes[j->user] + j->nodes > s->c.max_nodes_per_user)
		return 1;
	if (j->qos < 0)
		return 0;
	if (s->c.qos_max_jobs_pu[j->qos] > 0 &&
	    s->uqrun[mg_slurmsim_uq(s, j)] >= s->c.qos_max_jobs_pu[j->qos])
		return 1;
	return s->c.qos_max_nodes_pu[j->qos] > 0 &&
	    s->uqnodes[mg_slurmsim_uq(s, j)] + j->nodes >
	    s->c.qos_max_nodes_pu[j->qos];
}

#endif /* MG_SLURMSIM_INT_H */
