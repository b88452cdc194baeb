/*
 * drive.c: one run for a chain (drive.h): the cluster read, the chain's
 * state opened and written back, the successor submitted; the decision
 * is drivepick.c's, the mending driverecover.c's, the take-over
 * drivetake.c's.
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

/* the seconds from now it is held for, or 0 */
static int64_t
held_for(const struct mg_drive *o, const struct run *r)
{
	int64_t at = mg_drivebase_held_until(o, r);

	return at > o->now ? at - o->now : 0;
}

/* the nice value a successor is submitted with: behind every other job
 * while its predecessor runs (--low), or 0 */
static int64_t
nice_for(const struct mg_drive *o, struct run *r)
{
	return o->sub.low && mg_drivebase_running(mg_live_find(&r->l,
	    r->p_id), o->now) ? MG_DRIVE_LOW_NICE : 0;
}

/* the directory a successor runs in: the chain's, unless its script
 * sets its own (#SBATCH -D) or an older state recorded none */
static const char *
chain_dir(const struct mg_drive *o, const struct mg_chainstate *st)
{
	return o->sub.script_chdir || *st->workdir == '\0' ? NULL : st->workdir;
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
	st->held_until = mg_drivebase_held_until(o, r);
	st->nice = nice_for(o, r);
	if ((rv = mg_chain_write(o->state, st, diag)) != 0)
		return rv;
	memset(&b, 0, sizeof(b));
	b.script = o->sub.script;
	b.args = o->sub.script_args;
	b.nargs = o->sub.nscript_args;
	b.token = st->token;
	b.after = r->p_id;
	b.dependency = r->dependency;
	b.state = o->state;
	b.begin = mg_drivebase_held_until(o, r);
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
	mg_drivebase_record_link(o, r, st->successor, o->now);
	st->token[0] = '\0';
	st->token_time = 0;
	st->submitted++;
	st->updated = o->now;
	if ((rv = mg_chain_write(o->state, st, &d)) != 0)
		return mg_diag_set(diag, rv, "%.400s (job %s was submitted: "
		    "record it by hand)", d.msg, st->successor);
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
		if (o->sub.script)
			snprintf(r->st.script, sizeof(r->st.script), "%s",
			    o->sub.script);
		/* where the chain starts is where its links run: a cron
		 * run's directory is cron's, not the chain's */
		if (o->sub.workdir != NULL)
			snprintf(r->st.workdir, sizeof(r->st.workdir), "%s",
			    o->sub.workdir);
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
	if (o->rule.unusable == NULL)
		return 0;
	if (!r->have_state)
		return mg_diag_set(diag, o->rule.unusable_rv ? o->rule.unusable_rv :
		    MG_EINVAL, "%s", o->rule.unusable);
	mg_drivebase_say(o, 1, "%s; the chain goes on by the reactive rule "
	    "(its successor at its predecessor's end) until the settings can "
	    "be used", o->rule.unusable);
	return 0;
}

