/*
 * mirage-eval: evaluate the ways of deciding when to submit a chain's
 * next job (the baselines, the models, the planner) on the same episodes
 * of a replayed trace; (--replay) the cluster model itself: each job's
 * simulated wait against its real one; (--adoption) many chains at once.
 * Each mode is a function; the options say which modes they go with.
 * See mirage-eval(1).
 */
#include <err.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mirage.h"
#include "options.h"
#include "cluster/cluster.h"
#include "cluster/preempt.h"
#include "cluster/replay.h"
#include "cluster/simconf.h"
#include "episode/episode.h"
#include "eval/adoption.h"
#include "eval/compare.h"
#include "eval/evaluation.h"
#include "eval/real.h"
#include "eval/target.h"
#include "eval/walk.h"
#include "learn/model.h"

static void
usage(int status)
{
	fputs("usage: mirage-eval [options] [-M model]... [--target share] "
	    "[file]\n"
	    "       mirage-eval --replay [options] [file]\n"
	    "       mirage-eval --adoption pct[,...] [options] [file]\n",
	    status ? stderr : stdout);
	if (status == 0)
		fputs("options:\n"
		    "  -c config, -m reference|faithful, -n nodes, -s key=value  "
		    "mirage-cluster(5)\n"
		    "  -f date, -N count, -u date, -e span, -k nodes,..., -g "
		    "gpus,..., --chain,\n"
		    "  --workload, --warmup, --limit, --p-runtime, --shard i/n  "
		    "mirage-features(1)\n"
		    "  -M model          a model beside the baselines "
		    "(repeatable)\n"
		    "  -F text|tsv|json, -t threads  the table's format (text); "
		    "a CPU each\n"
		    "  -E episodes.mrs, -C curve.tsv  also every outcome, every "
		    "curve\n"
		    "  -o file           the table (standard output)\n"
		    "  --handover time, --ready-time time  S only once P runs; "
		    "S's start to ready\n"
		    "  --plan futures    the planner too, drawing futures (1 to "
		    "64); --lambda and\n"
		    "                    its other options: mirage-planner(7)\n"
		    "  --plan-fit-calibration  the knots that calibrate its "
		    "chances here\n"
		    "  --hybrid and|or|both|weight  the planner with each -M "
		    "model\n"
		    "  --target share[,...]  each method's setting for this "
		    "share of links kept\n"
		    "  --train-from, --train-count, --folds, --confidence  "
		    "chosen on what\n"
		    "  --table file      also the methods' own table, each "
		    "period's choices, or tests\n"
		    "  --walk-forward period, --history span  chosen on the 28d "
		    "before each period\n"
		    "  --text file       the walk also as text (the same run)\n"
		    "  --real, --ahead n  judged by the real jobs; links queued\n"
		    "  --replay          the cluster model's waits against the "
		    "real ones\n"
		    "  -j jobs.tsv       the replay job by job\n"
		    "  --dl-out, --el-out, --loan-out file  its jobs' attributes, "
		    "elastic jobs, loans\n"
		    "  --adoption pct,...  that share of the long jobs' work as "
		    "services at once\n"
		    "  --adopt-method reactive|lead:time|plan|model|target:file"
		    "  when they submit\n"
		    "  --adopt-seed, --adopt-nodes, --adopt-replicas, --adopt-alternate,"
		    "\n  --adopt-alone, --adopt-hold, --adopt-min-run, --adopt-cap, "
		    "--adopt-low\n                    which services, the site's "
		    "policies\n"
		    "  --progress, -q    a progress line per batch; nothing on "
		    "stderr\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-eval(1).\n", stdout);
	exit(status);
}

/* ---- the command line: what each mode takes ------------------------- */

/* the modes an option goes with, and what it needs in the protocol */
#define R	1u	/* --replay */
#define A	2u	/* --adoption */
#define P	4u	/* the protocol: the methods on episodes */
#define T	8u	/* with --target */
#define W	16u	/* with --walk-forward */
#define X	32u	/* not with --walk-forward */
#define ALL	(R | A | P)

