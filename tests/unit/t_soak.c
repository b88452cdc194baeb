/*
 * t_soak.c: a fault-injection soak of a chain that hands over, in the
 * manner of a deterministic simulation.  A simulated Slurm (its jobs, a
 * controller that goes down, answers lost after the act, an accounting
 * database that lags, services that ignore their signal, crash, or are
 * requeued by Slurm) answers every command the library runs
 * (mg_proc_set_fake), in simulated time (mg_clock_set_hook).  Cron runs
 * every 5 minutes and each successor's take-over act on it through
 * live/drive.h as mirage-advise does, interleaved where a take-over
 * waits; after every step the invariants are checked:
 *
 *   two  two links never serve at once longer than the grace, the
 *        cancel's wait and a cron period (plus, where the controller
 *        was down meanwhile, that time and the cron period after it,
 *        and the time the chain's take-over waited while another
 *        chain's ran: the harness runs take-overs one at a time)
 *   none the chain never has no job running or queued longer than a
 *        cron period (plus the controller's downtime and a cron
 *        period, likewise, a cron period after a submission refused at
 *        every try, and the accounting's lag: a submission
 *        whose answer was lost is settled only on evidence), unless
 *        it was stopped for failing successors
 *   sig  a link is signalled at most once a take-over (a successor's
 *        script, and the cron runs acting for it), and a running link
 *        that was signalled is cancelled only after its grace
 *   sub  at most one successor is queued at a time (one submission a
 *        link)
 *   twin two successors of one link never run at once
 *   minrun with --min-run, a successor starts beside its predecessor
 *        only once that has run its share (a hold the run could not
 *        yet have moved, within a cron period of a requeued start,
 *        aside); a job held by its begin time counts as not queued
 *   file the chain's state file always parses
 *   foreign a run or take-over of one chain never signals, cancels or
 *        updates a job of another
 *
 * A third of the schedules hold their successors with --min-run (an
 * sbatch --begin this Slurm honours, moved by scontrol), a third submit
 * them with --low (--nice, lifted by scontrol).  A tenth decide with
 * the planner (on a day of other users' jobs); three in ten read their
 * settings from a table (--target --settings) that a nightly run writes
 * again meanwhile, with anything it might hold (another cluster's,
 * target's or framing's settings, a model's, a table cut short), on a
 * cluster that may grow or shrink by a node.  A quarter run a second
 * chain in the same directory.  Slurm requeues some links as they
 * leave after their signal, to start again before a run sees them
 * pending.
 *
 * A schedule is drawn from its seed: the same seed gives the same run.
 * Usage: t_soak [schedules [first-seed]] (default MIRAGE_SOAK, else 1000,
 * from seed 1).  A failing seed is printed with the steps that led to
 * it; MIRAGE_SOAK_TRACE=1 prints every schedule's steps, 2 also every
 * command run.
 */
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/proc.h"
#include "live/chain.h"
#include "live/drive.h"
#include "live/settings.h"
#include "mirage.h"
#include "tap.h"

#define T0	1800000000	/* the simulation's start (2027-01-15) */
#define LIMIT	7200		/* every link's time limit, s */
#define CRON	300		/* the cron period */
#define GRACE	600		/* the take-over's grace after the signal */
#define KWAIT	60		/* and after a cancel */
#define KILLW	30		/* Slurm's KillWait: a cancelled job leaves */
#define HORIZON	(8 * 3600)	/* one schedule's simulated time */
#define MAXJ	64
#define SLACK	120		/* polls, a step's own Slurm retries */

enum jstate { PD, RUN, CG, END };

struct sjob {
	int id, chain, pred;
	int owner;		/* the chain it belongs to: 0, or 1 */
	enum jstate st;
	char fate[24];		/* how it ended: COMPLETED, CANCELLED, ... */
	int64_t submit, start, end;
	int64_t begin;		/* PD: when it starts, its dependency met */
	int64_t not_before;	/* sbatch --begin, scontrol StartTime */
	int64_t nice;		/* sbatch --nice, scontrol Nice */
	int dep;		/* afterany on this job, 0 none */
	int held;		/* PD, never starts by itself */
	char comment[64];
	int sigs;		/* signals that reached it */
	int64_t sig_at;
	int64_t leave_at;	/* RUN: when it leaves after the signal */
	int64_t crash_at;	/* RUN: when it fails on its own (0 never) */
	int64_t requeue_at;	/* RUN: when Slurm requeues it (0 never) */
	int ignores;		/* ignores its signal */
	int ckpt;		/* seconds it takes to checkpoint and exit */
	int pending_takeover;	/* started: its script takes over */
	int requeued;		/* Slurm requeued it (not a submission) */
	int cg_requeue;		/* CG: Slurm requeues it as it leaves */
	int taker;		/* the successor whose script signalled it */
};

struct world {
	int64_t t;		/* true time */
	uint64_t rng;
	struct sjob job[MAXJ];
	int n, next_id;
	int64_t down_from[4], down_to[4];
	int ndown;
	int lost_pct;		/* % of answers lost after the act */
	int refuse_pct;		/* % of requests refused, not acted on */
	int64_t refused_at;	/* the last request refused (a sbatch's
				 * every try: the next run sends it) */
	int64_t lag;		/* the accounting database lags */
	int64_t skew_cron, skew_s, skew;	/* hosts' clocks, the actor's */
	int64_t next_cron;
	int first_run[2], depth, stopped[2];
	int nchains;		/* chains in the directory: 1 or 2 */
	int actor;		/* the chain whose run or take-over acts */
	char dir[64];
	char state[2][256];
	/* the settings table (--target --settings): what the nightly run
	 * writes into it, and when it writes it again */
	int table, plan;
	int table_kind;
	int64_t table_at;
	int nodes;		/* what sinfo counts, and when it changes */
	int64_t resize_at;
	char unusable[2][MG_DIAG_MAX];
	/* the invariants' clocks */
	int64_t two_since[2], none_since[2];
	/* a chain's take-over suspended while another chain's runs inside
	 * its sleep (the harness runs one at a time): since when, and for
	 * how long in all, and that total when two links began to serve */
	int64_t nest_from[2], starved[2], starved0[2];
	char broke[512];
	char trace[64][200];
	int ntrace;
	int verbose;
	char user[64];		/* who runs the chain */
	int taker;		/* the successor whose script acts, or -1 */
	double min_run;		/* the chain's --min-run, 0: none */
	int low;		/* its --low */
};

