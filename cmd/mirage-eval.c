/*
 * mirage-eval: evaluate the ways of deciding when to submit a chain's
 * next job (the baselines, the models, the planner) on the same episodes
 * of a replayed trace, and (--replay) the cluster model itself: each
 * job's simulated wait against its real one.  See mirage-eval(1).
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mirage.h"
#include "options.h"
#include "cluster/cluster.h"
#include "episode/episode.h"
#include "eval/adoption.h"
#include "eval/compare.h"
#include "learn/model.h"
#include "eval/target.h"
#include "eval/walk.h"
#include "cluster/simconf.h"
#include "cluster/preempt.h"
#include "cluster/replay.h"
#include "episode/adopt.h"

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-eval [-q] [-c config] [-m mode] [-n nodes] "
	    "[-s key=value]\n"
	    "           [-f date] [-N count | -u date] [-e span] "
	    "[-k nodes[,...] | -g gpus[,...]]\n"
	    "           [--chain jobs] [--workload span] [--warmup span] "
	    "[--limit span]\n"
	    "           [--p-runtime span] [-M model]... [-F text|tsv|json] "
	    "[-E episodes.mrs]\n"
	    "           [-C curve.tsv] [--shard i/n] [-t threads] "
	    "[-o file]\n"
	    "           [--plan futures [--lambda l] [--plan-cost c] "
	    "[--plan-seed n]\n"
	    "           [--plan-window span] [--plan-draws d] [--plan-truth what] "
	    "[--plan-model m]\n"
	    "           [--plan-arrivals a] [--plan-runtimes r] [--plan-every m[:h]]\n"
	    "           [--hybrid h]"
	    " [--plan-limits l] [--plan-capacity c] [--plan-followers f]\n"
	    "           [--plan-calibration knots] [--plan-fit-calibration]]\n"
	    "           [--target share[,...] [--train-from date] "
	    "[--train-count n]\n"
	    "           [--folds n] [--confidence c] [--table file]\n"
	    "           [--walk-forward period [--history span]]] [file]\n"
	    "       mirage-eval --replay [-q] [-c config] [-j jobs.tsv] "
	    "[-m mode] [-n nodes]\n"
	    "           [-o file] [-s key=value] [--dl-out attrs.mrs]\n"
	    "           [--el-out el.mrs] [--loan-out hours.tsv] [file]\n"
	    "       mirage-eval --adoption pct[,...] [-q] [-c config] [-m mode] "
	    "[-n nodes]\n"
	    "           [-s key=value] [-f date [-N count | -u date]] [-o file]\n"
	    "           [-j jobs.tsv] [-t threads] [-M model]\n"
	    "           [--adopt-method reactive|lead:time|plan|model]\n"
	    "           [--adopt-seed n] [--adopt-alone n] [--adopt-hold] "
	    "[--handover time]\n"
	    "           [--plan futures ...] [file]\n");
	if (status == 0)
		fputs("options:\n"
		    "  -c config, -m reference|faithful, -n nodes, -s key=value\n"
		    "                    the cluster model: a config file, its mode, its nodes,\n"
		    "                    one setting\n"
		    "  -f date, -N count | -u date, -e span, -k nodes,... | -g gpus,...,\n"
		    "  --chain, --workload, --warmup, --limit, --p-runtime\n"
		    "                    the episodes, as mirage-features takes them\n"
		    "  -M model          a model to evaluate beside the baselines (repeatable)\n"
		    "  -F text|tsv|json  the table's format (text)\n"
		    "  -E episodes.mrs   also write every method's outcome per episode\n"
		    "  -C curve.tsv      also write each method's curve over its threshold\n"
		    "  --shard i/n       the i-th of n shares of the episodes\n"
		    "  -t threads        episodes in parallel (one per CPU)\n"
		    "  -o file           write the table to file (default: stdout)\n"
		    "  --plan futures    evaluate the planner too, drawing futures (1 to 64)\n"
		    "  --lambda l        its price of an hour of overlap (1.5), or of lease\n"
		    "                    given up with --handover (0.001)\n"
		    "  --plan-cost risk|hours|risk-cv  what an interruption costs it (risk;\n"
		    "                    risk-cv: the plan that waits judged on other futures)\n"
		    "  --plan-seed n     the seed of its draws (1)\n"
		    "  --plan-window span  plan only in P's last span (24h; all of P\n"
		    "                    with --handover)\n"
		    "  --plan-calibration knots  its chances of interruption calibrated\n"
		    "  --plan-fit-calibration  print the knots that calibrate them here\n"
		    "  --plan-every M[:H]  reuse a plan for M minutes at its candidate\n"
		    "                    times until H hours before P's end (30:6; 0:\n"
		    "                    plan every decision)\n"
		    "  --plan-draws decision|episode  new draws at each decision (decision),\n"
		    "                    or the same at every decision of an episode\n"
		    "  --plan-truth none|runtimes|arrivals|both  a diagnostic: the true future\n"
		    "  --plan-model faithful|reference  its cluster model (the world's)\n"
		    "  --plan-limits none|JOBS[:NODES]  the limits per user its faithful\n"
		    "                    model keeps (the world's)\n"
		    "  --plan-capacity delta|day|now[:M]  a faithful world's capacity ahead:\n"
		    "                    its history's change from a past day (delta), that\n"
		    "                    day's, or now's; now's held M minutes (0)\n"
		    "  --plan-followers none|M  a user's next job follows one that ended\n"
		    "                    within M minutes (none)\n"
		    "  --plan-arrivals week|blocks[:H][,rate[:W]]  how it draws arrivals\n"
		    "                    (blocks:4); rate: scaled to the last W hours' (24)\n"
		    "  --plan-runtimes class|user|recent[:N]  its run times by limit\n"
		    "                    class, by user and class (user), or the user's\n"
		    "                    last N of the class that outlasted the job (10)\n"
		    "  --handover time   the chain hands over in time: S only once P runs,\n"
		    "                    the planner over all of P pricing the lease given\n"
		    "                    up (lambda 0.001), the fixed leads, curves to the\n"
		    "                    limit, 99% readings and 30 days of service\n"
		    "  --hybrid and|or|both|weight  also the planner with each -M model:\n"
		    "                    submit where both would (and), either would (or),\n"
		    "                    or both; or its futures weighed by the model (weight)\n"
		    "  --target share[,...]  choose every method's setting for this share of\n"
		    "                    links without an interruption (99%) on a training\n"
		    "                    period, then report what it brings here\n"
		    "  --train-from date, --train-count n  the training period (as many\n"
		    "                    episodes as evaluated, ending before them)\n"
		    "  --folds n         its time-blocked folds (4)\n"
		    "  --confidence c    a setting's promise holds at this confidence (95%)\n"
		    "  --table file      with --target, also the methods' own table; with\n"
		    "                    --walk-forward, each period's choices\n"
		    "  --walk-forward period  with --target, cut the evaluated span into\n"
		    "                    periods (1d, 7d) and choose each one's settings on\n"
		    "                    the history before it only; the table month by month\n"
		    "  --history span    the history each period's settings are chosen on (28d)\n",
		    stdout);
	if (status == 0)	/* (a string of at most 4095 bytes each) */
		fputs("  --replay          replay the trace and compare waits with the real ones\n"
		    "  -j jobs.tsv       with --replay: the per-job comparison\n"
		    "  --dl-out attrs.mrs  with --replay and preemption: write the\n"
		    "                    jobs' deep-learning attributes (a dlattrs stream)\n"
		    "  --el-out el.mrs   with --replay and elastic jobs: write which\n"
		    "                    jobs are elastic and their ranges (an elastic stream)\n"
		    "  --loan-out hours.tsv  with --replay and loaning: the inference\n"
		    "                    demand and the nodes lent and used, hour by hour\n"
		    "  --adoption pct,...  many chains at once: that share of the long\n"
		    "                    jobs' work as services in one replay, against the\n"
		    "                    same services reactive (-j: the last share's jobs)\n"
		    "  --adopt-method reactive|lead:time|plan|model  when services submit\n"
		    "                    (reactive; plan: the planner, with --plan; model:\n"
		    "                    the -M model, of a window of one snapshot)\n"
		    "  --adopt-seed n    which long jobs become services (1)\n"
		    "  --adopt-alone n   also n services each with the method alone,\n"
		    "                    the others reactive (alone_* columns)\n"
		    "  --adopt-hold      with lead:time, faithful: submit as soon as the\n"
		    "                    predecessor runs, held (--begin) until the lead\n"
		    "  --progress        a progress line per batch, also in a log\n"
		    "  -q                no progress or summary on standard error\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-eval(1).\n", stdout);
	exit(status);
}

