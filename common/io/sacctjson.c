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
	str(job, MG_JOB_STATE, get(j, "state.current"));
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
	    deadline_state(get(j, "state.current"))) {
		mg_job_set_i64(job, MG_JOB_EXIT_CODE, 1);
		mg_job_set_i64(job, MG_JOB_EXIT_SIGNAL, 0);
	} else if (num(get(j, "exit_code.return_code"), &v) == 1 &&
	    !(v == 0 && claims_success(get(j, "exit_code.status")) &&
	    failed_state(get(j, "state.current")))) {
		mg_job_set_i64(job, MG_JOB_EXIT_CODE, v);
		if (num(get(j, "exit_code.signal.signal_id"), &v) != 1)
			v = 0;
		mg_job_set_i64(job, MG_JOB_EXIT_SIGNAL, v);
	}
	if (num(get(j, "priority"), &v) == 1)
		mg_job_set_i64(job, MG_JOB_PRIORITY, v);
	return s->job(s->ctx, job, 0);
}

/* each element of root's "jobs" to the sink; root is released */
static int
jobs(struct json_object *root, const char *what, struct mg_slurmfmt_sink *s,
    struct mg_diag *d)
{
	struct json_object *list = get(root, "jobs");
	size_t i, n;
	int rv = 0;

	if (list == NULL || !json_object_is_type(list, json_type_array)) {
		json_object_put(root);
		return mg_diag_set(d, MG_EFORMAT, "%s without a \"jobs\" "
		    "array (not sacct or squeue output)", what);
	}
	n = json_object_array_length(list);
	for (i = 0; i < n && rv == 0; i++) {
		struct json_object *j = json_object_array_get_idx(list, i);

		if (i == 0 && get(j, "state") == NULL &&
		    get(j, "job_state") != NULL)
			s->layout = strcmp(what, "YAML") == 0 ?
			    "squeue --yaml" : "squeue --json";
		rv = strncmp(s->layout, "squeue", 6) == 0 ?
		    one_squeue(j, i, s) : one(j, i, s);
	}
	json_object_put(root);
	return rv;
}

int
mg_sacctjson_parse(const char *text, size_t len, enum mg_tz tz,
    struct mg_slurmfmt_sink *s, struct mg_diag *d)
{
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error e;
	size_t i;
	int rv = 0;

	(void)tz;		/* JSON times are epoch seconds */
	if ((tok = json_tokener_new()) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	root = json_tokener_parse_ex(tok, text, (int)len);
	e = json_tokener_get_error(tok);
	if (root == NULL || e != json_tokener_success) {
		rv = mg_diag_set(d, MG_EFORMAT, "JSON: %s near byte %zu",
		    e == json_tokener_continue ? "document ends early" :
		    json_tokener_error_desc(e), json_tokener_get_parse_end(tok));
		json_object_put(root);
		json_tokener_free(tok);
		return rv;
	}
	/* one document: what follows it is an error, not ignored */
	for (i = json_tokener_get_parse_end(tok); i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' &&
		    text[i] != '\r') {
			json_object_put(root);
			json_tokener_free(tok);
			return mg_diag_set(d, MG_EFORMAT, "JSON: text after "
			    "the document near byte %zu (one sacct --json "
			    "document per input)", i);
		}
	json_tokener_free(tok);
	return jobs(root, "JSON", s, d);
}

int
mg_sacctjson_parse_yaml(const char *text, size_t len, enum mg_tz tz,
    struct mg_slurmfmt_sink *s, struct mg_diag *d)
{
	struct json_object *root;
	int rv;

	(void)tz;
	if ((rv = mg_yaml_to_json(text, len, &root, d)) != 0)
		return rv;
	return jobs(root, "YAML", s, d);
}
