/*
 * replay.h: what a replay of a trace (mg_cluster_replay()) says about
 * the cluster model and about the cluster it models: each job's
 * simulated wait beside its real one, summarised by group (the model's
 * fidelity) or listed job by job; the waits, preemptions and completion
 * times it produced; the inference pool hour by hour; and the
 * attributes it drew for its jobs, as streams a later run can read.
 * The writers format onto the stream the caller gives.
 */
#ifndef MG_REPLAY_H
#define MG_REPLAY_H

#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "cluster/cluster.h"
#include "io/stream.h"
#include "io/trace.h"

/* mg_replay_write_jobs: the real and simulated waits job by job, with
 * r->life's class, preemptions, loss and end when lives is set */
void mg_replay_write_jobs(FILE *fp, const struct mg_trace *t,
    const struct mg_replay *r, int lives);

/* waits (hours) of a class of jobs */
struct mg_replaywait {
	size_t n;
	double mean_h, median_h, p95_h;
};

/* what the replayed cluster did (from r->life) */
struct mg_replaystats {
	size_t preemptions;
	double lost_h;		/* node-hours lost, GPU-hours with GPUs */
	double makespan_h;	/* first submission to last end */
	struct mg_replaywait wait[3];	/* urgent, best-effort, all */
	double jct_mean_h;	/* completion time: submission to end */
};

/*
 * mg_replay_write_summary: in words onto fp, each line after prefix, the
 * jobs of t replayed on def, then what preemption did (waits by class,
 * the makespan, preemptions and what they cost), what loaning did
 * (usage, reclaims, SLO, waits, completion time), and how often elastic
 * jobs were resized: each where def's configuration has it.  r is the
 * replay, with lives when preempting or loaning.  0 or MG_ENOMEM.
 */
int mg_replay_write_summary(FILE *fp, const char *prefix,
    const struct mg_clusterdef *def, const struct mg_trace *t,
    const struct mg_replay *r);

/*
 * mg_replay_write_files: r's files, each whole or not at all (temporary
 * files renamed): the fidelity table to out (NULL or "-": standard
 * output) and, when not NULL, the same job by job to jobs (written first,
 * so that no table is left beside a failed one) and the hours of loaning
 * to hours.  classes as above, lives when preempting or loaning.
 * Returns 0, or a status with d saying which failed.
 */
int mg_replay_write_files(const struct mg_clusterdef *def,
    const struct mg_trace *t, const struct mg_replay *r, const char *out,
    const char *jobs, const char *hours, int classes, int lives,
    struct mg_diag *d);

/*
 * mg_replay_write_attrs: those streams to the files dl and el (NULL: not
 * written), each whole or not at all, stamped with producer; MG_EINVAL
 * with d saying what setting each needs if def has none.
 */
int mg_replay_write_attrs(const struct mg_clusterdef *def,
    const struct mg_trace *t, const char *dl, const char *el,
    const char *producer, struct mg_diag *d);

#endif /* MG_REPLAY_H */
