/* swf.c: Standard Workload Format lines into jobs; see swf.h. */
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "io/swf.h"

enum {
	F_JOB, F_SUBMIT, F_WAIT, F_RUN, F_PROCS, F_CPU, F_MEM, F_REQPROCS,
	F_REQTIME, F_REQMEM, F_STATUS, F_USER, F_GROUP, F_EXE, F_QUEUE,
	F_PART, F_PREV, F_THINK, F_N
};

void
mg_swf_init(struct mg_swf *s, int64_t cpus_per_node)
{
	memset(s, 0, sizeof(*s));
	s->cpus_per_node = cpus_per_node > 0 ? cpus_per_node : 1;
}

static int
header(struct mg_swf *s, const char *line, size_t len)
{
	static const char key[] = "UnixStartTime:";
	const char *p = line + 1, *end = line + len;
	int64_t v;

	while (p < end && *p == ' ')
		p++;
	if ((size_t)(end - p) > sizeof(key) - 1 &&
	    memcmp(p, key, sizeof(key) - 1) == 0) {
		p += sizeof(key) - 1;
		while (p < end && *p == ' ')
			p++;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (mg_parse_i64(p, (size_t)(end - p), 0, INT64_MAX / 2, &v))
			return -1;
		s->epoch = v;
	}
	return 0;
}

int
mg_swf_line(struct mg_swf *s, const char *line, size_t len,
    struct mg_value *job, char *err, size_t errcap)
{
	int64_t f[F_N], procs, start;
	const char *p = line, *end = line + len, *q;
	double x;
	int n = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end)
		return 0;
	if (*p == ';') {
		if (header(s, p, (size_t)(end - p)) != 0) {
			snprintf(err, errcap, "bad UnixStartTime header");
			return -1;
		}
		return 0;
	}
	while (p < end) {
		q = p;
		while (q < end && *q != ' ' && *q != '\t')
			q++;
		if (n == F_N) {
			snprintf(err, errcap, "more than %d fields", F_N);
			return -1;
		}
		/* average CPU time (and some archives' others) are decimals */
		if (mg_parse_i64(p, (size_t)(q - p), INT64_MIN / 4,
		    INT64_MAX / 4, &f[n]) != 0) {
			if (mg_parse_f64(p, (size_t)(q - p), &x) != 0 ||
			    x < -1e15 || x > 1e15) {
				snprintf(err, errcap, "field %d: bad number "
				    "'%.*s'", n + 1, (int)(q - p > 30 ? 30 :
				    q - p), p);
				return -1;
			}
			f[n] = (int64_t)x;
		}
		n++;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		p = q;
	}
	if (n != F_N) {
		snprintf(err, errcap, "%d fields, SWF has %d", n, F_N);
		return -1;
	}
	if (f[F_JOB] < 0 || f[F_SUBMIT] < 0) {
		snprintf(err, errcap, "negative job number or submit time");
		return -1;
	}
	mg_job_clear(job);
	snprintf(s->jobid, sizeof(s->jobid), "%lld", (long long)f[F_JOB]);
	mg_job_set_str(job, MG_JOB_JOBID, s->jobid, strlen(s->jobid));
	mg_job_set_i64(job, MG_JOB_ID, f[F_JOB]);
	mg_job_set_i64(job, MG_JOB_SUBMIT, s->epoch + f[F_SUBMIT]);
	if (f[F_WAIT] >= 0) {
		start = s->epoch + f[F_SUBMIT] + f[F_WAIT];
		mg_job_set_i64(job, MG_JOB_START, start);
		if (f[F_RUN] >= 0)
			mg_job_set_i64(job, MG_JOB_END, start + f[F_RUN]);
	}
	procs = f[F_PROCS] > 0 ? f[F_PROCS] : f[F_REQPROCS];
	if (procs > 0) {
		mg_job_set_i64(job, MG_JOB_NCPUS, procs);
		mg_job_set_i64(job, MG_JOB_NNODES,
		    (procs + s->cpus_per_node - 1) / s->cpus_per_node);
	}
	if (f[F_REQTIME] >= 0)
		mg_job_set_i64(job, MG_JOB_TIMELIMIT, f[F_REQTIME]);
	switch (f[F_STATUS]) {
	case 0:
		snprintf(s->state, sizeof(s->state), "FAILED");
		break;
	case 1:
		snprintf(s->state, sizeof(s->state), "COMPLETED");
		break;
	case 5:
		snprintf(s->state, sizeof(s->state), "CANCELLED");
		break;
	default:
		s->state[0] = '\0';
	}
	if (s->state[0])
		mg_job_set_str(job, MG_JOB_STATE, s->state, strlen(s->state));
	if (f[F_USER] >= 0)
		mg_job_set_i64(job, MG_JOB_UID, f[F_USER]);
	if (f[F_QUEUE] >= 0) {
		snprintf(s->queue, sizeof(s->queue), "%lld",
		    (long long)f[F_QUEUE]);
		mg_job_set_str(job, MG_JOB_QOS, s->queue, strlen(s->queue));
	}
	if (f[F_PART] >= 0) {
		snprintf(s->part, sizeof(s->part), "%lld",
		    (long long)f[F_PART]);
		mg_job_set_str(job, MG_JOB_PARTITION, s->part,
		    strlen(s->part));
	}
	return 1;
}
