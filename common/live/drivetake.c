/*
 * drivetake.c: the successor's take-over of its predecessor, each step
 * recorded in the chain's state first (drive.h, drive_int.h).
 */
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "live/drive_int.h"

/* the take-over's warnings, said even when quiet */
static void
takeover_warn(void *arg, const char *msg)
{
	const struct claimer *c = arg;

	mg_drivebase_say(c->o, 1, "%s", msg);
}

/* a step of the take-over merged into the state st: 1 to write it, 0
 * when the state shows it taken by another */
struct step {
	enum mg_takeover_step step;
	struct mg_takeover_rec *rec;
};

static int
merge(struct mg_chainstate *st, int found, void *arg)
{
	struct step *a = arg;

	if (!found)
		return MG_EIO;	/* no chain: none to record in */
	return mg_takeover_merge(&st->take, a->step, a->rec) == 0 ? 0 : 1;
}

/* a step of the take-over recorded in the chain's state first: 1 go on,
 * 0 the state shows it taken by another, or a status */
static int
claim(void *arg, enum mg_takeover_step step, struct mg_takeover_rec *rec)
{
	const struct claimer *c = arg;
	struct step a = { step, rec };
	struct mg_diag d = { "" };
	int rv;

	if (c->st == NULL)	/* the file, locked for this record */
		return mg_chain_update(c->o->state, CLAIM_WAIT, merge, &a, &d);
	if ((rv = merge(c->st, 1, &a)) == 1 && mg_chain_write(c->o->state,
	    c->st, &d) != 0)
		rv = MG_EIO;
	return rv;
}

/* the settings of a take-over of job p */
void
mg_drivetake_conf(const struct mg_drive *o, const char *p,
    struct mg_takeover *t, struct claimer *c)
{
	const struct passwd *pw = getpwuid(getuid());

	memset(t, 0, sizeof(*t));
	t->job = p;
	t->squeue = o->sl.squeue;
	t->sacct = o->sl.sacct;
	t->scancel = o->take.scancel;
	t->signal = o->take.sig;
	t->full = o->take.full;
	t->grace = o->take.grace;
	t->kill_wait = o->take.kill_wait > 0 ? o->take.kill_wait : MG_TAKEOVER_KILLED;
	t->poll = o->take.grace >= 50 ? 5 : 1;
	t->tries = o->sl.tries;
	t->user = pw ? pw->pw_name : NULL;
	t->host = o->host;
	t->ready = o->take.ready;
	t->ready_time = o->take.ready_time;
	t->warn = takeover_warn;
	t->arg = c;
	if (o->state != NULL && *o->state != '\0')
		t->claim = claim;
}

/*
 * the handover recorded: P gone, the take-over over.  start: P's start
 * as the take-over saw it (a claim may have been recorded before Slurm
 * showed it), else the record's.
 */
void
mg_drivetake_handed(struct mg_chainstate *st, const char *p, const char *start,
    int64_t now)
{
	snprintf(st->handed, sizeof(st->handed), "%s", p);
	st->handover_time = now;
	/* how long this successor took to be ready: its take-over's start
	 * to P's signal */
	if (strcmp(st->take.job, p) == 0 && st->take.began > 0 &&
	    st->take.signalled > st->take.began &&
	    st->take.signalled - st->take.began > st->ready_max)
		st->ready_max = st->take.signalled - st->take.began;
	/* its start when signalled: a start other than it is a new run */
	snprintf(st->handed_start, sizeof(st->handed_start), "%s",
	    start != NULL && *start ? start : strcmp(st->take.job, p) == 0 ?
	    st->take.p_start : "");
	memset(&st->take, 0, sizeof(st->take));
}

/* a private record for job arg: one of none or a day old (job ids come
 * round) made anew, to be written */
static int
fresh(struct mg_chainstate *st, int found, void *arg)
{
	if (found && mg_clock_now() - st->updated <= MG_DAY)
		return 0;
	memset(st, 0, sizeof(*st));
	snprintf(st->current, sizeof(st->current), "%s", (const char *)arg);
	st->updated = mg_clock_now();
	return 1;
}

/*
 * A take-over with no chain's state (run by hand, or by a script that
 * gives none) keeps its record in a file of its own, in the user's
 * runtime directory (else /tmp), made for P on first use: two at once
 * on this host still signal P once.  0 with o->state set, or -1.
 */
static int
private_record(struct mg_drive *o, const char *p, char *path, size_t cap)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");
	struct mg_diag d = { "" };

	if (dir == NULL || *dir != '/')
		dir = "/tmp";
	snprintf(path, cap, "%s/mirage-takeover-%u-%s", dir,
	    (unsigned)getuid(), p);
	if (mg_chain_update(path, CLAIM_WAIT, fresh, (void *)p, &d) < 0)
		return -1;
	o->state = path;
	return 0;
}

