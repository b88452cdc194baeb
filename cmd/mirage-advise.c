/*
 * mirage-advise: for a running chain, decide now whether to submit the
 * successor or wait, from the live queue (squeue), the recent history
 * (sacct) and a model; optionally submit it with sbatch, exactly once,
 * and move the chain on.  See mirage-advise(1) and mirage-chain(5).
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mirage.h"
#include "options.h"
#include "base/proc.h"
#include "cluster/simconf.h"
#include "live/drive.h"
#include "live/report.h"
#include "live/settings.h"
#include "live/takeover.h"
#include "eval/target.h"
#include "learn/model.h"

#define TIMEOUT		60	/* seconds allowed to squeue, sacct, sbatch */

struct opts {
	struct mg_drive dr;	/* the run */
	const char *config;	/* -c */
	int take_over;		/* --take-over: S's first step */
	int report;		/* --report: how chains fared */
	int tsv;		/* -F tsv */
	int ready_time;		/* --ready-time given */
	int json;		/* -F json */
	double target;		/* --target, 0: none */
	const char *settings;	/* --settings: mirage-eval --target's table */
	char bin[4096];		/* this program's directory (MIRAGE_BIN) */
	char cwd[1024], host[256];	/* where it runs */
	char unusable[MG_DIAG_MAX];	/* why the settings cannot be used */
};

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
	    "           [--plan futures [--lambda l] [--plan-seed n]]\n"
	    "           [--target share [--settings table.tsv] | --lead span]\n"
	    "           [--submit script [-s state] [--chdir dir] [--dry-run]\n"
	    "           [--min-run share] [--low] [-- script-args...]]\n"
	    "       mirage-advise --report [-F text|tsv] [-z zone] [--now t] state...\n"
	    "       mirage-advise --take-over [-j jobid] [-s state] [--signal sig] [--full]\n"
	    "           [--grace span] [--kill-wait span] [--ready command\n"
	    "           [--ready-time span]] [--dry-run]\n"
	    "exit: 0 submit now (or submitted), 10 wait, 11 successor "
	    "already submitted,\n"
	    "      12 submit only with --dependency=afterany (no queue), "
	    "13 unknown job,\n"
	    "      1-6 errors as in mirage(7); --take-over: 0 P gone, 15 P signalled\n"
	    "      and not seen leaving (S goes on), 16 S not ready (P left running)\n");
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
		    "  --target share    decide at the setting chosen for this share of\n"
		    "                    links without an interruption (99%): the model's\n"
		    "                    (mirage-train --target), or from --settings\n"
		    "  --settings table  mirage-eval --target -F tsv's table: the planner's\n"
		    "                    price (--plan), or the rule it recommends\n"
		    "  --settings-lead   the fixed lead it chose instead (a second replica)\n"
		    "  --lead span       submit once at most span of P's limit is left\n"
		    "  --events dump     the nodes' events, not sacctmgr show event\n"
		    "  --submit script   submit S with sbatch when the answer is yes\n"
		    "  -s state          the chain's state file (with --submit)\n"
		    "  --chdir dir       where a new chain's links run (the current one)\n"
		    "  --dry-run         say what would be submitted, change nothing\n"
		    "  --min-run share   hold S (--begin) until P ran that share of its limit\n"
		    "  --low             S waits behind every other job (--nice) until P ends\n"
		    "  --retries n       tries of a failing squeue or sacct (3)\n"
		    "  --take-over       S's first step: stop P (MIRAGE_PREDECESSOR)\n"
		    "  --report          how these chains fared against their promise\n"
		    "  --handover        the chain hands over: a started S stops P\n"
		    "  --signal sig, --full, --grace span  how P is asked to stop\n"
		    "  --ready command   serving order: stop P once this check passes\n"
		    "  --ready-time span how long S has to pass it (30m)\n"
		    "  --kill-wait span  how long a cancelled P has to leave (2m)\n"
		    "  --squeue, --sacct, --sbatch, --sinfo, --sacctmgr, --scancel,\n"
		    "  --scontrol program  run these instead\n"
		    "  -q                no warnings\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-advise(1).\n", stdout);
	exit(status);
}

