/*
 * trace.h: a jobs stream reduced to what the cluster simulator replays:
 * one entry per job with its submit time, run time, limit, size and id,
 * sorted by (submit minute, id string) as the original Mirage simulator
 * orders its arrivals.
 */
#ifndef MG_TRACE_H
#define MG_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "io/stream.h"

struct mg_trace_job {
	int64_t submit;		/* seconds since the epoch */
	int64_t start;		/* when it really started */
	int64_t dur;		/* run time, seconds, clamped to the limit */
	int64_t limit;		/* seconds */
	int64_t prio;		/* recorded Slurm priority, -1 if none */
	int64_t uid;		/* -1 if unknown */
	int32_t user;		/* dense index of uid, -1 if unknown */
	int32_t after;		/* index of a job it waited for, or -1 */
	int32_t part;		/* index into part_name, -1 if none */
	int32_t qos;		/* index into qos_name, -1 if none */
	int32_t account;	/* index into acct_name, -1 if none */
	int32_t assoc;		/* index of its (account, user) pair, -1
				 * if its user is unknown */
	int64_t eligible;	/* when it could first start, if after its
				 * submission (a --begin time); else -1 */
	int32_t nodes;
	char id[20];		/* JobID as text, for ordering ties */
};

struct mg_trace {
	struct mg_trace_job *job;
	size_t n;
	size_t skipped;		/* jobs without start, end, limit or size */
	size_t nusers;		/* distinct uids */
	char **part_name;	/* distinct partition names, as they appear */
	size_t nparts;
	char **qos_name;	/* distinct QOS names, as they appear */
	size_t nqos;
	char **acct_name;	/* distinct accounts, as they appear */
	size_t naccts;
	/* Slurm's associations: the distinct (account, user) pairs, by
	 * account and user; the account of each (-1: none) */
	int32_t *assoc_acct;
	size_t nassoc;
};

/*
 * mg_trace_load: read every record of a jobs stream from r into t,
 * keeping jobs that ran (start and end known) with a positive limit and
 * size.  Returns 0, or a negative status with d set.  Free with
 * mg_trace_release().
 */
int mg_trace_load(struct mg_reader *r, struct mg_trace *t,
    struct mg_diag *d);

/*
 * mg_trace_read: mg_trace_load() from the jobs stream in the file at
 * path ("-": standard input), with d naming the file.  A stream without
 * a job that ran is MG_EFORMAT.
 */
int mg_trace_read(const char *path, struct mg_trace *t, struct mg_diag *d);

void mg_trace_release(struct mg_trace *t);

/*
 * mg_trace_infer_deps: mark job j as waiting for job i (j.after = i) when
 * the trace suggests a dependency the accounting does not record: both
 * belong to one user, j was submitted before i ended, j waited more than min_wait
 * seconds, j started within gap seconds after i ended, and the user ran
 * fewer than user_limit jobs just before (so the per-user limit does not
 * explain the wait; 0: no limit).  Returns the number of jobs marked.
 */
size_t mg_trace_infer_deps(struct mg_trace *t, int64_t gap, int64_t min_wait,
    int user_limit);

/*
 * mg_trace_capacity: the nodes the trace's jobs could use, hour by hour
 * (window seconds): where some job waited through the whole window
 * before, the most nodes the real jobs held during that window (the
 * cluster could not give more: drained nodes, maintenance, nodes lent to
 * other partitions), plus slack nodes; elsewhere nodes.  Each window
 * takes what the one before showed, so a window's capacity depends on
 * nothing that was submitted or started after it began.  Sets *times and *caps (caller frees both) to *n
 * change points, capacity caps[k] from times[k] on.  Returns 0 or
 * MG_ENOMEM.
 */
int mg_trace_capacity(const struct mg_trace *t, int32_t nodes,
    int64_t window, int32_t slack, int64_t **times, int32_t **caps,
    size_t *n);

/* mg_trace_span: the first and last submissions of t (which has jobs) */
void mg_trace_span(const struct mg_trace *t, int64_t *first, int64_t *last);

/* mg_trace_job_cmp: the arrival order: submit minute, then id as a string. */
int mg_trace_job_cmp(const struct mg_trace_job *a,
    const struct mg_trace_job *b);

#endif /* MG_TRACE_H */
