/*
 * job.h: the job record, one per Slurm job (or array task, or het
 * component), as mirage-parse writes it in a "jobs" stream.
 *
 * A job is an array of MG_JOB_NFIELDS struct mg_value indexed by enum
 * mg_job_field.  Times are epoch seconds; timelimit is in seconds with -1
 * for UNLIMITED; a null value means the dump did not give one (Unknown,
 * None, Partition_Limit, a missing column).  mirage-stream(5) lists the
 * fields.
 */
#ifndef MG_JOB_H
#define MG_JOB_H

#include "io/stream.h"

#define MG_JOB_TYPE	"jobs"

enum mg_job_field {
	MG_JOB_JOBID,		/* str: as sacct prints it: 123, 123_4, 30+1 */
	MG_JOB_ID,		/* i64: JobIDRaw, the unique numeric id */
	MG_JOB_ARRAY_JOB,	/* i64: array master id */
	MG_JOB_ARRAY_TASK,	/* i64: array task id */
	MG_JOB_HET_JOB,		/* i64: heterogeneous job leader id */
	MG_JOB_HET_OFFSET,	/* i64: component offset */
	MG_JOB_NAME,		/* str */
	MG_JOB_USER,		/* str */
	MG_JOB_UID,		/* i64 */
	MG_JOB_ACCOUNT,		/* str */
	MG_JOB_PARTITION,	/* str */
	MG_JOB_QOS,		/* str */
	MG_JOB_STATE,		/* str: COMPLETED, FAILED, ... (no "by N") */
	MG_JOB_SUBMIT,		/* i64 */
	MG_JOB_ELIGIBLE,	/* i64 */
	MG_JOB_START,		/* i64 */
	MG_JOB_END,		/* i64 */
	MG_JOB_TIMELIMIT,	/* i64: seconds, -1 = UNLIMITED */
	MG_JOB_NNODES,		/* i64 */
	MG_JOB_NCPUS,		/* i64 */
	MG_JOB_NGPUS,		/* i64 */
	MG_JOB_EXIT_CODE,	/* i64 */
	MG_JOB_EXIT_SIGNAL,	/* i64 */
	MG_JOB_PRIORITY,	/* i64 */
	MG_JOB_NFIELDS
};

/* mg_job_schema: the schema of a jobs stream. */
const struct mg_schema *mg_job_schema(void);

/* mg_job_clear: set every field of job to null. */
void mg_job_clear(struct mg_value *job);

/* mg_job_set_i64, mg_job_set_str: set one field (str: borrowed). */
void mg_job_set_i64(struct mg_value *job, enum mg_job_field f, int64_t v);
void mg_job_set_str(struct mg_value *job, enum mg_job_field f,
    const char *s, size_t len);

#endif /* MG_JOB_H */
