/* trace.c: jobs streams into simulator traces; see trace.h. */
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "trace.h"

int
mg_tjob_cmp(const struct mg_tjob *a, const struct mg_tjob *b)
{
	int64_t ma = a->submit / 60, mb = b->submit / 60;

	if (ma != mb)
		return ma < mb ? -1 : 1;
	return strcmp(a->id, b->id);
}

static int
cmp(const void *a, const void *b)
{
	return mg_tjob_cmp(a, b);
}

struct uidx {
	int64_t uid;
	size_t i;
};

static int
uid_cmp(const void *a, const void *b)
{
	const struct uidx *x = a, *y = b;

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* give each distinct uid a dense index, in uid order */
static int
number_users(struct mg_trace *t, struct mg_diag *d)
{
	struct uidx *u = malloc((t->n ? t->n : 1) * sizeof(*u));
	size_t i;
	int32_t next = -1;

	if (u == NULL) {
		mg_trace_release(t);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	for (i = 0; i < t->n; i++) {
		u[i].uid = t->job[i].uid;
		u[i].i = i;
	}
	qsort(u, t->n, sizeof(*u), uid_cmp);
	for (i = 0; i < t->n; i++) {
		if (u[i].uid < 0) {
			t->job[u[i].i].user = -1;
			continue;
		}
		if (i == 0 || u[i].uid != u[i - 1].uid || next < 0)
			next++;
		t->job[u[i].i].user = next;
	}
	t->nusers = (size_t)(next + 1);
	free(u);
	return 0;
}

int
mg_trace_load(struct mg_reader *r, struct mg_trace *t, struct mg_diag *d)
{
	const struct mg_value *v;
	size_t cap = 0;
	int rv;

	memset(t, 0, sizeof(*t));
	if (!mg_schema_equal(&mg_reader_info(r)->schema, mg_job_schema()))
		return mg_diag_set(d, MG_ETYPE, "not a jobs stream of this "
		    "version");
	while ((rv = mg_reader_next(r, &v, d)) == 1) {
		struct mg_tjob *j;

		if (v[MG_JOB_SUBMIT].null || v[MG_JOB_START].null ||
		    v[MG_JOB_END].null || v[MG_JOB_TIMELIMIT].null ||
		    v[MG_JOB_TIMELIMIT].i <= 0 || v[MG_JOB_NNODES].null ||
		    v[MG_JOB_NNODES].i <= 0 || v[MG_JOB_NNODES].i > INT32_MAX) {
			t->skipped++;
			continue;
		}
		if (t->n == cap) {
			cap = cap ? cap * 2 : 4096;
			j = realloc(t->job, cap * sizeof(*j));
			if (j == NULL) {
				mg_trace_release(t);
				return mg_diag_set(d, MG_ENOMEM, "out of memory");
			}
			t->job = j;
		}
		j = &t->job[t->n++];
		memset(j, 0, sizeof(*j));
		j->submit = v[MG_JOB_SUBMIT].i;
		j->start = v[MG_JOB_START].i;
		j->limit = v[MG_JOB_TIMELIMIT].i;
		j->dur = v[MG_JOB_END].i - v[MG_JOB_START].i;
		if (j->dur < 0)
			j->dur = 0;
		if (j->dur > j->limit)
			j->dur = j->limit;
		j->nodes = (int32_t)v[MG_JOB_NNODES].i;
		j->prio = v[MG_JOB_PRIORITY].null ? -1 : v[MG_JOB_PRIORITY].i;
		j->uid = v[MG_JOB_UID].null ? -1 : v[MG_JOB_UID].i;
		memcpy(j->id, v[MG_JOB_JOBID].s, v[MG_JOB_JOBID].len <
		    sizeof(j->id) - 1 ? v[MG_JOB_JOBID].len : sizeof(j->id) - 1);
	}
	if (rv < 0) {
		mg_trace_release(t);
		return rv;
	}
	qsort(t->job, t->n, sizeof(*t->job), cmp);
	return number_users(t, d);
}

void
mg_trace_release(struct mg_trace *t)
{
	free(t->job);
	memset(t, 0, sizeof(*t));
}
