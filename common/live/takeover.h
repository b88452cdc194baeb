/*
 * takeover.h: a chain's successor S takes over from its predecessor P.
 * S's batch script runs it first: P is sent a signal (it checkpoints and
 * exits), waited for while it leaves the running state, and cancelled if
 * it is still there after a grace period.  P's state is read from squeue
 * and, whenever squeue does not show P running or pending, confirmed in
 * sacct: an empty answer of a controller in trouble is never taken for
 * "P has ended".  Safe to run twice: a P that is gone is left alone.
 */
#ifndef MG_TAKEOVER_H
#define MG_TAKEOVER_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

struct mg_takeover {
	const char *job;		/* P */
	const char *squeue, *sacct, *scancel;	/* the programs to run */
	const char *signal;		/* "USR1" */
	int full;			/* scancel --full, not --batch */
	int64_t grace;			/* seconds P has after the signal */
	int64_t poll;			/* seconds between looks */
	int tries;			/* of a failing squeue or sacct */
	const char *user;		/* who runs it: P must be theirs */
};

enum mg_takeover_outcome {
	MG_TAKEOVER_GONE = 1,		/* P had ended, or Slurm knows none */
	MG_TAKEOVER_LEFT,		/* P left within the grace */
	MG_TAKEOVER_CANCELLED,		/* P was cancelled after the grace */
	MG_TAKEOVER_UNSTARTED		/* P was pending: cancelled */
};

/*
 * mg_takeover_run: take over from t->job.  Returns 0 with *outcome set
 * and note saying what happened, or MG_EINVAL (P is another user's),
 * MG_EIO (Slurm cannot be read, or scancel fails, or P is still running
 * after the grace and a cancel) with d saying why.
 */
int mg_takeover_run(const struct mg_takeover *t, int *outcome, char *note,
    size_t cap, struct mg_diag *d);

/*
 * mg_takeover_state: P's state as squeue and sacct show it: 1 holding
 * its nodes (running, completing, suspended), 2 pending, 0 gone (ended,
 * or unknown to both), or -1 with note saying why it cannot be told.
 * user gets P's user ("" if not shown).
 */
int mg_takeover_state(const struct mg_takeover *t, char *user, size_t ucap,
    char *note, size_t cap);

#endif /* MG_TAKEOVER_H */