struct eopts {
	const char *path, *out_path;
	int quiet, progress, replaying;
	unsigned mode;		/* R, A or P */
	int epopt;		/* an episode or planner option was given */
	struct mg_simconf *conf;
	/* --replay */
	const char *jobs_path, *dl_out, *loan_out, *el_out;
	/* the protocol */
	struct mg_evalconf ev;
	const char *ep_path, *curve_path, *table_path, *text_path;
	enum mg_compare_format fmt;
	int real;		/* --real: the walk judged by real jobs */
	struct mg_plancal cal;
	char args[1024];
	struct mg_adoption ad;	/* --adoption: the shares, the method */
};

static const char adopt_only[] = "the --adopt-* options go with --adoption";
static const char target_only[] = "--folds, --train-from, --train-count, "
    "--confidence, --table and --walk-forward go with --target";
static const char no_walk[] = "--walk-forward takes one --target share, "
    "and chooses on the history before each period: no --train-from, "
    "--train-count, -E or -C";

/* how an option is taken: a file name or a flag into its field, a
 * setting of the evaluation's or the adoption's by name, or its own */
enum how { FILE_NAME, FLAG, EVAL, ADOPT, OWN };

static const struct eopt {
	struct option o;	/* val 0: a long option only */
	unsigned where;		/* its modes and needs */
	enum how how;
	size_t field;
	const char *msg;	/* said when given where it does not go */
} eopts[] = {
#define O(name, arg, ch, where, how, field, msg) \
	{ { name, arg, NULL, ch }, where, how, field, msg }
#define F(f)	offsetof(struct eopts, f)
	O("adoption", 1, 0, A, ADOPT, 0, "--adoption does not go with --replay"),
	O("adopt-method", 1, 0, A, ADOPT, 0, adopt_only),
	O("adopt-seed", 1, 0, A, ADOPT, 0, adopt_only),
	O("adopt-alone", 1, 0, A, ADOPT, 0, adopt_only),
	O("adopt-replicas", 1, 0, A, ADOPT, 0, adopt_only),
	O("adopt-nodes", 1, 0, A, ADOPT, 0, adopt_only),
	O("adopt-alternate", 0, 0, A, ADOPT, 0, adopt_only),
	O("adopt-hold", 0, 0, A, ADOPT, 0, adopt_only),
	O("adopt-min-run", 1, 0, A, ADOPT, 0, adopt_only),
	O("adopt-cap", 1, 0, A, ADOPT, 0, adopt_only),
	O("adopt-low", 0, 0, A, ADOPT, 0, adopt_only),
	O("curve", 1, 'C', P | X, FILE_NAME, F(curve_path), no_walk),
	O("dl-out", 1, 0, R, FILE_NAME, F(dl_out), NULL),
	O("el-out", 1, 0, R, FILE_NAME, F(el_out), NULL),
	O("loan-out", 1, 0, R, FILE_NAME, F(loan_out), NULL),
	O("episodes", 1, 'E', P | X, FILE_NAME, F(ep_path), no_walk),
	O("folds", 1, 0, P | T, EVAL, 0, target_only),
	O("confidence", 1, 0, P | T, EVAL, 0, target_only),
	O("walk-forward", 1, 0, P | T, EVAL, 0, target_only),
	O("history", 1, 0, P | W, EVAL, 0, "--history goes with --walk-forward"),
	O("text", 1, 0, P | W, FILE_NAME, F(text_path),
	    "--text goes with --walk-forward"),
	O("real", 0, 0, P | T, FLAG, F(real), "--real goes with --target"),
	O("table", 1, 0, P | T, FILE_NAME, F(table_path), target_only),
	O("target", 1, 0, P, EVAL, 0, NULL),
	O("train-count", 1, 0, P | T, EVAL, 0, target_only),
	O("train-from", 1, 0, P | T, EVAL, 0, target_only),
	O("format", 1, 'F', P, OWN, 0, NULL),
	O("hybrid", 1, 0, P, EVAL, 0, NULL),
	O("handover", 1, 0, P | A, EVAL, 0, NULL),
	O("ready-time", 1, 0, P | T, EVAL, 0, "--ready-time goes with --real"),
	O("ahead", 1, 0, P | T, EVAL, 0, "--ahead goes with --real"),
	O("jobs", 1, 'j', R | A, FILE_NAME, F(jobs_path),
	    "-j goes with --replay or --adoption"),
	O("model", 1, 'M', P | A, OWN, 0, NULL),
	O("output", 1, 'o', ALL, FILE_NAME, F(out_path), NULL),
	O("plan-fit-calibration", 0, 0, P, FLAG, F(ev.fit_calibration), NULL),
	O("progress", 0, 0, ALL, FLAG, F(progress), NULL),
	O("quiet", 0, 'q', ALL, FLAG, F(quiet), NULL),
	O("replay", 0, 0, R, FLAG, F(replaying), NULL),
	O("threads", 1, 't', ALL, OWN, 0, NULL),
	O("help", 0, 'h', ALL, OWN, 0, NULL),
	O("version", 0, 'V', ALL, OWN, 0, NULL),
#undef F
#undef O
};
#define NEOPTS	(sizeof(eopts) / sizeof(eopts[0]))
#define LONGONLY	400	/* + an option's index: its getopt value */
static const struct option groups[] = { CLUSTER_LONGOPTS, EPISODE_LONGOPTS,
	PLAN_LONGOPTS, { NULL, 0, NULL, 0 } };

