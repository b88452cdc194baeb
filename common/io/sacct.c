/*
 * sacct.c: layout detection and the text layouts of sacct; see sacct.h
 * and mirage-parse(1) for the rules.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/sacct.h"

#define TIME_MAX	7258118400LL	/* 2200-01-01: later is not a time */
#define MAX_NODES	(1 << 24)	/* more nodes than any cluster has */
#include "io/sacctjson.h"
#include "io/swf.h"

#define MAX_COLS 512
#define MAX_TEXT 8	/* free-text columns a repair may widen */

enum col {
	C_IGNORE = 0, C_JOBID, C_JOBIDRAW, C_JOBNAME, C_USER, C_UID,
	C_ACCOUNT, C_PARTITION, C_QOS, C_STATE, C_SUBMIT, C_ELIGIBLE,
	C_START, C_END, C_TIMELIMIT, C_TIMELIMITRAW, C_NNODES, C_NCPUS,
	C_ALLOCTRES, C_REQTRES, C_EXITCODE, C_PRIORITY, C_ELAPSED, C_NCOLS
};

static const char *const col_names[C_NCOLS] = {
	[C_JOBID] = "JobID", [C_JOBIDRAW] = "JobIDRaw",
	[C_JOBNAME] = "JobName", [C_USER] = "User", [C_UID] = "UID",
	[C_ACCOUNT] = "Account", [C_PARTITION] = "Partition",
	[C_QOS] = "QOS", [C_STATE] = "State", [C_SUBMIT] = "Submit",
	[C_ELIGIBLE] = "Eligible", [C_START] = "Start", [C_END] = "End",
	[C_TIMELIMIT] = "Timelimit", [C_TIMELIMITRAW] = "TimelimitRaw",
	[C_NNODES] = "NNodes", [C_NCPUS] = "NCPUS",
	[C_ALLOCTRES] = "AllocTRES", [C_REQTRES] = "ReqTRES",
	[C_EXITCODE] = "ExitCode", [C_PRIORITY] = "Priority",
	[C_ELAPSED] = "Elapsed",
};

/* sacct's columns of free text: what a user typed (a job name, a
 * command line, a comment, a directory) may hold the delimiter */
static const char *const text_names[] = {
	"JobName", "SubmitLine", "WorkDir", "Comment", "AdminComment",
	"SystemComment", "Constraints", "WCKey", "Container",
	"COMMENT", "WORK_DIR", "COMMAND",	/* squeue's */
};
#define NTEXT (sizeof(text_names) / sizeof(text_names[0]))

/* squeue's names for the same columns (-o, -O and the default layouts) */
static const struct {
	const char *name;
	enum col col;
} squeue_names[] = {
	{ "NAME", C_JOBNAME }, { "ST", C_STATE },
	{ "SUBMIT_TIME", C_SUBMIT }, { "ELIGIBLE_TIME", C_ELIGIBLE },
	{ "START_TIME", C_START }, { "END_TIME", C_END },
	{ "TIME_LIMIT", C_TIMELIMIT }, { "TIME", C_ELAPSED },
	{ "NODES", C_NNODES }, { "CPUS", C_NCPUS },
	{ "TRES_ALLOC", C_ALLOCTRES },
};
#define NSQUEUE (sizeof(squeue_names) / sizeof(squeue_names[0]))

/* squeue's compact state codes (%t, ST) */
static const char *const state_codes[][2] = {
	{ "PD", "PENDING" }, { "R", "RUNNING" }, { "CG", "COMPLETING" },
	{ "CF", "CONFIGURING" }, { "S", "SUSPENDED" }, { "CD", "COMPLETED" },
	{ "F", "FAILED" }, { "TO", "TIMEOUT" }, { "CA", "CANCELLED" },
	{ "NF", "NODE_FAIL" }, { "PR", "PREEMPTED" },
	{ "OOM", "OUT_OF_MEMORY" }, { "BF", "BOOT_FAIL" },
	{ "DL", "DEADLINE" }, { "RQ", "REQUEUED" }, { "RH", "REQUEUE_HOLD" },
	{ "RS", "RESIZING" }, { "RV", "REVOKED" }, { "SE", "SPECIAL_EXIT" },
	{ "SI", "SIGNALING" }, { "SO", "STAGE_OUT" }, { "ST", "STOPPED" },
	{ "RD", "RESV_DEL_HOLD" }, { "RF", "REQUEUE_FED" },
};

struct slice {
	const char *p;
	size_t n;
};

struct parser {
	const struct mg_sacct_opts *o;
	struct mg_slurmfmt_sink *s;
	struct mg_diag *d;
	enum mg_sacct_format fmt;
	char delim;
	int trailing;		/* --parsable: every line ends with delim */
	int tabs_ok;		/* fixed layout whose rows may be tab-separated */
	int padded;		/* squeue -o with widths: trim every field */
	int words;		/* squeue's right-aligned layouts: split at
				 * blanks, the last column takes the rest */
	size_t ncols;
	enum col cols[MAX_COLS];
	size_t start[MAX_COLS], end[MAX_COLS];	/* fixed-width spans */
	int where[C_NCOLS];	/* column index of each known field, or -1 */
	size_t text[MAX_TEXT];	/* columns of free text, which may hold the
				 * delimiter (JobName, SubmitLine, ...) */
	size_t ntext;
	struct slice f[MAX_COLS];
	struct slice raw[MAX_COLS];	/* a row's fields before a repair */
	char msg[400];
};

void
mg_sacct_opts_init(struct mg_sacct_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = MG_FMT_AUTO;
	o->tz = MG_TZ_UTC;
}

static struct slice
trim(const char *p, size_t n)
{
	struct slice s;

	while (n > 0 && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	s.p = p;
	s.n = n;
	return s;
}

static int
all_digits(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return n > 0;
}

static int
dashes_line(const char *p, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (p[i] == '-')
			k++;
		else if (p[i] != ' ')
			return 0;
	}
	return k > 0;
}

