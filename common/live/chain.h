/*
 * chain.h: the state of a chain that mirage-advise drives, kept in a
 * small text file (mirage-chain(5)): the chain's current job, the
 * successor it submitted, and a submission that was started but not
 * confirmed.  Written whole to a temporary file and renamed; a lock file
 * beside it serialises runs (cron overlaps), so a successor is never
 * submitted twice.
 */
#ifndef MG_CHAIN_H
#define MG_CHAIN_H

#include <stdint.h>

#include "base/status.h"
#include "live/live.h"
#include "live/takeover.h"

#define MG_CHAIN_MAGIC	"mirage-chain-state"
#define MG_CHAIN_MAJOR	1
#define MG_CHAIN_MINOR	7

struct mg_chainstate {
	char current[32];	/* the chain's job now (P) */
	char successor[32];	/* its submitted successor, "" if none */
	char token[40];		/* a submission under way, "" if none */
	int64_t token_time;	/* when it was started */
	int64_t updated;	/* when the file was written */
	int64_t submitted;	/* successors submitted so far */
	char script[1024];	/* the successor's batch script */
	/* 1.1: successors that failed in a row (cancelled before they
	 * started, or ended in a failure state), the last one counted,
	 * and the time before which no other is submitted (back-off) */
	int64_t failures;
	char failed[32];
	int64_t retry_after;
	/* 1.1: the last predecessor a successor took over from, and when
	 * (mirage-advise --take-over, or the cron run's fallback) */
	char handed[32];
	int64_t handover_time;
	/* 1.2: a take-over under way (take.job "" if none): when it
	 * began and is over at the latest, when P was signalled and
	 * cancelled */
	struct mg_takeover_rec take;
	/* 1.4: the directory the chain was started in, where every
	 * successor runs (sbatch --chdir); "" in an older state: none */
	char workdir[1024];
	/* 1.5: what the run set on the successor, re-checked against its
	 * predecessor at every run: the begin time it was held until
	 * (--min-run) and the nice value it waits behind every other job
	 * with (--low) until its predecessor's end; 0: none */
	int64_t held_until;
	int64_t nice;
	/* 1.6: the start of the predecessor handed over, as the
	 * controller gave it when it was signalled: one running with
	 * another start was requeued and started again, and is taken
	 * over again */
	char handed_start[24];
	/* 1.7: the chain's job's start when a run last saw it run (0:
	 * not seen): one pending again with it was requeued by Slurm (a
	 * preemption, a node failure), not ended at its limit */
	int64_t current_start;
	/* 1.7: the longest a successor of the chain took from its
	 * take-over's start to ready (its predecessor signalled), seconds;
	 * 0: none measured */
	int64_t ready_max;
};

/*
 * mg_chain_read: the state in path.  Returns 1 and fills s, 0 if the file
 * does not exist (s cleared), or MG_ECORRUPT, MG_EVERSION, MG_ECHECKSUM,
 * MG_ETRUNC, MG_EIO with d naming the file and the line.
 */
int mg_chain_read(const char *path, struct mg_chainstate *s,
    struct mg_diag *d);

/*
 * mg_chain_parse: the same from text[0..n), shown as path.  Returns 1 or
 * the statuses of mg_chain_read().
 */
int mg_chain_parse(const char *text, size_t n, const char *path,
    struct mg_chainstate *s, struct mg_diag *d);

/* mg_chain_write: s into path, atomically.  0 or MG_EIO. */
int mg_chain_write(const char *path, const struct mg_chainstate *s,
    struct mg_diag *d);

/*
 * mg_chain_lock: take the lock of path (path.lock), waiting at most wait
 * seconds.  Returns a descriptor to pass to mg_chain_unlock(), or MG_EIO
 * (d says another run holds it, or why it cannot be opened).
 */
int mg_chain_lock(const char *path, int wait, struct mg_diag *d);
void mg_chain_unlock(int fd);

/*
 * mg_chain_update: the state in path changed under its lock, in one
 * place: the lock taken (waiting at most wait seconds), the state read
 * and given to change(s, found, arg) (found 1 if the file held one, 0
 * if there is none: s cleared), written back if change returns 1, the
 * lock let go.  Returns change's value (0: nothing written, or a status
 * of its own), or a status of the lock, the read or the write with d
 * saying why.
 */