/* how a take-over of p ended, for the chain's state */
struct end {
	const char *p;
	int outcome;
	const struct mg_takeover_rec *rec;
};

/* the take-over's end recorded in st: the record is this take-over's
 * only (a link that takes over from its own predecessor while its
 * successor takes over from it leaves the other's record alone); P gone
 * by itself is handed over too if a run signalled it meanwhile */
static int
ended(struct mg_chainstate *st, int found, void *arg)
{
	const struct end *e = arg;

	if (!found || (*st->take.job && strcmp(st->take.job, e->p) != 0))
		return 0;
	if (mg_takeover_done(e->outcome) && (e->outcome != MG_TAKEOVER_GONE ||
	    st->take.signalled > 0))
		mg_drivetake_handed(st, e->p, e->rec->signalled > 0 ?
		    e->rec->p_start : NULL, mg_clock_now());
	else if (e->outcome == MG_TAKEOVER_GONE)
		memset(&st->take, 0, sizeof(st->take));
	st->updated = mg_clock_now();
	return 1;
}

int
mg_drive_takeover(const struct mg_drive *oc, const char *p, char *note,
    size_t cap, struct mg_diag *diag)
{
	struct mg_drive run = *oc;
	const struct mg_drive *o = oc;
	char privpath[256];
	struct mg_takeover t;
	struct mg_takeover_rec rec;
	struct mg_chainstate st;
	struct claimer c = { o, NULL };
	struct end e;
	struct mg_diag d = { "" };
	int have = 0, outcome, rv;

	if (p == NULL || *p == '\0') {
		snprintf(note, cap, "no predecessor (neither -j nor "
		    "MIRAGE_PREDECESSOR): nothing to do");
		return MG_DRIVE_TAKEN;
	}
	if (!mg_takeover_jobid(p))
		return mg_diag_set(diag, MG_EINVAL, "invalid job id '%.40s' "
		    "(want e.g. 4711, 4711_3 or 4711+1)", p);
	memset(&rec, 0, sizeof(rec));
	snprintf(rec.job, sizeof(rec.job), "%s", p);
	if ((o->state == NULL || *o->state == '\0') && !o->dry_run &&
	    private_record(&run, p, privpath, sizeof(privpath)) == 0) {
		o = &run;	/* no chain's state: a record of its own */
		c.o = o;
	}
	if (o->state != NULL && *o->state != '\0') {
		/* the record of a take-over of P begun before (killed
		 * midway, or under way): it goes on from there */
		if ((rv = mg_chain_read(o->state, &st, &d)) < 0)
			return mg_diag_set(diag, rv, "%.400s (not acting on a "
			    "damaged state: repair or remove it)", d.msg);
		have = rv == 1;
		if (have && strcmp(st.take.job, p) == 0)
			rec = st.take;
		/* another take-over under way (this link was requeued and
		 * started again while its successor takes over from it):
		 * its record is left alone, this one kept in memory */
		else if (have && *st.take.job && strcmp(st.handed,
		    st.take.job) != 0)
			have = 0;
	}
	mg_drivetake_conf(o, p, &t, &c);
	if (!have)
		t.claim = NULL;
	if (o->dry_run) {
		if ((rv = mg_takeover_plan(&t, &rec, note, cap, &d)) != 0)
			return mg_diag_set(diag, MG_EIO, "take-over from job "
			    "%s: %s", p, d.msg);
		return MG_DRIVE_TAKEN;
	}
	/*
	 * A take-over that stops with P untouched (an error, or S never
	 * ready) keeps its record: S leaves, and the next cron run, which
	 * finds S ended beside a running P, gives the chain back to P
	 * rather than taking a chain with no running job for one to be
	 * submitted again.
	 */
	if ((rv = mg_takeover_run(&t, &rec, &outcome, note, cap, &d)) != 0)
		return mg_diag_set(diag, rv == MG_ENOMEM ? rv : MG_EIO,
		    "take-over from job %s: %s", p, d.msg);
	e.p = p;
	e.outcome = outcome;
	e.rec = &rec;
	if (have && mg_chain_update(o->state, CLAIM_WAIT, ended, &e, &d) < 0)
		mg_drivebase_say(o, 1, "%s: the handover is not recorded",
		    d.msg);
	return outcome == MG_TAKEOVER_UNSURE ? MG_DRIVE_UNSURE :
	    outcome == MG_TAKEOVER_NOTREADY ? MG_DRIVE_NOTREADY :
	    MG_DRIVE_TAKEN;
}
