/*
 * drivebase.c: what every step of a run for a chain uses: the run's
 * clock, its warnings, the chain's jobs as the cluster shows them, the
 * links recorded (drive_int.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live/drive_int.h"

int64_t
mg_drivebase_local_now(const struct mg_drive *o, const struct run *r)
{
	return o->now - r->behind + (mg_clock_now() - r->t0);
}

void
mg_drivebase_say(const struct mg_drive *o, int loud, const char *fmt, ...)
{
	char msg[2 * MG_DIAG_MAX];
	va_list ap;

	if (o->sl.warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->sl.warn(o->sl.arg, loud, msg);
}

int
mg_drivebase_nomem(struct mg_diag *diag)
{
	return mg_diag_set(diag, MG_ENOMEM, "out of memory");
}

void
mg_drive_question(const struct mg_drive *o, const char *p_id, int32_t nodes,
    struct mg_advise *q)
{
	memset(q, 0, sizeof(*q));
	q->job = p_id;
	q->now = o->now;
	q->now_given = o->now_given;
	q->nodes = nodes;
	q->s_nodes = o->s_nodes;
	q->s_limit = o->s_limit;
	q->prio = o->rule.prio;
	q->threshold = o->rule.threshold;
	q->model = o->rule.model;
	q->partition = o->partition;
	q->handover = o->handover;
	/* handing over, an hour of P's limit given up beyond
	 * MG_ADVISE_HANDOVER of both jobs holding their nodes is priced,
	 * at its own default unless told */
	q->lambda = o->handover && !o->rule.lambda_given ? MG_PLAN_HANDOVER_LAMBDA :
	    o->rule.lambda;
	q->tz = o->sl.tz;
}

/*
 * When a successor submitted now is held until for P's minimum run (P's
 * start, the controller's, and its share of P's limit), or 0.  Slurm
 * judges the time on its own clock: one that this host's clock has
 * passed by less than MG_DRIVE_SKEW is given all the same (a cron host
 * ahead of the controller would not hold at all).
 */
int64_t
mg_drivebase_held_until(const struct mg_drive *o, const struct run *r)
{
	int64_t at;

	if (o->sub.min_run <= 0 || r->a.p_start < 0 || r->a.p_limit <= 0)
		return 0;
	at = r->a.p_start + (int64_t)llround(o->sub.min_run *
	    (double)r->a.p_limit);
	return at > o->now - MG_DRIVE_SKEW ? at : 0;
}

/*
 * The link to succ, submitted at when, appended to the chain's links
 * (state.links) for its report.  The job is queued whatever happens
 * here: a link that cannot be recorded is said, and the run goes on.
 */
void
mg_drivebase_record_link(const struct mg_drive *o, const struct run *r,
    const char *succ, int64_t when)
{
	struct mg_diag d = { "" };
	struct mg_chainlink k;
	char path[4200];

	if (o->state == NULL || o->dry_run)
		return;
	memset(&k, 0, sizeof(k));
	snprintf(k.pred, sizeof(k.pred), "%s", r->p_id);
	snprintf(k.succ, sizeof(k.succ), "%s", succ);
	k.submitted = when;
	k.held = mg_drivebase_held_until(o, r);
	snprintf(k.rule, sizeof(k.rule), "%s", r->a.rule != NULL ? r->a.rule :
	    "");
	k.promise = r->promise > 0 ? r->promise : o->rule.promise > 0 ?
	    o->rule.promise : 0;
	k.handover = o->handover;
	snprintf(path, sizeof(path), "%s.links", o->state);
	if (mg_chain_link_add(path, &k, &d) != 0)
		mg_drivebase_say(o, 1, "%s: the chain's report will not show the link from "
		    "%s to %s", d.msg, k.pred, k.succ);
}

/*
 * job id, one of the chain's own, as the cluster shows it: the queue
 * read, else the controller's answer for it, else sacct, in any
 * partition (a chain's jobs are known by id, whatever partition they
 * run in).  A job the controller has forgotten has ended, whatever a
 * lagging accounting shows of it, or if it shows nothing yet.  NULL if
 * nothing shows it.
 */
const struct mg_live_job *
mg_drivebase_chain_job(const struct mg_drive *o, struct run *r, const char *id)
{
	char why[MG_DIAG_MAX + 256] = "";
	const struct mg_live_job *j = mg_live_find(&r->l, id);

	if (j != NULL || !r->live || *id == '\0')
		return j;
	r->l.partition = NULL;
	/* the controller first: it knows a job that ended minutes ago
	 * (MinJobAge) before an accounting database that lags does */
	if (mg_slurm_one(&o->sl, &r->l, id, why, sizeof(why)) != 0 ||
	    (j = mg_live_find(&r->l, id)) == NULL) {
		int forgot = strstr(why, "Invalid job id") != NULL;
		size_t k;

		(void)mg_slurm_job(&o->sl, &r->l, id, why, sizeof(why));
		/* a job the controller no longer holds does not run,
		 * whatever a lagging accounting still shows */
		for (k = 0; forgot && k < r->l.n; k++) {
			struct mg_live_job *x = &r->l.job[k];

			if (strcmp(x->jobid, id) != 0 || (x->end >= 0 &&
			    x->end <= o->now))
				continue;
			if (x->pending || x->start > o->now)
				x->start = -1;	/* it ended before it started */
			x->pending = 0;
			x->end = o->now;
			snprintf(x->state, sizeof(x->state), "ENDED");
		}
		if (forgot && mg_live_find(&r->l, id) == NULL)
			(void)mg_live_ended(&r->l, id, o->now);
	}
	r->l.partition = o->partition;
	if (r->run != NULL)
		mg_drivebase_clock_behind(r);
	return mg_live_find(&r->l, id);
}

/* is job j running at now (started, not ended)? */
int
mg_drivebase_running(const struct mg_live_job *j, int64_t now)
{
	return j != NULL && !j->pending && j->start >= 0 && j->start <= now &&
	    (j->end < 0 || j->end > now);
}

/*
 * This host's clock behind the controller's: a job the controller shows
 * submitted or started after this host's now.  The run's now moves to
 * the latest such time (a lower bound of the controller's now), and it
 * is said: a chain judged by a clock behind Slurm's sees its jobs start
 * and end late.  A clock ahead is not seen this way, and does no harm
 * the take-over does not guard against (its grace is measured on one
 * host's clock).
 */
void
mg_drivebase_clock_behind(struct run *r)
{
	struct mg_drive *o = r->run;
	int64_t late = o->now;
	size_t k;

	if (!r->live || o->now_given)
		return;
	for (k = 0; k < r->l.n; k++) {
		const struct mg_live_job *j = &r->l.job[k];

		if (j->submit > late)
			late = j->submit;
		if (j->start > late && !j->pending)
			late = j->start;
		if (j->end > late && strcmp(j->state, "RUNNING") != 0 &&
		    strcmp(j->state, "COMPLETING") != 0 && !j->pending)
			late = j->end;		/* ended, by Slurm's clock */
	}
	if (late - o->now < 60)		/* within a minute: as it is */
		return;
	if (r->behind == 0)
		mg_drivebase_say(o, 0, "this host's clock is at least %lld s behind "
		    "Slurm's (jobs submitted, started or ended after it): the "
		    "run takes Slurm's time; set the clock (NTP)",
		    (long long)(late - o->now));
	r->behind += late - o->now;
	o->now = late;
	r->l.now = late;
}