/* what the run works around, said unless -q (or when loud) */
static void
warning(void *arg, int loud, const char *msg)
{
	const struct mg_drive *dr = arg;

	if (loud || !dr->quiet)
		warnx("%s", msg);
}

/* the settings before any option: Slurm's commands by their names, 30
 * minutes to be ready, 15 to leave, three tries of a command that reads
 * (squeue, sacct, sinfo, sacctmgr: 1 s, 2 s, 4 s ... between them) */
static void
defaults(struct opts *o)
{
	struct mg_drive *dr = &o->dr;

	memset(o, 0, sizeof(*o));
	dr->rule.threshold = dr->rule.prio = NAN;
	mg_planconf_default(&dr->rule.pc);
	dr->rule.lambda = MG_PLAN_LAMBDA;
	dr->sl.squeue = "squeue";
	dr->sl.sacct = "sacct";
	dr->sl.sbatch = "sbatch";
	dr->sl.sinfo = "sinfo";
	dr->sl.sacctmgr = "sacctmgr";
	dr->sl.scontrol = "scontrol";
	if (mg_proc_selfdir(o->bin, sizeof(o->bin)) == 0)
		dr->sl.bin = o->bin;
	if (gethostname(o->host, sizeof(o->host) - 1) == 0)
		dr->host = o->host;
	dr->take.scancel = "scancel";
	dr->take.sig = "USR1";
	dr->take.grace = 15 * 60;
	dr->take.ready_time = 30 * 60;
	dr->sl.tries = 3;
}

/* mirage-advise's options, every one with its own code */
enum {
	O_SUBMIT = 256, O_NOW, O_PRIO, O_EVENTS, O_RETRIES, O_SIGNAL,
	O_GRACE, O_READY, O_READY_TIME, O_KILL_WAIT, O_TARGET, O_SETTINGS,
	O_MINRUN, O_CHDIR, O_LEAD, O_SQUEUE, O_SACCT, O_SBATCH, O_SINFO,
	O_SACCTMGR, O_SCANCEL, O_SCONTROL, O_REPORT, O_DRYRUN, O_LOW,
	O_TAKEOVER, O_HANDOVER, O_FULL, O_SETTINGS_LEAD
};
static const struct option longopts[] = {
	{ "chdir", required_argument, NULL, O_CHDIR },
	{ "report", no_argument, NULL, O_REPORT },
	{ "config", required_argument, NULL, 'c' },
	{ "dry-run", no_argument, NULL, O_DRYRUN },
	{ "min-run", required_argument, NULL, O_MINRUN },
	{ "low", no_argument, NULL, O_LOW },
	{ "lead", required_argument, NULL, O_LEAD },
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
	{ "ready", required_argument, NULL, O_READY },
	{ "ready-time", required_argument, NULL, O_READY_TIME },
	{ "kill-wait", required_argument, NULL, O_KILL_WAIT },
	{ "target", required_argument, NULL, O_TARGET },
	{ "settings", required_argument, NULL, O_SETTINGS },
	{ "settings-lead", no_argument, NULL, O_SETTINGS_LEAD },
	{ "scancel", required_argument, NULL, O_SCANCEL },
	{ "scontrol", required_argument, NULL, O_SCONTROL },
	{ "size", required_argument, NULL, 'N' },
	{ "squeue", required_argument, NULL, O_SQUEUE },
	{ "state", required_argument, NULL, 's' },
	{ "submit", required_argument, NULL, O_SUBMIT },
	{ "threshold", required_argument, NULL, 'T' },
	{ "tz", required_argument, NULL, 'z' },
	{ "version", no_argument, NULL, 'V' },
	PLAN_LONGOPTS_RUN,
	{ NULL, 0, NULL, 0 }
};