/*
 * A header name into a known column: exact (any case), or a truncated
 * fixed-width name ("TimelimitR", "AllocTRE+") that is the prefix of
 * exactly one known name.
 */
static enum col
col_lookup(struct slice h)
{
	size_t i, n = h.n;
	int hit = -1, hits = 0;

	for (i = 1; i < C_NCOLS; i++)
		if (strlen(col_names[i]) == n &&
		    strncasecmp(col_names[i], h.p, n) == 0)
			return (enum col)i;
	for (i = 0; i < NSQUEUE; i++)
		if (strlen(squeue_names[i].name) == n &&
		    strncmp(squeue_names[i].name, h.p, n) == 0)
			return squeue_names[i].col;
	if (n > 0 && h.p[n - 1] == '+')
		n--;
	if (n < 4)
		return C_IGNORE;
	for (i = 1; i < C_NCOLS; i++)
		if (strlen(col_names[i]) > n &&
		    strncasecmp(col_names[i], h.p, n) == 0) {
			hit = (int)i;
			hits++;
		}
	for (i = 0; i < NSQUEUE; i++)
		if (strlen(squeue_names[i].name) > n &&
		    strncmp(squeue_names[i].name, h.p, n) == 0) {
			hit = (int)squeue_names[i].col;
			hits++;
		}
	return hits == 1 ? (enum col)hit : C_IGNORE;
}

static int
set_columns(struct parser *p, const struct slice *names, size_t n)
{
	size_t i;

	if (n > MAX_COLS)
		return mg_diag_set(p->d, MG_EFORMAT, "line 1: more than %d "
		    "columns", MAX_COLS);
	for (i = 0; i < C_NCOLS; i++)
		p->where[i] = -1;
	p->ncols = n;
	p->ntext = 0;
	for (i = 0; i < n; i++) {
		struct slice h = trim(names[i].p, names[i].n);
		size_t k;

		p->cols[i] = col_lookup(h);
		for (k = 0; k < NTEXT; k++)
			if (strlen(text_names[k]) == h.n &&
			    strncasecmp(text_names[k], h.p, h.n) == 0)
				break;
		/* the job name under any of its headers (squeue's NAME) */
		if ((k < NTEXT || p->cols[i] == C_JOBNAME) &&
		    p->ntext < MAX_TEXT)
			p->text[p->ntext++] = i;
		if (p->cols[i] != C_IGNORE && p->where[p->cols[i]] < 0)
			p->where[p->cols[i]] = (int)i;
		else
			p->cols[i] = C_IGNORE;
	}
	if (p->where[C_JOBID] < 0)
		return mg_diag_set(p->d, MG_EFORMAT, "no JobID column in the "
		    "header (for sacct -n output give the field list with "
		    "--fields)");
	return 0;
}

static size_t
split(const char *line, size_t len, char delim, struct slice *f, size_t max)
{
	const char *p = line, *end = line + len, *q;
	size_t n = 0;

	for (;;) {
		q = memchr(p, delim, (size_t)(end - p));
		if (n < max) {
			f[n].p = p;
			f[n].n = (size_t)((q ? q : end) - p);
		}
		n++;
		if (q == NULL)
			return n;
		p = q + 1;
	}
}

/* ---- fields of one row ----------------------------------------------- */

/* report a bad value; the row is dropped */
static int
bad(struct parser *p, uint64_t line, const char *what, struct slice v)
{
	int n = (int)(v.n > 60 ? 60 : v.n);

	snprintf(p->msg, sizeof(p->msg), "bad %s '%.*s'", what, n, v.p);
	return p->s->warn(p->s->ctx, line, 1, p->msg);
}

static int
get_time(struct parser *p, struct mg_value *job, enum mg_job_field jf,
    enum col c, uint64_t line, int *rv)
{
	int64_t t;
	int r;

	if (p->where[c] < 0)
		return 0;
	r = mg_parse_time(p->f[p->where[c]].p, p->f[p->where[c]].n, p->o->tz,
	    &t);
	/* no cluster ran a job before 1970 or after 2200 (a year 0000 once
	 * made a replay take minutes) */
	if (r == 0 && (t < 0 || t > TIME_MAX))
		r = MG_PARSE_BAD;
	if (r == 0)
		mg_job_set_i64(job, jf, t);
	else if (r == MG_PARSE_BAD) {
		struct slice v = p->f[p->where[c]];
		int n = (int)(v.n > 60 ? 60 : v.n);

		/* not even a date: a custom SLURM_TIME_FORMAT ("relative",
		 * "%a %H:%M") is the usual cause, so say which setting
		 * prints what is read */
		int iso = v.n >= 5 && isdigit((unsigned char)v.p[0]) &&
		    isdigit((unsigned char)v.p[1]) &&
		    isdigit((unsigned char)v.p[2]) &&
		    isdigit((unsigned char)v.p[3]) && v.p[4] == '-';

		snprintf(p->msg, sizeof(p->msg), "bad %s '%.*s'%s",
		    col_names[c], n, v.p, iso ? "" : " (times are read as "
		    "SLURM_TIME_FORMAT=standard prints them, e.g. "
		    "2026-11-24T21:00:00: run sacct and squeue with it)");
		*rv = p->s->warn(p->s->ctx, line, 1, p->msg);
		return -1;
	}
	return 0;
}

static int
get_int(struct parser *p, struct mg_value *job, enum mg_job_field jf,
    enum col c, uint64_t line, int *rv, int64_t min, int64_t max)
{
	struct slice v;
	int64_t x;

