/*
 * drive.c: one run for a chain, and a take-over (drive.h).
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

#include "base/clock.h"
#include "base/parse.h"
#include "live/drive.h"
#include "live/chain.h"
#include "live/takeover.h"

#define PLAN_HISTORY	(29 * MG_DAY)	/* sacct for the planner: 4 weeks + */
#define PLAN_MIN_JOBS	100	/* ended jobs it needs to learn from */
#define PERIOD		MG_ADVISE_PERIOD
/* how long a take-over waits for the chain's lock to record a step: a
 * cron run holds it while it reads Slurm (minutes, when Slurm is slow) */
#define CLAIM_WAIT	180

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

/* now on this host's own clock (not Slurm's, which a clock behind it
 * takes for the decision), as the take-over's record keeps times: the
 * run's now and the time it has taken so far */
static int64_t
local_now(const struct mg_drive *o, const struct run *r)
{
	return o->now - r->behind + (mg_clock_now() - r->t0);
}

/* a warning through o->sl.warn (loud: to be said even when quiet) */
static void say(const struct mg_drive *o, int loud, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
say(const struct mg_drive *o, int loud, const char *fmt, ...)
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

static int
nomem(struct mg_diag *diag)
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
	q->prio = o->prio;
	q->threshold = o->threshold;
	q->model = o->model;
	q->partition = o->partition;
	q->handover = o->handover;
	/* handing over, an hour of P's limit given up beyond
	 * MG_ADVISE_HANDOVER of both jobs holding their nodes is priced,
	 * at its own default unless told */
	q->lambda = o->handover && !o->lambda_given ? MG_PLAN_HANDOVER_LAMBDA :
	    o->lambda;
	q->tz = o->sl.tz;
}

/*
 * The capacity over the planner's history: from the events dump, else
 * live from sacctmgr show event (of the partition's nodes, as sinfo
 * lists them).  A bad dump stops the run; live trouble is said, and the
 * capacity now holds (c->n 0).
 */
static int
capacity(const struct mg_drive *o, int32_t nodes, struct mg_capacity *c,
    struct mg_diag *diag)
{
	char note[MG_DIAG_MAX + 256];
	int rv;

	memset(c, 0, sizeof(*c));
	if (o->events != NULL) {
		/* the partition's nodes, if the configuration names them */
		const char *only = *o->part_hosts ? o->part_hosts : NULL;

		if (o->partition != NULL && only == NULL)
			say(o, 0, "--events: the nodes of partition '%s' are "
			    "not known (PartitionName=%s Nodes=... in -c): the "
			    "events of every node in the dump are counted",
			    o->partition, o->partition);
		/* said even when quiet, as live: another partition's
		 * drained nodes would count as this one's */
		if (o->partition == NULL)
			say(o, 1, "--events without -p: the events of every "
			    "node in the dump are counted, whatever its "
			    "partition; give -p the chain's partition");
		if ((rv = mg_events_read(o->events, o->sl.tz, nodes, only,
		    o->now - PLAN_HISTORY, o->now, c, diag)) != 0)
			return rv == MG_EINVAL ? MG_EFORMAT : rv;
		return MG_OK;
	}
	if (o->queue != NULL)	/* dumps, not a live cluster */
		return MG_OK;
	/* said even when quiet: another partition's drained nodes would
	 * count as this one's */
	if (o->partition == NULL)
		say(o, 1, "no -p: the events of every node of the cluster are "
		    "counted, whatever its partition; give -p the chain's "
		    "partition");
	if ((rv = mg_slurm_capacity(&o->sl, nodes, o->now - PLAN_HISTORY,
	    o->now, c, note, sizeof(note))) == MG_ENOMEM)
		return nomem(diag);
	if (rv != 0)
		say(o, 0, "no history of the nodes: %s", note);
	return MG_OK;
}

/* the model's decision, its misfits said first; 0, 1 when it cannot
 * decide (a->note says why), or a status */
static int
by_model(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_diag *diag)
{
	char msg[4][512];
	struct mg_advise q;
	int k, n, rv;

	mg_drive_question(o, r->p_id, nodes, &q);
	n = o->quiet ? 0 : mg_advise_misfit(&q, r->m, msg, 4);
	for (k = 0; k < n; k++)
		say(o, 0, "%s", msg[k]);
	if ((rv = mg_advise_model(&q, r->m, &r->l, &r->a)) == MG_ENOMEM)
		return nomem(diag);
	return rv != 0;
}

/* what a setting promises, and how old it is, said: a promise short of
 * the target changes what a decision means, and is said even when
 * quiet, with its ceiling */
static void
promised(const struct mg_drive *o, struct run *r,
    const struct mg_drive_chosen *c)
{
	if (c->row.history_end > 0 && o->now - c->row.history_end > 7 * MG_DAY)
		say(o, 1, "the settings were chosen on a history that ended "
		    "%.1f days ago: the cluster may have changed; choose them "
		    "again (nightly-retrain.sh -T does each night)",
		    (double)(o->now - c->row.history_end) / MG_DAY);
	if (c->row.promise < 0)
		return;
	r->a.promise = c->row.promise;
	r->a.confidence = c->row.confidence;
	r->a.bound = c->row.bound;
	r->a.certified = c->row.certified;
	if (c->row.certified)
		say(o, 0, "the settings promise %g%% of %d-node links without "
		    "an interruption at %g%% confidence (%ld chosen on)",
		    100 * c->row.promise, (int)c->row.nodes, 100 * c->row.confidence,
		    c->row.links);
	else
		say(o, 1, "the settings promise %.1f%% of %d-node links at "
		    "%g%% confidence, not the target: %s (at most %.1f%% could "
		    "start in time)", 100 * c->row.promise, (int)c->row.nodes,
		    100 * c->row.confidence, c->row.bound < 1 ? "some waited "
		    "longer than a whole limit however early submitted" :
		    "the links chosen on certify no more", 100 * c->row.bound);
}

static int pick(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_drive_chosen *c, struct mg_diag *diag);

/* the setting chosen for the chain's size (o->chosen) into *c; a size
 * with none, or settings chosen for a cluster of other than nodes, are
 * errors: the chain is not advised on a guess (1: one under way goes on
 * by the reactive rule) */
