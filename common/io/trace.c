/* trace.c: jobs streams into simulator traces; see trace.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "io/job.h"
#include "io/trace.h"

int
mg_trace_job_cmp(const struct mg_trace_job *a, const struct mg_trace_job *b)
{
	int64_t ma = a->submit / 60, mb = b->submit / 60;

	if (ma != mb)
		return ma < mb ? -1 : 1;
	return strcmp(a->id, b->id);
}

static int
cmp(const void *a, const void *b)
{
	return mg_trace_job_cmp(a, b);
}

void
mg_trace_span(const struct mg_trace *t, int64_t *first, int64_t *last)
{
	size_t i;

	*first = *last = t->n > 0 ? t->job[0].submit : 0;
	for (i = 1; i < t->n; i++) {
		if (t->job[i].submit < *first)
			*first = t->job[i].submit;
		if (t->job[i].submit > *last)
			*last = t->job[i].submit;
	}
}

/* a name's index in a list, adding it (in order of appearance) */
static int
add_name(char ***list, size_t *count, const char *s, size_t n, int32_t *idx)
{
	char **names;
	size_t i;

	for (i = 0; i < *count; i++)
		if (strlen((*list)[i]) == n && memcmp((*list)[i], s, n) == 0) {
			*idx = (int32_t)i;
			return 0;
		}
	if ((names = realloc(*list, (*count + 1) * sizeof(*names))) == NULL)
		return MG_ENOMEM;
	*list = names;
	if ((names[*count] = malloc(n + 1)) == NULL)
		return MG_ENOMEM;
	memcpy(names[*count], s, n);
	names[*count][n] = '\0';
	*idx = (int32_t)(*count)++;
	return 0;
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
	if (t->n > 0)	/* qsort(NULL, 0): undefined */
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

struct pair {
	int32_t account, user;
	size_t i;
};

static int
pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->account != y->account)
		return x->account < y->account ? -1 : 1;
	if (x->user != y->user)
		return x->user < y->user ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* give each distinct (account, user) pair a dense index */
static int
number_assocs(struct mg_trace *t, struct mg_diag *d)
{
	struct pair *p = malloc((t->n ? t->n : 1) * sizeof(*p));
	size_t i, n = 0;

	if (p == NULL || (t->assoc_acct = malloc((t->n ? t->n : 1) *
	    sizeof(*t->assoc_acct))) == NULL) {
		free(p);
		mg_trace_release(t);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	for (i = 0; i < t->n; i++) {
		p[i].account = t->job[i].account;
		p[i].user = t->job[i].user;
		p[i].i = i;
	}
	if (t->n > 0)	/* qsort(NULL, 0): undefined */
		qsort(p, t->n, sizeof(*p), pair_cmp);
	for (i = 0; i < t->n; i++) {
		struct mg_trace_job *j = &t->job[p[i].i];

		if (p[i].user < 0) {
			j->assoc = -1;
			continue;
		}
		if (n == 0 || p[i].account != t->assoc_acct[n - 1] ||
		    p[i].user != t->job[p[i - 1].i].user ||
		    t->job[p[i - 1].i].assoc < 0)
			t->assoc_acct[n++] = p[i].account;
		j->assoc = (int32_t)n - 1;
	}
	t->nassoc = n;
	free(p);
	return 0;
}

#define OUTLIER	(2 * 366 * 86400LL)	/* beyond the bulk of a trace */

/*
 * A job dated years away from the rest of its trace (a clock or a dump
 * gone wrong: one job in 2199) would stretch every timeline to it: the
 * trace (sorted by submission) is refused, naming the job.  The bulk is
 * the 1st to 99th percentile of the submissions.
 */
static int
check_span(const struct mg_trace *t, struct mg_diag *d)
{
	int64_t lo, hi;
	size_t i;

	if (t->n == 0)
		return 0;
	lo = t->job[t->n / 100].submit - OUTLIER;
	hi = t->job[t->n - 1 - t->n / 100].submit + OUTLIER;
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *j = &t->job[i];
		char a[32], b[32], c[32];

		if (j->submit >= lo && j->submit <= hi && j->start >= lo &&
		    j->start + j->dur <= hi)
			continue;
		mg_format_time(j->submit < lo || j->submit > hi ? j->submit :
		    j->start < lo || j->start > hi ? j->start : j->start +
		    j->dur, a, sizeof(a));
		mg_format_time(lo + OUTLIER, b, sizeof(b));
		mg_format_time(hi - OUTLIER, c, sizeof(c));
		return mg_diag_set(d, MG_EFORMAT, "job %s: dated %s, more "
		    "than two years away from the trace's other jobs (%s to "
		    "%s): a bad date in the dump? (mirage-parse -S and -E "
		    "keep a span)", *j->id ? j->id : "?", a, b, c);
	}
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
		struct mg_trace_job *j;

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
		j->after = -1;
		j->part = -1;
		j->qos = -1;
		j->account = -1;
		/* Eligible (a --begin time, or a dependency met) if after
		 * the submission */
		j->eligible = !v[MG_JOB_ELIGIBLE].null &&
		    v[MG_JOB_ELIGIBLE].i > j->submit ? v[MG_JOB_ELIGIBLE].i :
		    -1;
		if ((!v[MG_JOB_PARTITION].null && (rv = add_name(&t->part_name,
		    &t->nparts, v[MG_JOB_PARTITION].s,
		    v[MG_JOB_PARTITION].len, &j->part)) != 0) ||
		    (!v[MG_JOB_QOS].null && (rv = add_name(&t->qos_name,
		    &t->nqos, v[MG_JOB_QOS].s, v[MG_JOB_QOS].len,
		    &j->qos)) != 0) ||
		    (!v[MG_JOB_ACCOUNT].null && (rv = add_name(&t->acct_name,
		    &t->naccts, v[MG_JOB_ACCOUNT].s, v[MG_JOB_ACCOUNT].len,
		    &j->account)) != 0)) {
			mg_trace_release(t);
			return mg_diag_set(d, rv, "out of memory");
		}
		j->uid = v[MG_JOB_UID].null ? -1 : v[MG_JOB_UID].i;
		memcpy(j->id, v[MG_JOB_JOBID].s, v[MG_JOB_JOBID].len <
		    sizeof(j->id) - 1 ? v[MG_JOB_JOBID].len : sizeof(j->id) - 1);
	}
	if (rv < 0) {
		mg_trace_release(t);
		return rv;
	}
	if (t->n > 0)	/* qsort(NULL, 0): undefined */
		qsort(t->job, t->n, sizeof(*t->job), cmp);
	if ((rv = check_span(t, d)) != 0) {
		mg_trace_release(t);
		return rv;
	}
	if ((rv = number_users(t, d)) != 0)
		return rv;
	return number_assocs(t, d);
}

