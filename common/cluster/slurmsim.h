/*
 * slurmsim.h: the faithful cluster model: an event-driven simulator of
 * Slurm's scheduling of whole-node jobs, at one-second resolution.
 *
 * Unlike the reference mode (sim.h), time jumps from event to event (an
 * arrival, an end, a scheduler run): the main scheduler runs when a job
 * arrives or ends and every sched_interval seconds, starting jobs in
 * priority order until one does not fit; the backfill scheduler runs
 * every bf_interval seconds and, walking the queue in priority order,
 * reserves for each job the earliest window of its time limit within
 * bf_window, starting it if that window begins now.  Priority is Slurm's
 * multifactor sum of an age factor capped at PriorityMaxAge and a job
 * size factor, optionally plus the priority recorded in the trace.
 * The state is plain data; mg_slurmsim_copy() forks it.
 *
 * A user may run at most max_jobs_per_user jobs, holding at most
 * max_nodes_per_user nodes, at once (Slurm's MaxJobsPerUser and
 * MaxTRESPerUser=node of a QOS); a job over a limit is skipped, not
 * blocking the queue behind it.
 *
 * Fair-share is on node-seconds halved every PriorityDecayHalfLife, with
 * equal shares: Slurm's classic factor per user (or per account, charged
 * with all its jobs), or Slurm's Fair Tree (its default since 19.05)
 * over the accounts and the users in each (the trace's (account, user)
 * associations): users rank by their own usage against their account's
 * siblings, under accounts ranked by theirs, and the factor is the rank
 * over the number of associations, computed every PriorityCalcPeriod as
 * Slurm's priority thread does; the users of accounts that tie are
 * ranked together, as Slurm merges them.
 *
 * Nodes form pools: the nodes that belong to the same partitions.  A
 * partition is a set of pools, so partitions may share nodes (a debug
 * partition on some nodes of the main one); partitions given as node
 * counts are pools of their own.  A job takes the free nodes of its
 * partition's pools in pool order (Slurm, with equal node weights, takes
 * the first free nodes in slurm.conf's order).  When a job cannot start,
 * the main scheduler makes no more use of its partition's nodes in that
 * run, so no job of an overlapping partition takes them ("do not
 * schedule more jobs in this partition or on nodes in this partition",
 * job_scheduler.c); backfill plans every pool on one timeline, testing
 * jobs in priority order across partitions, and a job's reservation
 * holds the nodes of each pool it will use.  The capacity timeline
 * (unforeseen: drained nodes) and reservations (announced: maintenance)
 * apply to a cluster of one pool.
 *
 * A partition adds its priority factor (PriorityWeightPartition times
 * its PriorityJobFactor over the largest).  A QOS adds its priority factor (PriorityWeightQOS times its priority
 * over the largest QOS priority) and limits per user within it.  A job
 * whose trace gives an Eligible time after its submission (a --begin
 * time) cannot start before it, and its age counts from it, as Slurm's
 * age factor does (from its submission with PriorityFlags=ACCRUE_ALWAYS;
 * a job waiting on a dependency ages from its submission, as with that
 * flag).
 */
#ifndef MG_SLURMSIM_H
#define MG_SLURMSIM_H

#include <stddef.h>
#include <stdint.h>

#include "io/trace.h"
#include "cluster/dlattr.h"
#include "cluster/elastic.h"
#include "cluster/view.h"
#include "cluster/cluster.h"

#define MG_SLURM_MAXPART 16
#define MG_SLURM_MAXPOOL 32
#define MG_SLURM_MAXQOS 16

/* what a preempted job does (Slurm's PreemptMode) */
enum { MG_PREEMPT_OFF, MG_PREEMPT_REQUEUE, MG_PREEMPT_CANCEL,
    MG_PREEMPT_SUSPEND };

/* who may preempt whom (Slurm's PreemptType) */
enum { MG_PTYPE_QOS, MG_PTYPE_PARTITION, MG_PTYPE_NONE };

/* the preemption class of the urgent jobs, after the trace's QOS */
#define MG_URGENT_CLASS MG_SLURM_MAXQOS

