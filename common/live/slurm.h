/*
 * slurm.h: a live cluster through Slurm's own commands (squeue, sacct,
 * sinfo, sacctmgr, sbatch), as mirage-advise uses them: each run with a
 * time limit, a command that reads tried again when it fails, its output
 * read into a struct mg_live; a submission's token looked up, the
 * planner's history kept in a cache, the nodes' events read, a
 * successor submitted.
 *
 * The commands print times as epoch seconds (the caller sets
 * SLURM_TIME_FORMAT=%s for them), or in Slurm's standard format in the
 * zone tz (a dump, a fake): both are read.
 */
#ifndef MG_SLURM_H
#define MG_SLURM_H

#include <stddef.h>
#include <stdint.h>

#include "base/parse.h"
#include "base/status.h"
#include "live/event.h"
#include "live/live.h"

/* what squeue must show (-o): mirage-parse(1) reads its header */
#define MG_SLURM_SQUEUE_FMT	"%i|%P|%t|%V|%S|%e|%l|%D|%Q|%u"
/* and sacct (-o) */
#define MG_SLURM_SACCT_FIELDS \
	"JobID,JobIDRaw,Partition,State,Submit,Start,End,Timelimit,NNodes,User"

struct mg_slurm {
	const char *squeue, *sacct, *sinfo, *sacctmgr, *sbatch, *scontrol;
	int timeout;		/* seconds allowed to each run */
	int tries;		/* runs of a command that reads and fails */
	enum mg_tz tz;		/* the zone they print times in */
	const char *partition;	/* only its jobs and nodes, or NULL */
	const char *bin;	/* the tools' directory, given to a successor
				 * as MIRAGE_BIN, or NULL */
	/* what goes wrong and is worked around; loud: said even to a
	 * caller that asked for quiet (NULL: nothing is said) */
	void (*warn)(void *arg, int loud, const char *msg);
	void *arg;
};

/* mg_slurm_time: t as sacct -S reads it: wall-clock time in zone tz */
void mg_slurm_time(int64_t t, enum mg_tz tz, char *buf, size_t cap);

/*
 * mg_slurm_when: t as sbatch --begin and scontrol's StartTime= read it
 * whatever the zone: "uts" and the epoch seconds (a local time is
 * ambiguous in the hour a clock goes back)
 */
void mg_slurm_when(int64_t t, char *buf, size_t cap);

/*
 * mg_slurm_run: run argv (argv[0] one of s's programs) and return its
 * standard output (malloc'd, *len bytes, NUL-terminated), or NULL with
 * the reason in note: it could not run, ran out of its time, or failed
 * on every try (1 s, 2 s, ... between them).
 */
char *mg_slurm_run(const struct mg_slurm *s, const char *const argv[],
    size_t *len, char *note, size_t cap);

/* mg_slurm_ask: mg_slurm_run(), but not tried again when its standard
 * error holds final (an answer, as squeue's "Invalid job id") */
char *mg_slurm_ask(const struct mg_slurm *s, const char *const argv[],
    const char *final, size_t *len, char *note, size_t cap);

/*
 * mg_slurm_update: scontrol update JobId=id what (e.g. "Nice=0",
 * "StartTime=now"), the job's owner's right for a pending job.  0, or
 * -1 with note set (tried as mg_slurm_run() tries: an update is the
 * same when sent twice).
 */
int mg_slurm_update(const struct mg_slurm *s, const char *id,
    const char *what, char *note, size_t cap);

/* mg_slurm_nodes: the nodes sinfo counts (in the partition); 0 with
 * note set if it cannot tell */
int32_t mg_slurm_nodes(const struct mg_slurm *s, char *note, size_t cap);

/*
 * mg_slurm_settle: where did the submission with token (started at
 * since) go?  Settled by evidence: the token in squeue, else in sacct
 * (its Comment or SubmitLine).  Returns 1 with id set if either shows
 * it; 0 if both answered without it and squeue's answer is whole (it
 * lists job p, the chain's current one, or sacct shows p ended): the
 * job never reached the controller; -1 with note set if that cannot be
 * told (a source down, or an empty queue that does not even show p, as
 * an overloaded controller answers, while sacct records no later
 * submission and now is within hours of since).
 */
