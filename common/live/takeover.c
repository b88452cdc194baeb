/*
 * takeover.c: the successor takes over from its predecessor; see
 * takeover.h and mirage-advise(1) (--take-over).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "live/takeover.h"
#include "base/clock.h"
#include "base/proc.h"
#include "live/slurm.h"

static int mg_takeover_state_at(const struct mg_takeover *t, char *user,
    size_t ucap, char *start, size_t scap, char *note, size_t cap);

#define TIMEOUT		60	/* seconds allowed to one Slurm command */
#define SETTLE		120	/* s a completing P is watched for a requeue */
#define INVALID		"Invalid job id"	/* squeue: not in the queue */
#define UNDELIVERED_TRIES 3	/* a request Slurm refused, sent at once */
#define UNDELIVERED_PAUSE 5	/* s between them */

/* run argv, tries times at most (1 s, 2 s, ... apart); its output, or
 * NULL with note set */
static char *
run(const char *const argv[], int tries,
    char *note, size_t cap)
{
	struct mg_slurm sl;
	size_t len;

	memset(&sl, 0, sizeof(sl));
	sl.timeout = TIMEOUT;
	sl.tries = tries;
	/* "Invalid job id" is an answer: the job left the queue */
	return mg_slurm_ask(&sl, argv, INVALID, &len, note, cap);
}

static void
warn(const struct mg_takeover *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
warn(const struct mg_takeover *t, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (t->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->warn(t->arg, msg);
}

/* a state word's class: 1 holds its nodes, 3 completing, 2 pending, 0
 * ended, -1 none or unknown */
static int
klass(const char *s, size_t n)
{
	static const char *const hold[] = { "RUNNING", "CONFIGURING",
	    "SUSPENDED", "STOPPED", "RESIZING", "SIGNALING", NULL };
	static const char *const leave[] = { "COMPLETING", "STAGE_OUT",
	    NULL };
	static const char *const wait[] = { "PENDING", "REQUEUED",
	    "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD", "SPECIAL_EXIT",
	    NULL };
	static const char *const ended[] = { "COMPLETED", "CANCELLED",
	    "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
	    "DEADLINE", "OUT_OF_MEMORY", "REVOKED", NULL };
	int i;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n'))
		n--;
	if (n == 0)
		return -1;
	for (i = 0; hold[i]; i++)
		if (strlen(hold[i]) == n && strncmp(s, hold[i], n) == 0)
			return 1;
	for (i = 0; leave[i]; i++)
		if (strlen(leave[i]) == n && strncmp(s, leave[i], n) == 0)
			return 3;
	for (i = 0; wait[i]; i++)
		if (strlen(wait[i]) == n && strncmp(s, wait[i], n) == 0)
			return 2;
	for (i = 0; ended[i]; i++)
		if (strlen(ended[i]) == n && strncmp(s, ended[i], n) == 0)
			return 0;
	return -1;	/* a word this take-over does not know: no answer */
}

/* the lines that say something */
static int
count_lines(const char *s)
{
	int n = 0, text = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			n += text;
			text = 0;
		} else if (*s != ' ' && *s != '\r')
			text = 1;
	}
	return n + text;
}

/* a line's class and user: "ID|STATE|USER" ("CANCELLED by 0": the
 * first word of the state) */
static int
line_class(const char *line, size_t len, char *user, size_t ucap,
    char *start, size_t scap)
{
	const char *st = memchr(line, '|', len), *u, *sp, *b;
	size_t n;

	if (st == NULL)
		return -1;
	st++;
	n = strcspn(st, "|\n");
	if ((sp = memchr(st, ' ', n)) != NULL)
		n = (size_t)(sp - st);
	if ((u = memchr(st, '|', len - (size_t)(st - line))) != NULL) {
		u++;
		snprintf(user, ucap, "%.*s", (int)strcspn(u, "|\n"), u);
		if ((b = memchr(u, '|', len - (size_t)(u - line))) != NULL) {
			b++;
			snprintf(start, scap, "%.*s", (int)strcspn(b,
			    "|\n"), b);
		}
	}
	return klass(st, n);
}