/* among whom fair-share is shared */
enum { MG_FS_USER, MG_FS_ACCOUNT, MG_FS_TREE };

struct mg_slurmsim_params {
	int nodes;		/* all nodes (for the size factor) */
	/*
	 * partitions, indexed like the trace's part_name; nparts 0 puts
	 * every job in one pool of nodes.  part_nodes[p] nodes in all;
	 * with npools 0 partition p is pool p of its own, else it is the
	 * pools of bit mask part_pools[p], pool k of pool_nodes[k] nodes
	 */
	int nparts;
	int32_t part_nodes[MG_SLURM_MAXPART];
	uint32_t part_pools[MG_SLURM_MAXPART];
	int npools;
	int32_t pool_nodes[MG_SLURM_MAXPOOL];
	/*
	 * the partition factor: PriorityWeightPartition times the job's
	 * partition's PriorityJobFactor over the largest one's
	 */
	double w_part;
	double part_prio[MG_SLURM_MAXPART];
	double w_age;		/* PriorityWeightAge */
	int64_t max_age;	/* PriorityMaxAge, seconds */
	int accrue_always;	/* PriorityFlags=ACCRUE_ALWAYS: age from
				 * submission, a --begin time or not, and
				 * no limit on accruing jobs */
	int max_accrue;		/* MaxJobsAccrue: a user's pending jobs
				 * whose age counts, at most (0: all) */
	double w_size;		/* PriorityWeightJobSize */
	double w_trace;		/* weight of the recorded priority; 0: off */
	double w_fairshare;	/* PriorityWeightFairshare; 0: off */
	int fs_by;		/* MG_FS_USER, MG_FS_ACCOUNT, MG_FS_TREE */
	int64_t calc_period;	/* PriorityCalcPeriod, seconds: how often
				 * Fair Tree's ranks are computed */
	int64_t decay_half_life;	/* PriorityDecayHalfLife, seconds */
	int64_t sched_interval;	/* seconds */
	int64_t bf_interval;	/* seconds */
	int64_t bf_resolution;	/* seconds */
	int64_t bf_window;	/* seconds */
	int bf_max_job_test;
	int queue_depth;	/* default_queue_depth: the jobs an event's
				 * main run tests (the periodic run: all) */
	int max_jobs_per_user;	/* running jobs per user; 0: no limit */
	int max_nodes_per_user;	/* nodes a user's running jobs hold; 0: none */
	/*
	 * QOS, indexed like the trace's qos_name (nqos 0: none): the
	 * priority of each (its factor is priority / the largest), and
	 * the limits per user within it (MaxJobsPerUser,
	 * MaxTRESPerUser=node; 0: none)
	 */
	double w_qos;		/* PriorityWeightQOS */
	int nqos;
	double qos_prio[MG_SLURM_MAXQOS];
	int qos_max_jobs_pu[MG_SLURM_MAXQOS];
	int qos_max_nodes_pu[MG_SLURM_MAXQOS];
	/*
	 * capacity over time (borrowed): cap_nodes[k] nodes from
	 * cap_time[k] on, nodes before the first; cap_n 0 for none
	 */
	const int64_t *cap_time;
	const int32_t *cap_nodes;
	size_t cap_n;
	/*
	 * reservations (borrowed): resv_nodes[k] nodes reserved from
	 * resv_time[k] on, none before the first; the schedulers see them
	 * coming and start no job that would still hold the nodes when a
	 * reservation takes them (a cluster of one pool)
	 */
	const int64_t *resv_time;
	const int32_t *resv_nodes;
	size_t resv_n;
	/*
	 * preemption (a cluster of one pool): when an urgent job (dl[i] of
	 * trace job i says so) cannot start, the main scheduler preempts
	 * best-effort jobs that have run at least preempt_exempt seconds
	 * since they (re)started, chosen by the victim policy (preempt.h)
	 * on their predicted overheads (dlattr.h).  A victim's nodes come
	 * free after its release delay (it finishes its epoch and writes a
	 * checkpoint); REQUEUE puts it back in the queue with the work it
	 * had left plus its resume loss, held for requeue_delay + 1 s and
	 * its age counting from then, its time limit starting again, as
	 * Slurm restarts a requeued job;
	 * CANCEL ends it, its work lost.  SUSPEND stops it at once (no
	 * checkpoint, nothing to reload) and gives the preemptor the nodes
	 * it lacks; the victim's other nodes stay its own, idle, and it
	 * resumes on all of them when the preemptor ends, the time it was
	 * suspended not counted against its limit (Slurm's gang
	 * scheduler, without time-slicing).  Urgent jobs' priority gains
	 * w_urgent.  Off when dl is NULL, the mode MG_PREEMPT_OFF or the
	 * cluster has more than one pool; chain and added jobs are never
	 * victims.
	 *
	 * Who may preempt whom: with MG_PTYPE_PARTITION a job of a
	 * partition of higher part_tier (PriorityTier) any job of a lower
	 * one; with MG_PTYPE_QOS and qos_lists, a job whose class c (its
	 * QOS index, or MG_URGENT_CLASS for an urgent job) has bit k of
	 * qos_preempts[c] set a job of class k (QOS Preempt= lists);
	 * without lists an urgent job any other.  A job holding suspended
	 * victims is not preempted itself.
	 */
	int preempt_mode;
	int64_t requeue_delay;	/* a requeued job is held this long and
				 * a second more (SchedulerParameters
				 * requeue_delay=; by default Slurm's
				 * credential lifetime, 120 s) */
	int preempt_type;	/* MG_PTYPE_QOS, _PARTITION, _NONE (off) */
	int qos_lists;
	uint32_t qos_preempts[MG_SLURM_MAXQOS + 1];
	int part_tier[MG_SLURM_MAXPART];
	int64_t preempt_exempt;	/* PreemptExemptTime, seconds */
	int victims;		/* enum mg_victim_policy */
	double w_urgent;
	const struct mg_dlattr *dl;	/* per trace job (borrowed) */
	struct mg_dlgen dlgen;	/* the bandwidths of the overheads */
	uint64_t preempt_seed;	/* random victims, prediction errors */
	double predict_error;	/* the relative error (sd) of the overheads
				 * the scheduler predicts; the model runs
				 * on the true ones */
	/*
	 * loaning (Aryl; a cluster of one pool): an inference pool of
	 * `inf_nodes` nodes needs dem_nodes[k] of them from dem_time[k] on
	 * (borrowed; 0 before the first).  Every loan_interval seconds
	 * (from t0) the spare ones, inf_nodes - demand - loan_headroom,
	 * are lent to this cluster: more spare, more lent at once; less,
	 * the missing nodes are reclaimed: idle lent nodes first, then
	 * running jobs chosen by reclaim_policy (enum mg_victim_policy),
	 * requeued after their release delay (dl's, 0 without dl) with
	 * their work left plus their resume loss, held for requeue_delay.
	 * A reclaim not done within reclaim_grace seconds is an inference
	 * SLO violation.  Off when inf_nodes is 0.
	 */
	int32_t inf_nodes;
	const int64_t *dem_time;
	const int32_t *dem_nodes;
	size_t dem_n;
	int64_t loan_interval;
	int32_t loan_headroom;
	int64_t reclaim_grace;
	int reclaim_policy;
	/*
	 * elastic jobs (Aryl; a cluster of one pool, with dl): el[i] says
	 * whether trace job i is elastic and its range (elastic.h).  An
	 * elastic job asks for its minimum, so it starts like any job of
	 * that size (the first phase: the schedulers); its work is its
	 * trace run time at its own size, done at speed (n / nodes)^alpha
	 * on n nodes, and its limit counts work, not wall time.  After
	 * each scheduling pass the free nodes the first waiting job does
	 * not need go to running elastic jobs (the second phase: the
	 * knapsack of elastic.h, or greedy with el_greedy); a waiting job
	 * that does not fit, and a reclaim, shrink them first.  Each resize
	 * costs the job its resume loss (dl) in time without progress.
	 */
	const struct mg_elastic_attr *el;	/* per trace job (borrowed) */
	int el_greedy;
	const struct mg_eprofile *el_prof;	/* a measured speedup curve
						 * for every elastic job, or
						 * NULL (borrowed) */
	int sjf;		/* the queue shortest limit first (Aryl's
				 * first phase), before every other factor */
};

