/*
 * sacctjson.c: sacct --json into jobs; see sacctjson.h.
 *
 * Times are epoch integers with 0 for "not yet"; time.limit is minutes,
 * null for UNLIMITED (newer Slurm writes {set, infinite, number} objects
 * for numbers: both are read).  A pending array remainder has a hex
 * bitmap of task ids in array.task, shown as 28_[1-6] like sacct does.
 *
 * squeue --json writes flat names instead (job_state, submit_time,
 * time_limit, node_count, user_name, array_job_id, ...): a job object
 * without "state" is read with those.  Its start_time and end_time of a
 * pending job, and end_time of a running one, are plans, not events, and
 * are not kept.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "io/sacctjson.h"
#include "base/mem.h"
#include "io/input.h"
#include "io/yaml.h"

static struct json_object *
get(struct json_object *o, const char *path)
{
	char key[64];
	const char *dot;
	struct json_object *v;

	while (o != NULL && (dot = strchr(path, '.')) != NULL) {
		size_t n = (size_t)(dot - path);

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(o, key, &v))
			return NULL;
		o = v;
		path = dot + 1;
	}
	if (o == NULL || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, path, &v))
		return NULL;
	return v;
}

/* a job's state.current: a string, or (data_parser 0.0.40 and later)
 * a list whose first word is the base state and the rest its flags */
static struct json_object *
state_of(struct json_object *j)
{
	struct json_object *v = get(j, "state.current");

	if (v != NULL && json_object_is_type(v, json_type_array))
		v = json_object_array_length(v) > 0 ?
		    json_object_array_get_idx(v, 0) : NULL;
	return v;
}

/* 1 and *out for a number (or a {set,infinite,number} object), 0 for
 * null or unset, -1 for infinite */
static int
num(struct json_object *v, int64_t *out)
{
	struct json_object *x;

	if (v == NULL || json_object_is_type(v, json_type_null))
		return 0;
	if (json_object_is_type(v, json_type_object)) {
		if ((x = get(v, "infinite")) && json_object_get_boolean(x))
			return -1;
		if ((x = get(v, "set")) && !json_object_get_boolean(x))
			return 0;
		return num(get(v, "number"), out);
	}
	if (!json_object_is_type(v, json_type_int))
		return 0;
	*out = json_object_get_int64(v);
	return 1;
}

static void
str(struct mg_value *job, enum mg_job_field f, struct json_object *v)
{
	const char *s;

	if (v == NULL || !json_object_is_type(v, json_type_string))
		return;
	s = json_object_get_string(v);
	if (*s)
		mg_job_set_str(job, f, s, strlen(s));
}

static void
epoch(struct mg_value *job, enum mg_job_field f, struct json_object *v)
{
	int64_t t;

	if (num(v, &t) == 1 && t > 0)
		mg_job_set_i64(job, f, t);
}

/* a TRES list: count of type "node" or of gres "gpu" (-1 if absent) */
static int64_t
tres(struct json_object *list, const char *type, const char *name)
{
	struct json_object *e, *t, *n;
	int64_t c, sum = -1;
	size_t i, len;

	if (list == NULL || !json_object_is_type(list, json_type_array))
		return -1;
	len = json_object_array_length(list);
	for (i = 0; i < len; i++) {
		e = json_object_array_get_idx(list, i);
		t = get(e, "type");
		n = get(e, "name");
		if (t == NULL || strcmp(json_object_get_string(t), type) != 0)
			continue;
		if (name && (n == NULL || strncmp(json_object_get_string(n),
		    name, strlen(name)) != 0))
			continue;
		if (num(get(e, "count"), &c) == 1)
			sum = (sum < 0 ? 0 : sum) + c;
	}
	return sum;
}

