/* job.c: the jobs record type; see job.h. */
#include <string.h>

#include "io/job.h"

static const struct mg_field job_fields[MG_JOB_NFIELDS] = {
	[MG_JOB_JOBID] = { "jobid", MG_T_STR },
	[MG_JOB_ID] = { "id", MG_T_I64 },
	[MG_JOB_ARRAY_JOB] = { "array_job", MG_T_I64 },
	[MG_JOB_ARRAY_TASK] = { "array_task", MG_T_I64 },
	[MG_JOB_HET_JOB] = { "het_job", MG_T_I64 },
	[MG_JOB_HET_OFFSET] = { "het_offset", MG_T_I64 },
	[MG_JOB_NAME] = { "name", MG_T_STR },
	[MG_JOB_USER] = { "user", MG_T_STR },
	[MG_JOB_UID] = { "uid", MG_T_I64 },
	[MG_JOB_ACCOUNT] = { "account", MG_T_STR },
	[MG_JOB_PARTITION] = { "partition", MG_T_STR },
	[MG_JOB_QOS] = { "qos", MG_T_STR },
	[MG_JOB_STATE] = { "state", MG_T_STR },
	[MG_JOB_SUBMIT] = { "submit", MG_T_I64 },
	[MG_JOB_ELIGIBLE] = { "eligible", MG_T_I64 },
	[MG_JOB_START] = { "start", MG_T_I64 },
	[MG_JOB_END] = { "end", MG_T_I64 },
	[MG_JOB_TIMELIMIT] = { "timelimit", MG_T_I64 },
	[MG_JOB_NNODES] = { "nnodes", MG_T_I64 },
	[MG_JOB_NCPUS] = { "ncpus", MG_T_I64 },
	[MG_JOB_NGPUS] = { "ngpus", MG_T_I64 },
	[MG_JOB_EXIT_CODE] = { "exit_code", MG_T_I64 },
	[MG_JOB_EXIT_SIGNAL] = { "exit_signal", MG_T_I64 },
	[MG_JOB_PRIORITY] = { "priority", MG_T_I64 },
};

static const struct mg_schema job_schema = {
	MG_JOB_TYPE, MG_JOB_NFIELDS, job_fields
};

const struct mg_schema *
mg_job_schema(void)
{
	return &job_schema;
}

void
mg_job_clear(struct mg_value *job)
{
	int i;

	memset(job, 0, sizeof(*job) * MG_JOB_NFIELDS);
	for (i = 0; i < MG_JOB_NFIELDS; i++)
		job[i].null = 1;
}

void
mg_job_set_i64(struct mg_value *job, enum mg_job_field f, int64_t v)
{
	job[f].null = 0;
	job[f].i = v;
}

void
mg_job_set_str(struct mg_value *job, enum mg_job_field f, const char *s,
    size_t len)
{
	job[f].null = 0;
	job[f].s = s;
	job[f].len = len;
}
