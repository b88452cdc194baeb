/*
 * mirage-eval: evaluate the ways of deciding when to submit a chain's
 * next job (the baselines, the models, the planner) on the same episodes
 * of a replayed trace, and (--replay) the cluster model itself: each
 * job's simulated wait against its real one.  See mirage-eval(1).
 */
#include <err.h>
#include <json-c/json.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mirage.h"
#include "options.h"
#include "cluster/cluster.h"
#include "episode/episode.h"
#include "episode/protocol.h"
#include "learn/model.h"
#include "cluster/simconf.h"
#include "cluster/preempt.h"
#include "base/stats.h"

#define NGROUP 12
#define NPLAIN 10	/* the last two: with preemption only */

static const char *const group_name[NGROUP] = {
	"all", "nodes=1", "nodes=2-4", "nodes=5-16", "nodes>=17",
	"limit<=1h", "limit<=6h", "limit<=24h", "limit<=48h", "limit>48h",
	"class=urgent", "class=best-effort",
};
#define GRP 3		/* groups a job is in, besides all */

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
	    "           [-C curve.tsv] [-T threshold] [--shard i/n] [-t threads] "
	    "[-o file]\n"
	    "           [--plan futures [--lambda l] [--plan-cost c] "
	    "[--plan-seed n]\n"
	    "           [--plan-window span] [--plan-draws d] [--plan-truth what] "
	    "[--plan-model m]\n"
	    "           [--plan-arrivals a] [--plan-runtimes r] [--hybrid h]\n"
	    "           [--plan-limits l] [--plan-capacity c] [--plan-followers f]\n"
	    "           [--plan-calibration knots] [--plan-fit-calibration]] "
	    "[file]\n"
	    "       mirage-eval --replay [-q] [-c config] [-j jobs.tsv] "
	    "[-m mode] [-n nodes]\n"
	    "           [-o file] [-s key=value] [--dl-out attrs.mrs]\n"
	    "           [--el-out el.mrs] [--loan-out hours.tsv] [file]\n");
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
		    "  -T threshold      the models' threshold instead of their own\n"
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
		    "  --replay          replay the trace and compare waits with the real ones\n"
		    "  -j jobs.tsv       with --replay: the per-job comparison\n"
		    "  --dl-out attrs.mrs  with --replay and preemption: write the\n"
		    "                    jobs' deep-learning attributes (a dlattrs stream)\n"
		    "  --el-out el.mrs   with --replay and elastic jobs: write which\n"
		    "                    jobs are elastic and their ranges (an elastic stream)\n"
		    "  --loan-out hours.tsv  with --replay and loaning: the inference\n"
		    "                    demand and the nodes lent and used, hour by hour\n"
		    "  --progress        a progress line per batch, also in a log\n"
		    "  -q                no progress or summary on standard error\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-eval(1).\n", stdout);
	exit(status);
}

static int
size_group(int32_t n)
{
	return n <= 1 ? 1 : n <= 4 ? 2 : n <= 16 ? 3 : 4;
}

static int
limit_group(int64_t s)
{
	return s <= 3600 ? 5 : s <= 6 * 3600 ? 6 : s <= 24 * 3600 ? 7 :
	    s <= 48 * 3600 ? 8 : 9;
}

/* one summary row over the jobs whose group mask has g */
static void
row(FILE *out, int g, const unsigned char *grp, const double *real,
    const double *sim, size_t n)
{
	double *r = malloc(n * sizeof(*r)), *s = malloc(n * sizeof(*s));
	double *e = malloc(n * sizeof(*e));
	double sr = 0, ss = 0, sae = 0, sb = 0, w10 = 0, w60 = 0;
	size_t i, k = 0;

	if (r == NULL || s == NULL || e == NULL)
		err(MG_EXIT_FAIL, NULL);
	for (i = 0; i < n; i++) {
		if (g != 0 && grp[GRP * i] != g && grp[GRP * i + 1] != g &&
		    grp[GRP * i + 2] != g)
			continue;
		r[k] = real[i];
		s[k] = sim[i];
		e[k] = fabs(sim[i] - real[i]);
		sr += real[i];
		ss += sim[i];
		sae += e[k];
		sb += sim[i] - real[i];
		w10 += e[k] <= 600;
		w60 += e[k] <= 3600;
		k++;
	}
	if (k == 0)
		fprintf(out, "%s\t0\t\t\t\t\t\t\t\t\n", group_name[g]);
	else
		fprintf(out, "%s\t%zu\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t"
		    "%.3f\t%.3f\n", group_name[g], k, sr / k / 3600,
		    ss / k / 3600, sae / k / 3600, mg_quantile(e, k, 0.5) / 3600,
		    sb / k / 3600, mg_spearman(r, s, k), w10 / k, w60 / k);
	free(r);
	free(s);
	free(e);
}

/*
 * with preemption: waits by class (mean, median, p95), the makespan,
 * preemptions and the GPU-hours they cost, on standard error
 */
/* what loaning did, on stderr: usage, reclaims, SLO, waits, JCT */
static void
loan_summary(const struct mg_trace *t, const int64_t *starts,
    const struct mg_slurmsim_pjob *pj, const struct mg_simconf *conf,
    const struct mg_slurmsim_loan *ls)
{
	double *w = malloc((t->n ? t->n : 1) * sizeof(*w)), sum = 0, jct = 0;
	size_t i;

	if (w == NULL)
		err(MG_EXIT_FAIL, NULL);
	for (i = 0; i < t->n; i++) {
		w[i] = (double)(starts[i] - t->job[i].submit) / 3600;
		sum += w[i];
		jct += (double)(pj[i].end - t->job[i].submit) / 3600;
	}
	fprintf(stderr, "mirage-eval: loaning (InferenceNodes=%d, "
	    "ReclaimPolicy=%s): %.0f node-hours lent (%.1f nodes on "
	    "average); usage %.1f%% of the cluster and its loans, %.1f%% of "
	    "the lent nodes; %lld reclaims preempting %lld jobs and "
	    "shrinking %lld; %lld SLO violations (%.2f node-hours short)\n",
	    conf->slurm.inf_nodes,
	    mg_victim_policy_name((enum mg_victim_policy)
	    conf->slurm.reclaim_policy), ls->lent_ns / 3600, ls->span_s > 0 ?
	    ls->lent_ns / ls->span_s : 0, ls->cap_ns > 0 ? 100 * ls->busy_ns /
	    ls->cap_ns : 0,
	    ls->lent_ns > 0 ? 100 * ls->lent_busy_ns / ls->lent_ns : 0,
	    (long long)ls->reclaims, (long long)ls->reclaim_jobs,
	    (long long)ls->reclaim_shrinks, (long long)ls->slo_violations,
	    ls->slo_short_ns / 3600);

	fprintf(stderr, "mirage-eval:   all %7zu jobs, wait mean %.2f h, p95 "
	    "%.2f h; completion time mean %.2f h\n", t->n, t->n ? sum /
	    (double)t->n : 0, mg_quantile(w, t->n, 0.95), t->n ? jct /
	    (double)t->n : 0);
	free(w);
}

static void
preempt_summary(const struct mg_trace *t, const int64_t *starts,
    const struct mg_slurmsim_pjob *pj, const struct mg_simconf *conf)
{
	double *w = malloc((t->n ? t->n : 1) * sizeof(*w)), lost = 0;
	int64_t first = INT64_MAX, last = INT64_MIN;
	size_t i, k, npre = 0;
	int c;

	if (w == NULL)
		err(MG_EXIT_FAIL, NULL);
	for (i = 0; i < t->n; i++) {
		if (t->job[i].submit < first)
			first = t->job[i].submit;
		if (pj[i].end > last)
			last = pj[i].end;
		npre += (size_t)pj[i].npreempt;
		lost += pj[i].lost * (conf->gpus_per_node > 0 ?
		    conf->gpus_per_node : 1);
	}
	fprintf(stderr, "mirage-eval: preemption (PreemptMode=%s, "
	    "VictimPolicy=%s): %zu preemptions, %.1f %s-hours lost, "
	    "makespan %.1f h\n", conf->slurm.preempt_mode ==
	    MG_PREEMPT_CANCEL ? "CANCEL" : conf->slurm.preempt_mode ==
	    MG_PREEMPT_SUSPEND ? "SUSPEND,GANG" : "REQUEUE",
	    mg_victim_policy_name((enum mg_victim_policy)conf->slurm.victims),
	    npre, lost / 3600, conf->gpus_per_node > 0 ? "GPU" : "node",
	    (double)(last - first) / 3600);
	for (c = 0; c < 3; c++) {
		double sum = 0;

		for (i = k = 0; i < t->n; i++)
			if (c == 2 || pj[i].urgent == (c == 0)) {
				w[k] = (double)(starts[i] - t->job[i].submit) /
				    3600;
				sum += w[k++];
			}
		if (k == 0)
			continue;
		fprintf(stderr, "mirage-eval:   %-11s %6zu jobs, wait mean "
		    "%.2f h, median %.2f h, p95 %.2f h\n", c == 0 ? "urgent" :
		    c == 1 ? "best-effort" : "all", k, sum / (double)k,
		    mg_quantile(w, k, 0.5), mg_quantile(w, k, 0.95));
	}
	free(w);
}

/* --replay: the fidelity of the model against the real waits */
/*
 * a side stream of the replay's jobs at path: schema's records, filled
 * by fill for trace job i (0: none for it); the seed is the attributes'
 */
