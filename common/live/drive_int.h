/*
 * drive_int.h: what the files of one run for a chain share (drive.h):
 * the run's state and the helpers every step uses.  drive.c holds the
 * run and its submission, drivebase.c the helpers, drivepick.c the
 * decision by the settings chosen, driverecover.c what a run finds
 * changed and mends (a submission settled, a successor started or
 * requeued, a hold, a predecessor gone), drivetake.c the take-over and
 * its record in the chain's state.  Each calls only the files after it
 * in drive.c, drivepick.c, driverecover.c, drivetake.c, drivebase.c.
 * Only these files include it.
 */
#ifndef MG_DRIVE_INT_H
#define MG_DRIVE_INT_H

#include <stdint.h>

#include "base/clock.h"
#include "base/parse.h"
#include "live/chain.h"
#include "live/drive.h"
#include "live/takeover.h"

/* one run: what it read, the chain's state, the decision */
struct run {
	struct mg_live l;
	struct mg_model *m;
	struct mg_chainstate st;
	struct mg_advice a;
	char p_id[MG_DRIVE_JOBID];
	char note[MG_DIAG_MAX + 256];
	char fate[128];
	int lockfd;		/* the state's lock, or -1 */
	int have_state;		/* the state file named the chain */
	int live;		/* squeue and sacct, not dumps */
	int queue_ok;		/* the queue could be read */
	int dependency;		/* submit with afterany on P */
	int outcome;		/* a run that ends before it decides */
	const char *decision;
	struct mg_drive *run;	/* the run's settings: its now may move */
	int64_t behind;		/* this host's clock behind Slurm's, s */
	int64_t t0;		/* the clock when the run began */
	double promise;		/* what the settings chosen promise, or 0 */
};

/* who records a take-over: the chain's state, locked for each record
 * (S's script), or already locked by the run (a cron run's fallback) */
struct claimer {
	const struct mg_drive *o;
	struct mg_chainstate *st;	/* the run's, locked; NULL: the file */
};

#define PLAN_HISTORY	(29 * MG_DAY)	/* sacct for the planner: 4 weeks + */
#define PLAN_MIN_JOBS	100	/* ended jobs it needs to learn from */
#define PERIOD		MG_ADVISE_PERIOD
/* how long a take-over waits for the chain's lock to record a step: a
 * cron run holds it while it reads Slurm (minutes, when Slurm is slow) */
#define CLAIM_WAIT	180

/* now on this host's own clock (not Slurm's, which a clock behind it
 * takes for the decision), as the take-over's record keeps times: the
 * run's now and the time it has taken so far (drivebase.c) */
int64_t mg_drivebase_local_now(const struct mg_drive *o, const struct run *r);

/* a warning through o->sl.warn (loud: to be said even when quiet) */
void mg_drivebase_say(const struct mg_drive *o, int loud, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

int mg_drivebase_nomem(struct mg_diag *diag);

/* job id as the cluster shows it, asked of the controller and then of
 * the accounting when the run's reading does not hold it; or NULL */
const struct mg_live_job *mg_drivebase_chain_job(const struct mg_drive *o,
    struct run *r, const char *id);

/* is job j running at now (started, not ended)? */
int mg_drivebase_running(const struct mg_live_job *j, int64_t now);

/* the run's now moved to Slurm's when this host's clock is behind */
void mg_drivebase_clock_behind(struct run *r);

/* when r's successor may start (--min-run's hold), or 0 */
int64_t mg_drivebase_held_until(const struct mg_drive *o,
    const struct run *r);

/* the link to succ, submitted at when, appended to the chain's links */
void mg_drivebase_record_link(const struct mg_drive *o, const struct run *r,
    const char *succ, int64_t when);

/* the decision for r's P by the settings, the model, the planner or
 * the rule asked (drivepick.c): 0, or a status */
int mg_drivepick_decide(const struct mg_drive *o, struct run *r,
    struct mg_diag *diag);

/* the chain's state made to agree with the cluster before the decision
 * (driverecover.c): a submission settled, a successor that started made
 * the chain's job, one requeued or cancelled, holds lifted; and P
 * checked.  0 (r->outcome may end the run), or a status */
int mg_driverecover_reconcile(const struct mg_drive *o, struct run *r,
    struct mg_diag *diag);
int mg_driverecover_check_p(const struct mg_drive *o, struct run *r,
    struct mg_diag *diag);

/* the take-over of p with o's settings into t, recorded through c
 * (drivetake.c) */
void mg_drivetake_conf(const struct mg_drive *o, const char *p,
    struct mg_takeover *t, struct claimer *c);

/* the handover to st's job recorded: p handed over, with its start */
void mg_drivetake_handed(struct mg_chainstate *st, const char *p,
    const char *start, int64_t now);

#endif /* MG_DRIVE_INT_H */