/* "0x7E" -> "1-6" */
static void
bitmap_ranges(const char *hex, char *out, size_t cap)
{
	unsigned long long bits = 0;
	size_t k = 0, len;
	int i, a;

	len = strlen(hex);
	if (len < 3 || len > 18 || hex[0] != '0' || hex[1] != 'x') {
		snprintf(out, cap, "%s", hex);
		return;
	}
	for (i = 2; hex[i]; i++) {
		int c = hex[i];
		int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
		    c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (v < 0) {
			snprintf(out, cap, "%s", hex);
			return;
		}
		bits = bits << 4 | (unsigned)v;
	}
	out[0] = '\0';
	for (i = 0; i < 64; i++) {
		if (!(bits >> i & 1))
			continue;
		for (a = i; i + 1 < 64 && (bits >> (i + 1) & 1); i++)
			;
		k += (size_t)snprintf(out + k, cap > k ? cap - k : 0,
		    a == i ? "%s%d" : "%s%d-%d", k ? "," : "", a, i);
	}
}

static int
claims_success(struct json_object *st)
{
	return st != NULL && strcmp(json_object_get_string(st), "SUCCESS") == 0;
}

static int
failed_state(struct json_object *st)
{
	static const char *const bad[] = { "FAILED", "OUT_OF_MEMORY",
	    "NODE_FAIL", "BOOT_FAIL", NULL };
	const char *s = st ? json_object_get_string(st) : "";
	int i;

	for (i = 0; bad[i]; i++)
		if (strcmp(s, bad[i]) == 0)
			return 1;
	return 0;
}

static int
deadline_state(struct json_object *st)
{
	return st != NULL && strcmp(json_object_get_string(st), "DEADLINE") ==
	    0;
}

/* squeue --json: one job object */
static int
one_squeue(struct json_object *j, size_t idx, struct mg_slurmfmt_sink *s)
{
	struct mg_value job[MG_JOB_NFIELDS];
	char jobid[96], msg[160];
	int64_t id, aj = 0, at, hj = 0, ho, v, g;
	const char *st = "";
	int r;

	mg_job_clear(job);
	if (num(get(j, "job_id"), &id) != 1 || id < 0) {
		snprintf(msg, sizeof(msg), "jobs[%zu]: no job_id", idx);
		return s->warn(s->ctx, 0, 1, msg);
	}
	mg_job_set_i64(job, MG_JOB_ID, id);
	num(get(j, "array_job_id"), &aj);
	num(get(j, "het_job_id"), &hj);
	if (aj > 0 && num(get(j, "array_task_id"), &at) == 1) {
		mg_job_set_i64(job, MG_JOB_ARRAY_JOB, aj);
		mg_job_set_i64(job, MG_JOB_ARRAY_TASK, at);
		snprintf(jobid, sizeof(jobid), "%lld_%lld", (long long)aj,
		    (long long)at);
	} else if (hj > 0 && num(get(j, "het_job_offset"), &ho) == 1) {
		mg_job_set_i64(job, MG_JOB_HET_JOB, hj);
		mg_job_set_i64(job, MG_JOB_HET_OFFSET, ho);
		snprintf(jobid, sizeof(jobid), "%lld+%lld", (long long)hj,
		    (long long)ho);
	} else
		snprintf(jobid, sizeof(jobid), "%lld", (long long)id);
	mg_job_set_str(job, MG_JOB_JOBID, jobid, strlen(jobid));
	str(job, MG_JOB_NAME, get(j, "name"));
	str(job, MG_JOB_USER, get(j, "user_name"));
	str(job, MG_JOB_ACCOUNT, get(j, "account"));
	str(job, MG_JOB_PARTITION, get(j, "partition"));
	str(job, MG_JOB_QOS, get(j, "qos"));
	str(job, MG_JOB_STATE, get(j, "job_state"));
	if (!job[MG_JOB_STATE].null)
		st = json_object_get_string(get(j, "job_state"));
	epoch(job, MG_JOB_SUBMIT, get(j, "submit_time"));
	epoch(job, MG_JOB_ELIGIBLE, get(j, "eligible_time"));
	if (strcmp(st, "PENDING") != 0) {
		epoch(job, MG_JOB_START, get(j, "start_time"));
		if (strcmp(st, "RUNNING") != 0 && strcmp(st, "SUSPENDED") != 0)
			epoch(job, MG_JOB_END, get(j, "end_time"));
	}
	r = num(get(j, "time_limit"), &v);
	if (r == 1)
		mg_job_set_i64(job, MG_JOB_TIMELIMIT, v * 60);
	else if (r == -1)
		mg_job_set_i64(job, MG_JOB_TIMELIMIT, -1);
	if (num(get(j, "node_count"), &v) == 1 && v > 0)
		mg_job_set_i64(job, MG_JOB_NNODES, v);
	if (num(get(j, "cpus"), &v) == 1)
		mg_job_set_i64(job, MG_JOB_NCPUS, v);
	g = 0;
	{
		struct json_object *t = get(j, "tres_alloc_str");
		const char *ts = t ? json_object_get_string(t) : "";

		if (*ts == '\0' && (t = get(j, "tres_req_str")) != NULL)
			ts = json_object_get_string(t);
		if (mg_slurmfmt_gpus(ts, strlen(ts), &g) != 0)
			g = 0;
	}
	mg_job_set_i64(job, MG_JOB_NGPUS, g);
	if (num(get(j, "priority"), &v) == 1)
		mg_job_set_i64(job, MG_JOB_PRIORITY, v);
	return s->job(s->ctx, job, 0);
}