static void
write_side(const char *path, const struct mg_schema *schema,
    const struct mg_clusterdef *def, const struct mg_trace *t,
    int (*fill)(const struct mg_clusterdef *, const struct mg_trace *,
    size_t, struct mg_value *))
{
	struct mg_diag d = { "" };
	struct mg_writer_opts wo;
	struct mg_writer *w;
	struct mg_value v[16];
	struct mg_out out;
	size_t i;

	if (mg_out_open(&out, path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	mg_writer_opts_init(&wo);
	wo.producer = "mirage-eval " MG_VERSION;
	wo.seed = def->conf.dl_seed;
	if (mg_writer_open(out.fp, schema, &wo, &w, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "'%s': %s", path, d.msg);
	}
	for (i = 0; i < t->n; i++)
		if (fill(def, t, i, v) && mg_writer_put(w, v, &d) != 0) {
			mg_writer_free(w);
			mg_out_abort(&out);
			errx(MG_EXIT_FAIL, "'%s': %s", path, d.msg);
		}
	if (mg_writer_close(w, &d) != 0 || mg_out_commit(&out, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "'%s': %s", path, d.msg);
	}
}

static int
fill_dl(const struct mg_clusterdef *def, const struct mg_trace *t, size_t i,
    struct mg_value *v)
{
	mg_dlattr_to_record(&def->dl[i], t->job[i].id, strlen(t->job[i].id),
	    v);
	return 1;
}

static int
fill_el(const struct mg_clusterdef *def, const struct mg_trace *t, size_t i,
    struct mg_value *v)
{
	if (!def->el[i].elastic)
		return 0;
	mg_elastic_attr_to_record(&def->el[i], t->job[i].id, strlen(t->job[i].id),
	    v);
	return 1;
}

/* the attributes the replay uses, as a dlattrs stream at path */
static void
write_dl(const char *path, const struct mg_clusterdef *def,
    const struct mg_trace *t)
{
	if (def->dl == NULL)
		errx(MG_EXIT_USAGE, "--dl-out needs preemption (-s "
		    "PreemptMode=REQUEUE or CANCEL, Mode=faithful)");
	write_side(path, mg_dlattr_schema(), def, t, fill_dl);
}

/* the elastic jobs' attributes (an elastic stream) */
static void
write_el(const char *path, const struct mg_clusterdef *def,
    const struct mg_trace *t)
{
	if (def->el == NULL)
		errx(MG_EXIT_USAGE, "--el-out needs elastic jobs (-s "
		    "ElasticShare=s or ElasticFile=f, Mode=faithful)");
	write_side(path, mg_elastic_attr_schema(), def, t, fill_el);
}

/* the inference pool hour by hour: its demand, the nodes lent, used */
static void
write_hours(const char *path, const struct mg_clusterdef *def,
    const struct mg_replay *hr)
{
	struct mg_diag d = { "" };
	struct mg_out out;
	size_t k, q = 0;

	if (mg_out_open(&out, path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	fprintf(out.fp, "time\tdemand_nodes\tlent_nodes\tlent_used_nodes\n");
	for (k = 0; k < hr->nhours; k++) {
		int64_t t = hr->hour0 + (int64_t)k * 3600;

		while (q < def->conf.slurm.dem_n &&
		    def->conf.slurm.dem_time[q] <= t)
			q++;
		fprintf(out.fp, "%lld\t%d\t%.2f\t%.2f\n", (long long)t,
		    q > 0 ? def->conf.slurm.dem_nodes[q - 1] : 0,
		    hr->lent[k] / 3600, hr->used[k] / 3600);
	}
	if (mg_out_commit(&out, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
}

static int
replay(const char *path, const struct mg_simconf *conf, const char *out_path,
    const char *jobs_path, const char *dl_out, const char *loan_out,
    const char *el_out, int quiet)
{
	struct mg_diag d = { "" };
	struct mg_trace t;
	struct mg_clusterdef def;
	struct mg_out out, jout;
	int64_t *starts;
	double *real, *simw;
	unsigned char *grp;
	struct mg_slurmsim_pjob *pj;
	int64_t first, last;
	struct mg_replay rp;
	int rv, g, preempt, loan;
	size_t i;

	if ((rv = mg_trace_read(path, &t, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	if (strcmp(path, "-") == 0)
		path = "<stdin>";
	if ((rv = mg_clusterdef_init(&def, conf, &t, &d)) != 0)
		errx(rv == MG_EINVAL ? MG_EXIT_FAIL : mg_exit_status(rv),
		    "'%s': %s", path, d.msg);
	if (dl_out != NULL)
		write_dl(dl_out, &def, &t);
	if (el_out != NULL)
		write_el(el_out, &def, &t);
	first = last = t.job[0].submit;
	for (i = 0; i < t.n; i++) {
		if (t.job[i].submit < first)
			first = t.job[i].submit;
		if (t.job[i].submit > last)
			last = t.job[i].submit;
	}
	preempt = def.conf.mode == MG_MODE_FAITHFUL &&
	    mg_slurmcfg_preempts(&def.conf.slurm);
	loan = def.conf.mode == MG_MODE_FAITHFUL && def.conf.slurm.inf_nodes >
	    0;
	if (loan_out != NULL && !loan)
		errx(MG_EXIT_USAGE, "--loan-out needs loaning (-s "
		    "InferenceNodes=N, Mode=faithful)");
	if ((rv = mg_cluster_replay(&def, first, last, (preempt || loan ?
	    MG_REPLAY_LIFE : 0) | (loan_out != NULL ? MG_REPLAY_HOURS : 0),
	    &rp, &d)) != 0)
		errx(MG_EXIT_FAIL, "'%s': %s%s", path, d.msg, rv == MG_EINVAL ?
		    "; the replay did not start every job" : "");
	starts = rp.start;
	pj = rp.life;

	real = malloc(t.n * sizeof(*real));
	simw = malloc(t.n * sizeof(*simw));
	grp = malloc(GRP * t.n);
	if (real == NULL || simw == NULL || grp == NULL)
		err(MG_EXIT_FAIL, NULL);
	if (jobs_path && mg_out_open(&jout, jobs_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (jobs_path)
		fprintf(jout.fp, "jobid\tnodes\tlimit_h\tsubmit\treal_wait_s\t"
		    "sim_wait_s%s\n", preempt || loan ? "\tclass\t"
		    "preemptions\tlost_node_h\tsim_end" : "");
	/* the simulator keeps the trace's window order: index = trace */
	for (i = 0; i < t.n; i++) {
		double w = (double)(starts[i] - t.job[i].submit);

		/*
		 * Reference-mode starts fall on whole minutes, so a job that
		 * starts in its submission minute has a wait of up to -59 s;
		 * it is kept signed, as the original's figures were computed.
		 */
		real[i] = (double)(t.job[i].start - t.job[i].submit);
		simw[i] = w;
		grp[GRP * i] = (unsigned char)size_group(t.job[i].nodes);
		grp[GRP * i + 1] = (unsigned char)limit_group(t.job[i].limit);
		grp[GRP * i + 2] = preempt ? (pj[i].urgent ? NPLAIN :
		    NPLAIN + 1) : 0xFF;
		if (jobs_path)
			fprintf(jout.fp, "%s\t%d\t%.4f\t%lld\t%.0f\t%.0f",
			    t.job[i].id, t.job[i].nodes,
			    (double)t.job[i].limit / 3600,
			    (long long)t.job[i].submit, real[i], simw[i]);
		if (jobs_path && (preempt || loan))
			fprintf(jout.fp, "\t%s\t%d\t%.4f\t%lld",
			    pj[i].urgent ? "urgent" : "best-effort",
			    pj[i].npreempt, pj[i].lost / 3600,
			    (long long)pj[i].end);
		if (jobs_path)
			fputc('\n', jout.fp);
	}
	if (mg_out_open(&out, out_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	fprintf(out.fp, "group\tjobs\treal_mean_wait_h\tsim_mean_wait_h\t"
	    "wait_mae_h\twait_median_abs_err_h\twait_bias_h\tspearman\t"
	    "share_within_10min\tshare_within_1h\n");
	for (g = 0; g < (preempt ? NGROUP : NPLAIN); g++)
		row(out.fp, g, grp, real, simw, t.n);
	/* the per-job file first: if it fails, no summary appears either */
	if (jobs_path && mg_out_commit(&jout, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
	if (mg_out_commit(&out, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (!quiet)
		fprintf(stderr, "mirage-eval: replayed %zu jobs (%zu skipped: "
		    "never ran) on %d nodes, %s mode, %zu dependencies "
		    "inferred\n", t.n, t.skipped, def.nodes,
		    conf->mode == MG_MODE_REFERENCE ? "reference" : "faithful",
		    def.ndeps);
	if (!quiet && preempt)
		preempt_summary(&t, starts, pj, &def.conf);
	if (!quiet && loan)
		loan_summary(&t, starts, pj, &def.conf, &rp.loan);
	if (!quiet && def.conf.mode == MG_MODE_FAITHFUL &&
	    def.conf.slurm.el != NULL)
		fprintf(stderr, "mirage-eval: elastic jobs grew %lld times and "
		    "shrank %lld\n", (long long)rp.loan.grows,
		    (long long)rp.loan.shrinks);
	if (loan_out != NULL)
		write_hours(loan_out, &def, &rp);
	mg_cluster_replay_release(&rp);
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	free(real);
	free(simw);
	free(grp);
	return MG_EXIT_OK;
}

/* ---- the evaluation protocol ---------------------------------------- */

enum kind { K_REACTIVE, K_AVERAGE, K_ESTIMATE, K_ORACLE };
#define NBASE	4
#define MAXMETHODS	(NBASE + 16)

static const char *const base_name[NBASE] = {
	"reactive", "average-wait", "scheduler-estimate", "oracle",
};

/*
 * thresholds of the interruption/overlap curve: hours of predicted
 * overlap accepted (submit when the predicted gap is at least -h), and
 * for classifiers the accepted risk of interruption
 */
static const double curve_h[] = { -4, -2, -1, -0.5, -0.25, 0, 0.25, 0.5,
	0.75, 1, 1.5, 2, 3, 4, 6, 8 };
static const double curve_p[] = { 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.25,
	0.2, 0.15, 0.1, 0.07, 0.05, 0.03, 0.02, 0.01 };
/* and for the planner, the price of an hour of overlap in hours of
 * interruption, lambda (the cheaper, the earlier it submits) */
static const double curve_l[] = { 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4,
	0.5, 0.7, 1, 1.5, 2, 3, 5, 8, 15 };
#define NCURVE	(sizeof(curve_h) / sizeof(curve_h[0]))
/*
 * Under --handover an early start costs only the lease given up, so the
 * curves reach to the whole limit: hours of overlap accepted (and the
 * fixed leads' hours), classifiers' accepted risk, the planner's price
 * of an hour of lease given up
 */
static const double hcurve_h[NCURVE] = { 0, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 10,
	12, 16, 20, 24, 36, 48 };
static const double hcurve_p[NCURVE] = { 0.5, 0.3, 0.2, 0.15, 0.1, 0.07,
	0.05, 0.03, 0.02, 0.01, 0.007, 0.005, 0.003, 0.002, 0.001, 0.0001 };
static const double hcurve_l[NCURVE] = { 1, 0.5, 0.3, 0.2, 0.15, 0.1, 0.07,
	0.05, 0.03, 0.02, 0.015, 0.01, 0.007, 0.005, 0.003, 0.001 };
/* the planner's price of an hour of lease given up, handing over
 * (plan-folds.sh -T 0.99 --handover on the training period) */
#define HANDOVER_LAMBDA	0.001
/* the curves in use, and the handover time (seconds, 0: none) */
static const double *cv_h = curve_h, *cv_p = curve_p, *cv_l = curve_l;
static int64_t handing;
/* mean overlap budgets (hours) of the oracle bound's curve */
static const double budget_h[] = { 0, 0.25, 0.5, 1, 2, 4, 8 };
#define NBUDGET	(sizeof(budget_h) / sizeof(budget_h[0]))
/* and of mean lease given up, under a handover */
static const double hbudget_h[NBUDGET] = { 0, 0.5, 1, 2, 4, 8, 16 };

/*
 * the threshold rule fed the true outcome (mg_perfect_score()): of
 * submitting now, and of waiting one more tick
 */
#define NPERFECT	2
static const char *const perfect_name[NPERFECT] = {
	"perfect-predictor", "perfect-lookahead",
};

/* a learned method: its model and where its features are in an
 * outcome; or the planner (m NULL) and its price of overlap */
struct lmethod {
	struct mg_model *m;
	size_t *col;
	char name[64];
	double lambda;
	enum mg_plancost_kind cost;
	int preempt;		/* "reactive-preempt": S urgent at P's end */
	int hybrid;		/* the planner and model m: HY_AND, HY_OR */
	size_t src;		/* a hybrid's model's method */
	int64_t lead;		/* "lead-Lh": S at P's end - L, seconds */
};

/* the leads of the fixed-lead baselines (--handover): what chains that
 * submit at a fixed offset (after:P+M, --begin) do today */
static const int lead_h[] = { 1, 4, 12, 24 };
#define NLEAD	(sizeof(lead_h) / sizeof(lead_h[0]))

/* the first decision tick at or after P's end - lead, and not before
 * o->t_first (the reactive time if there is none, or if lead is 0) */
static size_t
lead_pick(const struct mg_outcome *o, int64_t lead)
{
	size_t k;

	if (lead <= 0)		/* at P's end: the reactive rule */
		return o->k_reactive;
	for (k = 0; k < o->n; k++)
		if (o->tick[k] && o->t[k] >= o->p_end - lead &&
		    o->t[k] >= o->t_first)
			return k;
	return o->k_reactive;
}

/* a hybrid submits where the planner and (or) the model would, or where
 * the planner would with its futures weighed by the model (weight);
 * --hybrid asks for a set of them (bits) */
enum { HY_AND = 1, HY_OR = 2, HY_BOTH = HY_AND | HY_OR, HY_WEIGHT = 4 };

/* per chain size: each method's outcome and time, episode by episode */
struct table {
	int32_t nodes;
	size_t n, cap;
	int64_t *x[MAXMETHODS], *t[MAXMETHODS];
	int64_t *xc[MAXMETHODS][NCURVE];	/* curve points */
	int64_t *s0;
	int64_t *bovl, *bint;	/* mg_oracle_bound() of each episode */
	int64_t *xp[NPERFECT][NCURVE];	/* the perfect predictors' curves */
	double caused;		/* node-seconds reactive-preempt's victims
				 * lost, over the episodes */
};

/* a model's score at each of the nt ticks: it submits at the first
 * whose score reaches its threshold (sign * threshold) */
static void
model_scores(const struct mg_outcome *o, struct lmethod *lm, double *score,
    size_t nt)
{
	const struct mg_model *m = lm->m;
	struct mg_diag d = { "" };
	float *X = malloc((nt ? nt : 1) * m->nfeat * sizeof(*X));
	size_t j, i;

	if (X == NULL)
		err(MG_EXIT_FAIL, NULL);
	for (j = 0; j < nt; j++)
		for (i = 0; i < m->nfeat; i++)
			X[j * m->nfeat + i] = o->feat[j * o->nfeat + lm->col[i]];
	if (mg_model_predict(lm->m, X, nt, score, &d) != 0)
		errx(MG_EXIT_FAIL, "%s: %s", lm->name, d.msg);
	free(X);
	if (strcmp(m->kind, "pg") == 0) {
		/*
		 * A policy submits at tick j with probability p_j; evaluated
		 * deterministically, it submits once the probability that it
		 * has submitted by now reaches the threshold (0.5: the
		 * median of its submission time)
		 */
		double alive = 1;

		for (j = 0; j < nt; j++) {
			alive *= 1 - score[j];
			score[j] = 1 - alive;
		}
	}
}

/* a learned method's submission; its curve points into xc[c][at] */
static size_t
learned(const struct mg_outcome *o, struct lmethod *lm, double *score,
    size_t nt, int64_t **xc, size_t at)
{
	const struct mg_model *m = lm->m;
	size_t c;
	double sign = m->classifier ? 1 : -1;

	model_scores(o, lm, score, nt);
	for (c = 0; c < NCURVE; c++)
		xc[c][at] = o->x[mg_protocol_choose_first(o, score, m->classifier ?
		    cv_p[c] : -cv_h[c])];
	/* regressors: submit when x_hat >= -threshold hours */
	return mg_protocol_choose_first(o, score, m->classifier ? m->threshold :
	    sign * m->threshold);
}

/* the planner's submission at price lambda: the first tick where
 * submitting now costs no more than waiting (plan.h) */
static size_t
planned(const struct mg_outcome *o, const struct mg_plancost *pc,
    enum mg_plancost_kind kind, double lambda, double *score, size_t nt)
{
	size_t j;

	for (j = 0; j < nt; j++)
		score[j] = handing > 0 ? mg_plan_submit_handover(&pc[j],
		    kind, lambda, handing) : mg_plan_submit_now(&pc[j], kind,
		    lambda);
	return mg_protocol_choose_first(o, score, 0.5);
}

/*
 * The planner's futures weighed by a regressor's prediction of x now:
 * the model's x_hat is a noisy reading of the true x, with the spread
 * of its residuals on its training samples (resid_p10, resid_p90 in its
 * parameters); a future whose x now is z hours from x_hat weighs
 * exp(-z^2 / 2 sigma^2), so the futures that agree with the model count
 * for more.  o->plan[j] weighed, into pc[j].
 */
static void
weighed(const struct mg_outcome *o, const struct mg_model *m,
    const double *xhat, size_t nt, struct mg_plancost *pc)
{
	double w[MG_PLAN_MAXK], p10, p90, sigma = 1;
	size_t j;
	int k;

	if (mg_model_spread(m, &p10, &p90) == 0 && p90 - p10 > 0.1)
		sigma = (p90 - p10) / 2.563;	/* a normal's 10-90% range */
	for (j = 0; j < nt; j++) {
		const struct mg_plancost *c = &o->plan[j];

		if (c->n == 0 || c->k == 0) {
			pc[j] = *c;
			continue;
		}
		for (k = 0; k < c->k; k++) {
			double z = ((double)c->xk[k][0] / 3600 - xhat[j]) / sigma;

			w[k] = exp(-0.5 * z * z) + 1e-9;
		}
		mg_plan_weigh(c, w, &pc[j]);
	}
}

/*
 * a hybrid's submission at price lambda: the first tick where both the
 * planner and the model (at its threshold) would submit, or either;
 * its curve is the planner's prices
 */
static size_t
hybrid(const struct mg_outcome *o, struct lmethod *lm, double *score,
    size_t nt, int64_t **xc, size_t at)
{
	const struct mg_model *m = lm->m;
	double th = m->classifier ? m->threshold : -m->threshold;
	unsigned char *ok = malloc(nt ? nt : 1);
	size_t j, c, pick = 0;

	if (ok == NULL)
		err(MG_EXIT_FAIL, NULL);
	model_scores(o, lm, score, nt);
	for (j = 0; j < nt; j++)
		ok[j] = score[j] >= th;
	for (c = 0; c <= NCURVE; c++) {
		/* the planner's own scores at this price, then combined */
		planned(o, o->plan, lm->cost, c < NCURVE ? cv_l[c] :
		    lm->lambda, score, nt);
		for (j = 0; j < nt; j++)
			score[j] = lm->hybrid == HY_AND ? score[j] >= 0.5 &&
			    ok[j] : score[j] >= 0.5 || ok[j];
		pick = mg_protocol_choose_first(o, score, 0.5);
		if (c < NCURVE)
			xc[c][at] = o->x[pick];
	}
	free(ok);
	return pick;
}

/* the planner's submission on its costs pc, its curve points into
 * xc[c][at] */
static size_t
planner(const struct mg_outcome *o, const struct mg_plancost *pc,
    const struct lmethod *lm, double *score, size_t nt, int64_t **xc,
    size_t at)
{
	size_t c;

	for (c = 0; c < NCURVE; c++)
		xc[c][at] = o->x[planned(o, pc, lm->cost, cv_l[c], score,
		    nt)];
	return planned(o, pc, lm->cost, lm->lambda, score, nt);
}

/* the planner on its futures weighed by the model (weighed()) */
static size_t
weighed_planner(const struct mg_outcome *o, struct lmethod *lm,
    double *score, size_t nt, int64_t **xc, size_t at)
{
	struct mg_plancost *pc = malloc((nt ? nt : 1) * sizeof(*pc));
	size_t pick;

	if (pc == NULL)
		err(MG_EXIT_FAIL, NULL);
	model_scores(o, lm, score, nt);
	weighed(o, lm->m, score, nt, pc);
	pick = planner(o, pc, lm, score, nt, xc, at);
	free(pc);
	return pick;
}

static void
table_add(struct table *tb, int nmeth, const struct mg_outcome *o,
    struct lmethod *lm)
{
	double *score;
	size_t k, j, c, nt = 0, col;
	int m;

	if (tb->n == tb->cap) {
		tb->cap = tb->cap ? 2 * tb->cap : 256;
		for (m = 0; m < nmeth; m++) {
			tb->x[m] = realloc(tb->x[m], tb->cap * sizeof(int64_t));
			tb->t[m] = realloc(tb->t[m], tb->cap * sizeof(int64_t));
			if (tb->x[m] == NULL || tb->t[m] == NULL)
				err(MG_EXIT_FAIL, NULL);
			for (c = 0; c < NCURVE; c++)
				if ((tb->xc[m][c] = realloc(tb->xc[m][c],
				    tb->cap * sizeof(int64_t))) == NULL)
					err(MG_EXIT_FAIL, NULL);
		}
		for (m = 0; m < NPERFECT; m++)
			for (c = 0; c < NCURVE; c++)
				if ((tb->xp[m][c] = realloc(tb->xp[m][c],
				    tb->cap * sizeof(int64_t))) == NULL)
					err(MG_EXIT_FAIL, NULL);
		if ((tb->s0 = realloc(tb->s0, tb->cap * sizeof(int64_t))) ==
		    NULL || (tb->bovl = realloc(tb->bovl, tb->cap *
		    sizeof(int64_t))) == NULL || (tb->bint = realloc(tb->bint,
		    tb->cap * sizeof(int64_t))) == NULL)
			err(MG_EXIT_FAIL, NULL);
	}
	for (k = 0; k < o->n; k++)
		nt += o->tick[k];
	if ((score = malloc((nt ? nt : 1) * sizeof(*score))) == NULL)
		err(MG_EXIT_FAIL, NULL);
	/* the scheduler's estimate: the plan's start minus P's expected end */
	for (col = 0; col < MG_OWN; col++)
		if (strcmp(mg_own_names[col], "plan_gap_h") == 0)
			break;
	for (j = 0; j < nt; j++)
		score[j] = o->feat[j * o->nfeat + col];
	for (m = 0; m < nmeth; m++) {
		size_t pick;

		switch (m) {
		case K_REACTIVE:
			pick = o->k_reactive;
			break;
		case K_AVERAGE:
			/* not before P's start when handing over */
			for (pick = o->k_avg; pick + 1 < o->n &&
			    o->t[pick] < o->t_first; pick++)
				;
			break;
		case K_ESTIMATE:
			pick = mg_protocol_choose_first(o, score, 0);
			for (c = 0; c < NCURVE; c++)
				tb->xc[m][c][tb->n] = o->x[mg_protocol_choose_first(o,
				    score, -cv_h[c])];
			break;
		case K_ORACLE:
			pick = mg_choose_oracle(o);
			break;
		default:
			if (lm[m - NBASE].lead > 0) {
				pick = lead_pick(o, lm[m - NBASE].lead);
				for (c = 0; c < NCURVE; c++)
					tb->xc[m][c][tb->n] = o->x[lead_pick(o,
					    (int64_t)(cv_h[c] * 3600))];
				break;
			}
			if (lm[m - NBASE].preempt) {
				tb->x[m][tb->n] = o->x_urgent;
				tb->t[m][tb->n] = o->p_end;
				tb->caused += o->caused_urgent;
				continue;
			}
			pick = lm[m - NBASE].hybrid == HY_WEIGHT ?
			    weighed_planner(o, &lm[m - NBASE], score, nt,
			    tb->xc[m], tb->n) : lm[m - NBASE].hybrid ? hybrid(o,
			    &lm[m - NBASE], score, nt, tb->xc[m], tb->n) :
			    lm[m - NBASE].m == NULL ? planner(o, o->plan,
			    &lm[m - NBASE], score, nt, tb->xc[m], tb->n) :
			    learned(o, &lm[m - NBASE], score, nt, tb->xc[m],
			    tb->n);
			break;
		}
		tb->x[m][tb->n] = o->x[pick];
		tb->t[m][tb->n] = o->t[pick];
	}
	for (m = 0; m < NPERFECT; m++) {
		mg_perfect_score(o, (size_t)m, score);
		for (c = 0; c < NCURVE; c++)
			tb->xp[m][c][tb->n] = o->x[mg_protocol_choose_first(o, score,
			    -cv_h[c])];
	}
	mg_oracle_bound(o, &tb->bovl[tb->n], &tb->bint[tb->n]);
	tb->s0[tb->n++] = o->s0;
	free(score);
}

/* the share without interruption per load class, as text */
static const char *
load_text(const struct mg_summary *s)
{
	static char b[64];

	snprintf(b, sizeof(b), "%.0f/%.0f/%.0f (%zu/%zu/%zu)",
	    100 * s->no_int_load[0], 100 * s->no_int_load[1],
	    100 * s->no_int_load[2], s->n_load[0], s->n_load[1],
	    s->n_load[2]);
	return b;
}

/* the first fixed-lead method: its curve is the leads' */
static int
first_lead(const struct lmethod *lm, int nmeth)
{
	int m;

	for (m = NBASE; m < nmeth; m++)
		if (lm[m - NBASE].lead)
			return m;
	return -1;
}

/* the mean lease given up (hours) by outcomes x if they bring a share of
 * at least want of the chains through, or -1 */
static double
reach_one(const struct table *tb, const int64_t *x, double want)
{
	double held, lease;
	size_t k, ok;

	for (k = ok = 0; k < tb->n; k++)
		ok += x[k] <= 0;
	if ((double)ok < want * (double)tb->n - 1e-9)
		return -1;
	mg_handover_costs(x, tb->n, tb->nodes, handing, &held, &lease);
	return lease;
}

/* the least of that over a curve's points, or -1 if none reaches want */
static double
reach(const struct table *tb, int64_t *const *x, double want)
{
	double best = -1, r;
	size_t c;

	for (c = 0; c < NCURVE; c++)
		if ((r = reach_one(tb, x[c], want)) >= 0 && (best < 0 ||
		    r < best))
			best = r;
	return best;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* the same for a method that knew the future: the cheapest leases */
static double
reach_bound(const struct table *tb, double want)
{
	int64_t *l = malloc((tb->n ? tb->n : 1) * sizeof(*l));
	size_t k, m = 0, need = (size_t)ceil(want * (double)tb->n - 1e-9);
	double sum = 0;

	if (l == NULL)
		err(MG_EXIT_FAIL, NULL);
	for (k = 0; k < tb->n; k++)
		if (tb->bovl[k] >= 0)
			l[m++] = tb->bovl[k] > handing ? tb->bovl[k] - handing :
			    0;
	qsort(l, m, sizeof(*l), cmp_i64);
	for (k = 0; k < need && k < m; k++)
		sum += (double)l[k];
	free(l);
	return need > m || tb->n == 0 ? -1 : sum / 3600 / (double)tb->n;
}

static const char *
hours(double h, char *b, size_t len)
{
	if (h < 0)
		snprintf(b, len, "never");
	else
		snprintf(b, len, "%.2f h", h);
	return b;
}

/* a method's figures under --handover */
struct hstat {
	double held, lease;	/* mg_handover_costs() */
	double reach[2];	/* the least mean lease given up with 99%
				 * and 99.9% of the chains through, or -1 */
	struct mg_service sv;
};
static const double reach_want[2] = { 0.99, 0.999 };

/*
 * Each method's figures: a method with a curve (a model, the planner,
 * the estimate, and the fixed leads over every lead from 0 to the
 * whole limit) reaches 99% where its curve first does; the others at
 * their one setting; the oracle's are the bound's (the least any method
 * choosing among the same times gives up).  The 30 days are at each
 * method's own setting.
 */
static struct hstat *
handover_stats(const struct table *tb, int ntab, int nmeth,
    const struct lmethod *lm, int64_t dur)
{
	struct hstat *hs = calloc((size_t)(ntab * nmeth), sizeof(*hs));
	int i, m, w, lead = first_lead(lm, nmeth);

	if (hs == NULL)
		err(MG_EXIT_FAIL, NULL);
	for (i = 0; i < ntab; i++)
		for (m = 0; m < nmeth; m++) {
			struct hstat *h = &hs[i * nmeth + m];
			int curve = m == K_ESTIMATE || (m >= NBASE &&
			    !lm[m - NBASE].preempt);

			mg_handover_costs(tb[i].x[m], tb[i].n, tb[i].nodes,
			    handing, &h->held, &h->lease);
			mg_service(tb[i].x[m], tb[i].n, tb[i].nodes, dur,
			    handing, &h->sv);
			for (w = 0; w < 2; w++)
				h->reach[w] = m == K_ORACLE ?
				    reach_bound(&tb[i], reach_want[w]) :
				    !curve ? reach_one(&tb[i], tb[i].x[m],
				    reach_want[w]) : reach(&tb[i], tb[i].xc[
				    m >= NBASE && lm[m - NBASE].lead ? lead :
				    m], reach_want[w]);
		}
	return hs;
}

/*
 * Under --handover, after the table: where each method brings 99% and
 * 99.9% of the chains through and at what lease given up, against the
 * fixed leads; and what a service whose links fare as these episodes
 * did costs over 30 days at each method's own setting.
 */
static void
print_handover(FILE *fp, const struct table *tb, int ntab, int nmeth,
    const char *const *name, const struct lmethod *lm,
    const struct hstat *hs)
{
	char a[32], b[32];
	int i, m, lead = first_lead(lm, nmeth);

	for (i = 0; i < ntab; i++) {
		const struct hstat *h = &hs[i * nmeth];
		int best = -1;

		fprintf(fp, "\nhanding over in %.0f min, %d-node chains: the "
		    "least mean lease given up at which\neach method brings "
		    "99%% and 99.9%% of the chains through (its curve)\n",
		    (double)handing / 60, tb[i].nodes);
		fprintf(fp, "  %-20s %10s %10s\n", "method", "99%", "99.9%");
		for (m = 0; m < nmeth; m++) {
			int islead = m >= NBASE && lm[m - NBASE].lead;

			if ((m < NBASE && m != K_ESTIMATE) || (islead &&
			    m != lead) || (m >= NBASE && lm[m - NBASE].preempt))
				continue;
			fprintf(fp, "  %-20s %10s %10s\n", islead ?
			    "fixed lead" : name[m], hours(h[m].reach[0], a,
			    sizeof(a)), hours(h[m].reach[1], b, sizeof(b)));
			if (!islead && h[m].reach[0] >= 0 && (best < 0 ||
			    h[m].reach[0] < h[best].reach[0]))
				best = m;
		}
		fprintf(fp, "  %-20s %10s %10s\n", "oracle-bound",
		    hours(h[K_ORACLE].reach[0], a, sizeof(a)),
		    hours(h[K_ORACLE].reach[1], b, sizeof(b)));
		if (best >= 0 && lead >= 0 && h[lead].reach[0] > 0)
			fprintf(fp, "  at 99%%: %s gives up %.2f of the best "
			    "fixed lead's lease\n", name[best],
			    h[best].reach[0] / h[lead].reach[0]);
		else if (lead >= 0)
			fprintf(fp, "  at 99%%: %s\n", best < 0 ? "no method "
			    "reaches it" : "no fixed lead reaches it");
		fprintf(fp, "\n  over 30 days, links faring as these "
		    "episodes did:\n  %-20s %8s %10s %17s %12s\n", "method",
		    "down", "jobs/1000h", "wasted, run to end", "handing over");
		for (m = 0; m < nmeth; m++)
			if (m != K_ESTIMATE)
				fprintf(fp, "  %-20s %6.1f h %10.1f %14.1f nh "
				    "%9.1f nh\n", name[m], h[m].sv.down_h,
				    h[m].sv.jobs_per_kh, h[m].sv.waste_nh,
				    h[m].sv.handover_waste_nh);
	}
}

static void
print_table(FILE *fp, int fmt, struct table *tb, int ntab, int nmeth,
    const char *const *name, const struct hstat *hs)
{
	struct json_object *arr = NULL;
	struct mg_summary s;
	double held = 0, lease = 0;
	int64_t handover = hs != NULL ? handing : 0;
	int i, m;

	if (fmt == 1)
		fprintf(fp, "method\tnodes\tepisodes\tno_interruption_share\t"
		    "seamless_share\tinterruption_mean_h\t"
		    "interruption_median_h\tinterruption_p90_h\t"
		    "overlap_mean_h\toracle_gap_h\tepisodes_low\t"
		    "episodes_medium\tepisodes_heavy\tno_interruption_low\t"
		    "no_interruption_medium\tno_interruption_heavy%s\n",
		    handover > 0 ? "\theld_twice_nh\tlease_given_h\t"
		    "reach_99_lease_h\treach_999_lease_h\tdown_h_30d\t"
		    "jobs_per_1000h\twasted_nh_30d\thandover_wasted_nh_30d" : "");
	else if (fmt == 2)
		arr = json_object_new_array();
	for (i = 0; i < ntab; i++) {
		if (fmt == 0)
			fprintf(fp, "%s%-20s %5s %8s %9s %9s %9s %9s %9s %10s  "
			    "%-*s%s\n", i ? "\n" : "", "method", "nodes",
			    "episodes", "no-int %", "int mean", "int med",
			    "int p90", "ovl mean", "oracle gap",
			    handover > 0 ? 26 : 0, "no-int % low/med/heavy",
			    handover > 0 ? " held twice  lease given" : "");
		for (m = 0; m < nmeth; m++) {
			if (mg_protocol_summarize(tb[i].x[m], tb[i].x[K_ORACLE],
			    tb[i].x[K_REACTIVE], tb[i].n, &s) != 0)
				err(MG_EXIT_FAIL, NULL);
			if (handover > 0) {
				held = hs[i * nmeth + m].held;
				lease = hs[i * nmeth + m].lease;
			}
			if (fmt == 0) {
				char ho[48] = "";

				if (handover > 0)
					snprintf(ho, sizeof(ho), " %7.2f nh "
					    "%8.2f h", held, lease);
				fprintf(fp, "%-20s %5d %8zu %8.1f%% %7.2f h "
				    "%7.2f h %7.2f h %7.2f h %8.2f h  "
				    "%-*s%s\n", name[m],
				    tb[i].nodes, s.n, 100 * s.no_interruption,
				    s.int_mean_h, s.int_median_h, s.int_p90_h,
				    s.ovl_mean_h, s.oracle_gap_h, handover > 0 ?
				    26 : 0, load_text(&s), ho);
			} else if (fmt == 1) {
				fprintf(fp, "%s\t%d\t%zu\t%.4f\t%.4f\t%.4f\t"
				    "%.4f\t%.4f\t%.4f\t%.4f\t%zu\t%zu\t%zu\t"
				    "%.4f\t%.4f\t%.4f", name[m], tb[i].nodes,
				    s.n, s.no_interruption, s.seamless,
				    s.int_mean_h, s.int_median_h, s.int_p90_h,
				    s.ovl_mean_h, s.oracle_gap_h, s.n_load[0],
				    s.n_load[1], s.n_load[2], s.no_int_load[0],
				    s.no_int_load[1], s.no_int_load[2]);
				if (handover > 0) {
					const struct hstat *h = &hs[i * nmeth +
					    m];

					fprintf(fp, "\t%.4f\t%.4f\t%.4f\t%.4f\t"
					    "%.4f\t%.4f\t%.4f\t%.4f", held, lease,
					    h->reach[0], h->reach[1],
					    h->sv.down_h, h->sv.jobs_per_kh,
					    h->sv.waste_nh,
					    h->sv.handover_waste_nh);
				}
				fputc('\n', fp);
			} else {
				struct json_object *o = json_object_new_object();

				json_object_object_add(o, "method",
				    json_object_new_string(name[m]));
				json_object_object_add(o, "nodes",
				    json_object_new_int(tb[i].nodes));
				json_object_object_add(o, "episodes",
				    json_object_new_int64((int64_t)s.n));
#define JD(k, v) json_object_object_add(o, k, json_object_new_double(v))
				JD("no_interruption_share", s.no_interruption);
				JD("seamless_share", s.seamless);
				JD("interruption_mean_h", s.int_mean_h);
				JD("interruption_median_h", s.int_median_h);
				JD("interruption_p90_h", s.int_p90_h);
				JD("overlap_mean_h", s.ovl_mean_h);
				JD("oracle_gap_h", s.oracle_gap_h);
				JD("no_interruption_low", s.no_int_load[0]);
				JD("no_interruption_medium", s.no_int_load[1]);
				JD("no_interruption_heavy", s.no_int_load[2]);
				if (handover > 0) {
					const struct hstat *h = &hs[i * nmeth +
					    m];

					JD("held_twice_nh", held);
					JD("lease_given_h", lease);
					JD("reach_99_lease_h", h->reach[0]);
					JD("reach_999_lease_h", h->reach[1]);
					JD("down_h_30d", h->sv.down_h);
					JD("jobs_per_1000h", h->sv.jobs_per_kh);
					JD("wasted_nh_30d", h->sv.waste_nh);
					JD("handover_wasted_nh_30d",
					    h->sv.handover_waste_nh);
				}
#undef JD
				json_object_array_add(arr, o);
			}
		}
	}
	if (fmt == 2) {
		fprintf(fp, "%s\n", json_object_to_json_string_ext(arr,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
	}
}

/* one curve: a point per threshold, x[c] the outcomes at threshold c */
static void
curve_rows(FILE *fp, const char *name, const struct table *tb,
    int64_t *const *x, const double *thr)
{
	struct mg_summary s;
	size_t c;

	for (c = 0; c < NCURVE; c++) {
		if (mg_protocol_summarize(x[c], tb->x[K_ORACLE], tb->x[K_REACTIVE],
		    tb->n, &s) != 0)
			err(MG_EXIT_FAIL, NULL);
		fprintf(fp, "%s\t%d\t%g\t%.4f\t%.4f\t%.4f", name,
		    tb->nodes, thr[c],
		    s.no_interruption, s.int_mean_h, s.ovl_mean_h);
		if (handing > 0) {
			double held, lease;

			mg_handover_costs(x[c], tb->n, tb->nodes, handing,
			    &held, &lease);
			fprintf(fp, "\t%.4f\t%.4f", lease, held);
		}
		fputc('\n', fp);
	}
}

/* the oracle bound's point within a budget of mean overlap, or under a
 * handover of mean lease given up (an overlap's part beyond it) */
static void
bound_row(FILE *fp, const struct table *tb, double budget)
{
	struct mg_summary s;
	int64_t *ovl = tb->bovl;
	size_t k;

	if (handing > 0) {
		if ((ovl = malloc((tb->n ? tb->n : 1) * sizeof(*ovl))) == NULL)
			err(MG_EXIT_FAIL, NULL);
		for (k = 0; k < tb->n; k++)
			ovl[k] = tb->bovl[k] < 0 ? -1 : tb->bovl[k] > handing ?
			    tb->bovl[k] - handing : 0;
	}
	if (mg_protocol_frontier(ovl, tb->bint, tb->n, budget * 3600, &s) != 0)
		err(MG_EXIT_FAIL, NULL);
	fprintf(fp, "oracle-bound\t%d\t%g\t%.4f\t%.4f\t%.4f", tb->nodes,
	    budget, s.no_interruption, s.int_mean_h, handing > 0 ? NAN :
	    s.ovl_mean_h);
	if (handing > 0)
		fprintf(fp, "\t%.4f\tnan", s.ovl_mean_h);
	fputc('\n', fp);
	if (ovl != tb->bovl)
		free(ovl);
}

static void
print_curve(FILE *fp, struct table *tb, int ntab, int nmeth,
    const char *const *name, const struct lmethod *lm)
{
	size_t c;
	int i, m;

	fprintf(fp, "method\tnodes\tthreshold\tno_interruption_share\t"
	    "interruption_mean_h\toverlap_mean_h%s\n", handing > 0 ?
	    "\tlease_given_h\theld_twice_nh" : "");
	for (i = 0; i < ntab; i++)
		for (m = 0; m < nmeth; m++)
			if (m == K_ESTIMATE || (m >= NBASE &&
			    !lm[m - NBASE].preempt && (!lm[m - NBASE].lead ||
			    m == first_lead(lm, nmeth))))
				curve_rows(fp, m >= NBASE &&
				    lm[m - NBASE].lead ? "lead" : name[m], &tb[i],
				    tb[i].xc[m], m < NBASE ||
				    lm[m - NBASE].lead ? cv_h :
				    lm[m - NBASE].m == NULL ? cv_l :
				    lm[m - NBASE].m->classifier ? cv_p : cv_h);
	/* what a perfect predictor of the outcome gets from the same rule */
	for (i = 0; i < ntab; i++)
		for (m = 0; m < NPERFECT; m++)
			curve_rows(fp, perfect_name[m], &tb[i], tb[i].xp[m],
			    cv_h);
	/* the bound: the best any method can do within each budget */
	for (i = 0; i < ntab; i++)
		for (c = 0; c < NBUDGET; c++)
			bound_row(fp, &tb[i], handing > 0 ? hbudget_h[c] :
			    budget_h[c]);
}

static const struct mg_field outcome_fields[] = {
	{ "episode", MG_T_I64 }, { "ep_start", MG_T_I64 },
	{ "nodes", MG_T_I64 }, { "method", MG_T_STR },
	{ "t", MG_T_I64 }, { "x", MG_T_I64 }, { "load", MG_T_STR },
};

static int
write_outcomes(FILE *fp, struct table *tb, int ntab, int nmeth,
    const char *const *name, const struct mg_epsel *sel, const char *args,
    struct mg_diag *d)
{
	struct mg_schema sc = { "outcomes", 7, outcome_fields };
	struct mg_writer_opts wo;
	struct mg_writer *w;
	struct mg_value v[7];
	size_t k;
	int i, m, rv;

	mg_writer_opts_init(&wo);
	wo.producer = "mirage-eval " MG_VERSION;
	wo.args = args;
	if ((rv = mg_writer_open(fp, &sc, &wo, &w, d)) != 0)
		return rv;
	memset(v, 0, sizeof(v));
	for (i = 0; i < ntab; i++)
		for (k = 0; k < tb[i].n; k++)
			for (m = 0; m < nmeth; m++) {
				const char *l = mg_load_name(mg_load_class(
				    tb[i].x[K_REACTIVE][k]));

				/* the episode's number in the whole run
				 * (also under --shard), from its start */
				v[0].i = (int64_t)mg_epsel_index(sel,
				    (size_t)((tb[i].s0[k] - sel->from) /
				    sel->every));
				v[1].i = tb[i].s0[k];
				v[2].i = tb[i].nodes;
				v[3].s = name[m];
				v[3].len = strlen(name[m]);
				v[4].i = tb[i].t[m][k];
				v[5].i = tb[i].x[m][k];
				v[6].s = l;
				v[6].len = strlen(l);
				if ((rv = mg_writer_put(w, v, d)) != 0) {
					mg_writer_free(w);
					return rv;
				}
			}
	return mg_writer_close(w, d);
}

struct popts {
	struct mg_epsel sel;
	const char *model_path[MAXMETHODS - NBASE];	/* and the planner,
						 * reactive-preempt */
	int nmodels;
	const char *out_path, *ep_path, *curve_path;
	int fmt, threads, quiet, progress;
	int plan;		/* the planner is a method */
	int plan_model;		/* --plan-model given */
	int plan_limits;	/* --plan-limits given */
	int hybrid;		/* --hybrid: HY_AND, HY_OR */
	int fitcal;		/* --plan-fit-calibration */
	struct mg_plancal cal;
	struct mg_planconf pc;
	double lambda;
	enum mg_plancost_kind cost;
	int64_t handover;	/* --handover: seconds, 0 off */
	int plan_window;	/* --plan-window given */
	int lambda_given;	/* --lambda given */
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

static int
protocol(const char *path, const struct mg_simconf *conf, struct popts *po)
{
	struct mg_diag d = { "" };
	struct mg_trace t;
	struct mg_clusterdef def;
	struct table tb[MG_EPSEL_MAXSIZES];
	struct mg_outcome *res;
	struct mg_out out, eout, cout;
	const char *name[MAXMETHODS];
	size_t q, i, j, nt, all, batch, done = 0, decided = 0;
	enum mg_progress pr = mg_cli_progress(po->quiet, po->progress);
	int rv, k, nmeth = NBASE, ntab;

	struct lmethod lm[MAXMETHODS - NBASE];
	struct mg_plan *plan = NULL;
	struct hstat *hs;
	char **fnames;
	size_t nfn;
	int window = 1;

	for (k = 0; k < NBASE; k++)
		name[k] = base_name[k];
	if (po->handover > 0 && !po->lambda_given)
		po->lambda = HANDOVER_LAMBDA;
	memset(lm, 0, sizeof(lm));
	for (k = 0; k < po->nmodels; k++) {
		const char *mp = po->model_path[k], *base;
		FILE *fp = fopen(mp, "rb");
		char *dot;

		if (fp == NULL)
			err(MG_EXIT_FAIL, "cannot open '%s'", mp);
		if ((rv = mg_model_read(fp, mp, &lm[k].m, &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
		fclose(fp);
		if ((int)lm[k].m->window > window)
			window = (int)lm[k].m->window;
		base = strrchr(mp, '/') ? strrchr(mp, '/') + 1 : mp;
		snprintf(lm[k].name, sizeof(lm[k].name), "%s", base);
		if ((dot = strrchr(lm[k].name, '.')) != NULL && dot != lm[k].name)
			*dot = '\0';
		name[NBASE + k] = lm[k].name;
	}
	nmeth = NBASE + po->nmodels;
	if (po->plan) {
		snprintf(lm[po->nmodels].name, sizeof(lm[0].name), "planner");
		lm[po->nmodels].lambda = po->lambda;
		lm[po->nmodels].cost = po->cost;
		name[nmeth++] = lm[po->nmodels].name;
	}
	/* the hybrids: the planner with each model of when to submit */
	for (k = 0; po->plan && po->hybrid && k < 3 * po->nmodels; k++) {
		struct lmethod *h = &lm[nmeth - NBASE];
		char hname[sizeof(h->name)];
		int op = k < po->nmodels ? HY_AND : k < 2 * po->nmodels ? HY_OR :
		    HY_WEIGHT;

		if (!(po->hybrid & op))
			continue;
		if (op == HY_WEIGHT && lm[k % po->nmodels].m->classifier)
			continue;	/* it weighs by a prediction of x */
		if (nmeth >= MAXMETHODS)
			errx(MG_EXIT_USAGE, "--hybrid: too many methods");
		*h = lm[k % po->nmodels];
		h->src = k % po->nmodels;
		h->hybrid = op;
		h->lambda = po->lambda;
		h->cost = po->cost;
		snprintf(hname, sizeof(hname), "planner%s%s", op == HY_AND ?
		    "&" : op == HY_OR ? "|" : "~", lm[h->src].name);
		memcpy(h->name, hname, sizeof(h->name));
		name[nmeth++] = h->name;
	}
	/* with --handover, the fixed leads people use today */
	for (k = 0; po->handover > 0 && k < (int)NLEAD; k++) {
		struct lmethod *l = &lm[nmeth - NBASE];

		if (nmeth >= MAXMETHODS - 1)
			errx(MG_EXIT_USAGE, "--handover: too many methods");
		l->lead = (int64_t)lead_h[k] * 3600;
		snprintf(l->name, sizeof(l->name), "lead-%dh", lead_h[k]);
		name[nmeth++] = l->name;
	}
	if (conf->mode == MG_MODE_FAITHFUL &&
	    mg_slurmcfg_preempts(&conf->slurm)) {
		k = nmeth - NBASE;
		snprintf(lm[k].name, sizeof(lm[k].name), "reactive-preempt");
		lm[k].preempt = 1;
		name[nmeth++] = lm[k].name;
	}
	if (window > 200)
		errx(MG_EXIT_TYPE, "a model needs %d reference snapshots; at "
		    "most 200 can be computed", window);
	if ((rv = mg_trace_read(path, &t, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	if (strcmp(path, "-") == 0)
		path = "<stdin>";
	if ((rv = mg_clusterdef_init(&def, conf, &t, &d)) != 0)
		errx(rv == MG_EINVAL ? MG_EXIT_FAIL : mg_exit_status(rv),
		    "'%s': %s", path, d.msg);
	po->pc.cost = po->cost;
	/* handing over, the planner plans over the whole of P */
	if (po->handover > 0) {
		handing = po->handover;
		cv_h = hcurve_h;
		cv_p = hcurve_p;
		cv_l = hcurve_l;
		if (!po->plan_window)
			po->pc.window = po->sel.e.limit;
		po->pc.handover = po->handover;
	}
	/* the planner's decisions after its latest price has submitted
	 * are never read, unless a hybrid or a calibration reads them */
	if (!po->hybrid && !po->fitcal) {
		size_t c;

		for (c = 0; c < NCURVE; c++)
			po->pc.stop[po->pc.nstop++] = cv_l[c];
		po->pc.stop[po->pc.nstop++] = po->lambda;
	}
	/* by default the world's own model (plain: not its options) */
	if (!po->plan_model)
		po->pc.model = conf->mode == MG_MODE_REFERENCE ?
		    MG_PLAN_REFERENCE : MG_PLAN_FAITHFUL;
	/* by default the cluster's limits per user, as sacctmgr shows them */
	if (!po->plan_limits && conf->mode == MG_MODE_FAITHFUL) {
		po->pc.max_jobs_pu = conf->slurm.max_jobs_per_user;
		po->pc.max_nodes_pu = conf->slurm.max_nodes_per_user;
	}
	/* the cluster's capacity over the past, as sacctmgr records it */
	if (po->pc.cap_model != MG_PLAN_CAP_NOW &&
	    conf->mode == MG_MODE_FAITHFUL) {
		po->pc.cap_time = def.conf.slurm.cap_time;
		po->pc.cap_nodes = def.conf.slurm.cap_nodes;
		po->pc.cap_n = def.conf.slurm.cap_n;
	}
	if (po->plan && (rv = mg_plan_new(&po->pc, &t, &plan)) != 0)
		errx(rv == MG_ENOMEM ? MG_EXIT_FAIL : MG_EXIT_USAGE,
		    "--plan: %s", rv == MG_ENOMEM ? "out of memory" :
		    "invalid planner settings");
	if ((rv = mg_epsel_resolve(&po->sel, &def, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	ntab = po->sel.nsizes;
	/* where each model's features are in an outcome's */
	po->sel.e.window = window;
	if (mg_episode_feature_names(&po->sel.e, &fnames, &nfn) != 0)
		err(MG_EXIT_FAIL, NULL);
	for (k = 0; k < po->nmodels; k++) {
		if ((lm[k].col = calloc(lm[k].m->nfeat, sizeof(size_t))) ==
		    NULL)
			err(MG_EXIT_FAIL, NULL);
		if ((rv = mg_model_bind(lm[k].m, fnames, nfn, lm[k].col,
		    &d)) != 0)
			errx(mg_exit_status(rv), "'%s': %s", po->model_path[k],
			    d.msg);
	}
	for (k = 0; (int)k < nmeth - NBASE; k++)	/* hybrids share them */
		if (lm[k].hybrid)
			lm[k].col = lm[lm[k].src].col;
	mg_names_free(fnames, nfn);
	memset(tb, 0, sizeof(tb));
	for (k = 0; k < ntab; k++)
		tb[k].nodes = po->sel.sizes[k];
	/* batches of episodes computed in parallel, then scored in order */
	batch = (size_t)po->threads * 8;
	if ((res = calloc(batch, sizeof(*res))) == NULL)
		err(MG_EXIT_FAIL, NULL);
	all = po->sel.n * (size_t)ntab;
	for (q = 0; q < all; q += batch) {
		size_t nres = all - q < batch ? all - q : batch;

		if ((rv = mg_outcomes_run(&def, &po->sel, window, q, nres,
		    po->threads, plan, 1, res, &d)) != 0)
			errx(rv == MG_ENOMEM ? MG_EXIT_FAIL : MG_EXIT_USAGE,
			    "'%s': %s", path, d.msg);
		for (i = 0; i < nres; i++) {
			if (res[i].n > 0 && po->fitcal)
				calibration_add(&po->cal, &res[i]);
			if (po->handover > 0)	/* S only for a P that runs */
				res[i].t_first = res[i].p_start;
			if (res[i].n > 0)	/* else skipped: an empty window */
				table_add(&tb[(q + i) / po->sel.n], nmeth,
				    &res[i], lm);
			/* the decisions the planner planned */
			for (j = nt = 0; res[i].plan != NULL && j < res[i].n;
			    j++)
				nt += res[i].tick[j];
			for (j = 0; j < nt; j++)
				decided += res[i].plan[j].k > 0;
			mg_outcome_release(&res[i]);
		}
		done += nres;
		if (pr != MG_PROGRESS_OFF)
			fprintf(stderr, "%smirage-eval: %zu/%zu episodes%s",
			    pr == MG_PROGRESS_TTY ? "\r" : "", done, all,
			    pr == MG_PROGRESS_TTY && done < all ? "" : "\n");
	}
	free(res);

	/* the episode stream and the curve first: then the table */
	if (po->ep_path) {
		if (mg_out_open(&eout, po->ep_path, &d) != 0)
			errx(MG_EXIT_FAIL, "%s", d.msg);
		if (write_outcomes(eout.fp, tb, ntab, nmeth, name, &po->sel,
		    po->args, &d) != 0 || mg_out_commit(&eout, &d) != 0) {
			mg_out_abort(&eout);
			errx(MG_EXIT_FAIL, "%s", d.msg);
		}
	}
	if (po->curve_path) {
		if (mg_out_open(&cout, po->curve_path, &d) != 0)
			errx(MG_EXIT_FAIL, "%s", d.msg);
		print_curve(cout.fp, tb, ntab, nmeth, name, lm);
		if (mg_out_commit(&cout, &d) != 0)
			errx(MG_EXIT_FAIL, "%s", d.msg);
	}
	if (mg_out_open(&out, po->out_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	hs = po->handover > 0 ? handover_stats(tb, ntab, nmeth, lm,
	    po->sel.e.p_dur) : NULL;
	print_table(out.fp, po->fmt, tb, ntab, nmeth, name, hs);
	if (hs != NULL && po->fmt == 0)
		print_handover(out.fp, tb, ntab, nmeth, name, lm, hs);
	free(hs);
	if (mg_out_commit(&out, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
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
		fprintf(stderr, "mirage-eval: the planner planned %zu decisions "
		    "of %d futures each\n", decided, po->pc.k);
	for (k = 0; k < ntab && !po->quiet; k++)
		if (nmeth > NBASE && lm[nmeth - 1 - NBASE].preempt &&
		    tb[k].n > 0)
			fprintf(stderr, "mirage-eval: reactive-preempt, %d-node "
			    "chains: its preemptions cost other jobs %.1f "
			    "node-hours (%.2f a chain)\n", tb[k].nodes,
			    tb[k].caused / 3600, tb[k].caused / 3600 /
			    (double)tb[k].n);
	for (k = 0; k < ntab; k++) {
		int m;
		size_t c;

		for (m = 0; m < nmeth; m++) {
			free(tb[k].x[m]);
			free(tb[k].t[m]);
			for (c = 0; c < NCURVE; c++)
				free(tb[k].xc[m][c]);
		}
		for (m = 0; m < NPERFECT; m++)
			for (c = 0; c < NCURVE; c++)
				free(tb[k].xp[m][c]);
		free(tb[k].s0);
		free(tb[k].bovl);
		free(tb[k].bint);
	}
	for (k = 0; k < po->nmodels; k++) {
		mg_model_free(lm[k].m);
		free(lm[k].col);
	}
	mg_plan_free(plan);
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	return MG_EXIT_OK;
}

/* the command line: the cluster model, the method options, the files */
struct eopts {
	const char *jobs_path, *path, *dl_out, *loan_out, *el_out;
	struct mg_simconf conf;
	struct popts po;
	int replaying;		/* --replay */
	int epopt;		/* an episode or method option was given */
};

static void
parse(int argc, char *argv[], struct eopts *e)
{
	enum { O_PLAN = 400, O_LAMBDA, O_PSEED, O_PWINDOW, O_PCOST,
	    O_PTRUTH, O_PMODEL, O_PLIMITS, O_PCAP, O_PFOL, O_PROGRESS, O_PARR,
	    O_PRT, O_DLOUT, O_LOANOUT, O_ELOUT, O_HYBRID, O_PDRAWS, O_PCAL,
	    O_PFITCAL, O_HANDOVER };
	static const struct option longopts[] = {
		{ "curve", required_argument, NULL, 'C' },
		{ "dl-out", required_argument, NULL, O_DLOUT },
		{ "hybrid", required_argument, NULL, O_HYBRID },
		{ "handover", required_argument, NULL, O_HANDOVER },
		{ "loan-out", required_argument, NULL, O_LOANOUT },
		{ "el-out", required_argument, NULL, O_ELOUT },
		{ "episodes", required_argument, NULL, 'E' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "model", required_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "plan", required_argument, NULL, O_PLAN },
		{ "lambda", required_argument, NULL, O_LAMBDA },
		{ "plan-seed", required_argument, NULL, O_PSEED },
		{ "plan-cost", required_argument, NULL, O_PCOST },
		{ "plan-draws", required_argument, NULL, O_PDRAWS },
		{ "plan-calibration", required_argument, NULL, O_PCAL },
		{ "plan-fit-calibration", no_argument, NULL, O_PFITCAL },
		{ "plan-model", required_argument, NULL, O_PMODEL },
		{ "plan-limits", required_argument, NULL, O_PLIMITS },
		{ "plan-capacity", required_argument, NULL, O_PCAP },
		{ "plan-followers", required_argument, NULL, O_PFOL },
		{ "plan-arrivals", required_argument, NULL, O_PARR },
		{ "plan-runtimes", required_argument, NULL, O_PRT },
		{ "plan-truth", required_argument, NULL, O_PTRUTH },
		{ "plan-window", required_argument, NULL, O_PWINDOW },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "replay", no_argument, NULL, 'R' },
		{ "threads", required_argument, NULL, 't' },
		{ "version", no_argument, NULL, 'V' },
		CLUSTER_LONGOPTS,
		EPISODE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct mg_diag d = { "" };
	int ch;
	int64_t v;

	memset(e, 0, sizeof(*e));
	e->path = "-";
	mg_simconf_init(&e->conf);
	memset(&e->po, 0, sizeof(e->po));
	mg_epsel_init(&e->po.sel);
	mg_planconf_default(&e->po.pc);
	e->po.lambda = 1.5;	/* plan-folds.sh on the training period */
	e->po.threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
	mg_cli_args(argc, argv, e->po.args, sizeof(e->po.args));
	while ((ch = getopt_long(argc, argv, "C:E:F:hj:M:o:qt:V"
	    CLUSTER_SHORTOPTS EPISODE_SHORTOPTS, longopts, NULL)) != -1) {
		if (episode_option(&e->po.sel, ch, optarg)) {
			e->epopt = 1;
			continue;
		}
		if (cluster_option(&e->conf, ch, optarg))
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
				e->po.fmt = 0;
			else if (strcmp(optarg, "tsv") == 0)
				e->po.fmt = 1;
			else if (strcmp(optarg, "json") == 0)
				e->po.fmt = 2;
			else
				errx(MG_EXIT_USAGE, "invalid format '%s' (want "
				    "text, tsv or json)", optarg);
			e->epopt = 1;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case O_DLOUT:
			e->dl_out = optarg;
			break;
		case O_LOANOUT:
			e->loan_out = optarg;
			break;
		case O_ELOUT:
			e->el_out = optarg;
			break;
		case 'j':
			e->jobs_path = optarg;
			break;
		case 'M':
			if (e->po.nmodels == MAXMETHODS - NBASE - 2)
				errx(MG_EXIT_USAGE, "at most %d models",
				    MAXMETHODS - NBASE - 2);
			e->po.model_path[e->po.nmodels++] = optarg;
			e->epopt = 1;
			break;
		case 'o':
			e->po.out_path = optarg;
			break;
		case 'q':
			e->po.quiet = 1;
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
		case O_PLAN:
		case O_LAMBDA:
		case O_PSEED:
		case O_PMODEL:
		case O_PLIMITS:
		case O_PARR:
		case O_PRT:
			if (mg_plan_option(&e->po.pc, &e->po.lambda, ch == O_PLAN ?
			    "plan" : ch == O_LAMBDA ? "lambda" : ch == O_PSEED ?
			    "plan-seed" : ch == O_PMODEL ? "plan-model" :
			    ch == O_PLIMITS ? "plan-limits" :
			    ch == O_PARR ? "plan-arrivals" : "plan-runtimes",
			    optarg, &d) != 0)
				errx(MG_EXIT_USAGE, "%s", d.msg);
			e->po.plan |= ch == O_PLAN;
			e->po.lambda_given |= ch == O_LAMBDA;
			e->po.plan_model |= ch == O_PMODEL;
			e->po.plan_limits |= ch == O_PLIMITS;
			e->epopt = 1;
			break;
		case O_PCAP:
		case O_PFOL:
			if (mg_plan_option(&e->po.pc, NULL, ch == O_PCAP ?
			    "plan-capacity" : "plan-followers", optarg, &d) != 0)
				errx(MG_EXIT_USAGE, "%s", d.msg);
			e->epopt = 1;
			break;
		case O_PROGRESS:
			e->po.progress = 1;
			break;
		case O_HANDOVER:
			if (mg_parse_span(optarg, &v) != 0 || v <= 0 ||
			    v > 86400)
				errx(MG_EXIT_USAGE, "--handover: invalid time "
				    "'%s' (want e.g. 10m, at most a day)", optarg);
			e->po.handover = v;
			break;
		case O_HYBRID:
			if (strcmp(optarg, "and") == 0)
				e->po.hybrid = HY_AND;
			else if (strcmp(optarg, "or") == 0)
				e->po.hybrid = HY_OR;
			else if (strcmp(optarg, "both") == 0)
				e->po.hybrid = HY_BOTH;
			else if (strcmp(optarg, "weight") == 0)
				e->po.hybrid = HY_WEIGHT;
			else
				errx(MG_EXIT_USAGE, "invalid --hybrid '%s' (want "
				    "and, or, both or weight)", optarg);
			e->epopt = 1;
			break;
		case O_PCOST:
			if (strcmp(optarg, "risk") == 0)
				e->po.cost = MG_PLAN_RISK;
			else if (strcmp(optarg, "hours") == 0)
				e->po.cost = MG_PLAN_HOURS;
			else if (strcmp(optarg, "risk-cv") == 0)
				e->po.cost = MG_PLAN_RISK_CV;
			else
				errx(MG_EXIT_USAGE, "invalid --plan-cost '%s' "
				    "(want risk, hours or risk-cv)", optarg);
			break;
		case O_PCAL:
			if (mg_plan_option(&e->po.pc, &e->po.lambda,
			    "plan-calibration", optarg, &d) != 0)
				errx(MG_EXIT_USAGE, "%s", d.msg);
			e->epopt = 1;
			break;
		case O_PFITCAL:
			e->po.fitcal = 1;
			e->epopt = 1;
			break;
		case O_PDRAWS:
			if (strcmp(optarg, "decision") == 0)
				e->po.pc.episode_draws = 0;
			else if (strcmp(optarg, "episode") == 0)
				e->po.pc.episode_draws = 1;
			else
				errx(MG_EXIT_USAGE, "invalid --plan-draws '%s' "
				    "(want decision or episode)", optarg);
			e->epopt = 1;
			break;
		case O_PTRUTH:
			if (strcmp(optarg, "none") == 0)
				e->po.pc.truth = 0;
			else if (strcmp(optarg, "runtimes") == 0)
				e->po.pc.truth = MG_PLAN_TRUE_RUNTIMES;
			else if (strcmp(optarg, "arrivals") == 0)
				e->po.pc.truth = MG_PLAN_TRUE_ARRIVALS;
			else if (strcmp(optarg, "both") == 0)
				e->po.pc.truth = MG_PLAN_TRUE_RUNTIMES |
				    MG_PLAN_TRUE_ARRIVALS;
			else
				errx(MG_EXIT_USAGE, "invalid --plan-truth '%s' "
				    "(want none, runtimes, arrivals or both)",
				    optarg);
			break;
		case O_PWINDOW:
			if (mg_parse_span(optarg, &v) != 0 || v <= 0 ||
			    v > 4 * 86400)
				errx(MG_EXIT_USAGE, "invalid --plan-window '%s' "
				    "(up to 4d)", optarg);
			e->po.pc.window = v;
			e->po.plan_window = 1;
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
		e->path = argv[0];
}

/* options that do not go together */
static void
validate(struct eopts *e)
{
	if (e->replaying && e->epopt)
		errx(MG_EXIT_USAGE, "--replay takes no episode or method "
		    "options");
	if (!e->replaying && e->jobs_path)
		errx(MG_EXIT_USAGE, "-j goes with --replay");
	if (!e->replaying && e->dl_out)
		errx(MG_EXIT_USAGE, "--dl-out goes with --replay");
	if (!e->replaying && e->loan_out)
		errx(MG_EXIT_USAGE, "--loan-out goes with --replay");
	if (!e->replaying && e->el_out)
		errx(MG_EXIT_USAGE, "--el-out goes with --replay");
	if (e->po.handover > 0 && e->po.cost == MG_PLAN_RISK_CV)
		errx(MG_EXIT_USAGE, "--plan-cost risk-cv does not go with "
		    "--handover (want risk or hours)");
	if (e->po.hybrid && (!e->po.plan || e->po.nmodels == 0))
		errx(MG_EXIT_USAGE, "--hybrid goes with --plan and -M models");
	if (e->po.fitcal && (!e->po.plan || e->po.pc.ncal[0] > 0))
		errx(MG_EXIT_USAGE, "--plan-fit-calibration goes with --plan, "
		    "without --plan-calibration (it fits the raw chances)");
	e->po.cal.k = e->po.pc.k;
}

int
main(int argc, char *argv[])
{
	struct eopts e;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	parse(argc, argv, &e);
	validate(&e);
	if (e.replaying)
		return replay(e.path, &e.conf, e.po.out_path, e.jobs_path,
		    e.dl_out, e.loan_out, e.el_out, e.po.quiet);
	return protocol(e.path, &e.conf, &e.po);
}
