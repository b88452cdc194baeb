/*
 * t_takeover.c: the take-over machine (live/takeover.h), one step at a
 * time, against a Slurm that answers as the case says: every state P can
 * be in (running, pending, completing, ended, unknown, another user's,
 * an array) with every record (not signalled, within the grace, past
 * it, cancelled), and the answers that fail (a signal that never reached
 * the controller, one whose answer was lost, a cancel refused, squeue and
 * sacct down).  Each case checks the outcome, what was sent to Slurm and
 * what the record holds after the step; and two take-overs merging
 * their steps into the record the chain's state keeps.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/proc.h"
#include "live/slurm.h"
#include "live/takeover.h"
#include "tap.h"

#define NOW	1700000000
#define GRACE	300
#define KILL	120

/* what the fake Slurm answers, and what it was asked to do */
static struct {
	const char *squeue;	/* its lines, or NULL: it fails */
	const char *squeue_err;
	const char *sacct;	/* its lines, or NULL: it fails */
	const char *scancel_err;	/* NULL: scancel succeeds */
	int scancel_once;	/* only the first scancel fails */
	int signals, cancels;	/* scancel --signal=..., scancel JOB */
	int down;		/* squeue and sacct fail this many times */
	const char *squeue_after;	/* its lines once P was cancelled */
	int64_t slept;		/* a run's sleeps move its clock */
} S;

static int
answer(struct mg_proc *p, int status, const char *out, const char *err)
{
	p->status = status;
	p->out = strdup(out ? out : "");
	p->outlen = strlen(p->out);
	p->err = calloc(1, 4097);
	snprintf(p->err, 4097, "%s", err ? err : "");
	return 0;
}

static int
fake(void *arg, const char *const argv[], const char *const env[],
    int timeout, struct mg_proc *p, struct mg_diag *d)
{
	(void)arg;
	(void)env;
	(void)timeout;
	(void)d;
	if ((strcmp(argv[0], "squeue") == 0 || strcmp(argv[0], "sacct") ==
	    0) && S.down > 0) {
		S.down--;
		return answer(p, 1, NULL, "Unable to contact slurm controller "
		    "(connect failure)");
	}
	if (strcmp(argv[0], "squeue") == 0 && S.squeue_after && S.cancels)
		return answer(p, 0, S.squeue_after, NULL);
	if (strcmp(argv[0], "squeue") == 0)
		return S.squeue ? answer(p, 0, S.squeue, NULL) :
		    answer(p, 1, NULL, S.squeue_err ? S.squeue_err :
		    "squeue: error: Unable to contact slurm controller "
		    "(connect failure)");
	if (strcmp(argv[0], "sacct") == 0)
		return S.sacct ? answer(p, 0, S.sacct, NULL) : answer(p, 1,
		    NULL, "sacct: error: Problem talking to the database: "
		    "Connection refused");
	if (strcmp(argv[0], "scancel") == 0) {
		if (strncmp(argv[1], "--signal=", 9) == 0)
			S.signals++;
		else
			S.cancels++;
		if (S.scancel_err) {
			const char *e = S.scancel_err;

			if (S.scancel_once)
				S.scancel_err = NULL;
			return answer(p, 1, NULL, e);
		}
		return answer(p, 0, "", NULL);
	}
	return answer(p, 127, NULL, "no such program");
}

static int64_t
clock_now(void *arg)
{
	(void)arg;
	return NOW + S.slept;
}

static void
clock_sleep(void *arg, int64_t s, enum mg_clock_wait why)
{
	(void)arg;
	(void)why;
	S.slept += s;
}

static struct mg_takeover T = {
	.job = "100", .squeue = "squeue", .sacct = "sacct",
	.scancel = "scancel", .signal = "USR1", .grace = GRACE,
	.kill_wait = KILL, .poll = 10, .tries = 1, .user = "alice",
	.host = "login1",
};

/* one step at now from a record with P signalled (0: not) and cancelled
 * at those times; the outcome, or -1 for an error (its status in *err) */
static int
step(int64_t signalled, int64_t cancelled, int64_t now,
    struct mg_takeover_rec *rec, int *err)
{
	struct mg_diag d = { "" };
	char note[512];
	int outcome;