static int
chosen(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_drive_chosen *c, struct mg_diag *diag)
{
	int rv = pick(o, r, nodes, c, diag);

	/* a chain under way is not stopped by them: the reactive rule
	 * decides, said even when quiet (a new chain stops) */
	if (rv != MG_EINVAL || !r->have_state)
		return rv;
	say(o, 1, "%s; the chain goes on by the reactive rule (its successor "
	    "at its predecessor's end)", diag->msg);
	snprintf(r->a.note, sizeof(r->a.note), "the settings cannot be used");
	return 1;
}

static int
pick(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_drive_chosen *c, struct mg_diag *diag)
{
	const struct mg_live_job *p = mg_live_find(&r->l, r->p_id);
	int32_t n = o->s_nodes > 0 ? o->s_nodes : p != NULL && p->nodes > 0 ?
	    p->nodes : 1;
	int32_t sizes[MG_DRIVE_MAXCHOSEN];
	int k;

	for (k = 0; k < o->nchosen; k++)
		sizes[k] = o->chosen[k].row.nodes;
	if ((k = mg_table_size(sizes, o->nchosen, n)) < 0)
		return mg_diag_set(diag, MG_EINVAL, "the settings hold nothing "
		    "for %d-node chains or fewer: choose it with mirage-eval "
		    "--target -k %d", (int)n, (int)n);
	*c = o->chosen[k];
	if (c->row.cluster_nodes > 0 && nodes > 0 &&
	    c->row.cluster_nodes != nodes)
		return mg_diag_set(diag, MG_EINVAL, "the settings were chosen "
		    "for a cluster of %d nodes, and this one has %d: choose "
		    "them again with mirage-eval --target -n %d",
		    (int)c->row.cluster_nodes, (int)nodes, (int)nodes);
	if (c->row.nodes != n)	/* it changes what the promise means */
		say(o, 1, "the settings hold nothing for %d-node chains: the "
		    "%d-node chains' row decides (choose one with mirage-eval "
		    "--target -k %d)", (int)n, (int)c->row.nodes, (int)n);
	promised(o, r, c);
	r->promise = c->row.promise > 0 ? c->row.promise : 0;
	return MG_OK;
}

/* a rule chosen for a target that needs no model: a fixed lead, or the
 * scheduler estimate's margin */
static int
by_rule(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_diag *diag)
{
	struct mg_drive_chosen c;
	struct mg_advise q;
	int rv;

	if ((rv = chosen(o, r, nodes, &c, diag)) != 0)
		return rv;
	mg_drive_question(o, r->p_id, nodes, &q);
	if (strcmp(c.row.method, "reactive") == 0) {
		/* recommended where nothing kept more: P's end, as afterany */
		snprintf(r->a.note, sizeof(r->a.note), "the settings recommend "
		    "the reactive rule for %d-node chains", (int)c.row.nodes);
		return 1;
	}
	if (c.other && !r->have_state)
		return mg_diag_set(diag, MG_EINVAL, "the settings recommend %s "
		    "for %d-node chains: %s", c.row.method, (int)c.row.nodes,
		    strcmp(c.row.method, "planner") == 0 ? "add --plan" : "give "
		    "-m with its threshold chosen by mirage-train --target");
	if (c.other) {
		say(o, 1, "the settings recommend %s for %d-node chains, which "
		    "this run cannot apply (%s); the chain goes on by the "
		    "reactive rule (its successor at its predecessor's end)",
		    c.row.method, (int)c.row.nodes, strcmp(c.row.method,
		    "planner") == 0 ? "add --plan" : "give -m with its "
		    "threshold chosen by mirage-train --target");
		snprintf(r->a.note, sizeof(r->a.note), "the settings cannot "
		    "be used");
		return 1;
	}
	if (c.row.kind == MG_SETTING_LEAD) {
		mg_advise_lead(&q, c.row.setting, &r->l, &r->a);
		return 0;
	}
	if (c.row.kind != MG_SETTING_MARGIN)
		return mg_diag_set(diag, MG_EINVAL, "the settings give the "
		    "planner's price for %d-node chains: add --plan",
		    (int)c.row.nodes);
	if (mg_advise_estimate(&q, c.row.setting, &r->l, &r->a) != 0)
		return nomem(diag);
	return 0;
}

/* the planner's decision on the history and the nodes' capacity; 0, 1
 * when it cannot decide (a->note says why), or a status */
static int
by_plan(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_diag *diag)
{
	struct mg_capacity cap = { 0 };
	struct mg_drive_chosen c;
	struct mg_advise q;
	struct mg_trace tr;
	int rv = 1;

	if (mg_live_history(&r->l, o->now, &tr) != 0)
		return nomem(diag);
	if (tr.n < PLAN_MIN_JOBS)
		snprintf(r->a.note, sizeof(r->a.note), "the history holds %zu "
		    "ended jobs, the planner needs %d: give -H with the last "
		    "4 weeks of sacct (live, it asks sacct for them)", tr.n,
		    PLAN_MIN_JOBS);
	else if ((rv = capacity(o, nodes, &cap, diag)) == 0) {
		mg_drive_question(o, r->p_id, nodes, &q);
		if (o->nchosen > 0 && (rv = chosen(o, r, nodes, &c,
		    diag)) != 0) {
			mg_trace_release(&tr);
			mg_capacity_release(&cap);
			return rv;
		}
		if (o->nchosen > 0)
			q.lambda = c.row.setting;
		if ((rv = mg_advise_plan(&q, &o->pc, &r->l, &tr, &cap,
		    &r->a)) == MG_ENOMEM)
			rv = nomem(diag);
		else
			rv = rv != 0;
	}
	mg_trace_release(&tr);
	mg_capacity_release(&cap);
	return rv;
}

/*
 * When a successor submitted now is held until for P's minimum run (P's
 * start, the controller's, and its share of P's limit), or 0.  Slurm
 * judges the time on its own clock: one that this host's clock has
 * passed by less than MG_DRIVE_SKEW is given all the same (a cron host
 * ahead of the controller would not hold at all).
 */
