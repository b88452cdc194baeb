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

#include "live/drive.h"
#include "live/chain.h"
#include "live/takeover.h"

#define DAY		86400
#define PLAN_HISTORY	(29 * DAY)	/* sacct for the planner: 4 weeks + */
#define PLAN_MIN_JOBS	100	/* ended jobs it needs to learn from */
#define PERIOD		MG_ADVISE_PERIOD
/*
 * Handing over, the planner prices an hour of P's limit given up beyond
 * MG_ADVISE_HANDOVER of both jobs holding their nodes at HANDOVER_LAMBDA
 * unless told (plan-folds.sh -T 0.99 --handover 10m on the training
 * period; mirage-advise(1))
 */
#define HANDOVER_LAMBDA	0.001

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
};

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
	q->lambda = o->handover && !o->lambda_given ? HANDOVER_LAMBDA :
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
		if ((rv = mg_events_read(o->events, o->sl.tz, nodes, only,
		    o->now - PLAN_HISTORY, o->now, c, diag)) != 0)
			return rv == MG_EINVAL ? MG_EFORMAT : rv;
		return MG_OK;
	}
	if (o->queue != NULL)	/* dumps, not a live cluster */
		return MG_OK;
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

/* the planner's decision on the history and the nodes' capacity; 0, 1
 * when it cannot decide (a->note says why), or a status */
static int
by_plan(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_diag *diag)
{
	struct mg_capacity cap = { 0 };
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

/* sbatch the successor: the token recorded first, then the job */
static int
submit(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
{
	struct mg_chainstate *st = &r->st;
	struct mg_diag d = { "" };
	struct mg_sbatch b;
	char note[MG_DIAG_MAX + 256];
	int rv;

	mg_chain_token(st->token, sizeof(st->token));
	st->token_time = o->now;
	st->updated = o->now;
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
	if ((rv = mg_slurm_submit(&o->sl, &b, st->successor,
	    sizeof(st->successor), note, sizeof(note))) != 0)
		/* even a failure with a message may have queued the job
		 * ("Socket timed out on send/recv"): the token stays */
		return mg_diag_set(diag, rv == MG_ENOMEM ? rv : MG_EIO,
		    "%s; the next run looks for %s", note, rv == MG_EFORMAT ?
		    "the submission in the queue" : "it in the queue before "
		    "trying again");
	snprintf(r->a.submitted, sizeof(r->a.submitted), "%s", st->successor);
	r->a.dependency = r->dependency;
	st->token[0] = '\0';
	st->token_time = 0;
	st->submitted++;
	st->updated = o->now;
	if ((rv = mg_chain_write(o->state, st, &d)) != 0)
		return mg_diag_set(diag, rv, "%.400s (job %s was submitted: "
		    "record it by hand)", d.msg, st->successor);
	return MG_OK;
}

/* the settings of a take-over of job p */
static void
takeover_conf(const struct mg_drive *o, const char *p, struct mg_takeover *t)
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
	t->poll = o->grace >= 50 ? 5 : 1;
	t->tries = o->sl.tries;
	t->user = pw ? pw->pw_name : NULL;
}

/* the run's take-over of P when S started and P runs on (handover) */
static void
fallback_takeover(const struct mg_drive *o, struct mg_chainstate *st,
    const char *p)
{
	struct mg_takeover t;
	struct mg_diag d = { "" };
	char note[512] = "";
	int outcome;

	takeover_conf(o, p, &t);
	if (mg_takeover_run(&t, &outcome, note, sizeof(note), &d) != 0) {
		say(o, 1, "take-over from job %s: %s", p, d.msg);
		return;
	}
	if (outcome != MG_TAKEOVER_GONE)
		say(o, 0, "successor %s runs: %s", st->current, note);
	snprintf(st->handed, sizeof(st->handed), "%s", p);
	st->handover_time = o->now;
}

int
mg_drive_takeover(const struct mg_drive *o, const char *p, char *note,
    size_t cap, struct mg_diag *diag)
{
	struct mg_takeover t;
	struct mg_chainstate st;
	struct mg_diag d = { "" };
	int lockfd = -1, have = 0, outcome, rv;

	if (p == NULL || *p == '\0') {
		snprintf(note, cap, "no predecessor (neither -j nor "
		    "MIRAGE_PREDECESSOR): nothing to do");
		return MG_OK;
	}
	if (strlen(p) >= sizeof(st.handed) || strspn(p,
	    "0123456789_+") != strlen(p))
		return mg_diag_set(diag, MG_EINVAL, "invalid job id '%s'", p);
	if (o->state != NULL && *o->state != '\0') {
		/* a concurrent take-over waits for this one, then finds P
		 * gone */
		if ((lockfd = mg_chain_lock(o->state, (int)o->grace + 180,
		    diag)) < 0)
			return lockfd;
		if ((rv = mg_chain_read(o->state, &st, &d)) < 0) {
			mg_chain_unlock(lockfd);
			mg_diag_set(diag, rv, "%.400s (not acting on a damaged "
			    "state: repair or remove it)", d.msg);
			return rv;
		}
		have = rv == 1;
	}
	takeover_conf(o, p, &t);
	if (mg_takeover_run(&t, &outcome, note, cap, &d) != 0) {
		mg_chain_unlock(lockfd);
		return mg_diag_set(diag, MG_EIO, "take-over from job %s: %s", p,
		    d.msg);
	}
	if (have && !o->dry_run && outcome != MG_TAKEOVER_GONE) {
		snprintf(st.handed, sizeof(st.handed), "%s", p);
		st.handover_time = (int64_t)time(NULL);
		st.updated = st.handover_time;
		if (mg_chain_write(o->state, &st, &d) != 0)
			say(o, 0, "%s: the handover is not recorded", d.msg);
	}
	mg_chain_unlock(lockfd);
	return MG_OK;
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
	}
	return MG_OK;
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
	if (last < 0 || o->now - last <= 30 * DAY)
		return;
	mg_slurm_time(last, o->sl.tz, at, sizeof(at));
	say(o, 0, "the history (-H) ends at %s, %.0f days before %s: give "
	    "recent sacct dumps (or --now the time of the dumps)", at,
	    (double)(o->now - last) / DAY, o->now_given ? "--now" : "now");
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
		    o->now - (o->plan ? PLAN_HISTORY : DAY), r->note,
		    sizeof(r->note))) != 0) {
			say(o, 0, "no history: %s", r->note);
			*r->note = '\0';
		}
		if (mg_slurm_queue(&o->sl, &r->l, r->note,
		    sizeof(r->note)) != 0)
			r->queue_ok = 0;
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
	    r->p_id, id, sizeof(id), r->note, sizeof(r->note)) : -1;
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
	if (*r->st.successor && r->queue_ok && r->live &&
	    mg_live_find(&r->l, r->st.successor) == NULL) {
		char why[MG_DIAG_MAX + 256] = "";

		r->l.partition = NULL;
		(void)mg_slurm_job(&o->sl, &r->l, r->st.successor, why,
		    sizeof(why));
		r->l.partition = o->partition;
	}
	if (*r->st.successor && r->queue_ok) {
		const struct mg_ljob *s = mg_live_find(&r->l,
		    r->st.successor);

		switch (mg_chain_step(&r->st, s, o->now, old, sizeof(old),
		    r->fate, sizeof(r->fate))) {
		case MG_CHAIN_STARTED:
			snprintf(r->p_id, sizeof(r->p_id), "%s",
			    r->st.current);
			/* a chain that hands over: S runs, and P still
			 * does with no take-over recorded (S's script
			 * did not run one): stopped from here, once */
			if (o->handover && r->live && !o->dry_run &&
			    strcmp(r->st.handed, old) != 0)
				fallback_takeover(o, &r->st, old);
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
	if (o->state != NULL && !o->dry_run) {
		r->st.updated = o->now;
		if ((rv = mg_chain_write(o->state, &r->st, diag)) != 0)
			return rv;
	}
	if (*r->st.successor == '\0')
		return 0;
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
		 * sacct -j looks through all time */
		char why[MG_DIAG_MAX + 256] = "";

		if (mg_slurm_job(&o->sl, &r->l, r->p_id, why, sizeof(why)) != 0)
			r->queue_ok = 0;	/* cannot tell: keep it */
		else
			mg_advise_find(&r->l, r->p_id, o->now, &r->a);
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
		const struct mg_ljob *pj = mg_live_find(&r->l, r->p_id);

		mg_chain_job(&r->st, pj, r->a.p_state == 3, o->now, r->fate,
		    sizeof(r->fate));
		if (!o->dry_run && (rv = mg_chain_write(o->state, &r->st,
		    diag)) != 0)
			return rv;
	}
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
	int asked = r->m != NULL || o->plan, rv = 1;

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
		if (rv < 0)
			return rv;
		if (rv == 0)
			*r->a.note = '\0';
	}
	mg_advise_reactive(&q, r->m == NULL && !o->plan, r->m == NULL &&
	    o->model == NULL && !o->plan, &r->a);
	return MG_OK;
}