/*
 * the lines "ID|STATE|USER" of out, for job: one line's class; a
 * heterogeneous job's components (job+0, job+1, ...) as one job, in
 * the class of the one that holds on longest (running, completing,
 * pending, ended); -2 when the lines are other jobs too (an array's
 * tasks)
 */
static int
lines_state(const char *out, const char *job, char *user, size_t ucap,
    char *start, size_t scap)
{
	static const int rank[] = { 1, 4, 2, 3 };	/* by class 0..3 */
	size_t jn = strlen(job), len;
	const char *line;
	int c, best = -1, lines = count_lines(out);

	for (line = out; *line; line += len + (line[len] == '\n')) {
		len = strcspn(line, "\n");
		if (strspn(line, " \r") >= len)
			continue;
		if (lines > 1 && !(strncmp(line, job, jn) == 0 &&
		    line[jn] == '+'))
			return -2;
		c = line_class(line, len, user, ucap, start, scap);
		if (c >= 0 && (best < 0 || rank[c] > rank[best]))
			best = c;
		else if (c < 0 && best < 0)
			best = -1;
	}
	return best;
}

/*
 * mg_takeover_state: P's state as squeue and sacct show it: 1 running
 * (or suspended), 2 pending, 3 completing (its processes have ended), 0
 * gone (ended, or unknown to both), -1 with note saying why it cannot be
 * told, or -2 when the id names several jobs (an array's tasks).  user
 * gets P's user ("" if not shown).
 */
static int
mg_takeover_state(const struct mg_takeover *t, char *user, size_t ucap,
    char *note, size_t cap)
{
	char start[32];

	return mg_takeover_state_at(t, user, ucap, start, sizeof(start),
	    note, cap);
}

/* mg_takeover_state_at: the same, and P's start time as squeue or sacct
 * prints it into start ("" if not shown) */
static int
mg_takeover_state_at(const struct mg_takeover *t, char *user, size_t ucap,
    char *start, size_t scap, char *note, size_t cap)
{
	const char *sq[] = { t->squeue, "-h", "-j", t->job, "-o",
	    "%i|%T|%u|%S", NULL };
	const char *sa[] = { t->sacct, "-X", "-n", "-P", "-j", t->job, "-o",
	    "JobID,State,User,Start", NULL };
	char *out, why[512] = "";
	int c = -1, invalid = 0;

	*user = '\0';
	*start = '\0';
	if ((out = run(sq, t->tries, why, sizeof(why))) != NULL) {
		c = lines_state(out, t->job, user, ucap, start, scap);
		free(out);
		/* running, pending, completing, or shown ended by the
		 * controller itself */
		if (c != -1)
			return c;
	} else
		invalid = strstr(why, INVALID) != NULL;
	/*
	 * Not in squeue's answer (empty, or "Invalid job id": the
	 * controller forgot it), or squeue down: sacct says.
	 */
	if ((out = run(sa, t->tries, note, cap)) == NULL) {
		if (invalid)
			return 0;	/* the controller's answer will do */
		if (*why)
			snprintf(note + strlen(note), cap - strlen(note), "; %s",
			    why);
		return -1;
	}
	c = lines_state(out, t->job, user, ucap, start, scap);
	free(out);
	if (c == -2)
		return c;
	if (invalid)
		/* the controller knows no such job: what the accounting
		 * still shows running is a record not yet closed */
		return 0;
	if (c < 0) {
		/* in no record, and squeue did not answer for it: P may be
		 * too new for the accounting */
		snprintf(note, cap, "squeue %s, and sacct has no record of "
		    "job %s", *why ? why : "shows nothing", t->job);
		return -1;
	}
	if (c == 2) {
		/* pending by an accounting that may lag (P requeued and
		 * started again since): no ground to cancel it */
		snprintf(note, cap, "squeue %s, and sacct, which may lag, "
		    "shows job %s pending", *why ? why : "shows nothing",
		    t->job);
		return -1;
	}
	return c;
}

