/*
 * cluster.h: the cluster model as one interface over its two modes
 * (sim.h, the reference; slurmsim.h, the faithful, both seen only inside
 * cluster/), for the tools that place chains into a replayed trace
 * (episodes, evaluation).
 *
 * A struct mg_clusterdef is a configuration prepared against a trace
 * once (job sizes checked, partitions matched, dependencies and capacity
 * inferred when the configuration asks); a struct mg_cluster is one run
 * of it, which can be copied to try several futures.
 *
 * Time: mg_cluster_run(c, t) brings c to the start of time t, before
 * anything that happens at t: in reference mode the start of minute t,
 * before its arrivals and scheduling; in faithful mode after every event
 * before second t.  A chain job submitted "now" then arrives at t.
 */
#ifndef MG_CLUSTER_H
#define MG_CLUSTER_H

#include <stdint.h>

#include "cluster/simconf.h"
#include "base/status.h"
#include "io/trace.h"
#include "cluster/view.h"

struct mg_dlattr;
struct mg_elastic_attr;

/* a job's life under preemption */
struct mg_joblife {
	int64_t first_start;	/* -1 if it never started */
	int64_t end;		/* -1 if it has not ended */
	int urgent;
	int npreempt;		/* times preempted */
	double lost;		/* node-seconds lost: its resume losses,
				 * all its work if cancelled, or the nodes
				 * it held idle while suspended */
	double caused;		/* a preemptor: the node-seconds its
				 * victims lost */
	int64_t suspended;	/* seconds it spent suspended */
	int32_t nresize;	/* an elastic job: times resized */
};

/* what loaning did, from t0 to now */
struct mg_loanstats {
	double span_s;		/* seconds accounted */
	double lent_ns;		/* node-seconds lent */
	double cap_ns;		/* node-seconds of the cluster and its loans */
	double busy_ns;		/* node-seconds of running jobs */
	double lent_busy_ns;	/* of them, beyond the cluster's own nodes */
	int64_t reclaims;	/* loan ticks that took nodes back */
	int64_t reclaim_jobs;	/* jobs preempted by them */
	int64_t reclaim_shrinks;	/* elastic jobs they shrank */
	int64_t grows, shrinks;	/* elastic resizes in all */
	int64_t slo_violations;	/* reclaims not done within the grace */
	double slo_short_ns;	/* node-seconds the inference pool lacked
				 * past the grace */
};

struct mg_clusterdef {
	struct mg_simconf *conf;	/* owned: the settings it was made of */
	struct mg_trace *trace;	/* borrowed; dependencies may be set in it */
	int32_t nodes;		/* the cluster's nodes */
	size_t ndeps;		/* dependencies inferred */
	int64_t *cap_time;	/* capacity timeline, owned */
	int32_t *cap_nodes;
	int64_t *resv_time;	/* reserved nodes over time, owned */
	int32_t *resv_nodes;
	struct mg_dlattr *dl;	/* preemption: each trace job's, owned */
	struct mg_elastic_attr *el;	/* elastic jobs: each trace job's,
	    owned */
	int64_t *dem_time;	/* loaning: the inference demand, owned */
	int32_t *dem_nodes;
};

/*
 * mg_clusterdef_init: prepare conf against t (which must outlive d):
 * every job must fit the cluster (and its partition); in faithful mode,
 * DependencyFromTrace and CapacityFromTrace are applied.  Returns 0, or
 * MG_EINVAL with d naming the job or partition, or MG_ENOMEM.  Release
 * with mg_clusterdef_release().
 */
int mg_clusterdef_init(struct mg_clusterdef *def, const struct mg_simconf *conf,
    struct mg_trace *t, struct mg_diag *d);

void mg_clusterdef_release(struct mg_clusterdef *def);

/*
 * mg_clusterdef_capacity: the nodes up over time that CapacityFromTrace
 * made (faithful mode): *nodes[i] from *time[i] on; how many (0: none).
 */
size_t mg_clusterdef_capacity(const struct mg_clusterdef *def,
    const int64_t **time, const int32_t **nodes);