/* ---- the modes --------------------------------------------------------- */

/* --replay: the fidelity of the model against the real waits */
static int
replay(const struct eopts *e)
{
	struct mg_diag d = { "" };
	struct mg_trace t;
	struct mg_clusterdef def;
	int64_t first, last;
	struct mg_replay rp;
	int rv, preempt, loan;
	const char *path = trace_open(e->path, e->conf, &t, &def, NULL);

	if ((rv = mg_replay_write_attrs(&def, &t, e->dl_out, e->el_out,
	    "mirage-eval " MG_VERSION, &d)) != 0)
		errx(rv == MG_EINVAL ? MG_EXIT_USAGE : MG_EXIT_FAIL, "%s", d.msg);
	mg_trace_span(&t, &first, &last);
	preempt = mg_simconf_preempts(def.conf, NULL, NULL);
	loan = mg_simconf_loans(def.conf, NULL) > 0;
	if (e->loan_out != NULL && !loan)
		errx(MG_EXIT_USAGE, "--loan-out needs loaning (-s "
		    "InferenceNodes=N, Mode=faithful)");
	if ((rv = mg_cluster_replay(&def, first, last, (preempt || loan ?
	    MG_REPLAY_LIFE : 0) | (e->loan_out != NULL ? MG_REPLAY_HOURS : 0),
	    &rp, &d)) != 0)
		errx(MG_EXIT_FAIL, "'%s': %s%s", path, d.msg, rv == MG_EINVAL ?
		    "; the replay did not start every job" : "");
	if (mg_replay_write_files(&def, &t, &rp, e->out_path, e->jobs_path,
	    e->loan_out, preempt, preempt || loan, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (!e->quiet && mg_replay_write_summary(stderr, "mirage-eval: ", &def,
	    &t, &rp) != 0)
		errx(MG_EXIT_FAIL, "out of memory");
	mg_cluster_replay_release(&rp);
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	return MG_EXIT_OK;
}

/* --adoption: many chains at once, each share against reactive */
static int
adoption(struct eopts *e)
{
	struct mg_adoption *ad = &e->ad;
	struct mg_diag d = { "" };
	struct mg_clusterdef def;
	struct mg_trace t;
	struct mg_out out;
	int rv;
	const char *path = trace_open(e->path, e->conf, &t, &def, NULL);

	if ((rv = mg_adoption_setup(ad, &e->ev, &def, &d)) != 0)
		errx(rv == MG_ETYPE ? MG_EXIT_USAGE : mg_exit_status(rv), "%s",
		    d.msg);
	ad->jobs_path = e->jobs_path;
	ad->say = e->quiet ? NULL : stderr;
	out_end(&out, mg_adoption_write(&def, ad, out_begin(&out, e->out_path),
	    &d), &d, path);
	mg_adoption_release(ad);
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	return MG_EXIT_OK;
}

/* the progress line of a batch of outcomes */
struct tally {
	enum mg_progress pr;
	const char *what;	/* "episodes", or the training period's */
};

static void
tally(void *arg, const struct mg_outcome *res, size_t nres, size_t done,
    size_t all)
{
	const struct tally *ty = arg;

	(void)res, (void)nres;
	progress_line(ty->pr, "mirage-eval", done, all, ty->what);
}

/* a comparison that failed: a model bound to features not there, or the
 * episodes of the trace (at path; pre says which) */
static void
failed(const struct mg_evaluation *ev, int rv, const char *path,
    const char *pre, const struct mg_diag *d)
{
	if (ev->bad >= 0)
		errx(mg_exit_status(rv), "'%s': %s", ev->c->model[ev->bad],
		    d->msg);
	errx(rv == MG_ENOMEM ? MG_EXIT_FAIL : MG_EXIT_USAGE, "'%s': %s%s",
	    path, pre, d->msg);
}

/* --real: the months walked forward, or a day's settings; --table: tests */
static void
real(struct eopts *e, const struct mg_trace *t, const struct mg_clusterdef *def)
{
	struct mg_diag d = { "" };
	struct mg_realconf rc;
	struct mg_real *r;
	struct mg_out out;
	int rv;

	if ((e->ev.walk && (rv = mg_epsel_resolve(&e->ev.sel, def, &d)) != 0) ||
	    (rv = mg_realconf_eval(&rc, &e->ev, def->nodes, &d)) != 0 ||
	    (rv = mg_real_run(t, &rc, &r, &d)) != 0)
		errx(mg_exit_status(rv), "--real: %s", d.msg);
	out_end(&out, (e->ev.walk ? mg_real_write : mg_real_write_settings)(r,
	    out_begin(&out, e->out_path), e->fmt == MG_COMPARE_TEXT, &d), &d,
	    NULL);
	if (e->table_path != NULL)
		out_end(&out, mg_real_write_tests(r, out_begin(&out,
		    e->table_path), &d), &d, NULL);
	mg_real_free(r);
}

/* --walk-forward: each period's settings chosen on its history */
static void
walk_forward(struct eopts *e, struct mg_evaluation *ev, const char *path)
{
	struct mg_diag d = { "" };
	struct mg_walk *wk;
	struct mg_out out;
	int rv, run;

	if ((rv = mg_evaluation_walk(ev, &wk, &run, &d)) != 0 && run)
		failed(ev, rv, path, "", &d);
	if (rv != 0)
		errx(mg_exit_status(rv), "--walk-forward: %s", d.msg);
	out_end(&out, mg_walk_write(wk, out_begin(&out, e->out_path), e->fmt,
	    &d), &d, NULL);
	if (e->table_path != NULL)
		out_end(&out, mg_walk_write_choices(wk, out_begin(&out,
		    e->table_path), &d), &d, NULL);
	/* the same walk as text: one run, both forms */
	if (e->text_path != NULL)
		out_end(&out, mg_walk_write(wk, out_begin(&out, e->text_path),
		    MG_COMPARE_TEXT, &d), &d, NULL);
	mg_walk_free(wk);
}

/* --target: each method's setting chosen on the training period */
static struct mg_choice *
choose_settings(struct eopts *e, struct mg_evaluation *ev, const char *path,
    struct mg_target_prov *prov)
{
	struct mg_diag d = { "" };
	struct mg_choice *ch;
	struct mg_epsel ts;
	int rv, run;

	if (mg_target_training(&e->ev.sel, e->ev.have_train_from ?
	    &e->ev.train_from : NULL, e->ev.train_count, &ts))
		warnx("--target: the training period's episodes reach into "
		    "the evaluated ones (its last starts %.1f days before "
		    "them, with a workload of %.1f days)", (double)
		    (e->ev.sel.from - ts.from - (ts.count - 1) * ts.every) /
		    86400, (double)ts.e.workload / 86400);
	if ((rv = mg_evaluation_choose(ev, &ch, prov, &run, &d)) != 0 && run)
		failed(ev, rv, path, "the training period: ", &d);
	if (rv != 0)
		errx(mg_exit_status(rv), "--target: %s", d.msg);
	/* a model left out of the choice: said even when quiet */
	if (*prov->insample)
		warnx("--target: %s", prov->insample);
	return ch;
}

/* the outcomes stream, the curve, then the tables: each whole or none */
static void
write_results(const struct eopts *e, const struct mg_compare *cmp,
    const struct mg_choice *ch, const struct mg_target_prov *prov)
{
	struct mg_diag d = { "" };
	struct mg_writer_opts wo;
	struct mg_out out;
	FILE *fp;

	if (e->ep_path) {
		mg_writer_opts_init(&wo);
		wo.producer = "mirage-eval " MG_VERSION;
		wo.args = e->args;
		fp = out_begin(&out, e->ep_path);
		out_end(&out, mg_compare_write_outcomes(cmp, fp, &e->ev.sel, &wo,
		    &d), &d, NULL);
	}
	if (e->curve_path)
		out_end(&out, mg_compare_write_curve(cmp, out_begin(&out,
		    e->curve_path), &d), &d, NULL);
	if (e->table_path != NULL)
		out_end(&out, mg_compare_write(cmp, out_begin(&out,
		    e->table_path), e->fmt, &d), &d, NULL);
	fp = out_begin(&out, e->out_path);
	out_end(&out, ch != NULL ? mg_target_write(cmp, ch, e->ev.target,
	    e->ev.ntarget, prov, fp, e->fmt, &d) : mg_compare_write(cmp, fp,
	    e->fmt, &d), &d, NULL);
}

/* the protocol: the methods on the episodes, their settings chosen for
 * a target on a training period or walked forward */
static int
protocol(struct eopts *e)
{
	struct mg_diag d = { "" };
	struct tally ty = { mg_cli_progress(e->quiet, e->progress),
	    "episodes (with their history)" };
	struct mg_target_prov prov;
	struct mg_choice *ch = NULL;
	struct mg_evaluation ev;
	struct mg_compare *cmp;
	struct mg_clusterdef def;
	struct mg_trace t;
	char knots[2048];
	const char *path = trace_open(e->path, e->conf, &t, &def, NULL);
	int rv;

	e->ev.each = tally;
	e->ev.arg = &ty;
	e->ev.say = e->quiet ? NULL : stderr;
	e->ev.prefix = "mirage-eval: ";
	if (e->real) {		/* no episode: the real jobs */
		real(e, &t, &def);
		goto out;
	}
	if ((rv = mg_evaluation_open(&ev, &e->ev, &def, &t, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	ev.cal = e->ev.fit_calibration ? &e->cal : NULL;
	if (e->ev.walk > 0)
		walk_forward(e, &ev, path);
	else {
		ty.what = "episodes of the training period";
		if (e->ev.ntarget > 0)
			ch = choose_settings(e, &ev, path, &prov);
		ty.what = "episodes";
		if ((rv = mg_evaluation_run(&ev, &e->ev.sel, &cmp, &d)) != 0)
			failed(&ev, rv, path, "", &d);
		write_results(e, cmp, ch, &prov);
		if (e->ev.fit_calibration &&
		    mg_plancal_knots(&e->cal, knots, sizeof(knots)) < 0)
			warnx("--plan-fit-calibration: no decision to fit on");
		else if (e->ev.fit_calibration)
			fprintf(stderr, "mirage-eval: the planner's chances on "
			    "these episodes: --plan-calibration '%s'\n", knots);
		free(ch);
		mg_compare_free(cmp);
	}
	mg_evaluation_close(&ev);
out:
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	return MG_EXIT_OK;
}

/* an option of the table taken its own way, with its argument */
static void
option(struct eopts *e, int ch, const char *arg)
{
	/* in the order of enum mg_compare_format */
	static const char *const fmt[] = { "text", "tsv", "json" };
	int k;

	switch (ch) {
	case 'F':
		for (k = 0; k < 3 && strcmp(arg, fmt[k]) != 0; k++)
			;
		if (k == 3)
			errx(MG_EXIT_USAGE, "invalid format '%s' (want text, "
			    "tsv or json)", arg);
		e->fmt = (enum mg_compare_format)k;
		break;
	case 'M':
		if (e->ev.nmodels == MG_COMPARE_MAXMODELS)
			errx(MG_EXIT_USAGE, "at most %d models",
			    MG_COMPARE_MAXMODELS);
		e->ev.model[e->ev.nmodels++] = arg;
		break;
	case 't':
		e->ev.threads = (int)number_arg("thread count", arg, 1, 256);
		break;
	case 'h':
		usage(MG_EXIT_OK);
		break;
	case 'V':
		printf("mirage-eval %s\n", MG_VERSION);
		exit(MG_EXIT_OK);
	}
}

/* the command line into e, and which of the table's options it gave */
static void
parse(int argc, char *argv[], struct eopts *e, unsigned char *seen)
{
	struct option lo[NEOPTS + sizeof(groups) / sizeof(groups[0])];
	struct mg_diag d = { "" };
	const struct eopt *o;
	size_t i;
	int ch, rv;

	for (i = 0; i < NEOPTS; i++) {
		lo[i] = eopts[i].o;
		lo[i].val = lo[i].val ? lo[i].val : LONGONLY + (int)i;
	}
	memcpy(lo + NEOPTS, groups, sizeof(groups));
	memset(e, 0, sizeof(*e));
	e->path = "-";
	e->conf = cluster_new();
	mg_evalconf_init(&e->ev);
	mg_adoption_init(&e->ad);
	mg_cli_args(argc, argv, e->args, sizeof(e->args));
	while ((ch = getopt_long(argc, argv, "C:E:F:hj:M:o:qt:V"
	    CLUSTER_SHORTOPTS EPISODE_SHORTOPTS, lo, NULL)) != -1) {
		if (episode_option(&e->ev.sel, ch, optarg)) {
			e->epopt = 1;
			continue;
		}
		if (plan_option(&e->ev.pc, &e->ev.lambda, ch, optarg)) {
			e->epopt = 1;
			continue;
		}
		if (cluster_option(e->conf, ch, optarg))
			continue;
		for (i = 0; i < NEOPTS && lo[i].val != ch; i++)
			;
		if (i == NEOPTS)
			usage(MG_EXIT_USAGE);
		seen[i] = 1;
		o = &eopts[i];
		if (o->how == FILE_NAME)
			*(const char **)((char *)e + o->field) = optarg;
		else if (o->how == FLAG)
			*(int *)((char *)e + o->field) = 1;
		else if (o->how == OWN)
			option(e, ch, optarg);
		else if ((rv = o->how == EVAL ? mg_evalconf_set(&e->ev,
		    o->o.name, optarg, &d) : mg_adoption_set(&e->ad, o->o.name,
		    optarg, &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
	}
	if (argc - optind > 1)
		usage(MG_EXIT_USAGE);
	if (argc - optind == 1)
		e->path = argv[optind];
	e->mode = e->replaying ? R : e->ad.nshare > 0 ? A : P;
}

/* an option given where it does not go: what to say */
static const char *
misplaced(const struct eopts *e, const struct eopt *o, char *buf, size_t len)
{
	if (e->mode == R && (o->where & P))
		return "--replay takes no episode or method options";
	if (e->mode == A && (o->where & P))
		return "--adoption takes the cluster options, -f, -u, -N, -o, "
		    "-j, -t, --handover, --adopt-method and the planner's";
	if (o->msg != NULL)
		return o->msg;
	snprintf(buf, len, "--%s goes with --%s", o->o.name, o->where & R ?
	    "replay" : "adoption");
	return buf;
}

/* options that do not go together, and the defaults that depend on
 * others */
static void
validate(struct eopts *e, const unsigned char *seen)
{
	struct mg_diag d = { "" };
	unsigned need = (e->ev.ntarget ? T : 0) | (e->ev.walk ? W : X);
	char buf[128];
	size_t i;
	int rv;

	for (i = 0; i < NEOPTS; i++)
		if (seen[i] && (!(eopts[i].where & e->mode) || (e->mode == P &&
		    (eopts[i].where & (T | W | X) & ~need))))
			errx(MG_EXIT_USAGE, "%s", misplaced(e, &eopts[i], buf,
			    sizeof(buf)));
	if (e->mode == R && e->epopt)
		errx(MG_EXIT_USAGE, "--replay takes no episode or method "
		    "options");
	if ((rv = e->mode == A ? mg_adoption_check(&e->ad, e->ev.nmodels,
	    (e->ev.pc.given & MG_PLAN_GIVEN_PLAN) != 0, &d) :
	    mg_evalconf_check(&e->ev, &d)) != 0)
		errx(MG_EXIT_USAGE, "%s", d.msg);
	e->cal.k = e->ev.pc.k;
}

int
main(int argc, char *argv[])
{
	unsigned char seen[NEOPTS] = { 0 };
	struct eopts e;
	int rv;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	mg_cli_keep_heap();
	parse(argc, argv, &e, seen);
	validate(&e, seen);
	rv = e.mode == R ? replay(&e) : e.mode == A ? adoption(&e) :
	    protocol(&e);
	mg_simconf_free(e.conf);
	return rv;
}