	memset(rec, 0, sizeof(*rec));
	snprintf(rec->job, sizeof(rec->job), "100");
	rec->signalled = signalled;
	rec->cancelled = cancelled;
	if (signalled > 0)
		snprintf(rec->host, sizeof(rec->host), "login1");
	S.signals = S.cancels = 0;
	*err = mg_takeover_step(&T, rec, now, &outcome, note, sizeof(note),
	    &d);
	return *err != 0 ? -1 : outcome;
}

static void
slurm(const char *squeue, const char *sacct, const char *scancel_err)
{
	memset(&S, 0, sizeof(S));
	S.squeue = squeue;
	S.sacct = sacct;
	S.scancel_err = scancel_err;
}

#define RUN	"100|RUNNING|alice|2023-11-14T20:00:00\n"
#define PEND	"100|PENDING|alice|N/A\n"
#define CG	"100|COMPLETING|alice|2023-11-14T20:00:00\n"
#define DONE	"100|COMPLETED|alice|2023-11-14T20:00:00\n"

static void
running(void)
{
	struct mg_takeover_rec r;
	int err, o;

	slurm(RUN, DONE, NULL);
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.signals == 1 && S.cancels == 0 &&
	    r.signalled == NOW && strcmp(r.host, "login1") == 0,
	    "running, not signalled: signalled once, recorded with the host");
	o = step(NOW - 100, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.signals + S.cancels == 0 &&
	    r.cancelled == 0, "running within its grace: nothing sent");
	o = step(NOW - GRACE, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.cancels == 1 && S.signals == 0 &&
	    r.cancelled == NOW, "running past its grace: cancelled, recorded");
	o = step(NOW - GRACE - 60, NOW - 60, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.signals + S.cancels == 0,
	    "cancelled, within the time to leave: nothing sent again");
	o = step(NOW - GRACE - KILL, NOW - KILL, NOW, &r, &err);
	ok(o == MG_TAKEOVER_UNSURE && S.signals + S.cancels == 0,
	    "still running after the cancel's time: unsure, nothing sent");
}

static void
ended(void)
{
	struct mg_takeover_rec r;
	int err, o;

	slurm("", DONE, NULL);
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_GONE && S.signals + S.cancels == 0,
	    "ended before any signal: gone, nothing sent");
	o = step(NOW - 60, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_LEFT, "ended after the signal: left");
	o = step(NOW - GRACE - 10, NOW - 10, NOW, &r, &err);
	ok(o == MG_TAKEOVER_CANCELLED, "ended after the cancel: cancelled");
	slurm(NULL, "", NULL);
	S.squeue_err = "slurm_load_jobs error: Invalid job id specified";
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_GONE && S.signals + S.cancels == 0,
	    "squeue's \"Invalid job id\": the controller's answer, gone");
}

static void
completing(void)
{
	struct mg_takeover_rec r;
	int err, o;

	slurm(CG, DONE, NULL);
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_GONE && S.signals + S.cancels == 0,
	    "completing on its own: gone");
	o = step(NOW - 10, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.signals + S.cancels == 0,
	    "completing just after the signal: watched for a requeue");
	o = step(NOW - GRACE, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_LEFT, "completing, watched long enough: left");
}

static void
pending(void)
{
	struct mg_takeover_rec r;
	int err, o;

	slurm(PEND, PEND, NULL);
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_UNSTARTED && S.cancels == 1 && S.signals == 0 &&
	    r.cancelled == NOW, "pending, never started: cancelled");
	o = step(NOW - 60, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_REQUEUED && S.cancels == 1 && S.signals == 0,
	    "pending after the signal (it requeued itself): cancelled");
	slurm(PEND, PEND, "scancel: error: Kill job error on job id 100: "
	    "Access/permission denied");
	o = step(0, 0, NOW, &r, &err);
	ok(o == -1 && err == MG_EIO, "pending and the cancel refused: an "
	    "error, the service left to the caller");
	o = step(NOW - 60, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_UNSURE && r.signalled == 0 && r.cancelled == 0,
	    "requeued and the cancel refused: unsure, the claims released so "
	    "that a run started again is signalled anew");
	/* P starts between the look and the cancel (--state=PENDING left
	 * it): not cancelled unsignalled, but signalled at the next step */
	slurm(PEND, PEND, NULL);
	S.squeue_after = RUN;
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && r.cancelled == 0 && S.signals == 0,
	    "pending, then started as it was cancelled: left, and waiting");
}

