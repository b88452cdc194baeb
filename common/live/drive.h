/*
 * drive.h: one run for a chain on a live cluster, as mirage-advise makes
 * it (mirage-advise(1)): the chain's state, locked; what the cluster
 * shows (squeue and sacct, or dumps); a submission not confirmed
 * settled by evidence, a successor that started made the chain's job;
 * the chain's job found; the decision (advise.h); and with a script,
 * the successor submitted, exactly once.  And the successor's first
 * step when the chain hands over: the take-over of its predecessor.
 *
 * What goes wrong and is worked around is said through d->sl.warn;
 * what stops a run is returned, with a message, and nothing is
 * submitted after it.
 */
#ifndef MG_DRIVE_H
#define MG_DRIVE_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "decide/table.h"
#include "live/advise.h"
#include "live/slurm.h"
#include "plan/plan.h"

/* the outcome of a run: mirage-advise's exit status for it */
enum mg_drive_outcome {
	MG_DRIVE_SUBMIT = 0,	/* submit now, or submitted */
	MG_DRIVE_WAIT = 10,
	MG_DRIVE_DONE = 11,	/* a successor was submitted already */
	MG_DRIVE_DEPEND = 12,	/* submit only with afterany on P */
	MG_DRIVE_UNKNOWN = 13,	/* P is in no dump: mistyped, or too old */
	MG_DRIVE_STOPPED = 14	/* successors keep failing: stopped */
};

/* the outcome of a take-over (mg_drive_takeover()): mirage-advise
 * --takeover's exit status, apart from a run's but for 0 */
enum mg_drive_handover {
	MG_DRIVE_TAKEN = 0,	/* P is gone: S goes on */
	MG_DRIVE_UNSURE = 15,	/* P was signalled, not seen leaving: S
				 * goes on */
	MG_DRIVE_NOTREADY = 16	/* S never became ready: P runs, S ends */
};

/* a cron run takes over from P only when S has run this long without
 * a take-over of its own (S's script may be starting one) */
#define MG_DRIVE_FALLBACK_WAIT	300

/* the nice value of a successor that waits behind every other job
 * until its predecessor's end (--low): Slurm's largest */
#define MG_DRIVE_LOW_NICE	2147483645

/* how far a host's clock may be ahead of the controller's for a time
 * it has passed still to be given to Slurm (a begin time) */
#define MG_DRIVE_SKEW		3600

#define MG_DRIVE_MAX_FAILURES	3	/* failed successors in a row */
#define MG_DRIVE_MAXCHOSEN	16	/* chain sizes with a setting */

/* a setting chosen for a target for the chains of one size: its row
 * of the table (the planner's price with --plan, the scheduler
 * estimate's margin or a fixed lead, in hours), or the method of
 * another this run cannot apply (other) */
struct mg_drive_chosen {
	struct mg_table_row row;
	int other;
};
#define MG_DRIVE_JOBID	32		/* a job id's bytes, NUL included */

/* how a run decides: a model, the planner, the settings chosen for a
 * target, or a fixed lead */
struct mg_drive_rule {
	const char *model;	/* a model file, or NULL */
	int plan;		/* decide with the planner, settings pc */
	struct mg_planconf pc;
	double lambda;		/* its price (lambda_given: as asked) */
	int lambda_given;
	/* the settings chosen for a target, by the chain's nodes
	 * (mirage-eval --target): the planner's prices, or the rules
	 * that need no model; with nchosen > 0, a size not there decides
	 * by the largest smaller size's (mg_table_size()) */
	struct mg_drive_chosen chosen[MG_DRIVE_MAXCHOSEN];
	int nchosen;
	int settings_lead;	/* the table's fixed lead for a size (its
				 * lead row), not the rule it recommends: a
				 * service's second replica */
	double threshold, prio;	/* NAN: the model's, the queue's median */
	/* the settings (--target) could not be used, and why: a new
	 * chain stops on it (status unusable_rv), one under way goes on
	 * by the reactive rule and says so even when quiet */
	const char *unusable;
	int unusable_rv;
	double lead;		/* > 0: a fixed lead, hours of P's limit
				 * left (no model, planner or table) */
	double promise;		/* the share of links a model's threshold
				 * promises (mirage-train --target), 0: none */
};