static int
one(struct json_object *j, size_t idx, struct mg_slurmfmt_sink *s)
{
	struct mg_value job[MG_JOB_NFIELDS];
	char jobid[96], ranges[64], msg[160];
	int64_t id, aj = 0, at, hj = 0, ho, v, g;
	const char *task;
	int r, started;

	mg_job_clear(job);
	if (num(get(j, "job_id"), &id) != 1 || id < 0) {
		snprintf(msg, sizeof(msg), "jobs[%zu]: no job_id", idx);
		return s->warn(s->ctx, 0, 1, msg);
	}
	num(get(j, "array.job_id"), &aj);
	num(get(j, "het.job_id"), &hj);
	mg_job_set_i64(job, MG_JOB_ID, id);
	if (aj > 0) {
		mg_job_set_i64(job, MG_JOB_ARRAY_JOB, aj);
		if (num(get(j, "array.task_id"), &at) == 1) {
			mg_job_set_i64(job, MG_JOB_ARRAY_TASK, at);
			snprintf(jobid, sizeof(jobid), "%lld_%lld",
			    (long long)aj, (long long)at);
		} else {
			struct json_object *t = get(j, "array.task");

			task = t ? json_object_get_string(t) : "?";
			bitmap_ranges(task, ranges, sizeof(ranges));
			snprintf(jobid, sizeof(jobid), "%lld_[%s]",
			    (long long)aj, ranges);
		}
	} else if (hj > 0 && num(get(j, "het.job_offset"), &ho) == 1) {
		mg_job_set_i64(job, MG_JOB_HET_JOB, hj);
		mg_job_set_i64(job, MG_JOB_HET_OFFSET, ho);
		snprintf(jobid, sizeof(jobid), "%lld+%lld", (long long)hj,
		    (long long)ho);
	} else {
		snprintf(jobid, sizeof(jobid), "%lld", (long long)id);
	}
	mg_job_set_str(job, MG_JOB_JOBID, jobid, strlen(jobid));
	str(job, MG_JOB_NAME, get(j, "name"));
	str(job, MG_JOB_USER, get(j, "user"));
	str(job, MG_JOB_ACCOUNT, get(j, "account"));
	str(job, MG_JOB_PARTITION, get(j, "partition"));
	str(job, MG_JOB_QOS, get(j, "qos"));
	str(job, MG_JOB_STATE, state_of(j));
	epoch(job, MG_JOB_SUBMIT, get(j, "time.submission"));
	epoch(job, MG_JOB_ELIGIBLE, get(j, "time.eligible"));
	epoch(job, MG_JOB_START, get(j, "time.start"));
	epoch(job, MG_JOB_END, get(j, "time.end"));
	/* a present but null time.limit is UNLIMITED */
	r = num(get(j, "time.limit"), &v);
	if (r == 1)
		mg_job_set_i64(job, MG_JOB_TIMELIMIT, v * 60);
	else if (r == -1 || (get(j, "time") != NULL &&
	    json_object_object_get_ex(get(j, "time"), "limit", NULL) &&
	    get(j, "time.limit") == NULL))
		mg_job_set_i64(job, MG_JOB_TIMELIMIT, -1);
	started = !job[MG_JOB_START].null;
	if (num(get(j, "allocation_nodes"), &v) == 1 && v > 0)
		mg_job_set_i64(job, MG_JOB_NNODES, v);
	else if ((v = tres(get(j, "tres.requested"), "node", NULL)) >= 0)
		mg_job_set_i64(job, MG_JOB_NNODES, v);
	/* NCPUS as sacct -P prints it: allocated, or requested if none */
	if ((v = tres(get(j, "tres.allocated"), "cpu", NULL)) > 0 ||
	    num(get(j, "required.CPUs"), &v) == 1)
		mg_job_set_i64(job, MG_JOB_NCPUS, v);
	g = started ? tres(get(j, "tres.allocated"), "gres", "gpu") : -1;
	if (g < 0)
		g = tres(get(j, "tres.requested"), "gres", "gpu");
	mg_job_set_i64(job, MG_JOB_NGPUS, g < 0 ? 0 : g);
	/*
	 * Slurm 22.05.8 writes {"status":"SUCCESS","return_code":0} for a
	 * FAILED job whose batch step exited 3 (sacct -P says 3:0): a
	 * success claimed for a failed job is not believed, and left null.
	 */
	/* and a DEADLINE job's claimed success is sacct -P's 1:0 */
	if (num(get(j, "exit_code.return_code"), &v) == 1 && v == 0 &&
	    claims_success(get(j, "exit_code.status")) &&
	    deadline_state(state_of(j))) {
		mg_job_set_i64(job, MG_JOB_EXIT_CODE, 1);
		mg_job_set_i64(job, MG_JOB_EXIT_SIGNAL, 0);
	} else if (num(get(j, "exit_code.return_code"), &v) == 1 &&
	    !(v == 0 && claims_success(get(j, "exit_code.status")) &&
	    failed_state(state_of(j)))) {
		mg_job_set_i64(job, MG_JOB_EXIT_CODE, v);
		if (num(get(j, "exit_code.signal.signal_id"), &v) != 1)
			v = 0;
		mg_job_set_i64(job, MG_JOB_EXIT_SIGNAL, v);
	}
	if (num(get(j, "priority"), &v) == 1)
		mg_job_set_i64(job, MG_JOB_PRIORITY, v);
	return s->job(s->ctx, job, 0);
}

