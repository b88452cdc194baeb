/*
 * mirage-advise: for a running chain, decide now whether to submit the
 * successor or wait, from the live queue (squeue), the recent history
 * (sacct) and a model; optionally submit it with sbatch, exactly once,
 * and move the chain on.  See mirage-advise(1) and mirage-chain(5).
 */
#include <err.h>
#include <pwd.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "live/chain.h"
#include "episode/episode.h"
#include "episode/feature.h"
#include "live/event.h"
#include "live/hcache.h"
#include "live/takeover.h"
#include "live/live.h"
#include "mirage.h"
#include "learn/model.h"
#include "base/proc.h"
#include "plan/plan.h"
#include "cluster/simconf.h"

/* decisions, apart from the errors of mirage(7) */
#define EXIT_SUBMIT	0
#define EXIT_WAIT	10
#define EXIT_DONE	11
#define EXIT_DEPEND	12	/* submit only with afterany on P */
#define EXIT_UNKNOWN	13	/* P is in no dump: mistyped, or too old */
#define EXIT_STOPPED	14	/* successors keep failing: stopped */

#define DAY		86400
#define PLAN_HISTORY	(29 * DAY)	/* sacct for the planner: 4 weeks + */
#define PLAN_MIN_JOBS	100	/* ended jobs it needs to learn from */
#define PERIOD		600	/* decisions and snapshots: 10 minutes */
#define TIMEOUT		60	/* seconds allowed to squeue, sacct, sbatch */
#define JOBID_MAX	32	/* a job id's bytes, its NUL included */
#define MAX_FAILURES	3	/* failed successors in a row, then stop */

/* tries of a command that reads (squeue, sacct, sinfo, sacctmgr) that
 * fails: 1 s, 2 s, 4 s ... between them (--retries) */
static int retries = 3;

/* what squeue must show: mirage-parse(1) reads its header */
static const char squeue_fmt[] = "%i|%P|%t|%V|%S|%e|%l|%D|%Q|%u";
static const char sacct_fields[] =
    "JobID,JobIDRaw,Partition,State,Submit,Start,End,Timelimit,NNodes,User";

struct opts {
	const char *job, *model, *partition, *state, *script;
	const char *config;
	const char *queue, *hist[8];
	int nhist;
	const char *prog_squeue, *prog_sacct, *prog_sbatch, *prog_sinfo;
	const char *prog_sacctmgr, *prog_scancel;
	int take_over;		/* --take-over: S's first step */
	int handover;		/* --handover: the cron run's fallback */
	const char *sig;	/* --signal */
	int full;		/* --full */
	int64_t grace;		/* --grace, seconds */
	const char *events;	/* --events: a dump of sacctmgr show event */
	char part_hosts[256];	/* -c's hostlist of -p's nodes, or "" */
	char **script_args;
	int nscript_args;
	int32_t nodes, s_nodes;
	int64_t s_limit, now;
	enum mg_tz tz;		/* how squeue and sacct print times */
	int now_given;
	double threshold, prio;
	int dry_run, quiet, json;
	int plan;		/* --plan: decide with the planner */
	struct mg_planconf pc;
	double lambda;
	int lambda_given;
};

/*
 * Handing over, the planner prices an hour of P's limit given up beyond
 * HANDOVER_TIME of both jobs holding their nodes, at HANDOVER_LAMBDA
 * unless --lambda says (plan-folds.sh -T 0.99 --handover 10m on the
 * training period; mirage-advise(1))
 */
#define HANDOVER_TIME	600
#define HANDOVER_LAMBDA	0.001

/* the decision and what it rests on */
struct advice {
	int submit;		/* 1 submit now, 0 wait */
	const char *rule;	/* model, reactive, dependency, pending */
	char why[512];
	char note[MG_DIAG_MAX + 256];	/* a fallback's reason, or "" */
	double score;		/* the model's output, NAN without one */
	double p10, p90;	/* a regressor's residual spread, or NAN */
	double risk;		/* the planner's chance of an interruption
				 * if it waits, or NAN */
	int classifier;
	int64_t next;		/* the next useful check */
	int64_t p_start, p_limit, p_end;	/* -1 if unknown */
	int32_t p_nodes;
	int p_state;		/* 0 in no dump, 1 pending, 2 running,
				 * 3 ended, 4 unknown (no queue) */
	char submitted[32];	/* a job submitted by this run */
	int dependency;		/* submitted with afterany on P */
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-advise [-q] [-j jobid] [-m model] [-n nodes | -c config] "
	    "[-p partition]\n"
	    "           [-Q squeue-dump] [-H sacct-dump]... [-N nodes] "
	    "[-L limit] [-T threshold]\n"
	    "           [-F text|json] [--priority p] [--now time] [-z zone]\n"
	    "           [--retries n] [--handover [--signal sig] [--grace span]]\n"
	    "       mirage-advise --take-over [-j jobid] [-s state] [--signal sig] [--full]\n"
	    "           [--grace span]\n"
	    "           [--plan futures [--lambda l] [--plan-seed n]]\n"
	    "           [--submit script [-s state] [--dry-run] "
	    "[-- script-args...]]\n"
	    "exit: 0 submit now (or submitted), 10 wait, 11 successor "
	    "already submitted,\n"
	    "      12 submit only with --dependency=afterany (no queue), "
	    "13 unknown job,\n"
	    "      1-6 errors as in mirage(7); see mirage-advise(1)\n");
	if (status == 0)
		fputs("options:\n"
		    "  -j jobid          the chain's current job (the first time)\n"
		    "  -m model          a model file (mirage-model(5))\n"
		    "  -n nodes | -c config  the cluster's nodes, or its config file\n"
		    "  -p partition      only this partition's jobs\n"
		    "  -Q squeue-dump    read the queue from a dump ('-': stdin), not squeue\n"
		    "  -H sacct-dump     add a sacct dump or jobs stream (up to 8)\n"
		    "  -N nodes, -L limit  S's nodes and time limit (P's by default)\n"
		    "  -T threshold      hours of overlap accepted, or the score to reach\n"
		    "  -F text|json      the report's form (text)\n"
		    "  --priority p      the priority S would get (the recent median)\n"
		    "  --now time        decide as of time (with -Q)\n"
		    "  -z zone           the zone squeue and sacct print in (local)\n"
		    "  --plan futures, --lambda l, --plan-seed n  decide with the planner\n"
		    "  --events dump     the nodes' events, not sacctmgr show event\n"
		    "  --submit script   submit S with sbatch when the answer is yes\n"
		    "  -s state          the chain's state file (with --submit)\n"
		    "  --dry-run         say what would be submitted, change nothing\n"
		    "  --retries n       tries of a failing squeue or sacct (3)\n"
		    "  --take-over       S's first step: stop P (MIRAGE_PREDECESSOR)\n"
		    "  --handover        the chain hands over: a started S stops P\n"
		    "  --signal sig, --full, --grace span  how P is asked to stop\n"
		    "  --squeue, --sacct, --sbatch, --sinfo, --sacctmgr program\n"
		    "                    run these instead\n"
		    "  -q                no warnings\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-advise(1).\n", stdout);
	exit(status);
}

/* t as sacct -S reads it: wall-clock time in the zone of the dumps */
static void
format_tz(int64_t t, enum mg_tz tz, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (tz == MG_TZ_UTC || localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		mg_format_time(t, buf, cap);
}

static int64_t
span_arg(const char *what, const char *s)
{
	int64_t v;

	if (mg_parse_span(s, &v) != 0 || v <= 0)
		errx(MG_EXIT_USAGE, "invalid %s '%s' (want e.g. 90s, 10m, "
		    "48h, 2d or D-HH:MM:SS)", what, s);
	return v;
}

static int32_t
count_arg(const char *what, const char *s)
{
	int64_t v;

	if (mg_parse_i64(s, strlen(s), 1, 1000000, &v) != 0)
		errx(MG_EXIT_USAGE, "invalid %s '%s'", what, s);
	return (int32_t)v;
}

/* #SBATCH -N/--nodes and -t/--time of a batch script, if it says */
static void
script_request(const char *path, int32_t *nodes, int64_t *limit)
{
	FILE *fp = fopen(path, "r");
	char line[1024];
	int first = 1;

	if (fp == NULL)
		err(MG_EXIT_FAIL, "'%s'", path);
	while (fgets(line, sizeof(line), fp)) {
		char *p = line, *v = NULL, *e;
		int isn = 0, ist = 0;

		if (first && strncmp(line, "#!", 2) == 0) {
			first = 0;
			continue;
		}
		first = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' || *p == '\0')
			continue;
		if (*p != '#')
			break;		/* sbatch stops at the first command */
		if (strncmp(p, "#SBATCH", 7) != 0)
			continue;
		p += 7;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "--nodes", 7) == 0 && (p[7] == '=' ||
		    p[7] == ' '))
			isn = 1, v = p + 8;
		else if (strncmp(p, "-N", 2) == 0)
			isn = 1, v = p + 2;
		else if (strncmp(p, "--time", 6) == 0 && (p[6] == '=' ||
		    p[6] == ' '))
			ist = 1, v = p + 7;
		else if (strncmp(p, "-t", 2) == 0)
			ist = 1, v = p + 2;
		if (v == NULL)
			continue;
		while (*v == ' ' || *v == '\t' || *v == '=')
			v++;
		for (e = v; *e && *e != ' ' && *e != '\t' && *e != '\n' &&
		    *e != '#'; e++)
			;
		if (isn && *nodes == 0) {
			int64_t n;
			const char *dash = memchr(v, '-', (size_t)(e - v));

			if (mg_parse_i64(v, (size_t)((dash ? dash : e) - v), 1,
			    1000000, &n) == 0)
				*nodes = (int32_t)n;
		}
		if (ist && *limit == 0) {
			int64_t t;

			if (mg_parse_duration(v, (size_t)(e - v), &t) == 0 &&
			    t > 0)
				*limit = t;
		}
	}
	fclose(fp);
}

