/*
 * takeover.h: a chain's successor S takes over from its predecessor P.
 *
 * A take-over is a small state machine kept in a record (struct
 * mg_takeover_rec) that outlives the process running it: the chain's
 * state file holds it (live/chain.h), so that a take-over killed midway
 * is finished by the next run and P is never signalled twice.  Each step
 * looks at P (squeue, confirmed in sacct whenever squeue does not show P
 * running or pending: an empty answer of a controller in trouble is never
 * taken for "P has ended") and does at most one thing:
 *
 *   P running, not signalled    P is sent the signal, once (the record
 *                               is written first; a lost answer is not
 *                               retried; a signal that never reached
 *                               the controller is released from the
 *                               record and sent at a later step)
 *   P running past its grace    P is cancelled (recorded first, and
 *                               released when the cancel fails: it is
 *                               tried again at the next step)
 *   P pending                   cancelled: one that never started would
 *                               run the service a second time, one that
 *                               went back to pending after the signal
 *                               requeued itself
 *   P completing                it has left: its processes have ended
 *   P ended, or unknown         nothing to do
 *
 * In the serving order S's health check (ready) is run until it passes
 * before P is signalled; if it never does, P is left running.  Once P
 * has been signalled, Slurm that cannot be read only delays the answer:
 * the take-over waits for P until the grace and the cancel's time are
 * over, then says that it cannot tell (MG_TAKEOVER_UNSURE): S goes on.
 */
#ifndef MG_TAKEOVER_H
#define MG_TAKEOVER_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

#define MG_TAKEOVER_KILLED	120	/* s a cancelled job has to leave,
					 * unless told */
#define MG_TAKEOVER_MAX_GRACE	86400	/* the longest grace or readiness */

/*
 * What has been done to P, and when (0: not yet).  The signal's and the
 * cancel's times are on the clock of the host that sent the signal
 * (host); a run on another host, whose clock may be minutes apart,
 * measures from when it first saw the signal recorded (seen, on its own
 * clock), so that a grace is never cut short by the clocks' difference.
 */
struct mg_takeover_rec {
	char job[32];		/* P, "" if no take-over is under way */
	int64_t began;		/* a take-over began (S's script) */
	int64_t until;		/* by when it is over, at the latest */
	int64_t signalled;	/* P was sent the signal */
	int64_t cancelled;	/* P was cancelled */
	char host[64];		/* whose clock signalled and cancelled are */
	int64_t seen;		/* when seen_host first saw the signal */
	char seen_host[64];
	int64_t due;		/* when a cron run first saw it due (S
				 * running), on the cron host's clock */
	char p_start[24];	/* P's start when signalled, as the
				 * controller gives it: a P started again
				 * since is signalled anew */
};

enum mg_takeover_step {
	MG_TAKEOVER_BEGIN,	/* a take-over begins (S's script) */
	MG_TAKEOVER_SIGNAL,	/* P is about to be signalled */
	MG_TAKEOVER_CANCEL,	/* P is about to be cancelled */
	/* the signal, or the cancel, claimed at rec's time did not reach
	 * Slurm (refused, the controller out of reach): the claim is
	 * released, so that a later step acts again */
	MG_TAKEOVER_UNSIGNAL,
	MG_TAKEOVER_UNCANCEL,
	MG_TAKEOVER_SEEN	/* another host saw the signal (seen) */
};

struct mg_takeover {
	const char *job;		/* P */
	const char *squeue, *sacct, *scancel;	/* the programs to run */
	const char *signal;		/* "USR1" */
	int full;			/* scancel --full, not --batch */
	int64_t grace;			/* seconds P has after the signal */
	int64_t kill_wait;		/* and after a cancel */
	int64_t poll;			/* seconds between looks */
	int tries;			/* of a failing squeue or sacct */
	const char *user;		/* who runs it: P must be theirs */
	const char *host;		/* where it runs (gethostname) */
	const char *ready;		/* S's health check (sh -c), or NULL */
	int64_t ready_time;		/* how long S has to pass it */
	/*
	 * claim: before each step the record is claimed, so that two
	 * take-overs (S's script and a cron run, or a take-over run again)
	 * never both act: 1 go on (the step is recorded in *rec), 0 the
	 * record shows the step done already (*rec is the record's now),
	 * or a negative status (it cannot be recorded: the step is taken
	 * all the same, and warn says so).  NULL: the record is kept in
	 * memory only.
	 */
	int (*claim)(void *arg, enum mg_takeover_step step,
	    struct mg_takeover_rec *rec);
	void (*warn)(void *arg, const char *msg);
	void *arg;
};