	if (p->where[c] < 0)
		return 0;
	v = p->f[p->where[c]];
	if (v.n == 0)
		return 0;
	if (mg_parse_i64(v.p, v.n, min, max, &x) != 0) {
		*rv = bad(p, line, col_names[c], v);
		return -1;
	}
	mg_job_set_i64(job, jf, x);
	return 0;
}

static void
get_str(struct parser *p, struct mg_value *job, enum mg_job_field jf,
    enum col c)
{
	struct slice v;

	if (p->where[c] < 0)
		return;
	v = p->f[p->where[c]];
	if (v.n > 0)
		mg_job_set_str(job, jf, v.p, v.n);
}

/* Turn the split fields of one row into a job and hand it on. */
static int
row(struct parser *p, uint64_t line)
{
	struct mg_value job[MG_JOB_NFIELDS];
	struct slice v;
	int64_t base, task, het, x, lim;
	size_t i;
	int step, r, rv = 0;

	mg_job_clear(job);
	v = p->f[p->where[C_JOBID]];
	if (mg_slurmfmt_jobid(v.p, v.n, &base, &task, &het, &step) != 0)
		return bad(p, line, "JobID", v);
	if (step) {
		p->s->steps++;
		return 0;
	}
	mg_job_set_str(job, MG_JOB_JOBID, v.p, v.n);
	if (task != -1) {
		mg_job_set_i64(job, MG_JOB_ARRAY_JOB, base);
		if (task >= 0)
			mg_job_set_i64(job, MG_JOB_ARRAY_TASK, task);
	}
	if (het >= 0) {
		mg_job_set_i64(job, MG_JOB_HET_JOB, base);
		mg_job_set_i64(job, MG_JOB_HET_OFFSET, het);
	}
	if (p->where[C_JOBIDRAW] >= 0 && p->f[p->where[C_JOBIDRAW]].n > 0) {
		v = p->f[p->where[C_JOBIDRAW]];
		if (mg_parse_i64(v.p, v.n, 0, INT64_MAX, &x) != 0)
			return bad(p, line, "JobIDRaw", v);
		mg_job_set_i64(job, MG_JOB_ID, x);
	} else if (task == -1) {
		/* het components get consecutive raw ids from the leader */
		mg_job_set_i64(job, MG_JOB_ID, base + (het >= 0 ? het : 0));
	}
	get_str(p, job, MG_JOB_NAME, C_JOBNAME);
	get_str(p, job, MG_JOB_USER, C_USER);
	get_str(p, job, MG_JOB_ACCOUNT, C_ACCOUNT);
	get_str(p, job, MG_JOB_PARTITION, C_PARTITION);
	get_str(p, job, MG_JOB_QOS, C_QOS);
	if (p->where[C_STATE] >= 0) {
		v = p->f[p->where[C_STATE]];
		/* "CANCELLED by 0" and fixed-width "CANCELLED+" */
		const char *sp = memchr(v.p, ' ', v.n);
		if (sp)
			v.n = (size_t)(sp - v.p);
		if (v.n > 0 && v.p[v.n - 1] == '+')
			v.n--;
		for (i = 0; v.n > 0 && v.n <= 3 &&
		    i < sizeof(state_codes) / sizeof(state_codes[0]); i++)
			if (strlen(state_codes[i][0]) == v.n &&
			    memcmp(state_codes[i][0], v.p, v.n) == 0) {
				v.p = state_codes[i][1];
				v.n = strlen(v.p);
				break;
			}
		if (v.n > 0)
			mg_job_set_str(job, MG_JOB_STATE, v.p, v.n);
	}
	if (get_int(p, job, MG_JOB_UID, C_UID, line, &rv, 0, INT32_MAX) ||
	    get_int(p, job, MG_JOB_NNODES, C_NNODES, line, &rv, 0,
	    MAX_NODES) ||
	    get_int(p, job, MG_JOB_NCPUS, C_NCPUS, line, &rv, 0, INT32_MAX) ||
	    get_int(p, job, MG_JOB_PRIORITY, C_PRIORITY, line, &rv,
	    INT64_MIN / 2, INT64_MAX / 2) ||
	    get_time(p, job, MG_JOB_SUBMIT, C_SUBMIT, line, &rv) ||
	    get_time(p, job, MG_JOB_ELIGIBLE, C_ELIGIBLE, line, &rv) ||
	    get_time(p, job, MG_JOB_START, C_START, line, &rv) ||
	    get_time(p, job, MG_JOB_END, C_END, line, &rv))
		return rv;
	if (!job[MG_JOB_START].null && !job[MG_JOB_END].null &&
	    job[MG_JOB_END].i < job[MG_JOB_START].i)
		return bad(p, line, "End (before Start)", p->f[p->where[C_END]]);
	if (!job[MG_JOB_SUBMIT].null && !job[MG_JOB_START].null &&
	    job[MG_JOB_START].i < job[MG_JOB_SUBMIT].i)
		return bad(p, line, "Start (before Submit)",
		    p->f[p->where[C_START]]);
	if (!job[MG_JOB_NNODES].null && job[MG_JOB_NNODES].i == 0 &&
	    !job[MG_JOB_START].null && !job[MG_JOB_END].null &&
	    job[MG_JOB_END].i > job[MG_JOB_START].i)
		return bad(p, line, "NNodes (0, for a job that ran)",
		    p->f[p->where[C_NNODES]]);
	/*
	 * squeue shows a pending job's planned start and end and a running
	 * job's planned end: plans, not events.  Without a start column, a
	 * running job started its elapsed time (squeue's TIME) before now.
	 */
	if (!job[MG_JOB_STATE].null) {
		const char *st = job[MG_JOB_STATE].s;
		size_t sn = job[MG_JOB_STATE].len;
		int pend = sn == 7 && memcmp(st, "PENDING", 7) == 0;
		int run = (sn == 7 && memcmp(st, "RUNNING", 7) == 0) ||
		    (sn == 9 && memcmp(st, "SUSPENDED", 9) == 0) ||
		    (sn == 10 && memcmp(st, "COMPLETING", 10) == 0);

		if (pend)
			job[MG_JOB_START].null = 1;
		if (pend || run)
			job[MG_JOB_END].null = 1;
		if (run && job[MG_JOB_START].null && p->o->now > 0 &&
		    p->where[C_ELAPSED] >= 0) {
			v = p->f[p->where[C_ELAPSED]];
			if (mg_parse_duration(v.p, v.n, &x) == 0 && x >= 0)
				mg_job_set_i64(job, MG_JOB_START,
				    p->o->now - x);
		}
	}
	if (p->where[C_TIMELIMITRAW] >= 0) {
		v = p->f[p->where[C_TIMELIMITRAW]];
		r = mg_parse_limit_minutes(v.p, v.n, &lim);
		if (r == MG_PARSE_BAD)
			return bad(p, line, "TimelimitRaw", v);
		if (r == 0)
			mg_job_set_i64(job, MG_JOB_TIMELIMIT, lim);
	} else if (p->where[C_TIMELIMIT] >= 0) {
		v = p->f[p->where[C_TIMELIMIT]];
		r = mg_parse_duration(v.p, v.n, &lim);
		if (r == MG_PARSE_BAD)
			return bad(p, line, "Timelimit", v);
		if (r == 0)
			mg_job_set_i64(job, MG_JOB_TIMELIMIT, lim);
	}
	if (p->where[C_EXITCODE] >= 0 && p->f[p->where[C_EXITCODE]].n > 0) {
		const char *colon;
		int64_t code, sig;

		v = p->f[p->where[C_EXITCODE]];
		colon = memchr(v.p, ':', v.n);
		if (colon == NULL || mg_parse_i64(v.p, (size_t)(colon - v.p),
		    0, 255, &code) || mg_parse_i64(colon + 1,
		    v.n - (size_t)(colon - v.p) - 1, 0, 255, &sig))
			return bad(p, line, "ExitCode", v);
		mg_job_set_i64(job, MG_JOB_EXIT_CODE, code);
		mg_job_set_i64(job, MG_JOB_EXIT_SIGNAL, sig);
	}
	/* GPUs held if it started (AllocTRES), else those requested */
	{
		int ra = MG_PARSE_MISSING, rq = MG_PARSE_MISSING;
		int64_t ga = 0, gq = 0;

		if (p->where[C_ALLOCTRES] >= 0) {
			v = p->f[p->where[C_ALLOCTRES]];
			if ((ra = mg_slurmfmt_gpus(v.p, v.n, &ga)) == MG_PARSE_BAD)
				return bad(p, line, "AllocTRES", v);
		}
		if (p->where[C_REQTRES] >= 0) {
			v = p->f[p->where[C_REQTRES]];
			if ((rq = mg_slurmfmt_gpus(v.p, v.n, &gq)) == MG_PARSE_BAD)
				return bad(p, line, "ReqTRES", v);
		}
		if (ra == 0)
			mg_job_set_i64(job, MG_JOB_NGPUS, ga);
		else if (rq == 0)
			mg_job_set_i64(job, MG_JOB_NGPUS, gq);
	}
	return p->s->job(p->s->ctx, job, line);
}