/* run a Slurm command; its output or NULL with the reason in note */
static char *
slurm(const char *const argv[], size_t *len, char *note, size_t cap)
{
	struct mg_diag d = { "" };
	struct mg_proc p;
	char *out;
	int k;

	/*
	 * A failure with an exit status (a controller that did not answer
	 * in time, "Socket timed out") is often transient: tried again,
	 * after 1 s, 2 s, ...  A program that cannot run, or that ran out
	 * of its time, is not.
	 */
	if (mg_proc_run_tries(argv, TIMEOUT, retries, NULL, &p, &k, &d) != 0) {
		snprintf(note, cap, "%s", d.msg);
		return NULL;
	}
	if (p.status != 0) {
		if (p.timedout)
			snprintf(note, cap, "%s timed out (killed after %d s): "
			    "%.200s", argv[0], TIMEOUT, *p.err ? p.err :
			    "no message");
		else
			snprintf(note, cap, "%s failed (exit %d, %d %s): "
			    "%.200s", argv[0], p.status, k, k > 1 ? "tries" :
			    "try", *p.err ? p.err : "no message");
		mg_proc_release(&p);
		return NULL;
	}
	out = p.out;
	*len = p.outlen;
	p.out = NULL;
	mg_proc_release(&p);
	return out;
}

/* the jobs of a Slurm command's output; 0, or -1 with note set */
static int
read_slurm(struct mg_live *l, const char *const argv[], const char *what,
    char *note, size_t cap)
{
	struct mg_diag d = { "" };
	size_t len = 0;
	char *out = slurm(argv, &len, note, cap);
	int rv;

	if (out == NULL)
		return -1;
	rv = mg_live_read_mem(l, out, len, what, NULL, &d);
	free(out);
	if (rv != 0) {
		snprintf(note, cap, "%s", d.msg);
		return -1;
	}
	return 0;
}

/*
 * The planner's four weeks of history, live.  With a state file, a cache
 * beside it (state.history, live/hcache.h) holds the last run's: sacct
 * is asked only for what changed since (from the cache's end, less ten
 * minutes), and a cache that is damaged, or does not cover the window, is
 * rebuilt from the whole window.  sa's -S argument is since.  0, or -1
 * with note set (no history at all).
 */
static int
plan_history(const struct opts *o, struct mg_live *l, const char *const sa[],
    char *since, size_t scap, char *note, size_t ncap)
{
	struct mg_diag d = { "" };
	struct mg_hcache old, c;
	char path[4096], at[32];
	int64_t win = o->now - PLAN_HISTORY, from;
	size_t len = 0;
	char *out;
	int have = 0, rv;

	memset(&old, 0, sizeof(old));
	memset(&c, 0, sizeof(c));
	snprintf(path, sizeof(path), "%s.history", o->state);
	if ((have = mg_hcache_read(path, &old, &d)) < 0) {
		if (!o->quiet)
			warnx("%s: the history cache is rebuilt", d.msg);
		have = 0;
	}
	if (have && (old.from > win + PERIOD || old.to < win ||
	    old.to > o->now)) {
		mg_hcache_release(&old);
		have = 0;
	}
	from = have ? old.to - PERIOD : win;
	format_tz(from, o->tz, since, scap);
	if ((out = slurm(sa, &len, note, ncap)) == NULL) {
		if (!have)
			return -1;
		/* sacct down: what the cache holds is still four weeks */
		format_tz(old.to, o->tz, at, sizeof(at));
		warnx("no new history (%s): the history cached up to %s is "
		    "used", note, at);
		rv = mg_live_read_mem(l, old.text, old.len, path, NULL, &d);
		mg_hcache_release(&old);
		if (rv != 0)
			snprintf(note, ncap, "%s", d.msg);
		return rv != 0 ? -1 : 0;
	}
	if ((rv = mg_hcache_merge(have ? &old : NULL, out, len, win, o->tz,
	    &c, &d)) != 0) {
		/* sacct's own answer, without the cache */
		rv = mg_live_read_mem(l, out, len, "sacct", NULL, &d);
	} else {
		c.from = have && old.from > win ? old.from : win;
		c.to = o->now;
		rv = mg_live_read_mem(l, c.text, c.len, "sacct", NULL, &d);
		if (rv == 0 && !o->dry_run && mg_hcache_write(path, &c,
		    &d) != 0 && !o->quiet)
			warnx("%s: the history is not cached", d.msg);
	}
	free(out);
	mg_hcache_release(&old);
	mg_hcache_release(&c);
	if (rv != 0) {
		snprintf(note, ncap, "%s", d.msg);
		return -1;
	}
	return 0;
}

/* the nodes sinfo counts (in the partition); 0 with note set if none */
static int32_t
sinfo_nodes(const struct opts *o, char *note, size_t cap)
{
	const char *si[] = { o->prog_sinfo, "-h", "-o", "%D", NULL, NULL };
	char part[256], *out, *q;
	size_t len = 0;
	int32_t nodes = 0;

	if (o->partition) {
		snprintf(part, sizeof(part), "-p%s", o->partition);
		si[4] = part;
	}
	if ((out = slurm(si, &len, note, cap)) == NULL)
		return 0;
	/* one count a line (a line a node state) */
	for (q = out; *q >= '0' && *q <= '9'; ) {
		nodes += (int32_t)strtol(q, &q, 10);
		while (*q == '\n' || *q == ' ')
			q++;
	}
	free(out);
	return nodes;
}

/* the line of out[] that holds token (its first field in id), and
 * whether one starts with job p (the chain's current job) */
static void
scan_token(char *out, char sep, const char *token, const char *p,
    char *id, size_t cap, int *has_p, char *p_state, size_t scap)
{
	char *line, *next;
	size_t np = strlen(p);

	for (line = out; line && *line; line = next) {
		char *sp;

		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if ((sp = strchr(line, sep)) == NULL)
			continue;
		if ((size_t)(sp - line) == np && strncmp(line, p, np) == 0) {
			*has_p = 1;
			if (p_state != NULL) {
				size_t k = strcspn(sp + 1, "|");

				snprintf(p_state, scap, "%.*s", (int)k, sp + 1);
			}
		}
		if (*id == '\0' && strstr(sp + 1, token)) {
			*sp = '\0';
			snprintf(id, cap, "%s", line);
		}
	}
}

/*
 * Where did the submission with this token go?  Settled by evidence: the
 * token in squeue, else in sacct (its Comment), since the submission.
 * Returns 1 with id set if either shows it; 0 if both answered without
 * it and squeue's answer is whole (it lists the chain's job p, or sacct
 * shows p ended): the job never reached the controller; -1 with note
 * set if that cannot be told (a source down, or an empty queue that
 * does not even show p, as an overloaded controller answers).
 */
static int
settle_token(const struct opts *o, const char *token, int64_t since,
    const char *p, char *id, size_t cap, char *note, size_t ncap)
{
	char from[32], pst[32] = "";
	const char *sq[] = { o->prog_squeue, "-a", "-h", "-o", "%i %k",
	    NULL };
	/* slurmdbd records the submission line at once, the comment only
	 * when the job starts (and only with job_comment); a Slurm before
	 * 22.05 has no SubmitLine */
	const char *sa[] = { o->prog_sacct, "-a", "-X", "-n", "-P", "-S",
	    from, "-o", "JobIDRaw,State,Comment,SubmitLine", NULL };
	size_t len = 0;
	char *out;
	int q_has_p = 0, a_has_p = 0;

	*id = '\0';
	if ((out = slurm(sq, &len, note, ncap)) == NULL)
		return -1;
	scan_token(out, ' ', token, p, id, cap, &q_has_p, NULL, 0);
	free(out);
	if (*id)
		return 1;
	format_tz(since - 600, o->tz, from, sizeof(from));
	if ((out = slurm(sa, &len, note, ncap)) == NULL &&
	    strstr(note, "SubmitLine") != NULL) {
		sa[8] = "JobIDRaw,State,Comment";
		out = slurm(sa, &len, note, ncap);
	}
	if (out == NULL)
		return -1;
	scan_token(out, '|', token, p, id, cap, &a_has_p, pst, sizeof(pst));
	free(out);
	if (*id)
		return 1;
	if (!q_has_p && (!a_has_p || strcmp(pst, "RUNNING") == 0 ||
	    strcmp(pst, "PENDING") == 0 || *pst == '\0')) {
		snprintf(note, ncap, "squeue answers a queue without job %s, "
		    "which sacct does not show ended", p);
		return -1;
	}
	return 0;
}

/* the chain's P in the dumps: its state for the decision */
static void
find_p(struct mg_live *l, const char *jobid, int64_t now, struct advice *a)
{
	const struct mg_ljob *j = mg_live_find(l, jobid);

	a->p_start = a->p_limit = a->p_end = -1;
	a->p_nodes = 0;
	a->p_state = 0;
	if (j == NULL)
		return;
	a->p_limit = j->limit;
	a->p_nodes = j->nodes;
	if (j->end >= 0 && j->end <= now) {
		a->p_state = 3;
		a->p_end = j->end;
	} else if (j->start >= 0 && j->start <= now) {
		a->p_state = 2;
		a->p_start = j->start;
		if (j->limit > 0)
			a->p_end = j->start + j->limit;
	} else
		a->p_state = 1;
}

