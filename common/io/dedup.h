/*
 * dedup.h: the last record of each job wins (mirage-parse --duplicates
 * last).  The records are written as they come, as if no JobID came
 * again, while mg_dedup_add() keeps the later records of a JobID aside;
 * mg_dedup_copy() then copies the stream written, each record whose
 * JobID came again replaced, in its place, by its last record.  In
 * memory: 12 bytes a job when the JobIDs are plain numbers in
 * increasing order, as sacct writes them; about 23 and the id for the
 * others; the records kept aside in memory or in a file.
 */
#ifndef MG_DEDUP_H
#define MG_DEDUP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "io/stream.h"

struct mg_dedup;

/*
 * mg_dedup_new: an empty set of jobs, keeping the later records in the
 * file spill_fd (a temporary file the caller made and closes after
 * mg_dedup_free()), or in memory with -1.  0 and *out, MG_ENOMEM or
 * MG_EIO.
 */
int mg_dedup_new(int spill_fd, struct mg_dedup **out);
void mg_dedup_free(struct mg_dedup *dd);

/*
 * mg_dedup_add: job, the stream's record rec (0, 1, ... in the order
 * written): 0 if its JobID is new (the caller writes it), 1 if it came
 * before (it is kept aside, not to be written), or MG_ENOMEM / MG_EIO.
 */
int mg_dedup_add(struct mg_dedup *dd, const struct mg_value *job,
    uint64_t rec);

/*
 * mg_dedup_copy: the jobs stream in (complete, its writer closed) to
 * out, each record whose JobID came again replaced by its last (a new
 * stream with the writer's options wo; as it is if none came again).
 * 0, or a negative status with d set.
 */
int mg_dedup_copy(struct mg_dedup *dd, FILE *in, FILE *out,
    const struct mg_writer_opts *wo, struct mg_diag *d);

#endif /* MG_DEDUP_H */