/* the model, or a note why there is none (the reactive rule decides) */
static void
model_open(const struct mg_drive *o, struct run *r)
{
	struct mg_diag d = { "" };
	FILE *fp;

	if (o->rule.model == NULL)
		return;
	if ((fp = fopen(o->rule.model, "rb")) == NULL)
		snprintf(r->note, sizeof(r->note), "model '%s': %s", o->rule.model,
		    strerror(errno));
	else if (mg_model_read(fp, o->rule.model, &r->m, &d) != 0)
		snprintf(r->note, sizeof(r->note), "%s", d.msg);
	else if (mg_rule_model_now(r->m, &d) != 0) {
		snprintf(r->note, sizeof(r->note), "model '%s': %s",
		    o->rule.model, d.msg);
		mg_model_free(r->m);
		r->m = NULL;
	}
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
	mg_drivebase_say(o, 0, "the history (-H) ends at %s, %.0f days "
	    "before %s: give recent sacct dumps (or --now the time of the "
	    "dumps)", at,
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
		mg_drivebase_say(o, 1, "squeue and sacct show only your own "
		    "jobs (%zu queued): if the cluster hides other users' "
		    "jobs (PrivateData=jobs in slurm.conf), the model or the "
		    "estimate is blind to the queue and submits too late; ask "
		    "the administrators "
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
		if ((r->m != NULL || o->rule.plan) && o->nhist == 0 &&
		    (o->rule.plan && o->state != NULL ? mg_slurm_history(&o->sl,
		    cache, o->dry_run, o->now, PLAN_HISTORY, PERIOD, &r->l,
		    r->note, sizeof(r->note)) : mg_slurm_jobs(&o->sl, &r->l,
		    o->now - (o->rule.plan ? PLAN_HISTORY : MG_DAY), r->note,
		    sizeof(r->note))) != 0) {
			mg_drivebase_say(o, 0, "no history: %s", r->note);
			*r->note = '\0';
		}
		if (mg_slurm_queue(&o->sl, &r->l, r->note,
		    sizeof(r->note)) != 0)
			r->queue_ok = 0;
		else if (r->m != NULL || o->rule.plan || o->rule.nchosen > 0)
			private_data(o, &r->l);
	} else if ((rv = mg_live_read(&r->l, o->queue, NULL, diag)) != 0)
		return rv;
	if (*r->l.zone_note)	/* hours off: said even when quiet */
		mg_drivebase_say(o, 1, "%s", r->l.zone_note);
	mg_advice_init(&r->a);
	snprintf(r->a.note, sizeof(r->a.note), "%s", r->note);
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
		mg_drivebase_say(o, 1, "the chain has no running job: its successor is "
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
	if (r->a.submit && o->sub.script != NULL && held_for(o, r) > 0) {
		size_t n = strlen(r->a.note);

		snprintf(r->a.note + n, sizeof(r->a.note) - n, "%sheld %lld s "
		    "(--begin), until job %s has run %g%% of its limit",
		    n ? "; " : "", (long long)held_for(o, r), r->p_id,
		    100 * o->sub.min_run);
	}
	if (r->a.submit && o->sub.script != NULL) {
		if (o->dry_run) {
			size_t n = strlen(r->a.note);
			const char *wd = chain_dir(o, &r->st);
			char begin[48] = "", nice[40] = "";

			if (mg_drivebase_held_until(o, r) > 0) {
				memcpy(begin, " --begin=", 10);
				mg_slurm_when(mg_drivebase_held_until(o, r), begin + 9,
				    sizeof(begin) - 9);
			}
			if (nice_for(o, r) > 0)
				snprintf(nice, sizeof(nice), " --nice=%lld",
				    (long long)nice_for(o, r));
			snprintf(r->a.note + n, sizeof(r->a.note) - n, "%sdry "
			    "run: would run %s --parsable%s%s%s%s%s %s", n ? "; " :
			    "", o->sl.sbatch, r->dependency ? " --dependency="
			    "afterany:<job>" : "", begin, nice, wd ? " --chdir=" :
			    "", wd ? wd : "", o->sub.script);
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
	    (strcmp(r->a.rule, "reactive") == 0 && (o->rule.model || o->rule.plan))))
		mg_drivebase_say(o, 1, "the %s rule decided: %s", r->a.rule, r->a.note);
	return MG_OK;
}

int
mg_drive_run(const struct mg_drive *oc, struct mg_driven *out,
    struct mg_diag *diag)
{
	struct run *r = calloc(1, sizeof(*r));
	struct mg_drive run = *oc, *o = &run;	/* its now may move */
	int rv;

	if (r == NULL)
		return mg_drivebase_nomem(diag);
	r->lockfd = -1;
	r->live = o->queue == NULL;
	r->queue_ok = 1;
	r->run = o;
	r->t0 = mg_clock_now();
	if ((rv = chain_open(o, r, diag)) == 0 && (rv = usable(o, r,
	    diag)) == 0) {
		model_open(o, r);
		if ((rv = read_cluster(o, r, diag)) == 0 &&
		    (mg_drivebase_clock_behind(r), 1) &&
		    (rv = mg_driverecover_reconcile(o, r, diag)) == 0 &&
		    (rv = mg_driverecover_check_p(o, r, diag)) == 0 &&
		    (rv = mg_drivepick_decide(o, r, diag)) == 0)
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