static void
fallback(struct advice *a, const char *why)
{
	if (*a->note == '\0')
		snprintf(a->note, sizeof(a->note), "%s", why);
}

/* the value of key in a "key=value ..." string, or "" */
static void
kv(const char *s, const char *key, char *out, size_t cap)
{
	size_t n = strlen(key);
	const char *p;

	*out = '\0';
	for (p = s; p && *p; p = strchr(p, ' ')) {
		while (*p == ' ')
			p++;
		if (strncmp(p, key, n) == 0 && p[n] == '=') {
			snprintf(out, cap, "%.*s", (int)strcspn(p + n + 1, " "),
			    p + n + 1);
			return;
		}
	}
}

#define MIN_SAMPLES	1000	/* fewer, and a model has seen little */
#define STALE_DAYS	90	/* a trace older than this, another time */

/*
 * Say where a model does not fit the cluster it decides for: trained
 * for another node count (by a quarter or more), partition or on a
 * trace that ended long before now, or on few samples.
 */
static void
misfit(const struct opts *o, const struct mg_model *m, int32_t nodes)
{
	char v[256], parts[256];
	int64_t t;

	if (m->cluster == NULL || *m->cluster == '\0') {
		warnx("model '%s' does not record the cluster it was trained "
		    "on: train it again to have it checked", o->model);
		return;
	}
	kv(m->cluster, "nodes", v, sizeof(v));
	if (nodes > 0 && *v && (atof(v) < 0.8 * nodes || atof(v) > 1.25 *
	    nodes))
		warnx("model '%s' was trained for %s nodes, this cluster has "
		    "%d: its features measure another queue", o->model, v,
		    (int)nodes);
	kv(m->cluster, "partitions", parts, sizeof(parts));
	if (o->partition != NULL && *parts && strcmp(parts, "-") != 0) {
		const char *p = strstr(parts, o->partition);
		size_t n = strlen(o->partition);

		if (p == NULL || (p != parts && p[-1] != ',') ||
		    (p[n] != '\0' && p[n] != ','))
			warnx("model '%s' was trained on partitions %s, not "
			    "%s", o->model, parts, o->partition);
	}
	kv(m->cluster, "trace_to", v, sizeof(v));
	if (*v && mg_parse_date(v, MG_TZ_UTC, &t) == 0 && o->now - t >
	    (int64_t)STALE_DAYS * DAY)
		warnx("model '%s' was trained on a trace that ends %s, %.0f "
		    "days before %s: retrain it on recent history "
		    "(nightly-retrain.sh)", o->model, v, (double)(o->now - t) /
		    DAY, o->now_given ? "--now" : "now");
	if (m->nsamples < MIN_SAMPLES && strcmp(m->kind, "dqn") != 0 &&
	    strcmp(m->kind, "pg") != 0)
		warnx("model '%s' was trained on %llu samples only (%d or "
		    "more are usual)", o->model, (unsigned long long)
		    m->nsamples, MIN_SAMPLES);
}

/* the model's decision for a running P; 0, or -1 with a->note set */
static int
model_decision(const struct opts *o, struct mg_model *m, struct mg_live *l,
    const char *p_id, int64_t now, int32_t nodes, struct advice *a)
{
	const struct mg_ljob *p = mg_live_find(l, p_id);
	struct mg_epconf e;
	struct mg_chainnow cn;
	struct mg_view v = { 0 };
	struct mg_diag d = { "" };
	char **names = NULL;
	size_t nn = 0, *col = NULL, i;
	double *feat = NULL, *scratch = NULL;
	float *X = NULL;
	int rv = -1;
	uint32_t k;

	if (!o->quiet)
		misfit(o, m, nodes);
	memset(&e, 0, sizeof(e));
	e.window = (int)m->window;
	e.period = PERIOD;
	memset(&cn, 0, sizeof(cn));
	cn.t = now;
	cn.p_submit = p->submit >= 0 ? p->submit : p->start;
	cn.p_start = p->start;
	cn.p_elapsed = now - p->start;
	cn.p_limit = p->limit > 0 ? p->limit : 48 * 3600;
	cn.p_nodes = p->nodes > 0 ? p->nodes : 1;
	cn.s_nodes = o->s_nodes > 0 ? o->s_nodes : cn.p_nodes;
	cn.s_limit = o->s_limit > 0 ? o->s_limit : cn.p_limit;
	if (mg_episode_feature_names(&e, &names, &nn) != 0 ||
	    (col = calloc(m->nfeat, sizeof(*col))) == NULL ||
	    (feat = calloc(nn, sizeof(*feat))) == NULL ||
	    (X = calloc(m->nfeat, sizeof(*X))) == NULL)
		err(MG_EXIT_FAIL, NULL);
	if (mg_model_bind(m, names, nn, col, &d) != 0) {
		snprintf(a->note, sizeof(a->note), "model '%s': %s", o->model,
		    d.msg);
		goto out;
	}
	if (mg_live_view(l, now, nodes, DAY, p_id, isnan(o->prio) ?
	    mg_live_fresh_prio(l) : o->prio, &v) != 0 ||
	    mg_own_features(&v, &cn, feat) != 0)
		err(MG_EXIT_FAIL, NULL);
	/* the reference window: r0 now, r1 ten minutes ago, ... */
	for (k = 0; k < m->window; k++) {
		if (mg_live_view(l, now - (int64_t)k * PERIOD, nodes, DAY,
		    p_id, 0, &v) != 0)
			err(MG_EXIT_FAIL, NULL);
		free(scratch);
		if ((scratch = malloc((v.npend + v.nrun + 1) *
		    sizeof(*scratch))) == NULL)
			err(MG_EXIT_FAIL, NULL);
		mg_ref_snapshot(&v, scratch, feat + MG_OWN +
		    (size_t)(m->window - 1 - k) * MG_REF_SNAP);
	}
	mg_ref_chain(&cn, feat + MG_OWN + (size_t)m->window * MG_REF_SNAP);
	for (i = 0; i < m->nfeat; i++)
		X[i] = (float)feat[col[i]];
	if (mg_model_predict(m, X, 1, &a->score, &d) != 0) {
		snprintf(a->note, sizeof(a->note), "model '%s': %s", o->model,
		    d.msg);
		goto out;
	}
	a->classifier = m->classifier;
	a->rule = "model";
	{
		double thr = isnan(o->threshold) ? m->threshold : o->threshold;

		if (m->classifier) {
			a->submit = a->score >= thr;
			snprintf(a->why, sizeof(a->why), "the %s model gives %.2f "
			    "for submitting now (%s the threshold %.2f)",
			    m->kind, a->score, a->submit ? "at or above" :
			    "below", thr);
		} else {
			/* a successor cannot start before now: at most the
			 * time P has left can overlap it */
			double left = (double)(p->start + cn.p_limit - now) /
			    3600;

			if (left >= 0 && a->score < -left)
				a->score = -left;
			a->submit = a->score >= -thr;
			snprintf(a->why, sizeof(a->why), "if submitted now the "
			    "successor would start %.1f h %s %s ends (the %s "
			    "model); it is submitted when that overlap is at "
			    "most %.1f h: %s", fabs(a->score), a->score >= 0 ?
			    "after" : "before", p_id, m->kind, thr,
			    a->submit ? "submit" : "wait");
		}
	}
	rv = 0;
out:
	mg_view_release(&v);
	mg_names_free(names, nn);
	free(col);
	free(feat);
	free(X);
	free(scratch);
	return rv;
}