/* the decision carried out (sbatch with a script) */
static int
act(const struct mg_drive *o, struct run *r, struct mg_diag *diag)
{
	int rv;

	if (r->a.submit && o->state != NULL && o->now < r->st.retry_after) {
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
	if (r->a.submit && o->script != NULL) {
		if (o->dry_run) {
			size_t n = strlen(r->a.note);

			snprintf(r->a.note + n, sizeof(r->a.note) - n, "%sdry "
			    "run: would run %s --parsable%s %s", n ? "; " : "",
			    o->sl.sbatch, r->dependency ? " --dependency="
			    "afterany:<job>" : "", o->script);
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

int
mg_drive_run(const struct mg_drive *o, struct mg_driven *out,
    struct mg_diag *diag)
{
	struct run *r = calloc(1, sizeof(*r));
	int rv;

	if (r == NULL)
		return nomem(diag);
	r->lockfd = -1;
	r->live = o->queue == NULL;
	r->queue_ok = 1;
	if ((rv = chain_open(o, r, diag)) == 0) {
		model_open(o, r);
		if ((rv = read_cluster(o, r, diag)) == 0 &&
		    (rv = reconcile(o, r, diag)) == 0 &&
		    (rv = check_p(o, r, diag)) == 0 &&
		    (rv = decide(o, r, diag)) == 0)
			rv = act(o, r, diag);
	}
	if (rv >= 0) {
		snprintf(out->job, sizeof(out->job), "%s", r->p_id);
		out->a = r->a;
		out->decision = r->decision;
		rv = r->outcome;
	}
	mg_chain_unlock(r->lockfd);
	mg_live_release(&r->l);
	mg_model_free(r->m);
	free(r);
	return rv;
}
