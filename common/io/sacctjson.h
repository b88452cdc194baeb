/*
 * sacctjson.h: the output of sacct --json and --yaml (Slurm's openapi
 * dbv0.0.3x; squeue's too) into job records, with json-c (and libyaml:
 * both layouts are the same tree).
 */
#ifndef MG_SACCTJSON_H
#define MG_SACCTJSON_H

#include <stddef.h>

#include "base/parse.h"
#include "io/slurmfmt.h"

struct mg_input;

/*
 * mg_sacctjson_read: the document (line, the first line of in, already
 * read, then the rest of in) of sacct or squeue --json, or --yaml if
 * yaml, streamed: each element of "jobs" goes to the sink as soon as it
 * is read, so memory is that of one job (messages name jobs[i]; JSON
 * errors give the byte offset, YAML's the line and column).  The rest of
 * the document is checked at the end: one document per input, nothing
 * after it.  Returns 0, a sink status, or MG_EFORMAT / MG_EIO /
 * MG_ENOMEM with d set.
 */
int mg_sacctjson_read(struct mg_input *in, const char *line, size_t len,
    int yaml, enum mg_tz tz, struct mg_slurmfmt_sink *s, struct mg_diag *d);

#endif /* MG_SACCTJSON_H */