/* a stream of the planner's draws for this chain's job */
static uint64_t
id_stream(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/*
 * The capacity over the planner's history: from --events, else live
 * from sacctmgr show event (of the partition's nodes, as sinfo lists
 * them).  A bad --events dump is an error; live trouble a warning, and
 * the capacity now holds (c->n 0).
 */
static void
capacity(const struct opts *o, int32_t nodes, struct mg_capacity *c)
{
	struct mg_diag d = { "" };
	char since[32], end[32], ss[48], es[48], part[256];
	char *buf, *nodelist = NULL, note[MG_DIAG_MAX];
	const char *ev[] = { o->prog_sacctmgr, "-n", "-P", "show", "event",
	    "Event=Node", ss, es, "format=NodeName,TimeStart,TimeEnd,State",
	    NULL, NULL };
	size_t len = 0;
	int rv;

	memset(c, 0, sizeof(*c));
	if (o->events != NULL) {
		/* the partition's nodes, if -c names them */
		const char *only = *o->part_hosts ? o->part_hosts : NULL;

		if (o->partition != NULL && only == NULL && !o->quiet)
			warnx("--events: the nodes of partition '%s' are not "
			    "known (PartitionName=%s Nodes=... in -c): the "
			    "events of every node in the dump are counted",
			    o->partition, o->partition);
		if ((rv = mg_events_read(o->events, o->tz, nodes, only,
		    o->now - PLAN_HISTORY, o->now, c, &d)) != 0)
			errx(rv == MG_EINVAL ? MG_EXIT_FAIL : mg_exit_status(rv),
			    "%s", d.msg);
		return;
	}
	if (o->queue != NULL)	/* dumps, not a live cluster */
		return;
	format_tz(o->now - PLAN_HISTORY, o->tz, since, sizeof(since));
	format_tz(o->now, o->tz, end, sizeof(end));
	snprintf(ss, sizeof(ss), "Start=%s", since);
	snprintf(es, sizeof(es), "End=%s", end);
	if (o->partition != NULL) {
		/* the partition's nodes, as hostlists */
		const char *si[] = { o->prog_sinfo, "-h", "-o", "%N", part,
		    NULL };
		char *out, *q;
		size_t n = 0;

		snprintf(part, sizeof(part), "-p%s", o->partition);
		if ((out = slurm(si, &n, note, sizeof(note))) == NULL) {
			if (!o->quiet)
				warnx("no history of the nodes: %s", note);
			return;
		}
		for (q = out; *q; q++)
			if (*q == '\n' || *q == ' ')
				*q = ',';
		while (q > out && q[-1] == ',')
			*--q = '\0';
		if (*out == '\0') {
			if (!o->quiet)
				warnx("no history of the nodes: sinfo lists no "
				    "node in partition '%s'", o->partition);
			free(out);
			return;
		}
		if ((nodelist = malloc(strlen(out) + 7)) == NULL)
			err(MG_EXIT_FAIL, NULL);
		sprintf(nodelist, "Nodes=%s", out);
		free(out);
		ev[9] = nodelist;
	}
	buf = slurm(ev, &len, note, sizeof(note));
	if (buf == NULL) {
		free(nodelist);
		if (!o->quiet)
			warnx("no history of the nodes: %s", note);
		return;
	}
	rv = mg_events_parse(buf, len, o->prog_sacctmgr, o->tz, nodes,
	    nodelist ? nodelist + 6 : NULL, o->now - PLAN_HISTORY, o->now, c,
	    &d);
	free(buf);
	free(nodelist);
	if (rv == MG_ENOMEM)
		err(MG_EXIT_FAIL, NULL);
	if (rv != 0 && !o->quiet)
		warnx("no history of the nodes: %s", d.msg);
}

/* the planner's decision for a running P; 0, or -1 with a->note set */
static int
plan_decision(const struct opts *o, struct mg_live *l, const char *p_id,
    int32_t nodes, struct advice *a)
{
	const struct mg_ljob *p = mg_live_find(l, p_id);
	struct mg_trace tr;
	struct mg_plan *pl = NULL;
	struct mg_view v = { 0 };
	struct mg_planchain ch;
	struct mg_plancost c;
	struct mg_planconf pc = o->pc;
	struct mg_capacity cap = { 0 };
	char at[32], up[64] = "";
	double lambda, cost[MG_PLAN_MAXCAND];
	int rv = -1, k;

	if (mg_live_history(l, o->now, &tr) != 0)
		err(MG_EXIT_FAIL, NULL);
	if (tr.n < PLAN_MIN_JOBS) {
		snprintf(a->note, sizeof(a->note), "the history holds %zu "
		    "ended jobs, the planner needs %d: give -H with the last "
		    "4 weeks of sacct (live, it asks sacct for them)", tr.n,
		    PLAN_MIN_JOBS);
		goto out;
	}
	/* handing over: over the whole of P, priced by the lease */
	if (o->handover) {
		pc.handover = HANDOVER_TIME;
		if (p->limit > pc.window)
			pc.window = p->limit;
	}
	/* the nodes up now and before, as the nodes' events record them */
	capacity(o, nodes, &cap);
	if (cap.n > 0) {
		pc.cap_time = cap.time;
		pc.cap_nodes = cap.nodes;
		pc.cap_n = cap.n;
		snprintf(up, sizeof(up), ", %d of %d nodes up", cap.now, nodes);
		nodes = cap.now > 0 ? cap.now : 1;
	}
	if (mg_plan_new(&pc, &tr, &pl) != 0 || mg_live_view(l, o->now,
	    nodes, DAY, p_id, isnan(o->prio) ? mg_live_fresh_prio(l) :
	    o->prio, &v) != 0)
		err(MG_EXIT_FAIL, NULL);
	memset(&ch, 0, sizeof(ch));
	ch.p_start = p->start;
	ch.p_limit = p->limit > 0 ? p->limit : 48 * 3600;
	ch.p_end = p->start + ch.p_limit;
	ch.p_dur = ch.p_limit;
	ch.p_nodes = p->nodes > 0 ? p->nodes : 1;
	ch.nodes = o->s_nodes > 0 ? o->s_nodes : ch.p_nodes;
	ch.s_limit = ch.s_dur = o->s_limit > 0 ? o->s_limit : ch.p_limit;
	ch.world_end = INT64_MAX;
	if ((rv = mg_plan_costs(pl, &v, &ch, o->now, id_stream(p_id), &c)) !=
	    0) {
		snprintf(a->note, sizeof(a->note), "planner: %s",
		    mg_strerror(rv));
		rv = -1;
		goto out;
	}
	a->rule = "planner";
	if (c.n == 0) {
		a->submit = 0;
		snprintf(a->why, sizeof(a->why), "%s ends in %.1f h, beyond "
		    "the planner's window of %.0f h: wait", p_id,
		    (double)(ch.p_end - o->now) / 3600,
		    (double)pc.window / 3600);
		goto out;
	}
	lambda = o->handover && !o->lambda_given ? HANDOVER_LAMBDA :
	    o->lambda;
	a->submit = o->handover ? mg_plan_submit_handover(&c, MG_PLAN_RISK,
	    lambda, HANDOVER_TIME) : mg_plan_submit_now(&c, MG_PLAN_RISK,
	    lambda);
	a->risk = mg_plan_risk_next(&c);
	/* the cheapest later time, to say what waiting buys; what an
	 * early start costs: overlap, or handing over the lease given up */
	for (k = 0; k < c.n; k++)
		cost[k] = o->handover ? mg_plan_lease(&c, k, HANDOVER_TIME) :
		    c.ovl[k];
	{
		int best = c.n > 1 ? 1 : 0;

		for (k = 1; k < c.n; k++)
			if (c.pint[k] + lambda * cost[k] < c.pint[best] +
			    lambda * cost[best])
				best = k;
		format_tz(c.at[best], o->tz, at, sizeof(at));
		snprintf(a->why, sizeof(a->why), "in %d futures drawn from "
		    "the queue and the last 4 weeks%s: submitted now, %.0f%% "
		    "interrupted and %.1f h of %s; submitted at %s, "
		    "%.0f%% and %.1f h (an hour of %s weighs %.3g "
		    "interruptions): %s", o->pc.k, up, 100 * c.pint[0],
		    cost[0], o->handover ? "lease given up" : "overlap", at,
		    100 * c.pint[best], cost[best], o->handover ? "lease" :
		    "overlap", lambda, a->submit ? "submit now" : "wait");
	}
	rv = 0;
out:
	mg_view_release(&v);
	mg_plan_free(pl);
	mg_trace_release(&tr);
	mg_capacity_release(&cap);
	return rv;
}

/* a regressor's residual spread from its parameters */
static void
spread(const struct mg_model *m, struct advice *a)
{
	(void)mg_model_spread(m, &a->p10, &a->p90);
}

static void
json_str(FILE *fp, const char *key, const char *s, int comma)
{
	fprintf(fp, "  \"%s\": \"", key);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(fp, "\\u%04x", *s);
		else
			fputc(*s, fp);
	}
	fprintf(fp, "\"%s\n", comma ? "," : "");
}

static void
json_num(FILE *fp, const char *key, double v, int comma)
{
	if (isnan(v))
		fprintf(fp, "  \"%s\": null%s\n", key, comma ? "," : "");
	else
		fprintf(fp, "  \"%s\": %.4g%s\n", key, v, comma ? "," : "");
}

static void
report(const struct opts *o, const char *p_id, int64_t now,
    const struct advice *a, const char *decision)
{
	char next[32], end[32];
	static const char *const pst[] = { "in no dump", "pending",
	    "running", "ended", "unknown (no queue)" };

	format_tz(a->next, o->tz, next, sizeof(next));
	format_tz(a->p_end, o->tz, end, sizeof(end));
	if (o->json) {
		printf("{\n");
		json_str(stdout, "decision", decision, 1);
		json_str(stdout, "rule", a->rule, 1);
		json_str(stdout, "job", p_id, 1);
		json_str(stdout, "job_state", pst[a->p_state], 1);
		json_num(stdout, "job_left_h", a->p_state == 2 && a->p_end >
		    now ? (double)(a->p_end - now) / 3600 : NAN, 1);
		json_num(stdout, a->classifier ? "score" :
		    "predicted_gap_h", a->score, 1);
		json_num(stdout, "gap_p10_h", isnan(a->p10) ? NAN :
		    a->score + a->p10, 1);
		json_num(stdout, "gap_p90_h", isnan(a->p90) ? NAN :
		    a->score + a->p90, 1);
		json_num(stdout, "risk_if_wait", a->risk, 1);
		json_str(stdout, "next_check", a->next > 0 ? next : "", 1);
		json_str(stdout, "submitted", a->submitted, 1);
		json_str(stdout, "note", a->note, 1);
		json_str(stdout, "why", a->why, 0);
		printf("}\n");
		return;
	}
	printf("decision: %s\n", decision);
	printf("job:      %s %s", p_id, pst[a->p_state]);
	if (a->p_state == 2 && a->p_end > now)
		printf(", ends by %s (%.1f h left)", end,
		    (double)(a->p_end - now) / 3600);
	else if (a->p_state == 2 && a->p_end > 0)
		printf(", its limit ran out at %s, before %s", end,
		    o->now_given ? "--now" : "now");
	printf("\n");
	if (!isnan(a->score)) {
		if (a->classifier)
			printf("model:    score %.3f\n", a->score);
		else if (!isnan(a->p10))
			printf("model:    gap %+.1f h (held-out errors "
			    "put 80%% within %+.1f to %+.1f h)\n", a->score,
			    a->score + a->p10, a->score + a->p90);
		else
			printf("model:    gap %+.1f h\n", a->score);
	}
	if (!isnan(a->risk))
		printf("planner:  %.0f%% chance of an interruption if it waits "
		    "10 minutes\n", 100 * a->risk);
	if (*a->submitted)
		printf("submitted: %s%s\n", a->submitted, a->dependency ?
		    " (afterany dependency on the current job)" : "");
	if (a->next > 0)
		printf("next:     %s\n", next);
	if (*a->note)
		printf("note:     %s\n", a->note);
	printf("why:      %s\n", a->why);
}

