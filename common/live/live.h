/*
 * live.h: a real cluster as squeue and sacct show it.  Jobs from any
 * number of dumps (squeue and sacct in any layout mg_sacct_parse() reads,
 * or jobs streams) are kept by JobID; a later dump of the same job
 * replaces an earlier one, so the live queue is given last.  From them
 * mg_live_view() builds the struct mg_view of any moment up to now, the
 * same view the cluster models give, so the features of a live decision
 * are computed by the same code as in training.
 */
#ifndef MG_LIVE_H
#define MG_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "base/parse.h"
#include "base/status.h"
#include "io/trace.h"
#include "cluster/view.h"

struct mg_live_job {
	char jobid[32];		/* as Slurm prints it */
	int64_t submit, start, end;	/* -1 if not known */
	int64_t limit;		/* seconds; -1 if unknown or UNLIMITED */
	double prio;		/* Slurm's priority; NAN if not shown */
	int32_t nodes;		/* 0 if unknown */
	char user[32];		/* its user's name, "" if not shown */
	int32_t uidx;		/* that user's index among the dumps',
				 * -1 if none (set by settling) */
	int pending;		/* the dump says PENDING */
	char state[24];		/* the dump's state word, "" if none */
	uint32_t source;	/* which dump, from 0 */
	uint64_t seq;		/* order read: the last read wins */
};

struct mg_live {
	struct mg_live_job *job;
	size_t n, cap;
	uint32_t sources;
	uint64_t seq;
	const char *partition;	/* keep only this partition (NULL: all) */
	int64_t now;		/* squeue's TIME counts back from it */
	enum mg_tz tz;		/* the zone the dumps print times in */
	int sorted;
	size_t nusers;		/* users named in the dumps */
	char zone_note[512];	/* a jobs stream read in another zone than
				 * tz, said once ("" if none) */
};

/*
 * mg_live_read: add the jobs of path ("-": standard input), a squeue or
 * sacct dump or a jobs stream.  Returns 0, or a negative status with d
 * naming the file (and the line or record).  *layout, if not NULL, gets
 * the layout found (a constant string).
 */
int mg_live_read(struct mg_live *l, const char *path, const char **layout,
    struct mg_diag *d);

/*
 * mg_live_read_mem: the same from buf[0..len) (borrowed for the call),
 * shown as name.
 */
int mg_live_read_mem(struct mg_live *l, const void *buf, size_t len,
    const char *name, const char **layout, struct mg_diag *d);

/*
 * mg_live_ended: job jobid ended by now, how unknown (state "ENDED"):
 * the controller has forgotten it and no dump shows it yet.  0 or
 * MG_ENOMEM.
 */
int mg_live_ended(struct mg_live *l, const char *jobid, int64_t now);

/* mg_live_find: the job called jobid, or NULL. */
const struct mg_live_job *mg_live_find(struct mg_live *l, const char *jobid);

/*
 * mg_live_view: the view at time t <= now of a cluster of cluster_nodes
 * nodes:
 * pending jobs (submitted, not started, not ended by t) in Slurm's
 * priority order when the dump shows priorities (else by submission),
 * running jobs, and the jobs that started and ended in (t - recent, t].
 * A job called chain is marked as the chain's.  s_prio is the priority
 * a successor submitted now is assumed to get.  Returns 0 or MG_ENOMEM.
 */
int mg_live_view(struct mg_live *l, int64_t t, int32_t cluster_nodes,
    int64_t recent, const char *chain, double s_prio, struct mg_view *v);

/*
 * mg_live_fresh_prio: what a job submitted at now would get: the median
 * priority of the jobs pending at now that were submitted in the last
 * hour, or else the lowest pending priority; if the dumps show no
 * priority, behind every job submitted before now (the view then orders
 * pending jobs by submission).
 */
double mg_live_fresh_prio(struct mg_live *l);

/*
 * mg_live_incomplete: the jobs not ended by now whose time limit or
 * submission time the dumps do not show, if they are most of them (one
 * may be UNLIMITED), else 0: without them a view is not the one a model
 * was trained on (squeue's default and -l layouts show neither).
 */
size_t mg_live_incomplete(struct mg_live *l, int64_t now);

/*
 * mg_live_history: the jobs that had ended by t (submit, start, end,
 * limit and size known) as a trace (io/trace.h), in arrival order: the
 * history a planner may learn from at t.  Returns 0 or MG_ENOMEM;
 * release t with mg_trace_release().
 */
int mg_live_history(struct mg_live *l, int64_t t, struct mg_trace *tr);

void mg_live_release(struct mg_live *l);

#endif /* MG_LIVE_H */