/*
 * A delimited row.  sacct does not escape the delimiter, so a row with k
 * extra fields is read as a JobName that held k delimiters; without a
 * JobName column such a row is bad.
 */
/* a field that may be a time as sacct prints it (or none) */
static int
timeish(struct slice v)
{
	return v.n == 0 || (v.p[0] >= '0' && v.p[0] <= '9') ||
	    (v.n == 7 && memcmp(v.p, "Unknown", 7) == 0) ||
	    (v.n == 4 && memcmp(v.p, "None", 4) == 0);
}

/* a time span, an exit code ("0:15") or a limit as sacct prints them */
static int
spanish(struct slice v)
{
	size_t i;

	if (v.n == 0 || (v.p[0] >= 'A' && v.p[0] <= 'Z'))
		return 1;	/* UNLIMITED, Partition_Limit, ... */
	for (i = 0; i < v.n; i++)
		if ((v.p[i] < '0' || v.p[i] > '9') && v.p[i] != ':' &&
		    v.p[i] != '-' && v.p[i] != '.')
			return 0;
	return 1;
}

static int
digits(struct slice v)
{
	size_t i;

	for (i = 0; i < v.n; i++)
		if (v.p[i] < '0' || v.p[i] > '9')
			return 0;
	return 1;
}

/* whether the typed columns of p->f look like what sacct prints in them:
 * a repair that shifts the wrong fields puts names where numbers go */
static int
plausible(const struct parser *p)
{
	static const enum col num[] = { C_NNODES, C_NCPUS, C_UID,
	    C_PRIORITY, C_TIMELIMITRAW };
	static const enum col tim[] = { C_SUBMIT, C_ELIGIBLE, C_START,
	    C_END };
	static const enum col span[] = { C_TIMELIMIT, C_ELAPSED, C_EXITCODE };
	int64_t a, b, c;
	size_t i;
	int st;

	if (mg_slurmfmt_jobid(p->f[p->where[C_JOBID]].p,
	    p->f[p->where[C_JOBID]].n, &a, &b, &c, &st) != 0)
		return 0;
	if (p->where[C_JOBIDRAW] >= 0 && mg_slurmfmt_jobid(
	    p->f[p->where[C_JOBIDRAW]].p, p->f[p->where[C_JOBIDRAW]].n, &a,
	    &b, &c, &st) != 0)
		return 0;
	for (i = 0; i < sizeof(span) / sizeof(span[0]); i++)
		if (p->where[span[i]] >= 0 && !spanish(p->f[p->where[span[i]]]))
			return 0;
	for (i = 0; i < sizeof(num) / sizeof(num[0]); i++)
		if (p->where[num[i]] >= 0 && !digits(p->f[p->where[num[i]]]))
			return 0;
	for (i = 0; i < sizeof(tim) / sizeof(tim[0]); i++)
		if (p->where[tim[i]] >= 0 && !timeish(p->f[p->where[tim[i]]]))
			return 0;
	if (p->where[C_STATE] >= 0 && (p->f[p->where[C_STATE]].n == 0 ||
	    p->f[p->where[C_STATE]].p[0] < 'A' ||
	    p->f[p->where[C_STATE]].p[0] > 'Z'))
		return 0;
	return 1;
}

