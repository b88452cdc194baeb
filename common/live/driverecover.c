/*
 * driverecover.c: what a run finds changed since the last and mends
 * before it decides (drive_int.h).
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

/*
 * A cron run's fallback, a step at a time: S runs and P still does, and
 * S's script has not taken over (or stopped halfway): the take-over
 * goes on from its record.  What it does to P is said even when quiet.
 */
static void
fallback(const struct mg_drive *o, struct run *r)
{
	struct mg_chainstate *st = &r->st;
	struct claimer c = { o, st };
	struct mg_takeover t;
	struct mg_diag d = { "" };
	const struct mg_live_job *s = mg_drivebase_chain_job(o, r, st->current);
	struct mg_takeover_rec rec;
	char note[1024] = "", at[32];
	int outcome, rv;

	if (!mg_drivebase_running(s, o->now)) {
		mg_drivebase_say(o, 0, "successor %s does not run now: job %s is left as it "
		    "is", st->current, st->take.job);
		return;
	}
	/*
	 * S's script may be running its take-over (in the serving order,
	 * waiting for S's check before P is signalled): left alone until
	 * its time is over.  Once P was signalled a step is safe whatever
	 * the hosts' clocks say: it signals no more, and cancels only
	 * after the grace as this host can measure it.
	 */
	if (st->take.began > 0 && st->take.signalled == 0 &&
	    o->now < st->take.until) {
		mg_slurm_time(st->take.began, o->sl.tz, at, sizeof(at));
		mg_drivebase_say(o, 0, "the take-over of job %s by %s is in progress (since "
		    "%s)", st->take.job, st->current, at);
		return;
	}
	/* S's script has MG_DRIVE_FALLBACK_WAIT to begin, counted from
	 * when a cron run first saw S running (on its own clock: Slurm's
	 * start time is on the controller's) */
	if (st->take.began == 0 && st->take.signalled == 0 &&
	    (st->take.due > 0 ? mg_drivebase_local_now(o, r) - st->take.due : o->now -
	    s->start) < MG_DRIVE_FALLBACK_WAIT) {
		mg_drivebase_say(o, 0, "successor %s started %lld s ago: its script may "
		    "take over from job %s yet", st->current,
		    (long long)(o->now - s->start), st->take.job);
		return;
	}
	rec = st->take;		/* claim() compares it with the state's */
	mg_drivetake_conf(o, rec.job, &t, &c);
	rv = mg_takeover_step(&t, &rec, mg_drivebase_local_now(o, r), &outcome, note,
	    sizeof(note), &d);
	st->take = rec;
	if (rv != 0) {
		mg_drivebase_say(o, 1, "take-over from job %s: %s", rec.job, d.msg);
		return;
	}
	if (*note)
		mg_drivebase_say(o, outcome != MG_TAKEOVER_GONE, "successor %s runs: %s",
		    st->current, note);
	if (mg_takeover_done(outcome))
		mg_drivetake_handed(st, st->take.job, NULL, o->now);
}

/* the chain's pending successor cancelled (scancel --state=PENDING):
 * 1 if it is gone or was never queued, 0 if it may still start (said) */
static int
orphan(const struct mg_drive *o, struct run *r)
{
	const char *sc[] = { o->take.scancel, "--state=PENDING", r->st.successor,
	    NULL };
	const struct mg_live_job *n = mg_live_find(&r->l, r->st.successor);
	char why[256] = "", *c;
	size_t len = 0;

	if (n == NULL || !n->pending || o->dry_run)
		return n == NULL || !n->pending;
	if ((c = mg_slurm_run(&o->sl, sc, &len, why, sizeof(why))) == NULL &&
	    strstr(why, "Invalid job id") == NULL) {
		mg_drivebase_say(o, 1, "successor %s, pending, cannot be cancelled (%s): the "
		    "next run tries again", r->st.successor, why);
		return 0;
	}
	free(c);
	mg_drivebase_say(o, 1, "successor %s, submitted for %s, was cancelled while "
	    "pending", r->st.successor, r->st.current);
	return 1;
}

