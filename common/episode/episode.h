/*
 * episode.h: a chain placed into a replayed trace.  Episode k starts at
 * S0; the cluster sees the trace jobs submitted in [S0, S0 + workload];
 * the predecessor P is submitted at S0 + warmup and runs p_dur seconds
 * (at most its limit); the question, asked at each decision time while P
 * is pending or running, is when to submit the successor S.  In a chain
 * of more than two jobs, the first job is submitted at S0 + warmup and
 * each next one at its predecessor's end (reactively, as with an afterany
 * dependency) up to P, the last before S; the question is S's.
 *
 * The episode advances one trajectory without S, taking a reference
 * snapshot every period seconds from S0 into a window; at a decision
 * time the caller reads the features, and mg_episode_probe() answers
 * "what if S were submitted now" on a copy of the state, so that the
 * past is simulated once (the original re-simulates from S0 per probe).
 */
#ifndef MG_EPISODE_H
#define MG_EPISODE_H

#include <stdint.h>

#include "cluster/cluster.h"
#include "episode/feature.h"
#include "plan/plan.h"

struct mg_epconf {
	int64_t workload;	/* seconds of trace submissions: 5 days */
	int64_t warmup;		/* P is submitted at S0 + warmup: 2 days */
	int32_t nodes;		/* P's and S's nodes */
	int64_t limit;		/* their time limits: 48 h */
	int64_t p_dur;		/* P's run time: its limit */
	int64_t s_dur;		/* S's run time: its limit */
	int64_t period;		/* seconds between snapshots: 600 */
	int window;		/* snapshots kept: 144 */
	int chain;		/* jobs in the chain, S included: 2 */
	int at_start;		/* reference switch: the original's probes keep
				 * the window as it is when S starts */
};

/* mg_epconf_paper: the paper's episodes for chains of `nodes` nodes. */
void mg_epconf_paper(struct mg_epconf *e, int32_t nodes);

/*
 * Which episodes a command runs: episode i starts at from + i every, for
 * each chain size.  The commands that run episodes share the settings,
 * by name (mg_epsel_set()).
 */
#define MG_EPSEL_MAXSIZES 8

struct mg_epsel {
	struct mg_epconf e;	/* nodes set per size */
	int64_t from, until, every;
	long count;		/* -1 if not given */
	int have_from, have_until;
	int32_t sizes[MG_EPSEL_MAXSIZES];
	int nsizes;
	int gpus;		/* sizes are GPUs */
	int64_t p_dur;		/* -1: P runs to its limit */
	size_t n;		/* episodes per size, once resolved */
	int skip_empty;		/* no range given: skip empty windows */
	int shard, shards;	/* --shard i/n: every nth episode from the
				 * ith; resolving makes it a plain range */
	size_t ibase, istep;	/* episode i is the whole run's
				 * ibase + i * istep */
};

/* mg_epsel_init: the paper's episodes, 1-node chains, every 4 hours. */
void mg_epsel_init(struct mg_epsel *s);

/*
 * mg_epsel_set: setting name (from, count, until, every, sizes, gpus,
 * window, chain, workload, warmup, limit, p-runtime, shard) to arg.
 * Returns 0, or MG_EINVAL with d naming the bad value or setting.
 */
int mg_epsel_set(struct mg_epsel *s, const char *name, const char *arg,
    struct mg_diag *d);

/*
 * mg_epsel_resolve: check the choice against the cluster and the trace:
 * sizes in GPUs become nodes, the first start defaults to the first
 * submission's day, the count to every episode the trace covers (and
 * then episodes whose window holds no job are to be skipped, where an
 * explicit range makes them errors); a shard i/n keeps episodes i, i + n,
 * ... of them.  Returns 0, or MG_EINVAL with d set.
 */
int mg_epsel_resolve(struct mg_epsel *s, const struct mg_clusterdef *def,
    struct mg_diag *d);

/* mg_epsel_index: episode i's number in the run without --shard */
size_t mg_epsel_index(const struct mg_epsel *s, size_t i);

/* mg_epsel_span: count episodes of s's kind (its chains and sizes) from
 * from, every s->every, as one plain resolved range */
struct mg_epsel mg_epsel_span(const struct mg_epsel *s, int64_t from,
    long count);

/* mg_epsel_start: episode i's start */
int64_t mg_epsel_start(const struct mg_epsel *s, size_t i);

struct mg_episode;

/*
 * mg_episode_new: episode starting at s0, with P added.  Returns 0 and
 * *out, MG_EINVAL with d set if no trace job is submitted in its
 * workload window, or MG_ENOMEM.
 */
int mg_episode_new(const struct mg_clusterdef *def, const struct mg_epconf *e,
    int64_t s0, struct mg_episode **out, struct mg_diag *d);

void mg_episode_free(struct mg_episode *ep);

/* mg_episode_empty: 1 if no trace job is submitted in the workload of s0 */
int mg_episode_empty(const struct mg_clusterdef *def, const struct mg_epconf *e,
    int64_t s0);

/*
 * mg_episode_presim: run a copy until P starts; sets P's submit, start
 * and end (start + run time).  Returns 1, 0 if P never starts within
 * 60 days, or a negative status.
 */
int mg_episode_presim(struct mg_episode *ep, int64_t *p_submit,
    int64_t *p_start, int64_t *p_end);

