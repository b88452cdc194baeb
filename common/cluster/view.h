/*
 * view.h: what a user of the cluster could see at one moment: the
 * pending queue in priority order, the running jobs, and the jobs that
 * started recently.  Both cluster models fill one (mg_sim_view(),
 * mg_slurmsim_view()); the features are computed from it alone, so they
 * cannot use anything a real squeue or sacct would not show at that time
 * (run times of running jobs are not in it, only their limits).
 */
#ifndef MG_VIEW_H
#define MG_VIEW_H

#include <stddef.h>
#include <stdint.h>

/* what a low job's priority is below its own (mg_cluster_set_low): below
 * every priority a model's factors give */
#define MG_VIEW_LOW	1e12

struct mg_view_job {
	int64_t submit;		/* as the model keeps it */
	int64_t start;		/* -1 while pending */
	int64_t limit;		/* seconds */
	int64_t end;		/* ended jobs: when; else -1 */
	double prio;		/* pending jobs: the priority now */
	int32_t nodes;
	int32_t chain;		/* 1 for the episode's chain jobs, else 0 */
	int32_t trace;		/* the trace job it replays, or -1: for
				 * diagnostics that may know the truth */
	int32_t user;		/* its user, as the trace's index (squeue
				 * shows it), or -1 */
	int32_t job;		/* the model's reference of it (a real
				 * cluster's views: -1) */
};

struct mg_view {
	int64_t t;		/* now */
	int32_t nodes;		/* the cluster's nodes now */
	int32_t free;		/* of which free */
	double s_prio;		/* what a new job of the asked size would get */
	int64_t bf_next;	/* the next backfill pass, at or after t, if
				 * known (sdiag shows the last): else 0 */
	struct mg_view_job *pend;	/* highest priority first */
	size_t npend, cappend;
	struct mg_view_job *run;
	size_t nrun, caprun;
	struct mg_view_job *recent;	/* started in (t - recent window, t] */
	size_t nrecent, caprecent;
	struct mg_view_job *ended;	/* ended in (t - recent window, t] */
	size_t nended, capended;
};

/* mg_view_clear: empty the lists, keeping their memory; bf_next 0. */
void mg_view_clear(struct mg_view *v);

/* mg_view_release: free the lists; v may then be reused as zeroed. */
void mg_view_release(struct mg_view *v);

/* mg_view_add: append j to one of v's lists; 0 or MG_ENOMEM. */
int mg_view_add(struct mg_view_job **list, size_t *n, size_t *cap,
    const struct mg_view_job *j);

/*
 * mg_view_sort_pending: the pending list in priority order, highest
 * first, the earlier submission first among equals.
 */
void mg_view_sort_pending(struct mg_view *v);

#endif /* MG_VIEW_H */