/* mg_slurmsim_params_default: Slurm's defaults, on `nodes` nodes. */
void mg_slurmsim_params_default(struct mg_slurmsim_params *c, int nodes);

/* mg_slurmsim_params_preempts: whether c's PreemptMode and PreemptType
 * are on */
int mg_slurmsim_params_preempts(const struct mg_slurmsim_params *c);

struct mg_slurmsim;

/*
 * mg_slurmsim_new: an empty cluster at t0 that sees the trace jobs
 * submitted in [from, to].  Trace job i of the window is job i of the
 * simulator, in the trace's order.  The trace is borrowed.  Returns 0
 * and *out, or MG_EINVAL / MG_ENOMEM.
 */
int mg_slurmsim_new(const struct mg_slurmsim_params *c,
    const struct mg_trace *t, int64_t t0, int64_t from, int64_t to,
    struct mg_slurmsim **out);

/*
 * mg_slurmsim_new_warm: the cluster as the trace says it was at t0: jobs
 * running then run on from their real starts, jobs pending then are
 * pending with their real submit times, and the jobs submitted in
 * (t0, to] arrive.  Returns as mg_slurmsim_new().
 */
int mg_slurmsim_new_warm(const struct mg_slurmsim_params *c,
    const struct mg_trace *t, int64_t t0, int64_t to,
    struct mg_slurmsim **out);

