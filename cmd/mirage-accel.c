/*
 * mirage-accel: inside the node.  DNN inference on a multi-accelerator
 * system: train RELMAS, the learned dispatcher (mirage-accel train), and
 * evaluate every dispatcher on the same requests (mirage-accel eval).
 * See mirage-accel(1).
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
#include "accel/accel.h"
#include "accel/bound.h"
#include "learn/model.h"
#include "learn/nn.h"
#include "accel/relmas.h"

#define MAXMOD	16

struct opts {
	int train;			/* train, or eval */
	int quiet;
	const char *out_path;
	struct mg_accel_scenario sc;		/* the system and its requests */
	struct mg_relmas_opts ro;	/* train */
	const char *mpath[MAXMOD];	/* eval: the relmas models */
	int nmod;
	int bound;			/* eval: the offline bound too */
	int32_t exact;			/* its blocks solved exactly, at most */
	struct mg_abound ab;
	char args[1024];
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-accel train [-q] [-s key=value]... [--play n] "
	    "[--hidden n] [--lr r]\n"
	    "           [--context d] [--budget] [--window w] [--prior k] "
	    "[--strict r] [--fit r]\n"
	    "           [--loads lo-hi] [--credit all|own] [--no-bw-features] "
	    "[--no-bw-penalty]\n"
	    "           [-S seed] [-o model]\n"
	    "       mirage-accel eval [-q] [-s key=value]... [-M model]... "
	    "[--bound] [--exact n]\n"
	    "           [-o file]\n");
	if (status == 0)
		fputs("commands:\n"
		    "  train             train RELMAS, the learned dispatcher, on the\n"
		    "                    accelerator model; write a model file\n"
		    "  eval              every dispatcher (and each -M model) on the same\n"
		    "                    requests: a TSV row each\n"
		    "options:\n"
		    "  -s key=value      the system and its requests (mirage-accel(1))\n"
		    "  -o file           the model (train) or the table (eval; default:\n"
		    "                    stdout)\n"
		    "  -M model          eval: a relmas model to evaluate beside the\n"
		    "                    heuristics (repeatable)\n"
		    "  --bound           eval: the most deadlines any dispatcher could meet\n"
		    "                    (a row), and each row as a share of it (a column)\n"
		    "  --exact n         eval: the bound's blocks of at most n requests\n"
		    "                    solved exactly (40; 0: none)\n"
		    "  --play n, --hidden n, --lr r\n"
		    "                    train: episodes played, hidden units, learning rate\n"
		    "  --context d       train: the attention encoder's context size (8;\n"
		    "                    0: no encoder)\n"
		    "  --budget          train: choose only among the pairs whose bandwidth\n"
		    "                    fits in what is left of the DRAM's, when any does\n"
		    "  --window w        train: its candidates, the most urgent requests by\n"
		    "                    deadline, or the feasible ones first (feasible)\n"
		    "  --prior k         train: a pair's score is the actor's plus k times\n"
		    "                    the rule's: fit's, or place's with --fit 0 (10;\n"
		    "                    0: the actor's alone)\n"
		    "  --strict r        train: only pairs where the layer runs within r x\n"
		    "                    its best time, else wait (1.1; 0: every pair)\n"
		    "  --fit r           train: also, while two are idle, pairs where the\n"
		    "                    layer ends within r x the earliest any could (1.1;\n"
		    "                    0: strict's alone)\n"
		    "  --loads lo-hi     train: the episodes' loads (0.3-0.8)\n"
		    "  --credit all|own  train: a decision's return (all)\n"
		    "  --no-bw-features, --no-bw-penalty  train: the ablations\n"
		    "  -S seed           train: the seed (1): the same seed, the same model\n"
		    "  -q                no progress or summary on standard error\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-accel(1).\n", stdout);
	exit(status);
}

/* the command, the first argument (or -h, --version): train or eval */
static const char *
command(int argc, char *argv[], struct opts *o)
{
	if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		usage(MG_EXIT_OK);
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("mirage-accel %s\n", MG_VERSION);
		exit(MG_EXIT_OK);
	}
	if (argc < 2)
		usage(MG_EXIT_USAGE);
	if (strcmp(argv[1], "train") == 0)
		o->train = 1;
	else if (strcmp(argv[1], "eval") != 0)
		errx(MG_EXIT_USAGE, "unknown command '%s' (train or eval)",
		    argv[1]);
	return argv[1];
}