/* one element of "jobs" to the sink; the first says whose layout */
static int
job(struct mg_slurmfmt_sink *s, struct json_object *j, size_t idx, int yaml)
{
	if (idx == 0 && get(j, "state") == NULL && get(j, "job_state") != NULL)
		s->layout = yaml ? "squeue --yaml" : "squeue --json";
	return strncmp(s->layout, "squeue", 6) == 0 ? one_squeue(j, idx, s) :
	    one(j, idx, s);
}

/* root (released) has "jobs"; the elements not yet read go to the sink */
static int
rest(struct json_object *root, int yaml, int streamed,
    struct mg_slurmfmt_sink *s, struct mg_diag *d)
{
	struct json_object *list = get(root, "jobs");
	size_t i, n;
	int rv = 0;

	if (list == NULL || !json_object_is_type(list, json_type_array)) {
		json_object_put(root);
		return mg_diag_set(d, MG_EFORMAT, "%s without a \"jobs\" "
		    "array (not sacct or squeue output)", yaml ? "YAML" :
		    "JSON");
	}
	n = streamed ? 0 : json_object_array_length(list);
	for (i = 0; i < n && rv == 0; i++)
		rv = job(s, json_object_array_get_idx(list, i), i, yaml);
	json_object_put(root);
	return rv;
}

/* the input's lines, each with its newline back, as a byte stream */
struct feed {
	struct mg_input *in;
	const char *line;
	size_t len, off;
	int nl, eof;
	struct mg_diag *d;
};

