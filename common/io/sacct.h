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
#include "io/slurmfmt.h"
#include "base/parse.h"

enum mg_sacct_format {
	MG_FMT_AUTO = 0,
	MG_FMT_DELIM,		/* -P, --parsable2, --parsable, --delimiter */
	MG_FMT_FIXED,		/* default fixed width; also the LS6 layout */
	MG_FMT_SWF,
	MG_FMT_JSON,
	MG_FMT_YAML		/* --yaml (Slurm 22.05 on) */
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
 * mg_sacct_parse: parse the current entry of in.  Returns 0, a status
 * returned by the sink, or MG_EFORMAT (layout not recognised, no JobID
 * column, bad JSON, empty entry without a field list), MG_EIO, MG_ENOMEM
 * with d set.
 */
int mg_sacct_parse(struct mg_input *in, const struct mg_sacct_opts *o,
    struct mg_slurmfmt_sink *s, struct mg_diag *d);

#endif /* MG_SACCT_H */