/* --loads lo-hi: the training's loads, 0 < lo <= hi <= 4 */
static void
parse_loads(const char *arg, struct mg_relmas_opts *ro)
{
	char *end;

	ro->load_lo = strtod(arg, &end);
	if (end != arg && *end == '-')
		ro->load_hi = strtod(end + 1, &end);
	else
		ro->load_hi = -1;
	if (end == arg || *end != '\0' || !(ro->load_lo > 0) ||
	    !(ro->load_hi >= ro->load_lo) || ro->load_hi > 4)
		errx(MG_EXIT_USAGE, "invalid --loads '%s' (lo-hi, such as "
		    "0.3-0.8, 0 < lo <= hi <= 4)", arg);
}

/* mirage-accel's options: the long-only ones train's alone */
enum {
	O_PLAY = 500, O_HIDDEN, O_LR, O_NOBWF, O_NOBWP, O_CTX, O_BUDGET,
	O_WINDOW, O_PRIOR, O_STRICT, O_FIT, O_LOADS, O_CREDIT,
	O_BOUND = 600, O_EXACT
};
static const struct option lo[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "model", required_argument, NULL, 'M' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "seed", required_argument, NULL, 'S' },
	{ "set", required_argument, NULL, 's' },
	{ "version", no_argument, NULL, 'V' },
	{ "play", required_argument, NULL, O_PLAY },
	{ "hidden", required_argument, NULL, O_HIDDEN },
	{ "lr", required_argument, NULL, O_LR },
	{ "no-bw-features", no_argument, NULL, O_NOBWF },
	{ "no-bw-penalty", no_argument, NULL, O_NOBWP },
	{ "context", required_argument, NULL, O_CTX },
	{ "budget", no_argument, NULL, O_BUDGET },
	{ "window", required_argument, NULL, O_WINDOW },
	{ "prior", required_argument, NULL, O_PRIOR },
	{ "strict", required_argument, NULL, O_STRICT },
	{ "fit", required_argument, NULL, O_FIT },
	{ "loads", required_argument, NULL, O_LOADS },
	{ "credit", required_argument, NULL, O_CREDIT },
	{ "bound", no_argument, NULL, O_BOUND },
	{ "exact", required_argument, NULL, O_EXACT },
	{ NULL, 0, NULL, 0 }
};