static int
feed_read(void *ctx, char *buf, size_t size, size_t *got)
{
	struct feed *f = ctx;
	size_t n = 0, k;
	int rv;

	while (n < size && !f->eof) {
		if (f->off < f->len) {
			k = f->len - f->off < size - n ? f->len - f->off :
			    size - n;
			memcpy(buf + n, f->line + f->off, k);
			f->off += k;
			n += k;
		} else if (f->nl) {
			buf[n++] = '\n';
			f->nl = 0;
		} else if ((rv = mg_input_getline(f->in, &f->line, &f->len,
		    f->d)) < 0) {
			return rv;
		} else if (rv == 0) {
			f->eof = 1;
		} else {
			f->off = 0;
			f->nl = 1;
		}
	}
	*got = n;
	return 0;
}

struct yctx {
	struct mg_slurmfmt_sink *s;
	size_t n;
};

static int
yaml_job(void *ctx, struct json_object *j, size_t idx)
{
	struct yctx *y = ctx;

	y->n++;
	return job(y->s, j, idx, 1);
}

/*
 * sacct --json, streamed: a scanner that knows only strings and brackets
 * cuts out each element of the root object's "jobs" array, which json-c
 * parses alone; the rest of the document (the skeleton, each element
 * replaced by 0) is parsed by json-c at the end, which checks it and
 * that nothing follows it.  A document whose jobs the scanner does not
 * find (another nesting) is the skeleton whole and read as a tree.
 */
struct jscan {
	int depth, in_str, esc;
	int mode;		/* 0 before "jobs", 1 in its array, 2 in an
				 * element, 3 after it */
	int phase;		/* at depth 1: 1 after a key, 2 after ':' */
	char key[8];
	size_t klen;
	char *el, *sk;
	size_t nel, capel, nsk, capsk, nth;
	uint64_t el_at;		/* the element's first byte */
	uint64_t cut;		/* bytes the elements took out */
};

static int
element(struct jscan *j, struct json_tokener *tok, struct mg_slurmfmt_sink *s,
    struct mg_diag *d)
{
	struct json_object *o;
	enum json_tokener_error e;
	size_t i, end;
	int rv;

	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, j->el, (int)j->nel);
	e = json_tokener_get_error(tok);
	if (o == NULL || e != json_tokener_success) {
		json_object_put(o);
		return mg_diag_set(d, MG_EFORMAT, "JSON: %s in jobs[%zu] near "
		    "byte %llu", e == json_tokener_continue ? "element ends "
		    "early" : json_tokener_error_desc(e), j->nth,
		    (unsigned long long)(j->el_at +
		    json_tokener_get_parse_end(tok)));
	}
	for (i = end = json_tokener_get_parse_end(tok); i < j->nel; i++)
		if (j->el[i] != ' ' && j->el[i] != '\t' && j->el[i] != '\n' &&
		    j->el[i] != '\r') {
			json_object_put(o);
			return mg_diag_set(d, MG_EFORMAT, "JSON: text after "
			    "jobs[%zu] near byte %llu", j->nth,
			    (unsigned long long)(j->el_at + i));
		}
	rv = job(s, o, j->nth++, 0);
	json_object_put(o);
	j->cut += j->nel - 1;	/* "0" stands for it */
	return rv;
}

static int
scan(struct jscan *j, const char *b, size_t n, uint64_t at,
    struct json_tokener *tok, struct mg_slurmfmt_sink *s, struct mg_diag *d)
{
	size_t i;
	int rv;