/* how the successor is submitted */
struct mg_drive_submit {
	const char *script;	/* the successor's batch script, or NULL */
	char **script_args;	/* its arguments */
	int nscript_args;
	int script_chdir;	/* the script sets its own directory
				 * (#SBATCH -D): no --chdir */
	const char *workdir;	/* a new chain's directory, recorded in its
				 * state: its successors run there */
	double min_run;		/* > 0: a successor is held (--begin) until
				 * P has run this share of its limit */
	int low;		/* an early successor waits behind every other
				 * job (sbatch --nice) until P's end */
};

/* how a take-over stops the predecessor */
struct mg_drive_take {
	const char *scancel;	/* the take-over's scancel */
	const char *sig;	/* the signal P is asked to stop with */
	int full;		/* scancel --full */
	int64_t grace;		/* seconds P has to leave */
	int64_t kill_wait;	/* and after a cancel */
	const char *ready;	/* S's health check (serving order), or NULL */
	int64_t ready_time;	/* how long S has to pass it */
};

/* a run for a chain: the chain and what the run reads, then its rule,
 * its submission and its take-over */
struct mg_drive {
	const char *job;	/* the chain's job, or NULL: the state's */
	const char *state;	/* the chain's state file, or NULL */
	int handover;		/* the chain hands over: a started S stops P */
	int32_t nodes;		/* the cluster's; 0: as sinfo counts them */
	int32_t s_nodes;	/* the successor's nodes and limit, 0: P's */
	int64_t s_limit;
	int64_t now;
	int now_given;		/* now is --now, not the clock */
	const char *partition;	/* only its jobs and nodes, or NULL */
	const char *queue;	/* a squeue dump, or NULL: the live cluster */
	const char *hist[8];	/* sacct dumps or jobs streams */
	int nhist;
	const char *events;	/* a dump of sacctmgr show event, or NULL */
	char part_hosts[256];	/* the partition's nodes, or "" */
	const char *host;	/* where this run is (gethostname), or NULL */
	int dry_run;		/* change nothing, submit nothing */
	int quiet;		/* say only what stops or decides the run */
	struct mg_slurm sl;	/* the commands, their zone, warnings */
	struct mg_drive_rule rule;
	struct mg_drive_submit sub;
	struct mg_drive_take take;
};

/* the answer of a run */
struct mg_driven {
	char job[MG_DRIVE_JOBID];	/* the chain's job now (P) */
	struct mg_advice a;		/* the decision */
	const char *decision;	/* "submit", "wait", "submitted", ... */
	int64_t now;		/* the run's now: d->now, or Slurm's when
				 * this host's clock is behind it */
};

/*
 * mg_drive_run: one run for the chain d describes.  Returns its outcome
 * (enum mg_drive_outcome, >= 0) with r set, or a negative status with
 * diag saying why: a damaged or foreign state, an unreadable dump, a
 * submission that cannot be settled, sbatch failing (the token stays
 * for the next run to settle), a state that cannot be written.
 */
int mg_drive_run(const struct mg_drive *d, struct mg_driven *r,
    struct mg_diag *diag);

/*
 * mg_drive_takeover: the successor's take-over of job p (live/takeover.h)
 * with d's settings.  With d->state the take-over is recorded in the
 * chain's state as it goes (the lock is held only while the record is
 * written, never while P is waited for): a second take-over, or a cron
 * run, goes on from the record and never signals P again; the state
 * records the handover.  With d->dry_run it says what it would do.
 * Returns MG_DRIVE_TAKEN, MG_DRIVE_UNSURE or MG_DRIVE_NOTREADY with note
 * saying what happened, or a negative status with diag saying why (P
 * was not signalled).
 */
int mg_drive_takeover(const struct mg_drive *d, const char *p, char *note,
    size_t cap, struct mg_diag *diag);

/*
 * mg_drive_workdir: a new chain's directory: dir checked (absolute, no
 * control character, shorter than cap, reachable), or with dir NULL
 * the current one into buf; *out set.  0, or MG_EINVAL (a bad dir),
 * MG_EIO (the current directory unknown) with d saying why.
 */
int mg_drive_workdir(const char *dir, char *buf, size_t cap,
    const char **out, struct mg_diag *d);

/* mg_drive_question: the question of advise.h for job p on nodes */
void mg_drive_question(const struct mg_drive *d, const char *p,
    int32_t nodes, struct mg_advise *q);

#endif /* MG_DRIVE_H */