/* the command and its options into *o */
static void
parse(int argc, char *argv[], struct opts *o)
{
	/* the options stored as given */
	const struct optstore st[] = {
		{ 'o', OPT_STR, &o->out_path, "output", 0, 0 },
		{ 'q', OPT_FLAG, &o->quiet, "-q", 0, 0 },
		{ O_PLAY, OPT_COUNT, &o->ro.episodes, "episode count", 1, 1e6 },
		{ O_HIDDEN, OPT_COUNT, &o->ro.hidden, "hidden units", 1, 4096 },
		{ O_LR, OPT_NUMBER, &o->ro.lr, "learning rate", 1e-7, 1 },
		{ O_NOBWF, OPT_FLAG, &o->ro.no_bw, "--no-bw-features", 0, 0 },
		{ O_CTX, OPT_COUNT, &o->ro.context, "context size", 0, 64 },
		{ O_BUDGET, OPT_FLAG, &o->ro.budget, "--budget", 0, 0 },
		{ O_PRIOR, OPT_NUMBER, &o->ro.prior, "prior weight", 0, 1000 },
		{ O_BOUND, OPT_FLAG, &o->bound, "--bound", 0, 0 },
		{ O_EXACT, OPT_COUNT, &o->exact, "exact block size", 0, 1e6 }
	};
	struct mg_diag d = { "" };
	const char *cmd;
	int ch, li = -1;

	memset(o, 0, sizeof(*o));
	mg_accel_scenario_default(&o->sc);
	mg_relmas_opts_init(&o->ro);
	o->exact = -1;
	mg_cli_args(argc, argv, o->args, sizeof(o->args));
	cmd = command(argc, argv, o);
	argc--;
	argv++;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "hM:o:qS:s:V", lo, &li)) != -1) {
		/* each command's own options */
		if ((o->train && (ch == 'M' || ch >= O_BOUND)) ||
		    (!o->train && (ch == 'S' || (ch >= O_PLAY &&
		    ch < O_BOUND)))) {
			if (ch >= O_PLAY)
				errx(MG_EXIT_USAGE, "%s takes no option '--%s' "
				    "(mirage-accel(1))", cmd, lo[li].name);
			errx(MG_EXIT_USAGE, "%s takes no option '-%c' "
			    "(mirage-accel(1))", cmd, ch);
		}
		if (opt_store(st, sizeof(st) / sizeof(st[0]), ch, optarg))
			continue;
		switch (ch) {
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'M':
			if (o->nmod == MAXMOD)
				errx(MG_EXIT_USAGE, "-M: at most %d models",
				    MAXMOD);
			o->mpath[o->nmod++] = optarg;
			break;
		case 'S':
			o->ro.seed = (uint64_t)number_arg("seed", optarg, 0,
			    4294967295.0);
			break;
		case 's':
			if (mg_accel_scenario_set(&o->sc, optarg, &d) != 0)
				errx(MG_EXIT_USAGE, "-s: %s", d.msg);
			break;
		case 'V':
			printf("mirage-accel %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		case O_NOBWP:
			o->ro.beta = 0;
			break;
		case O_STRICT:
			o->ro.strict = number_arg("strict slowdown", optarg, 0,
			    100);
			if (o->ro.strict > 0 && o->ro.strict < 1)
				errx(MG_EXIT_USAGE, "invalid --strict '%s' (0, "
				    "or a slowdown of at least 1)", optarg);
			break;
		case O_FIT:
			o->ro.fit = number_arg("fit slowdown", optarg, 0, 100);
			if (o->ro.fit > 0 && o->ro.fit < 1)
				errx(MG_EXIT_USAGE, "invalid --fit '%s' (0, "
				    "or a slowdown of at least 1)", optarg);
			break;
		case O_LOADS:
			parse_loads(optarg, &o->ro);
			break;
		case O_CREDIT:
			if (strcmp(optarg, "all") == 0)
				o->ro.own = 0;
			else if (strcmp(optarg, "own") == 0)
				o->ro.own = 1;
			else
				errx(MG_EXIT_USAGE, "invalid --credit '%s' "
				    "(all or own)", optarg);
			break;
		case O_WINDOW:
			if (strcmp(optarg, "deadline") == 0)
				o->ro.feasible = 0;
			else if (strcmp(optarg, "feasible") == 0)
				o->ro.feasible = 1;
			else
				errx(MG_EXIT_USAGE, "invalid --window '%s' "
				    "(deadline or feasible)", optarg);
			break;
		default:
			usage(MG_EXIT_USAGE);
		}
	}
	if (o->exact >= 0 && !o->bound)
		errx(MG_EXIT_USAGE, "--exact goes with --bound");
	if (o->exact < 0)
		o->exact = 40;
	if (optind != argc)
		errx(MG_EXIT_USAGE, "%s reads no file: it plays the accelerator "
		    "model", cmd);
	if (o->train && o->out_path == NULL && isatty(STDOUT_FILENO))
		errx(MG_EXIT_USAGE, "refusing to write a model to a terminal "
		    "(use -o file)");
}

/* relmas's progress: an episode's share of deadlines met */
static void
train_progress(void *ctx, int done, int total, double met)
{
	(void)ctx;
	if (done % 50 == 0 || done == total)
		fprintf(stderr, "mirage-accel: train: %d/%d episodes, the last "
		    "met %.1f%% of its deadlines\n", done, total, 100 * met);
}

/* train RELMAS into *m */
static void
train(struct opts *o, const struct mg_net *nets, size_t nn,
    struct mg_model **m)
{
	struct mg_diag d = { "" };
	char *names[MG_AFEAT];
	clock_t t0 = clock();
	size_t k;