/*
 * S, the chain's job, ended while its predecessor p still runs: p is
 * the chain's job again (S counted as failed) and keeps the service.
 * 1 if so, 0 if S runs or p does not.
 */
static int
give_back(const struct mg_drive *o, struct run *r, const struct mg_live_job *sp,
    const char *p)
{
	struct mg_live_job sj = *sp, *s = &sj;	/* r->l may move below */
	const struct mg_live_job *pj;
	char was[MG_DRIVE_JOBID];

	/* P runs, or Slurm requeued it and it will run again */
	if (s->end < 0 || s->end > o->now || (pj = mg_drivebase_chain_job(o, r, p)) ==
	    NULL || !(mg_drivebase_running(pj, o->now) || pj->pending))
		return 0;
	/* a successor submitted for S would take over from S, not from P:
	 * cancelled while pending (one that started is S's take-over's) */
	if (*r->st.successor && !orphan(o, r))
		return 0;
	snprintf(was, sizeof(was), "%s", p);
	mg_chain_revert(&r->st, was, s, o->now, r->fate, sizeof(r->fate));
	snprintf(r->p_id, sizeof(r->p_id), "%s", was);
	mg_drivebase_say(o, 1, "successor %s started and ended (%s) while "
	    "job %s runs: %s keeps the service; deciding again for it", s->jobid,
	    *s->state ? s->state : "no state", was, was);
	return 1;
}

/* does the handed-over P run again (Slurm requeued it and it started
 * again)?  Its start after the one it was signalled in */
static int
restarted(const struct mg_drive *o, const struct mg_chainstate *st,
    const struct mg_live_job *p, const struct mg_live_job *s)
{
	int64_t was;

	if (!mg_drivebase_running(p, o->now) || strcmp(p->state, "CG") == 0 ||
	    strcmp(p->state, "COMPLETING") == 0)
		return 0;
	/* its start when it was signalled, else its successor's: it ran
	 * before either (the controller's clock, both) */
	if (*st->handed_start && mg_parse_date(st->handed_start, o->sl.tz,
	    &was) == 0)
		return p->start > was;
	return mg_drivebase_running(s, o->now) && p->start > s->start;
}

/*
 * A P handed over that went back to pending (it requeued itself late):
 * cancelled, or it would run beside its successor.  One that Slurm
 * requeued and started again before a run saw it pending serves beside
 * S: its take-over begins again, from a record of its own, and goes on
 * a step at every run; with S ended, P is the chain's job again; with S
 * requeued too and pending, P is the chain's job and S its successor,
 * held against P's new start as any successor is.  1 if
 * a take-over goes on (the fallback takes it further), else 0.
 */