/*
 * mg_episode_advance: move to the start of time t (not backwards),
 * taking the snapshots due on the way (those at S0 + k period <= t).
 * Returns 0 or a negative status.
 */
int mg_episode_advance(struct mg_episode *ep, int64_t t);

/* mg_episode_paper_columns: window * MG_PAPER_SNAP + MG_PAPER_CHAIN */
int mg_episode_paper_columns(const struct mg_epconf *e);

/*
 * mg_episode_feature_names: the names of the features, in the order of
 * mg_episode_features(): "f_NAME" for ours, then "rLAG_NAME" for the
 * window's snapshots, oldest first (LAG snapshots before the newest),
 * then "r_NAME" for the P and S tuples.  MG_OWN + paper columns strings;
 * free with mg_names_free().  Returns 0 or MG_ENOMEM.
 */
int mg_episode_feature_names(const struct mg_epconf *e, char ***names,
    size_t *n);

void mg_names_free(char **names, size_t n);

/*
 * mg_episode_features: the features at the current time: paper (the
 * window, oldest snapshot first, zeros where none was taken yet, then
 * the P and S tuples; mg_episode_paper_columns() values) and own (MG_OWN
 * values); either may be NULL.  Returns 0 or MG_ENOMEM.
 */
int mg_episode_features(struct mg_episode *ep, double *paper, double *own);

/*
 * mg_episode_probe: submit S now in a copy and run the copy until S
 * starts; *x = S's start - P's end (seconds).  With at_start, paper_at
 * (if not NULL) receives the paper's features of the original's
 * probes: the window when S starts, the tuples of now.  Returns 1, 0 if
 * S does not start within 60 days, or a negative status.
 */
int mg_episode_probe(struct mg_episode *ep, int64_t *x, double *paper_at);

/*
 * All that an evaluation needs of one episode: every time a method can
 * submit S at, and the outcome x of submitting then.  The times are the
 * decision ticks (S0 + k period) from the first after P's submission to
 * the first at or after P's end (where every method submits, P having
 * ended), P's end itself (the reactive baseline) and P's end minus the
 * average wait (the average-wait baseline), sorted and distinct.
 */
struct mg_outcome {
	int64_t s0, p_submit, p_start, p_end;
	int64_t avg_wait;	/* seconds, the average-wait estimate */
	size_t n;		/* times */
	int64_t *t;
	int64_t *x;		/* S.start - P.end if submitted at t[k] */
	unsigned char *tick;	/* t[k] is a decision tick */
	size_t k_reactive, k_avg;	/* indices of the baselines' times */
	int has_urgent;		/* a cluster that preempts: S submitted at
				 * P's end as an urgent job */
	int64_t x_urgent;	/* its outcome */
	double caused_urgent;	/* node-seconds its victims lost */
	size_t nfeat;		/* features per tick, if asked */
	float *feat;		/* ticks in order: own, then reference */
	struct mg_plancost *plan;	/* per tick, with a planner */
	int64_t t_first;	/* no decision before it (0: none); under a
				 * handover, P's start: S is never submitted
				 * for a P that has not started */
};

/* which times mg_episode_outcomes() probes: all, none, or one index */
#define MG_PROBE_ALL	SIZE_MAX
#define MG_PROBE_NONE	(SIZE_MAX - 1)
/* an outcome not probed */
#define MG_X_UNKNOWN	INT64_MIN

/*
 * mg_episode_outcomes: run episode s0 once, probing the times above on
 * copies of its state (probe: every one, none, leaving x[k] at
 * MG_X_UNKNOWN, or only index probe, the run stopping there), with the
 * features at each tick if feat, and the planner's estimate at each
 * tick if plan is not NULL (from the view at the tick and what P's
 * owner knows: P's start once it started, its run time; draws numbered
 * by s0).  Returns 0, or a negative status with d saying which episode
 * and why.  Free with mg_outcome_release().
 */
int mg_episode_outcomes(const struct mg_clusterdef *def,
    const struct mg_epconf *e, int64_t s0, int feat,
    const struct mg_plan *plan, size_t probe, struct mg_outcome *o,
    struct mg_diag *d);

/*
 * mg_episode_outcome_at: x at time index k of episode s0 alone, as
 * mg_episode_outcomes() would probe it (the episode run up to it).
 * Returns 0, or a negative status with d saying why.
 */
int mg_episode_outcome_at(const struct mg_clusterdef *def,
    const struct mg_epconf *e, int64_t s0, size_t k, int64_t *x,
    struct mg_diag *d);

void mg_outcome_release(struct mg_outcome *o);

/*
 * mg_outcomes_run: the outcomes, with features of a window of window
 * snapshots, of the episodes first .. first + count - 1 of s, numbered
 * over all sizes (episode i is start i % s->n of size s->sizes[i / s->n]),
 * computed on threads threads into o[0..count), with the planner's
 * estimates if plan is not NULL, every outcome probed if probe, none
 * (MG_X_UNKNOWN) otherwise.  An episode s says to
 * skip is left zeroed (o[k].n == 0).  Returns 0, or a negative status
 * with d naming the episode; release each outcome with
 * mg_outcome_release() either way.
 */
int mg_outcomes_run(const struct mg_clusterdef *def, const struct mg_epsel *s,
    int window, size_t first, size_t count, int threads,
    const struct mg_plan *plan, int probe, struct mg_outcome *o,
    struct mg_diag *d);

#endif /* MG_EPISODE_H */