/*
 * mg_clusterdef_describe: the cluster and trace def models, as
 * "mode=M nodes=N partitions=P,... trace_from=YYYY-MM-DD
 * trace_to=YYYY-MM-DD jobs=J" (partitions "-" if the trace names none),
 * into buf (truncated to cap), for a stream's or a model's header.
 */
void mg_clusterdef_describe(const struct mg_clusterdef *def, char *buf,
    size_t cap);

struct mg_cluster;

/*
 * mg_cluster_new: a run that starts at t0 and sees the trace jobs
 * submitted up to to: in reference mode an empty cluster at t0 and the
 * jobs submitted in [t0, to]; in faithful mode the cluster as the trace
 * says it was at t0 (mg_slurmsim_new_warm()).  Returns 0 and *out, or a
 * negative status.
 */
int mg_cluster_new(const struct mg_clusterdef *def, int64_t t0, int64_t to,
    struct mg_cluster **out);

struct mg_cluster *mg_cluster_copy(const struct mg_cluster *c);
void mg_cluster_free(struct mg_cluster *c);

/* mg_cluster_run: advance to the start of t (see above); 0 or < 0. */
int mg_cluster_run(struct mg_cluster *c, int64_t t);

int64_t mg_cluster_time(const struct mg_cluster *c);

/*
 * mg_cluster_add_job: a chain job of `nodes` nodes, limit and run time
 * (seconds), successor of pred (-1: none).  If submit is the current
 * time it is submitted now, ahead of the trace jobs arriving then in
 * reference mode (as the original submits S); later times join the
 * arrivals like a trace job (as the original submits P).  id orders it
 * against trace ids in reference mode.  Returns its reference, or
 * MG_EINVAL / MG_ENOMEM.
 */
int32_t mg_cluster_add_job(struct mg_cluster *c, const char *id, int32_t nodes,
    int64_t limit, int64_t dur, int64_t submit, int32_t pred);

/*
 * mg_cluster_run_until_start: advance until job j has started, or to
 * the start of limit.  Returns 1 if it started, 0 if not (the run is
 * then at the start of limit), or a negative status.
 */
int mg_cluster_run_until_start(struct mg_cluster *c, int32_t j,
    int64_t limit);

int64_t mg_cluster_job_start(const struct mg_cluster *c, int32_t j);

/* mg_cluster_job_end: when job j ended, by the current time; -1 if not */
int64_t mg_cluster_job_end(const struct mg_cluster *c, int32_t j);

/* mg_cluster_pending: the jobs submitted and waiting now */
size_t mg_cluster_pending(const struct mg_cluster *c);

/*
 * mg_cluster_set_user: chain job j, added with a later submission,
 * belongs to trace user user: it counts in that user's limits and
 * fair-share (faithful mode; the reference model has no users).  0 or
 * MG_EINVAL.
 */
int mg_cluster_set_user(struct mg_cluster *c, int32_t j, int32_t user);

/*
 * mg_cluster_set_handover: chain job j (added, not yet started) takes
 * over from its predecessor: when j starts while the predecessor runs,
 * the predecessor ends secs later (it checkpoints and exits), unless it
 * ends before.  Returns 0, or MG_EINVAL (no predecessor, started, secs
 * < 1).
 */
int mg_cluster_set_handover(struct mg_cluster *c, int32_t j, int64_t secs);

/*
 * mg_cluster_set_begin: chain job j, added with a later submission and
 * not yet submitted by the run, cannot start before t (sbatch --begin);
 * its age counts from t, or from its submission with
 * PriorityFlags=ACCRUE_ALWAYS.  0, or MG_EINVAL (the reference model has
 * no begin times).
 */
int mg_cluster_set_begin(struct mg_cluster *c, int32_t j, int64_t t);

/*
 * mg_cluster_set_low: chain job j, added and not yet started, waits
 * behind every job that does not until until (a successor QOS whose
 * priority is below every other's: it starts only where backfill finds
 * it delays none of them), then as if submitted then.  0, or MG_EINVAL.
 */
int mg_cluster_set_low(struct mg_cluster *c, int32_t j, int64_t until);

/* mg_cluster_job_submit: as the model keeps it (reference: the minute) */
int64_t mg_cluster_job_submit(const struct mg_cluster *c, int32_t j);

