/*
 * live.c: jobs of squeue and sacct dumps, and views of them; see live.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/input.h"
#include "io/job.h"
#include "live/live.h"
#include "io/sacct.h"
#include "io/stream.h"

struct sink {
	struct mg_live *l;
	struct mg_diag *d;
	const char *name;
	uint64_t seq;
	const struct mg_slurmfmt_sink *s;	/* its layout, as found */
};

static int64_t
i64(const struct mg_value *v, int64_t dflt)
{
	return v->null ? dflt : v->i;
}

static int
same(const struct mg_value *v, const char *s)
{
	return !v->null && v->len == strlen(s) && memcmp(v->s, s, v->len) == 0;
}

/* a new job at the end of l, zeroed (l unsorted), or NULL */
static struct mg_live_job *
slot(struct mg_live *l)
{
	struct mg_live_job *j;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;

		if ((j = realloc(l->job, cap * sizeof(*j))) == NULL)
			return NULL;
		l->job = j;
		l->cap = cap;
	}
	j = &l->job[l->n++];
	memset(j, 0, sizeof(*j));
	return j;
}

static int
add(struct mg_live *l, const struct mg_value *job)
{
	struct mg_live_job *j;
	const struct mg_value *id = &job[MG_JOB_JOBID];
	const struct mg_value *part = &job[MG_JOB_PARTITION];

	if (id->null || id->len == 0 || id->len >= sizeof(j->jobid))
		return 0;
	if (l->partition != NULL && !same(part, l->partition))
		return 0;
	if ((j = slot(l)) == NULL)
		return MG_ENOMEM;
	memcpy(j->jobid, id->s, id->len);
	j->submit = i64(&job[MG_JOB_SUBMIT], -1);
	j->start = i64(&job[MG_JOB_START], -1);
	j->end = i64(&job[MG_JOB_END], -1);
	j->limit = i64(&job[MG_JOB_TIMELIMIT], -1);
	j->nodes = (int32_t)i64(&job[MG_JOB_NNODES], 0);
	if (!job[MG_JOB_USER].null && job[MG_JOB_USER].len < sizeof(j->user))
		memcpy(j->user, job[MG_JOB_USER].s, job[MG_JOB_USER].len);
	j->prio = job[MG_JOB_PRIORITY].null ? NAN :
	    (double)job[MG_JOB_PRIORITY].i;
	if (!job[MG_JOB_STATE].null && job[MG_JOB_STATE].len <
	    sizeof(j->state))
		memcpy(j->state, job[MG_JOB_STATE].s, job[MG_JOB_STATE].len);
	j->pending = same(&job[MG_JOB_STATE], "PENDING");
	if (j->pending)
		j->start = j->end = -1;
	/* a job in a final state without an end time ended by now */
	else if (!job[MG_JOB_STATE].null && !same(&job[MG_JOB_STATE],
	    "RUNNING") && !same(&job[MG_JOB_STATE], "COMPLETING") &&
	    !same(&job[MG_JOB_STATE], "CONFIGURING") &&
	    !same(&job[MG_JOB_STATE], "SUSPENDED") && j->end < 0 &&
	    l->now > 0)
		j->end = l->now;
	j->source = l->sources;
	j->seq = l->seq++;
	l->sorted = 0;
	return 0;
}

static int
sink_job(void *ctx, const struct mg_value *job, uint64_t line)
{
	struct sink *s = ctx;
	const struct mg_value *st = &job[MG_JOB_STATE];

	(void)line;
	/*
	 * squeue --json (and --yaml) also lists jobs that ended (for
	 * MinJobAge): a
	 * snapshot of the queue is what squeue -o shows, the pending and
	 * running jobs; what ended is sacct's, so every layout of one
	 * snapshot gives one view
	 */
	if (s->s != NULL && s->s->layout != NULL &&
	    (strcmp(s->s->layout, "squeue --json") == 0 ||
	    strcmp(s->s->layout, "squeue --yaml") == 0) && !st->null &&
	    !same(st, "PENDING") && !same(st, "RUNNING") &&
	    !same(st, "COMPLETING") && !same(st, "CONFIGURING") &&
	    !same(st, "SUSPENDED"))
		return 0;
	return add(s->l, job) ? mg_diag_set(s->d, MG_ENOMEM, "out of memory")
	    : 0;
}