void
mg_trace_release(struct mg_trace *t)
{
	size_t i;

	for (i = 0; i < t->nparts; i++)
		free(t->part_name[i]);
	free(t->part_name);
	for (i = 0; i < t->nqos; i++)
		free(t->qos_name[i]);
	free(t->qos_name);
	for (i = 0; i < t->naccts; i++)
		free(t->acct_name[i]);
	free(t->acct_name);
	free(t->assoc_acct);
	free(t->job);
	memset(t, 0, sizeof(*t));
}

struct ev {
	int64_t t;
	int32_t user, job;
	int kind;		/* 0: end, 1: start (ends first at a tie) */
};

static int
ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return x->job - y->job;
}

size_t
mg_trace_infer_deps(struct mg_trace *t, int64_t gap, int64_t min_wait,
    int user_limit)
{
	struct ev *e = malloc((2 * t->n + 1) * sizeof(*e));
	int32_t *run = calloc(t->nusers + 1, sizeof(*run));
	int32_t *last = malloc((t->nusers + 1) * sizeof(*last));
	int64_t *last_end = malloc((t->nusers + 1) * sizeof(*last_end));
	size_t i, n = 0, marked = 0;

	if (e == NULL || run == NULL || last == NULL || last_end == NULL)
		goto out;
	for (i = 0; i < t->nusers; i++) {
		last[i] = -1;
		last_end[i] = INT64_MIN;
	}
	/* the real history, replayed: who ran what when */
	for (i = 0; i < t->n; i++) {
		t->job[i].after = -1;
		if (t->job[i].user < 0)
			continue;
		e[n].t = t->job[i].start;
		e[n].user = t->job[i].user;
		e[n].job = (int32_t)i;
		e[n++].kind = 1;
		e[n].t = t->job[i].start + t->job[i].dur;
		e[n].user = t->job[i].user;
		e[n].job = (int32_t)i;
		e[n++].kind = 0;
	}
	if (n > 0)	/* qsort(NULL, 0): undefined */
		qsort(e, n, sizeof(*e), ev_cmp);
	for (i = 0; i < n; i++) {
		int32_t u = e[i].user;
		struct mg_trace_job *j = &t->job[e[i].job];

		if (e[i].kind == 0) {
			run[u]--;
			last[u] = e[i].job;
			last_end[u] = e[i].t;
			continue;
		}
		if (last[u] >= 0 && j->start - j->submit > min_wait &&
		    j->start - last_end[u] <= gap &&
		    j->submit < last_end[u] &&
		    (user_limit <= 0 || run[u] + 1 < user_limit)) {
			j->after = last[u];
			marked++;
		}
		run[u]++;
	}
out:
	free(e);
	free(run);
	free(last);
	free(last_end);
	return marked;
}

