/*
 * sim.h: the cluster model: a simulator of a Slurm GPU partition that
 * replays a trace, with chains of jobs whose successor is submitted by a
 * provisioner.
 *
 * This is the reference mode (slurmsim.h is the faithful one): the
 * original Mirage simulator, step for step (one-minute steps, whole-node allocation,
 * uncapped age priority, a FIFO pass every minute and a conservative
 * backfill pass every bf_interval minutes, a cold start at the episode
 * start), so that its results can be checked against the original's;
 * mg_sim_new_warm() starts it from a view instead, for the planner.
 * A state is plain data: mg_sim_copy() forks it, so a caller runs to
 * time t once and tries several futures from there.
 */
#ifndef MG_SIM_H
#define MG_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "io/trace.h"
#include "cluster/view.h"

struct mg_sim_params {
	int nodes;		/* identical whole nodes */
	double w_age;		/* PriorityWeightAge */
	double max_age;		/* PriorityMaxAge, seconds (not a cap here) */
	double w_size;		/* PriorityWeightJobSize */
	int bf_interval;	/* minutes between backfill passes */
	int bf_window;		/* minutes */
	int bf_resolution;	/* seconds */
	int bf_max_job_test;
	int wait_hist;		/* started jobs in the average-wait window */
};

/* mg_sim_params_reference: the original's settings, with `nodes` nodes. */
void mg_sim_params_reference(struct mg_sim_params *c, int nodes);

struct mg_sim;

/* A job of the episode, by index; trace jobs come first. */
typedef int32_t mg_jobref;

/*
 * mg_sim_new: an empty cluster at time t0 (rounded down to the minute)
 * that will see the trace jobs submitted in [from, to] (both inclusive,
 * seconds).  Returns 0 and *out (free with mg_sim_free()), or MG_ENOMEM
 * / MG_EINVAL.  The trace is borrowed and must outlive the simulator and
 * its copies.
 */
int mg_sim_new(const struct mg_sim_params *c, const struct mg_trace *t,
    int64_t t0, int64_t from, int64_t to, struct mg_sim **out);

/*
 * mg_sim_new_warm: a cluster already running at t0 (rounded down to the
 * minute), built from every job of t, job i of t being job i of the
 * simulator: a job submitted before t0 that started before t0 runs
 * until its nodes come back (or has ended), one that had not is pending
 * with the priority of a new job of its size (mg_sim_set_prio() sets
 * another); the jobs submitted in [t0, to] arrive.  For a planner that
 * starts the model from a view.  Running jobs may hold more than the
 * nodes (a capacity that fell under them): nothing then starts until
 * enough have ended.  Returns as mg_sim_new().
 */
int mg_sim_new_warm(const struct mg_sim_params *c, const struct mg_trace *t,
    int64_t t0, int64_t to, struct mg_sim **out);

/* mg_sim_set_prio: pending job j's priority now; 0 or MG_EINVAL */
int mg_sim_set_prio(struct mg_sim *s, mg_jobref j, double prio);

/*
 * mg_sim_set_bf_next: the backfill passes fall at when, and every
 * bf_interval minutes from it (a view's bf_next), rather than at the
 * first minute; when before now is ignored.
 */
void mg_sim_set_bf_next(struct mg_sim *s, int64_t when);

/* mg_sim_copy: a complete, independent copy of s, or NULL. */
struct mg_sim *mg_sim_copy(const struct mg_sim *s);

void mg_sim_free(struct mg_sim *s);

/*
 * mg_sim_add_chain_job: add a job of a chain (P, S, ...) with id (a
 * string, for ordering against trace ids), size, limit and run time in
 * seconds, as the successor of pred (-1 if none).  If arrive is 1 it
 * joins the arrivals at submit (rounded down to the minute), like a trace
 * job; if 0 it is submitted to the scheduler now, ahead of the trace
 * jobs arriving this minute.  Returns its reference, or a negative status.
 */
mg_jobref mg_sim_add_chain_job(struct mg_sim *s, const char *id,
    int32_t nodes, int64_t limit, int64_t dur, int64_t submit,
    mg_jobref pred, int arrive);

/* mg_sim_step: simulate the current minute, then advance to the next. */
void mg_sim_step(struct mg_sim *s);

/*
 * mg_sim_run_until_start: step until job j has started or the time
 * limit is reached; returns 1 if started, 0 if not.
 */
int mg_sim_run_until_start(struct mg_sim *s, mg_jobref j, int64_t limit);

int64_t mg_sim_time(const struct mg_sim *s);
int64_t mg_sim_job_start(const struct mg_sim *s, mg_jobref j);	/* -1 */
int64_t mg_sim_job_submit(const struct mg_sim *s, mg_jobref j);

/* mg_sim_job_end: when job j ended (by the current time), or -1 */
int64_t mg_sim_job_end(const struct mg_sim *s, mg_jobref j);

/*
 * mg_sim_set_handover: chain job j (added, not started) takes over from
 * its predecessor: when j starts while the predecessor runs, the
 * predecessor ends secs later (it checkpoints and exits), unless it ends
 * before.  Returns 0, or MG_EINVAL (no predecessor, started, secs < 1).
 */
int mg_sim_set_handover(struct mg_sim *s, mg_jobref j, int64_t secs);

/*
 * mg_sim_set_low: chain job j (added, not started) waits behind every
 * job that does not until until (a QOS of the lowest priority: it starts
 * only where it delays none of them, as backfill plans), then as if
 * submitted then.  0, or MG_EINVAL (started).
 */
int mg_sim_set_low(struct mg_sim *s, mg_jobref j, int64_t until);

/*
 * mg_sim_chain_gap: x = start of j - end of its predecessor, seconds
 * (positive: interruption, negative: overlap); 0 and *ok = 0 if not yet
 * known.
 */
int64_t mg_sim_chain_gap(const struct mg_sim *s, mg_jobref j, int *ok);

size_t mg_sim_pending(const struct mg_sim *s);

/* mg_sim_njobs, mg_sim_started: jobs in the episode, and started so far */
size_t mg_sim_njobs(const struct mg_sim *s);
size_t mg_sim_started(const struct mg_sim *s);

/*
 * mg_sim_stats_after_start: the original measures its average wait and
 * queue size not at P's start but after running on to the next trace
 * submission and queueing it (see the spec, 3.7).  This does that on a
 * copy and leaves s alone.  Returns 0 or MG_ENOMEM.
 */
int mg_sim_stats_after_start(const struct mg_sim *s, int64_t *avg_wait_min,
    size_t *qsize);

/*
 * mg_sim_view: fill v with the state at the start of the current minute
 * (before its arrivals and its scheduling): pending jobs in priority
 * order, running jobs, and jobs started in the last recent seconds;
 * s_prio is the priority a job of `s_nodes` nodes would get now.  Returns
 * 0 or MG_ENOMEM.
 */
int mg_sim_view(const struct mg_sim *s, int32_t s_nodes, int64_t recent,
    struct mg_view *v);

#endif /* MG_SIM_H */