/*
 * mg_takeover_merge: step as the take-over rec took it, merged into cur,
 * the record that outlives it (the chain's state), so that of two
 * take-overs of P only the first to record a step takes it: 1 this one
 * takes it (cur holds it now), 0 cur shows it taken already (by
 * another).  A claim released (MG_TAKEOVER_UNSIGNAL, UNCANCEL) is
 * released only if it is the one rec made; another host's first
 * sighting of the signal (MG_TAKEOVER_SEEN) is kept; both return 1.  A
 * record of another job is replaced.  Either way rec becomes cur.
 */
int mg_takeover_merge(struct mg_takeover_rec *cur,
    enum mg_takeover_step step, struct mg_takeover_rec *rec);

enum mg_takeover_outcome {
	MG_TAKEOVER_WAITING = 0,	/* a step taken; P not gone yet */
	MG_TAKEOVER_GONE,		/* P had ended, or Slurm knows none */
	MG_TAKEOVER_LEFT,		/* P left after the signal */
	MG_TAKEOVER_CANCELLED,		/* P was cancelled after the grace */
	MG_TAKEOVER_UNSTARTED,		/* P was pending: cancelled */
	MG_TAKEOVER_REQUEUED,		/* P requeued itself: cancelled */
	MG_TAKEOVER_UNSURE,		/* P was signalled; not seen leaving */
	MG_TAKEOVER_NOTREADY		/* S never passed its check: P runs */
};

/* mg_takeover_done: outcome ends the take-over (P no longer runs) */
#define mg_takeover_done(o)	((o) >= MG_TAKEOVER_GONE && \
	(o) <= MG_TAKEOVER_REQUEUED)

/*
 * mg_takeover_step: one look at P and at most one action, as the record
 * rec (updated) and the time now allow; a cron run's fallback.  Returns
 * 0 with *outcome set (MG_TAKEOVER_WAITING: call again later) and note
 * saying what happened, or MG_EINVAL (P is another user's, or names
 * several jobs), MG_EIO (Slurm cannot be read before P was signalled, or
 * a pending P cannot be cancelled) with d saying why.
 */
int mg_takeover_step(const struct mg_takeover *t, struct mg_takeover_rec *rec,
    int64_t now, int *outcome, char *note, size_t cap, struct mg_diag *d);

/*
 * mg_takeover_run: the whole take-over, from rec (a take-over run again
 * goes on from where the last one stopped): S's readiness first, if
 * asked, then steps every t->poll seconds until P has gone or the time
 * is over; Slurm unreadable before P's signal is looked at again for
 * as long as P's grace.  Returns as mg_takeover_step(), with *outcome never
 * MG_TAKEOVER_WAITING.
 */
int mg_takeover_run(const struct mg_takeover *t, struct mg_takeover_rec *rec,
    int *outcome, char *note, size_t cap, struct mg_diag *d);

/*
 * mg_takeover_plan: what a take-over of P would do now, in words (a dry
 * run: nothing is sent, nothing recorded).  0, or as mg_takeover_step().
 */
int mg_takeover_plan(const struct mg_takeover *t,
    const struct mg_takeover_rec *rec, char *note, size_t cap,
    struct mg_diag *d);

/* mg_takeover_jobid: 1 if id is a Slurm job id (1234, 1234_7, 1234+1) */
int mg_takeover_jobid(const char *id);

/* mg_takeover_signal: 1 if s names a signal scancel can send (USR1,
 * SIGTERM, 10) */
int mg_takeover_signal(const char *s);

#endif /* MG_TAKEOVER_H */