static void
refused(void)
{
	struct mg_takeover_rec r;
	int err, o;

	slurm(RUN, DONE, "scancel: error: Unable to contact slurm controller "
	    "(connect failure)");
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.signals == 3 && r.signalled == 0,
	    "a signal that never reached the controller: sent again at once, "
	    "three times in all, then released for the next step");
	slurm(RUN, DONE, "scancel: error: Rate limit exceeded, please retry "
	    "later");
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.signals == 3 && r.signalled == 0,
	    "a signal the controller's rate limit refused: sent again at once, "
	    "three times in all, then released for the next step");
	slurm(RUN, DONE, "scancel: error: Unable to contact slurm controller "
	    "(receive failure)");
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.signals == 1 && r.signalled == NOW,
	    "a signal whose answer was lost in the receive: kept, not sent "
	    "again");
	slurm(RUN, DONE, "scancel: error: Socket timed out on send/recv "
	    "operation");
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.signals == 1 && r.signalled == NOW,
	    "a signal whose answer was lost, P still running: kept, not sent "
	    "again");
	o = step(NOW, 0, NOW + 10, &r, &err);
	ok(S.signals == 0, "and the next step does not send it again");
	slurm(RUN, RUN, "scancel: error: Kill job error on job id 100: "
	    "Access/permission denied");
	o = step(NOW - GRACE, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.cancels == 1 && r.cancelled == 0,
	    "a cancel refused with P running: released, tried again");
	o = step(NOW - GRACE - KILL, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_UNSURE && r.cancelled == 0,
	    "and past the grace and the cancel's time: unsure");
}

/* a whole take-over while Slurm cannot be read for a while before the
 * signal: looked at again, not an error, for as long as P's grace */
static void
blind(void)
{
	struct mg_takeover_rec r;
	struct mg_diag d = { "" };
	char note[512];
	int o, rv;

	memset(&r, 0, sizeof(r));
	slurm(RUN, RUN, NULL);
	S.down = 6;		/* three looks: squeue, then sacct, each */
	rv = mg_takeover_run(&T, &r, &o, note, sizeof(note), &d);
	ok(rv == 0 && S.signals == 1 && r.signalled >= NOW + 2 * T.poll,
	    "Slurm unreadable for three looks before the signal: looked at "
	    "again, then P signalled (%s)", rv ? d.msg : note);
	memset(&r, 0, sizeof(r));
	slurm(RUN, RUN, NULL);
	S.down = 1 << 30;	/* for good */
	rv = mg_takeover_run(&T, &r, &o, note, sizeof(note), &d);
	ok(rv == MG_EIO && S.signals == 0 && S.slept >= GRACE,
	    "unreadable for longer than P's grace: an error, nothing sent, "
	    "after %lld s", (long long)S.slept);
}

static void
unknown(void)
{
	struct mg_takeover_rec r;
	int err, o;

	slurm(NULL, NULL, NULL);
	o = step(0, 0, NOW, &r, &err);
	ok(o == -1 && err == MG_EIO && S.signals + S.cancels == 0,
	    "squeue and sacct down before the signal: an error, nothing sent");
	o = step(NOW - 60, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.signals + S.cancels == 0,
	    "down after the signal: waits within the grace");
	o = step(NOW - GRACE - KILL, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_UNSURE && S.signals + S.cancels == 0,
	    "down past the grace and the cancel's time: unsure, S goes on");
	slurm("", "", NULL);
	o = step(0, 0, NOW, &r, &err);
	ok(o == -1 && err == MG_EIO, "in neither squeue nor sacct: cannot be "
	    "told, not signalled");
	slurm("", PEND, NULL);
	o = step(0, 0, NOW, &r, &err);
	ok(o == -1 && S.cancels == 0, "pending only by an accounting that "
	    "may lag: never cancelled on its word");
}