/* p->f from the row's fields p->raw with e[t] extra fields joined into
 * free-text column p->text[t] */
static void
widen(struct parser *p, const size_t *e)
{
	size_t i, k = 0, t = 0;

	for (i = 0; i < p->ncols; i++) {
		p->f[i] = p->raw[k];
		if (t < p->ntext && p->text[t] == i) {
			if (e[t] > 0)
				p->f[i].n = (size_t)(p->raw[k + e[t]].p +
				    p->raw[k + e[t]].n - p->raw[k].p);
			k += e[t++];
		}
		k++;
	}
}

/*
 * A delimited row with extra fields: the delimiter was inside free text.
 * Of the ways to share the extra fields among the free-text columns, the
 * first (in order, the earlier columns taking more) whose typed columns
 * look right; if none does, the first column takes them all and the row
 * is checked as usual.  Says which columns were widened in p->msg.  The
 * ways grow as C(extra + columns - 1, columns - 1): a hostile header of
 * many free-text columns and a row of many delimiters would take hours,
 * so at most MAX_WAYS are tried (a real row has a few).
 */
#define MAX_WAYS 4096

static void
repair(struct parser *p, size_t extra)
{
	size_t e[MAX_TEXT] = { 0 }, t, k, rest, ways = 0;
	int w, found = 0;

	memcpy(p->raw, p->f, (p->ncols + extra) * sizeof(p->raw[0]));
	/* the compositions of extra into ntext parts, in decreasing
	 * lexicographic order: (extra, 0, ..., 0) first */
	e[0] = extra;
	for (;;) {
		widen(p, e);
		if (plausible(p)) {
			found = 1;
			break;
		}
		for (t = p->ntext - 1; t-- > 0;)
			if (e[t] > 0)
				break;
		if (p->ntext < 2 || t >= p->ntext - 1 || ++ways >= MAX_WAYS)
			break;		/* every way tried, or enough */
		for (rest = 0, k = t + 1; k < p->ntext; k++) {
			rest += e[k];
			e[k] = 0;
		}
		e[t]--;
		e[t + 1] = rest + 1;
	}
	if (!found) {
		memset(e, 0, sizeof(e));
		e[0] = extra;
		widen(p, e);
	}
	w = snprintf(p->msg, sizeof(p->msg), "the delimiter inside free text; "
	    "read");
	for (t = 0; t < p->ntext && w > 0 && (size_t)w < sizeof(p->msg); t++) {
		const struct slice *v = &p->f[p->text[t]];

		if (e[t] > 0)
			w += snprintf(p->msg + w, sizeof(p->msg) - (size_t)w,
			    " column %zu as '%.*s'", p->text[t] + 1,
			    (int)(v->n > 60 ? 60 : v->n), v->p);
	}
}

static int
delim_row(struct parser *p, const char *line, size_t len, uint64_t lineno)
{
	size_t n, i;
	int rv;

	if (p->trailing && len > 0 && line[len - 1] == p->delim)
		len--;
	n = split(line, len, p->delim, p->f, MAX_COLS);
	if (n < p->ncols || n > MAX_COLS) {
		snprintf(p->msg, sizeof(p->msg), "%zu fields, the header has "
		    "%zu", n, p->ncols);
		return p->s->warn(p->s->ctx, lineno, 1, p->msg);
	}
	if (n > p->ncols) {
		if (p->ntext == 0) {
			snprintf(p->msg, sizeof(p->msg), "%zu fields, the "
			    "header has %zu", n, p->ncols);
			return p->s->warn(p->s->ctx, lineno, 1, p->msg);
		}
		repair(p, n - p->ncols);
		if ((rv = p->s->warn(p->s->ctx, lineno, 0, p->msg)) != 0)
			return rv;
	}
	for (i = 0; p->padded && i < p->ncols; i++)
		p->f[i] = trim(p->f[i].p, p->f[i].n);
	return row(p, lineno);
}

/*
 * A fixed-width row: cut at the columns of the dashes line.  In the
 * published LS6 trace the rows are tab-separated instead; a tab row with
 * extra fields is read from the left up to the column after JobName and
 * from the right for the rest, and the fields between are stray.
 */
/*
 * A row of a right-aligned squeue layout, split at blanks.  The last
 * column, the reason, may hold blanks inside its parentheses
 * ("(ReqNodeNotAvail, Reserved for maintenance)"); a job name may hold
 * them anywhere: surplus words are the name's, so that a name with a
 * blank is read, not shifted into the next columns.
 */
