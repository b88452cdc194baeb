/*
 * mirage-eval: evaluate the cluster model and, later, the provisioning
 * methods.  This version has the fidelity replay: replay a whole jobs
 * stream in the simulator and compare each job's simulated wait with its
 * real one.  See mirage-eval(1).
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mirage.h"
#include "cluster.h"
#include "sim.h"
#include "simconf.h"
#include "slurmsim.h"
#include "stats.h"

#define NGROUP 10

static const char *const group_name[NGROUP] = {
	"all", "nodes=1", "nodes=2-4", "nodes=5-16", "nodes>=17",
	"limit<=1h", "limit<=6h", "limit<=24h", "limit<=48h", "limit>48h",
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-eval --replay [-q] [-c config] [-j jobs.tsv] "
	    "[-m mode] [-n nodes]\n"
	    "                   [-o file] [-s key=value] [file]\n");
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
		if (g != 0 && grp[2 * i] != g && grp[2 * i + 1] != g)
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

/* the simulated start of every trace job; 0 or -1 */
static int
replay_all(const struct mg_simconf *conf, const struct mg_trace *t,
    int64_t first, int64_t last, int64_t *starts)
{
	size_t i;

	if (conf->mode == MG_MODE_REFERENCE) {
		struct mg_sim *s;
		int64_t end = last;

		if (mg_sim_new(&conf->ref, t, first, first, last, &s) != 0)
			return -1;
		/* every job fits, so every job starts within the limits */
		for (i = 0; i < t->n; i++)
			end += t->job[i].limit + 60;
		while (mg_sim_started(s) < mg_sim_njobs(s) &&
		    mg_sim_time(s) < end)
			mg_sim_step(s);
		for (i = 0; i < t->n; i++)
			starts[i] = mg_sim_job_start(s, (mg_jobref)i);
		mg_sim_free(s);
	} else {
		struct mg_slurmsim *s;

		if (mg_slurmsim_new(&conf->slurm, t, first, first, last, &s) !=
		    0 || mg_slurmsim_run_all(s) != 0)
			return -1;
		for (i = 0; i < t->n; i++)
			starts[i] = mg_slurmsim_job_start(s, i);
		mg_slurmsim_free(s);
	}
	for (i = 0; i < t->n; i++)
		if (starts[i] < 0) {
			warnx("job %s (%d nodes) never starts in this model",
			    t->job[i].id, t->job[i].nodes);
			return -1;
		}
	return 0;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "mode", required_argument, NULL, 'm' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "replay", no_argument, NULL, 'R' },
		{ "set", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	const char *jobs_path = NULL, *out_path = NULL, *path = "-";
	struct mg_diag d = { "" };
	struct mg_simconf conf;
	struct mg_trace t;
	struct mg_clusterdef def;
	struct mg_out out, jout;
	int64_t *starts;
	double *real, *simw;
	unsigned char *grp;
	int64_t first, last;
	int ch, replay = 0, quiet = 0, rv, g;
	size_t i;

	if (mg_cli_init() != 0)
		return MG_EXIT_FAIL;
	mg_simconf_init(&conf);
	while ((ch = getopt_long(argc, argv, "c:hj:m:n:o:qs:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
		case 'm':
		case 'n':
		case 's':
			if (mg_simconf_option(&conf, ch, optarg, &d) != 0)
				errx(MG_EXIT_USAGE, "%s", d.msg);
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'j':
			jobs_path = optarg;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'R':
			replay = 1;
			break;
		default:
			usage(MG_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (!replay || argc > 1)
		usage(MG_EXIT_USAGE);
	if (argc == 1)
		path = argv[0];

	if ((rv = mg_trace_read(path, &t, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	if (strcmp(path, "-") == 0)
		path = "<stdin>";
	if (mg_clusterdef_init(&def, &conf, &t, &d) != 0)
		errx(MG_EXIT_FAIL, "'%s': %s", path, d.msg);
	first = last = t.job[0].submit;
	for (i = 0; i < t.n; i++) {
		if (t.job[i].submit < first)
			first = t.job[i].submit;
		if (t.job[i].submit > last)
			last = t.job[i].submit;
	}
	if ((starts = malloc(t.n * sizeof(*starts))) == NULL)
		err(MG_EXIT_FAIL, NULL);
	if (replay_all(&def.conf, &t, first, last, starts) != 0)
		errx(MG_EXIT_FAIL, "'%s': the replay did not start every job",
		    path);

	real = malloc(t.n * sizeof(*real));
	simw = malloc(t.n * sizeof(*simw));
	grp = malloc(2 * t.n);
	if (real == NULL || simw == NULL || grp == NULL)
		err(MG_EXIT_FAIL, NULL);
	if (jobs_path && mg_out_open(&jout, jobs_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (jobs_path)
		fprintf(jout.fp, "jobid\tnodes\tlimit_h\tsubmit\treal_wait_s\t"
		    "sim_wait_s\n");
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
		grp[2 * i] = (unsigned char)size_group(t.job[i].nodes);
		grp[2 * i + 1] = (unsigned char)limit_group(t.job[i].limit);
		if (jobs_path)
			fprintf(jout.fp, "%s\t%d\t%.4f\t%lld\t%.0f\t%.0f\n",
			    t.job[i].id, t.job[i].nodes,
			    (double)t.job[i].limit / 3600,
			    (long long)t.job[i].submit, real[i], simw[i]);
	}
	if (mg_out_open(&out, out_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	fprintf(out.fp, "group\tjobs\treal_mean_wait_h\tsim_mean_wait_h\t"
	    "wait_mae_h\twait_median_abs_err_h\twait_bias_h\tspearman\t"
	    "share_within_10min\tshare_within_1h\n");
	for (g = 0; g < NGROUP; g++)
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
		    conf.mode == MG_MODE_REFERENCE ? "reference" : "faithful",
		    def.ndeps);
	free(starts);
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	free(real);
	free(simw);
	free(grp);
	return MG_EXIT_OK;
}
