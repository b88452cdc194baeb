/*
 * sacct.h: Slurm accounting dumps into job records.
 *
 * Reads one entry of a struct mg_input in any layout real sacct prints
 * (-P, --parsable, --delimiter, fixed width, -n with a field list,
 * --json), what squeue prints (-o with a delimiter, fixed-width -o, -O,
 * -l and the default layout, --json), the published LS6 trace's layout
 * (a count line, a fixed-width header and dashes, tab-separated rows)
 * and the Standard Workload Format of the Parallel Workloads Archive.  Columns are found from the header,
 * in any order.  Rules for odd rows are in mirage-parse(1).
 */
#ifndef MG_SACCT_H
#define MG_SACCT_H

#include <stdint.h>

#include "io/input.h"
#include "io/job.h"
#include "base/parse.h"

enum mg_sacct_format {
	MG_FMT_AUTO = 0,
	MG_FMT_DELIM,		/* -P, --parsable2, --parsable, --delimiter */
	MG_FMT_FIXED,		/* default fixed width; also the LS6 layout */
	MG_FMT_SWF,
	MG_FMT_JSON
};

struct mg_sacct_opts {
	enum mg_sacct_format format;
	char delim;		/* 0: '|' */
	const char *fields;	/* comma list for input without a header */
	enum mg_tz tz;
	int64_t swf_cpus_per_node;	/* SWF processors per node; 0 = 1 */
	int64_t now;		/* when squeue ran: a running job without a
				 * start column started its TIME before
				 * (0: unknown, no start) */
};

void mg_sacct_opts_init(struct mg_sacct_opts *o);

/*
 * Where jobs and row problems go.  job() gets a complete record (strings
 * borrowed for the call) and the input line it came from (0 for JSON);
 * a nonzero return stops the parse with that status.  warn() gets a
 * message about one row; bad is 1 when the row was dropped, 0 when it was
 * read under a documented repair rule; nonzero stops the parse.
 */
struct mg_sacct_sink {
	void *ctx;
	int (*job)(void *ctx, const struct mg_value *job, uint64_t line);
	int (*warn)(void *ctx, uint64_t line, int bad, const char *msg);
	uint64_t steps;		/* out: job-step rows skipped */
	const char *layout;	/* out: layout found, e.g. "sacct -P" */
};

/*
 * mg_sacct_parse: parse the current entry of in.  Returns 0, a status
 * returned by the sink, or MG_EFORMAT (layout not recognised, no JobID
 * column, bad JSON, empty entry without a field list), MG_EIO, MG_ENOMEM
 * with d set.
 */
int mg_sacct_parse(struct mg_input *in, const struct mg_sacct_opts *o,
    struct mg_sacct_sink *s, struct mg_diag *d);

/*
 * mg_sacct_jobid: split a sacct JobID ("123", "123_4", "123_[1-5%2]",
 * "30+1", "123.batch") into its parts.  Sets *base, *task (-1 if none,
 * -2 for a pending array remainder), *het (-1 if none) and *step (1 if
 * it is a job step).  Returns 0 or -1 if it is not a JobID.
 */
int mg_sacct_jobid(const char *s, size_t n, int64_t *base, int64_t *task,
    int64_t *het, int *step);

/*
 * mg_sacct_gpus: the GPU count in a TRES string ("billing=8,gres/gpu=2"
 * or typed "gres/gpu:a100=2").  Returns 0 and sets *n (0 if the string
 * lists no GPU), MG_PARSE_MISSING for an empty string, or MG_PARSE_BAD.
 */
int mg_sacct_gpus(const char *s, size_t n, int64_t *out);

#endif /* MG_SACCT_H */