static void
token_new(char *buf, size_t cap)
{
	unsigned char r[8];
	int fd = open("/dev/urandom", O_RDONLY), i;
	uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	if (fd < 0 || read(fd, r, sizeof(r)) != (ssize_t)sizeof(r))
		memcpy(r, &x, sizeof(r));
	if (fd >= 0)
		close(fd);
	for (i = 0; i < 8 && (size_t)(2 * i + 2) < cap; i++)
		snprintf(buf + 2 * i, 3, "%02x", r[i]);
}

/* sbatch the successor; 0, or the exit status with a message printed */
static int
submit(const struct opts *o, struct mg_chainstate *st, const char *p_id,
    int dependency, int64_t now, struct advice *a)
{
	struct mg_diag d = { "" };
	struct mg_proc p;
	char comment[64], dep[64], script[4096], export[4200];
	const char **argv;
	int n = 0, i, rv;

	token_new(st->token, sizeof(st->token));
	st->token_time = now;
	st->updated = now;
	if ((rv = mg_chain_write(o->state, st, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	snprintf(comment, sizeof(comment), "--comment=mirage-advise:%s",
	    st->token);
	snprintf(dep, sizeof(dep), "--dependency=afterany:%s", p_id);
	if ((argv = calloc((size_t)o->nscript_args + 9, sizeof(*argv))) ==
	    NULL)
		err(MG_EXIT_FAIL, NULL);
	argv[n++] = o->prog_sbatch;
	argv[n++] = "--parsable";
	argv[n++] = comment;
	/* S's take-over finds P, and the chain's state, in its environment */
	{
		char cwd[2048] = "";

		if (*o->state != '/' && getcwd(cwd, sizeof(cwd)) == NULL)
			*cwd = '\0';
		if (strchr(o->state, ',') == NULL && (*o->state == '/' ||
		    *cwd))
			snprintf(export, sizeof(export), "--export=ALL,"
			    "MIRAGE_PREDECESSOR=%s,MIRAGE_CHAIN_STATE=%s%s%s",
			    p_id, *o->state == '/' ? "" : cwd, *o->state ==
			    '/' ? "" : "/", o->state);
		else
			snprintf(export, sizeof(export), "--export=ALL,"
			    "MIRAGE_PREDECESSOR=%s", p_id);
		argv[n++] = export;
	}
	if (dependency)
		argv[n++] = dep;
	/* a script named like an option reaches sbatch as a path */
	snprintf(script, sizeof(script), "%s%s", *o->script == '-' ? "./" :
	    "", o->script);
	argv[n++] = script;
	for (i = 0; i < o->nscript_args; i++)
		argv[n++] = o->script_args[i];
	rv = mg_proc_run(argv, TIMEOUT, &p, &d);
	free((void *)argv);
	if (rv != 0 || p.status != 0) {
		/*
		 * sbatch failed, was killed or timed out.  Even a failure
		 * with a message may have queued the job ("Socket timed out
		 * on send/recv"): the token stays, and the next run looks
		 * for it in the queue before it submits again.
		 */
		int killed = rv == 0 && (p.timedout || p.status > 128);

		warnx("sbatch of '%s' %s: %s; the next run looks for it in "
		    "the queue before trying again", o->script, rv ? "could "
		    "not run" : killed ? "was killed" : "failed", rv ? d.msg :
		    *p.err ? p.err : "no message");
		if (rv == 0)
			mg_proc_release(&p);
		return MG_EXIT_FAIL;
	}
	{
		size_t k = strcspn(p.out, ";\n");
		int64_t id;

		if (mg_parse_i64(p.out, k, 1, INT64_MAX, &id) != 0) {
			warnx("sbatch printed '%.40s', not a job id; the next "
			    "run looks for the submission in the queue", p.out);
			mg_proc_release(&p);
			return MG_EXIT_FAIL;
		}
		snprintf(st->successor, sizeof(st->successor), "%lld",
		    (long long)id);
	}
	mg_proc_release(&p);
	snprintf(a->submitted, sizeof(a->submitted), "%s", st->successor);
	a->dependency = dependency;
	st->token[0] = '\0';
	st->token_time = 0;
	st->submitted++;
	st->updated = now;
	if ((rv = mg_chain_write(o->state, st, &d)) != 0)
		errx(mg_exit_status(rv), "%s (job %s was submitted: record it "
		    "by hand)", d.msg, st->successor);
	return 0;
}

/* the settings of a take-over of job p, as the options say */
static void
takeover_conf(const struct opts *o, const char *p, struct mg_takeover *t)
{
	const struct passwd *pw = getpwuid(getuid());

	memset(t, 0, sizeof(*t));
	t->job = p;
	t->squeue = o->prog_squeue;
	t->sacct = o->prog_sacct;
	t->scancel = o->prog_scancel;
	t->signal = o->sig;
	t->full = o->full;
	t->grace = o->grace;
	t->poll = o->grace >= 50 ? 5 : 1;
	t->tries = retries;
	t->user = pw ? pw->pw_name : NULL;
}

/* the cron run's take-over of P (--handover), said on standard error */
static void
fallback_takeover(const struct opts *o, struct mg_chainstate *st,
    const char *p)
{
	struct mg_takeover t;
	struct mg_diag d = { "" };
	char note[512] = "";
	int outcome;

	takeover_conf(o, p, &t);
	if (mg_takeover_run(&t, &outcome, note, sizeof(note), &d) != 0) {
		warnx("take-over from job %s: %s", p, d.msg);
		return;
	}
	if (outcome != MG_TAKEOVER_GONE && !o->quiet)
		warnx("successor %s runs: %s", st->current, note);
	snprintf(st->handed, sizeof(st->handed), "%s", p);
	st->handover_time = o->now;
}

/*
 * --take-over: S's batch script runs it first.  P comes from -j or
 * MIRAGE_PREDECESSOR (mirage-advise --submit sets it), the chain's state
 * from -s or MIRAGE_CHAIN_STATE; the state's lock serialises take-overs,
 * and the state records the handover.  Exit 0 once P is gone (or was
 * gone), 1 when it cannot be stopped or told.
 */
static int
take_over(const struct opts *o)
{
	struct mg_takeover t;
	struct mg_chainstate st;
	struct mg_diag d = { "" };
	const char *p = o->job ? o->job : getenv("MIRAGE_PREDECESSOR");
	const char *state = o->state ? o->state :
	    getenv("MIRAGE_CHAIN_STATE");
	char note[512] = "";
	int lockfd = -1, have = 0, outcome, rv;

	if (p == NULL || *p == '\0') {
		printf("take-over: no predecessor (neither -j nor "
		    "MIRAGE_PREDECESSOR): nothing to do\n");
		return MG_EXIT_OK;
	}
	if (strlen(p) >= sizeof(st.handed) || strspn(p,
	    "0123456789_+") != strlen(p))
		errx(MG_EXIT_USAGE, "invalid job id '%s'", p);
	if (state != NULL && *state != '\0') {
		/* a concurrent take-over waits for this one, then finds P
		 * gone */
		if ((lockfd = mg_chain_lock(state, (int)o->grace + 180,
		    &d)) < 0)
			errx(mg_exit_status(lockfd), "%s", d.msg);
		if ((rv = mg_chain_read(state, &st, &d)) < 0)
			errx(mg_exit_status(rv), "%s (not acting on a damaged "
			    "state: repair or remove it)", d.msg);
		have = rv == 1;
	}
	takeover_conf(o, p, &t);
	if ((rv = mg_takeover_run(&t, &outcome, note, sizeof(note), &d)) !=
	    0) {
		mg_chain_unlock(lockfd);
		errx(MG_EXIT_FAIL, "take-over from job %s: %s", p, d.msg);
	}
	if (have && !o->dry_run && outcome != MG_TAKEOVER_GONE) {
		snprintf(st.handed, sizeof(st.handed), "%s", p);
		st.handover_time = (int64_t)time(NULL);
		st.updated = st.handover_time;
		if ((rv = mg_chain_write(state, &st, &d)) != 0 && !o->quiet)
			warnx("%s: the handover is not recorded", d.msg);
	}
	mg_chain_unlock(lockfd);
	printf("take-over: %s\n", note);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(MG_EXIT_FAIL, "stdout");
	return MG_EXIT_OK;
}

/* one run: what it read, the chain's state, the decision */
struct run {
	struct mg_live l;
	struct mg_model *m;
	struct mg_chainstate st;
	struct advice a;
	char p_id[JOBID_MAX];
	char note[MG_DIAG_MAX + 256];
	char fate[128];
	int lockfd;		/* the state's lock, or -1 */
	int have_state;		/* the state file named the chain */
	int live;		/* squeue and sacct, not -Q */
	int queue_ok;		/* the queue could be read */
	int dependency;		/* submit with afterany on P */
};

/* the options into *o, the time and zone given into *now_arg, *zone */
static void
parse(int argc, char *argv[], struct opts *o, const char **now_arg,
    const char **zone)
{
	enum { O_SUBMIT = 256, O_DRY, O_NOW, O_PRIO, O_SQUEUE, O_SACCT,
	    O_SBATCH, O_SINFO, O_PLAN, O_LAMBDA, O_PSEED, O_EVENTS,
	    O_SACCTMGR, O_RETRIES, O_TAKEOVER, O_HANDOVER, O_SIGNAL, O_FULL,
	    O_GRACE, O_SCANCEL };
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "dry-run", no_argument, NULL, O_DRY },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "history", required_argument, NULL, 'H' },
		{ "job", required_argument, NULL, 'j' },
		{ "limit", required_argument, NULL, 'L' },
		{ "model", required_argument, NULL, 'm' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "now", required_argument, NULL, O_NOW },
		{ "partition", required_argument, NULL, 'p' },
		{ "priority", required_argument, NULL, O_PRIO },
		{ "queue", required_argument, NULL, 'Q' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "sacct", required_argument, NULL, O_SACCT },
		{ "sbatch", required_argument, NULL, O_SBATCH },
		{ "sinfo", required_argument, NULL, O_SINFO },
		{ "sacctmgr", required_argument, NULL, O_SACCTMGR },
		{ "events", required_argument, NULL, O_EVENTS },
		{ "retries", required_argument, NULL, O_RETRIES },
		{ "take-over", no_argument, NULL, O_TAKEOVER },
		{ "handover", no_argument, NULL, O_HANDOVER },
		{ "signal", required_argument, NULL, O_SIGNAL },
		{ "full", no_argument, NULL, O_FULL },
		{ "grace", required_argument, NULL, O_GRACE },
		{ "scancel", required_argument, NULL, O_SCANCEL },
		{ "size", required_argument, NULL, 'N' },
		{ "squeue", required_argument, NULL, O_SQUEUE },
		{ "state", required_argument, NULL, 's' },
		{ "submit", required_argument, NULL, O_SUBMIT },
		{ "threshold", required_argument, NULL, 'T' },
		{ "plan", required_argument, NULL, O_PLAN },
		{ "lambda", required_argument, NULL, O_LAMBDA },
		{ "plan-seed", required_argument, NULL, O_PSEED },
		{ "tz", required_argument, NULL, 'z' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct mg_diag d = { "" };
	int ch;

	memset(o, 0, sizeof(*o));
	o->threshold = o->prio = NAN;
	mg_planconf_default(&o->pc);
	o->lambda = 1.5;	/* plan-folds.sh on the training period */
	o->prog_squeue = "squeue";
	o->prog_sacct = "sacct";
	o->prog_sbatch = "sbatch";
	o->prog_sinfo = "sinfo";
	o->prog_sacctmgr = "sacctmgr";
	o->prog_scancel = "scancel";
	o->sig = "USR1";
	o->grace = 15 * 60;
	while ((ch = getopt_long(argc, argv, "c:F:hH:j:L:m:n:N:p:qQ:s:T:Vz:",
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			o->config = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				errx(MG_EXIT_USAGE, "invalid format '%s' (want "
				    "text or json)", optarg);
			o->json = strcmp(optarg, "json") == 0;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'H':
			if (o->nhist == 8)
				errx(MG_EXIT_USAGE, "at most 8 -H files");
			o->hist[o->nhist++] = optarg;
			break;
		case 'j':
			if (strlen(optarg) >= JOBID_MAX || !*optarg)
				errx(MG_EXIT_USAGE, "invalid job id '%s'",
				    optarg);
			o->job = optarg;
			break;
		case 'L':
			o->s_limit = span_arg("limit", optarg);
			break;
		case 'm':
			o->model = optarg;
			break;
		case 'n':
			o->nodes = count_arg("node count", optarg);
			break;
		case 'N':
			o->s_nodes = count_arg("successor size", optarg);
			break;
		case 'p':
			o->partition = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'Q':
			o->queue = optarg;
			break;
		case 's':
			o->state = optarg;
			break;
		case 'T':
			if (mg_parse_f64(optarg, strlen(optarg), &o->threshold)
			    != 0 || fabs(o->threshold) > 1000)
				errx(MG_EXIT_USAGE, "invalid threshold '%s'",
				    optarg);
			break;
		case 'V':
			printf("mirage-advise %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		case 'z':
			*zone = optarg;
			break;
		case O_PLAN:
		case O_LAMBDA:
		case O_PSEED:
			if (mg_plan_option(&o->pc, &o->lambda, ch == O_PLAN ?
			    "plan" : ch == O_LAMBDA ? "lambda" : "plan-seed",
			    optarg, &d) != 0)
				errx(MG_EXIT_USAGE, "%s", d.msg);
			o->plan |= ch == O_PLAN;
			o->lambda_given |= ch == O_LAMBDA;
			break;
		case O_SUBMIT:
			o->script = optarg;
			break;
		case O_DRY:
			o->dry_run = 1;
			break;
		case O_NOW:
			*now_arg = optarg;
			break;
		case O_PRIO:
			if (mg_parse_f64(optarg, strlen(optarg), &o->prio) != 0)
				errx(MG_EXIT_USAGE, "invalid priority '%s'",
				    optarg);
			break;
		case O_SQUEUE:
			o->prog_squeue = optarg;
			break;
		case O_SACCT:
			o->prog_sacct = optarg;
			break;
		case O_SBATCH:
			o->prog_sbatch = optarg;
			break;
		case O_SACCTMGR:
			o->prog_sacctmgr = optarg;
			break;
		case O_EVENTS:
			o->events = optarg;
			break;
		case O_TAKEOVER:
			o->take_over = 1;
			break;
		case O_HANDOVER:
			o->handover = 1;
			break;
		case O_SIGNAL: {
			const char *c = optarg;

			if (strncmp(c, "SIG", 3) == 0)
				c += 3;
			if (*c == '\0' || strlen(c) > 16 || strspn(c,
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") !=
			    strlen(c))
				errx(MG_EXIT_USAGE, "invalid signal '%s' (want "
				    "e.g. USR1, TERM or 10)", optarg);
			o->sig = c;
			break;
		}
		case O_FULL:
			o->full = 1;
			break;
		case O_GRACE:
			o->grace = span_arg("grace", optarg);
			break;
		case O_SCANCEL:
			o->prog_scancel = optarg;
			break;
		case O_RETRIES:
			retries = count_arg("number of tries", optarg);
			if (retries > 10)
				errx(MG_EXIT_USAGE, "--retries: at most 10");
			break;
		case O_SINFO:
			o->prog_sinfo = optarg;
			break;
		default:
			usage(MG_EXIT_USAGE);
		}
	}
}

/* the commands' time format and zone */
static void
environment(struct opts *o, const char *zone)
{
	/*
	 * The commands run print their times as they are read: a user's
	 * SLURM_TIME_FORMAT ("relative", "%a %H:%M") would give dates that
	 * cannot be read back.
	 */
	if (setenv("SLURM_TIME_FORMAT", "standard", 1) != 0)
		err(MG_EXIT_FAIL, "setenv");
	/* times as the commands print them: TZ, or -z */
	if (mg_tz_use(zone, &o->tz) != 0)
		errx(MG_EXIT_USAGE, "-z: unknown time zone '%s' (not in the "
		    "tz database)", zone);
}

/* the time, the script, the cluster's configuration */
static void
validate(struct opts *o, int argc, char *argv[], const char *now_arg)
{
	static char statebuf[4096];
	struct mg_diag d = { "" };
	int rv;

	if (now_arg != NULL) {
		if (mg_parse_date(now_arg, o->tz, &o->now) != 0)
			errx(MG_EXIT_USAGE, "invalid time '%s'", now_arg);
		o->now_given = 1;
	}
	o->script_args = argv + optind;
	o->nscript_args = argc - optind;
	if (o->nscript_args > 0 && o->script == NULL)
		errx(MG_EXIT_USAGE, "arguments after the options are the "
		    "script's: give --submit script");
	if (o->state != NULL && o->script == NULL)
		errx(MG_EXIT_USAGE, "-s state needs --submit script");
	if (o->events != NULL && !o->plan)
		errx(MG_EXIT_USAGE, "--events goes with --plan");
	if (o->script != NULL) {
		const char *c;

		for (c = o->script; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				errx(MG_EXIT_USAGE, "--submit: a script name "
				    "with a control character (tab, newline) "
				    "is refused");
		if (access(o->script, R_OK) != 0)
			err(MG_EXIT_USAGE, "'%s'", o->script);
		script_request(o->script, &o->s_nodes, &o->s_limit);
		if (o->state == NULL) {
			snprintf(statebuf, sizeof(statebuf), "%s.chain",
			    o->script);
			o->state = statebuf;
		}
	}
	if (o->config != NULL) {
		/* the cluster model's configuration: its partition's nodes,
		 * the limits per user the planner keeps */
		struct mg_simconf sc;
		int k;

		mg_simconf_init(&sc);
		if ((rv = mg_simconf_load(&sc, o->config, &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
		if (o->nodes == 0) {
			o->nodes = sc.mode == MG_MODE_FAITHFUL ?
			    sc.slurm.nodes : sc.ref.nodes;
			for (k = 0; k < sc.nparts && o->partition; k++)
				if (strcmp(sc.part_name[k], o->partition) == 0)
					o->nodes = sc.part_nodes[k];
		}
		for (k = 0; k < sc.nparts && o->partition; k++)
			if (strcmp(sc.part_name[k], o->partition) == 0)
				snprintf(o->part_hosts, sizeof(o->part_hosts),
				    "%s", sc.part_hosts[k]);
		o->pc.max_jobs_pu = sc.slurm.max_jobs_per_user;
		o->pc.max_nodes_pu = sc.slurm.max_nodes_per_user;
	}
	if (o->now == 0)
		o->now = (int64_t)time(NULL);
}

/* the chain's state (locked) and its job */
static void
chain_open(const struct opts *o, struct run *r)
{
	struct mg_diag d = { "" };
	int rv;

	/* the chain: its state file, or -j */
	memset(&r->st, 0, sizeof(r->st));
	if (o->state != NULL) {
		/* a dry run changes nothing, not even a lock file; it reads
		 * the state, which a writer replaces whole (rename) */
		if (!o->dry_run &&
		    (r->lockfd = mg_chain_lock(o->state, 30, &d)) < 0)
			errx(mg_exit_status(r->lockfd), "%s", d.msg);
		if ((rv = mg_chain_read(o->state, &r->st, &d)) < 0)
			errx(mg_exit_status(rv), "%s (not acting on a damaged "
			    "state: repair or remove it)", d.msg);
		r->have_state = rv == 1;
		/* never act for one chain on the state of another */
		if (r->have_state && o->job && strcmp(o->job,
		    r->st.current) != 0 && strcmp(o->job, r->st.successor) != 0)
			errx(MG_EXIT_USAGE, "'%s' follows job %s%s%s, not -j "
			    "%s: to start a new chain from %s, remove '%s' "
			    "or give another state file with -s; to go on "
			    "with this chain, leave out -j", o->state,
			    r->st.current, *r->st.successor ?
			    " and its successor " : "", r->st.successor, o->job,
			    o->job, o->state);
	}
	if (r->have_state)
		snprintf(r->p_id, sizeof(r->p_id), "%s", r->st.current);
	else if (o->job)
		snprintf(r->p_id, sizeof(r->p_id), "%s", o->job);
	else
		errx(MG_EXIT_USAGE, "which chain? give -j jobid (or a state "
		    "file that names it)");
	if (!r->have_state) {
		snprintf(r->st.current, sizeof(r->st.current), "%s", r->p_id);
		if (o->script)
			snprintf(r->st.script, sizeof(r->st.script), "%s",
			    o->script);
	}

}

/* the model, or a note why there is none */
static void
model_open(const struct opts *o, struct run *r)
{
	struct mg_diag d = { "" };
	int rv;

	/* the model: without one, or with a broken one, the reactive rule */
	if (o->model != NULL) {
		FILE *fp = fopen(o->model, "rb");

		if (fp == NULL)
			snprintf(r->note, sizeof(r->note), "model '%s': %s",
			    o->model, strerror(errno));
		else if ((rv = mg_model_read(fp, o->model, &r->m, &d)) != 0)
			snprintf(r->note, sizeof(r->note), "%s", d.msg);
		if (fp)
			fclose(fp);
	}

}

/* the history (-H), then the queue: squeue and sacct, or -Q */
static void
read_cluster(const struct opts *o, struct run *r)
{
	struct mg_diag d = { "" };
	int rv, i;

	/* what the cluster shows: history first, the queue last */
	memset(&r->l, 0, sizeof(r->l));
	r->l.partition = o->partition;
	r->l.now = o->now;
	r->l.tz = o->tz;
	for (i = 0; i < o->nhist; i++)
		if ((rv = mg_live_read(&r->l, o->hist[i], NULL, &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
	if (o->nhist > 0 && !o->quiet) {
		/* a history of another time is another cluster's */
		int64_t last = -1;
		size_t k;

		for (k = 0; k < r->l.n; k++)
			if (r->l.job[k].end > last)
				last = r->l.job[k].end;
		if (last >= 0 && o->now - last > 30 * DAY) {
			char at[32];

			format_tz(last, o->tz, at, sizeof(at));
			warnx("the history (-H) ends at %s, %.0f days before "
			    "%s: give recent sacct dumps (or --now the time "
			    "of the dumps)", at, (double)(o->now - last) / DAY,
			    o->now_given ? "--now" : "now");
		}
	}

	if (r->live) {
		char since[32], fmt[64];
		const char *sa[] = { o->prog_sacct, "-a", "-X", "-P",
		    "-S", since, "-o", sacct_fields, NULL,
		    NULL, NULL };
		const char *sq[] = { o->prog_squeue, "-a", "-o", fmt,
		    NULL, NULL, NULL };
		char part[256];

		format_tz(o->now - (o->plan ? PLAN_HISTORY : DAY), o->tz,
		    since, sizeof(since));
		snprintf(fmt, sizeof(fmt), "%s", squeue_fmt);
		if (o->partition) {
			snprintf(part, sizeof(part), "--partition=%s",
			    o->partition);
			sa[8] = part;
			sq[4] = part;
		}
		/* without the history the model sees less; the
		 * queue it cannot do without */
		if ((r->m != NULL || o->plan) && o->nhist == 0 &&
		    (o->plan && o->state != NULL ? plan_history(o, &r->l,
		    sa, since, sizeof(since), r->note, sizeof(r->note)) :
		    read_slurm(&r->l, sa, "sacct", r->note, sizeof(r->note))) !=
		    0) {
			if (!o->quiet)
				warnx("no history: %s", r->note);
			*r->note = '\0';
		}
		if (read_slurm(&r->l, sq, "squeue", r->note,
		    sizeof(r->note)) != 0)
			r->queue_ok = 0;
	} else if ((rv = mg_live_read(&r->l, o->queue, NULL, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	if (*r->l.zone_note)	/* hours off: said even under -q */
		warnx("%s", r->l.zone_note);
	memset(&r->a, 0, sizeof(r->a));
	r->a.score = r->a.p10 = r->a.p90 = r->a.risk = NAN;
	snprintf(r->a.note, sizeof(r->a.note), "%s", r->note);

}

/*
 * The chain's state against the queue: a submission not confirmed is
 * settled by evidence, a successor that started becomes the chain's
 * job, one that ended before it started is counted.  Returns -1 to go
 * on, or the exit status of a run that ends here.
 */
static int
reconcile(const struct opts *o, struct run *r)
{
	struct mg_diag d = { "" };
	int rv;

	/* a submission that was started and not confirmed */
	if (*r->st.token) {
		char id[32];

		rv = r->live ? settle_token(o, r->st.token, r->st.token_time,
		    r->p_id, id, sizeof(id), r->note, sizeof(r->note)) : -1;
		if (rv < 0)
			errx(MG_EXIT_FAIL, "'%s': a submission started "
			    "at %lld is not confirmed and cannot be "
			    "settled (%s); not submitting again until "
			    "squeue or sacct shows where it went (look "
			    "for comment mirage-advise:%s in squeue -o "
			    "'%%i %%k' or sacct -o JobID,Comment)",
			    o->state, (long long)r->st.token_time, r->live ?
			    r->note : "-Q given", r->st.token);
		*r->note = '\0';
		if (*id) {
			snprintf(r->st.successor, sizeof(r->st.successor),
			    "%s", id);
			r->st.submitted++;
			if (!o->quiet)
				warnx("the submission of %s started at "
				    "%lld was found as job %s",
				    o->script, (long long)r->st.token_time,
				    id);
		} else if (!o->quiet)
			warnx("the submission started at %lld is in "
			    "neither squeue nor sacct: trying again",
			    (long long)r->st.token_time);
		r->st.token[0] = '\0';
		r->st.token_time = 0;
	}

	/*
	 * A successor that started is the chain's job now.  One the
	 * queue does not show (an empty answer of a controller in
	 * trouble, another partition) is looked up in sacct, in any
	 * partition; if it is in no dump it stays the successor:
	 * never submitted twice.
	 */
	if (*r->st.successor && r->queue_ok && r->live &&
	    mg_live_find(&r->l, r->st.successor) == NULL) {
		const char *sj[] = { o->prog_sacct, "-a", "-X", "-P",
		    "-j", r->st.successor, "-o", sacct_fields, NULL };
		char why[MG_DIAG_MAX + 256] = "";

		r->l.partition = NULL;
		(void)read_slurm(&r->l, sj, "sacct", why, sizeof(why));
		r->l.partition = o->partition;
	}
	if (*r->st.successor && r->queue_ok) {
		const struct mg_ljob *s = mg_live_find(&r->l,
		    r->st.successor);

		char old[sizeof(r->st.current)];

		switch (mg_chain_step(&r->st, s, o->now, old, sizeof(old),
		    r->fate, sizeof(r->fate))) {
		case MG_CHAIN_STARTED:
			snprintf(r->p_id, sizeof(r->p_id), "%s",
			    r->st.current);
			/* a chain that hands over: S runs, and P still
			 * does with no take-over recorded (S's script
			 * did not run one): stopped from here, once */
			if (o->handover && r->live && !o->dry_run &&
			    strcmp(r->st.handed, old) != 0)
				fallback_takeover(o, &r->st, old);
			break;
		case MG_CHAIN_LOST:
			warnx("successor %s ended before it started (%s)%s",
			    s->jobid, *s->state ? s->state : "no state",
			    r->st.failures >= MAX_FAILURES ? "" :
			    ": deciding again for the chain's job");
			break;
		case MG_CHAIN_SAME:
			break;
		}
	}
	if (o->state != NULL && !o->dry_run) {
		r->st.updated = o->now;
		if ((rv = mg_chain_write(o->state, &r->st, &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
	}
	if (*r->st.successor) {
		r->a.rule = "state";
		find_p(&r->l, r->p_id, o->now, &r->a);
		snprintf(r->a.why, sizeof(r->a.why), "successor %s was "
		    "submitted already and has not started%s",
		    r->st.successor, mg_live_find(&r->l, r->st.successor) ?
		    "" : " (it is in no dump: not submitting again)");
		report(o, r->p_id, o->now, &r->a, "already-submitted");
		return EXIT_DONE;
	}

	return -1;
}

/* the chain's job: in a dump, ended, failing?  -1 or an exit status */
static int
check_p(const struct opts *o, struct run *r)
{
	struct mg_diag d = { "" };
	int rv;

	find_p(&r->l, r->p_id, o->now, &r->a);
	if (r->queue_ok && r->a.p_state == 0 && r->live) {
		/* not in the queue: has it ended, or is it unknown?
		 * sacct -j looks through all time */
		const char *sj[] = { o->prog_sacct, "-a", "-X", "-P",
		    "-j", r->p_id, "-o", sacct_fields, NULL };
		char why[MG_DIAG_MAX + 256] = "";

		if (read_slurm(&r->l, sj, "sacct", why, sizeof(why)) != 0)
			r->queue_ok = 0;	/* cannot tell: keep it */
		else
			find_p(&r->l, r->p_id, o->now, &r->a);
	}
	if (!r->live && !o->now_given && r->a.p_state == 2 && r->a.p_end > 0 &&
	    r->a.p_end <= o->now)
		snprintf(r->a.note, sizeof(r->a.note), "the dump is older than "
		    "%s's end by its limit: give --now the time of the "
		    "dump", r->p_id);
	if (r->queue_ok && r->a.p_state == 0) {
		r->a.rule = "unknown";
		snprintf(r->a.why, sizeof(r->a.why), "job %s is in no dump "
		    "(squeue%s): a mistyped id? nothing to do", r->p_id,
		    r->live ? ", sacct -j" : o->nhist ? ", -Q, -H" : ", -Q");
		report(o, r->p_id, o->now, &r->a, "unknown-job");
		return EXIT_UNKNOWN;
	}
	/*
	 * The chain's job ended in failure: counted once; one that
	 * ran its course, or has run an hour, clears the count.
	 */
	if (o->state != NULL && r->queue_ok && (r->a.p_state == 2 ||
	    r->a.p_state == 3)) {
		const struct mg_ljob *pj = mg_live_find(&r->l, r->p_id);

		mg_chain_job(&r->st, pj, r->a.p_state == 3, o->now, r->fate,
		    sizeof(r->fate));
		if (!o->dry_run && (rv = mg_chain_write(o->state, &r->st,
		    &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
	}
	if (o->state != NULL && r->st.failures >= MAX_FAILURES) {
		warnx("'%s': the chain's last %lld jobs failed (the "
		    "last: %s): not submitting another; mend the "
		    "script, then remove '%s' and start the chain "
		    "again with -j", o->state, (long long)r->st.failures,
		    *r->fate ? r->fate : r->st.failed, o->state);
		r->a.rule = "stopped";
		snprintf(r->a.why, sizeof(r->a.why), "%lld successors in a "
		    "row failed (the last: %s): the chain is stopped",
		    (long long)r->st.failures, *r->fate ? r->fate :
		    r->st.failed);
		report(o, r->p_id, o->now, &r->a, "stopped");
		return EXIT_STOPPED;
	}
	return -1;
}

/* the rule that decides, and its decision */
static void
decide(const struct opts *o, struct run *r)
{
	if (!r->queue_ok) {
		/* cannot see P: a dependency keeps the chain */
		r->a.rule = "dependency";
		r->a.p_state = 4;
		r->a.submit = 1;
		r->dependency = 1;
		snprintf(r->a.why, sizeof(r->a.why), "the queue cannot be "
		    "read: submit with an afterany dependency on %s "
		    "(the reactive outcome, without watching)", r->p_id);
	} else if (r->a.p_state == 3) {
		r->a.rule = "reactive";
		r->a.submit = 1;
		snprintf(r->a.why, sizeof(r->a.why), "%s has ended: "
		    "submit now", r->p_id);
	} else if (r->a.p_state == 1) {
		r->a.rule = "pending";
		r->a.submit = 0;
		r->a.next = o->now + PERIOD;
		snprintf(r->a.why, sizeof(r->a.why), "%s has not started: "
		    "wait", r->p_id);
	} else {
		int32_t nodes = o->nodes;

		*r->note = '\0';
		if (nodes == 0 && (r->m != NULL || o->plan) && r->live)
			nodes = sinfo_nodes(o, r->note, sizeof(r->note));
		if (o->s_nodes > 0 && nodes > 0 && o->s_nodes > nodes)
			errx(MG_EXIT_USAGE, "the successor asks for %d "
			    "nodes (-N or the script's #SBATCH -N), more "
			    "than the cluster's %d: it could never start",
			    (int)o->s_nodes, (int)nodes);
		if ((r->m != NULL || o->plan) && nodes <= 0 &&
		    *r->a.note == '\0')
			snprintf(r->a.note, sizeof(r->a.note), "the cluster's "
			    "node count is unknown (give -n)%s%.400s",
			    *r->note ? ": " : "", r->note);
		else if ((r->m != NULL || o->plan) && *r->a.note == '\0' &&
		    mg_live_incomplete(&r->l, o->now) > 0)
			snprintf(r->a.note, sizeof(r->a.note), "the queue "
			    "shows no time limit or no submission time for %zu "
			    "jobs (squeue's default or -l layout): give "
			    "squeue -o '%s' or --json",
			    mg_live_incomplete(&r->l, o->now), squeue_fmt);
		else if ((r->m != NULL || o->plan) && r->a.p_limit <= 0 &&
		    *r->a.note == '\0')
			snprintf(r->a.note, sizeof(r->a.note), "job %s has no "
			    "time limit (UNLIMITED): no limit ends it, so "
			    "there is no end to submit ahead of", r->p_id);
		else if (o->plan && nodes > 0) {
			if (plan_decision(o, &r->l, r->p_id, nodes, &r->a) == 0)
				*r->a.note = '\0';
		} else if (r->m != NULL && model_decision(o, r->m, &r->l,
		    r->p_id, o->now, nodes, &r->a) == 0) {
			spread(r->m, &r->a);
			*r->a.note = '\0';
		}
		if (strcmp(r->a.rule ? r->a.rule : "", "model") != 0 &&
		    strcmp(r->a.rule ? r->a.rule : "", "planner") != 0) {
			if (r->m == NULL && o->model == NULL && !o->plan)
				fallback(&r->a, "no model (-m)");
			r->a.rule = "reactive";
			r->a.submit = 0;
			snprintf(r->a.why, sizeof(r->a.why), "%s: submit "
			    "when %s ends", r->m == NULL && !o->plan ?
			    "without a model" : "the reactive rule", r->p_id);
		}
		if (!r->a.submit) {
			r->a.next = o->now + PERIOD;
			if (r->a.p_end > o->now && r->a.p_end < r->a.next)
				r->a.next = r->a.p_end;
		}
	}
}

/* the decision carried out (sbatch with --submit) and reported */
static int
act(const struct opts *o, struct run *r)
{
	const char *decision;
	int rv, status;

	if (r->a.submit && o->state != NULL && o->now < r->st.retry_after) {
		char at[32];

		format_tz(r->st.retry_after, o->tz, at, sizeof(at));
		r->a.submit = 0;
		r->a.next = r->st.retry_after;
		snprintf(r->a.note, sizeof(r->a.note), "%lld successor%s "
		    "failed in a row (the last: %s): the next is submitted at %s at the "
		    "earliest", (long long)r->st.failures, r->st.failures > 1 ?
		    "s" : "", *r->fate ? r->fate : r->st.failed, at);
	}
	decision = !r->a.submit ? "wait" : r->dependency ?
	    "submit-with-dependency" : "submit";
	status = !r->a.submit ? EXIT_WAIT : r->dependency ? EXIT_DEPEND :
	    EXIT_SUBMIT;
	if (r->a.submit && o->script != NULL) {
		if (o->dry_run) {
			snprintf(r->a.note + strlen(r->a.note),
			    sizeof(r->a.note) - strlen(r->a.note), "%sdry run: "
			    "would run %s --parsable%s %s", *r->a.note ? "; " : "",
			    o->prog_sbatch, r->dependency ? " --dependency="
			    "afterany:<job>" : "", o->script);
		} else if ((rv = submit(o, &r->st, r->p_id, r->dependency,
		    o->now, &r->a)) != 0) {
			return rv;
		} else {
			decision = "submitted";
			status = EXIT_SUBMIT;
		}
	}
	/* what kept the model or the planner from deciding is said, even
	 * under -q: a fallback is not the decision that was asked for */
	if (*r->a.note && r->a.rule != NULL && (r->dependency ||
	    (strcmp(r->a.rule, "reactive") == 0 && (o->model || o->plan))))
		warnx("the %s rule decided: %s", r->a.rule, r->a.note);
	report(o, r->p_id, o->now, &r->a, decision);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(MG_EXIT_FAIL, "stdout");
	return status;
}

int
main(int argc, char *argv[])
{
	struct opts o;
	struct run r;
	const char *now_arg = NULL, *zone = "local";
	int status;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	parse(argc, argv, &o, &now_arg, &zone);
	environment(&o, zone);
	if (o.take_over) {
		if (o.script != NULL || o.plan || o.model != NULL ||
		    o.queue != NULL)
			errx(MG_EXIT_USAGE, "--take-over stops the "
			    "predecessor; it takes no --submit, --plan, -m or "
			    "-Q");
		return take_over(&o);
	}
	validate(&o, argc, argv, now_arg);
	memset(&r, 0, sizeof(r));
	r.lockfd = -1;
	r.live = o.queue == NULL;
	r.queue_ok = 1;
	chain_open(&o, &r);
	model_open(&o, &r);
	read_cluster(&o, &r);
	if ((status = reconcile(&o, &r)) < 0 &&
	    (status = check_p(&o, &r)) < 0) {
		decide(&o, &r);
		status = act(&o, &r);
	}
	mg_chain_unlock(r.lockfd);
	mg_live_release(&r.l);
	mg_model_free(r.m);
	return status;
}