struct mg_slurmsim *mg_slurmsim_copy(const struct mg_slurmsim *s);
void mg_slurmsim_free(struct mg_slurmsim *s);

/*
 * mg_slurmsim_run: process every event up to and including time until.
 * Returns 0, or MG_ENOMEM.
 */
int mg_slurmsim_run(struct mg_slurmsim *s, int64_t until);

/* mg_slurmsim_run_all: run until every job has started; 0 or < 0 */
int mg_slurmsim_run_all(struct mg_slurmsim *s);


/*
 * mg_slurmsim_set_urgent: job j (added, not yet started) is urgent: it
 * may preempt.  Returns 0, or MG_EINVAL when preemption is off or j is
 * not such a job.
 */
int mg_slurmsim_set_urgent(struct mg_slurmsim *s, int32_t j);


/* mg_slurmsim_loan_stats: the loaning so far (zeros when off). */
void mg_slurmsim_loan_stats(const struct mg_slurmsim *s,
    struct mg_loanstats *out);

/*
 * mg_slurmsim_loan_hours: the loaning hour by hour from the hour of t0:
 * node-seconds lent and node-seconds of them used by jobs in hour k are
 * lent[k] and used[k] (borrowed, valid until the next run); returns the
 * hours (0 when off) and *from, the first hour's start.
 */
size_t mg_slurmsim_loan_hours(const struct mg_slurmsim *s, int64_t *from,
    const double **lent, const double **used);

/* mg_slurmsim_job_preempt: job j's (j < mg_slurmsim_njobs()). */
void mg_slurmsim_job_preempt(const struct mg_slurmsim *s, size_t j,
    struct mg_joblife *out);

/*
 * mg_slurmsim_add_job: a job of a chain (P, S, ...) of `nodes` nodes, limit
 * and run time in seconds, arriving at submit (not before now), after
 * the trace jobs of the same second; pred is its chain predecessor (-1)
 * and user its user's index (-1).  Returns its index, or MG_EINVAL /
 * MG_ENOMEM.
 */
int32_t mg_slurmsim_add_job(struct mg_slurmsim *s, int32_t nodes,
    int64_t limit, int64_t dur, int64_t submit, int32_t pred, int32_t user);

/*
 * mg_slurmsim_set_prio: job j's recorded priority (weighted by
 * PriorityWeight of the trace's priorities, w_trace), as a trace job's;
 * a pending job's priority is set again at once (scontrol update).
 * Returns 0, MG_EINVAL (no such job) or MG_ENOMEM.
 */