int mg_slurm_settle(const struct mg_slurm *s, const char *token,
    int64_t since, int64_t now, const char *p, char *id, size_t cap,
    char *note, size_t ncap);

/*
 * mg_slurm_queue: the queue (squeue -a -o MG_SLURM_SQUEUE_FMT, of the
 * partition) into l; mg_slurm_jobs: the jobs sacct shows from `from` on
 * (of the partition); mg_slurm_job: job id as sacct shows it, in any
 * partition and at any time.  0, or -1 with note set.
 */
int mg_slurm_queue(const struct mg_slurm *s, struct mg_live *l, char *note,
    size_t cap);
int mg_slurm_jobs(const struct mg_slurm *s, struct mg_live *l, int64_t from,
    char *note, size_t cap);
int mg_slurm_job(const struct mg_slurm *s, struct mg_live *l, const char *id,
    char *note, size_t cap);

/*
 * mg_slurm_undelivered: 1 if why (what a Slurm command printed when it
 * failed) says that the controller never acted on the request (connect
 * failure, a backup in standby, a rate limit): nothing was done, and it
 * may be sent again.  A lost answer ("Socket timed out", "Unable to
 * contact slurm controller (receive failure)") may have been acted on:
 * 0, settled by evidence.
 */
int mg_slurm_undelivered(const char *why);

/*
 * mg_slurm_one: job id as the controller shows it (squeue -a -j id, any
 * state it still holds) into l: 0, or -1 with note set (squeue failed,
 * or "Invalid job id": the controller has forgotten it).
 */
int mg_slurm_one(const struct mg_slurm *s, struct mg_live *l, const char *id,
    char *note, size_t cap);

/*
 * mg_slurm_history: mg_slurm_jobs() from now - window, through a cache
 * at path (live/hcache.h) that holds the last run's answer: sacct is
 * asked only for what changed since (from the cache's end less overlap
 * seconds); a cache that is damaged or does not cover the window is
 * rebuilt, and one that sacct cannot update is used as it is.  The
 * cache is written unless keep is set.  0, or -1 with note set (no
 * history at all).
 */
int mg_slurm_history(const struct mg_slurm *s, const char *cache,
    int keep, int64_t now, int64_t window, int64_t overlap,
    struct mg_live *l, char *note, size_t ncap);

/*
 * mg_slurm_capacity: the nodes up from `from` to `to`, from sacctmgr
 * show event of the partition's nodes (as sinfo lists them), on a
 * cluster of `nodes` nodes.  0 with c set (c->n 0: none recorded); -1
 * with note set when they cannot be read; MG_ENOMEM.
 */
int mg_slurm_capacity(const struct mg_slurm *s, int32_t nodes, int64_t from,
    int64_t to, struct mg_capacity *c, char *note, size_t cap);

/* a successor's submission */
struct mg_sbatch {
	const char *script;
	char *const *args;	/* the script's arguments */
	int nargs;
	const char *token;	/* carried in its comment */
	const char *after;	/* the job it follows (MIRAGE_PREDECESSOR) */
	int dependency;		/* afterany on it */
	const char *state;	/* the chain's state (MIRAGE_CHAIN_STATE), or
				 * NULL */
	int64_t begin;		/* > 0: held until then (sbatch --begin=
				 * the time in the commands' zone: no
				 * host's clock in it) */
	const char *workdir;	/* the directory it runs in (--chdir), or
				 * NULL: sbatch's */
	int64_t nice;		/* > 0: behind other jobs (--nice=N) */
};

/*
 * mg_slurm_submit: sbatch b.  0 with the new job's id; MG_EIO when
 * sbatch could not run, was killed, or failed (even so it may have
 * queued the job); MG_EFORMAT when it printed no job id; note says
 * what happened.
 */
int mg_slurm_submit(const struct mg_slurm *s, const struct mg_sbatch *b,
    char *id, size_t icap, char *note, size_t ncap);

/*
 * mg_slurm_script_request: the nodes (#SBATCH -N/--nodes) and time
 * limit (-t/--time) a batch script asks for, into *nodes and *limit
 * where they are 0 and the script says; *setsdir 1 if it sets its own
 * working directory (-D/--chdir), else 0.  0, or MG_EIO (errno kept).
 */
int mg_slurm_script_request(const char *path, int32_t *nodes,
    int64_t *limit, int *setsdir);

#endif /* MG_SLURM_H */