static int
words_row(struct parser *p, const char *line, size_t len, uint64_t lineno)
{
	struct slice t = trim(line, len), w[MAX_COLS];
	const char *q = t.p, *end = t.p + t.n, *last = end;
	size_t nw = 0, i, k, extra, nm;

	if (p->ncols < 2)
		return row(p, lineno);
	/* the last column: from its "(" if it ends with ")", else a word */
	if (t.n > 0 && end[-1] == ')') {
		for (last = end - 1; last > t.p; last--)
			if (*last == '(' && (last[-1] == ' ' || last[-1] == '\t'))
				break;
	} else
		for (last = end; last > t.p && last[-1] != ' ' &&
		    last[-1] != '\t'; last--)
			;
	while (q < last && nw < MAX_COLS) {
		while (q < last && (*q == ' ' || *q == '\t'))
			q++;
		if (q == last)
			break;
		w[nw].p = q;
		while (q < last && *q != ' ' && *q != '\t')
			q++;
		w[nw].n = (size_t)(q - w[nw].p);
		nw++;
	}
	nm = p->where[C_JOBNAME] >= 0 ? (size_t)p->where[C_JOBNAME] :
	    SIZE_MAX;
	extra = nw > p->ncols - 1 && nm < p->ncols - 1 ? nw - (p->ncols - 1) :
	    0;
	for (i = k = 0; i + 1 < p->ncols; i++) {
		if (k >= nw) {
			p->f[i].p = last;
			p->f[i].n = 0;
			continue;
		}
		p->f[i] = w[k];
		if (i == nm && extra > 0) {
			p->f[i].n = (size_t)(w[k + extra].p + w[k + extra].n -
			    w[k].p);
			k += extra;
		}
		k++;
	}
	p->f[p->ncols - 1] = trim(last, (size_t)(end - last));
	if (k < nw) {
		/* more words and no name to give them to: as before, the
		 * last column takes the rest */
		p->f[p->ncols - 1] = trim(w[k].p, (size_t)(end - w[k].p));
	}
	return row(p, lineno);
}

/* the columns without which a job record is not a job's */
static int
needed(enum col c)
{
	return c == C_JOBID || c == C_SUBMIT || c == C_START || c == C_END ||
	    c == C_TIMELIMIT || c == C_TIMELIMITRAW || c == C_NNODES ||
	    c == C_STATE;
}

static int
fixed_row(struct parser *p, const char *line, size_t len, uint64_t lineno)
{
	size_t i, n, k, left;
	int rv;

	if (p->tabs_ok && memchr(line, '\t', len) != NULL) {
		n = split(line, len, '\t', p->f, MAX_COLS);
		if (n < p->ncols || n > MAX_COLS) {
			snprintf(p->msg, sizeof(p->msg), "%zu tab-separated "
			    "fields, the header has %zu", n, p->ncols);
			return p->s->warn(p->s->ctx, lineno, 1, p->msg);
		}
		for (i = 0; i < n; i++)
			p->f[i] = trim(p->f[i].p, p->f[i].n);
		if (n > p->ncols) {
			k = n - p->ncols;
			left = p->where[C_JOBNAME] >= 0 ?
			    (size_t)p->where[C_JOBNAME] + 2 : 1;
			if (left > p->ncols)
				left = p->ncols;
			snprintf(p->msg, sizeof(p->msg), "%zu fields, the "
			    "header has %zu: stray '%.*s' after column %zu "
			    "ignored", n, p->ncols,
			    (int)(p->f[left + k - 1].p + p->f[left + k - 1].n -
			    p->f[left].p), p->f[left].p, left);
			for (i = left; i < p->ncols; i++)
				p->f[i] = p->f[i + k];
			if ((rv = p->s->warn(p->s->ctx, lineno, 0, p->msg)))
				return rv;
		}
		return row(p, lineno);
	}
	if (p->words)
		return words_row(p, line, len, lineno);
	/* a row that stops before a column a job needs was cut short (a
	 * pager, a truncated copy): its fields are unknown, not empty; a
	 * row stripped of trailing blanks loses only empty columns */
	for (i = 0; i < p->ncols; i++)
		if (p->start[i] >= len && needed(p->cols[i])) {
			snprintf(p->msg, sizeof(p->msg), "row cut short: it "
			    "ends at byte %zu, before column %s (byte %zu)",
			    len, col_names[p->cols[i]], p->start[i] + 1);
			return p->s->warn(p->s->ctx, lineno, 1, p->msg);
		}
	for (i = 0; i < p->ncols; i++) {
		size_t a = p->start[i], b = p->end[i];

		if (i + 1 == p->ncols)
			b = len;	/* the last column may overflow */
		if (a > len)
			a = len;
		if (b > len)
			b = len;
		p->f[i] = trim(line + a, b - a);
	}
	return row(p, lineno);
}

static int
fixed_header(struct parser *p, const char *hdr, size_t hlen,
    const char *dash, size_t dlen)
{
	struct slice names[MAX_COLS];
	size_t i = 0, n = 0;

	while (i < dlen) {
		while (i < dlen && dash[i] == ' ')
			i++;
		if (i == dlen)
			break;
		if (n == MAX_COLS)
			return mg_diag_set(p->d, MG_EFORMAT, "too many "
			    "columns");
		p->start[n] = i;
		while (i < dlen && dash[i] == '-')
			i++;
		p->end[n] = i;
		n++;
	}
	for (i = 0; i < n; i++) {
		size_t a = p->start[i] < hlen ? p->start[i] : hlen;
		size_t b = p->end[i] < hlen ? p->end[i] : hlen;

		names[i] = trim(hdr + a, b - a);
	}
	return set_columns(p, names, n);
}

/*
 * squeue's fixed-width layouts have no dashes line: the header's names
 * give the columns.  Right-aligned layouts (the default and -l, whose
 * header starts with blanks) print no empty values but let long ones
 * push the rest of the line right: their rows are split at blanks, the
 * last column (the reason, which may hold blanks) taking the rest.
 * Left-aligned ones (-O) may have empty values: a column starts where
 * its name starts.  The last column runs to the end of the line.
 */