	for (i = 0; i < n; i++) {
		char c = b[i];
		int ws = c == ' ' || c == '\t' || c == '\n' || c == '\r';

		if (j->mode == 2 && !j->in_str && j->depth == 2 &&
		    (c == ',' || c == ']')) {
			if ((rv = element(j, tok, s, d)) != 0)
				return rv;
			j->mode = 1;
			if (mg_grow((void **)&j->sk, &j->capsk, j->nsk + 1, 1))
				return MG_ENOMEM;
			j->sk[j->nsk++] = '0';
		}
		if (j->mode == 1 && !ws && c != ',' && c != ']') {
			j->mode = 2;	/* an element begins */
			j->nel = 0;
			j->el_at = at + i;
		}
		if (j->mode == 2) {
			if (mg_grow((void **)&j->el, &j->capel, j->nel + 1, 1))
				return MG_ENOMEM;
			j->el[j->nel++] = c;
		} else {
			if (mg_grow((void **)&j->sk, &j->capsk, j->nsk + 1, 1))
				return MG_ENOMEM;
			j->sk[j->nsk++] = c;
		}
		if (j->in_str) {
			if (j->esc)
				j->esc = 0;
			else if (c == '\\')
				j->esc = 1;
			else if (c == '"') {
				j->in_str = 0;
				if (j->depth == 1 && j->mode == 0)
					j->phase = 1;
			} else if (j->depth == 1 && j->klen < sizeof(j->key))
				j->key[j->klen++] = c;
			continue;
		}
		if (c == '"') {
			j->in_str = 1;
			j->klen = 0;
			continue;
		}
		if (ws)
			continue;
		if (j->mode == 0 && j->depth == 1) {
			if (j->phase == 1 && c == ':') {
				j->phase = 2;
				continue;
			}
			if (j->phase == 2 && c == '[' && j->klen == 4 &&
			    memcmp(j->key, "jobs", 4) == 0) {
				j->depth++;
				j->mode = 1;
				continue;
			}
			j->phase = 0;
		}
		if (c == '{' || c == '[')
			j->depth++;
		else if (c == '}' || c == ']') {
			j->depth--;
			if (j->mode == 1 && j->depth == 1)
				j->mode = 3;	/* the array's end */
		}
	}
	return 0;
}

static int
read_json(struct feed *f, struct mg_slurmfmt_sink *s, struct mg_diag *d)
{
	struct jscan j;
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error e;
	char buf[65536];
	size_t got, i;
	uint64_t at = 0;
	int rv = 0;

	memset(&j, 0, sizeof(j));
	if ((tok = json_tokener_new()) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	while (rv == 0 && (rv = feed_read(f, buf, sizeof(buf), &got)) == 0 &&
	    got > 0) {
		rv = scan(&j, buf, got, at, tok, s, d);
		at += got;
	}
	if (rv == MG_ENOMEM)
		mg_diag_set(d, rv, "out of memory");
	if (rv == 0 && j.mode == 2)	/* cut inside an element */
		rv = element(&j, tok, s, d);
	free(j.el);
	if (rv != 0)
		goto out;
	json_tokener_reset(tok);
	root = json_tokener_parse_ex(tok, j.sk ? j.sk : "", (int)j.nsk);
	e = json_tokener_get_error(tok);
	if (root == NULL || e != json_tokener_success) {
		json_object_put(root);
		rv = mg_diag_set(d, MG_EFORMAT, "JSON: %s near byte %llu", e ==
		    json_tokener_continue ? "document ends early" :
		    json_tokener_error_desc(e), (unsigned long long)
		    (json_tokener_get_parse_end(tok) + j.cut));
		goto out;
	}
	/* one document: what follows it is an error, not ignored */
	for (i = json_tokener_get_parse_end(tok); i < j.nsk; i++)
		if (j.sk[i] != ' ' && j.sk[i] != '\t' && j.sk[i] != '\n' &&
		    j.sk[i] != '\r') {
			json_object_put(root);
			rv = mg_diag_set(d, MG_EFORMAT, "JSON: text after the "
			    "document near byte %llu (one sacct --json "
			    "document per input)", (unsigned long long)(i +
			    j.cut));
			goto out;
		}
	rv = rest(root, 0, j.mode != 0, s, d);
out:
	free(j.sk);
	json_tokener_free(tok);
	return rv;
}

int
mg_sacctjson_read(struct mg_input *in, const char *line, size_t len,
    int yaml, enum mg_tz tz, struct mg_slurmfmt_sink *s, struct mg_diag *d)
{
	struct feed f = { in, line, len, 0, 1, 0, d };
	struct yctx y = { s, 0 };
	struct json_object *root;
	int rv;

	(void)tz;		/* times are epoch seconds */
	if (!yaml)
		return read_json(&f, s, d);
	if ((rv = mg_yaml_each(feed_read, &f, "jobs", yaml_job, &y, &root,
	    d)) != 0)
		return rv;
	return rest(root, 1, y.n > 0, s, d);
}