int mg_chain_update(const char *path, int wait,
    int (*change)(struct mg_chainstate *, int, void *), void *arg,
    struct mg_diag *d);

/*
 * The state against what the cluster shows.  A successor that failed
 * counts once (the last one counted is named); after n failures in a
 * row the next successor waits MG_CHAIN_BACKOFF << (n - 1) seconds
 * (capped at 2^9 of it) after the failure; a job that ran
 * MG_CHAIN_SETTLED seconds did not fail at its start.
 */
#define MG_CHAIN_BACKOFF	600
#define MG_CHAIN_SETTLED	3600

enum mg_chain_step {
	MG_CHAIN_SAME,		/* no change */
	MG_CHAIN_STARTED,	/* the successor started: the chain's job */
	MG_CHAIN_LOST		/* the successor ended before it started */
};

/*
 * mg_chain_step: the successor as job s of the dumps shows it at now
 * (NULL: in none): if it has started it becomes the chain's job (its
 * predecessor's id into old), if it ended before it started it is
 * counted as failed (fate says how) and dropped; else nothing changes.
 */
enum mg_chain_step mg_chain_step(struct mg_chainstate *st,
    const struct mg_live_job *s, int64_t now, char *old, size_t oldcap,
    char *fate, size_t fatecap);

/*
 * mg_chain_job: the chain's job p, running or ended at now: one that
 * ended in failure (or before it started) is counted once; one that ran
 * its course, or has run MG_CHAIN_SETTLED since its back-off, clears
 * the count.
 */
void mg_chain_job(struct mg_chainstate *st, const struct mg_live_job *p,
    int ended, int64_t now, char *fate, size_t fatecap);

/*
 * mg_chain_revert: the chain's job st->current, successor s of p,
 * started and ended while p still runs: s is counted as failed (fate
 * says how) and p is the chain's job again.
 */
void mg_chain_revert(struct mg_chainstate *st, const char *p,
    const struct mg_live_job *s, int64_t now, char *fate, size_t fatecap);

/*
 * mg_chain_rewind: the chain's job st->current, handed job p's
 * successor, is pending again while p runs again (Slurm requeued both):
 * p is the chain's job again and st->current its queued successor, to
 * take over from p afresh.  Nothing is counted as failed.
 */
void mg_chain_rewind(struct mg_chainstate *st, const char *p);

/*
 * The chain's links, one line appended per successor submitted
 * (state.links, mirage-chain(5)): what a report of the chain reads with
 * the accounting.  Each line carries its own CRC-32, so that a line cut
 * short or changed is found.
 */
#define MG_CHAIN_LINKS_MAGIC	"mirage-chain-links"
#define MG_CHAIN_LINKS_MAJOR	1
#define MG_CHAIN_LINKS_MINOR	0

struct mg_chainlink {
	char pred[32];		/* the job it follows (P) */
	char succ[32];		/* the successor submitted (S) */
	int64_t submitted;	/* when (epoch seconds) */
	int64_t held;		/* > 0: held until then (--begin) */
	char rule[32];		/* what decided: model, estimate, lead, ... */
	double promise;		/* the share of links the settings promised
				 * (0: none stated) */
	int handover;		/* the chain hands over */
};

/* mg_chain_link_add: k appended to path (made with its header if new).
 * 0, or MG_EIO / MG_EINVAL with d saying why. */
int mg_chain_link_add(const char *path, const struct mg_chainlink *k,
    struct mg_diag *d);

/*
 * mg_chain_links_read: the links at path into *out (free() it), *n of
 * them.  0 (a file that does not exist holds none), or MG_ECORRUPT,
 * MG_EVERSION, MG_ECHECKSUM, MG_ETRUNC, MG_EIO with d naming the file
 * and the line.
 */
int mg_chain_links_read(const char *path, struct mg_chainlink **out,
    size_t *n, struct mg_diag *d);

/* mg_chain_backoff: the wait after n failures in a row, seconds */
int64_t mg_chain_backoff(int64_t n);

/* mg_chain_token: a new submission's token, 16 hex digits (random) */
void mg_chain_token(char *buf, size_t cap);

#endif /* MG_CHAIN_H */