/* mg_cluster_gap: S's start - P's end; *ok = 0 until both are known */
int64_t mg_cluster_gap(const struct mg_cluster *c, int32_t j, int *ok);

/* mg_clusterdef_preempts: whether its clusters preempt (faithful mode,
 * PreemptMode not OFF). */
int mg_clusterdef_preempts(const struct mg_clusterdef *def);

/*
 * mg_cluster_set_urgent: chain job j, not yet started, is urgent: it
 * preempts best-effort jobs when it cannot start.  Returns 0, or
 * MG_EINVAL when the cluster does not preempt.
 */
int mg_cluster_set_urgent(struct mg_cluster *c, int32_t j);

/* mg_cluster_victims_lost: node-seconds of work lost by the jobs preempted
 * for job j (0 without preemption). */
double mg_cluster_victims_lost(const struct mg_cluster *c, int32_t j);

/*
 * mg_cluster_avg_wait: the mean wait of the last 100 jobs started, in
 * seconds: the estimate of the original's average-wait baseline.  In
 * reference mode exactly the original's (whole minutes, measured at its
 * stop point after the current time; see mg_sim_stats_after_start()).
 * Returns 0 or MG_ENOMEM.
 */
int mg_cluster_avg_wait(const struct mg_cluster *c, int64_t *sec);

/*
 * A future: the planner's model of what may come after now, a cluster
 * made from a drawn trace, job i of the trace being job i of the model.
 * Reference mode starts from the trace's queue at t0 (its jobs pending
 * then with their recorded priorities over prio_scale, the backfill
 * passes falling from bf_next).  Faithful mode runs Slurm's schedulers
 * with the priorities as recorded (over prio_scale: no age or size
 * weight; new jobs behind them), a backfill pass every bf_interval
 * seconds, the limits per user (0: none) and, when cap_n > 1, the
 * capacity over time from now (the nodes at least its most).  In a future a chain job is submitted
 * at the time the run has reached (mg_cluster_add_job()), with priority
 * chain_prio in faithful mode, and mg_cluster_run(c, t) brings a
 * reference run to the minute that holds t.
 */
struct mg_futuredef {
	enum mg_simmode mode;
	int32_t nodes;
	double prio_scale;
	int64_t bf_next;		/* reference */
	double chain_prio;		/* faithful, from here on */
	int64_t bf_interval;
	int max_jobs_pu, max_nodes_pu;
	const int64_t *cap_time;
	const int32_t *cap_nodes;
	size_t cap_n;
};

/*
 * mg_cluster_new_future: the future fd of trace t (which must outlive
 * it) from t0, seeing the jobs submitted up to to.  Returns 0 and *out,
 * or a negative status.
 */
int mg_cluster_new_future(const struct mg_futuredef *fd,
    const struct mg_trace *t, int64_t t0, int64_t to,
    struct mg_cluster **out);

/*
 * A replay of the whole trace of a definition in its model: every job
 * from first, the jobs submitted up to last (mirage-eval --replay).
 */
struct mg_replay {
	int64_t *start;		/* each trace job's (first) start */
	struct mg_joblife *life;	/* with MG_REPLAY_LIFE (faithful
					 * mode): each job's */
	struct mg_loanstats loan;	/* faithful mode: what loaning did */
	int64_t hour0;		/* with MG_REPLAY_HOURS: the loaning hour by */
	double *lent, *used;	/* hour from hour0 (faithful mode) */
	size_t nhours;
};

#define MG_REPLAY_LIFE	1
#define MG_REPLAY_HOURS	2

/*
 * mg_cluster_replay: replay def's trace into *r (what flags asks for
 * besides the starts).  Returns 0; MG_EINVAL with d naming a job that
 * never starts in the model; or MG_ENOMEM.  Release with
 * mg_cluster_replay_release().
 */
int mg_cluster_replay(const struct mg_clusterdef *def, int64_t first,
    int64_t last, int flags, struct mg_replay *r, struct mg_diag *d);

void mg_cluster_replay_release(struct mg_replay *r);

/* mg_cluster_view: see mg_sim_view(); 0 or MG_ENOMEM */
int mg_cluster_view(const struct mg_cluster *c, int32_t s_nodes,
    int64_t recent, struct mg_view *v);

#endif /* MG_CLUSTER_H */