static int64_t
held_until(const struct mg_drive *o, const struct run *r)
{
	int64_t at;

	if (o->min_run <= 0 || r->a.p_start < 0 || r->a.p_limit <= 0)
		return 0;
	at = r->a.p_start + (int64_t)llround(o->min_run *
	    (double)r->a.p_limit);
	return at > o->now - MG_DRIVE_SKEW ? at : 0;
}

/* the seconds from now it is held for, or 0 */
static int64_t
held_for(const struct mg_drive *o, const struct run *r)
{
	int64_t at = held_until(o, r);

	return at > o->now ? at - o->now : 0;
}

static int running(const struct mg_live_job *j, int64_t now);

/* the nice value a successor is submitted with: behind every other job
 * while its predecessor runs (--low), or 0 */
static int64_t
nice_for(const struct mg_drive *o, struct run *r)
{
	return o->low && running(mg_live_find(&r->l, r->p_id), o->now) ?
	    MG_DRIVE_LOW_NICE : 0;
}

/* the directory a successor runs in: the chain's, unless its script
 * sets its own (#SBATCH -D) or an older state recorded none */
static const char *
chain_dir(const struct mg_drive *o, const struct mg_chainstate *st)
{
	return o->script_chdir || *st->workdir == '\0' ? NULL : st->workdir;
}

/*
 * The link to succ, submitted at when, appended to the chain's links
 * (state.links) for its report.  The job is queued whatever happens
 * here: a link that cannot be recorded is said, and the run goes on.
 */
static void
record_link(const struct mg_drive *o, const struct run *r, const char *succ,
    int64_t when)
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
	k.held = held_until(o, r);
	snprintf(k.rule, sizeof(k.rule), "%s", r->a.rule != NULL ? r->a.rule :
	    "");
	k.promise = r->promise > 0 ? r->promise : o->promise > 0 ?
	    o->promise : 0;
	k.handover = o->handover;
	snprintf(path, sizeof(path), "%s.links", o->state);
	if (mg_chain_link_add(path, &k, &d) != 0)
		say(o, 1, "%s: the chain's report will not show the link from "
		    "%s to %s", d.msg, k.pred, k.succ);
}