static int
squeue_header(struct parser *p, const char *hdr, size_t hlen)
{
	struct slice names[MAX_COLS];
	size_t a[MAX_COLS], b[MAX_COLS];
	size_t i = 0, n = 0, k;
	int right = hlen > 0 && hdr[0] == ' ';

	while (i < hlen) {
		while (i < hlen && (hdr[i] == ' ' || hdr[i] == '\t'))
			i++;
		if (i == hlen)
			break;
		if (n == MAX_COLS)
			return mg_diag_set(p->d, MG_EFORMAT, "too many "
			    "columns");
		a[n] = i;
		while (i < hlen && hdr[i] != ' ' && hdr[i] != '\t')
			i++;
		b[n] = i;
		names[n].p = hdr + a[n];
		names[n].n = b[n] - a[n];
		n++;
	}
	p->words = right;
	for (k = 0; k < n; k++) {
		p->start[k] = a[k];
		p->end[k] = k + 1 < n ? a[k + 1] : hlen;
	}
	return set_columns(p, names, n);
}

/* an squeue header: its first name is JOBID, in capitals */
static int
squeue_like(const char *hdr, size_t hlen, char delim)
{
	struct slice t = trim(hdr, hlen);
	size_t n = 0;

	while (n < t.n && t.p[n] != ' ' && t.p[n] != '\t' && t.p[n] != delim)
		n++;
	return n == 5 && memcmp(t.p, "JOBID", 5) == 0;
}

static int
names_from_list(struct parser *p, const char *list, char delim)
{
	struct slice names[MAX_COLS];
	size_t n = split(list, strlen(list), delim, names, MAX_COLS);

	if (n > MAX_COLS)
		return mg_diag_set(p->d, MG_EFORMAT, "too many columns");
	return set_columns(p, names, n);
}

/* ---- the entry ------------------------------------------------------- */

static int
copy_line(char **buf, size_t *cap, const char *line, size_t len)
{
	if (len + 1 > *cap) {
		char *b = realloc(*buf, len + 1);

		if (b == NULL)
			return MG_ENOMEM;
		*buf = b;
		*cap = len + 1;
	}
	memcpy(*buf, line, len);
	(*buf)[len] = '\0';
	return 0;
}

static int
swf_entry(struct parser *p, struct mg_input *in, const char *line,
    size_t len)
{
	struct mg_value job[MG_JOB_NFIELDS];
	struct mg_swf swf;
	char err[200];
	int r, rv;

	p->s->layout = "SWF";
	mg_swf_init(&swf, p->o->swf_cpus_per_node);
	do {
		r = mg_swf_line(&swf, line, len, job, err, sizeof(err));
		if (r < 0)
			rv = p->s->warn(p->s->ctx, mg_input_lineno(in), 1, err);
		else if (r > 0)
			rv = p->s->job(p->s->ctx, job, mg_input_lineno(in));
		else
			rv = 0;
		if (rv != 0)
			return rv;
	} while ((rv = mg_input_getline(in, &line, &len, p->d)) == 1);
	return rv;
}

static int
json_entry(struct parser *p, struct mg_input *in, const char *line,
    size_t len, int yaml)
{
	p->s->layout = yaml ? "sacct --yaml" : "sacct --json";
	return mg_sacctjson_read(in, line, len, yaml, p->o->tz, p->s, p->d);
}

static int
is_swf_data(const char *line, size_t len)
{
	size_t i = 0, k = 0;

	while (i < len) {
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			break;
		if (!((line[i] >= '0' && line[i] <= '9') || line[i] == '-'))
			return 0;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		k++;
	}
	return k == 18;
}

/* the entry's remaining lines, each through fn(); blank lines (empty,
 * or for fixed width all white) are skipped */
static int
rows(struct parser *p, struct mg_input *in, int fixed,
    int (*fn)(struct parser *, const char *, size_t, uint64_t))
{
	const char *line;
	size_t len;
	int rv;

	while ((rv = mg_input_getline(in, &line, &len, p->d)) == 1)
		if ((fixed ? trim(line, len).n : len) > 0 &&
		    (rv = fn(p, line, len, mg_input_lineno(in))) != 0)
			break;
	return rv;
}

/* sacct -n: no header, the caller names the columns; line is the first */
static int
listed_entry(struct parser *p, struct mg_input *in, const char *line,
    size_t len)
{
	int rv;

	p->s->layout = "sacct -n (field list given)";
	if ((rv = names_from_list(p, p->o->fields, ',')) != 0)
		return rv;
	if (p->o->format == MG_FMT_FIXED)
		return mg_diag_set(p->d, MG_EINVAL, "--fields needs a "
		    "delimited layout");
	if ((rv = delim_row(p, line, len, mg_input_lineno(in))) != 0)
		return rv;
	return rows(p, in, 0, delim_row);
}

/*
 * A sacct dump is the history mirage learns from: without Submit it has
 * no waits, and every job would be dropped later, quietly.  (squeue's
 * default layouts show no submission time; mirage-advise says so.)
 */
static int
need_submit(struct parser *p)
{
	if (p->where[C_SUBMIT] >= 0)
		return 0;
	return mg_diag_set(p->d, MG_EFORMAT, "line 1: no Submit column: "
	    "give sacct the fields mirage reads, e.g. sacct -a -X -P -o "
	    "JobID,JobIDRaw,Partition,State,Submit,Start,End,Timelimit,"
	    "NNodes,User (mirage-parse(1))");
}

/*
 * A layout with a header hdr[0..hlen) (in p's own copy, which it may
 * change); the next line, line[0..len), if have is 1.  Fixed width with
 * dashes under the header (sacct's default, the LS6 trace), squeue's
 * fixed width, or delimited.
 */
