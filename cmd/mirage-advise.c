/*
 * mirage-advise: for a running chain, decide now whether to submit the
 * successor or wait, from the live queue (squeue), the recent history
 * (sacct) and a model; optionally submit it with sbatch, exactly once,
 * and move the chain on.  See mirage-advise(1) and mirage-chain(5).
 */
#include <err.h>
#include <pwd.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "live/advise.h"
#include "live/chain.h"
#include "live/event.h"
#include "live/takeover.h"
#include "live/live.h"
#include "live/slurm.h"
#include "mirage.h"
#include "learn/model.h"
#include "plan/plan.h"
#include "cluster/simconf.h"

/* decisions, apart from the errors of mirage(7) */
#define EXIT_SUBMIT	0
#define EXIT_WAIT	10
#define EXIT_DONE	11
#define EXIT_DEPEND	12	/* submit only with afterany on P */
#define EXIT_UNKNOWN	13	/* P is in no dump: mistyped, or too old */
#define EXIT_STOPPED	14	/* successors keep failing: stopped */

#define DAY		86400
#define PLAN_HISTORY	(29 * DAY)	/* sacct for the planner: 4 weeks + */
#define PLAN_MIN_JOBS	100	/* ended jobs it needs to learn from */
#define PERIOD		MG_ADVISE_PERIOD	/* decisions: 10 minutes */
#define TIMEOUT		60	/* seconds allowed to squeue, sacct, sbatch */
#define JOBID_MAX	32	/* a job id's bytes, its NUL included */
#define MAX_FAILURES	3	/* failed successors in a row, then stop */


struct opts {
	const char *job, *model, *partition, *state, *script;
	const char *config;
	const char *queue, *hist[8];
	int nhist;
	const char *scancel;	/* --scancel; the others in sl */
	int take_over;		/* --take-over: S's first step */
	int handover;		/* --handover: the cron run's fallback */
	const char *sig;	/* --signal */
	int full;		/* --full */
	int64_t grace;		/* --grace, seconds */
	const char *events;	/* --events: a dump of sacctmgr show event */
	char part_hosts[256];	/* -c's hostlist of -p's nodes, or "" */
	char **script_args;
	int nscript_args;
	int32_t nodes, s_nodes;
	int64_t s_limit, now;
	enum mg_tz tz;		/* how squeue and sacct print times */
	int now_given;
	double threshold, prio;
	int dry_run, quiet, json;
	int plan;		/* --plan: decide with the planner */
	struct mg_planconf pc;
	double lambda;
	int lambda_given;
	struct mg_slurm sl;	/* the commands run, their zone, tries */
};

/*
 * Handing over, the planner prices an hour of P's limit given up beyond
 * MG_ADVISE_HANDOVER of both jobs holding their nodes at HANDOVER_LAMBDA
 * unless --lambda says (plan-folds.sh -T 0.99 --handover 10m on the
 * training period; mirage-advise(1))
 */
#define HANDOVER_LAMBDA	0.001

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-advise [-q] [-j jobid] [-m model] [-n nodes | -c config] "
	    "[-p partition]\n"
	    "           [-Q squeue-dump] [-H sacct-dump]... [-N nodes] "
	    "[-L limit] [-T threshold]\n"
	    "           [-F text|json] [--priority p] [--now time] [-z zone]\n"
	    "           [--retries n] [--handover [--signal sig] [--grace span]]\n"
	    "       mirage-advise --take-over [-j jobid] [-s state] [--signal sig] [--full]\n"
	    "           [--grace span]\n"
	    "           [--plan futures [--lambda l] [--plan-seed n]]\n"
	    "           [--submit script [-s state] [--dry-run] "
	    "[-- script-args...]]\n"
	    "exit: 0 submit now (or submitted), 10 wait, 11 successor "
	    "already submitted,\n"
	    "      12 submit only with --dependency=afterany (no queue), "
	    "13 unknown job,\n"
	    "      1-6 errors as in mirage(7); see mirage-advise(1)\n");
	if (status == 0)
		fputs("options:\n"
		    "  -j jobid          the chain's current job (the first time)\n"
		    "  -m model          a model file (mirage-model(5))\n"
		    "  -n nodes | -c config  the cluster's nodes, or its config file\n"
		    "  -p partition      only this partition's jobs\n"
		    "  -Q squeue-dump    read the queue from a dump ('-': stdin), not squeue\n"
		    "  -H sacct-dump     add a sacct dump or jobs stream (up to 8)\n"
		    "  -N nodes, -L limit  S's nodes and time limit (P's by default)\n"
		    "  -T threshold      hours of overlap accepted, or the score to reach\n"
		    "  -F text|json      the report's form (text)\n"
		    "  --priority p      the priority S would get (the recent median)\n"
		    "  --now time        decide as of time (with -Q)\n"
		    "  -z zone           the zone squeue and sacct print in (local)\n"
		    "  --plan futures, --lambda l, --plan-seed n  decide with the planner\n"
		    "  --events dump     the nodes' events, not sacctmgr show event\n"
		    "  --submit script   submit S with sbatch when the answer is yes\n"
		    "  -s state          the chain's state file (with --submit)\n"
		    "  --dry-run         say what would be submitted, change nothing\n"
		    "  --retries n       tries of a failing squeue or sacct (3)\n"
		    "  --take-over       S's first step: stop P (MIRAGE_PREDECESSOR)\n"
		    "  --handover        the chain hands over: a started S stops P\n"
		    "  --signal sig, --full, --grace span  how P is asked to stop\n"
		    "  --squeue, --sacct, --sbatch, --sinfo, --sacctmgr program\n"
		    "                    run these instead\n"
		    "  -q                no warnings\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-advise(1).\n", stdout);
	exit(status);
}