/* sbatch the successor: the token recorded first, then the job */
static int
submit(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
{
	struct mg_chainstate *st = &r->st;
	struct mg_diag d = { "" };
	struct mg_sbatch b;
	char note[MG_DIAG_MAX + 256];
	int rv, k;

	mg_chain_token(st->token, sizeof(st->token));
	st->token_time = o->now;
	st->updated = o->now;
	/* what the submission sets on S, kept with its token: a job whose
	 * answer is lost and is found later is lifted all the same */
	st->held_until = held_until(o, r);
	st->nice = nice_for(o, r);
	if ((rv = mg_chain_write(o->state, st, diag)) != 0)
		return rv;
	memset(&b, 0, sizeof(b));
	b.script = o->script;
	b.args = o->script_args;
	b.nargs = o->nscript_args;
	b.token = st->token;
	b.after = r->p_id;
	b.dependency = r->dependency;
	b.state = o->state;
	b.begin = held_until(o, r);
	b.nice = nice_for(o, r);
	b.workdir = chain_dir(o, st);
	/* refused without being acted on (a rate limit, a backup in
	 * standby): nothing was queued, so it is sent again at once, as
	 * a command that reads is (1 s, 2 s, ... apart) */
	for (k = 1; (rv = mg_slurm_submit(&o->sl, &b, st->successor,
	    sizeof(st->successor), note, sizeof(note))) != 0 &&
	    mg_slurm_undelivered(note) && k < o->sl.tries; k++)
		mg_clock_sleep((int64_t)1 << (k - 1), MG_CLOCK_RETRY);
	if (rv != 0 && mg_slurm_undelivered(note)) {
		/* it never reached the controller: nothing was queued, and
		 * the next run submits again */
		st->token[0] = '\0';
		st->token_time = 0;
		st->successor[0] = '\0';
		st->held_until = st->nice = 0;
		if (mg_chain_write(o->state, st, &d) != 0)
			return mg_diag_set(diag, MG_EIO, "%s; %.300s", note,
			    d.msg);
		return mg_diag_set(diag, MG_EIO, "%s; nothing was queued: the "
		    "next run submits again", note);
	}
	if (rv != 0)
		/* even a failure with a message may have queued the job
		 * ("Socket timed out on send/recv"): the token stays; a
		 * hold that the site may refuse is named */
		return mg_diag_set(diag, rv == MG_ENOMEM ? rv : MG_EIO,
		    "%s; the next run looks for %s%s", note, rv == MG_EFORMAT ?
		    "the submission in the queue" : "it in the queue before "
		    "trying again", b.begin > 0 ? " (it asked sbatch --begin "
		    "for --min-run: where the site refuses that, leave "
		    "--min-run out)" : "");
	snprintf(r->a.submitted, sizeof(r->a.submitted), "%s", st->successor);
	r->a.dependency = r->dependency;
	record_link(o, r, st->successor, o->now);
	st->token[0] = '\0';
	st->token_time = 0;
	st->submitted++;
	st->updated = o->now;
	if ((rv = mg_chain_write(o->state, st, &d)) != 0)
		return mg_diag_set(diag, rv, "%.400s (job %s was submitted: "
		    "record it by hand)", d.msg, st->successor);
	return MG_OK;
}

/* who records a take-over: the chain's state, locked for each record
 * (S's script), or already locked by the run (a cron run's fallback) */
struct claimer {
	const struct mg_drive *o;
	struct mg_chainstate *st;	/* the run's, locked; NULL: the file */
};

/* the take-over's warnings, said even when quiet */
static void
takeover_warn(void *arg, const char *msg)
{
	const struct claimer *c = arg;

	say(c->o, 1, "%s", msg);
}

/* a step of the take-over recorded in the chain's state first: 1 go on,
 * 0 the state shows it taken by another, or a status */
static int
claim(void *arg, enum mg_takeover_step step, struct mg_takeover_rec *rec)
{
	const struct claimer *c = arg;
	struct mg_chainstate file, *st = c->st;
	struct mg_diag d = { "" };
	int fd = -1, rv, done = 0;

	if (st == NULL) {
		if ((fd = mg_chain_lock(c->o->state, CLAIM_WAIT, &d)) < 0)
			return fd;
		if ((rv = mg_chain_read(c->o->state, &file, &d)) != 1) {
			mg_chain_unlock(fd);
			return rv < 0 ? rv : MG_EIO;	/* no chain: none */
		}
		st = &file;
	}
	done = mg_takeover_merge(&st->take, step, rec) == 0;
	rv = done ? 0 : mg_chain_write(c->o->state, st, &d) == 0 ? 1 :
	    MG_EIO;
	mg_chain_unlock(fd);
	return rv;
}

/* the settings of a take-over of job p */
static void
takeover_conf(const struct mg_drive *o, const char *p, struct mg_takeover *t,
    struct claimer *c)
{
	const struct passwd *pw = getpwuid(getuid());

	memset(t, 0, sizeof(*t));
	t->job = p;
	t->squeue = o->sl.squeue;
	t->sacct = o->sl.sacct;
	t->scancel = o->scancel;
	t->signal = o->sig;
	t->full = o->full;
	t->grace = o->grace;
	t->kill_wait = o->kill_wait > 0 ? o->kill_wait : MG_TAKEOVER_KILLED;
	t->poll = o->grace >= 50 ? 5 : 1;
	t->tries = o->sl.tries;
	t->user = pw ? pw->pw_name : NULL;
	t->host = o->host;
	t->ready = o->ready;
	t->ready_time = o->ready_time;
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
static void
handed(struct mg_chainstate *st, const char *p, const char *start,
    int64_t now)
{
	snprintf(st->handed, sizeof(st->handed), "%s", p);
	st->handover_time = now;
	/* its start when signalled: a start other than it is a new run */
	snprintf(st->handed_start, sizeof(st->handed_start), "%s",
	    start != NULL && *start ? start : strcmp(st->take.job, p) == 0 ?
	    st->take.p_start : "");
	memset(&st->take, 0, sizeof(st->take));
}

static void clock_behind(struct run *r);

/*
 * job id, one of the chain's own, as the cluster shows it: the queue
 * read, else the controller's answer for it, else sacct, in any
 * partition (a chain's jobs are known by id, whatever partition they
 * run in).  A job the controller has forgotten has ended, whatever a
 * lagging accounting shows of it, or if it shows nothing yet.  NULL if
 * nothing shows it.
 */
static const struct mg_live_job *
chain_job(const struct mg_drive *o, struct run *r, const char *id)
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
		clock_behind(r);
	return mg_live_find(&r->l, id);
}

/* is job j running at now (started, not ended)? */
static int
running(const struct mg_live_job *j, int64_t now)
{
	return j != NULL && !j->pending && j->start >= 0 && j->start <= now &&
	    (j->end < 0 || j->end > now);
}

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
	const struct mg_live_job *s = chain_job(o, r, st->current);
	struct mg_takeover_rec rec;
	char note[1024] = "", at[32];
	int outcome, rv;

	if (!running(s, o->now)) {
		say(o, 0, "successor %s does not run now: job %s is left as it "
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
		say(o, 0, "the take-over of job %s by %s is in progress (since "
		    "%s)", st->take.job, st->current, at);
		return;
	}
	/* S's script has MG_DRIVE_FALLBACK_WAIT to begin, counted from
	 * when a cron run first saw S running (on its own clock: Slurm's
	 * start time is on the controller's) */
	if (st->take.began == 0 && st->take.signalled == 0 &&
	    (st->take.due > 0 ? local_now(o, r) - st->take.due : o->now -
	    s->start) < MG_DRIVE_FALLBACK_WAIT) {
		say(o, 0, "successor %s started %lld s ago: its script may "
		    "take over from job %s yet", st->current,
		    (long long)(o->now - s->start), st->take.job);
		return;
	}
	rec = st->take;		/* claim() compares it with the state's */
	takeover_conf(o, rec.job, &t, &c);
	rv = mg_takeover_step(&t, &rec, local_now(o, r), &outcome, note,
	    sizeof(note), &d);
	st->take = rec;
	if (rv != 0) {
		say(o, 1, "take-over from job %s: %s", rec.job, d.msg);
		return;
	}
	if (*note)
		say(o, outcome != MG_TAKEOVER_GONE, "successor %s runs: %s",
		    st->current, note);
	if (mg_takeover_done(outcome))
		handed(st, st->take.job, NULL, o->now);
}

/* the chain's pending successor cancelled (scancel --state=PENDING):
 * 1 if it is gone or was never queued, 0 if it may still start (said) */
static int
orphan(const struct mg_drive *o, struct run *r)
{
	const char *sc[] = { o->scancel, "--state=PENDING", r->st.successor,
	    NULL };
	const struct mg_live_job *n = mg_live_find(&r->l, r->st.successor);
	char why[256] = "", *c;
	size_t len = 0;

	if (n == NULL || !n->pending || o->dry_run)
		return n == NULL || !n->pending;
	if ((c = mg_slurm_run(&o->sl, sc, &len, why, sizeof(why))) == NULL &&
	    strstr(why, "Invalid job id") == NULL) {
		say(o, 1, "successor %s, pending, cannot be cancelled (%s): the "
		    "next run tries again", r->st.successor, why);
		return 0;
	}
	free(c);
	say(o, 1, "successor %s, submitted for %s, was cancelled while "
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
	if (s->end < 0 || s->end > o->now || (pj = chain_job(o, r, p)) ==
	    NULL || !(running(pj, o->now) || pj->pending))
		return 0;
	/* a successor submitted for S would take over from S, not from P:
	 * cancelled while pending (one that started is S's take-over's) */
	if (*r->st.successor && !orphan(o, r))
		return 0;
	snprintf(was, sizeof(was), "%s", p);
	mg_chain_revert(&r->st, was, s, o->now, r->fate, sizeof(r->fate));
	snprintf(r->p_id, sizeof(r->p_id), "%s", was);
	say(o, 1, "successor %s started and ended (%s) while job %s runs: "
	    "%s keeps the service; deciding again for it", s->jobid,
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

	if (!running(p, o->now) || strcmp(p->state, "CG") == 0 ||
	    strcmp(p->state, "COMPLETING") == 0)
		return 0;
	/* its start when it was signalled, else its successor's: it ran
	 * before either (the controller's clock, both) */
	if (*st->handed_start && mg_parse_date(st->handed_start, o->sl.tz,
	    &was) == 0)
		return p->start > was;
	return running(s, o->now) && p->start > s->start;
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
		say(o, 1, "job %s, handed over to %s, started again (requeued "
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
			say(o, 1, "job %s, handed over to %s, started again "
			    "(requeued by Slurm) while %s is pending again: %s "
			    "is the chain's job again, %s its successor",
			    st->handed, st->current, st->current, st->handed,
			    st->current);
			mg_chain_rewind(st, st->handed);
			snprintf(r->p_id, sizeof(r->p_id), "%s", st->current);
			return 0;
		}
		/* S has ended: P, running again, is the chain's job */
		if (!running(s, o->now)) {
			if (s != NULL)
				(void)give_back(o, r, s, st->handed);
			return 0;
		}
		say(o, 1, "job %s, handed over to %s, started again (requeued "
		    "by Slurm) and serves beside it: it is taken over again",
		    st->handed, st->current);
		memset(&st->take, 0, sizeof(st->take));
		snprintf(st->take.job, sizeof(st->take.job), "%s", st->handed);
		/* S's script took over once: this run acts for it now */
		st->take.due = local_now(o, r) - MG_DRIVE_FALLBACK_WAIT;
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
	takeover_conf(o, st->handed, &t, &c);
	t.claim = NULL;
	if (mg_takeover_step(&t, &rec, local_now(o, r), &outcome, note,
	    sizeof(note), &d) != 0)
		say(o, 1, "job %s, handed over, is pending again: %s",
		    st->handed, d.msg);
	else if (*note)
		say(o, 1, "job %s, handed over: %s", st->handed, note);
	if (rec.signalled > 0 && rec.signalled != was) {
		/* signalled anew: its take-over goes on from a record */
		st->take = rec;
		st->handed[0] = '\0';
		return 1;
	}
	return 0;
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
	struct mg_chainstate st;
	struct mg_diag d = { "" };
	int fd, rv;

	if (dir == NULL || *dir != '/')
		dir = "/tmp";
	snprintf(path, cap, "%s/mirage-takeover-%u-%s", dir,
	    (unsigned)getuid(), p);
	if ((fd = mg_chain_lock(path, CLAIM_WAIT, &d)) < 0)
		return -1;
	/* one a day old is another take-over's (job ids come round) */
	if ((rv = mg_chain_read(path, &st, &d)) == 0 || (rv == 1 &&
	    mg_clock_now() - st.updated > MG_DAY)) {
		memset(&st, 0, sizeof(st));
		snprintf(st.current, sizeof(st.current), "%s", p);
		st.updated = mg_clock_now();
		rv = mg_chain_write(path, &st, &d) == 0 ? 1 : -1;
	}
	mg_chain_unlock(fd);
	if (rv != 1)
		return -1;
	o->state = path;
	return 0;
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
	struct mg_diag d = { "" };
	int have = 0, outcome, rv, fd;

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
	takeover_conf(o, p, &t, &c);
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
	if (have && (fd = mg_chain_lock(o->state, CLAIM_WAIT, &d)) >= 0) {
		/* the record is this take-over's only: a link that takes
		 * over from its own predecessor while its successor takes
		 * over from it leaves the other's record alone */
		if (mg_chain_read(o->state, &st, &d) == 1 &&
		    (*st.take.job == '\0' || strcmp(st.take.job, p) == 0)) {
			/* P gone by itself is handed over too if a run
			 * signalled it meanwhile: the record says so */
			if (mg_takeover_done(outcome) && (outcome !=
			    MG_TAKEOVER_GONE || st.take.signalled > 0))
				handed(&st, p, rec.signalled > 0 ?
				    rec.p_start : NULL, mg_clock_now());
			else if (outcome == MG_TAKEOVER_GONE)
				memset(&st.take, 0, sizeof(st.take));
			st.updated = mg_clock_now();
			if (mg_chain_write(o->state, &st, &d) != 0)
				say(o, 1, "%s: the handover is not recorded",
				    d.msg);
		}
		mg_chain_unlock(fd);
	} else if (have)
		say(o, 1, "%s: the handover is not recorded", d.msg);
	return outcome == MG_TAKEOVER_UNSURE ? MG_DRIVE_UNSURE :
	    outcome == MG_TAKEOVER_NOTREADY ? MG_DRIVE_NOTREADY :
	    MG_DRIVE_TAKEN;
}

/* the chain's state (locked) and its job */
static int
chain_open(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
{
	struct mg_diag d = { "" };
	int rv;

	/* the chain: its state file, or -j */
	memset(&r->st, 0, sizeof(r->st));
	if (o->state != NULL) {
		/* a dry run changes nothing, not even a lock file; it reads
		 * the state, which a writer replaces whole (rename) */
		if (!o->dry_run &&
		    (r->lockfd = mg_chain_lock(o->state, 30, diag)) < 0)
			return r->lockfd;
		if ((rv = mg_chain_read(o->state, &r->st, &d)) < 0)
			return mg_diag_set(diag, rv, "%.400s (not acting on a "
			    "damaged state: repair or remove it)", d.msg);
		r->have_state = rv == 1;
		/* never act for one chain on the state of another */
		if (r->have_state && o->job && strcmp(o->job,
		    r->st.current) != 0 && strcmp(o->job, r->st.successor) != 0)
			return mg_diag_set(diag, MG_EINVAL, "'%s' follows job "
			    "%s%s%s, not -j %s: to start a new chain from %s, "
			    "remove '%s' or give another state file with -s; "
			    "to go on with this chain, leave out -j", o->state,
			    r->st.current, *r->st.successor ?
			    " and its successor " : "", r->st.successor, o->job,
			    o->job, o->state);
	}
	if (r->have_state)
		snprintf(r->p_id, sizeof(r->p_id), "%s", r->st.current);
	else if (o->job)
		snprintf(r->p_id, sizeof(r->p_id), "%s", o->job);
	else
		return mg_diag_set(diag, MG_EINVAL, "which chain? give -j "
		    "jobid (or a state file that names it)");
	if (!r->have_state) {
		snprintf(r->st.current, sizeof(r->st.current), "%s", r->p_id);
		if (o->script)
			snprintf(r->st.script, sizeof(r->st.script), "%s",
			    o->script);
		/* where the chain starts is where its links run: a cron
		 * run's directory is cron's, not the chain's */
		if (o->workdir != NULL)
			snprintf(r->st.workdir, sizeof(r->st.workdir), "%s",
			    o->workdir);
	}
	return MG_OK;
}

/*
 * Settings that cannot be used (a table chosen for another cluster, or
 * remade for another target by a nightly run the chain's cron line did
 * not follow): only a chain's first run stops on them; a chain under
 * way goes on by the reactive rule, its successor at its predecessor's
 * end, and says why at every run.  Availability first.
 */
static int
usable(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
{
	if (o->unusable == NULL)
		return 0;
	if (!r->have_state)
		return mg_diag_set(diag, o->unusable_rv ? o->unusable_rv :
		    MG_EINVAL, "%s", o->unusable);
	say(o, 1, "%s; the chain goes on by the reactive rule (its successor "
	    "at its predecessor's end) until the settings can be used",
	    o->unusable);
	return 0;
}

/* the model, or a note why there is none (the reactive rule decides) */
static void
model_open(const struct mg_drive *o, struct run *r)
{
	struct mg_diag d = { "" };
	FILE *fp;

	if (o->model == NULL)
		return;
	if ((fp = fopen(o->model, "rb")) == NULL)
		snprintf(r->note, sizeof(r->note), "model '%s': %s", o->model,
		    strerror(errno));
	else if (mg_model_read(fp, o->model, &r->m, &d) != 0)
		snprintf(r->note, sizeof(r->note), "%s", d.msg);
	if (fp)
		fclose(fp);
}

/* a history of another time is another cluster's */
static void
history_age(const struct mg_drive *o, const struct mg_live *l)
{
	int64_t last = -1;
	char at[32];
	size_t k;

	for (k = 0; k < l->n; k++)
		if (l->job[k].end > last)
			last = l->job[k].end;
	if (last < 0 || o->now - last <= 30 * MG_DAY)
		return;
	mg_slurm_time(last, o->sl.tz, at, sizeof(at));
	say(o, 0, "the history (-H) ends at %s, %.0f days before %s: give "
	    "recent sacct dumps (or --now the time of the dumps)", at,
	    (double)(o->now - last) / MG_DAY, o->now_given ? "--now" : "now");
}

/*
 * A queue and a history of the user's own jobs only: on a cluster that
 * hides other users' jobs (PrivateData=jobs, which hides them from
 * squeue and sacct alike) every model sees an empty cluster.
 */
static void
private_data(const struct mg_drive *o, const struct mg_live *l)
{
	const struct passwd *pw = getpwuid(getuid());
	size_t k, queued = 0;

	if (pw == NULL)
		return;
	for (k = 0; k < l->n; k++) {
		if (*l->job[k].user && strcmp(l->job[k].user,
		    pw->pw_name) != 0)
			return;
		queued += l->job[k].end < 0 || l->job[k].end > o->now;
	}
	/* it changes what a decision from the queue means (a model, the
	 * planner or a table decides: the caller's test): said even when
	 * quiet (cron's -q) */
	if (queued > 0)
		say(o, 1, "squeue and sacct show only your own jobs (%zu queued): "
		    "if the cluster hides other users' jobs (PrivateData=jobs "
		    "in slurm.conf), the model or the estimate is blind to "
		    "the queue and submits too late; ask the administrators "
		    "for a view of the whole queue, or run mirage-advise as a "
		    "user who has one", queued);
}

/* the history (-H), then the queue: squeue and sacct, or a dump */
static int
read_cluster(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
{
	char cache[4200];
	int rv, i;

	/* what the cluster shows: history first, the queue last */
	memset(&r->l, 0, sizeof(r->l));
	r->l.partition = o->partition;
	r->l.now = o->now;
	r->l.tz = o->sl.tz;
	for (i = 0; i < o->nhist; i++)
		if ((rv = mg_live_read(&r->l, o->hist[i], NULL, diag)) != 0)
			return rv;
	if (o->nhist > 0)
		history_age(o, &r->l);
	if (r->live) {
		/* without the history the model sees less; the queue it
		 * cannot do without */
		snprintf(cache, sizeof(cache), "%s.history", o->state ?
		    o->state : "");
		if ((r->m != NULL || o->plan) && o->nhist == 0 &&
		    (o->plan && o->state != NULL ? mg_slurm_history(&o->sl,
		    cache, o->dry_run, o->now, PLAN_HISTORY, PERIOD, &r->l,
		    r->note, sizeof(r->note)) : mg_slurm_jobs(&o->sl, &r->l,
		    o->now - (o->plan ? PLAN_HISTORY : MG_DAY), r->note,
		    sizeof(r->note))) != 0) {
			say(o, 0, "no history: %s", r->note);
			*r->note = '\0';
		}
		if (mg_slurm_queue(&o->sl, &r->l, r->note,
		    sizeof(r->note)) != 0)
			r->queue_ok = 0;
		else if (r->m != NULL || o->plan || o->nchosen > 0)
			private_data(o, &r->l);
	} else if ((rv = mg_live_read(&r->l, o->queue, NULL, diag)) != 0)
		return rv;
	if (*r->l.zone_note)	/* hours off: said even when quiet */
		say(o, 1, "%s", r->l.zone_note);
	mg_advice_init(&r->a);
	snprintf(r->a.note, sizeof(r->a.note), "%s", r->note);
	return MG_OK;
}

/* a submission that was started and not confirmed, settled */
static int
settle(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
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
		record_link(o, r, id, r->st.token_time);
		say(o, 0, "the submission of %s started at %lld was found as "
		    "job %s", o->script, (long long)r->st.token_time, id);
	} else
		say(o, 0, "the submission started at %lld is in neither squeue "
		    "nor sacct: trying again", (long long)r->st.token_time);
	r->st.token[0] = '\0';
	r->st.token_time = 0;
	return MG_OK;
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
	    !running(mg_live_find(&r->l, r->p_id), o->now) ||
	    (out = mg_slurm_ask(&o->sl, sq, "Invalid job id", &len, why,
	    sizeof(why))) == NULL)
		return;
	out[strcspn(out, "\n")] = '\0';
	for (k = 0; limits[k]; k++)
		if (strstr(out, limits[k]) != NULL) {
			say(o, 1, "successor %s is pending for a limit of "
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
	const char *sc[] = { o->scancel, r->st.successor, NULL };
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
			say(o, 1, "successor %s is held by Slurm after its "
			    "launch failed, and the cancel failed (%s): the "
			    "next run tries again", r->st.successor, why);
		else {
			char p[sizeof(r->st.current)];

			free(c);
			say(o, 1, "successor %s was held by Slurm after its "
			    "launch failed: cancelled; deciding again for "
			    "job %s", r->st.successor, r->st.current);
			memcpy(p, r->st.current, sizeof(p));
			mg_chain_revert(&r->st, p, s, o->now, r->fate,
			    sizeof(r->fate));
		}
	} else if (strstr(out, "JobHeld") != NULL)
		say(o, 1, "successor %s is held (%s): it starts only once "
		    "released (scontrol release %s)", r->st.successor, out,
		    r->st.successor);
	free(out);
}

/*
 * What the run set on a pending successor, against its predecessor now
 * (the evidence of chain_job()): once P has ended, a begin time
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
	    (st->held_until <= 0 && st->nice <= 0 && o->min_run <= 0) ||
	    chain_job(o, r, st->current) == NULL ||
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
			say(o, 1, "job %s has ended: successor %s no longer "
			    "waits behind other jobs (nice 0)", p->jobid,
			    s->jobid);
		} else
			say(o, 1, "job %s has ended, but successor %s still "
			    "waits behind other jobs: %s; the next run tries "
			    "again", p->jobid, s->jobid, note);
	}
	if (!ended && running(p, o->now) && o->min_run > 0 && p->limit > 0)
		want = p->start + (int64_t)llround(o->min_run *
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
		say(o, 1, "successor %s: %s failed: %s; the next run tries "
		    "again", s->jobid, what, note);
		return;
	}
	if (ended)
		say(o, 1, "job %s ended before its minimum run: successor %s "
		    "is no longer held", p->jobid, s->jobid);
	else {
		mg_slurm_time(want, o->sl.tz, at, sizeof(at));
		say(o, 1, "job %s started at another time (requeued?): "
		    "successor %s is held until %s, when it has run %g%% of "
		    "its limit", p->jobid, s->jobid, at, 100 * o->min_run);
	}
	st->held_until = ended ? 0 : want;
}

/*
 * The chain's state against the queue: a submission not confirmed is
 * settled by evidence, a successor that started becomes the chain's
 * job, one that ended before it started is counted.  0 to go on, 1
 * when the run ends here, or a status.
 */
static int
reconcile(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
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
		const struct mg_live_job *s = chain_job(o, r, r->st.successor);

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
				r->st.take.due = local_now(o, r);
			}
			snprintf(r->p_id, sizeof(r->p_id), "%s",
			    r->st.current);
			break;
		case MG_CHAIN_LOST:
			say(o, 1, "successor %s ended before it started (%s)%s",
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
		const struct mg_live_job *s = chain_job(o, r, r->st.current);

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
static int
check_p(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
{
	int rv;

	mg_advise_find(&r->l, r->p_id, o->now, &r->a);
	if (r->queue_ok && r->a.p_state == 0 && r->live) {
		/* not in the queue: has it ended, or is it unknown?
		 * sacct -j looks through all time, in any partition */
		char why[MG_DIAG_MAX + 256] = "";

		if (r->have_state) {
			/* the chain's own job: the controller first */
			(void)chain_job(o, r, r->p_id);
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
	 * node failure or a preemption): nothing of the chain runs */
	if (r->have_state && r->live && r->queue_ok && r->a.p_state == 1 &&
	    (r->st.submitted > 0 || *r->st.handed))
		say(o, 1, "job %s, the chain's job, is pending again (requeued "
		    "by Slurm?): nothing of the chain runs until it starts",
		    r->p_id);
	if (o->state == NULL || r->st.failures < MG_DRIVE_MAX_FAILURES)
		return 0;
	say(o, 1, "'%s': the chain's last %lld jobs failed (the last: %s): "
	    "not submitting another; mend the script, then remove '%s' and "
	    "start the chain again with -j", o->state,
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

/* the rule that decides, and its decision */
static int
decide(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
{
	struct mg_advise q;
	int32_t nodes = o->nodes;
	int asked = r->m != NULL || o->plan || o->nchosen > 0 || o->lead > 0;
	int rv = 1;

	mg_drive_question(o, r->p_id, nodes, &q);
	r->dependency = !r->queue_ok;	/* submit with afterany on P */
	if (mg_advise_rule(&q, r->queue_ok, &r->a))
		return MG_OK;
	*r->note = '\0';
	if (nodes == 0 && asked && r->live)
		nodes = mg_slurm_nodes(&o->sl, r->note, sizeof(r->note));
	if (o->s_nodes > 0 && nodes > 0 && o->s_nodes > nodes)
		return mg_diag_set(diag, MG_EINVAL, "the successor asks for %d "
		    "nodes (-N or the script's #SBATCH -N), more than the "
		    "cluster's %d: it could never start", (int)o->s_nodes,
		    (int)nodes);
	q.nodes = nodes;
	if (asked && mg_advise_ready(&q, &r->l, r->note, &r->a)) {
		if (o->plan && nodes > 0)
			rv = by_plan(o, r, nodes, diag);
		else if (r->m != NULL)
			rv = by_model(o, r, nodes, diag);
		else if (o->nchosen > 0)
			rv = by_rule(o, r, nodes, diag);
		else if (o->lead > 0) {
			mg_advise_lead(&q, o->lead, &r->l, &r->a);
			rv = 0;
		}
		if (rv < 0)
			return rv;
		if (rv == 0)
			*r->a.note = '\0';
	}
	mg_advise_reactive(&q, !asked, r->m == NULL && o->model == NULL &&
	    !asked, &r->a);
	return MG_OK;
}

/* the decision carried out (sbatch with a script) */
static int
act(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
{
	int rv;

	/* a chain with no running job is down: its successor is submitted
	 * at once, back-off or not (the failures still count to its stop) */
	if (r->a.submit && o->state != NULL && o->now < r->st.retry_after &&
	    r->a.p_state == 3)
		say(o, 1, "the chain has no running job: its successor is "
		    "submitted now, though %lld in a row failed (the last: %s)",
		    (long long)r->st.failures, *r->fate ? r->fate :
		    r->st.failed);
	else if (r->a.submit && o->state != NULL &&
	    o->now < r->st.retry_after) {
		char at[32];

		mg_slurm_time(r->st.retry_after, o->sl.tz, at, sizeof(at));
		r->a.submit = 0;
		r->a.next = r->st.retry_after;
		snprintf(r->a.note, sizeof(r->a.note), "%lld successor%s "
		    "failed in a row (the last: %s): the next is submitted at "
		    "%s at the earliest", (long long)r->st.failures,
		    r->st.failures > 1 ? "s" : "", *r->fate ? r->fate :
		    r->st.failed, at);
	}
	r->decision = !r->a.submit ? "wait" : r->dependency ?
	    "submit-with-dependency" : "submit";
	r->outcome = !r->a.submit ? MG_DRIVE_WAIT : r->dependency ?
	    MG_DRIVE_DEPEND : MG_DRIVE_SUBMIT;
	if (r->a.submit && o->script != NULL && held_for(o, r) > 0) {
		size_t n = strlen(r->a.note);

		snprintf(r->a.note + n, sizeof(r->a.note) - n, "%sheld %lld s "
		    "(--begin), until job %s has run %g%% of its limit",
		    n ? "; " : "", (long long)held_for(o, r), r->p_id,
		    100 * o->min_run);
	}
	if (r->a.submit && o->script != NULL) {
		if (o->dry_run) {
			size_t n = strlen(r->a.note);
			const char *wd = chain_dir(o, &r->st);
			char begin[48] = "", nice[40] = "";

			if (held_until(o, r) > 0) {
				memcpy(begin, " --begin=", 10);
				mg_slurm_when(held_until(o, r), begin + 9,
				    sizeof(begin) - 9);
			}
			if (nice_for(o, r) > 0)
				snprintf(nice, sizeof(nice), " --nice=%lld",
				    (long long)nice_for(o, r));
			snprintf(r->a.note + n, sizeof(r->a.note) - n, "%sdry "
			    "run: would run %s --parsable%s%s%s%s%s %s", n ? "; " :
			    "", o->sl.sbatch, r->dependency ? " --dependency="
			    "afterany:<job>" : "", begin, nice, wd ? " --chdir=" :
			    "", wd ? wd : "", o->script);
		} else if ((rv = submit(o, r, diag)) != 0) {
			return rv;
		} else {
			r->decision = "submitted";
			r->outcome = MG_DRIVE_SUBMIT;
		}
	}
	/* what kept the model or the planner from deciding is said, even
	 * when quiet: a fallback is not the decision that was asked for */
	if (*r->a.note && r->a.rule != NULL && (r->dependency ||
	    (strcmp(r->a.rule, "reactive") == 0 && (o->model || o->plan))))
		say(o, 1, "the %s rule decided: %s", r->a.rule, r->a.note);
	return MG_OK;
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
static void
clock_behind(struct run *r)
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
		say(o, 0, "this host's clock is at least %lld s behind "
		    "Slurm's (jobs submitted, started or ended after it): the "
		    "run takes Slurm's time; set the clock (NTP)",
		    (long long)(late - o->now));
	r->behind += late - o->now;
	o->now = late;
	r->l.now = late;
}

int
mg_drive_run(const struct mg_drive *oc, struct mg_driven *out,
    struct mg_diag *diag)
{
	struct run *r = calloc(1, sizeof(*r));
	struct mg_drive run = *oc, *o = &run;	/* its now may move */
	int rv;

	if (r == NULL)
		return nomem(diag);
	r->lockfd = -1;
	r->live = o->queue == NULL;
	r->queue_ok = 1;
	r->run = o;
	r->t0 = mg_clock_now();
	if ((rv = chain_open(o, r, diag)) == 0 && (rv = usable(o, r,
	    diag)) == 0) {
		model_open(o, r);
		if ((rv = read_cluster(o, r, diag)) == 0 &&
		    (clock_behind(r), 1) &&
		    (rv = reconcile(o, r, diag)) == 0 &&
		    (rv = check_p(o, r, diag)) == 0 &&
		    (rv = decide(o, r, diag)) == 0)
			rv = act(o, r, diag);
	}
	if (rv >= 0) {
		snprintf(out->job, sizeof(out->job), "%s", r->p_id);
		out->a = r->a;
		out->decision = r->decision;
		out->now = o->now;
		rv = r->outcome;
	}
	mg_chain_unlock(r->lockfd);
	mg_live_release(&r->l);
	mg_model_free(r->m);
	free(r);
	return rv;
}

int
mg_drive_workdir(const char *dir, char *buf, size_t cap, const char **out,
    struct mg_diag *d)
{
	const char *c;

	if (dir == NULL) {
		if (getcwd(buf, cap) == NULL)
			return mg_diag_set(d, MG_EIO, "the current directory: "
			    "%s", strerror(errno));
		*out = buf;
		return MG_OK;
	}
	if (*dir != '/')
		return mg_diag_set(d, MG_EINVAL, "--chdir '%s': give an "
		    "absolute path (the chain's links run there, whatever "
		    "directory cron is in)", dir);
	for (c = dir; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return mg_diag_set(d, MG_EINVAL, "--chdir: a directory "
			    "name with a control character is refused");
	if (strlen(dir) >= cap)
		return mg_diag_set(d, MG_EINVAL, "--chdir: a path too long");
	if (access(dir, X_OK) != 0)
		return mg_diag_set(d, MG_EINVAL, "--chdir '%s': %s", dir,
		    strerror(errno));
	*out = dir;
	return MG_OK;
}