/* the options into *o, the time and zone given into *now_arg, *zone */
static void
parse(int argc, char *argv[], struct opts *o, const char **now_arg,
    const char **zone)
{
	struct mg_drive *dr = &o->dr;
	/* the options stored as given */
	const struct optstore st[] = {
		{ 'c', OPT_STR, &o->config, "config", 0, 0 },
		{ 'L', OPT_SPAN, &dr->s_limit, "limit", 0, 0 },
		{ 'm', OPT_STR, &dr->rule.model, "model", 0, 0 },
		{ 'n', OPT_COUNT, &dr->nodes, "node count", 1, 1e6 },
		{ 'N', OPT_COUNT, &dr->s_nodes, "successor size", 1, 1e6 },
		{ 'p', OPT_STR, &dr->partition, "partition", 0, 0 },
		{ 'q', OPT_FLAG, &dr->quiet, "-q", 0, 0 },
		{ O_SETTINGS_LEAD, OPT_FLAG, &dr->rule.settings_lead,
		    "--settings-lead", 0, 0 },
		{ 'Q', OPT_STR, &dr->queue, "queue", 0, 0 },
		{ 's', OPT_STR, &dr->state, "state", 0, 0 },
		{ 'T', OPT_NUMBER, &dr->rule.threshold, "threshold", -1000, 1000 },
		{ 'z', OPT_STR, zone, "zone", 0, 0 },
		{ O_SUBMIT, OPT_STR, &dr->sub.script, "script", 0, 0 },
		{ O_LEAD, OPT_HOURS, &dr->rule.lead, "lead", 0, 0 },
		{ O_CHDIR, OPT_STR, &dr->sub.workdir, "directory", 0, 0 },
		{ O_NOW, OPT_STR, now_arg, "time", 0, 0 },
		{ O_EVENTS, OPT_STR, &dr->events, "events", 0, 0 },
		{ O_GRACE, OPT_SPAN, &dr->take.grace, "grace", 0,
		    MG_TAKEOVER_MAX_GRACE },
		{ O_SETTINGS, OPT_STR, &o->settings, "settings", 0, 0 },
		{ O_KILL_WAIT, OPT_SPAN, &dr->take.kill_wait, "kill wait", 0,
		    MG_TAKEOVER_MAX_GRACE },
		{ O_READY, OPT_STR, &dr->take.ready, "--ready command", 1, 0 },
		{ O_RETRIES, OPT_COUNT, &dr->sl.tries, "number of tries", 1, 10 },
		{ O_SQUEUE, OPT_STR, &dr->sl.squeue, "squeue", 0, 0 },
		{ O_SACCT, OPT_STR, &dr->sl.sacct, "sacct", 0, 0 },
		{ O_SBATCH, OPT_STR, &dr->sl.sbatch, "sbatch", 0, 0 },
		{ O_SINFO, OPT_STR, &dr->sl.sinfo, "sinfo", 0, 0 },
		{ O_SACCTMGR, OPT_STR, &dr->sl.sacctmgr, "sacctmgr", 0, 0 },
		{ O_SCANCEL, OPT_STR, &dr->take.scancel, "scancel", 0, 0 },
		{ O_SCONTROL, OPT_STR, &dr->sl.scontrol, "scontrol", 0, 0 },
		{ O_REPORT, OPT_FLAG, &o->report, "--report", 0, 0 },
		{ O_DRYRUN, OPT_FLAG, &dr->dry_run, "--dry-run", 0, 0 },
		{ O_LOW, OPT_FLAG, &dr->sub.low, "--low", 0, 0 },
		{ O_TAKEOVER, OPT_FLAG, &o->take_over, "--take-over", 0, 0 },
		{ O_HANDOVER, OPT_FLAG, &dr->handover, "--handover", 0, 0 },
		{ O_FULL, OPT_FLAG, &dr->take.full, "--full", 0, 0 }
	};
	const char *name;
	int ch;

	defaults(o);
	while ((ch = getopt_long(argc, argv, "c:F:hH:j:L:m:n:N:p:qQ:s:T:Vz:",
	    longopts, NULL)) != -1) {
		if ((name = plan_option(&dr->rule.pc, &dr->rule.lambda, ch, optarg)) !=
		    NULL) {
			dr->rule.plan |= strcmp(name, "plan") == 0;
			dr->rule.lambda_given |= strcmp(name, "lambda") == 0;
			continue;
		}
		if (opt_store(st, sizeof(st) / sizeof(st[0]), ch,
		    optarg))
			continue;
		switch (ch) {
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
			    strcmp(optarg, "tsv"))
				errx(MG_EXIT_USAGE, "invalid format '%s' (want "
				    "text or json; tsv with --report)", optarg);
			o->json = strcmp(optarg, "json") == 0;
			o->tsv = strcmp(optarg, "tsv") == 0;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'H':
			if (dr->nhist == 8)
				errx(MG_EXIT_USAGE, "at most 8 -H files");
			dr->hist[dr->nhist++] = optarg;
			break;
		case 'j':
			if (!mg_takeover_jobid(optarg))
				errx(MG_EXIT_USAGE, "invalid job id '%.40s' (want "
				    "e.g. 4711, 4711_3 or 4711+1)", optarg);
			dr->job = optarg;
			break;
		case 'V':
			printf("mirage-advise %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		case O_PRIO:
			if (mg_parse_f64(optarg, strlen(optarg), &dr->rule.prio) != 0)
				errx(MG_EXIT_USAGE, "invalid priority '%s'",
				    optarg);
			break;
		case O_SIGNAL:
			if (!mg_takeover_signal(optarg))
				errx(MG_EXIT_USAGE, "invalid signal '%s' (want "
				    "e.g. USR1, TERM or 10)", optarg);
			dr->take.sig = strncmp(optarg, "SIG", 3) == 0 ? optarg + 3 :
			    optarg;
			break;
		case O_MINRUN:
			if (mg_parse_share(optarg, &dr->sub.min_run) != 0)
				errx(MG_EXIT_USAGE, "invalid --min-run '%s' (want "
				    "the share of its limit P runs before S starts, "
				    "e.g. 50%% or 0.5)", optarg);
			break;
		case O_READY_TIME:
			dr->take.ready_time = span_arg("ready time", optarg,
			    MG_TAKEOVER_MAX_GRACE);
			o->ready_time = 1;
			break;
		case O_TARGET:
			o->target = target_arg(optarg);
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
	struct mg_drive *dr = &o->dr;

	/*
	 * The commands run print their times as epoch seconds: a user's
	 * SLURM_TIME_FORMAT ("relative", "%a %H:%M") would give dates that
	 * cannot be read back, and a local date in the hour a DST change
	 * repeats names two times.
	 */
	if (setenv("SLURM_TIME_FORMAT", "%s", 1) != 0)
		err(MG_EXIT_FAIL, "setenv");
	/* times as the commands print them: TZ, or -z */
	if (mg_tz_use(zone, &dr->sl.tz) != 0)
		errx(MG_EXIT_USAGE, "-z: unknown time zone '%s' (not in the "
		    "tz database)", zone);
	dr->sl.timeout = TIMEOUT;
	dr->sl.partition = dr->partition;
	dr->sl.warn = warning;
	dr->sl.arg = dr;
}

/*
 * --target: the model's threshold chosen for this target (mirage-train
 * --target), or from --settings the planner's price or the rule
 * recommended
 */
static void
target(struct opts *o)
{
	struct mg_drive *dr = &o->dr;
	struct mg_diag d = { "" };
	int rv;

	if (o->target == 0 && o->settings != NULL)
		errx(MG_EXIT_USAGE, "--settings goes with --target");
	if (dr->rule.settings_lead && (o->settings == NULL || dr->rule.plan))
		errx(MG_EXIT_USAGE, "--settings-lead goes with --settings, "
		    "without --plan");
	if (o->target == 0)
		return;
	if (!isnan(dr->rule.threshold) || dr->rule.lambda_given)
		errx(MG_EXIT_USAGE, "--target chooses the setting: no -T or "
		    "--lambda");
	if (dr->rule.plan && o->settings == NULL)
		errx(MG_EXIT_USAGE, "--target with --plan: the price comes "
		    "from --settings table.tsv (mirage-eval --target --plan -F "
		    "tsv)");
	if (!dr->rule.plan && dr->rule.model == NULL && o->settings == NULL)
		errx(MG_EXIT_USAGE, "--target needs a model (-m) or a table "
		    "of settings (--settings)");
	if (!dr->rule.plan && dr->rule.model != NULL && o->settings != NULL)
		errx(MG_EXIT_USAGE, "--settings does not go with -m: the "
		    "model keeps its threshold");
	rv = dr->rule.plan || dr->rule.model == NULL ? mg_settings_read(dr,
	    o->settings, o->target, &d) : mg_settings_model(dr, o->target, &d);
	if (rv != 0 && dr->sub.script == NULL)
		errx(mg_exit_status(rv), "%s", d.msg);
	if (rv != 0) {
		/* the chain's run says it, and goes on if under way */
		snprintf(o->unusable, sizeof(o->unusable), "%s", d.msg);
		dr->rule.unusable = o->unusable;
		dr->rule.unusable_rv = rv;
		dr->rule.nchosen = dr->rule.plan = 0;
		dr->rule.model = NULL;
	}
}

/*
 * --report: each chain of the state files given, its links against the
 * accounting; a chain that cannot be reported is said, the others go on
 */
static int
report(struct opts *o, int argc, char *argv[], const char *now_arg)
{
	struct mg_drive *dr = &o->dr;
	int rv;

	if (dr->sub.script != NULL || dr->job != NULL || dr->rule.model != NULL ||
	    dr->rule.plan || dr->queue != NULL || o->take_over || o->json)
		errx(MG_EXIT_USAGE, "--report reads chains' state files and "
		    "sacct: no --submit, -j, -m, --plan, -Q, --take-over or -F "
		    "json");
	if (dr->state != NULL && optind < argc)
		errx(MG_EXIT_USAGE, "--report: the chains' state files as "
		    "operands, or one -s state");
	if (dr->state == NULL && optind == argc)
		errx(MG_EXIT_USAGE, "--report: which chains? give their state "
		    "files (script.chain), or -s state");
	if (now_arg != NULL && mg_parse_date(now_arg, dr->sl.tz, &dr->now) !=
	    0)
		errx(MG_EXIT_USAGE, "invalid time '%s'", now_arg);
	rv = mg_chain_report_files(&dr->sl, dr->state != NULL ? &dr->state :
	    (const char *const *)argv + optind, dr->state != NULL ? 1 : argc -
	    optind, dr->now ? dr->now : (int64_t)time(NULL), stdout, o->tsv);
	return mg_exit_status(rv);
}

/* the time, the script, the cluster's configuration */
static void
validate(struct opts *o, int argc, char *argv[], const char *now_arg)
{
	struct mg_drive *dr = &o->dr;
	static char statebuf[4096];
	struct mg_diag d = { "" };
	int rv;

	if (now_arg != NULL) {
		if (mg_parse_date(now_arg, dr->sl.tz, &dr->now) != 0)
			errx(MG_EXIT_USAGE, "invalid time '%s'", now_arg);
		dr->now_given = 1;
	}
	dr->sub.script_args = argv + optind;
	dr->sub.nscript_args = argc - optind;
	if (dr->sub.nscript_args > 0 && dr->sub.script == NULL)
		errx(MG_EXIT_USAGE, "arguments after the options are the "
		    "script's: give --submit script");
	if (dr->state != NULL && dr->sub.script == NULL)
		errx(MG_EXIT_USAGE, "-s state needs --submit script");
	if ((dr->sub.min_run > 0 || dr->sub.low) && dr->sub.script == NULL)
		errx(MG_EXIT_USAGE, "%s needs --submit script", dr->sub.low ?
		    "--low" : "--min-run");
	if (dr->sub.workdir != NULL && dr->sub.script == NULL)
		errx(MG_EXIT_USAGE, "--chdir needs --submit script");
	if (dr->events != NULL && !dr->rule.plan)
		errx(MG_EXIT_USAGE, "--events goes with --plan");
	if (dr->rule.lead > 0 && (dr->rule.model || dr->rule.plan || o->target))
		errx(MG_EXIT_USAGE, "--lead is a rule: no -m, --plan or --target");
	/* an option that does nothing in this run is refused, not kept */
	if ((dr->take.ready != NULL || o->ready_time) && !o->take_over)
		errx(MG_EXIT_USAGE, "--ready and --ready-time go with "
		    "--take-over (the successor's script): a cron run does not "
		    "wait for a check");
	if (dr->sub.script != NULL) {
		const char *c;

		for (c = dr->sub.script; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				errx(MG_EXIT_USAGE, "--submit: a script name "
				    "with a control character (tab, newline) "
				    "is refused");
		if (access(dr->sub.script, R_OK) != 0)
			err(MG_EXIT_USAGE, "'%s'", dr->sub.script);
		if (mg_slurm_script_request(dr->sub.script, &dr->s_nodes,
		    &dr->s_limit, &dr->sub.script_chdir) != 0)
			err(MG_EXIT_FAIL, "'%s'", dr->sub.script);
		if ((rv = mg_drive_workdir(dr->sub.workdir, o->cwd,
		    sizeof(o->cwd), &dr->sub.workdir, &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
		if (dr->state == NULL) {
			snprintf(statebuf, sizeof(statebuf), "%s.chain",
			    dr->sub.script);
			dr->state = statebuf;
		}
	}
	if (o->config != NULL) {
		/* the cluster model's configuration: its partition's nodes,
		 * the limits per user the planner keeps */
		struct mg_simconf *sc;
		int32_t n;

		if (mg_simconf_new(&sc) != 0)
			errx(MG_EXIT_FAIL, "out of memory");
		if ((rv = mg_simconf_load(sc, o->config, &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
		if (dr->nodes == 0) {
			dr->nodes = mg_simconf_nodes(sc);
			if (dr->partition && mg_simconf_partition(sc,
			    dr->partition, &n, NULL, 0) == 0)
				dr->nodes = n;
		}
		if (dr->partition)
			(void)mg_simconf_partition(sc, dr->partition, &n,
			    dr->part_hosts, sizeof(dr->part_hosts));
		mg_simconf_user_limits(sc, &dr->rule.pc.max_jobs_pu,
		    &dr->rule.pc.max_nodes_pu);
		mg_simconf_free(sc);
	}
	if (dr->now == 0)
		dr->now = (int64_t)time(NULL);
}

int
main(int argc, char *argv[])
{
	struct opts o;
	struct mg_driven r;
	struct mg_advise q;
	struct mg_diag d = { "" };
	const char *now_arg = NULL, *zone = "local";
	char note[1024] = "";
	int status;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	mg_cli_keep_heap();
	parse(argc, argv, &o, &now_arg, &zone);
	environment(&o, zone);
	if (o.tsv && !o.report)
		errx(MG_EXIT_USAGE, "-F tsv goes with --report");
	if (o.report) {
		status = report(&o, argc, argv, now_arg);
	} else if (o.take_over) {
		if (o.dr.sub.script != NULL || o.dr.rule.plan || o.dr.rule.model != NULL ||
		    o.dr.queue != NULL)
			errx(MG_EXIT_USAGE, "--take-over stops the "
			    "predecessor; it takes no --submit, --plan, -m or "
			    "-Q");
		if (o.dr.state == NULL)
			o.dr.state = getenv("MIRAGE_CHAIN_STATE");
		if ((status = mg_drive_takeover(&o.dr, o.dr.job ? o.dr.job :
		    getenv("MIRAGE_PREDECESSOR"), note, sizeof(note), &d)) < 0)
			errx(mg_exit_status(status), "%s", d.msg);
		if (status != MG_DRIVE_TAKEN)
			warnx("take-over: %s", note);
		else
			printf("take-over: %s\n", note);
	} else {
		validate(&o, argc, argv, now_arg);
		target(&o);
		if ((status = mg_drive_run(&o.dr, &r, &d)) < 0)
			errx(status == MG_ENOMEM ? MG_EXIT_FAIL :
			    mg_exit_status(status), "%s", d.msg);
		o.dr.now = r.now;	/* Slurm's, if this clock is behind */
		mg_drive_question(&o.dr, r.job, o.dr.nodes, &q);
		mg_advise_write(stdout, &q, &r.a, r.decision, o.json);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		/* after a take-over P may be gone: its status, not the
		 * report's, says whether S goes on */
		if (o.take_over) {
			warn("stdout (the take-over's report is lost)");
			return status;
		}
		err(MG_EXIT_FAIL, "stdout");
	}
	return status;
}