static void
refusals(void)
{
	struct mg_takeover_rec r;
	int err, o;

	slurm("100|RUNNING|bob|2023-11-14T20:00:00\n", DONE, NULL);
	o = step(0, 0, NOW, &r, &err);
	ok(o == -1 && err == MG_EINVAL && S.signals + S.cancels == 0,
	    "another user's job: refused, nothing sent");
	slurm("100_1|RUNNING|alice|x\n100_2|RUNNING|alice|x\n", DONE, NULL);
	o = step(0, 0, NOW, &r, &err);
	ok(o == -1 && err == MG_EINVAL && S.signals + S.cancels == 0,
	    "an array's tasks: refused, nothing sent");
	slurm("100+0|RUNNING|alice|x\n100+1|COMPLETING|alice|x\n", DONE, NULL);
	o = step(0, 0, NOW, &r, &err);
	ok(o == MG_TAKEOVER_WAITING && S.signals == 1,
	    "a heterogeneous job: one job, running while a component runs");
}

static void
restarted(void)
{
	struct mg_takeover_rec r;
	struct mg_diag d = { "" };
	char note[512];
	int o;

	slurm("100|RUNNING|alice|2023-11-14T21:00:00\n", DONE, NULL);
	memset(&r, 0, sizeof(r));
	snprintf(r.job, sizeof(r.job), "100");
	r.signalled = NOW - 100;
	snprintf(r.host, sizeof(r.host), "login1");
	snprintf(r.p_start, sizeof(r.p_start), "2023-11-14T20:00:00");
	ok(mg_takeover_step(&T, &r, NOW, &o, note, sizeof(note), &d) == 0 &&
	    o == MG_TAKEOVER_WAITING && S.signals == 1 && r.signalled == NOW &&
	    strcmp(r.p_start, "2023-11-14T21:00:00") == 0,
	    "P started again since its signal: signalled anew");
	/* the signal refused once, before it reached the controller: the
	 * one sent again records the start of the run it went to, so that
	 * a later run of P is told from it */
	slurm("100|RUNNING|alice|2023-11-14T21:00:00\n", DONE,
	    "scancel: error: Unable to contact slurm controller (connect "
	    "failure)");
	S.scancel_once = 1;
	memset(&r, 0, sizeof(r));
	snprintf(r.job, sizeof(r.job), "100");
	ok(mg_takeover_step(&T, &r, NOW, &o, note, sizeof(note), &d) == 0 &&
	    S.signals == 2 && r.signalled > 0 &&
	    strcmp(r.p_start, "2023-11-14T21:00:00") == 0,
	    "a signal sent again after one that never reached Slurm: the "
	    "start of the run signalled is kept (%s)", r.p_start);
}

/* two take-overs of P, one on login1 and one on cron1, merging their
 * steps into the record the chain's state keeps */