static int
headed_entry(struct parser *p, struct mg_input *in, char *hdr, size_t hlen,
    int have, const char *line, size_t len)
{
	const struct mg_sacct_opts *o = p->o;
	int rv;

	if (have == 1 && o->format != MG_FMT_DELIM && dashes_line(line, len)) {
		p->fmt = MG_FMT_FIXED;
		p->s->layout = p->tabs_ok ? "LS6 trace (count, header, "
		    "dashes, tab-separated rows)" : "sacct fixed width";
		p->tabs_ok = 1;
		if ((rv = fixed_header(p, hdr, hlen, line, len)) != 0 ||
		    (rv = need_submit(p)) != 0)
			return rv;
		return rows(p, in, 1, fixed_row);
	}
	if (o->format == MG_FMT_FIXED)
		return mg_diag_set(p->d, MG_EFORMAT, "line 2: no dashes line "
		    "under the fixed-width header");
	if (memchr(hdr, p->delim, hlen) == NULL &&
	    o->format != MG_FMT_DELIM && squeue_like(hdr, hlen, p->delim)) {
		p->fmt = MG_FMT_FIXED;
		p->s->layout = "squeue fixed width";
		if ((rv = squeue_header(p, hdr, hlen)) != 0) {
			mg_diag_prefix(p->d, "header");
			return rv;
		}
		if (have != 1)
			return 0;
		if (trim(line, len).n > 0 && (rv = fixed_row(p, line, len,
		    mg_input_lineno(in))) != 0)
			return rv;
		return rows(p, in, 1, fixed_row);
	}
	if (memchr(hdr, p->delim, hlen) == NULL)
		return mg_diag_set(p->d, MG_EFORMAT, "line 1: layout not "
		    "recognised (not sacct -P, --parsable, --delimiter, fixed "
		    "width, --json, --yaml, squeue, SWF or the LS6 trace): '%.60s'",
		    hdr);
	p->fmt = MG_FMT_DELIM;
	if (hlen > 0 && hdr[hlen - 1] == p->delim) {
		p->trailing = 1;
		hdr[--hlen] = '\0';
	}
	p->s->layout = p->trailing ? "sacct --parsable" : p->delim == '|' ?
	    "sacct -P" : "sacct --delimiter";
	if (squeue_like(hdr, hlen, p->delim)) {
		p->s->layout = "squeue -o (delimited)";
		p->padded = 1;
	}
	if ((rv = names_from_list(p, hdr, p->delim)) != 0) {
		mg_diag_prefix(p->d, "line 1");
		return rv;
	}
	if (!p->padded && (rv = need_submit(p)) != 0)
		return rv;
	if (have != 1)
		return 0;
	if (len > 0 && (rv = delim_row(p, line, len, mg_input_lineno(in))) != 0)
		return rv;
	return rows(p, in, 0, delim_row);
}

int
mg_sacct_parse(struct mg_input *in, const struct mg_sacct_opts *o,
    struct mg_slurmfmt_sink *s, struct mg_diag *d)
{
	struct parser *p;
	const char *line;
	char *hdr = NULL;
	size_t len, hlen, hcap = 0;
	struct slice t;
	int rv, have;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	p->o = o;
	p->s = s;
	p->d = d;
	p->delim = o->delim ? o->delim : '|';
	s->layout = "none";

	/* the first non-blank line decides; a UTF-8 byte order mark (a
	 * dump saved by an editor) is not part of it */
	do {
		if ((rv = mg_input_getline(in, &line, &len, d)) != 1)
			goto first_missing;
		if (mg_input_lineno(in) == 1 && len >= 3 &&
		    memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
			line += 3;
			len -= 3;
		}
		t = trim(line, len);
	} while (t.n == 0);

	if (o->format == MG_FMT_JSON || (o->format == MG_FMT_AUTO &&
	    (t.p[0] == '{' || t.p[0] == '['))) {
		rv = json_entry(p, in, line, len, 0);
		goto out;
	}
	if (o->format == MG_FMT_YAML || (o->format == MG_FMT_AUTO &&
	    ((t.n >= 5 && memcmp(t.p, "%YAML", 5) == 0) || (t.n >= 3 &&
	    memcmp(t.p, "---", 3) == 0 && (t.n == 3 || t.p[3] == ' '))))) {
		rv = json_entry(p, in, line, len, 1);
		goto out;
	}
	if (o->format == MG_FMT_SWF || (o->format == MG_FMT_AUTO &&
	    (t.p[0] == ';' || is_swf_data(line, len)))) {
		rv = swf_entry(p, in, line, len);
		goto out;
	}
	if (o->fields != NULL) {
		rv = listed_entry(p, in, line, len);
		goto out;
	}
	if (all_digits(t.p, t.n)) {
		/* the LS6 trace's count line; the header follows */
		if ((rv = mg_input_getline(in, &line, &len, d)) != 1)
			goto first_missing;
		p->tabs_ok = 1;
	}
	if ((rv = copy_line(&hdr, &hcap, line, len)) != 0) {
		rv = mg_diag_set(d, rv, "out of memory");
		goto out;
	}
	hlen = len;
	if ((rv = have = mg_input_getline(in, &line, &len, d)) < 0)
		goto out;
	/* squeue -l: a line with the date, then the header */
	if (have == 1 && !squeue_like(hdr, hlen, p->delim) &&
	    memchr(hdr, p->delim, hlen) == NULL &&
	    squeue_like(line, len, p->delim)) {
		if ((rv = copy_line(&hdr, &hcap, line, len)) != 0) {
			rv = mg_diag_set(d, rv, "out of memory");
			goto out;
		}
		hlen = len;
		if ((rv = have = mg_input_getline(in, &line, &len, d)) < 0)
			goto out;
	}
	rv = headed_entry(p, in, hdr, hlen, have, line, len);
	goto out;
first_missing:
	if (rv == 0)
		rv = o->fields ? 0 : mg_diag_set(d, MG_EFORMAT, "empty input "
		    "(no header, no jobs)");
out:
	free(hdr);
	free(p);
	return rv;
}