static int
sink_warn(void *ctx, uint64_t line, int bad, const char *msg)
{
	struct sink *s = ctx;

	/* a live decision does not proceed on a dump it cannot read whole */
	if (!bad)
		return 0;
	return mg_diag_set(s->d, MG_EFORMAT, "'%s': line %llu: %s", s->name,
	    (unsigned long long)line, msg);
}

/* two zone names of one zone: the same name, or both UTC's */
static int
same_zone(const char *a, const char *b)
{
	static const char *const utc[] = { "UTC", "Etc/UTC", "UTC0",
	    "Etc/UCT", "UCT", "Universal", "Etc/Universal", "Zulu",
	    "Etc/Zulu", "GMT", "Etc/GMT", "GMT0", "Etc/GMT0", NULL };
	int i, ua = 0, ub = 0;

	if (strcmp(a, b) == 0)
		return 1;
	for (i = 0; utc[i]; i++) {
		ua |= strcmp(a, utc[i]) == 0;
		ub |= strcmp(b, utc[i]) == 0;
	}
	return ua && ub;
}

static int
read_stream(struct mg_live *l, const void *buf, size_t len, const char *name,
    struct mg_diag *d)
{
	FILE *fp = fmemopen((void *)buf, len, "r");
	struct mg_reader *r = NULL;
	const struct mg_value *v;
	int rv;

	if (fp == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	if ((rv = mg_reader_open(fp, name, MG_JOB_TYPE, &r, d)) == 0) {
		if (!mg_schema_equal(&mg_reader_info(r)->schema,
		    mg_job_schema()))
			rv = mg_diag_set(d, MG_ETYPE, "'%s': a jobs stream of "
			    "another schema", name);
		/* a stream read in another zone than this run's dumps */
		if (rv == 0 && l->zone_note[0] == '\0') {
			const char *z = mg_reader_info(r)->tz;
			char here[256];

			mg_tz_name(l->tz, here, sizeof(here));
			if (*z && !same_zone(z, here))
				snprintf(l->zone_note, sizeof(l->zone_note),
				    "'%s' holds times read as %s wall-clock "
				    "time, this run reads squeue's and sacct's as "
				    "%s: if both came from one cluster, one of "
				    "them is hours off (give -z, or parse the "
				    "dump again with mirage-parse -z)", name, z,
				    here);
		}
		/* every record, to the end and its checksum */
		while (rv == 0 && (rv = mg_reader_next(r, &v, d)) == 1)
			rv = add(l, v) != 0 ? mg_diag_set(d, MG_ENOMEM,
			    "out of memory") : 0;
	}
	mg_reader_free(r);
	fclose(fp);
	return rv < 0 ? rv : 0;
}

int
mg_live_read_mem(struct mg_live *l, const void *buf, size_t len,
    const char *name, const char **layout, struct mg_diag *d)
{
	static const unsigned char magic[4] = { 0x89, 'M', 'R', 'G' };
	struct mg_sacct_opts o;
	struct mg_slurmfmt_sink s = { 0 };
	struct sink k = { l, d, name, 0, NULL };
	struct mg_input *in;
	const char *entry;
	int rv;

	if (len >= 4 && memcmp(buf, magic, 4) == 0) {
		if (layout)
			*layout = "jobs stream";
		rv = read_stream(l, buf, len, name, d);
		l->sources++;
		if (rv < 0 && strncmp(d->msg, "'", 1) != 0)
			mg_diag_prefix(d, "'%s'", name);
		return rv;
	}
	mg_sacct_opts_init(&o);
	o.now = l->now;
	o.tz = l->tz;
	k.s = &s;
	s.ctx = &k;
	s.job = sink_job;
	s.warn = sink_warn;
	if ((rv = mg_input_open_mem(buf, len, name, &in, d)) != 0)
		return rv;
	while ((rv = mg_input_next_entry(in, &entry, d)) == 1)
		if ((rv = mg_sacct_parse(in, &o, &s, d)) != 0)
			break;
	mg_input_free(in);
	if (layout)
		*layout = s.layout;
	l->sources++;
	if (rv < 0 && strncmp(d->msg, "'", 1) != 0)
		mg_diag_prefix(d, "'%s'", name);
	return rv < 0 ? rv : 0;
}

int
mg_live_read(struct mg_live *l, const char *path, const char **layout,
    struct mg_diag *d)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL, *b;
	size_t n = 0, cap = 0, got;
	int rv;