static int
requeued(const struct mg_drive *o, struct run *r)
{
	struct mg_chainstate *st = &r->st;
	const struct mg_live_job *p = mg_live_find(&r->l, st->handed);
	const struct mg_live_job *s = mg_live_find(&r->l, st->current), *n;
	struct claimer c = { o, st };
	struct mg_takeover t;
	struct mg_takeover_rec rec;
	struct mg_diag d = { "" };
	char note[1024] = "";
	int64_t was;
	int outcome;

	/* a take-over of it under way (S's script, started again with S)
	 * goes on from its own record */
	if (strcmp(st->take.job, st->handed) == 0)
		return 0;
	/* handed over before a run saw S start, and running again while
	 * S is pending: P keeps the service as the chain's job, no longer
	 * one handed over (S, when it starts, takes over from it) */
	if (p != NULL && strcmp(st->handed, st->current) == 0 &&
	    (n = mg_live_find(&r->l, st->successor)) != NULL && n->pending &&
	    restarted(o, st, p, NULL)) {
		mg_drivebase_say(o, 1, "job %s, handed over to %s, started again (requeued "
		    "by Slurm) while %s is pending again: %s keeps the "
		    "service until %s takes over from it", st->handed,
		    st->successor, st->successor, st->handed, st->successor);
		st->handed[0] = st->handed_start[0] = '\0';
		st->handover_time = 0;
		return 0;
	}
	if (p != NULL && strcmp(st->handed, st->current) != 0 &&
	    restarted(o, st, p, s)) {
		/* S requeued too, pending: P is the chain's job again and
		 * S its successor, held against P's new start */
		if (s != NULL && s->pending) {
			/* a successor submitted for S would take over from
			 * S: cancelled while pending first */
			if (*st->successor && !orphan(o, r))
				return 0;
			mg_drivebase_say(o, 1, "job %s, handed over to %s, started again "
			    "(requeued by Slurm) while %s is pending again: %s "
			    "is the chain's job again, %s its successor",
			    st->handed, st->current, st->current, st->handed,
			    st->current);
			mg_chain_rewind(st, st->handed);
			snprintf(r->p_id, sizeof(r->p_id), "%s", st->current);
			return 0;
		}
		/* S has ended: P, running again, is the chain's job */
		if (!mg_drivebase_running(s, o->now)) {
			if (s != NULL)
				(void)give_back(o, r, s, st->handed);
			return 0;
		}
		mg_drivebase_say(o, 1, "job %s, handed over to %s, started again (requeued "
		    "by Slurm) and serves beside it: it is taken over again",
		    st->handed, st->current);
		memset(&st->take, 0, sizeof(st->take));
		snprintf(st->take.job, sizeof(st->take.job), "%s", st->handed);
		/* S's script took over once: this run acts for it now */
		st->take.due = mg_drivebase_local_now(o, r) - MG_DRIVE_FALLBACK_WAIT;
		st->handed[0] = '\0';
		return 1;
	}
	if (p == NULL || !p->pending || strcmp(st->handed, st->current) == 0)
		return 0;
	memset(&rec, 0, sizeof(rec));
	snprintf(rec.job, sizeof(rec.job), "%s", st->handed);
	rec.signalled = st->handover_time > 0 ? st->handover_time : 1;
	/* its start when signalled: one that starts as the step looks is
	 * a new run, signalled anew, not cancelled unwarned */
	snprintf(rec.p_start, sizeof(rec.p_start), "%s", st->handed_start);
	was = rec.signalled;
	mg_drivetake_conf(o, st->handed, &t, &c);
	t.claim = NULL;
	if (mg_takeover_step(&t, &rec, mg_drivebase_local_now(o, r), &outcome, note,
	    sizeof(note), &d) != 0)
		mg_drivebase_say(o, 1, "job %s, handed over, is pending again: %s",
		    st->handed, d.msg);
	else if (*note)
		mg_drivebase_say(o, 1, "job %s, handed over: %s", st->handed, note);
	if (rec.signalled > 0 && rec.signalled != was) {
		/* signalled anew: its take-over goes on from a record */
		st->take = rec;
		st->handed[0] = '\0';
		return 1;
	}
	return 0;
}

/*
 * A successor pending beside its running predecessor for a limit of
 * the user's (jobs, nodes, GPUs at once): it cannot start until P ends,
 * so an early submission gains nothing.  Said even when quiet.
 */
