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

/*
 * mg_sacctjson_parse: parse a whole document text[0..len) and hand each
 * element of "jobs" to the sink (line 0; messages name jobs[i]).
 * Returns 0, a sink status, or MG_EFORMAT / MG_ENOMEM with d set.
 */
int mg_sacctjson_parse(const char *text, size_t len, enum mg_tz tz,
    struct mg_slurmfmt_sink *s, struct mg_diag *d);

/*
 * mg_sacctjson_parse_yaml: the same for sacct --yaml and squeue --yaml
 * (one YAML document; messages name the line and column).
 */
int mg_sacctjson_parse_yaml(const char *text, size_t len, enum mg_tz tz,
    struct mg_slurmfmt_sink *s, struct mg_diag *d);

#endif /* MG_SACCTJSON_H */