/* the trace at path (- stdin) and the cluster model of it; the name
 * of the trace in messages */
static const char *
open_trace(const char *path, const struct mg_simconf *conf,
    struct mg_trace *t, struct mg_clusterdef *def)
{
	struct mg_diag d = { "" };
	int rv;

	if ((rv = mg_trace_read(path, t, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	if (strcmp(path, "-") == 0)
		path = "<stdin>";
	if ((rv = mg_clusterdef_init(def, conf, t, &d)) != 0)
		errx(rv == MG_EINVAL ? MG_EXIT_FAIL : mg_exit_status(rv),
		    "'%s': %s", path, d.msg);
	return path;
}

/* --replay: the fidelity of the model against the real waits */
struct ropts {
	const char *path, *out_path, *jobs_path, *dl_out, *loan_out, *el_out;
	int quiet;
};

/* a replay's side file at path, written by one of mg_replay_write_* */
static void
side_file(const char *path, const struct mg_clusterdef *def,
    const struct mg_trace *t, int (*write)(FILE *,
    const struct mg_clusterdef *, const struct mg_trace *,
    const struct mg_writer_opts *, struct mg_diag *))
{
	struct mg_diag d = { "" };
	struct mg_writer_opts wo;
	struct mg_out out;

	mg_writer_opts_init(&wo);
	wo.producer = "mirage-eval " MG_VERSION;
	wo.seed = mg_simconf_dl_seed(def->conf);
	if (mg_out_open(&out, path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (write(out.fp, def, t, &wo, &d) != 0 ||
	    mg_out_commit(&out, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "'%s': %s", path, d.msg);
	}
}

/* the replay's files: the per-job one first, so that if it fails no
 * summary appears either */
static void
replay_files(const struct ropts *o, const struct mg_clusterdef *def,
    const struct mg_trace *t, const struct mg_replay *rp, int preempt,
    int loan)
{
	struct mg_diag d = { "" };
	struct mg_out out, jout;

	if (o->jobs_path) {
		if (mg_out_open(&jout, o->jobs_path, &d) != 0)
			errx(MG_EXIT_FAIL, "%s", d.msg);
		mg_replay_write_jobs(jout.fp, t, rp, preempt || loan);
	}
	if (mg_out_open(&out, o->out_path, &d) != 0 ||
	    mg_replay_write_fidelity(out.fp, t, rp, preempt, &d) != 0) {
		mg_out_abort(&out);	/* none, if it could not open */
		if (o->jobs_path)
			mg_out_abort(&jout);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
	if (o->jobs_path && mg_out_commit(&jout, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
	if (mg_out_commit(&out, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (o->loan_out != NULL) {
		if (mg_out_open(&out, o->loan_out, &d) != 0)
			errx(MG_EXIT_FAIL, "%s", d.msg);
		mg_replay_write_hours(out.fp, def, rp);
		if (mg_out_commit(&out, &d) != 0)
			errx(MG_EXIT_FAIL, "%s", d.msg);
	}
}

static int
replay(const struct ropts *o, const struct mg_simconf *conf)
{
	struct mg_diag d = { "" };
	const char *path = o->path;
	struct mg_trace t;
	struct mg_clusterdef def;
	struct mg_replaystats st;
	int64_t first, last;
	struct mg_replay rp;
	int rv, preempt, loan;

	path = open_trace(path, conf, &t, &def);
	if (o->dl_out != NULL && def.dl == NULL)
		errx(MG_EXIT_USAGE, "--dl-out needs preemption (-s "
		    "PreemptMode=REQUEUE or CANCEL, Mode=faithful)");
	if (o->dl_out != NULL)
		side_file(o->dl_out, &def, &t, mg_replay_write_dl);
	if (o->el_out != NULL && def.el == NULL)
		errx(MG_EXIT_USAGE, "--el-out needs elastic jobs (-s "
		    "ElasticShare=s or ElasticFile=f, Mode=faithful)");
	if (o->el_out != NULL)
		side_file(o->el_out, &def, &t, mg_replay_write_el);
	mg_trace_span(&t, &first, &last);
	preempt = mg_simconf_preempts(def.conf, NULL, NULL);
	loan = mg_simconf_loans(def.conf, NULL) > 0;
	if (o->loan_out != NULL && !loan)
		errx(MG_EXIT_USAGE, "--loan-out needs loaning (-s "
		    "InferenceNodes=N, Mode=faithful)");
	if ((rv = mg_cluster_replay(&def, first, last, (preempt || loan ?
	    MG_REPLAY_LIFE : 0) | (o->loan_out != NULL ? MG_REPLAY_HOURS : 0),
	    &rp, &d)) != 0)
		errx(MG_EXIT_FAIL, "'%s': %s%s", path, d.msg, rv == MG_EINVAL ?
		    "; the replay did not start every job" : "");
	replay_files(o, &def, &t, &rp, preempt, loan);
	if (!o->quiet)
		fprintf(stderr, "mirage-eval: replayed %zu jobs (%zu skipped: "
		    "never ran) on %d nodes, %s mode, %zu dependencies "
		    "inferred\n", t.n, t.skipped, def.nodes,
		    mg_simconf_mode(conf) == MG_MODE_REFERENCE ? "reference" :
		    "faithful", def.ndeps);
	if (!o->quiet && (preempt || loan) &&
	    mg_replay_stats(&def, &t, &rp, &st) != 0)
		errx(MG_EXIT_FAIL, "out of memory");
	if (!o->quiet)
		mg_replay_write_summary(stderr, "mirage-eval: ", &def, &rp, &st);
	mg_cluster_replay_release(&rp);
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	return MG_EXIT_OK;
}

/* ---- the evaluation protocol ---------------------------------------- */


struct popts {
	struct mg_epsel sel;
	const char *model_path[MG_COMPARE_MAXMODELS];
	int nmodels;
	const char *out_path, *ep_path, *curve_path;
	enum mg_compare_format fmt;
	int threads, quiet, progress;
	int plan;		/* the planner is a method */
	int plan_model;		/* --plan-model given */
	int plan_limits;	/* --plan-limits given */
	int hybrid;		/* --hybrid: enum mg_hybrid */
	int fitcal;		/* --plan-fit-calibration */
	struct mg_plancal cal;
	struct mg_planconf pc;
	double lambda;
	int64_t handover;	/* --handover: seconds, 0 off */
	int plan_window;	/* --plan-window given */
	int lambda_given;	/* --lambda given */
	double target[MG_TARGET_MAX];	/* --target: the shares wanted */
	int ntarget;		/* 0: no target */
	int folds;		/* --folds: the training period's */
	int64_t train_from;	/* --train-from */
	int train_from_given;
	long train_count;	/* --train-count, 0: as many as evaluated */
	const char *table_path;	/* --table: with --target, the full table */
	double confidence;	/* --confidence */
	struct mg_target_prov prov;	/* where the settings were chosen */
	int64_t walk;		/* --walk-forward: the period, 0: none */
	int64_t history;	/* --history */
	char args[1024];
};

/* the planner's chances at each tick of o against what happened */
static void
calibration_add(struct mg_plancal *cal, const struct mg_outcome *o)
{
	size_t j, q, f;
	int c;

	for (j = f = 0; j < o->n; j++) {
		const struct mg_plancost *pc;

		if (!o->tick[j])
			continue;
		pc = &o->plan[f++];
		if (pc->n > 0 && !mg_plan_own(pc))
			continue;	/* a plan reused: counted once */
		for (c = 0, q = j; c < pc->n; c++) {
			long share = lround(pc->pint[c] * cal->k);

			while (q < o->n && o->t[q] < pc->at[c])
				q++;
			if (q == o->n || o->t[q] != pc->at[c] ||
			    o->x[q] == MG_X_UNKNOWN || share < 0 ||
			    share > cal->k)
				continue;
			cal->n[c > 0][share]++;
			cal->y[c > 0][share] += o->x[q] > 0;
		}
	}
}

/* the -M models, read and named after their files, into cc; the most
 * reference snapshots one needs */
static int
read_models(const struct popts *po, struct mg_compareconf *cc,
    char (*names)[64])
{
	struct mg_diag d = { "" };
	int k, rv, window = 1;

	for (k = 0; k < po->nmodels; k++) {
		const char *mp = po->model_path[k], *base;
		FILE *fp = fopen(mp, "rb");
		char *dot;

		if (fp == NULL)
			err(MG_EXIT_FAIL, "cannot open '%s'", mp);
		if ((rv = mg_model_read(fp, mp, &cc->model[k], &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
		fclose(fp);
		if ((int)cc->model[k]->window > window)
			window = (int)cc->model[k]->window;
		base = strrchr(mp, '/') ? strrchr(mp, '/') + 1 : mp;
		snprintf(names[k], sizeof(names[k]), "%s", base);
		if ((dot = strrchr(names[k], '.')) != NULL && dot != names[k])
			*dot = '\0';
		cc->name[k] = names[k];
	}
	cc->nmodels = po->nmodels;
	return window;
}

/* the planner's settings the world implies, unless given */
static void
plan_settings(struct popts *po, const struct mg_simconf *conf,
    const struct mg_clusterdef *def, const struct mg_compare *cmp)
{
	/* handing over, the planner plans over the whole of P */
	if (po->handover > 0) {
		if (!po->plan_window)
			po->pc.window = po->sel.e.limit;
		po->pc.handover = po->handover;
	}
	/* the planner's decisions after its latest price has submitted
	 * are never read, unless a hybrid or a calibration reads them */
	if (cmp != NULL && !po->hybrid && !po->fitcal)
		po->pc.nstop = (int)mg_compare_prices(cmp, po->pc.stop);
	/* by default the world's own model (plain: not its options) */
	if (!po->plan_model)
		po->pc.model = mg_simconf_mode(conf) == MG_MODE_REFERENCE ?
		    MG_PLAN_REFERENCE : MG_PLAN_FAITHFUL;
	/* by default the cluster's limits per user, as sacctmgr shows them */
	if (!po->plan_limits && mg_simconf_mode(conf) == MG_MODE_FAITHFUL)
		mg_simconf_user_limits(conf, &po->pc.max_jobs_pu,
		    &po->pc.max_nodes_pu);
	/* the cluster's capacity over the past, as sacctmgr records it */
	if (po->pc.cap_model != MG_PLAN_CAP_NOW &&
	    mg_simconf_mode(conf) == MG_MODE_FAITHFUL)
		po->pc.cap_n = mg_clusterdef_capacity(def, &po->pc.cap_time,
		    &po->pc.cap_nodes);
}

/* ---- many chains at once (--adoption) ------------------------------- */

#define MAXSHARES MG_ADOPTION_MAXSHARES

struct aopts {
	double share[MAXSHARES];	/* --adoption */
	int nshare;
	enum mg_adopt_method method;	/* --adopt-method */
	int64_t lead;
	uint64_t seed;			/* --adopt-seed */
	int alone;			/* --adopt-alone */
	int hold;			/* --adopt-hold */
};

static void
shares(struct aopts *a, const char *arg)
{
	const char *p = arg;

	while (*p) {
		size_t n = strcspn(p, ",");
		double v;

		if (a->nshare == MAXSHARES)
			errx(MG_EXIT_USAGE, "--adoption: at most %d shares",
			    MAXSHARES);
		if (n > 0 && p[n - 1] == '%')
			n--;
		if (mg_parse_f64(p, n, &v) != 0 || v < 0 || v > 90)
			errx(MG_EXIT_USAGE, "--adoption: invalid share '%s' "
			    "(want percentages from 0 to 90, e.g. 0,10,30,50)",
			    arg);
		a->share[a->nshare++] = v / 100;
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	if (a->nshare == 0)
		errx(MG_EXIT_USAGE, "--adoption: no share given");
}

static int
adoption(const struct aopts *ao, const struct ropts *o,
    const struct mg_simconf *conf, struct popts *po)
{
	const struct mg_epsel *sel = &po->sel;
	int64_t handover = po->handover;
	struct mg_diag d = { "" };
	struct mg_adoption ad;
	struct mg_askmodel am;
	struct mg_clusterdef def;
	struct mg_trace t;
	struct mg_out out;
	const char *path;
	char mname[64];
	int rv;

	path = open_trace(o->path, conf, &t, &def);
	memset(&ad, 0, sizeof(ad));
	mg_adoptconf_init(&ad.a);
	memset(&am, 0, sizeof(am));
	if (ao->method == MG_ADOPT_ASK) {
		if ((rv = mg_askmodel_open(po->model_path[0], &am, &d)) != 0)
			errx(rv == MG_EIO ? MG_EXIT_FAIL : rv == MG_ETYPE ||
			    rv == MG_EINVAL ? MG_EXIT_USAGE : mg_exit_status(rv),
			    "%s", d.msg);
		ad.a.ask = mg_askmodel_says;
		ad.a.ask_arg = &am;
	}
	ad.a.method = ao->method;
	ad.a.lead = ao->lead;
	ad.a.hold = ao->hold;
	if (ao->seed > 0)
		ad.a.seed = ao->seed;
	ad.a.handover = handover;
	if (ao->method == MG_ADOPT_PLAN) {
		plan_settings(po, conf, &def, NULL);
		ad.a.pc = &po->pc;
		ad.a.threads = po->threads;
		ad.a.lambda = po->lambda_given ? po->lambda : handover > 0 ?
		    MG_PLAN_HANDOVER_LAMBDA : po->lambda;
	}
	if (sel->have_from)
		ad.a.from = sel->from;
	if (sel->have_until)
		ad.a.until = sel->until;
	else if (sel->count > 0 && sel->have_from)
		ad.a.until = sel->from + sel->count * sel->every;
	if (ao->method == MG_ADOPT_LEAD)
		snprintf(mname, sizeof(mname), "lead %lld%s%s%s",
		    (long long)(ao->lead % 3600 ? ao->lead / 60 : ao->lead /
		    3600), ao->lead % 3600 ? "m" : "h", ao->hold ? ", held" :
		    "", handover > 0 ? ", handover" : "");
	else if (ao->method == MG_ADOPT_PLAN)
		snprintf(mname, sizeof(mname), "planner %d futures%s",
		    po->pc.k, handover > 0 ? ", handover" : "");
	else if (ao->method == MG_ADOPT_ASK) {
		const char *base = strrchr(po->model_path[0], '/');

		snprintf(mname, sizeof(mname), "model %s%s", base ? base + 1 :
		    po->model_path[0], handover > 0 ? ", handover" : "");
	} else
		snprintf(mname, sizeof(mname), "reactive");
	memcpy(ad.share, ao->share, sizeof(ad.share));
	ad.nshare = ao->nshare;
	ad.alone = ao->alone;
	ad.name = mname;
	ad.jobs_path = o->jobs_path;
	ad.say = o->quiet ? NULL : stderr;
	if (mg_out_open(&out, o->out_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (mg_adoption_write(&def, &ad, out.fp, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "'%s': %s", path, d.msg);
	}
	if (mg_out_commit(&out, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	mg_askmodel_close(&am);
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	return MG_EXIT_OK;
}

/* a table onto path: the target's with ch, else the methods' own */
static void
write_table(const struct popts *po, const char *path,
    const struct mg_compare *cmp, const struct mg_choice *ch)
{
	struct mg_diag d = { "" };
	struct mg_out out;
	int rv;

	if (mg_out_open(&out, path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	rv = ch != NULL ? mg_target_write(cmp, ch, po->target, po->ntarget,
	    &po->prov, out.fp, po->fmt, &d) : mg_compare_write(cmp, out.fp, po->fmt, &d);
	if (rv != 0 || mg_out_commit(&out, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
}

/* the outcomes stream, the curve, then the tables: each whole or none */
static void
write_results(const struct popts *po, const struct mg_compare *cmp,
    const struct mg_choice *ch)
{
	struct mg_diag d = { "" };
	struct mg_writer_opts wo;
	struct mg_out out;

	if (po->ep_path) {
		mg_writer_opts_init(&wo);
		wo.producer = "mirage-eval " MG_VERSION;
		wo.args = po->args;
		if (mg_out_open(&out, po->ep_path, &d) != 0)
			errx(MG_EXIT_FAIL, "%s", d.msg);
		if (mg_compare_write_outcomes(cmp, out.fp, &po->sel, &wo,
		    &d) != 0 || mg_out_commit(&out, &d) != 0) {
			mg_out_abort(&out);
			errx(MG_EXIT_FAIL, "%s", d.msg);
		}
	}
	if (po->curve_path) {
		if (mg_out_open(&out, po->curve_path, &d) != 0)
			errx(MG_EXIT_FAIL, "%s", d.msg);
		if (mg_compare_write_curve(cmp, out.fp, &d) != 0 ||
		    mg_out_commit(&out, &d) != 0) {
			mg_out_abort(&out);
			errx(MG_EXIT_FAIL, "%s", d.msg);
		}
	}
	if (po->table_path != NULL)
		write_table(po, po->table_path, cmp, NULL);
	write_table(po, po->out_path, cmp, ch);
}

/* what the run found beside the table, on standard error */
static void
report(const struct popts *po, const struct mg_compare *cmp,
    size_t decided, size_t planned)
{
	int32_t nodes;
	double lost;
	size_t n;
	int k;

	if (po->fitcal) {
		char knots[2048];

		if (mg_plancal_knots(&po->cal, knots, sizeof(knots)) < 0)
			warnx("--plan-fit-calibration: no decision to fit "
			    "on");
		else
			fprintf(stderr, "mirage-eval: the planner's chances "
			    "on these episodes: --plan-calibration '%s'\n",
			    knots);
	}
	if (po->plan && !po->quiet)
		fprintf(stderr, "mirage-eval: the planner planned %zu "
		    "decisions of %d futures each (%zu with futures of their "
		    "own)\n", decided, po->pc.k, planned);
	for (k = 0; k < po->sel.nsizes && !po->quiet; k++)
		if (mg_compare_victims_lost(cmp, k, &nodes, &n, &lost) && n > 0)
			fprintf(stderr, "mirage-eval: reactive-preempt, "
			    "%d-node chains: its preemptions cost other jobs "
			    "%.1f node-hours (%.2f a chain)\n", nodes,
			    lost / 3600, lost / 3600 / (double)n);
}

/* what the evaluation counts as its batches are done */
struct tally {
	struct popts *po;
	enum mg_progress pr;
	const char *what;	/* "episodes", or the training period's */
	size_t decided;
	size_t planned;		/* of them, with futures of their own */
};

/* a batch of outcomes: the calibration, the decisions planned, the
 * progress line */
static void
tally(void *arg, const struct mg_outcome *res, size_t nres, size_t done,
    size_t all)
{
	struct tally *ty = arg;
	size_t i, j, nt;

	for (i = 0; i < nres; i++) {
		if (res[i].n > 0 && ty->po->fitcal)
			calibration_add(&ty->po->cal, &res[i]);
		for (j = nt = 0; res[i].plan != NULL && j < res[i].n; j++)
			nt += res[i].tick[j];
		for (j = 0; j < nt; j++) {
			const struct mg_plancost *pc = &res[i].plan[j];

			ty->decided += pc->k > 0;
			ty->planned += mg_plan_own(pc);
		}
	}
	if (ty->pr != MG_PROGRESS_OFF)
		fprintf(stderr, "%smirage-eval: %zu/%zu %s%s",
		    ty->pr == MG_PROGRESS_TTY ? "\r" : "", done, all, ty->what,
		    ty->pr == MG_PROGRESS_TTY && done < all ? "" : "\n");
}

/* a comparison of po's methods, with their features bound */
static struct mg_compare *
comparison(struct popts *po, struct mg_compareconf *cc, struct mg_epsel *sel,
    const char *path)
{
	struct mg_diag d = { "" };
	struct mg_compare *cmp;
	char **fnames;
	size_t nfn;
	int rv, bad;

	if (mg_compare_new(cc, &cmp, &d) != 0)
		errx(MG_EXIT_USAGE, "%s", d.msg);
	if (mg_episode_feature_names(&sel->e, &fnames, &nfn) != 0)
		err(MG_EXIT_FAIL, NULL);
	if ((rv = mg_compare_begin(cmp, sel, fnames, nfn, &bad, &d)) != 0)
		errx(mg_exit_status(rv), "'%s': %s", bad >= 0 ?
		    po->model_path[bad] : path, d.msg);
	mg_names_free(fnames, nfn);
	return cmp;
}

/* count episodes of sel's kind from from, every sel->every, in one
 * plain range */
static struct mg_epsel
span(const struct mg_epsel *sel, int64_t from, long count)
{
	struct mg_epsel ts = *sel;

	ts.from = from;
	ts.count = count;
	ts.n = (size_t)count;
	ts.have_from = 1;
	ts.have_until = 0;
	ts.shards = 0;
	ts.ibase = 0;
	ts.istep = 1;
	ts.skip_empty = 0;
	return ts;
}

/*
 * --walk-forward: the evaluated episodes and, before them, a history and
 * a workload's; each period's settings chosen on its history (walk.h)
 */
static void
walk_forward(struct popts *po, struct mg_compareconf *cc,
    const struct mg_clusterdef *def, const struct mg_plan *plan, int window,
    const char *path)
{
	struct mg_diag d = { "" };
	struct tally ty = { po, mg_cli_progress(po->quiet, po->progress),
	    "episodes (with their history)", 0, 0 };
	int64_t back = (po->history + po->sel.e.workload + po->sel.every - 1) /
	    po->sel.every * po->sel.every;
	struct mg_epsel all = span(&po->sel, po->sel.from - back,
	    (long)po->sel.n + (long)(back / po->sel.every));
	struct mg_walkconf wc = { po->sel.from, po->walk, po->history,
	    po->sel.e.workload, po->target[0], po->confidence, po->folds };
	struct mg_compare *cmp = comparison(po, cc, &all, path);
	struct mg_walk *w;
	struct mg_out out;
	int rv;

	if ((rv = mg_compare_run(cmp, def, &all, window, plan, po->threads,
	    tally, &ty, &d)) != 0)
		errx(rv == MG_ENOMEM ? MG_EXIT_FAIL : MG_EXIT_USAGE, "'%s': %s",
		    path, d.msg);
	if ((rv = mg_walk_run(cmp, &wc, &w, &d)) != 0)
		errx(mg_exit_status(rv), "--walk-forward: %s", d.msg);
	if (!po->quiet)
		fprintf(stderr, "mirage-eval: %d periods walked forward, each "
		    "chosen on the %g days before it\n", mg_walk_periods(w),
		    (double)po->history / 86400);
	if (mg_out_open(&out, po->out_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (mg_walk_write(w, out.fp, po->fmt, &d) != 0 ||
	    mg_out_commit(&out, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
	if (po->table_path != NULL) {
		if (mg_out_open(&out, po->table_path, &d) != 0)
			errx(MG_EXIT_FAIL, "%s", d.msg);
		if (mg_walk_write_choices(w, out.fp, &d) != 0 ||
		    mg_out_commit(&out, &d) != 0) {
			mg_out_abort(&out);
			errx(MG_EXIT_FAIL, "%s", d.msg);
		}
	}
	mg_walk_free(w);
	mg_compare_free(cmp);
}

/*
 * --target: the training period's episodes (--train-from, --train-count;
 * by default as many as evaluated, just before them), compared with the
 * same methods; each method's setting chosen on its folds into *out
 */
static void
choose_settings(struct popts *po, struct mg_compareconf *cc,
    const struct mg_clusterdef *def, const struct mg_plan *plan, int window,
    const char *path, struct mg_choice **out)
{
	struct mg_diag d = { "" };
	struct tally ty = { po, mg_cli_progress(po->quiet, po->progress),
	    "episodes of the training period", 0, 0 };
	long count = po->train_count > 0 ? po->train_count : (long)po->sel.n;
	/* by default the last episode's workload ends before the first
	 * evaluated one starts: no job of the evaluated period is seen */
	struct mg_epsel ts = span(&po->sel, po->train_from_given ?
	    po->train_from : po->sel.from - po->sel.e.workload - count *
	    po->sel.every, count);
	struct mg_compare *cmp;
	struct mg_choice *ch;
	char a[32], b[32];
	size_t per;
	int rv, k;

	if (ts.from + (ts.count - 1) * ts.every + ts.e.workload >
	    po->sel.from && po->sel.from > ts.from)
		warnx("--target: the training period's episodes reach into "
		    "the evaluated ones (its last starts %.1f days before "
		    "them, with a workload of %.1f days)", (double)
		    (po->sel.from - ts.from - (ts.count - 1) * ts.every) /
		    86400, (double)ts.e.workload / 86400);
	cmp = comparison(po, cc, &ts, path);
	if ((rv = mg_compare_run(cmp, def, &ts, window, plan, po->threads,
	    tally, &ty, &d)) != 0)
		errx(rv == MG_ENOMEM ? MG_EXIT_FAIL : MG_EXIT_USAGE,
		    "'%s': the training period: %s", path, d.msg);
	po->prov.cluster_nodes = def->nodes;
	po->prov.history_end = ts.from + (ts.count - 1) * ts.every +
	    ts.e.workload;
	per = (size_t)(mg_compare_ntables(cmp) * mg_compare_nmethods(cmp));
	if ((ch = calloc(per * (size_t)po->ntarget, sizeof(*ch))) == NULL)
		err(MG_EXIT_FAIL, NULL);
	for (k = 0; k < po->ntarget; k++)
		if ((rv = mg_target_choose(cmp, po->target[k], po->folds,
		    po->confidence, &ch[(size_t)k * per], &d)) != 0)
			errx(mg_exit_status(rv), "--target: %s", d.msg);
	if (!po->quiet) {
		mg_format_time(ts.from, a, sizeof(a));
		mg_format_time(ts.from + (ts.count - 1) * ts.every, b,
		    sizeof(b));
		fprintf(stderr, "mirage-eval: settings chosen on %ld episodes "
		    "from %s to %s, %d time-blocked folds\n", ts.count, a, b,
		    po->folds);
	}
	mg_compare_free(cmp);
	*out = ch;
}

static int
protocol(const char *path, const struct mg_simconf *conf, struct popts *po)
{
	struct mg_diag d = { "" };
	struct mg_trace t;
	struct mg_clusterdef def;
	struct mg_compareconf cc;
	struct mg_compare *cmp;
	struct mg_choice *ch = NULL;
	char names[MG_COMPARE_MAXMODELS][64];
	struct tally ty = { po, mg_cli_progress(po->quiet, po->progress),
	    "episodes", 0, 0 };
	int rv, k, window;
	struct mg_plan *plan = NULL;

	if (po->handover > 0 && !po->lambda_given)
		po->lambda = MG_PLAN_HANDOVER_LAMBDA;
	memset(&cc, 0, sizeof(cc));
	window = read_models(po, &cc, names);
	cc.plan = po->plan;
	cc.hybrid = po->hybrid;
	cc.lambda = po->lambda;
	cc.cost = po->pc.cost;
	cc.handover = po->handover;
	cc.preempt = mg_simconf_preempts(conf, NULL, NULL);
	if (mg_compare_new(&cc, &cmp, &d) != 0)
		errx(MG_EXIT_USAGE, "%s", d.msg);
	if (window > 200)
		errx(MG_EXIT_TYPE, "a model needs %d reference snapshots; at "
		    "most 200 can be computed", window);
	path = open_trace(path, conf, &t, &def);
	plan_settings(po, conf, &def, cmp);
	mg_compare_free(cmp);
	if (po->plan && (rv = mg_plan_new(&po->pc, &t, &plan)) != 0)
		errx(rv == MG_ENOMEM ? MG_EXIT_FAIL : MG_EXIT_USAGE,
		    "--plan: %s", rv == MG_ENOMEM ? "out of memory" :
		    "invalid planner settings");
	if ((rv = mg_epsel_resolve(&po->sel, &def, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	/* where each model's features are in an outcome's */
	po->sel.e.window = window;
	if (po->walk > 0)
		walk_forward(po, &cc, &def, plan, window, path);
	else {
		if (po->ntarget > 0)
			choose_settings(po, &cc, &def, plan, window, path, &ch);
		cmp = comparison(po, &cc, &po->sel, path);
		if ((rv = mg_compare_run(cmp, &def, &po->sel, window, plan,
		    po->threads, tally, &ty, &d)) != 0)
			errx(rv == MG_ENOMEM ? MG_EXIT_FAIL : MG_EXIT_USAGE,
			    "'%s': %s", path, d.msg);
		write_results(po, cmp, ch);
		report(po, cmp, ty.decided, ty.planned);
		free(ch);
		mg_compare_free(cmp);
	}
	for (k = 0; k < po->nmodels; k++)
		mg_model_free(cc.model[k]);
	mg_plan_free(plan);
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	return MG_EXIT_OK;
}

/* --target's shares, separated by commas */
static void
targets(struct popts *po, const char *arg)
{
	char b[256], *p, *q;

	snprintf(b, sizeof(b), "%s", arg);
	for (po->ntarget = 0, p = b; p != NULL; p = q) {
		if ((q = strchr(p, ',')) != NULL)
			*q++ = '\0';
		if (po->ntarget == MG_TARGET_MAX)
			errx(MG_EXIT_USAGE, "--target: at most %d shares",
			    MG_TARGET_MAX);
		po->target[po->ntarget++] = target_arg(p);
	}
}

/* the command line: the cluster model, the method options, the files */
struct eopts {
	struct ropts ro;
	struct mg_simconf *conf;
	struct popts po;
	int replaying;		/* --replay */
	int epopt;		/* an episode or method option was given */
	struct aopts ao;	/* --adoption */
};

static void
parse(int argc, char *argv[], struct eopts *e)
{
	enum { O_PROGRESS = 400, O_DLOUT, O_LOANOUT, O_ELOUT, O_HYBRID,
	    O_PFITCAL, O_HANDOVER, O_TARGET, O_TFROM, O_TCOUNT, O_FOLDS,
	    O_TABLE, O_PEVERY, O_ADOPT, O_AMETHOD, O_ASEED,
	    O_AALONE, O_AHOLD, O_CONF, O_WALK, O_HISTORY };
	static const struct option longopts[] = {
		{ "adoption", required_argument, NULL, O_ADOPT },
		{ "adopt-method", required_argument, NULL, O_AMETHOD },
		{ "adopt-seed", required_argument, NULL, O_ASEED },
		{ "adopt-alone", required_argument, NULL, O_AALONE },
		{ "adopt-hold", no_argument, NULL, O_AHOLD },
		{ "curve", required_argument, NULL, 'C' },
		{ "dl-out", required_argument, NULL, O_DLOUT },
		{ "hybrid", required_argument, NULL, O_HYBRID },
		{ "handover", required_argument, NULL, O_HANDOVER },
		{ "loan-out", required_argument, NULL, O_LOANOUT },
		{ "el-out", required_argument, NULL, O_ELOUT },
		{ "episodes", required_argument, NULL, 'E' },
		{ "folds", required_argument, NULL, O_FOLDS },
		{ "confidence", required_argument, NULL, O_CONF },
		{ "walk-forward", required_argument, NULL, O_WALK },
		{ "history", required_argument, NULL, O_HISTORY },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "model", required_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "plan-fit-calibration", no_argument, NULL, O_PFITCAL },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "replay", no_argument, NULL, 'R' },
		{ "table", required_argument, NULL, O_TABLE },
		{ "target", required_argument, NULL, O_TARGET },
		{ "threads", required_argument, NULL, 't' },
		{ "train-count", required_argument, NULL, O_TCOUNT },
		{ "train-from", required_argument, NULL, O_TFROM },
		{ "version", no_argument, NULL, 'V' },
		CLUSTER_LONGOPTS,
		EPISODE_LONGOPTS,
		PLAN_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	const char *name;
	int ch;
	int64_t v;

	memset(e, 0, sizeof(*e));
	e->ro.path = "-";
	e->conf = cluster_new();
	memset(&e->po, 0, sizeof(e->po));
	mg_epsel_init(&e->po.sel);
	mg_planconf_default(&e->po.pc);
	e->po.lambda = MG_PLAN_LAMBDA;
	e->po.threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
	mg_cli_args(argc, argv, e->po.args, sizeof(e->po.args));
	while ((ch = getopt_long(argc, argv, "C:E:F:hj:M:o:qt:V"
	    CLUSTER_SHORTOPTS EPISODE_SHORTOPTS, longopts, NULL)) != -1) {
		if (episode_option(&e->po.sel, ch, optarg)) {
			e->epopt = 1;
			continue;
		}
		if ((name = plan_option(&e->po.pc, &e->po.lambda, ch,
		    optarg)) != NULL) {
			e->po.plan |= strcmp(name, "plan") == 0;
			e->po.lambda_given |= strcmp(name, "lambda") == 0;
			e->po.plan_model |= strcmp(name, "plan-model") == 0;
			e->po.plan_limits |= strcmp(name, "plan-limits") == 0;
			e->po.plan_window |= strcmp(name, "plan-window") == 0;
			e->epopt = 1;
			continue;
		}
		if (cluster_option(e->conf, ch, optarg))
			continue;
		switch (ch) {
		case 'C':
			e->po.curve_path = optarg;
			e->epopt = 1;
			break;
		case 'E':
			e->po.ep_path = optarg;
			e->epopt = 1;
			break;
		case 'F':
			if (strcmp(optarg, "text") == 0)
				e->po.fmt = MG_COMPARE_TEXT;
			else if (strcmp(optarg, "tsv") == 0)
				e->po.fmt = MG_COMPARE_TSV;
			else if (strcmp(optarg, "json") == 0)
				e->po.fmt = MG_COMPARE_JSON;
			else
				errx(MG_EXIT_USAGE, "invalid format '%s' (want "
				    "text, tsv or json)", optarg);
			e->epopt = 1;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case O_DLOUT:
			e->ro.dl_out = optarg;
			break;
		case O_LOANOUT:
			e->ro.loan_out = optarg;
			break;
		case O_ELOUT:
			e->ro.el_out = optarg;
			break;
		case 'j':
			e->ro.jobs_path = optarg;
			break;
		case 'M':
			if (e->po.nmodels == MG_COMPARE_MAXMODELS)
				errx(MG_EXIT_USAGE, "at most %d models",
				    MG_COMPARE_MAXMODELS);
			e->po.model_path[e->po.nmodels++] = optarg;
			e->epopt = 1;
			break;
		case 'o':
			e->po.out_path = e->ro.out_path = optarg;
			break;
		case 'q':
			e->po.quiet = e->ro.quiet = 1;
			break;
		case 'R':
			e->replaying = 1;
			break;
		case 't':
			if (mg_parse_i64(optarg, strlen(optarg), 1, 256, &v) != 0)
				errx(MG_EXIT_USAGE, "invalid thread count '%s'",
				    optarg);
			e->po.threads = (int)v;
			break;
		case 'V':
			printf("mirage-eval %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		case O_PROGRESS:
			e->po.progress = 1;
			break;
		case O_ADOPT:
			shares(&e->ao, optarg);
			break;
		case O_AHOLD:
			e->ao.hold = 1;
			break;
		case O_AALONE:
			e->ao.alone = (int)number_arg("--adopt-alone", optarg,
			    1, 1000);
			break;
		case O_ASEED:
			e->ao.seed = (uint64_t)number_arg("--adopt-seed", optarg,
			    1, 1e9);
			break;
		case O_AMETHOD:
			if (strcmp(optarg, "reactive") == 0)
				e->ao.method = MG_ADOPT_REACTIVE;
			else if (strncmp(optarg, "lead:", 5) == 0 &&
			    mg_parse_span(optarg + 5, &v) == 0 && v > 0 &&
			    v <= 2 * 86400) {
				e->ao.method = MG_ADOPT_LEAD;
				e->ao.lead = v;
			} else if (strcmp(optarg, "plan") == 0)
				e->ao.method = MG_ADOPT_PLAN;
			else if (strcmp(optarg, "model") == 0)
				e->ao.method = MG_ADOPT_ASK;
			else
				errx(MG_EXIT_USAGE, "invalid --adopt-method '%s' "
				    "(want reactive, lead:TIME, e.g. lead:6h, plan "
				    "or model)", optarg);
			break;
		case O_HANDOVER:
			if (mg_parse_span(optarg, &v) != 0 || v <= 0 ||
			    v > 86400)
				errx(MG_EXIT_USAGE, "--handover: invalid time "
				    "'%s' (want e.g. 10m, at most a day)", optarg);
			e->po.handover = v;
			break;
		case O_TARGET:
			targets(&e->po, optarg);
			e->epopt = 1;
			break;
		case O_FOLDS:
			e->po.folds = (int)number_arg("--folds", optarg, 1,
			    MG_TARGET_MAXFOLDS);
			e->epopt = 1;
			break;
		case O_TFROM:
			if (mg_parse_date(optarg, MG_TZ_UTC,
			    &e->po.train_from) != 0)
				errx(MG_EXIT_USAGE, "--train-from: invalid date "
				    "'%s' (want e.g. 2023-02-01)", optarg);
			e->po.train_from_given = 1;
			e->epopt = 1;
			break;
		case O_TCOUNT:
			e->po.train_count = (long)number_arg("--train-count",
			    optarg, 1, 1e6);
			e->epopt = 1;
			break;
		case O_TABLE:
			e->po.table_path = optarg;
			e->epopt = 1;
			break;
		case O_CONF:
			e->po.confidence = confidence_arg(optarg);
			e->epopt = 1;
			break;
		case O_WALK:
			e->po.walk = span_arg("--walk-forward", optarg, 0);
			e->epopt = 1;
			break;
		case O_HISTORY:
			e->po.history = span_arg("--history", optarg, 0);
			e->epopt = 1;
			break;
		case O_HYBRID:
			if (strcmp(optarg, "and") == 0)
				e->po.hybrid = MG_HYBRID_AND;
			else if (strcmp(optarg, "or") == 0)
				e->po.hybrid = MG_HYBRID_OR;
			else if (strcmp(optarg, "both") == 0)
				e->po.hybrid = MG_HYBRID_BOTH;
			else if (strcmp(optarg, "weight") == 0)
				e->po.hybrid = MG_HYBRID_WEIGHT;
			else
				errx(MG_EXIT_USAGE, "invalid --hybrid '%s' (want "
				    "and, or, both or weight)", optarg);
			e->epopt = 1;
			break;
		case O_PFITCAL:
			e->po.fitcal = 1;
			e->epopt = 1;
			break;
		default:
			usage(MG_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(MG_EXIT_USAGE);
	if (argc == 1)
		e->ro.path = argv[0];
}

/* options that do not go together */
static void
validate(struct eopts *e)
{
	if (e->ao.nshare > 0 && e->replaying)
		errx(MG_EXIT_USAGE, "--adoption does not go with --replay");
	if (e->ao.nshare == 0 && (e->ao.method != MG_ADOPT_REACTIVE ||
	    e->ao.seed > 0 || e->ao.alone > 0 || e->ao.hold))
		errx(MG_EXIT_USAGE, "--adopt-method, --adopt-seed, "
		    "--adopt-alone and --adopt-hold go with --adoption");
	if (e->ao.hold && e->ao.method != MG_ADOPT_LEAD)
		errx(MG_EXIT_USAGE, "--adopt-hold goes with --adopt-method "
		    "lead:TIME");
	if (e->ao.alone > 0 && e->ao.method == MG_ADOPT_REACTIVE)
		errx(MG_EXIT_USAGE, "--adopt-alone goes with --adopt-method "
		    "lead:TIME or plan");
	if ((e->ao.method == MG_ADOPT_ASK) != (e->ao.nshare > 0 &&
	    e->po.nmodels > 0) || (e->ao.method == MG_ADOPT_ASK &&
	    e->po.nmodels != 1))
		errx(MG_EXIT_USAGE, "--adopt-method model goes with one -M "
		    "model, and -M with --adoption with it");
	if (e->ao.nshare > 0 && (e->po.ntarget > 0 ||
	    e->po.curve_path || e->po.ep_path || e->po.hybrid))
		errx(MG_EXIT_USAGE, "--adoption takes the cluster options, -f, "
		    "-u, -N, -o, -j, -t, --handover, --adopt-method and the "
		    "planner's");
	if ((e->ao.method == MG_ADOPT_PLAN) != (e->ao.nshare > 0 &&
	    e->po.plan))
		errx(MG_EXIT_USAGE, "--adopt-method plan goes with --plan "
		    "futures, and --plan with it");
	if (e->ao.nshare > 0)
		return;
	if (e->replaying && e->epopt)
		errx(MG_EXIT_USAGE, "--replay takes no episode or method "
		    "options");
	if (!e->replaying && e->ro.jobs_path)
		errx(MG_EXIT_USAGE, "-j goes with --replay");
	if (!e->replaying && e->ro.dl_out)
		errx(MG_EXIT_USAGE, "--dl-out goes with --replay");
	if (!e->replaying && e->ro.loan_out)
		errx(MG_EXIT_USAGE, "--loan-out goes with --replay");
	if (!e->replaying && e->ro.el_out)
		errx(MG_EXIT_USAGE, "--el-out goes with --replay");
	if (e->po.handover > 0 && e->po.pc.cost == MG_PLAN_RISK_CV)
		errx(MG_EXIT_USAGE, "--plan-cost risk-cv does not go with "
		    "--handover (want risk or hours)");
	if (e->po.hybrid && (!e->po.plan || e->po.nmodels == 0))
		errx(MG_EXIT_USAGE, "--hybrid goes with --plan and -M models");
	if (e->po.fitcal && (!e->po.plan || e->po.pc.ncal[0] > 0))
		errx(MG_EXIT_USAGE, "--plan-fit-calibration goes with --plan, "
		    "without --plan-calibration (it fits the raw chances)");
	if (e->po.ntarget == 0 && (e->po.folds || e->po.train_from_given ||
	    e->po.train_count || e->po.table_path || e->po.confidence > 0 ||
	    e->po.walk))
		errx(MG_EXIT_USAGE, "--folds, --train-from, --train-count, "
		    "--confidence, --table and --walk-forward go with --target");
	if (e->po.history && !e->po.walk)
		errx(MG_EXIT_USAGE, "--history goes with --walk-forward");
	if (e->po.walk && (e->po.ntarget > 1 || e->po.train_from_given ||
	    e->po.train_count || e->po.ep_path || e->po.curve_path))
		errx(MG_EXIT_USAGE, "--walk-forward takes one --target share, "
		    "and chooses on the history before each period: no "
		    "--train-from, --train-count, -E or -C");
	if (e->po.confidence == 0)
		e->po.confidence = MG_TARGET_CONFIDENCE;
	if (e->po.history == 0)
		e->po.history = 28 * 86400;
	if (e->po.ntarget > 0 && e->po.fitcal)
		errx(MG_EXIT_USAGE, "--plan-fit-calibration does not go with "
		    "--target");
	if (e->po.folds == 0)
		e->po.folds = 4;
	/* a history that holds fewer ended episodes than folds: said
	 * before any is simulated */
	if (e->po.walk && (e->po.history - e->po.sel.e.workload) /
	    e->po.sel.every + 1 < e->po.folds)
		errx(MG_EXIT_USAGE, "--history %.1fd holds fewer ended episodes "
		    "than the %d folds (each ends %.1f days after it starts, "
		    "one every %.1f h): give at least %.1fd",
		    (double)e->po.history / 86400, e->po.folds,
		    (double)e->po.sel.e.workload / 86400,
		    (double)e->po.sel.every / 3600, (double)(e->po.sel.e.workload +
		    (e->po.folds - 1) * e->po.sel.every) / 86400);
	e->po.cal.k = e->po.pc.k;
}

int
main(int argc, char *argv[])
{
	struct eopts e;
	int rv;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	mg_cli_keep_heap();
	parse(argc, argv, &e);
	validate(&e);
	if (e.replaying)
		rv = replay(&e.ro, e.conf);
	else if (e.ao.nshare > 0)
		rv = adoption(&e.ao, &e.ro, e.conf, &e.po);
	else
		rv = protocol(e.ro.path, e.conf, &e.po);
	mg_simconf_free(e.conf);
	return rv;
}