static void
held(const struct mg_drive *o, struct run *r)
{
	static const char *const limits[] = { "PerUser", "AssocGrp",
	    "AssocMax", "QOSGrp", "QOSMax", "MaxJobs", NULL };
	const char *sq[] = { o->sl.squeue, "-h", "-j", r->st.successor, "-o",
	    "%r", NULL };
	const struct mg_live_job *s = mg_live_find(&r->l, r->st.successor);
	char why[256] = "", *out;
	size_t len = 0;
	int k;

	if (!r->live || s == NULL || !s->pending ||
	    !mg_drivebase_running(mg_live_find(&r->l, r->p_id), o->now) ||
	    (out = mg_slurm_ask(&o->sl, sq, "Invalid job id", &len, why,
	    sizeof(why))) == NULL)
		return;
	out[strcspn(out, "\n")] = '\0';
	for (k = 0; limits[k]; k++)
		if (strstr(out, limits[k]) != NULL) {
			mg_drivebase_say(o, 1, "successor %s is pending for a limit of "
			    "yours (%s): it cannot start while job %s runs, so "
			    "submitting early gains nothing; ask for a limit "
			    "that allows both jobs at once", r->st.successor,
			    out, r->p_id);
			break;
		}
	free(out);
}

/*
 * A successor that Slurm held after its launch failed ("launch failed
 * requeued held") never starts by itself: it is cancelled and counted
 * as a failure, and the run decides again (a new successor, after the
 * back-off that failures bring).  A hold of the user's or of an
 * administrator's is said and left alone.  Said even when quiet.
 */
static void
unhold(const struct mg_drive *o, struct run *r)
{
	const char *sq[] = { o->sl.squeue, "-h", "-j", r->st.successor, "-o",
	    "%r", NULL };
	const char *sc[] = { o->take.scancel, r->st.successor, NULL };
	const struct mg_live_job *s;
	char why[256] = "", *out, *c;
	size_t len = 0;

	if (!r->live || o->dry_run || *r->st.successor == '\0' ||
	    (s = mg_live_find(&r->l, r->st.successor)) == NULL ||
	    !s->pending || (out = mg_slurm_ask(&o->sl, sq, "Invalid job id",
	    &len, why, sizeof(why))) == NULL)
		return;
	out[strcspn(out, "\n")] = '\0';
	if (strstr(out, "launch failed requeued held") != NULL) {
		/* a cancel whose answer was lost, tried again: "Invalid job
		 * id" says that it took */
		if ((c = mg_slurm_run(&o->sl, sc, &len, why,
		    sizeof(why))) == NULL && strstr(why, "Invalid job id") ==
		    NULL)
			mg_drivebase_say(o, 1, "successor %s is held by Slurm after its "
			    "launch failed, and the cancel failed (%s): the "
			    "next run tries again", r->st.successor, why);
		else {
			char p[sizeof(r->st.current)];

			free(c);
			mg_drivebase_say(o, 1, "successor %s was held by Slurm after its "
			    "launch failed: cancelled; deciding again for "
			    "job %s", r->st.successor, r->st.current);
			memcpy(p, r->st.current, sizeof(p));
			mg_chain_revert(&r->st, p, s, o->now, r->fate,
			    sizeof(r->fate));
		}
	} else if (strstr(out, "JobHeld") != NULL)
		mg_drivebase_say(o, 1, "successor %s is held (%s): it starts only once "
		    "released (scontrol release %s)", r->st.successor, out,
		    r->st.successor);
	free(out);
}

/*
 * What the run set on a pending successor, against its predecessor now
 * (the evidence of mg_drivebase_chain_job()): once P has ended, a begin time
 * (--min-run) and a nice value (--low) have no reason left and are
 * lifted; P started again (requeued) moves the begin time to its new
 * start's share.  A lift that fails is said and tried at the next run.
 * Said even when quiet: what holds the successor changed.
 */