	for (k = 0; k < MG_AFEAT; k++)
		names[k] = (char *)mg_afeat_names[k];
	if (mg_model_new("relmas", names, MG_AFEAT, m, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (((*m)->producer = strdup("mirage-accel " MG_VERSION)) == NULL ||
	    ((*m)->args = strdup(o->args)) == NULL)
		err(MG_EXIT_FAIL, NULL);
	if (!o->quiet) {
		o->ro.progress = train_progress;
		fprintf(stderr, "mirage-accel: train: %d episodes of %zu "
		    "requests on %d sub-accelerators\n", o->ro.episodes,
		    o->ro.requests, o->sc.hw.nsa);
	}
	if (mg_relmas_train_model(*m, &o->sc, nets, nn, &o->ro, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (!o->quiet)
		fprintf(stderr, "mirage-accel: train: relmas (%s) in %.1f s of "
		    "CPU\n", (*m)->params, (double)(clock() - t0) /
		    CLOCKS_PER_SEC);
}

static double
since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) + 1e-9 * (double)(b.tv_nsec -
	    a->tv_nsec);
}

/* every dispatcher, then each model, on the same requests into run[] */
static void
eval(struct opts *o, const struct mg_net *nets, size_t nn,
    struct mg_model **mod, struct mg_arun *run, double *secs)
{
	struct mg_diag d = { "" };
	struct mg_accel_request *req = NULL;
	struct timespec a;
	int p, k, rv;

	if (mg_accel_requests(&o->sc.hw, nets, nn, o->sc.requests, o->sc.load,
	    o->sc.q, o->sc.burst, o->sc.seed, &req) != 0)
		err(MG_EXIT_FAIL, NULL);
	for (p = 0; p < MG_AP_N; p++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		if ((rv = mg_accel_run(&o->sc.hw, nets, nn, req,
		    o->sc.requests, (enum mg_apolicy)p, o->sc.seed,
		    &run[p])) != 0)
			errx(MG_EXIT_FAIL, "eval: %s", mg_strerror(rv));
		secs[p] = since(&a);
	}
	for (k = 0; k < o->nmod; k++) {
		const char *pm = mod[k]->params, *pr;
		struct mg_relmas_run st;
		struct mg_accel_hook h;

		memset(&st, 0, sizeof(st));
		st.net = mod[k]->impl;
		st.mean = mod[k]->mean;
		st.scale = mod[k]->scale;
		if (pm != NULL && (pr = strstr(pm, " prior=")) != NULL)
			st.prior = strtod(pr + 7, NULL);
		if (pm != NULL && (pr = strstr(pm, " strict=")) != NULL)
			st.strict = strtod(pr + 8, NULL);
		if (pm != NULL && (pr = strstr(pm, " fit=")) != NULL)
			st.fit = strtod(pr + 5, NULL);
		mg_relmas_hook(&st, pm != NULL && strstr(pm, "no_bw=1") != NULL,
		    pm != NULL && strstr(pm, "budget=1") != NULL, pm != NULL &&
		    strstr(pm, "window=feasible") != NULL, &h);
		clock_gettime(CLOCK_MONOTONIC, &a);
		if ((rv = mg_accel_run_hook(&o->sc.hw, nets, nn, req,
		    o->sc.requests, &h, &run[MG_AP_N + k])) != 0)
			errx(MG_EXIT_FAIL, "eval: '%s': %s", o->mpath[k],
			    mg_strerror(rv));
		secs[MG_AP_N + k] = since(&a);
		mg_relmas_run_free(&st);
	}
	if (o->bound && (rv = mg_accel_bound(&o->sc.hw, nets, nn, req,
	    o->sc.requests, (size_t)o->exact, &o->ab, &d)) != 0)
		errx(mg_exit_status(rv), "eval: the bound: %s", *d.msg ? d.msg :
		    mg_strerror(rv));
	free(req);
}

/* the table, a row per dispatcher */
static void
print_table(FILE *fp, const struct opts *o, const struct mg_arun *run)
{
	int p;

	fprintf(fp, "policy\trequests\tmet_share\tlatency_mean_ms\t"
	    "latency_p95_ms\tenergy_j\tenergy_vs_edf\tbandwidth_oversubscribed"
	    "\tlayers\tdropped\tpreempted%s\n", o->bound ? "\tof_bound" : "");
	for (p = 0; p < MG_AP_N + o->nmod; p++) {
		fprintf(fp, "%s\t%zu\t%.4f\t%.3f\t%.3f\t%.3f\t%.4f\t%.4f"
		    "\t%llu\t%zu\t%llu", p < MG_AP_N ?
		    mg_apolicy_name((enum mg_apolicy)p) : o->nmod == 1 ?
		    "relmas" : o->mpath[p - MG_AP_N],
		    run[p].requests, (double)run[p].met /
		    (double)run[p].requests, run[p].lat_mean * 1e3,
		    run[p].lat_p95 * 1e3, run[p].energy, run[p].energy /
		    run[MG_AP_EDF].energy, run[p].makespan > 0 ?
		    run[p].oversub / run[p].makespan : 0,
		    (unsigned long long)run[p].decisions, run[p].dropped,
		    (unsigned long long)run[p].preemptions);
		if (o->bound)
			fprintf(fp, "\t%.4f", o->ab.met > 0 ?
			    (double)run[p].met / o->ab.met : 1);
		fputc('\n', fp);
	}
	/* the bound: the most any could meet; what a run measures, none */
	if (o->bound)
		fprintf(fp, "bound\t%zu\t%.4f\t-\t-\t-\t-\t-\t-\t-\t-\t1\n",
		    o->sc.requests, o->ab.met / (double)o->sc.requests);
}

/* what a dispatch costs, on standard error */
static void
print_costs(const struct opts *o, size_t nn, const struct mg_arun *run,
    const double *secs)
{
	double all = 0;
	uint64_t dec = 0;
	int p;

	for (p = 0; p < MG_AP_N; p++) {
		all += secs[p];
		dec += run[p].decisions;
	}
	for (p = MG_AP_N; p < MG_AP_N + o->nmod; p++)
		fprintf(stderr, "mirage-accel: eval: %s: %.2f us per layer "
		    "dispatched, its network's scoring included\n",
		    o->nmod == 1 ? "relmas" : o->mpath[p - MG_AP_N],
		    run[p].decisions ? 1e6 * secs[p] /
		    (double)run[p].decisions : 0);
	fprintf(stderr, "mirage-accel: eval: %zu requests of %zu networks on "
	    "%d sub-accelerators, load %.2f, deadlines at %.2f x the "
	    "isolated latency; %.2f us of simulation per layer dispatched\n",
	    o->sc.requests, nn, o->sc.hw.nsa, o->sc.load, o->sc.q,
	    dec ? 1e6 * all / (double)dec : 0);
	if (o->bound)
		fprintf(stderr, "mirage-accel: eval: the bound: %.0f deadlines "
		    "at most, %zu blocks of at most %zu requests, %zu solved "
		    "exactly, %zu variables\n", o->ab.met, o->ab.blocks,
		    o->ab.largest, o->ab.exact, o->ab.cols);
}

/* the relmas models of -M, read and checked */
static void
read_models(const struct opts *o, struct mg_model **mod)
{
	struct mg_diag d = { "" };
	FILE *fp;
	int k, rv;

	for (k = 0; k < o->nmod; k++) {
		if ((fp = fopen(o->mpath[k], "rb")) == NULL)
			err(MG_EXIT_FAIL, "'%s'", o->mpath[k]);
		if ((rv = mg_model_read(fp, o->mpath[k], &mod[k], &d)) != 0)
			errx(mg_exit_status(rv), "%s", d.msg);
		fclose(fp);
		if (strcmp(mod[k]->kind, "relmas") != 0)
			errx(MG_EXIT_USAGE, "-M '%s': a %s model decides when "
			    "to submit; eval takes relmas models (mirage-accel "
			    "train)", o->mpath[k], mod[k]->kind);
	}
}

int
main(int argc, char *argv[])
{
	struct opts o;
	struct mg_net nets[MG_NNETS];
	struct mg_model *mod[MAXMOD], *m = NULL;
	struct mg_arun run[MG_AP_N + MAXMOD];
	double secs[MG_AP_N + MAXMOD];
	struct mg_diag d = { "" };
	struct mg_out out;
	size_t nn, k;
	int rv;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	parse(argc, argv, &o);
	if (!o.train)
		read_models(&o, mod);
	if ((rv = mg_accel_scenario_nets(&o.sc, nets, &d)) < 0)
		errx(rv == MG_EINVAL ? MG_EXIT_USAGE : MG_EXIT_FAIL, "%s",
		    d.msg);
	nn = (size_t)rv;
	if (o.train) {
		/* its matrices are small: one BLAS thread does them fastest */
		if (mg_mlp_blas(1, &d) != 0)
			errx(MG_EXIT_FAIL, "%s", d.msg);
		train(&o, nets, nn, &m);
	} else
		eval(&o, nets, nn, mod, run, secs);
	/* the model or the table, whole or not at all */
	if (mg_out_open(&out, o.out_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	rv = 0;
	if (o.train)
		rv = mg_model_write(out.fp, m, &d);
	else
		print_table(out.fp, &o, run);
	if (rv != 0 || mg_out_commit(&out, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
	if (!o.train && !o.quiet)
		print_costs(&o, nn, run, secs);
	mg_model_free(m);
	for (k = 0; k < (size_t)o.nmod; k++)
		mg_model_free(mod[k]);
	for (k = 0; k < nn; k++)
		mg_net_free(&nets[k]);
	return MG_EXIT_OK;
}
