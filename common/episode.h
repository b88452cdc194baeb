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

#include "cluster.h"
#include "feature.h"

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

/* mg_epconf_paper: the paper's episodes for chains of nodes nodes. */
void mg_epconf_paper(struct mg_epconf *e, int32_t nodes);

/*
 * mg_epconf_check: 0, or MG_EINVAL with d saying what is wrong (warm-up
 * not inside the workload window, P larger than the cluster, ...).
 */
int mg_epconf_check(const struct mg_epconf *e, const struct mg_clusterdef *def,
    struct mg_diag *d);

struct mg_episode;

/*
 * mg_episode_new: episode starting at s0, with P added.  Returns 0 and
 * *out, MG_EINVAL with d set if no trace job is submitted in its
 * workload window, or MG_ENOMEM.
 */
int mg_episode_new(const struct mg_clusterdef *def, const struct mg_epconf *e,
    int64_t s0, struct mg_episode **out, struct mg_diag *d);

void mg_episode_free(struct mg_episode *ep);

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

int64_t mg_episode_time(const struct mg_episode *ep);

/* mg_episode_ref_columns: window * MG_REF_SNAP + MG_REF_CHAIN */
int mg_episode_ref_columns(const struct mg_epconf *e);

/*
 * mg_episode_features: the features at the current time: ref (the
 * window, oldest snapshot first, zeros where none was taken yet, then
 * the P and S tuples; mg_episode_ref_columns() values) and own (MG_OWN
 * values); either may be NULL.  Returns 0 or MG_ENOMEM.
 */
int mg_episode_features(struct mg_episode *ep, double *ref, double *own);

/*
 * mg_episode_probe: submit S now in a copy and run the copy until S
 * starts; *x = S's start - P's end (seconds).  With at_start, ref_at
 * (if not NULL) receives the reference features of the original's
 * probes: the window when S starts, the tuples of now.  Returns 1, 0 if
 * S does not start within 60 days, or a negative status.
 */
int mg_episode_probe(struct mg_episode *ep, int64_t *x, double *ref_at);

#endif /* MG_EPISODE_H */