static void
merged(void)
{
	struct mg_takeover_rec cur, a, b;

	memset(&cur, 0, sizeof(cur));
	snprintf(cur.job, sizeof(cur.job), "99");
	cur.signalled = 5;
	memset(&a, 0, sizeof(a));
	snprintf(a.job, sizeof(a.job), "100");
	a.began = NOW;
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_BEGIN, &a) == 1 &&
	    strcmp(cur.job, "100") == 0 && cur.began == NOW &&
	    cur.signalled == 0, "another job's record is replaced");
	b = a;
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_BEGIN, &b) == 0,
	    "a second begin: taken already");
	a.signalled = NOW + 1;
	snprintf(a.host, sizeof(a.host), "login1");
	snprintf(a.p_start, sizeof(a.p_start), "2023-11-14T20:00:00");
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_SIGNAL, &a) == 1 &&
	    cur.signalled == NOW + 1 && strcmp(cur.host, "login1") == 0,
	    "the first signal is recorded with its host");
	b.signalled = NOW + 2;
	snprintf(b.host, sizeof(b.host), "cron1");
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_SIGNAL, &b) == 0 &&
	    b.signalled == NOW + 1 && strcmp(b.host, "login1") == 0,
	    "a second signal: taken already, the other sees the first's");
	b.seen = NOW + 30;
	snprintf(b.seen_host, sizeof(b.seen_host), "cron1");
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_SEEN, &b) == 1 &&
	    cur.seen == NOW + 30 && strcmp(cur.seen_host, "cron1") == 0,
	    "another host's first sighting of the signal is kept");
	a.seen = NOW + 40;
	snprintf(a.seen_host, sizeof(a.seen_host), "cron2");
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_SEEN, &a) == 1 &&
	    cur.seen == NOW + 30 && a.seen == NOW + 30,
	    "and not replaced by a later one");
	b.signalled = NOW + 2;
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_UNSIGNAL, &b) == 1 &&
	    cur.signalled == NOW + 1, "a release of a signal the record does "
	    "not hold: nothing released");
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_UNSIGNAL, &a) == 1 &&
	    cur.signalled == 0 && cur.seen == 0 && *cur.p_start == '\0',
	    "the signal's own release: released, its sighting with it");
	a.cancelled = NOW + 300;
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_CANCEL, &a) == 1 &&
	    cur.cancelled == NOW + 300, "a cancel recorded");
	b.cancelled = NOW + 301;
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_CANCEL, &b) == 0 &&
	    b.cancelled == NOW + 300, "a second cancel: taken already");
	b.cancelled = NOW + 301;
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_UNCANCEL, &b) == 1 &&
	    cur.cancelled == NOW + 300, "another's cancel is not released");
	ok(mg_takeover_merge(&cur, MG_TAKEOVER_UNCANCEL, &a) == 1 &&
	    cur.cancelled == 0, "its own is");
}

/* Slurm's words for a request not acted on, and for one that may have
 * been (slurm_errno.c, 22.05 to 24.x): each classified */
static void
words(void)
{
	static const struct {
		const char *why;
		int never;
	} w[] = {
		{ "Unable to contact slurm controller (connect failure)", 1 },
		{ "Communication connection failure", 1 },
		{ "Connection timed out establishing", 1 },
		{ "Slurm backup controller in standby mode", 1 },
		{ "Rate limit exceeded, please retry momentarily", 1 },
		{ "Rate limit exceeded, please retry later", 1 },
		{ "Unable to contact slurm controller (send failure)", 0 },
		{ "Unable to contact slurm controller (receive failure)", 0 },
		{ "Unable to contact slurm controller (shutdown failure)", 0 },
		{ "Message send failure", 0 },
		{ "Message receive failure", 0 },
		{ "Communication shutdown failure", 0 },
		{ "Socket timed out on send/recv operation", 0 },
		{ "Connection timed out reading", 0 },
		{ "Connection timed out writing", 0 },
		{ "Kernel reported delayed socket error after successful "
		    "write(), client side likely closed", 0 },
		{ "Invalid job id specified", 0 },
	};
	size_t k, bad = 0;

	for (k = 0; k < sizeof(w) / sizeof(w[0]); k++)
		if (mg_slurm_undelivered(w[k].why) != w[k].never) {
			printf("# misread: %s\n", w[k].why);
			bad++;
		}
	ok(bad == 0, "Slurm's error words: not acted on, or maybe acted on "
	    "(%zu misread)", bad);
}

int
main(void)
{
	struct mg_clock_hook h = { clock_now, clock_sleep, NULL };

	mg_proc_set_fake(fake, NULL);
	mg_clock_set_hook(&h);
	running();
	ended();
	completing();
	pending();
	refused();
	unknown();
	blind();
	refusals();
	restarted();
	merged();
	words();
	ok(mg_takeover_done(MG_TAKEOVER_LEFT) &&
	    mg_takeover_done(MG_TAKEOVER_REQUEUED) &&
	    !mg_takeover_done(MG_TAKEOVER_UNSURE) &&
	    !mg_takeover_done(MG_TAKEOVER_WAITING),
	    "done: gone, left, cancelled, unstarted, requeued; not unsure");
	mg_proc_set_fake(NULL, NULL);
	mg_clock_set_hook(NULL);
	return tap_done();
}
