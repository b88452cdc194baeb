/*
 * swf.h: the Standard Workload Format of the Parallel Workloads Archive.
 *
 * One job per line, 18 whitespace-separated numbers; header comments
 * start with ';' and may give "UnixStartTime: N", the epoch of time 0.
 * The mapping to job fields is in mirage-parse(1).
 */
#ifndef MG_SWF_H
#define MG_SWF_H

#include <stddef.h>
#include <stdint.h>

#include "io/job.h"

struct mg_swf {
	int64_t epoch;		/* UnixStartTime */
	int64_t cpus_per_node;
	char jobid[24];
	char state[16];
	char part[24], queue[24];
};

void mg_swf_init(struct mg_swf *s, int64_t cpus_per_node);

/*
 * mg_swf_line: read one line.  Returns 1 with job filled (strings
 * borrowed from s until the next call), 0 for a comment or blank line,
 * or -1 with a reason in err.
 */
int mg_swf_line(struct mg_swf *s, const char *line, size_t len,
    struct mg_value *job, char *err, size_t errcap);

#endif /* MG_SWF_H */