int
mg_trace_capacity(const struct mg_trace *t, int32_t nodes, int64_t window,
    int32_t slack, int64_t **times, int32_t **caps, size_t *n)
{
	int64_t t0 = INT64_MAX, t1 = INT64_MIN, w0, w1, k = 0;
	int32_t *peak = NULL, *cap = NULL, busy = 0, at_start;
	int64_t *tm = NULL, *waiting = NULL;
	struct ev *e = NULL;
	size_t nw, i, b, m = 0, ne = 0;

	*times = NULL;
	*caps = NULL;
	*n = 0;
	if (t->n == 0 || window <= 0)
		return 0;
	for (i = 0; i < t->n; i++) {
		if (t->job[i].submit < t0)
			t0 = t->job[i].submit;
		if (t->job[i].start + t->job[i].dur > t1)
			t1 = t->job[i].start + t->job[i].dur;
	}
	t0 -= t0 % window;
	nw = (size_t)((t1 - t0) / window + 1);
	peak = calloc(nw, sizeof(*peak));
	waiting = calloc(nw + 1, sizeof(*waiting));
	e = malloc(2 * t->n * sizeof(*e));
	tm = malloc(nw * sizeof(*tm));
	cap = malloc(nw * sizeof(*cap));
	if (!peak || !waiting || !e || !tm || !cap)
		goto nomem;
	/* windows that some job waited through, by a difference array;
	 * the real starts and ends as events, ends first at a tie */
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *j = &t->job[i];

		w0 = (j->submit - t0 + window - 1) / window;
		w1 = (j->start - t0) / window;	/* windows [w0, w1) */
		if (w1 > w0) {
			waiting[w0]++;
			waiting[w1]--;
		}
		e[ne].t = j->start;
		e[ne].job = (int32_t)i;
		e[ne++].kind = 1;
		e[ne].t = j->start + j->dur;
		e[ne].job = (int32_t)i;
		e[ne++].kind = 0;
	}
	if (ne > 0)	/* qsort(NULL, 0): undefined */
		qsort(e, ne, sizeof(*e), ev_cmp);
	/* the most nodes held in each window: at its start or after an event */
	for (i = 0, b = 0; i < nw; i++) {
		int64_t end = t0 + (int64_t)(i + 1) * window;

		at_start = busy;
		peak[i] = at_start;
		for (; b < ne && e[b].t < end; b++) {
			busy += e[b].kind ? t->job[e[b].job].nodes :
			    -t->job[e[b].job].nodes;
			if (busy > peak[i])
				peak[i] = busy;
		}
	}
	/* window i gets what window i - 1 showed, known when i begins: so
	 * nothing that starts, or is submitted, later changes it */
	for (i = 0; i < nw; i++) {
		int32_t c = nodes;

		if (i > 0) {
			k += waiting[i - 1];	/* jobs waiting through i - 1 */
			if (k > 0 && peak[i - 1] + slack < nodes)
				c = peak[i - 1] + slack;
		}
		if (c < 1)
			c = 1;
		if (m == 0 || cap[m - 1] != c) {
			tm[m] = t0 + (int64_t)i * window;
			cap[m++] = c;
		}
	}
	*times = tm;
	*caps = cap;
	*n = m;
	free(peak);
	free(waiting);
	free(e);
	return 0;
nomem:
	free(peak);
	free(waiting);
	free(e);
	free(tm);
	free(cap);
	return MG_ENOMEM;
}

int
mg_trace_read(const char *path, struct mg_trace *t, struct mg_diag *d)
{
	int std = strcmp(path, "-") == 0, rv;
	const char *name = std ? "<stdin>" : path;
	struct mg_reader *r;
	FILE *fp;

	memset(t, 0, sizeof(*t));
	if ((fp = std ? stdin : fopen(path, "rb")) == NULL)
		return mg_diag_set(d, MG_EIO, "cannot open '%s': %s", path,
		    strerror(errno));
	if ((rv = mg_reader_open(fp, name, MG_JOB_TYPE, &r, d)) == 0) {
		rv = mg_trace_load(r, t, d);
		mg_reader_free(r);
	}
	if (!std)
		fclose(fp);
	if (rv != 0) {
		mg_diag_prefix(d, "'%s'", name);
		return rv;
	}
	if (t->n == 0) {
		mg_trace_release(t);
		return mg_diag_set(d, MG_EFORMAT, "'%s': no job that ran",
		    name);
	}
	return 0;
}