/* the time by which the take-over is over, whatever Slurm says */
static int64_t
end_by(const struct mg_takeover *t, const struct mg_takeover_rec *rec)
{
	if (rec->cancelled > 0)
		return rec->cancelled + t->kill_wait;
	return rec->signalled + t->grace + t->kill_wait;
}

static void
stamp(int64_t t, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL || strftime(buf, cap,
	    "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(buf, cap, "%lld", (long long)t);
}

/* claim step for rec: 1 go on, 0 done by another (rec is theirs) */
static int
claim(const struct mg_takeover *t, enum mg_takeover_step step,
    struct mg_takeover_rec *rec)
{
	struct mg_takeover_rec mine = *rec;
	int rv;

	if (t->claim == NULL)
		return 1;
	if ((rv = t->claim(t->arg, step, rec)) >= 0)
		return rv;
	*rec = mine;
	warn(t, "the take-over of job %s cannot be recorded in the chain's "
	    "state: a take-over run at the same time may act too", t->job);
	return 1;
}

/* a claim released: the step did not reach Slurm */
static void
release(const struct mg_takeover *t, enum mg_takeover_step step,
    struct mg_takeover_rec *rec)
{
	struct mg_takeover_rec mine = *rec;

	if (t->claim != NULL && t->claim(t->arg, step, rec) >= 0)
		return;
	*rec = mine;
	if (step == MG_TAKEOVER_UNSIGNAL) {
		rec->signalled = 0;
		rec->seen = 0;
		*rec->seen_host = '\0';
		*rec->p_start = '\0';
	} else
		rec->cancelled = 0;
}

/* rec's times are this run's to stamp: the first stamp names the host */
static void
mine(const struct mg_takeover *t, struct mg_takeover_rec *rec)
{
	if (*rec->host == '\0' && t->host != NULL)
		snprintf(rec->host, sizeof(rec->host), "%s", t->host);
}

/*
 * now on the clock of rec's host, as far as this host can tell without
 * running ahead of it: its own clock if it is that host, else the
 * signal's time plus the time since this host first saw it (recorded)
 */
static int64_t
rec_now(const struct mg_takeover *t, struct mg_takeover_rec *rec,
    int64_t now)
{
	if (rec->signalled == 0 || *rec->host == '\0' || t->host == NULL ||
	    strcmp(rec->host, t->host) == 0)
		return now;
	if (rec->seen == 0 || strcmp(rec->seen_host, t->host) != 0) {
		rec->seen = now;
		snprintf(rec->seen_host, sizeof(rec->seen_host), "%s",
		    t->host);
		(void)claim(t, MG_TAKEOVER_SEEN, rec);
		if (strcmp(rec->seen_host, t->host) != 0)
			return rec->signalled;	/* another's: wait */
	}
	return rec->signalled + (now - rec->seen);
}

/* cancel P (retried: a cancel is idempotent); 0 or -1 with why set */
static int
cancel(const struct mg_takeover *t, char *why, size_t cap)
{
	const char *kill[] = { t->scancel, t->job, NULL };
	char *out;

	if ((out = run(kill, t->tries, why, cap)) == NULL)
		return -1;
	free(out);
	return 0;
}

/* P pending, cancelled only while it is: one Slurm starts between the
 * look and the cancel is left to be signalled (scancel --state) */
static int
cancel_pending(const struct mg_takeover *t, char *why, size_t cap)
{
	const char *kill[] = { t->scancel, "--state=PENDING", t->job, NULL };
	char *out;

	if ((out = run(kill, t->tries, why, cap)) == NULL)
		return -1;
	free(out);
	return 0;
}

/* P pending: cancelled (after the signal: it requeued itself) */
static int
step_pending(const struct mg_takeover *t, struct mg_takeover_rec *rec,
    int64_t now, int *outcome, char *note, size_t cap, struct mg_diag *d)
{
	char why[512] = "", user[64], n2[256];
	int requeued = rec->signalled > 0, rc, c;

	rec->cancelled = now;
	mine(t, rec);
	(void)claim(t, MG_TAKEOVER_CANCEL, rec);
	rc = cancel_pending(t, why, sizeof(why));
	c = mg_takeover_state(t, user, sizeof(user), n2, sizeof(n2));
	if (rc == 0 && c == 1) {
		/* it started meanwhile: the cancel left it, the next
		 * step signals it (a run after a signal, anew) */
		release(t, MG_TAKEOVER_UNCANCEL, rec);
		if (requeued)
			release(t, MG_TAKEOVER_UNSIGNAL, rec);
		*outcome = MG_TAKEOVER_WAITING;
		snprintf(note, cap, "job %s started just as it was cancelled: "
		    "it is signalled at the next step", t->job);
		return 0;
	}
	if (rc != 0 && c != 0) {
		if (!requeued)
			return mg_diag_set(d, MG_EIO, "cannot cancel job %s, "
			    "pending: %s", t->job, why);
		/* if it starts again, that run is signalled anew: the
		 * signal went to the one before */
		release(t, MG_TAKEOVER_UNCANCEL, rec);
		release(t, MG_TAKEOVER_UNSIGNAL, rec);
		*outcome = MG_TAKEOVER_UNSURE;
		snprintf(note, cap, "job %s went back to pending after "
		    "SIG%s (it requeues itself) and cannot be cancelled: %s",
		    t->job, t->signal, why);
		return 0;
	}
	*outcome = requeued ? MG_TAKEOVER_REQUEUED : MG_TAKEOVER_UNSTARTED;
	snprintf(note, cap, requeued ? "job %s went back to pending after "
	    "SIG%s (it requeues itself): cancelled" : "job %s had not "
	    "started: cancelled", t->job, t->signal);
	return 0;
}

/* P running: signalled once, cancelled after the grace */
static int
step_running(const struct mg_takeover *t, struct mg_takeover_rec *rec,
    int64_t now, int *outcome, char *note, size_t cap)
{
	char sig[64], why[512] = "", user[64], n2[256], at[32];
	char p_start[sizeof(rec->p_start)];
	const char *sc[] = { t->scancel, sig, t->full ? "--full" : "--batch",
	    t->job, NULL };
	int64_t t0;
	char *out;
	int k;

	*outcome = MG_TAKEOVER_WAITING;
	/* the run signalled is the one this step saw: a signal sent again
	 * after one that did not reach Slurm (whose release cleared it)
	 * records that run's start too */
	memcpy(p_start, rec->p_start, sizeof(p_start));
	for (k = 1, t0 = mg_clock_now(); rec->signalled == 0; k++) {
		/* stamped, and claimed, as it is sent */
		rec->signalled = now + mg_clock_now() - t0;
		if (*rec->p_start == '\0')
			memcpy(rec->p_start, p_start, sizeof(p_start));
		snprintf(rec->host, sizeof(rec->host), "%s", t->host ?
		    t->host : "");
		rec->seen = 0;
		*rec->seen_host = '\0';
		if (claim(t, MG_TAKEOVER_SIGNAL, rec) == 0 &&
		    rec->signalled > 0) {
			stamp(rec->signalled, at, sizeof(at));
			snprintf(note, cap, "job %s was sent SIG%s at %s by "
			    "another take-over", t->job, t->signal, at);
			return 0;
		}
		snprintf(sig, sizeof(sig), "--signal=%s", t->signal);
		/* once: a signal whose answer was lost is not sent again */
		if ((out = run(sc, 1, why, sizeof(why))) != NULL) {
			free(out);
			snprintf(note, cap, "job %s was sent SIG%s", t->job,
			    t->signal);
		} else if (mg_slurm_undelivered(why) && k < UNDELIVERED_TRIES) {
			/* not acted on: sent again at once (a few seconds
			 * apart), and stamped anew */
			release(t, MG_TAKEOVER_UNSIGNAL, rec);
			mg_clock_sleep(UNDELIVERED_PAUSE, MG_CLOCK_RETRY);
			continue;
		} else if (mg_slurm_undelivered(why)) {
			/* it never reached the controller: the record holds
			 * what Slurm confirmed, and a later step sends it */
			release(t, MG_TAKEOVER_UNSIGNAL, rec);
			warn(t, "job %s: the signal did not reach Slurm (%s); "
			    "it is sent again at the next step", t->job, why);
			snprintf(note, cap, "job %s was not signalled yet",
			    t->job);
		} else if (mg_takeover_state(t, user, sizeof(user), n2,
		    sizeof(n2)) == 1) {
			warn(t, "job %s: the signal failed, or its answer was "
			    "lost (%s); it is not sent again: job %s is "
			    "cancelled if it still runs %lld s from now",
			    t->job, why, t->job, (long long)t->grace);
			snprintf(note, cap, "job %s may not have had SIG%s",
			    t->job, t->signal);
		} else
			/* a job that was ending refuses the signal */
			snprintf(note, cap, "job %s was ending", t->job);
		return 0;
	}
	if (now < rec->signalled + t->grace) {
		snprintf(note, cap, "job %s has had SIG%s for %lld s of its "
		    "%lld s", t->job, t->signal, (long long)(now -
		    rec->signalled), (long long)t->grace);
		return 0;
	}
	if (rec->cancelled == 0) {
		rec->cancelled = now;
		mine(t, rec);
		if (claim(t, MG_TAKEOVER_CANCEL, rec) == 0 &&
		    rec->cancelled > 0) {
			snprintf(note, cap, "job %s was cancelled by another "
			    "take-over", t->job);
			return 0;
		}
		if (cancel(t, why, sizeof(why)) != 0 &&
		    mg_takeover_state(t, user, sizeof(user), n2,
		    sizeof(n2)) != 0) {
			/* not confirmed, and P may run: the claim goes, and
			 * the next step cancels again */
			release(t, MG_TAKEOVER_UNCANCEL, rec);
			warn(t, "job %s still runs %lld s after SIG%s and "
			    "the cancel failed (%s): it is cancelled again at "
			    "the next step", t->job,
			    (long long)(now - rec->signalled), t->signal, why);
			if (now >= rec->signalled + t->grace + t->kill_wait)
				*outcome = MG_TAKEOVER_UNSURE;
			snprintf(note, cap, "job %s still runs after its grace "
			    "of %lld s after SIG%s, and Slurm did not take the "
			    "cancel", t->job, (long long)t->grace, t->signal);
			return 0;
		}
		snprintf(note, cap, "job %s still ran after its grace of %lld "
		    "s after SIG%s: cancelled", t->job, (long long)t->grace,
		    t->signal);
		return 0;
	}
	if (now < rec->cancelled + t->kill_wait) {
		snprintf(note, cap, "job %s was cancelled %lld s ago", t->job,
		    (long long)(now - rec->cancelled));
		return 0;
	}
	*outcome = MG_TAKEOVER_UNSURE;
	snprintf(note, cap, "job %s still runs %lld s after it was cancelled",
	    t->job, (long long)(now - rec->cancelled));
	return 0;
}

/*
 * P's state into *c (as mg_takeover_state(); -1 with why set when it
 * cannot be told), or MG_EINVAL with d set: P names several jobs, or is
 * another user's job to be acted on
 */
static int
look(const struct mg_takeover *t, int *c, char *start, size_t scap,
    char *why, size_t cap, struct mg_diag *d)
{
	char user[64];

	*c = mg_takeover_state_at(t, user, sizeof(user), start, scap, why,
	    cap);
	if (*c == -2)
		return mg_diag_set(d, MG_EINVAL, "job %s names several jobs "
		    "(an array's tasks): name the one to stop, as %s_7",
		    t->job, t->job);
	if ((*c == 1 || *c == 2) && *user && t->user && *t->user &&
	    strcmp(user, t->user) != 0)
		return mg_diag_set(d, MG_EINVAL, "job %s belongs to %s, not to "
		    "%s: another user's job is not signalled", t->job, user,
		    t->user);
	return 0;
}

/* two starts of P as the controller printed them: the same, unless both
 * are in one format (epoch seconds, or a date) and differ; a record
 * kept in the other format cannot tell a new start */
static int
same_start(const char *a, const char *b)
{
	int ea = a[strspn(a, "0123456789")] == '\0';
	int eb = b[strspn(b, "0123456789")] == '\0';

	return ea != eb || strcmp(a, b) == 0;
}

int
mg_takeover_step(const struct mg_takeover *t, struct mg_takeover_rec *rec,
    int64_t now, int *outcome, char *note, size_t cap, struct mg_diag *d)
{
	char why[1024] = "", at[32], start[32];
	int64_t t0 = mg_clock_now();
	int c, rv;

	*outcome = MG_TAKEOVER_WAITING;
	*note = '\0';
	if ((rv = look(t, &c, start, sizeof(start), why, sizeof(why),
	    d)) != 0)
		return rv;
	/*
	 * P started again since its signal (Slurm requeued it): the
	 * signal went to the run before, and this one is signalled anew.
	 * The start is the controller's (one clock for both).
	 */
	if (c == 1 && rec->signalled > 0 && *rec->p_start && *start &&
	    !same_start(start, rec->p_start)) {
		if (rec->cancelled > 0)
			release(t, MG_TAKEOVER_UNCANCEL, rec);
		release(t, MG_TAKEOVER_UNSIGNAL, rec);
		warn(t, "job %s started again since its signal: it is "
		    "signalled anew", t->job);
	}
	if (!(rec->signalled > 0 && *rec->p_start))
		snprintf(rec->p_start, sizeof(rec->p_start), "%.23s", start);
	/* a signal or a cancel is stamped when it is sent: Slurm may
	 * have taken its time to answer (commands tried again); on the
	 * clock of the host that signalled */
	now = rec_now(t, rec, now + mg_clock_now() - t0);
	if (c < 0) {
		if (rec->signalled == 0)
			return mg_diag_set(d, MG_EIO, "cannot tell whether job "
			    "%s runs: %s; it was not signalled", t->job, why);
		stamp(rec->signalled, at, sizeof(at));
		if (now >= end_by(t, rec))
			*outcome = MG_TAKEOVER_UNSURE;
		snprintf(note, cap, "job %s was sent SIG%s at %s%s; whether it "
		    "has left cannot be told: %s", t->job, t->signal, at,
		    rec->cancelled ? " and cancelled" : "", why);
		return 0;
	}
	switch (c) {
	case 0:
		*outcome = rec->cancelled ? MG_TAKEOVER_CANCELLED :
		    rec->signalled ? MG_TAKEOVER_LEFT : MG_TAKEOVER_GONE;
		if (*outcome == MG_TAKEOVER_GONE)
			snprintf(note, cap, "job %s has ended (or Slurm knows "
			    "no such job): nothing to take over", t->job);
		else if (*outcome == MG_TAKEOVER_LEFT)
			snprintf(note, cap, "job %s was sent SIG%s and left "
			    "within its grace of %lld s", t->job, t->signal,
			    (long long)t->grace);
		else
			snprintf(note, cap, "job %s still ran after its grace "
			    "of %lld s after SIG%s: cancelled", t->job,
			    (long long)t->grace, t->signal);
		return 0;
	case 3:
		/* its processes have ended; after the signal it is watched
		 * a while, in case it requeues itself */
		if (rec->signalled == 0) {
			*outcome = MG_TAKEOVER_GONE;
			snprintf(note, cap, "job %s is completing (it ended on "
			    "its own): nothing to take over", t->job);
		} else if (now >= rec->signalled + (t->grace < SETTLE ?
		    t->grace : SETTLE) || now >= end_by(t, rec)) {
			*outcome = rec->cancelled ? MG_TAKEOVER_CANCELLED :
			    MG_TAKEOVER_LEFT;
			snprintf(note, cap, "job %s was sent SIG%s%s and is "
			    "completing (its processes have ended)", t->job,
			    t->signal, rec->cancelled ? ", then cancelled," :
			    "");
		} else
			snprintf(note, cap, "job %s is completing", t->job);
		return 0;
	case 2:
		return step_pending(t, rec, now, outcome, note, cap, d);
	default:
		return step_running(t, rec, now, outcome, note, cap);
	}
}

/* S's check, run until it passes: 1 ready, 0 not within the time */
static int
ready(const struct mg_takeover *t, char *why, size_t cap)
{
	const char *argv[] = { "/bin/sh", "-c", t->ready, NULL };
	int64_t until = mg_clock_now() + t->ready_time;
	struct mg_diag d = { "" };
	struct mg_proc p;
	int left, st = -1;

	for (;;) {
		left = (int)(until - mg_clock_now());
		/* a check that hangs is killed with its children; what it
		 * prints is not kept */
		if (mg_proc_runf(argv, NULL, left > 1 ? left : 1,
		    MG_PROC_GROUP | MG_PROC_NOOUT, &p, &d) == 0) {
			st = p.status;
			snprintf(why, cap, "%s", st == 0 ? "" : p.timedout ?
			    "it was still running" : *p.err ? p.err :
			    "it failed with no message");
			mg_proc_release(&p);
			if (st == 0)
				return 1;
		} else
			snprintf(why, cap, "%s", d.msg);
		if (mg_clock_now() >= until)
			return 0;
		mg_clock_sleep(t->poll > 0 ? t->poll : 1, MG_CLOCK_POLL);
	}
}

int
mg_takeover_run(const struct mg_takeover *t, struct mg_takeover_rec *rec,
    int *outcome, char *note, size_t cap, struct mg_diag *d)
{
	char user[64], why[512] = "";
	int64_t now = mg_clock_now(), blind_until;
	int rv, blind = 0;

	if (*rec->job == '\0' || strcmp(rec->job, t->job) != 0) {
		memset(rec, 0, sizeof(*rec));
		snprintf(rec->job, sizeof(rec->job), "%s", t->job);
	}
	if (rec->began == 0) {
		rec->began = now;
		rec->until = now + (t->ready ? t->ready_time : 0) + t->grace +
		    t->kill_wait + 60;
		(void)claim(t, MG_TAKEOVER_BEGIN, rec);
	}
	/* the serving order: S ready before a running P is signalled; a
	 * P that ended while S loaded leaves nothing to hand over from
	 * (the steps below find it gone, and S goes on) */
	if (t->ready != NULL && rec->signalled == 0 &&
	    mg_takeover_state(t, user, sizeof(user), why, sizeof(why)) == 1 &&
	    !ready(t, why, sizeof(why)) && (rv = mg_takeover_state(t, user,
	    sizeof(user), note, cap)) != 0 && rv != 3) {
		*outcome = MG_TAKEOVER_NOTREADY;
		snprintf(note, cap, "the successor's check '%s' did not pass "
		    "within %lld s (%.200s): job %s was left running", t->ready,
		    (long long)t->ready_time, why, t->job);
		return 0;
	}
	blind_until = mg_clock_now() + t->grace;
	for (;;) {
		now = mg_clock_now();
		rv = mg_takeover_step(t, rec, now, outcome, note, cap, d);
		/*
		 * Slurm unreadable before P was signalled: not knowing is
		 * not failing (S would leave and be counted as a failed
		 * successor); looked at again for as long as P's grace
		 * (after S's readiness), said once.
		 */
		if (rv == MG_EIO && rec->signalled == 0 &&
		    rec->cancelled == 0 && now < blind_until) {
			if (!blind++)
				warn(t, "%s; looking again every %lld s for %lld "
				    "s", d->msg, (long long)(t->poll > 0 ? t->poll :
				    1), (long long)(blind_until - now));
			mg_clock_sleep(t->poll > 0 ? t->poll : 1,
			    MG_CLOCK_POLL);
			continue;
		}
		if (rv != 0 || *outcome != MG_TAKEOVER_WAITING)
			return rv;
		mg_clock_sleep(t->poll > 0 ? t->poll : 1, MG_CLOCK_POLL);
	}
}

int
mg_takeover_plan(const struct mg_takeover *t,
    const struct mg_takeover_rec *rec, char *note, size_t cap,
    struct mg_diag *d)
{
	char why[1024] = "", start[32];
	int c, rv;

	if ((rv = look(t, &c, start, sizeof(start), why, sizeof(why),
	    d)) != 0)
		return rv;
	if (c < 0)
		return mg_diag_set(d, MG_EIO, "cannot tell whether job %s "
		    "runs: %s", t->job, why);
	if (c == 0 || c == 3)
		snprintf(note, cap, "dry run: job %s %s: nothing would be "
		    "done", t->job, c ? "is completing" : "has ended");
	else if (c == 2)
		snprintf(note, cap, "dry run: job %s is pending: it would be "
		    "cancelled", t->job);
	else if (rec->signalled > 0)
		snprintf(note, cap, "dry run: job %s runs and was signalled "
		    "already: it would be cancelled if it still ran %lld s "
		    "after that", t->job, (long long)t->grace);
	else
		snprintf(note, cap, "dry run: job %s runs: %swould be sent "
		    "SIG%s, and cancelled if it still ran %lld s later",
		    t->job, t->ready ? "once the successor's check passes it " :
		    "it ", t->signal, (long long)t->grace);
	return 0;
}

int
mg_takeover_jobid(const char *id)
{
	size_t n = strspn(id, "0123456789"), m;

	if (n == 0 || n > 10 || *id == '0')
		return 0;
	id += n;
	if (*id == '_' || *id == '+') {
		m = strspn(id + 1, "0123456789");
		if (m == 0 || m > 10)
			return 0;
		id += 1 + m;
	}
	return *id == '\0';
}

int
mg_takeover_signal(const char *s)
{
	static const char *const names[] = { "HUP", "INT", "QUIT", "ABRT",
	    "KILL", "USR1", "USR2", "PIPE", "ALRM", "TERM", "CONT", "STOP",
	    "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF",
	    "WINCH", "IO", "PWR", "SYS", NULL };
	size_t n;
	int i;

	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	n = strspn(s, "0123456789");
	if (n > 0 && s[n] == '\0')
		return n <= 2 && atoi(s) >= 1 && atoi(s) <= 64;
	for (i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0)
			return 1;
	return 0;
}

int
mg_takeover_merge(struct mg_takeover_rec *cur, enum mg_takeover_step step,
    struct mg_takeover_rec *rec)
{
	int done = 0;

	if (step == MG_TAKEOVER_UNSIGNAL || step == MG_TAKEOVER_UNCANCEL ||
	    step == MG_TAKEOVER_SEEN) {
		if (strcmp(cur->job, rec->job) != 0)
			;
		else if (step == MG_TAKEOVER_UNSIGNAL &&
		    cur->signalled == rec->signalled) {
			cur->signalled = cur->seen = 0;
			*cur->seen_host = '\0';
			*cur->p_start = '\0';
		} else if (step == MG_TAKEOVER_UNCANCEL &&
		    cur->cancelled == rec->cancelled)
			cur->cancelled = 0;
		else if (step == MG_TAKEOVER_SEEN &&
		    cur->signalled == rec->signalled && cur->seen == 0) {
			cur->seen = rec->seen;
			memcpy(cur->seen_host, rec->seen_host,
			    sizeof(cur->seen_host));
		}
		*rec = *cur;
		return 1;
	}
	if (strcmp(cur->job, rec->job) == 0) {
		done = (step == MG_TAKEOVER_BEGIN && cur->began > 0) ||
		    (step == MG_TAKEOVER_SIGNAL && cur->signalled > 0) ||
		    (step == MG_TAKEOVER_CANCEL && cur->cancelled > 0);
		/* what the record holds stays: a step another took since
		 * this one read it is never taken again */
		if (!done && cur->began == 0) {
			cur->began = rec->began;
			cur->until = rec->until;
		}
		if (!done && cur->signalled == 0 && rec->signalled > 0) {
			cur->signalled = rec->signalled;
			memcpy(cur->host, rec->host, sizeof(cur->host));
			memcpy(cur->p_start, rec->p_start,
			    sizeof(cur->p_start));
			cur->seen = 0;
			*cur->seen_host = '\0';
		}
		if (!done && cur->cancelled == 0 && rec->cancelled > 0) {
			cur->cancelled = rec->cancelled;
			if (*cur->host == '\0')
				memcpy(cur->host, rec->host,
				    sizeof(cur->host));
		}
	} else
		*cur = *rec;
	*rec = *cur;
	return !done;
}