static int64_t
span_arg(const char *what, const char *s)
{
	int64_t v;

	if (mg_parse_span(s, &v) != 0 || v <= 0)
		errx(MG_EXIT_USAGE, "invalid %s '%s' (want e.g. 90s, 10m, "
		    "48h, 2d or D-HH:MM:SS)", what, s);
	return v;
}

static int32_t
count_arg(const char *what, const char *s)
{
	int64_t v;

	if (mg_parse_i64(s, strlen(s), 1, 1000000, &v) != 0)
		errx(MG_EXIT_USAGE, "invalid %s '%s'", what, s);
	return (int32_t)v;
}

/*
 * The capacity over the planner's history: from --events, else live
 * from sacctmgr show event (of the partition's nodes, as sinfo lists
 * them).  A bad --events dump is an error; live trouble a warning, and
 * the capacity now holds (c->n 0).
 */
static void
capacity(const struct opts *o, int32_t nodes, struct mg_capacity *c)
{
	struct mg_diag d = { "" };
	char note[MG_DIAG_MAX + 256];
	int rv;

	memset(c, 0, sizeof(*c));
	if (o->events != NULL) {
		/* the partition's nodes, if -c names them */
		const char *only = *o->part_hosts ? o->part_hosts : NULL;

		if (o->partition != NULL && only == NULL && !o->quiet)
			warnx("--events: the nodes of partition '%s' are not "
			    "known (PartitionName=%s Nodes=... in -c): the "
			    "events of every node in the dump are counted",
			    o->partition, o->partition);
		if ((rv = mg_events_read(o->events, o->tz, nodes, only,
		    o->now - PLAN_HISTORY, o->now, c, &d)) != 0)
			errx(rv == MG_EINVAL ? MG_EXIT_FAIL : mg_exit_status(rv),
			    "%s", d.msg);
		return;
	}
	if (o->queue != NULL)	/* dumps, not a live cluster */
		return;
	if ((rv = mg_slurm_capacity(&o->sl, nodes, o->now - PLAN_HISTORY,
	    o->now, c, note, sizeof(note))) == MG_ENOMEM)
		err(MG_EXIT_FAIL, NULL);
	if (rv != 0 && !o->quiet)
		warnx("no history of the nodes: %s", note);
}

