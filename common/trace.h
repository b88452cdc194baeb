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

#include "stream.h"

struct mg_tjob {
	int64_t submit;		/* seconds since the epoch */
	int64_t start;		/* when it really started */
	int64_t dur;		/* run time, seconds, clamped to the limit */
	int64_t limit;		/* seconds */
	int64_t prio;		/* recorded Slurm priority, -1 if none */
	int64_t uid;		/* -1 if unknown */
	int32_t user;		/* dense index of uid, -1 if unknown */
	int32_t nodes;
	char id[20];		/* JobID as text, for ordering ties */
};

struct mg_trace {
	struct mg_tjob *job;
	size_t n;
	size_t skipped;		/* jobs without start, end, limit or size */
	size_t nusers;		/* distinct uids */
};

/*
 * mg_trace_load: read every record of a jobs stream from r into t,
 * keeping jobs that ran (start and end known) with a positive limit and
 * size.  Returns 0, or a negative status with d set.  Free with
 * mg_trace_release().
 */
int mg_trace_load(struct mg_reader *r, struct mg_trace *t,
    struct mg_diag *d);

void mg_trace_release(struct mg_trace *t);

/* mg_tjob_cmp: the arrival order: submit minute, then id as a string. */
int mg_tjob_cmp(const struct mg_tjob *a, const struct mg_tjob *b);

#endif /* MG_TRACE_H */
