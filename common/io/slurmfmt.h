/*
 * slurmfmt.h: what every Slurm layout shares (sacct's and squeue's text
 * and --json, read by sacct.c and sacctjson.c): a JobID's parts, a TRES
 * string's GPUs, the sink that parsed jobs and row problems go to; and
 * hostlists, as slurm.conf, sinfo and sacctmgr write them.
 */
#ifndef MG_SLURMFMT_H
#define MG_SLURMFMT_H

#include <stddef.h>
#include <stdint.h>

#include "base/parse.h"
#include "base/status.h"
#include "io/job.h"

/*
 * Where jobs and row problems go.  job() gets a complete record (strings
 * borrowed for the call) and the input line it came from (0 for JSON);
 * a nonzero return stops the parse with that status.  warn() gets a
 * message about one row; bad is 1 when the row was dropped, 0 when it was
 * read under a documented repair rule; nonzero stops the parse.
 */
struct mg_slurmfmt_sink {
	void *ctx;
	int (*job)(void *ctx, const struct mg_value *job, uint64_t line);
	int (*warn)(void *ctx, uint64_t line, int bad, const char *msg);
	uint64_t steps;		/* out: job-step rows skipped */
	const char *layout;	/* out: layout found, e.g. "sacct -P" */
};

/*
 * mg_slurmfmt_jobid: split a sacct JobID ("123", "123_4", "123_[1-5%2]",
 * "30+1", "123.batch") into its parts.  Sets *base, *task (-1 if none,
 * -2 for a pending array remainder), *het (-1 if none) and *step (1 if
 * it is a job step).  Returns 0 or -1 if it is not a JobID.
 */
int mg_slurmfmt_jobid(const char *s, size_t n, int64_t *base, int64_t *task,
    int64_t *het, int *step);

/*
 * mg_slurmfmt_gpus: the GPU count in a TRES string ("billing=8,gres/gpu=2"
 * or typed "gres/gpu:a100=2").  Returns 0 and sets *n (0 if the string
 * lists no GPU), MG_PARSE_MISSING for an empty string, or MG_PARSE_BAD.
 */
int mg_slurmfmt_gpus(const char *s, size_t n, int64_t *out);

/*
 * mg_hostlist: the names of Slurm's hostlist s[0..n) ("gpu[001-004,9]",
 * "a,b", "r[1-2]n[1-3]"), appended to *names (*count of them, *cap
 * allocated; free each and the array).  Returns 0, or MG_EINVAL with d
 * set, or MG_ENOMEM.
 */
int mg_hostlist(const char *s, size_t n, char ***names, size_t *count,
    size_t *cap, struct mg_diag *d);

#endif /* MG_SLURMFMT_H */