int mg_slurmsim_set_prio(struct mg_slurmsim *s, int32_t j, double prio);

/*
 * mg_slurmsim_run_until_start: process events until job j starts or the
 * next event is after limit.  Returns 1 if it started, 0 if not, or
 * MG_ENOMEM.
 */
int mg_slurmsim_run_until_start(struct mg_slurmsim *s, int32_t j,
    int64_t limit);

/*
 * mg_slurmsim_chain_gap: x = start of j - end of its chain predecessor
 * (positive: interruption, negative: overlap); *ok = 0 if not known.
 */
int64_t mg_slurmsim_chain_gap(const struct mg_slurmsim *s, int32_t j,
    int *ok);

int64_t mg_slurmsim_time(const struct mg_slurmsim *s);
size_t mg_slurmsim_njobs(const struct mg_slurmsim *s);
int64_t mg_slurmsim_job_start(const struct mg_slurmsim *s, size_t j);

/* mg_slurmsim_pending: jobs submitted and waiting (held ones too) */
size_t mg_slurmsim_pending(const struct mg_slurmsim *s);

/*
 * mg_slurmsim_set_user: added job j, not yet arrived, belongs to user
 * (an index of the trace's; -1: none), whose limits and fair-share it
 * counts in.  Returns 0 or MG_EINVAL.
 */
int mg_slurmsim_set_user(struct mg_slurmsim *s, int32_t j, int32_t user);

/* mg_slurmsim_job_end: when job j ended (its last run), or -1 */
int64_t mg_slurmsim_job_end(const struct mg_slurmsim *s, size_t j);

/*
 * mg_slurmsim_set_handover: chain job j (added, not started) takes over
 * from its predecessor: when j starts while the predecessor runs, the
 * predecessor ends secs later (it checkpoints and exits), unless it ends
 * before.  Returns 0, or MG_EINVAL (no predecessor, started, secs < 1).
 */
int mg_slurmsim_set_handover(struct mg_slurmsim *s, int32_t j, int64_t secs);

/*
 * mg_slurmsim_set_begin: chain job j (added, not yet submitted by the
 * run) cannot start before t (sbatch --begin); its age counts from t
 * unless the configuration has ACCRUE_ALWAYS.  0, or MG_EINVAL.
 */
int mg_slurmsim_set_begin(struct mg_slurmsim *s, int32_t j, int64_t t);

/*
 * mg_slurmsim_set_low: chain job j (added, not yet submitted by the run)
 * waits behind every job that does not until until (a QOS whose priority
 * is below every other's), then as if submitted then: its age counts
 * from until.  It rises at the first PriorityCalcPeriod from until.
 * 0, or MG_EINVAL.
 */
int mg_slurmsim_set_low(struct mg_slurmsim *s, int32_t j, int64_t until);
int64_t mg_slurmsim_job_submit(const struct mg_slurmsim *s, size_t j);

/*
 * mg_slurmsim_avg_wait: the mean wait, in seconds, of the last n jobs
 * started (by start time) up to now; 0 if none, MG_ENOMEM.
 */
int64_t mg_slurmsim_avg_wait(const struct mg_slurmsim *s, size_t n);

/*
 * mg_slurmsim_disorder: the pending entries out of the order of their
 * priorities as set now (0: the list is as Slurm keeps it); a check of
 * the model's own bookkeeping, for tests.
 */
size_t mg_slurmsim_disorder(const struct mg_slurmsim *s);

/*
 * mg_slurmsim_view: fill v with the state now (after every event up to
 * now): pending jobs in priority order, running jobs, and jobs started
 * in the last recent seconds; s_prio is the priority a new job of
 * `s_nodes` nodes (no user, no recorded priority) would get now.  Fair-
 * share usage is taken as of the last event; s is not changed.  Returns
 * 0 or MG_ENOMEM.
 */
int mg_slurmsim_view(const struct mg_slurmsim *s, int32_t s_nodes, int64_t recent,
    struct mg_view *v);

#endif /* MG_SLURMSIM_H */
