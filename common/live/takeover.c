/*
 * takeover.c: the successor takes over from its predecessor; see
 * takeover.h and mirage-advise(1) (--take-over).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "live/takeover.h"
#include "live/slurm.h"

#define TIMEOUT	60		/* seconds allowed to one Slurm command */
#define KILLED	120		/* seconds a cancelled job has to leave */

/* run argv, tried again on a failure (1 s, 2 s, ...); its output, or
 * NULL with note set */
static char *
run(const struct mg_takeover *t, const char *const argv[], char *note,
    size_t cap)
{
	struct mg_slurm sl;
	size_t len;

	memset(&sl, 0, sizeof(sl));
	sl.timeout = TIMEOUT;
	sl.tries = t->tries;
	/* squeue's "Invalid job id" is an answer: the job left the queue */
	return mg_slurm_ask(&sl, argv, "Invalid job id", &len, note, cap);
}

/* a state word's class: 1 holds nodes, 2 pending, 0 ended, -1 none */
static int
klass(const char *s, size_t n)
{
	static const char *const hold[] = { "RUNNING", "COMPLETING",
	    "CONFIGURING", "SUSPENDED", "STOPPED", "RESIZING", "SIGNALING",
	    "STAGE_OUT", NULL };
	static const char *const wait[] = { "PENDING", "REQUEUED",
	    "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD", "SPECIAL_EXIT",
	    NULL };
	int i;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n'))
		n--;
	if (n == 0)
		return -1;
	for (i = 0; hold[i]; i++)
		if (strlen(hold[i]) == n && strncmp(s, hold[i], n) == 0)
			return 1;
	for (i = 0; wait[i]; i++)
		if (strlen(wait[i]) == n && strncmp(s, wait[i], n) == 0)
			return 2;
	return 0;	/* COMPLETED, CANCELLED, FAILED, TIMEOUT, ... */
}

/* the first line "STATE|USER" of out: its class, the user into user */
static int
line_state(const char *out, char *user, size_t ucap)
{
	size_t n = strcspn(out, "|\n"), u;
	int c = klass(out, n);

	/* "CANCELLED by 0" */
	if (c == 0 && n > 0 && strchr(out, ' ') != NULL &&
	    (size_t)(strchr(out, ' ') - out) < n)
		c = klass(out, (size_t)(strchr(out, ' ') - out));
	if (out[n] == '|') {
		u = strcspn(out + n + 1, "|\n");
		snprintf(user, ucap, "%.*s", (int)u, out + n + 1);
	}
	return c;
}

int
mg_takeover_state(const struct mg_takeover *t, char *user, size_t ucap,
    char *note, size_t cap)
{
	const char *sq[] = { t->squeue, "-h", "-j", t->job, "-o", "%T|%u",
	    NULL };
	const char *sa[] = { t->sacct, "-X", "-n", "-P", "-j", t->job, "-o",
	    "State,User", NULL };
	char *out, why[512] = "";
	int c = -1;

	*user = '\0';
	if ((out = run(t, sq, why, sizeof(why))) != NULL) {
		c = line_state(out, user, ucap);
		free(out);
		if (c == 1 || c == 2)
			return c;
	}
	/*
	 * Not shown running or pending (an empty answer, "Invalid job
	 * id", a job that ended, squeue down): sacct says.
	 */
	if ((out = run(t, sa, note, cap)) == NULL) {
		if (*why)
			snprintf(note + strlen(note), cap - strlen(note), "; %s",
			    why);
		return -1;
	}
	c = line_state(out, user, ucap);
	free(out);
	return c < 0 ? 0 : c;	/* in no record: unknown to Slurm */
}

/* P's state now, or -1 (error set) */
static int
look(const struct mg_takeover *t, char *user, size_t ucap,
    struct mg_diag *d)
{
	char note[1024] = "";
	int c = mg_takeover_state(t, user, ucap, note, sizeof(note));

	if (c < 0)
		mg_diag_set(d, MG_EIO, "cannot tell whether job %s runs: %s",
		    t->job, note);
	return c;
}

/* wait until P leaves its nodes, at most secs: 1 if it did, 0 if not,
 * -1 (d set) if Slurm cannot be read */
static int
wait_gone(const struct mg_takeover *t, int64_t secs, struct mg_diag *d)
{
	time_t until = time(NULL) + (time_t)secs;
	char user[64];
	int c;

	for (;;) {
		if ((c = look(t, user, sizeof(user), d)) < 0)
			return -1;
		if (c != 1)
			return 1;
		if (time(NULL) >= until)
			return 0;
		sleep((unsigned)(t->poll > 0 ? t->poll : 1));
	}
}

int
mg_takeover_run(const struct mg_takeover *t, int *outcome, char *note,
    size_t cap, struct mg_diag *d)
{
	char user[64], sig[64], why[512];
	const char *sc[] = { t->scancel, sig, t->full ? "--full" : "--batch",
	    t->job, NULL };
	const char *kill[] = { t->scancel, t->job, NULL };
	char *out;
	int c, rv;

	*outcome = 0;
	if ((c = look(t, user, sizeof(user), d)) < 0)
		return MG_EIO;
	if (c == 0) {
		*outcome = MG_TAKEOVER_GONE;
		snprintf(note, cap, "job %s has ended (or Slurm knows no such "
		    "job): nothing to take over", t->job);
		return 0;
	}
	if (*user && t->user && *t->user && strcmp(user, t->user) != 0)
		return mg_diag_set(d, MG_EINVAL, "job %s belongs to %s, not to "
		    "%s: another user's job is not signalled", t->job, user,
		    t->user);
	if (c == 2) {
		/* a predecessor that never started would run the service a
		 * second time */
		if ((out = run(t, kill, why, sizeof(why))) == NULL)
			return mg_diag_set(d, MG_EIO, "cannot cancel job %s, "
			    "pending: %s", t->job, why);
		free(out);
		*outcome = MG_TAKEOVER_UNSTARTED;
		snprintf(note, cap, "job %s had not started: cancelled",
		    t->job);
		return 0;
	}
	snprintf(sig, sizeof(sig), "--signal=%s", t->signal);
	if ((out = run(t, sc, why, sizeof(why))) == NULL)
		return mg_diag_set(d, MG_EIO, "cannot signal job %s: %s",
		    t->job, why);
	free(out);
	if ((rv = wait_gone(t, t->grace, d)) < 0)
		return MG_EIO;
	if (rv == 1) {
		*outcome = MG_TAKEOVER_LEFT;
		snprintf(note, cap, "job %s was sent SIG%s and left within "
		    "%lld s", t->job, t->signal, (long long)t->grace);
		return 0;
	}
	/* the signal was ignored, or the checkpoint is slow: cancelled */
	if ((out = run(t, kill, why, sizeof(why))) == NULL)
		return mg_diag_set(d, MG_EIO, "job %s still runs %lld s after "
		    "SIG%s and cannot be cancelled: %s", t->job,
		    (long long)t->grace, t->signal, why);
	free(out);
	if ((rv = wait_gone(t, KILLED, d)) < 0)
		return MG_EIO;
	if (rv == 0)
		return mg_diag_set(d, MG_EIO, "job %s still runs %d s after "
		    "it was cancelled", t->job, KILLED);
	*outcome = MG_TAKEOVER_CANCELLED;
	snprintf(note, cap, "job %s still ran %lld s after SIG%s: cancelled",
	    t->job, (long long)t->grace, t->signal);
	return 0;
}