static struct world W;

static void
note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
note(const char *fmt, ...)
{
	char *line = W.trace[W.ntrace % 64];
	va_list ap;
	int k;

	k = snprintf(line, 200, "%6lld ", (long long)(W.t - T0));
	va_start(ap, fmt);
	vsnprintf(line + k, (size_t)(200 - k), fmt, ap);
	va_end(ap);
	W.ntrace++;
	if (W.verbose)
		printf("# %s\n", line);
}

static uint64_t
rnd(void)
{
	uint64_t x = W.rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return W.rng = x;
}

static int64_t
pick(int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static int
chance(int pct)
{
	return (int)(rnd() % 100) < pct;
}

static int
down(void)
{
	int k;

	for (k = 0; k < W.ndown; k++)
		if (W.t >= W.down_from[k] && W.t < W.down_to[k])
			return 1;
	return 0;
}

/* the controller's downtime within [from, to) */
static int64_t
downtime(int64_t from, int64_t to)
{
	int64_t s = 0, a, b;
	int k;

	for (k = 0; k < W.ndown; k++) {
		a = W.down_from[k] > from ? W.down_from[k] : from;
		b = W.down_to[k] < to ? W.down_to[k] : to;
		if (b > a)
			s += b - a;
	}
	return s;
}

static struct sjob *
find(int id)
{
	int k;

	for (k = 0; k < W.n; k++)
		if (W.job[k].id == id)
			return &W.job[k];
	return NULL;
}

static void
stamp(int64_t t, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* ---- the world's own course ---- */

static void
end_job(struct sjob *j, const char *fate, int64_t at)
{
	char f[sizeof(j->fate)];

	snprintf(f, sizeof(f), "%s", fate);
	j->st = END;
	j->end = at;
	memcpy(j->fate, f, sizeof(f));
	note("job %d ends %s", j->id, fate);
}

static void broke(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int64_t downtime(int64_t from, int64_t to);

static void
start_job(struct sjob *j, int64_t at)
{
	struct sjob *p = j->pred > 0 ? find(j->pred) : NULL;
	int k;

	/*
	 * minrun: a successor starts beside its predecessor only once that
	 * has run its minimum share, unless the predecessor (re)started
	 * less than a cron period (and any downtime since) ago: no run
	 * could have moved the hold yet.
	 * twin: two successors of one link never run at once.
	 */
	if (W.min_run > 0 && p != NULL && p->st == RUN && at < p->start +
	    (int64_t)llround(W.min_run * LIMIT) && at - p->start > CRON +
	    SLACK + (downtime(p->start, at) > 0 ? downtime(p->start, at) +
	    CRON : 0))
		broke("minrun: job %d starts beside job %d at %.0f%% of its "
		    "limit (%.0f%% asked)", j->id, p->id, 100.0 * (double)(at -
		    p->start) / LIMIT, 100 * W.min_run);
	for (k = 0; k < W.n; k++)
		if (&W.job[k] != j && W.job[k].st == RUN && j->pred > 0 &&
		    W.job[k].pred == j->pred)
			broke("twin: jobs %d and %d, both successors of job %d, "
			    "run at once", W.job[k].id, j->id, j->pred);
	j->st = RUN;
	j->start = at;
	j->leave_at = 0;
	/* a job Slurm requeued starts anew: a signal to it is a new one */
	j->sigs = 0;
	j->sig_at = 0;
	j->crash_at = chance(8) ? at + pick(60, LIMIT) : 0;
	j->requeue_at = chance(3) ? at + pick(60, LIMIT) : 0;
	j->pending_takeover = j->pred > 0;
	note("job %d starts%s", j->id, j->pred ? " (takes over)" : "");
}

/* the next time something happens by itself after W.t, or INT64_MAX */
static int64_t
next_event(void)
{
	int64_t e = INT64_MAX, x;
	struct sjob *d;
	int k;

	for (k = 0; k < W.n; k++) {
		struct sjob *j = &W.job[k];

		if (j->st == PD && !j->held) {
			d = j->dep ? find(j->dep) : NULL;
			x = d != NULL && d->st != END ? INT64_MAX :
			    (d != NULL && d->end + j->begin - j->submit >
			    j->begin ? d->end + (j->begin - j->submit) :
			    j->begin);
			if (x < j->not_before)
				x = j->not_before;
			if (x < e)
				e = x;
		} else if (j->st == RUN) {
			x = j->start + LIMIT;
			if (j->leave_at && j->leave_at < x)
				x = j->leave_at;
			if (j->crash_at && j->crash_at < x)
				x = j->crash_at;
			if (j->requeue_at && j->requeue_at < x)
				x = j->requeue_at;
			if (x < e)
				e = x;
		} else if (j->st == CG && j->end < e)
			e = j->end;
	}
	return e;
}

/* the world moves to time `to`, event by event */
static void
advance(int64_t to)
{
	for (;;) {
		int64_t e = next_event();
		int k;

		if (e > to)
			break;
		if (e > W.t)
			W.t = e;
		for (k = 0; k < W.n; k++) {
			struct sjob *j = &W.job[k], *d;

			if (j->st == PD && !j->held) {
				d = j->dep ? find(j->dep) : NULL;
				if (d != NULL && d->st != END)
					continue;
				if ((d == NULL ? j->begin : d->end +
				    (j->begin - j->submit)) <= W.t &&
				    j->not_before <= W.t)
					start_job(j, W.t);
			} else if (j->st == RUN) {
				if (j->start + LIMIT <= W.t)
					end_job(j, "TIMEOUT", W.t);
				else if (j->leave_at && j->leave_at <= W.t &&
				    j->sigs > 0 && chance(3)) {
					/* its node fails as it leaves: it
					 * completes for a while, then Slurm
					 * requeues it, to start again soon */
					j->st = CG;
					j->end = W.t + pick(60, 600);
					j->cg_requeue = 1;
					snprintf(j->fate, sizeof(j->fate),
					    "COMPLETED");
				} else if (j->leave_at && j->leave_at <= W.t)
					end_job(j, "COMPLETED", W.t);
				else if (j->crash_at && j->crash_at <= W.t)
					end_job(j, "FAILED", W.t);
				else if (j->requeue_at && j->requeue_at <= W.t) {
					/* a node failed: Slurm requeues it */
					j->st = PD;
					j->requeue_at = 0;
					j->begin = W.t + pick(60, 1800);
					j->submit = W.t;
					j->dep = 0;
					j->requeued = 1;
					note("job %d requeued by Slurm", j->id);
				}
			} else if (j->st == CG && j->end <= W.t &&
			    j->cg_requeue) {
				j->st = PD;
				j->cg_requeue = 0;
				j->leave_at = 0;
				j->begin = W.t + pick(5, 240);
				j->submit = W.t;
				j->dep = 0;
				j->requeued = 1;
				note("job %d requeued by Slurm as it left", j->id);
			} else if (j->st == CG && j->end <= W.t)
				end_job(j, j->fate, j->end);
		}
	}
	if (to > W.t)
		W.t = to;
}

/* ---- the invariants ---- */

static void
broke(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
broke(const char *fmt, ...)
{
	va_list ap;

	if (*W.broke)
		return;
	va_start(ap, fmt);
	vsnprintf(W.broke, sizeof(W.broke), fmt, ap);
	va_end(ap);
	note("BROKEN: %s", W.broke);
}

/* how long chain c's take-over has been suspended by another chain's
 * since two of its links began to serve */
static int64_t
starved(int c)
{
	int64_t from = W.nest_from[c] > W.two_since[c] ? W.nest_from[c] :
	    W.two_since[c];

	return W.starved[c] - W.starved0[c] + (W.nest_from[c] ? W.t - from :
	    0);
}

static void
check_chain(int c)
{
	struct mg_chainstate st;
	struct mg_diag d = { "" };
	int k, running = 0, queued = 0, idle = 0, rv;

	for (k = 0; k < W.n; k++) {
		if (W.job[k].owner != c)
			continue;
		running += W.job[k].st == RUN;
		queued += W.job[k].st == PD && W.job[k].chain > 1 &&
		    !W.job[k].requeued && !W.job[k].held;
		/* a job Slurm holds cannot run; the next run sees it */
		idle += W.job[k].st == RUN || (W.job[k].st == PD &&
		    W.job[k].not_before <= W.t && (!W.job[k].held ||
		    W.t < W.job[k].submit + CRON + SLACK));
	}
	if (running >= 2) {
		if (W.two_since[c] == 0) {
			W.two_since[c] = W.t;
			W.starved0[c] = W.starved[c];
		} else if (W.t - W.two_since[c] > GRACE + KWAIT + KILLW + CRON +
		    SLACK + (downtime(W.two_since[c], W.t) > 0 ?
		    downtime(W.two_since[c], W.t) + CRON : 0) + starved(c))
			broke("two: two links of chain %d have served at once "
			    "for %lld s", c, (long long)(W.t - W.two_since[c]));
	} else
		W.two_since[c] = 0;
	if ((rv = mg_chain_read(W.state[c], &st, &d)) < 0)
		broke("file: chain %d's state does not parse: %s", c, d.msg);
	else if (rv == 1 && st.failures >= MG_DRIVE_MAX_FAILURES)
		W.stopped[c] = 1;
	/* (a held job cannot run) */
	if (idle == 0 && !W.stopped[c]) {
		if (W.none_since[c] == 0)
			W.none_since[c] = W.t;
		else if (W.t - W.none_since[c] > CRON + SLACK + W.lag +
		    (W.refused_at >= W.none_since[c] ? CRON : 0) +
		    (downtime(W.none_since[c], W.t) > 0 ?
		    downtime(W.none_since[c], W.t) + CRON : 0))
			broke("none: no link of chain %d has run or been queued "
			    "for %lld s", c, (long long)(W.t - W.none_since[c]));
	} else
		W.none_since[c] = 0;
	if (queued > 1)
		broke("sub: %d successors of chain %d queued at once", queued,
		    c);
}

static void
check(void)
{
	int c;

	for (c = 0; c < W.nchains; c++)
		check_chain(c);
}

/* ---- Slurm's commands ---- */

/* foreign: a run or take-over acts only on its own chain's jobs */
static void
foreign(const struct sjob *j, const char *what)
{
	if (j->owner != W.actor)
		broke("foreign: job %d of chain %d %s by chain %d", j->id,
		    j->owner, what, W.actor);
}

/* Slurm's words (slurm_errno.c) for an answer lost after the act, and
 * for a request the controller refused without acting */
static const char *
acted_word(void)
{
	static const char *const w[] = {
		"Socket timed out on send/recv operation",
		"Unable to contact slurm controller (receive failure)",
		"Unable to contact slurm controller (shutdown failure)",
		"Message receive failure",
	};

	return w[pick(0, 3)];
}

static const char *
refused_word(void)
{
	static const char *const w[] = {
		"Unable to contact slurm controller (connect failure)",
		"Rate limit exceeded, please retry later",
		"Slurm backup controller in standby mode",
		"Connection timed out establishing",
	};

	return w[pick(0, 3)];
}

static int
answer(struct mg_proc *p, int status, const char *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
answer(struct mg_proc *p, int status, const char *err, const char *fmt, ...)
{
	va_list ap;
	int n;

	p->status = status;
	p->err = calloc(1, 4097);
	snprintf(p->err, 4097, "%s", err ? err : "");
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p->out = malloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p->out, (size_t)n + 1, fmt, ap);
	va_end(ap);
	p->outlen = (size_t)n;
	return 0;
}

/* a command that failed with what, after its prefix */
static int
failed(struct mg_proc *p, const char *prefix, const char *what)
{
	char err[256];

	snprintf(err, sizeof(err), "%s%s", prefix, what);
	return answer(p, 1, err, "%s", "");
}

/* out grows by a line */
static void
put(char **out, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
put(char **out, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*out = realloc(*out, *len + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(*out + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*len += (size_t)n;
}

/* a successful answer whose output out (len bytes, or NULL: none) was
 * built with put() */
static int
listed(struct mg_proc *p, char *out, size_t len)
{
	p->status = 0;
	p->err = calloc(1, 4097);
	p->out = out != NULL ? out : calloc(1, 1);
	p->outlen = len;
	return 0;
}

static const char *
arg_after(const char *const argv[], const char *opt)
{
	int k;

	for (k = 0; argv[k]; k++)
		if (strcmp(argv[k], opt) == 0 && argv[k + 1])
			return argv[k + 1];
	return NULL;
}

static int
has(const char *const argv[], const char *word)
{
	int k;

	for (k = 0; argv[k]; k++)
		if (strcmp(argv[k], word) == 0)
			return 1;
	return 0;
}

static const char *
state_word(const struct sjob *j)
{
	return j->st == PD ? "PENDING" : j->st == RUN ? "RUNNING" :
	    j->st == CG ? "COMPLETING" : j->fate;
}

/* a time as Slurm's parse_time reads one: uts and epoch seconds, or a
 * date (this Slurm's zone is UTC); 0 if so */
static int
slurm_date(const char *s, int64_t *t)
{
	char *end;

	if (strncmp(s, "uts", 3) != 0)
		return mg_parse_date(s, MG_TZ_UTC, t);
	*t = strtoll(s + 3, &end, 10);
	return end == s + 3 || *end != '\0' || *t < 1000000 ? -1 : 0;
}

/* the job as the accounting database shows it, lag behind */
static int
as_recorded(const struct sjob *j, struct sjob *r)
{
	int64_t at = W.t - W.lag;

	if (j->submit > at)
		return 0;
	*r = *j;
	if (r->st == END && r->end > at)
		r->st = r->start >= 0 && r->start <= at ? RUN : PD;
	if (r->st == CG)
		r->st = RUN;
	if (r->st == RUN && r->start > at)
		r->st = PD;
	return 1;
}

static int
squeue(const char *const argv[], struct mg_proc *p)
{
	const char *id = arg_after(argv, "-j"), *fmt = arg_after(argv, "-o");
	char *out = NULL, a[32], b[32], c[32];
	size_t len = 0;
	int k;

	if (down())
		return answer(p, 1, "squeue: error: Unable to contact slurm "
		    "controller (connect failure)", "%s", "");
	if (chance(W.lost_pct))
		return answer(p, 1, "squeue: error: Socket timed out on "
		    "send/recv operation", "%s", "");
	if (id != NULL) {
		struct sjob *j = find(atoi(id));

		if (j == NULL || (j->st == END && W.t - j->end > 300))
			return answer(p, 1, "slurm_load_jobs error: Invalid job "
			    "id specified", "%s", "");
		if (strcmp(fmt, "%r") == 0)
			return answer(p, 0, NULL, "%s\n", j->held ?
			    "launch failed requeued held" : j->st == PD ?
			    "Priority" : "None");
		if (strcmp(fmt, "%T") == 0)
			return answer(p, 0, NULL, "%s\n", state_word(j));
		if (strcmp(fmt, "%i|%T|%u|%S") == 0) {
			if (j->start >= 0)
				stamp(j->start, a, sizeof(a));
			else
				snprintf(a, sizeof(a), "N/A");
			return answer(p, 0, NULL, "%d|%s|%s|%s\n", j->id,
			    state_word(j), W.user, a);
		}
	}
	if (fmt != NULL && strcmp(fmt, "%i %k") == 0) {
		for (k = 0; k < W.n; k++)
			if (W.job[k].st != END)
				put(&out, &len, "%d %s\n", W.job[k].id,
				    *W.job[k].comment ? W.job[k].comment :
				    "(null)");
	} else {
		put(&out, &len, "JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|"
		    "END_TIME|TIME_LIMIT|NODES|PRIORITY|USER\n");
		for (k = 0; k < W.n; k++) {
			const struct sjob *j = &W.job[k];

			/* the queue; one job in any state it holds */
			if (j->st == END && (id == NULL ||
			    j->id != atoi(id)))
				continue;
			stamp(j->submit, a, sizeof(a));
			if (j->st == PD || j->start < 0)
				snprintf(b, sizeof(b), "N/A");
			else
				stamp(j->start, b, sizeof(b));
			if (j->st == PD)
				snprintf(c, sizeof(c), "N/A");
			else
				stamp(j->st == END ? j->end : j->start + LIMIT,
				    c, sizeof(c));
			put(&out, &len, "%d|gpu|%s|%s|%s|%s|2:00:00|1|1000|"
			    "%s\n", j->id, j->st == PD ? "PD" : j->st ==
			    RUN ? "R" : j->st == CG ? "CG" :
			    strcmp(j->fate, "COMPLETED") == 0 ? "CD" :
			    strcmp(j->fate, "FAILED") == 0 ? "F" :
			    strcmp(j->fate, "TIMEOUT") == 0 ? "TO" : "CA",
			    a, b, c, W.user);
		}
	}
	return listed(p, out, len);
}

static int
sacct(const char *const argv[], struct mg_proc *p)
{
	const char *id = arg_after(argv, "-j"), *fields = arg_after(argv,
	    "-o");
	char *out = NULL, a[32], b[32], c[32];
	size_t len = 0;
	struct sjob r;
	int k;

	if (strcmp(fields, "JobID,State,User,Start") == 0) {
		struct sjob *j = find(atoi(id));

		if (j != NULL && as_recorded(j, &r)) {
			if (r.start >= 0 && r.st != PD)
				stamp(r.start, a, sizeof(a));
			else
				snprintf(a, sizeof(a), "Unknown");
			return answer(p, 0, NULL, "%d|%s|%s|%s\n", r.id,
			    state_word(&r), W.user, a);
		}
		return answer(p, 0, NULL, "%s", "");
	}
	if (strncmp(fields, "JobIDRaw,State,Comment", 22) == 0) {
		for (k = 0; k < W.n; k++)
			if (as_recorded(&W.job[k], &r)) {
				stamp(r.submit, a, sizeof(a));
				put(&out, &len, "%d|%s|%s|%s|sbatch\n", r.id,
				    state_word(&r), r.st == PD ? "" :
				    r.comment, a);
			}
	} else {
		if (!has(argv, "-n"))
			put(&out, &len, "JobID|JobIDRaw|Partition|State|Submit|"
			    "Start|End|Timelimit|NNodes|User\n");
		for (k = 0; k < W.n; k++) {
			if (id != NULL && W.job[k].id != atoi(id))
				continue;
			if (!as_recorded(&W.job[k], &r))
				continue;
			stamp(r.submit, a, sizeof(a));
			if (r.st == PD || r.start < 0)
				snprintf(b, sizeof(b), "Unknown");
			else
				stamp(r.start, b, sizeof(b));
			if (r.st != END)
				snprintf(c, sizeof(c), "Unknown");
			else
				stamp(r.end, c, sizeof(c));
			put(&out, &len, "%d|%d|gpu|%s|%s|%s|%s|02:00:00|1|"
			    "%s\n", r.id, r.id, state_word(&r), a, b, c,
			    W.user);
		}
		/* with --plan, the day before: other users' jobs to learn
		 * the cluster's waits from */
		for (k = 0; W.plan && id == NULL && k < 150; k++) {
			uint64_t h = (uint64_t)(k + 1) * 0x9E3779B97F4A7C15ULL;
			int64_t sub = T0 - 86400 + k * 500, st = sub + (int64_t)
			    (h >> 40) % 3600;

			stamp(sub, a, sizeof(a));
			stamp(st, b, sizeof(b));
			stamp(st + 600 + (int64_t)(h >> 20) % 6000, c,
			    sizeof(c));
			put(&out, &len, "%d|%d|gpu|COMPLETED|%s|%s|%s|02:00:00|"
			    "%d|bob\n", 100000 + k, 100000 + k, a, b, c,
			    1 + (int)((h >> 10) % 4));
		}
	}
	return listed(p, out, len);
}

static int
scancel(const char *const argv[], struct mg_proc *p)
{
	int k = 0, lost;
	struct sjob *j;
	const char *sig = NULL;

	while (argv[k + 1])
		k++;
	j = find(atoi(argv[k]));
	for (k = 0; argv[k]; k++)
		if (strncmp(argv[k], "--signal=", 9) == 0)
			sig = argv[k] + 9;
	if (down())
		return answer(p, 1, "scancel: error: Kill job error on job id "
		    "%s: Unable to contact slurm controller (connect failure)",
		    "%s", "");
	if (j == NULL || j->st == END)
		return answer(p, 1, "scancel: error: Kill job error on job id: "
		    "Invalid job id specified", "%s", "");
	foreign(j, "cancelled or signalled");
	if (chance(W.refuse_pct)) {
		note("scancel of job %d refused", j->id);
		return failed(p, "scancel: error: ", refused_word());
	}
	/* --state=PENDING: only a job still pending is cancelled; another
	 * is left, and the answer is 0 (as Slurm's scancel) */
	for (k = 0; argv[k]; k++)
		if (strcmp(argv[k], "--state=PENDING") == 0 && j->st != PD) {
			note("job %d not pending: left", j->id);
			return answer(p, 0, NULL, "%s", "");
		}
	lost = chance(W.lost_pct);
	if (sig != NULL) {
		if (j->st != RUN)	/* pending, completing: refused */
			return answer(p, 1, "", "%s", "");
		/* one signal a take-over: a second within the first's
		 * window (its grace, the cancel's wait, a cron period) is
		 * a fault; one after it belongs to a take-over of a P the
		 * chain was given back to */
		if (j->sigs > 0 && W.t < j->sig_at + GRACE + KWAIT + CRON &&
		    (W.taker < 0 || W.taker == j->taker))
			broke("sig: job %d signalled a second time %lld s "
			    "after the first", j->id,
			    (long long)(W.t - j->sig_at));
		j->sigs++;
		j->sig_at = W.t;
		if (W.taker >= 0)
			j->taker = W.taker;
		if (!j->ignores && j->leave_at == 0)
			j->leave_at = W.t + j->ckpt;
		/* its node fails as it checkpoints: Slurm requeues it, and
		 * it may start again before any run sees it pending */
		if (chance(5))
			j->requeue_at = W.t + pick(1, j->ckpt);
		note("job %d signalled%s", j->id, lost ? " (answer lost)" : "");
	} else {
		if (j->st == RUN && (j->sig_at == 0 || W.t < j->sig_at + GRACE))
			broke("sig: job %d, running, cancelled %s", j->id,
			    j->sig_at ? "before its grace" : "unsignalled");
		if (j->st == RUN) {
			j->st = CG;
			j->end = W.t + KILLW;
			snprintf(j->fate, sizeof(j->fate), "CANCELLED");
		} else if (j->st == PD)
			end_job(j, "CANCELLED", W.t);
		note("job %d cancelled%s", j->id, lost ? " (answer lost)" : "");
	}
	if (lost)
		return failed(p, "scancel: error: ", acted_word());
	return answer(p, 0, NULL, "%s", "");
}

static int
sbatch(const char *const argv[], const char *const env[], struct mg_proc *p)
{
	struct sjob *j;
	const char *e;
	int k;

	if (down())
		return answer(p, 1, "sbatch: error: Batch job submission "
		    "failed: Unable to contact slurm controller (connect "
		    "failure)", "%s", "");
	if (W.n >= MAXJ)
		return answer(p, 1, "sbatch: error: too many jobs", "%s", "");
	if (chance(W.refuse_pct)) {
		W.refused_at = W.t;
		return failed(p, "sbatch: error: Batch job submission failed: ",
		    refused_word());
	}
	j = &W.job[W.n++];
	memset(j, 0, sizeof(*j));
	j->id = W.next_id++;
	j->chain = 2;
	j->owner = W.actor;
	j->st = PD;
	j->submit = W.t;
	j->start = -1;
	/* most wait less than the lead, some much longer */
	j->begin = W.t + (chance(80) ? pick(0, 2400) : pick(2400, 3 * LIMIT));
	j->ignores = chance(15);
	j->ckpt = (int)pick(5, 120);
	for (k = 0; argv[k]; k++) {
		if (strncmp(argv[k], "--comment=", 10) == 0)
			snprintf(j->comment, sizeof(j->comment), "%s",
			    argv[k] + 10);
		if (strncmp(argv[k], "--dependency=afterany:", 22) == 0)
			j->dep = atoi(argv[k] + 22);
		if (strncmp(argv[k], "--begin=", 8) == 0 &&
		    slurm_date(argv[k] + 8, &j->not_before) != 0)
			return answer(p, 1, "sbatch: error: Invalid time "
			    "specification", "%s", "");
		if (strncmp(argv[k], "--nice=", 7) == 0)
			j->nice = atoll(argv[k] + 7);
	}
	for (k = 0; env != NULL && env[k]; k++)
		if ((e = strstr(env[k], "MIRAGE_PREDECESSOR=")) == env[k])
			j->pred = atoi(e + 19);
	j->held = chance(2);
	note("sbatch: job %d (after %d)%s", j->id, j->pred, j->held ?
	    " held" : "");
	if (chance(W.lost_pct))
		return failed(p, "sbatch: error: Batch job submission failed: ",
		    acted_word());
	return answer(p, 0, NULL, "%d\n", j->id);
}

/* scontrol update JobId=N StartTime=T|now, or Nice=N */
static int
scontrol(const char *const argv[], struct mg_proc *p)
{
	struct sjob *j;
	int64_t t;
	int k;

	if (down())
		return answer(p, 1, "slurm_update error: Unable to contact "
		    "slurm controller (connect failure)", "%s", "");
	if (argv[1] == NULL || strcmp(argv[1], "update") != 0 || argv[2] ==
	    NULL || strncmp(argv[2], "JobId=", 6) != 0)
		return answer(p, 1, "scontrol: error: bad command", "%s", "");
	if ((j = find(atoi(argv[2] + 6))) == NULL || j->st == END)
		return answer(p, 1, "Job has already finished for job %s",
		    "%s", argv[2] + 6);
	foreign(j, "updated");
	if (j->st != PD)
		return answer(p, 1, "Job is no longer pending execution for "
		    "job %s", "%s", argv[2] + 6);
	for (k = 3; argv[k]; k++)
		if (strcmp(argv[k], "StartTime=now") == 0)
			j->not_before = W.t;
		else if (strncmp(argv[k], "StartTime=", 10) == 0 &&
		    slurm_date(argv[k] + 10, &t) == 0)
			j->not_before = t;
		else if (strncmp(argv[k], "Nice=", 5) == 0)
			j->nice = atoll(argv[k] + 5);
		else
			return answer(p, 1, "scontrol: error: Invalid "
			    "argument: %s", "%s", argv[k]);
	note("scontrol: job %d not before %+lld s, nice %lld", j->id,
	    (long long)(j->not_before - W.t), (long long)j->nice);
	if (chance(W.lost_pct))
		return answer(p, 1, "slurm_update error: Socket timed out on "
		    "send/recv operation", "%s", "");
	return answer(p, 0, NULL, "%s", "");
}

static int
fake(void *arg, const char *const argv[], const char *const env[],
    int timeout, struct mg_proc *p, struct mg_diag *d)
{
	(void)arg;
	(void)timeout;
	(void)d;
	if (W.verbose > 1) {
		char line[512] = "";
		int k;

		for (k = 0; argv[k]; k++)
			snprintf(line + strlen(line), sizeof(line) -
			    strlen(line), " %s", argv[k]);
		note("run:%s", line);
	}
	if (strcmp(argv[0], "squeue") == 0)
		return squeue(argv, p);
	if (strcmp(argv[0], "sacct") == 0)
		return sacct(argv, p);
	if (strcmp(argv[0], "scancel") == 0)
		return scancel(argv, p);
	if (strcmp(argv[0], "sbatch") == 0)
		return sbatch(argv, env, p);
	if (strcmp(argv[0], "scontrol") == 0)
		return scontrol(argv, p);
	if (strcmp(argv[0], "sinfo") == 0)
		return answer(p, 0, NULL, "%d\n", W.nodes);
	return answer(p, 127, "soak: no such program", "%s", "");
}

/* ---- the actors: cron runs and the successors' take-overs ---- */

static void run_due(void);

static int64_t
clock_now(void *arg)
{
	(void)arg;
	return W.t + W.skew;
}

static void
clock_sleep(void *arg, int64_t s, enum mg_clock_wait why)
{
	int64_t to = W.t + s;

	(void)arg;
	if (W.verbose > 2)
		note("sleep %lld (%s)", (long long)s, why == MG_CLOCK_POLL ?
		    "poll" : "retry");
	while (W.t < to) {
		int64_t step = to;

		if (why == MG_CLOCK_POLL && W.next_cron < step)
			step = W.next_cron;
		advance(step);
		check();
		if (why == MG_CLOCK_POLL)
			run_due();
	}
}

/* the settings table as a nightly run writes it (mirage-eval --target
 * -F tsv), written whole (a temporary file, renamed): a rule for 1-node
 * chains, or what a chain cannot use (another cluster's, target's,
 * framing's, size's; a model's; a table cut short) */
static void
table_write(int kind)
{
	static const char *const row[] = {
		"lead\t1\tlead_h\t1\t0.99\t600\t1\t1\t8\n",
		"scheduler-estimate\t1\tmargin_h\t0.5\t0.99\t600\t1\t1\t8\n",
		"reactive\t1\t-\t-\t0.99\t600\t1\t1\t8\n",
		"planner\t1\tprice\t1\t0.99\t600\t1\t1\t8\n",
		"lead\t1\tlead_h\t1\t0.99\t600\t1\t1\t9\n",
		"lead\t1\tlead_h\t1\t0.95\t600\t1\t1\t8\n",
		"lead\t1\tlead_h\t1\t0.99\t600\t1\t1\t8",
		"lead\t2\tlead_h\t1\t0.99\t600\t1\t1\t8\n",
		"lead\t1\tlead_h\t1\t0.99\t0\t1\t1\t8\n",
		"xgboost\t1\trisk\t0.3\t0.99\t600\t1\t1\t8\n",
	};
	char path[128], tmp[140];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/table.tsv", W.dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((fp = fopen(tmp, "w")) == NULL)
		return;
	fprintf(fp, "method\tnodes\tsetting_kind\tsetting\ttarget\t"
	    "handover_s\treached\trecommended\tcluster_nodes\n%s",
	    row[kind]);
	fclose(fp);
	rename(tmp, path);
	W.table_kind = kind;
	note("table: %.*s", (int)strcspn(row[kind], "\n"), row[kind]);
}

/* chain c's settings, as mirage-advise sets them from its options */
static void
conf(struct mg_drive *d, int c)
{
	memset(d, 0, sizeof(*d));
	d->state = W.state[c];
	d->sub.script = c ? "other.sh" : "link.sh";
	d->nodes = W.table ? 0 : 8;
	d->s_nodes = 1;
	d->s_limit = LIMIT;
	d->rule.threshold = d->rule.prio = NAN;
	mg_planconf_default(&d->rule.pc);
	d->rule.lambda = MG_PLAN_LAMBDA;
	d->rule.nchosen = 1;
	d->rule.chosen[0].row.nodes = 1;
	d->rule.chosen[0].row.kind = MG_SETTING_LEAD;
	d->rule.chosen[0].row.setting = 1.0;	/* an hour before P's end */
	snprintf(d->rule.chosen[0].row.method, sizeof(d->rule.chosen[0].row.method),
	    "lead");
	d->handover = 1;
	d->take.scancel = "scancel";
	d->take.sig = "USR1";
	d->take.grace = GRACE;
	d->take.kill_wait = KWAIT;
	d->quiet = 1;
	d->sl.squeue = "squeue";
	d->sl.sacct = "sacct";
	d->sl.sinfo = "sinfo";
	d->sl.sacctmgr = "sacctmgr";
	d->sl.sbatch = "sbatch";
	d->sl.scontrol = "scontrol";
	d->sub.min_run = W.min_run;
	d->sub.low = W.low;
	d->sl.timeout = 60;
	d->sl.tries = 3;
	d->sl.tz = MG_TZ_UTC;
	if (W.plan) {
		d->rule.plan = 1;
		d->rule.nchosen = 0;
	}
	if (W.table) {
		struct mg_diag dd = { "" };
		char path[128];
		int rv;

		d->rule.nchosen = 0;
		snprintf(path, sizeof(path), "%s/table.tsv", W.dir);
		if ((rv = mg_settings_read(d, path, 0.99, &dd)) != 0) {
			/* mirage-advise's target(): the run says it */
			snprintf(W.unusable[c], sizeof(W.unusable[c]), "%s",
			    dd.msg);
			d->rule.unusable = W.unusable[c];
			d->rule.unusable_rv = rv;
			d->rule.nchosen = d->rule.plan = 0;
		}
	}
}

static void
cron_chain(int c)
{
	struct mg_drive d;
	struct mg_driven r;
	struct mg_diag diag = { "" };
	int64_t skew = W.skew;
	char first[16];
	int rv, taker, actor = W.actor;

	W.actor = c;
	conf(&d, c);
	taker = W.taker;
	W.taker = -1;
	W.skew = W.skew_cron;
	d.host = "login";
	d.now = W.t + W.skew;
	snprintf(first, sizeof(first), "%d", c + 1);
	d.job = W.first_run[c] ? first : NULL;
	rv = mg_drive_run(&d, &r, &diag);
	if (rv >= 0)
		W.first_run[c] = 0;
	if (W.verbose > 2) {
		struct mg_chainstate st;
		struct mg_diag dd = { "" };

		if (mg_chain_read(W.state[c], &st, &dd) == 1)
			note("state: current %s handed %s (%s) take %s signalled %lld cancelled %lld "
			    "host %s seen %lld %s (skew cron %lld s %lld)",
			    st.current, st.handed, st.handed_start, st.take.job,
			    (long long)st.take.signalled,
			    (long long)st.take.cancelled, st.take.host,
			    (long long)st.take.seen, st.take.seen_host,
			    (long long)W.skew_cron, (long long)W.skew_s);
	}
	W.taker = taker;
	note("cron %d: %d %s%s%s %s", c, rv, rv >= 0 && r.decision ?
	    r.decision : "", rv < 0 ? " " : "", rv < 0 ? diag.msg : "",
	    W.verbose > 1 && rv >= 0 ? r.a.why : "");
	if (W.verbose > 1 && rv >= 0 && *r.a.note)
		note("cron %d: (%s)", c, r.a.note);
	W.skew = skew;
	W.actor = actor;
}

/* a cron run: the nightly's table written, the cluster resized, then
 * each chain's line */
static void
cron_run(void)
{
	int c;

	if (W.table && W.table_at && W.t >= W.table_at) {
		W.table_at = chance(50) ? W.t + pick(CRON, HORIZON) : 0;
		table_write((int)pick(0, 9));
	}
	if (W.resize_at && W.t >= W.resize_at) {
		W.resize_at = 0;
		W.nodes += chance(50) ? 1 : -1;
		note("cluster: %d nodes", W.nodes);
	}
	for (c = 0; c < W.nchains; c++)
		cron_chain(c);
}

/* S's script: its take-over, then the service, or it leaves */
static void
takeover(struct sjob *s)
{
	struct mg_drive d;
	struct mg_diag diag = { "" };
	char id[16], msg[1024] = "";
	int64_t skew = W.skew;
	int rv, taker, actor = W.actor, outer = -1;

	s->pending_takeover = 0;
	/* run inside another chain's take-over: that one waits meanwhile */
	if (W.depth > 0 && actor >= 0 && actor < 2 && actor != s->owner &&
	    W.nest_from[actor] == 0) {
		outer = actor;
		W.nest_from[outer] = W.t;
	}
	W.actor = s->owner;
	conf(&d, s->owner);
	W.skew = W.skew_s;
	d.host = "node";
	snprintf(id, sizeof(id), "%d", s->pred);
	W.depth++;
	taker = W.taker;
	W.taker = s->id;
	rv = mg_drive_takeover(&d, id, msg, sizeof(msg), &diag);
	W.taker = taker;
	W.actor = actor;
	W.depth--;
	W.skew = skew;
	if (outer >= 0) {
		W.starved[outer] += W.t - W.nest_from[outer];
		W.nest_from[outer] = 0;
	}
	note("take-over by %d: %d %s", s->id, rv, rv < 0 ? diag.msg : msg);
	/* the template: 0 and 15 go on, anything else leaves */
	if (rv != MG_DRIVE_TAKEN && rv != MG_DRIVE_UNSURE && s->st == RUN)
		end_job(s, "FAILED", W.t);
}

/* what is due now: a cron run, the take-overs of jobs that started */
static void
run_due(void)
{
	int k;

	if (W.depth > 2)
		return;
	if (W.t >= W.next_cron) {
		W.next_cron += CRON;
		cron_run();
		check();
	}
	for (k = 0; k < W.n; k++)
		if (W.job[k].st == RUN && W.job[k].pending_takeover) {
			takeover(&W.job[k]);
			check();
		}
}

/* one schedule, drawn from seed: 0 if every invariant held */
static int
schedule(uint64_t seed, const char *dir)
{
	const struct passwd *pw;
	struct sjob *p0;
	int k;

	memset(&W, 0, sizeof(W));
	W.verbose = getenv("MIRAGE_SOAK_TRACE") ? atoi(getenv(
	    "MIRAGE_SOAK_TRACE")) : 0;
	if ((pw = getpwuid(getuid())) != NULL)
		snprintf(W.user, sizeof(W.user), "%s", pw->pw_name);
	W.rng = seed * 0x9E3779B97F4A7C15ULL + 1;
	W.t = T0;
	W.next_id = 1;
	snprintf(W.dir, sizeof(W.dir), "%s", dir);
	/* a second chain in the same directory, its own script and state */
	W.nchains = chance(25) ? 2 : 1;
	for (k = 0; k < 2; k++) {
		snprintf(W.state[k], sizeof(W.state[k]), "%s/%s.chain", dir,
		    k ? "other.sh" : "link.sh");
		unlink(W.state[k]);
	}
	W.ndown = (int)pick(0, 3);
	for (k = 0; k < W.ndown; k++) {
		W.down_from[k] = T0 + pick(0, HORIZON);
		W.down_to[k] = W.down_from[k] + pick(10, 900);
	}
	W.lost_pct = chance(50) ? (int)pick(1, 10) : 0;
	W.refuse_pct = chance(30) ? (int)pick(1, 10) : 0;
	W.lag = chance(30) ? pick(0, 2400) : 0;
	/* the hosts' clocks: the cron host's and the nodes' apart */
	W.skew_cron = chance(20) ? pick(-1200, 1200) : 0;
	W.skew_s = chance(20) ? pick(-1200, 1200) : 0;
	W.first_run[0] = W.first_run[1] = 1;
	W.taker = -1;
	/* the options that hold a successor: a minimum run (sbatch
	 * --begin, which this Slurm honours), a low priority (--nice) */
	W.min_run = chance(30) ? (double[]){ 0.25, 0.5, 0.9 }[pick(0, 2)] : 0;
	W.low = chance(30);
	/* what decides: a fixed lead, the planner on the history; from a
	 * table a nightly run writes again (anything it might write), on
	 * a cluster that may grow or shrink by a node */
	W.nodes = 8;
	W.plan = chance(10);
	W.table = chance(30);
	if (W.table) {
		table_write(W.plan ? 3 : (int)pick(0, 1));
		W.table_at = T0 + pick(CRON, HORIZON);
		W.resize_at = chance(30) ? T0 + pick(CRON, HORIZON) : 0;
	}
	W.next_cron = T0 + pick(1, CRON);
	note("seed %llu: %d chain%s%s%s, min run %g%s", (unsigned long long)
	    seed, W.nchains, W.nchains > 1 ? "s" : "", W.plan ? ", plan" : "",
	    W.table ? ", table" : "", W.min_run, W.low ? ", low" : "");
	/* each chain's first job, started by hand */
	for (k = 0; k < W.nchains; k++) {
		p0 = &W.job[W.n++];
		p0->id = W.next_id++;
		p0->chain = 1;
		p0->owner = k;
		p0->submit = T0 - 60;
		start_job(p0, T0);
		p0->ignores = chance(15);
		p0->ckpt = (int)pick(5, 120);
	}
	while (W.t < T0 + HORIZON && !*W.broke) {
		int64_t e = next_event(), to = W.next_cron;

		if (e < to)
			to = e;
		advance(to);
		check();
		run_due();
	}
	return *W.broke != '\0';
}

int
main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : getenv("MIRAGE_SOAK") ?
	    atol(getenv("MIRAGE_SOAK")) : 1000;
	uint64_t first = argc > 2 ? strtoull(argv[2], NULL, 10) : 1, s;
	struct mg_clock_hook h = { clock_now, clock_sleep, NULL };
	char dir[] = "/dev/shm/t_soak.XXXXXX";
	long failed = 0, k;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	mg_proc_set_fake(fake, NULL);
	mg_clock_set_hook(&h);
	for (s = first; s < first + (uint64_t)count; s++) {
		if (schedule(s, dir) == 0)
			continue;
		if (failed++ >= 5)
			printf("# seed %llu: %s\n", (unsigned long long)s,
			    W.broke);
		else {
			printf("# seed %llu: %s; its last steps:\n",
			    (unsigned long long)s, W.broke);
			for (k = W.ntrace > 40 ? W.ntrace - 40 : 0; k < W.ntrace;
			    k++)
				printf("#   %s\n", W.trace[k % 64]);
		}
	}
	mg_clock_set_hook(NULL);
	mg_proc_set_fake(NULL, NULL);
	for (k = 0; k < 5; k++) {
		snprintf(W.dir, sizeof(W.dir), "%s/%s", dir, (const char *[]){
		    "link.sh.chain", "link.sh.chain.lock", "other.sh.chain",
		    "other.sh.chain.lock", "table.tsv" }[k]);
		unlink(W.dir);
	}
	rmdir(dir);
	ok(failed == 0, "soak: %ld schedules from seed %llu, %ld broke an "
	    "invariant", count, (unsigned long long)first, failed);
	return tap_done();
}