static void
relift(const struct mg_drive *o, struct run *r)
{
	struct mg_chainstate *st = &r->st;
	const struct mg_live_job *s, *p;
	char note[MG_DIAG_MAX] = "", what[64], at[32];
	int64_t want = 0;
	int ended;

	/* P first: looking it up may add to the jobs (and move them) */
	if (!r->live || o->dry_run || *st->successor == '\0' ||
	    (st->held_until <= 0 && st->nice <= 0 && o->sub.min_run <= 0) ||
	    mg_drivebase_chain_job(o, r, st->current) == NULL ||
	    (s = mg_live_find(&r->l, st->successor)) == NULL || !s->pending)
		return;
	p = mg_live_find(&r->l, st->current);
	/* an end the dumps give is one (a running job's planned end is
	 * none), whatever this host's clock says of it */
	ended = !p->pending && p->end >= 0;
	if (st->nice > 0 && ended) {
		if (mg_slurm_update(&o->sl, s->jobid, "Nice=0", note,
		    sizeof(note)) == 0) {
			st->nice = 0;
			mg_drivebase_say(o, 1, "job %s has ended: successor %s no longer "
			    "waits behind other jobs (nice 0)", p->jobid,
			    s->jobid);
		} else
			mg_drivebase_say(o, 1, "job %s has ended, but successor %s still "
			    "waits behind other jobs: %s; the next run tries "
			    "again", p->jobid, s->jobid, note);
	}
	if (!ended && mg_drivebase_running(p, o->now) && o->sub.min_run > 0 &&
	    p->limit > 0)
		want = p->start + (int64_t)llround(o->sub.min_run *
		    (double)p->limit);
	/* (a time this clock has passed may be ahead of Slurm's) */
	if (ended && st->held_until > 0)
		snprintf(what, sizeof(what), "StartTime=now");
	else if (want > o->now - MG_DRIVE_SKEW && llabs(want -
	    st->held_until) > 60) {
		memcpy(what, "StartTime=", 11);
		mg_slurm_when(want, what + 10, sizeof(what) - 10);
	} else
		return;
	if (mg_slurm_update(&o->sl, s->jobid, what, note, sizeof(note)) !=
	    0) {
		mg_drivebase_say(o, 1, "successor %s: %s failed: %s; the next run tries "
		    "again", s->jobid, what, note);
		return;
	}
	if (ended)
		mg_drivebase_say(o, 1, "job %s ended before its minimum run: successor %s "
		    "is no longer held", p->jobid, s->jobid);
	else {
		mg_slurm_time(want, o->sl.tz, at, sizeof(at));
		mg_drivebase_say(o, 1, "job %s started at another time (requeued?): "
		    "successor %s is held until %s, when it has run %g%% of "
		    "its limit", p->jobid, s->jobid, at, 100 * o->sub.min_run);
	}
	st->held_until = ended ? 0 : want;
}

/* a submission that was started and not confirmed, settled */
static int
settle(const struct mg_drive *o, struct run *r,
    struct mg_diag *diag)
{
	char id[32];
	int rv;

	rv = r->live ? mg_slurm_settle(&o->sl, r->st.token, r->st.token_time,
	    o->now, r->p_id, id, sizeof(id), r->note, sizeof(r->note)) : -1;
	if (rv < 0)
		return mg_diag_set(diag, MG_EIO, "'%s': a submission started "
		    "at %lld is not confirmed and cannot be settled (%.200s); not "
		    "submitting again until squeue or sacct shows where it "
		    "went (look for comment mirage-advise:%s in squeue -o "
		    "'%%i %%k' or sacct -o JobID,Comment)", o->state,
		    (long long)r->st.token_time, r->live ? r->note :
		    "-Q given", r->st.token);
	*r->note = '\0';
	if (*id) {
		snprintf(r->st.successor, sizeof(r->st.successor), "%s", id);
		r->st.submitted++;
		mg_drivebase_record_link(o, r, id, r->st.token_time);
		mg_drivebase_say(o, 0, "the submission of %s started at %lld was found as "
		    "job %s", o->sub.script, (long long)r->st.token_time, id);
	} else
		mg_drivebase_say(o, 0, "the submission started at %lld is in neither squeue "
		    "nor sacct: trying again", (long long)r->st.token_time);
	r->st.token[0] = '\0';
	r->st.token_time = 0;
	return MG_OK;
}

/*
 * The chain's state against the queue: a submission not confirmed is
 * settled by evidence, a successor that started becomes the chain's
 * job, one that ended before it started is counted.  0 to go on, 1
 * when the run ends here, or a status.
 */