	if (fp == NULL)
		return mg_diag_set(d, MG_EIO, "'%s': %s", path,
		    strerror(errno));
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			if ((b = realloc(buf, cap)) == NULL) {
				rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
				goto out;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		rv = mg_diag_set(d, MG_EIO, "'%s': %s", path, strerror(errno));
		goto out;
	}
	rv = mg_live_read_mem(l, buf, n, strcmp(path, "-") ? path :
	    "<stdin>", layout, d);
out:
	free(buf);
	if (fp != stdin)
		fclose(fp);
	return rv;
}

/* by JobID, then the later dump (and the later row) first */
static int
ljob_cmp(const void *a, const void *b)
{
	const struct mg_live_job *x = a, *y = b;
	int c = strcmp(x->jobid, y->jobid);

	if (c)
		return c;
	return (x->seq < y->seq) - (x->seq > y->seq);
}

static int
name_cmp(const void *a, const void *b)
{
	const struct mg_live_job *const *x = a, *const *y = b;

	return strcmp((*x)->user, (*y)->user);
}

/*
 * each job's user as an index shared by the queue and the history (so
 * that the planner draws run times by user live as in evaluation); the
 * users in name order.  Without memory for it, no job has one.
 */
static void
users(struct mg_live *l)
{
	struct mg_live_job **by = malloc((l->n ? l->n : 1) * sizeof(*by));
	size_t i, m = 0;
	int32_t u = -1;

	for (i = 0; i < l->n; i++) {
		l->job[i].uidx = -1;
		if (by != NULL && l->job[i].user[0] != '\0')
			by[m++] = &l->job[i];
	}
	if (by == NULL)
		return;
	qsort(by, m, sizeof(*by), name_cmp);
	for (i = 0; i < m; i++) {
		if (i == 0 || strcmp(by[i - 1]->user, by[i]->user) != 0)
			u++;
		by[i]->uidx = u;
	}
	l->nusers = (size_t)(u + 1);
	free(by);
}

static void
settle(struct mg_live *l)
{
	size_t i, k = 0;

	if (l->sorted || l->n == 0)
		return;
	/* a jobs stream alone comes in JobID order: a pass tells */
	for (i = 1; i < l->n && ljob_cmp(&l->job[i - 1], &l->job[i]) < 0; i++)
		;
	if (i < l->n)
		qsort(l->job, l->n, sizeof(*l->job), ljob_cmp);
	for (i = 0; i < l->n; i++)
		if (k == 0 || strcmp(l->job[k - 1].jobid, l->job[i].jobid)) {
			if (k != i)
				l->job[k] = l->job[i];
			k++;
		}
	l->n = k;
	l->sorted = 1;
	users(l);
}

int
mg_live_ended(struct mg_live *l, const char *jobid, int64_t now)
{
	struct mg_live_job *j;

	if ((j = slot(l)) == NULL)
		return MG_ENOMEM;
	snprintf(j->jobid, sizeof(j->jobid), "%s", jobid);
	j->submit = j->start = j->limit = -1;
	j->end = now;
	j->prio = NAN;
	snprintf(j->state, sizeof(j->state), "ENDED");
	j->source = l->sources;
	j->seq = l->seq++;
	l->sorted = 0;
	return 0;
}