/* sbatch the successor; 0, or the exit status with a message printed */
static int
submit(const struct opts *o, struct mg_chainstate *st, const char *p_id,
    int dependency, int64_t now, struct mg_advice *a)
{
	struct mg_diag d = { "" };
	struct mg_sbatch b;
	char note[MG_DIAG_MAX + 256];
	int rv;

	mg_chain_token(st->token, sizeof(st->token));
	st->token_time = now;
	st->updated = now;
	if ((rv = mg_chain_write(o->state, st, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	memset(&b, 0, sizeof(b));
	b.script = o->script;
	b.args = o->script_args;
	b.nargs = o->nscript_args;
	b.token = st->token;
	b.after = p_id;
	b.dependency = dependency;
	b.state = o->state;
	if ((rv = mg_slurm_submit(&o->sl, &b, st->successor,
	    sizeof(st->successor), note, sizeof(note))) != 0) {
		/* even a failure with a message may have queued the job
		 * ("Socket timed out on send/recv"): the token stays */
		warnx("%s; the next run looks for %s", note, rv == MG_EFORMAT ?
		    "the submission in the queue" : "it in the queue before "
		    "trying again");
		return MG_EXIT_FAIL;
	}
	snprintf(a->submitted, sizeof(a->submitted), "%s", st->successor);
	a->dependency = dependency;
	st->token[0] = '\0';
	st->token_time = 0;
	st->submitted++;
	st->updated = now;
	if ((rv = mg_chain_write(o->state, st, &d)) != 0)
		errx(mg_exit_status(rv), "%s (job %s was submitted: record it "
		    "by hand)", d.msg, st->successor);
	return 0;
}

/* the settings of a take-over of job p, as the options say */
static void
takeover_conf(const struct opts *o, const char *p, struct mg_takeover *t)
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

/* the cron run's take-over of P (--handover), said on standard error */
static void
fallback_takeover(const struct opts *o, struct mg_chainstate *st,
    const char *p)
{
	struct mg_takeover t;
	struct mg_diag d = { "" };
	char note[512] = "";
	int outcome;

	takeover_conf(o, p, &t);
	if (mg_takeover_run(&t, &outcome, note, sizeof(note), &d) != 0) {
		warnx("take-over from job %s: %s", p, d.msg);
		return;
	}
	if (outcome != MG_TAKEOVER_GONE && !o->quiet)
		warnx("successor %s runs: %s", st->current, note);
	snprintf(st->handed, sizeof(st->handed), "%s", p);
	st->handover_time = o->now;
}

/*
 * --take-over: S's batch script runs it first.  P comes from -j or
 * MIRAGE_PREDECESSOR (mirage-advise --submit sets it), the chain's state
 * from -s or MIRAGE_CHAIN_STATE; the state's lock serialises take-overs,
 * and the state records the handover.  Exit 0 once P is gone (or was
 * gone), 1 when it cannot be stopped or told.
 */
static int
take_over(const struct opts *o)
{
	struct mg_takeover t;
	struct mg_chainstate st;
	struct mg_diag d = { "" };
	const char *p = o->job ? o->job : getenv("MIRAGE_PREDECESSOR");
	const char *state = o->state ? o->state :
	    getenv("MIRAGE_CHAIN_STATE");
	char note[512] = "";
	int lockfd = -1, have = 0, outcome, rv;

	if (p == NULL || *p == '\0') {
		printf("take-over: no predecessor (neither -j nor "
		    "MIRAGE_PREDECESSOR): nothing to do\n");
		return MG_EXIT_OK;
	}
	if (strlen(p) >= sizeof(st.handed) || strspn(p,
	    "0123456789_+") != strlen(p))
		errx(MG_EXIT_USAGE, "invalid job id '%s'", p);
	if (state != NULL && *state != '\0') {
		/* a concurrent take-over waits for this one, then finds P
		 * gone */
		if ((lockfd = mg_chain_lock(state, (int)o->grace + 180,
		    &d)) < 0)
			errx(mg_exit_status(lockfd), "%s", d.msg);
		if ((rv = mg_chain_read(state, &st, &d)) < 0)
			errx(mg_exit_status(rv), "%s (not acting on a damaged "
			    "state: repair or remove it)", d.msg);
		have = rv == 1;
	}
	takeover_conf(o, p, &t);
	if ((rv = mg_takeover_run(&t, &outcome, note, sizeof(note), &d)) !=
	    0) {
		mg_chain_unlock(lockfd);
		errx(MG_EXIT_FAIL, "take-over from job %s: %s", p, d.msg);
	}
	if (have && !o->dry_run && outcome != MG_TAKEOVER_GONE) {
		snprintf(st.handed, sizeof(st.handed), "%s", p);
		st.handover_time = (int64_t)time(NULL);
		st.updated = st.handover_time;
		if ((rv = mg_chain_write(state, &st, &d)) != 0 && !o->quiet)
			warnx("%s: the handover is not recorded", d.msg);
	}
	mg_chain_unlock(lockfd);
	printf("take-over: %s\n", note);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(MG_EXIT_FAIL, "stdout");
	return MG_EXIT_OK;
}

/* one run: what it read, the chain's state, the decision */
struct run {
	struct mg_live l;
	struct mg_model *m;
	struct mg_chainstate st;
	struct mg_advice a;
	char p_id[JOBID_MAX];
	char note[MG_DIAG_MAX + 256];
	char fate[128];
	int lockfd;		/* the state's lock, or -1 */
	int have_state;		/* the state file named the chain */
	int live;		/* squeue and sacct, not -Q */
	int queue_ok;		/* the queue could be read */
	int dependency;		/* submit with afterany on P */
};

/* what the library works around, said unless -q (or when loud) */
static void
warning(void *arg, int loud, const char *msg)
{
	const struct opts *o = arg;

	if (loud || !o->quiet)
		warnx("%s", msg);
}

/* the question the library answers: P's decision on nodes nodes */
static void
question(const struct opts *o, const char *p_id, int32_t nodes,
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
	q->tz = o->tz;
}

/* the run's decision, reported on standard output */
static void
tell(const struct opts *o, const struct run *r, const char *decision)
{
	struct mg_advise q;

	question(o, r->p_id, o->nodes, &q);
	mg_advise_write(stdout, &q, &r->a, decision, o->json);
}

/* the model's decision, its misfits said first; 0, or -1 with a note */
static int
by_model(const struct opts *o, struct run *r, int32_t nodes)
{
	char msg[4][512];
	struct mg_advise q;
	int k, n, rv;

	question(o, r->p_id, nodes, &q);
	n = o->quiet ? 0 : mg_advise_misfit(&q, r->m, msg, 4);
	for (k = 0; k < n; k++)
		warnx("%s", msg[k]);
	if ((rv = mg_advise_model(&q, r->m, &r->l, &r->a)) == MG_ENOMEM)
		err(MG_EXIT_FAIL, NULL);
	return rv;
}

/* the planner's decision on the history and the nodes' capacity; 0, or
 * -1 with a note */
static int
by_plan(const struct opts *o, struct run *r, int32_t nodes)
{
	struct mg_capacity cap = { 0 };
	struct mg_advise q;
	struct mg_trace tr;
	int rv = -1;

	if (mg_live_history(&r->l, o->now, &tr) != 0)
		err(MG_EXIT_FAIL, NULL);
	if (tr.n < PLAN_MIN_JOBS)
		snprintf(r->a.note, sizeof(r->a.note), "the history holds %zu "
		    "ended jobs, the planner needs %d: give -H with the last "
		    "4 weeks of sacct (live, it asks sacct for them)", tr.n,
		    PLAN_MIN_JOBS);
	else {
		capacity(o, nodes, &cap);
		question(o, r->p_id, nodes, &q);
		if ((rv = mg_advise_plan(&q, &o->pc, &r->l, &tr, &cap,
		    &r->a)) == MG_ENOMEM)
			err(MG_EXIT_FAIL, NULL);
	}
	mg_trace_release(&tr);
	mg_capacity_release(&cap);
	return rv;
}

/* the options into *o, the time and zone given into *now_arg, *zone */
static void
parse(int argc, char *argv[], struct opts *o, const char **now_arg,
    const char **zone)
{
	enum { O_SUBMIT = 256, O_DRY, O_NOW, O_PRIO, O_SQUEUE, O_SACCT,
	    O_SBATCH, O_SINFO, O_PLAN, O_LAMBDA, O_PSEED, O_EVENTS,
	    O_SACCTMGR, O_RETRIES, O_TAKEOVER, O_HANDOVER, O_SIGNAL, O_FULL,
	    O_GRACE, O_SCANCEL };
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "dry-run", no_argument, NULL, O_DRY },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "history", required_argument, NULL, 'H' },
		{ "job", required_argument, NULL, 'j' },
		{ "limit", required_argument, NULL, 'L' },
		{ "model", required_argument, NULL, 'm' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "now", required_argument, NULL, O_NOW },
		{ "partition", required_argument, NULL, 'p' },
		{ "priority", required_argument, NULL, O_PRIO },
		{ "queue", required_argument, NULL, 'Q' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "sacct", required_argument, NULL, O_SACCT },
		{ "sbatch", required_argument, NULL, O_SBATCH },
		{ "sinfo", required_argument, NULL, O_SINFO },
		{ "sacctmgr", required_argument, NULL, O_SACCTMGR },
		{ "events", required_argument, NULL, O_EVENTS },
		{ "retries", required_argument, NULL, O_RETRIES },
		{ "take-over", no_argument, NULL, O_TAKEOVER },
		{ "handover", no_argument, NULL, O_HANDOVER },
		{ "signal", required_argument, NULL, O_SIGNAL },
		{ "full", no_argument, NULL, O_FULL },
		{ "grace", required_argument, NULL, O_GRACE },
		{ "scancel", required_argument, NULL, O_SCANCEL },
		{ "size", required_argument, NULL, 'N' },
		{ "squeue", required_argument, NULL, O_SQUEUE },
		{ "state", required_argument, NULL, 's' },
		{ "submit", required_argument, NULL, O_SUBMIT },
		{ "threshold", required_argument, NULL, 'T' },
		{ "plan", required_argument, NULL, O_PLAN },
		{ "lambda", required_argument, NULL, O_LAMBDA },
		{ "plan-seed", required_argument, NULL, O_PSEED },
		{ "tz", required_argument, NULL, 'z' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct mg_diag d = { "" };
	int ch;

	memset(o, 0, sizeof(*o));
	o->threshold = o->prio = NAN;
	mg_planconf_default(&o->pc);
	o->lambda = 1.5;	/* plan-folds.sh on the training period */
	o->sl.squeue = "squeue";
	o->sl.sacct = "sacct";
	o->sl.sbatch = "sbatch";
	o->sl.sinfo = "sinfo";
	o->sl.sacctmgr = "sacctmgr";
	o->scancel = "scancel";
	o->sig = "USR1";
	o->grace = 15 * 60;
	/* tries of a command that reads (squeue, sacct, sinfo, sacctmgr)
	 * that fails: 1 s, 2 s, 4 s ... between them */
	o->sl.tries = 3;
	while ((ch = getopt_long(argc, argv, "c:F:hH:j:L:m:n:N:p:qQ:s:T:Vz:",
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			o->config = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				errx(MG_EXIT_USAGE, "invalid format '%s' (want "
				    "text or json)", optarg);
			o->json = strcmp(optarg, "json") == 0;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'H':
			if (o->nhist == 8)
				errx(MG_EXIT_USAGE, "at most 8 -H files");
			o->hist[o->nhist++] = optarg;
			break;
		case 'j':
			if (strlen(optarg) >= JOBID_MAX || !*optarg)
				errx(MG_EXIT_USAGE, "invalid job id '%s'",
				    optarg);
			o->job = optarg;
			break;
		case 'L':
			o->s_limit = span_arg("limit", optarg);
			break;
		case 'm':
			o->model = optarg;
			break;
		case 'n':
			o->nodes = count_arg("node count", optarg);
			break;
		case 'N':
			o->s_nodes = count_arg("successor size", optarg);
			break;
		case 'p':
			o->partition = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'Q':
			o->queue = optarg;
			break;
		case 's':
			o->state = optarg;
			break;
		case 'T':
			if (mg_parse_f64(optarg, strlen(optarg), &o->threshold)
			    != 0 || fabs(o->threshold) > 1000)
				errx(MG_EXIT_USAGE, "invalid threshold '%s'",
				    optarg);
			break;
		case 'V':
			printf("mirage-advise %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		case 'z':
			*zone = optarg;
			break;
		case O_PLAN:
		case O_LAMBDA:
		case O_PSEED:
			if (mg_plan_option(&o->pc, &o->lambda, ch == O_PLAN ?
			    "plan" : ch == O_LAMBDA ? "lambda" : "plan-seed",
			    optarg, &d) != 0)
				errx(MG_EXIT_USAGE, "%s", d.msg);
			o->plan |= ch == O_PLAN;
			o->lambda_given |= ch == O_LAMBDA;
			break;
		case O_SUBMIT:
			o->script = optarg;
			break;
		case O_DRY:
			o->dry_run = 1;
			break;
		case O_NOW:
			*now_arg = optarg;
			break;
		case O_PRIO:
			if (mg_parse_f64(optarg, strlen(optarg), &o->prio) != 0)
				errx(MG_EXIT_USAGE, "invalid priority '%s'",
				    optarg);
			break;
		case O_SQUEUE:
			o->sl.squeue = optarg;
			break;
		case O_SACCT:
			o->sl.sacct = optarg;
			break;
		case O_SBATCH:
			o->sl.sbatch = optarg;
			break;
		case O_SACCTMGR:
			o->sl.sacctmgr = optarg;
			break;
		case O_EVENTS:
			o->events = optarg;
			break;
		case O_TAKEOVER:
			o->take_over = 1;
			break;
		case O_HANDOVER:
			o->handover = 1;
			break;
		case O_SIGNAL: {
			const char *c = optarg;

			if (strncmp(c, "SIG", 3) == 0)
				c += 3;
			if (*c == '\0' || strlen(c) > 16 || strspn(c,
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") !=
			    strlen(c))
				errx(MG_EXIT_USAGE, "invalid signal '%s' (want "
				    "e.g. USR1, TERM or 10)", optarg);
			o->sig = c;
			break;
		}
		case O_FULL:
			o->full = 1;
			break;
		case O_GRACE:
			o->grace = span_arg("grace", optarg);
			break;
		case O_SCANCEL:
			o->scancel = optarg;
			break;
		case O_RETRIES:
			o->sl.tries = count_arg("number of tries", optarg);
			if (o->sl.tries > 10)
				errx(MG_EXIT_USAGE, "--retries: at most 10");
			break;
		case O_SINFO:
			o->sl.sinfo = optarg;
			break;
		default:
			usage(MG_EXIT_USAGE);
		}
	}
}

/* the commands' time format and zone */
static void
environment(struct opts *o, const char *zone)
{
	/*
	 * The commands run print their times as they are read: a user's
	 * SLURM_TIME_FORMAT ("relative", "%a %H:%M") would give dates that
	 * cannot be read back.
	 */
	if (setenv("SLURM_TIME_FORMAT", "standard", 1) != 0)
		err(MG_EXIT_FAIL, "setenv");
	/* times as the commands print them: TZ, or -z */
	if (mg_tz_use(zone, &o->tz) != 0)
		errx(MG_EXIT_USAGE, "-z: unknown time zone '%s' (not in the "
		    "tz database)", zone);
	o->sl.timeout = TIMEOUT;
	o->sl.tz = o->tz;
	o->sl.partition = o->partition;
	o->sl.warn = warning;
	o->sl.arg = o;
}

/* the time, the script, the cluster's configuration */
static void
validate(struct opts *o, int argc, char *argv[], const char *now_arg)
{
	static char statebuf[4096];
	struct mg_diag d = { "" };
	int rv;

	if (now_arg != NULL) {
		if (mg_parse_date(now_arg, o->tz, &o->now) != 0)
			errx(MG_EXIT_USAGE, "invalid time '%s'", now_arg);
		o->now_given = 1;
	}
	o->script_args = argv + optind;
	o->nscript_args = argc - optind;
	if (o->nscript_args > 0 && o->script == NULL)
		errx(MG_EXIT_USAGE, "arguments after the options are the "
		    "script's: give --submit script");
	if (o->state != NULL && o->script == NULL)
		errx(MG_EXIT_USAGE, "-s state needs --submit script");
	if (o->events != NULL && !o->plan)
		errx(MG_EXIT_USAGE, "--events goes with --plan");
	if (o->script != NULL) {
		const char *c;

		for (c = o->script; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				errx(MG_EXIT_USAGE, "--submit: a script name "
				    "with a control character (tab, newline) "
				    "is refused");
		if (access(o->script, R_OK) != 0)
			err(MG_EXIT_USAGE, "'%s'", o->script);
		if (mg_slurm_script_request(o->script, &o->s_nodes,
		    &o->s_limit) != 0)
			err(MG_EXIT_FAIL, "'%s'", o->script);
		if (o->state == NULL) {
			snprintf(statebuf, sizeof(statebuf), "%s.chain",
			    o->script);
			o->state = statebuf;
		}
	}
	if (o->config != NULL) {
		/* the cluster model's configuration: its partition's nodes,
		 * the limits per user the planner keeps */
		struct mg_simconf sc;
		int k;

		mg_simconf_init(&sc);
		if ((rv = mg_simconf_load(&sc, o->config, &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
		if (o->nodes == 0) {
			o->nodes = sc.mode == MG_MODE_FAITHFUL ?
			    sc.slurm.nodes : sc.ref.nodes;
			for (k = 0; k < sc.nparts && o->partition; k++)
				if (strcmp(sc.part_name[k], o->partition) == 0)
					o->nodes = sc.part_nodes[k];
		}
		for (k = 0; k < sc.nparts && o->partition; k++)
			if (strcmp(sc.part_name[k], o->partition) == 0)
				snprintf(o->part_hosts, sizeof(o->part_hosts),
				    "%s", sc.part_hosts[k]);
		o->pc.max_jobs_pu = sc.slurm.max_jobs_per_user;
		o->pc.max_nodes_pu = sc.slurm.max_nodes_per_user;
	}
	if (o->now == 0)
		o->now = (int64_t)time(NULL);
}

/* the chain's state (locked) and its job */
static void
chain_open(const struct opts *o, struct run *r)
{
	struct mg_diag d = { "" };
	int rv;

	/* the chain: its state file, or -j */
	memset(&r->st, 0, sizeof(r->st));
	if (o->state != NULL) {
		/* a dry run changes nothing, not even a lock file; it reads
		 * the state, which a writer replaces whole (rename) */
		if (!o->dry_run &&
		    (r->lockfd = mg_chain_lock(o->state, 30, &d)) < 0)
			errx(mg_exit_status(r->lockfd), "%s", d.msg);
		if ((rv = mg_chain_read(o->state, &r->st, &d)) < 0)
			errx(mg_exit_status(rv), "%s (not acting on a damaged "
			    "state: repair or remove it)", d.msg);
		r->have_state = rv == 1;
		/* never act for one chain on the state of another */
		if (r->have_state && o->job && strcmp(o->job,
		    r->st.current) != 0 && strcmp(o->job, r->st.successor) != 0)
			errx(MG_EXIT_USAGE, "'%s' follows job %s%s%s, not -j "
			    "%s: to start a new chain from %s, remove '%s' "
			    "or give another state file with -s; to go on "
			    "with this chain, leave out -j", o->state,
			    r->st.current, *r->st.successor ?
			    " and its successor " : "", r->st.successor, o->job,
			    o->job, o->state);
	}
	if (r->have_state)
		snprintf(r->p_id, sizeof(r->p_id), "%s", r->st.current);
	else if (o->job)
		snprintf(r->p_id, sizeof(r->p_id), "%s", o->job);
	else
		errx(MG_EXIT_USAGE, "which chain? give -j jobid (or a state "
		    "file that names it)");
	if (!r->have_state) {
		snprintf(r->st.current, sizeof(r->st.current), "%s", r->p_id);
		if (o->script)
			snprintf(r->st.script, sizeof(r->st.script), "%s",
			    o->script);
	}

}

/* the model, or a note why there is none */
static void
model_open(const struct opts *o, struct run *r)
{
	struct mg_diag d = { "" };
	int rv;

	/* the model: without one, or with a broken one, the reactive rule */
	if (o->model != NULL) {
		FILE *fp = fopen(o->model, "rb");

		if (fp == NULL)
			snprintf(r->note, sizeof(r->note), "model '%s': %s",
			    o->model, strerror(errno));
		else if ((rv = mg_model_read(fp, o->model, &r->m, &d)) != 0)
			snprintf(r->note, sizeof(r->note), "%s", d.msg);
		if (fp)
			fclose(fp);
	}

}

/* the history (-H), then the queue: squeue and sacct, or -Q */
static void
read_cluster(const struct opts *o, struct run *r)
{
	struct mg_diag d = { "" };
	int rv, i;

	/* what the cluster shows: history first, the queue last */
	memset(&r->l, 0, sizeof(r->l));
	r->l.partition = o->partition;
	r->l.now = o->now;
	r->l.tz = o->tz;
	for (i = 0; i < o->nhist; i++)
		if ((rv = mg_live_read(&r->l, o->hist[i], NULL, &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
	if (o->nhist > 0 && !o->quiet) {
		/* a history of another time is another cluster's */
		int64_t last = -1;
		size_t k;

		for (k = 0; k < r->l.n; k++)
			if (r->l.job[k].end > last)
				last = r->l.job[k].end;
		if (last >= 0 && o->now - last > 30 * DAY) {
			char at[32];

			mg_slurm_time(last, o->tz, at, sizeof(at));
			warnx("the history (-H) ends at %s, %.0f days before "
			    "%s: give recent sacct dumps (or --now the time "
			    "of the dumps)", at, (double)(o->now - last) / DAY,
			    o->now_given ? "--now" : "now");
		}
	}

	if (r->live) {
		char cache[4200];

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
			if (!o->quiet)
				warnx("no history: %s", r->note);
			*r->note = '\0';
		}
		if (mg_slurm_queue(&o->sl, &r->l, r->note,
		    sizeof(r->note)) != 0)
			r->queue_ok = 0;
	} else if ((rv = mg_live_read(&r->l, o->queue, NULL, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	if (*r->l.zone_note)	/* hours off: said even under -q */
		warnx("%s", r->l.zone_note);
	mg_advice_init(&r->a);
	snprintf(r->a.note, sizeof(r->a.note), "%s", r->note);

}

/*
 * The chain's state against the queue: a submission not confirmed is
 * settled by evidence, a successor that started becomes the chain's
 * job, one that ended before it started is counted.  Returns -1 to go
 * on, or the exit status of a run that ends here.
 */
static int
reconcile(const struct opts *o, struct run *r)
{
	struct mg_diag d = { "" };
	int rv;

	/* a submission that was started and not confirmed */
	if (*r->st.token) {
		char id[32];

		rv = r->live ? mg_slurm_settle(&o->sl, r->st.token, r->st.token_time,
		    r->p_id, id, sizeof(id), r->note, sizeof(r->note)) : -1;
		if (rv < 0)
			errx(MG_EXIT_FAIL, "'%s': a submission started "
			    "at %lld is not confirmed and cannot be "
			    "settled (%s); not submitting again until "
			    "squeue or sacct shows where it went (look "
			    "for comment mirage-advise:%s in squeue -o "
			    "'%%i %%k' or sacct -o JobID,Comment)",
			    o->state, (long long)r->st.token_time, r->live ?
			    r->note : "-Q given", r->st.token);
		*r->note = '\0';
		if (*id) {
			snprintf(r->st.successor, sizeof(r->st.successor),
			    "%s", id);
			r->st.submitted++;
			if (!o->quiet)
				warnx("the submission of %s started at "
				    "%lld was found as job %s",
				    o->script, (long long)r->st.token_time,
				    id);
		} else if (!o->quiet)
			warnx("the submission started at %lld is in "
			    "neither squeue nor sacct: trying again",
			    (long long)r->st.token_time);
		r->st.token[0] = '\0';
		r->st.token_time = 0;
	}

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

		char old[sizeof(r->st.current)];

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
			warnx("successor %s ended before it started (%s)%s",
			    s->jobid, *s->state ? s->state : "no state",
			    r->st.failures >= MAX_FAILURES ? "" :
			    ": deciding again for the chain's job");
			break;
		case MG_CHAIN_SAME:
			break;
		}
	}
	if (o->state != NULL && !o->dry_run) {
		r->st.updated = o->now;
		if ((rv = mg_chain_write(o->state, &r->st, &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
	}
	if (*r->st.successor) {
		r->a.rule = "state";
		mg_advise_find(&r->l, r->p_id, o->now, &r->a);
		snprintf(r->a.why, sizeof(r->a.why), "successor %s was "
		    "submitted already and has not started%s",
		    r->st.successor, mg_live_find(&r->l, r->st.successor) ?
		    "" : " (it is in no dump: not submitting again)");
		tell(o, r, "already-submitted");
		return EXIT_DONE;
	}

	return -1;
}

/* the chain's job: in a dump, ended, failing?  -1 or an exit status */
static int
check_p(const struct opts *o, struct run *r)
{
	struct mg_diag d = { "" };
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
		tell(o, r, "unknown-job");
		return EXIT_UNKNOWN;
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
		    &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
	}
	if (o->state != NULL && r->st.failures >= MAX_FAILURES) {
		warnx("'%s': the chain's last %lld jobs failed (the "
		    "last: %s): not submitting another; mend the "
		    "script, then remove '%s' and start the chain "
		    "again with -j", o->state, (long long)r->st.failures,
		    *r->fate ? r->fate : r->st.failed, o->state);
		r->a.rule = "stopped";
		snprintf(r->a.why, sizeof(r->a.why), "%lld successors in a "
		    "row failed (the last: %s): the chain is stopped",
		    (long long)r->st.failures, *r->fate ? r->fate :
		    r->st.failed);
		tell(o, r, "stopped");
		return EXIT_STOPPED;
	}
	return -1;
}

/* the rule that decides, and its decision */
static void
decide(const struct opts *o, struct run *r)
{
	struct mg_advise q;
	int32_t nodes = o->nodes;
	int asked = r->m != NULL || o->plan;

	question(o, r->p_id, nodes, &q);
	r->dependency = !r->queue_ok;	/* submit with afterany on P */
	if (mg_advise_rule(&q, r->queue_ok, &r->a))
		return;
	*r->note = '\0';
	if (nodes == 0 && asked && r->live)
		nodes = mg_slurm_nodes(&o->sl, r->note, sizeof(r->note));
	if (o->s_nodes > 0 && nodes > 0 && o->s_nodes > nodes)
		errx(MG_EXIT_USAGE, "the successor asks for %d nodes (-N or "
		    "the script's #SBATCH -N), more than the cluster's %d: it "
		    "could never start", (int)o->s_nodes, (int)nodes);
	q.nodes = nodes;
	if (asked && mg_advise_ready(&q, &r->l, r->note, &r->a)) {
		if (o->plan && nodes > 0) {
			if (by_plan(o, r, nodes) == 0)
				*r->a.note = '\0';
		} else if (r->m != NULL && by_model(o, r, nodes) == 0)
			*r->a.note = '\0';
	}
	mg_advise_reactive(&q, r->m == NULL && !o->plan, r->m == NULL &&
	    o->model == NULL && !o->plan, &r->a);
}

/* the decision carried out (sbatch with --submit) and reported */
static int
act(const struct opts *o, struct run *r)
{
	const char *decision;
	int rv, status;

	if (r->a.submit && o->state != NULL && o->now < r->st.retry_after) {
		char at[32];

		mg_slurm_time(r->st.retry_after, o->tz, at, sizeof(at));
		r->a.submit = 0;
		r->a.next = r->st.retry_after;
		snprintf(r->a.note, sizeof(r->a.note), "%lld successor%s "
		    "failed in a row (the last: %s): the next is submitted at %s at the "
		    "earliest", (long long)r->st.failures, r->st.failures > 1 ?
		    "s" : "", *r->fate ? r->fate : r->st.failed, at);
	}
	decision = !r->a.submit ? "wait" : r->dependency ?
	    "submit-with-dependency" : "submit";
	status = !r->a.submit ? EXIT_WAIT : r->dependency ? EXIT_DEPEND :
	    EXIT_SUBMIT;
	if (r->a.submit && o->script != NULL) {
		if (o->dry_run) {
			snprintf(r->a.note + strlen(r->a.note),
			    sizeof(r->a.note) - strlen(r->a.note), "%sdry run: "
			    "would run %s --parsable%s %s", *r->a.note ? "; " : "",
			    o->sl.sbatch, r->dependency ? " --dependency="
			    "afterany:<job>" : "", o->script);
		} else if ((rv = submit(o, &r->st, r->p_id, r->dependency,
		    o->now, &r->a)) != 0) {
			return rv;
		} else {
			decision = "submitted";
			status = EXIT_SUBMIT;
		}
	}
	/* what kept the model or the planner from deciding is said, even
	 * under -q: a fallback is not the decision that was asked for */
	if (*r->a.note && r->a.rule != NULL && (r->dependency ||
	    (strcmp(r->a.rule, "reactive") == 0 && (o->model || o->plan))))
		warnx("the %s rule decided: %s", r->a.rule, r->a.note);
	tell(o, r, decision);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(MG_EXIT_FAIL, "stdout");
	return status;
}

int
main(int argc, char *argv[])
{
	struct opts o;
	struct run r;
	const char *now_arg = NULL, *zone = "local";
	int status;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	parse(argc, argv, &o, &now_arg, &zone);
	environment(&o, zone);
	if (o.take_over) {
		if (o.script != NULL || o.plan || o.model != NULL ||
		    o.queue != NULL)
			errx(MG_EXIT_USAGE, "--take-over stops the "
			    "predecessor; it takes no --submit, --plan, -m or "
			    "-Q");
		return take_over(&o);
	}
	validate(&o, argc, argv, now_arg);
	memset(&r, 0, sizeof(r));
	r.lockfd = -1;
	r.live = o.queue == NULL;
	r.queue_ok = 1;
	chain_open(&o, &r);
	model_open(&o, &r);
	read_cluster(&o, &r);
	if ((status = reconcile(&o, &r)) < 0 &&
	    (status = check_p(&o, &r)) < 0) {
		decide(&o, &r);
		status = act(&o, &r);
	}
	mg_chain_unlock(r.lockfd);
	mg_live_release(&r.l);
	mg_model_free(r.m);
	return status;
}