int
mg_driverecover_reconcile(const struct mg_drive *o, struct run *r,
    struct mg_diag *diag)
{
	char old[sizeof(r->st.current)];
	int rv;

	if (*r->st.token && (rv = settle(o, r, diag)) != 0)
		return rv;
	/*
	 * A successor that started is the chain's job now.  One the
	 * queue does not show (an empty answer of a controller in
	 * trouble, another partition) is looked up in sacct, in any
	 * partition; if it is in no dump it stays the successor:
	 * never submitted twice.
	 */
	if (*r->st.successor && r->queue_ok) {
		const struct mg_live_job *s = mg_drivebase_chain_job(o, r, r->st.successor);

		switch (mg_chain_step(&r->st, s, o->now, old, sizeof(old),
		    r->fate, sizeof(r->fate))) {
		case MG_CHAIN_STARTED:
			if (!(r->live && give_back(o, r, s, old)) &&
			    o->handover && strcmp(r->st.handed, old) &&
			    strcmp(r->st.take.job, old) != 0) {
				/* a take-over to be done: by S's script, or
				 * by a cron run's fallback */
				memset(&r->st.take, 0, sizeof(r->st.take));
				snprintf(r->st.take.job,
				    sizeof(r->st.take.job), "%s", old);
				r->st.take.due = mg_drivebase_local_now(o, r);
			}
			snprintf(r->p_id, sizeof(r->p_id), "%s",
			    r->st.current);
			break;
		case MG_CHAIN_LOST:
			mg_drivebase_say(o, 1, "successor %s ended before it started (%s)%s",
			    s->jobid, *s->state ? s->state : "no state",
			    r->st.failures >= MG_DRIVE_MAX_FAILURES ? "" :
			    ": deciding again for the chain's job");
			break;
		case MG_CHAIN_SAME:
			break;
		}
	}
	/*
	 * A chain that hands over: a take-over not finished (S's script
	 * ran none, or stopped halfway) is taken a step further, and a
	 * P handed over that requeued itself is cancelled.
	 */
	if (o->handover && r->live && !o->dry_run && r->queue_ok) {
		const struct mg_live_job *s = mg_drivebase_chain_job(o, r, r->st.current);

		snprintf(old, sizeof(old), "%s", r->st.take.job);
		if (*old && strcmp(r->st.handed, old) != 0 &&
		    (s == NULL || !give_back(o, r, s, old)))
			fallback(o, r);
		if (*r->st.handed && requeued(o, r))
			fallback(o, r);
	}
	unhold(o, r);
	relift(o, r);
	if (o->state != NULL && !o->dry_run) {
		r->st.updated = o->now;
		if ((rv = mg_chain_write(o->state, &r->st, diag)) != 0)
			return rv;
	}
	if (*r->st.successor == '\0')
		return 0;
	held(o, r);
	r->a.rule = "state";
	mg_advise_find(&r->l, r->p_id, o->now, &r->a);
	snprintf(r->a.why, sizeof(r->a.why), "successor %s was submitted "
	    "already and has not started%s", r->st.successor,
	    mg_live_find(&r->l, r->st.successor) ? "" : " (it is in no dump: "
	    "not submitting again)");
	r->decision = "already-submitted";
	r->outcome = MG_DRIVE_DONE;
	return 1;
}

/* the chain's job: in a dump, ended, failing?  0 to go on, 1 when the
 * run ends here, or a status */
int
mg_driverecover_check_p(const struct mg_drive *o, struct run *r,
    struct mg_diag *diag)
{
	int rv;