const struct mg_live_job *
mg_live_find(struct mg_live *l, const char *jobid)
{
	struct mg_live_job key;

	settle(l);
	memset(&key, 0, sizeof(key));
	snprintf(key.jobid, sizeof(key.jobid), "%s", jobid);
	/* the key has source 0 and no address in the array: compare ids */
	{
		size_t lo = 0, hi = l->n;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = strcmp(l->job[mid].jobid, key.jobid);

			if (c == 0)
				return &l->job[mid];
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	return NULL;
}

int
mg_live_view(struct mg_live *l, int64_t t, int32_t cluster_nodes,
    int64_t recent, const char *chain, double s_prio, struct mg_view *v)
{
	struct mg_view_job x;
	int64_t busy = 0;
	size_t i;

	settle(l);
	mg_view_clear(v);
	v->t = t;
	v->nodes = cluster_nodes;
	v->s_prio = s_prio;
	for (i = 0; i < l->n; i++) {
		const struct mg_live_job *j = &l->job[i];
		int started = j->start >= 0 && j->start <= t;
		int ended = j->end >= 0 && j->end <= t;

		memset(&x, 0, sizeof(x));
		x.trace = -1;
		x.job = -1;
		x.user = j->uidx;	/* the history's index of its user */
		x.submit = j->submit >= 0 ? j->submit : t;
		x.start = started ? j->start : -1;
		x.limit = j->limit > 0 ? j->limit : 0;
		x.end = -1;
		x.nodes = j->nodes > 0 ? j->nodes : 1;
		x.chain = chain != NULL && strcmp(chain, j->jobid) == 0;
		/* priorities are Slurm's now; in the past, submission order */
		x.prio = t == l->now && !isnan(j->prio) ? j->prio :
		    -(double)x.submit;
		if (x.submit > t)
			continue;
		if (!started && !ended) {
			if (mg_view_add(&v->pend, &v->npend, &v->cappend, &x))
				return MG_ENOMEM;
		} else if (started && !ended) {
			busy += x.nodes;
			if (mg_view_add(&v->run, &v->nrun, &v->caprun, &x))
				return MG_ENOMEM;
		}
		if (started && j->start > t - recent &&
		    mg_view_add(&v->recent, &v->nrecent, &v->caprecent, &x))
			return MG_ENOMEM;
		if (started && ended && j->end > t - recent) {
			x.end = j->end;
			if (mg_view_add(&v->ended, &v->nended, &v->capended,
			    &x))
				return MG_ENOMEM;
		}
	}
	v->free = busy >= cluster_nodes ? 0 : (int32_t)(cluster_nodes - busy);
	mg_view_sort_pending(v);
	return 0;
}

static int
dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
mg_live_fresh_prio(struct mg_live *l)
{
	double *p, lo = INFINITY, r;
	size_t i, n = 0;

	settle(l);
	if ((p = malloc((l->n ? l->n : 1) * sizeof(*p))) == NULL)
		return 0;
	for (i = 0; i < l->n; i++) {
		const struct mg_live_job *j = &l->job[i];

		if (!j->pending || isnan(j->prio))
			continue;
		if (j->prio < lo)
			lo = j->prio;
		if (j->submit >= l->now - 3600)
			p[n++] = j->prio;
	}
	if (n > 0) {
		qsort(p, n, sizeof(*p), dbl_cmp);
		r = n % 2 ? p[n / 2] : (p[n / 2 - 1] + p[n / 2]) / 2;
	} else if (!isinf(lo))
		r = lo;
	else	/* no priority shown: first come, first served, as the view
		 * orders such jobs */
		r = -(double)l->now;
	free(p);
	return r;
}

void
mg_live_release(struct mg_live *l)
{
	free(l->job);
	l->job = NULL;
	l->n = l->cap = 0;
}

size_t
mg_live_incomplete(struct mg_live *l, int64_t now)
{
	size_t i, n = 0, all = 0;

	settle(l);
	for (i = 0; i < l->n; i++) {
		const struct mg_live_job *j = &l->job[i];

		if ((j->end >= 0 && j->end <= now) || j->submit > now)
			continue;
		all++;
		n += j->limit <= 0 || j->submit < 0;
	}
	return 2 * n > all ? n : 0;
}

static int
tjob_cmp(const void *a, const void *b)
{
	return mg_trace_job_cmp(a, b);
}

int
mg_live_history(struct mg_live *l, int64_t t, struct mg_trace *tr)
{
	size_t i;

	settle(l);
	memset(tr, 0, sizeof(*tr));
	if ((tr->job = malloc((l->n ? l->n : 1) * sizeof(*tr->job))) == NULL)
		return MG_ENOMEM;
	for (i = 0; i < l->n; i++) {
		const struct mg_live_job *j = &l->job[i];
		struct mg_trace_job *x = &tr->job[tr->n];

		if (j->submit < 0 || j->start < j->submit || j->end < j->start ||
		    j->end > t || j->limit <= 0 || j->nodes <= 0)
			continue;
		memset(x, 0, sizeof(*x));
		x->submit = j->submit;
		x->start = j->start;
		x->dur = j->end - j->start < j->limit ? j->end - j->start :
		    j->limit;
		x->limit = j->limit;
		x->nodes = j->nodes;
		x->prio = x->uid = x->eligible = -1;
		x->user = j->uidx;
		x->after = x->part = x->qos = x->account = x->assoc = -1;
		/* ids of 20 and more characters are cut: they only order
		 * jobs of the same minute */
		memcpy(x->id, j->jobid, sizeof(x->id) - 1);
		x->id[sizeof(x->id) - 1] = '\0';
		tr->n++;
	}
	qsort(tr->job, tr->n, sizeof(*tr->job), tjob_cmp);
	tr->nusers = l->nusers;
	return 0;
}