	mg_advise_find(&r->l, r->p_id, o->now, &r->a);
	if (r->queue_ok && r->a.p_state == 0 && r->live) {
		/* not in the queue: has it ended, or is it unknown?
		 * sacct -j looks through all time, in any partition */
		char why[MG_DIAG_MAX + 256] = "";

		if (r->have_state) {
			/* the chain's own job: the controller first */
			(void)mg_drivebase_chain_job(o, r, r->p_id);
			mg_advise_find(&r->l, r->p_id, o->now, &r->a);
		} else {
			r->l.partition = NULL;
			if (mg_slurm_job(&o->sl, &r->l, r->p_id, why,
			    sizeof(why)) != 0)
				r->queue_ok = 0;	/* cannot tell */
			else
				mg_advise_find(&r->l, r->p_id, o->now, &r->a);
			r->l.partition = o->partition;
		}
	}
	if (!r->live && !o->now_given && r->a.p_state == 2 && r->a.p_end > 0 &&
	    r->a.p_end <= o->now)
		snprintf(r->a.note, sizeof(r->a.note), "the dump is older than "
		    "%s's end by its limit: give --now the time of the "
		    "dump", r->p_id);
	if (r->queue_ok && r->a.p_state == 0) {
		r->a.rule = "unknown";
		snprintf(r->a.why, sizeof(r->a.why), "job %s is in no dump "
		    "(squeue%s): a mistyped id? nothing to do", r->p_id,
		    r->live ? ", sacct -j" : o->nhist ? ", -Q, -H" : ", -Q");
		r->decision = "unknown-job";
		r->outcome = MG_DRIVE_UNKNOWN;
		return 1;
	}
	/*
	 * The chain's job ended in failure: counted once; one that
	 * ran its course, or has run an hour, clears the count.
	 */
	if (o->state != NULL && r->queue_ok && (r->a.p_state == 2 ||
	    r->a.p_state == 3)) {
		const struct mg_live_job *pj = mg_live_find(&r->l, r->p_id);

		mg_chain_job(&r->st, pj, r->a.p_state == 3, o->now, r->fate,
		    sizeof(r->fate));
		if (!o->dry_run && (rv = mg_chain_write(o->state, &r->st,
		    diag)) != 0)
			return rv;
	}
	/* a link that ran and is pending again (Slurm requeued it after a
	 * node failure or a preemption): nothing of the chain runs; a
	 * start recorded says so for certain */
	if (r->have_state && r->live && r->queue_ok && r->a.p_state == 1 &&
	    r->st.current_start > 0) {
		char at[32];

		mg_format_time(r->st.current_start, at, sizeof(at));
		mg_drivebase_say(o, 1, "job %s, the chain's job, ran from %s and "
		    "is pending again: Slurm requeued it (a preemption or a "
		    "node failure, not its limit); nothing of the chain runs "
		    "until it starts again, and no other successor is "
		    "submitted for it%s%s%s", r->p_id, at, *r->st.successor ?
		    " (" : "", r->st.successor, *r->st.successor ?
		    " stays queued)" : "");
	} else if (r->have_state && r->live && r->queue_ok &&
	    r->a.p_state == 1 && (r->st.submitted > 0 || *r->st.handed))
		mg_drivebase_say(o, 1, "job %s, the chain's job, is pending again (requeued "
		    "by Slurm?): nothing of the chain runs until it starts",
		    r->p_id);
	if (o->state == NULL || r->st.failures < MG_DRIVE_MAX_FAILURES)
		return 0;
	mg_drivebase_say(o, 1, "'%s': the chain's last %lld jobs failed "
	    "(the last: %s): not submitting another; mend the script, then "
	    "remove '%s' and start the chain again with -j", o->state,
	    (long long)r->st.failures, *r->fate ? r->fate : r->st.failed,
	    o->state);
	r->a.rule = "stopped";
	snprintf(r->a.why, sizeof(r->a.why), "%lld successors in a row failed "
	    "(the last: %s): the chain is stopped", (long long)r->st.failures,
	    *r->fate ? r->fate : r->st.failed);
	r->decision = "stopped";
	r->outcome = MG_DRIVE_STOPPED;
	return 1;
}
