/*
 * mirage-train: fit a model of when to submit the successor to a
 * samples stream (mirage-features) and write it as a model file.  See
 * mirage-train(1).
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mirage.h"
#include "options.h"
#include "episode/episode.h"
#include "eval/target.h"
#include "learn/model.h"
#include "learn/rl.h"
#include "learn/samples.h"

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-train -a gbt|rf|clf|svr [-q] [-F features] "
	    "[-r rounds] [-d depth]\n"
	    "           [--eta e] [--trees n] [--subsample f] [--colsample f] "
	    "[-C c]\n"
	    "           [--epsilon e] [--gamma g] [--clip hours] "
	    "[--max-samples n]\n"
	    "           [--quantile q] [-T threshold] [-S seed] [-t threads] "
	    "[-o model] [file]\n"
	    "       mirage-train -a dqn|pg [-q] [-c config] [-m mode] "
	    "[-n nodes] [-s key=value]\n"
	    "           [episode options of mirage-features] [--play n] "
	    "[--hidden n] [--lr r]\n"
	    "           [--w-int w] [--w-ovl w] [-S seed] [-t threads] "
	    "[-o model] [jobs]\n"
	    "       mirage-train --target share -M model [--handover time] "
	    "[--folds n]\n"
	    "           [--confidence c] [-q]\n"
	    "           [-c config] [-m mode] [-n nodes] [-s key=value]\n"
	    "           [episode options of mirage-features] [-t threads] "
	    "[-o model] [jobs]\n"
	    "       mirage-train -i model\n");
	if (status == 0)
		fputs("options:\n"
		    "  -a kind           gbt, rf, clf, svr (from samples) or dqn, pg (from jobs)\n"
		    "  -F features       which columns: own, ref, all, or names and PREFIX*\n"
		    "  -r rounds, -d depth, --eta e, --trees n, --subsample f, --colsample f\n"
		    "                    the boosted trees' and the forest's settings\n"
		    "  -C c, --epsilon e, --gamma g  the support vector regression's\n"
		    "  --clip hours      clip labels at this many hours\n"
		    "  --max-samples n   train on n samples at most (svr: 4000)\n"
		    "  --quantile q      the label's quantile a regressor aims at\n"
		    "  -T threshold      the model's decision threshold\n"
		    "  --play n, --hidden n, --lr r, --w-int w, --w-ovl w\n"
		    "                    dqn and pg: episodes played, hidden units, learning\n"
		    "                    rate, and the weights of interruption and overlap\n"
		    "  -c config, -m mode, -n nodes, -s key=value, episode options\n"
		    "                    dqn and pg: the cluster model and the episodes, as\n"
		    "                    mirage-features takes them\n"
		    "  --target share    choose -M model's threshold for a share of links\n"
		    "                    without an interruption (99%) on the episodes of\n"
		    "                    jobs, cut into time-blocked folds; write the model\n"
		    "                    with it\n"
		    "  -M model, --handover time, --folds n  the model, the chain's handover\n"
		    "                    time (none), the folds (4)\n"
		    "  --confidence c    the promise holds at this confidence (95%)\n"
		    "  -S seed           the seed (1): the same seed, the same model\n"
		    "  -t threads        threads (one per CPU)\n"
		    "  -o file           write the model to file (default: stdout)\n"
		    "  -i model          print a model's header and exit\n"
		    "  --progress        dqn, pg: progress lines, also in a log\n"
		    "  -q                no progress or summary on standard error\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-train(1).\n", stdout);
	exit(status);
}

/* -i: what a model file says about itself */
static int
model_info(const char *path)
{
	struct mg_diag d = { "" };
	struct mg_model *m;
	FILE *fp = fopen(path, "rb");
	int rv;

	if (fp == NULL)
		err(MG_EXIT_FAIL, "cannot open '%s'", path);
	if ((rv = mg_model_read_container(fp, path, &m, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	mg_model_write_info(stdout, path, m);
	mg_model_free(m);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(MG_EXIT_FAIL, "standard output");
	/* a sound container is not enough: the model is loaded and
	 * scored, as mirage-advise and mirage-eval would use it */
	rewind(fp);
	if ((rv = mg_model_read(fp, path, &m, &d)) == 0 &&
	    (rv = mg_model_check(m, &d)) != 0)
		mg_diag_prefix(&d, "'%s'", path);
	fclose(fp);
	mg_model_free(m);
	if (rv != 0)
		errx(mg_exit_status(rv), "%s: it cannot be used", d.msg);
	printf("check\tloaded and scored: usable\n");
	if (fflush(stdout) != 0 || ferror(stdout))
		err(MG_EXIT_FAIL, "standard output");
	return MG_EXIT_OK;
}

/* the model's threshold (if given) and where it comes from */
static void
provenance(struct mg_model *m, double threshold, const char *args)
{
	if (!isnan(threshold))
		m->threshold = threshold;
	if ((m->producer = strdup("mirage-train " MG_VERSION)) == NULL ||
	    (m->args = strdup(args)) == NULL)
		err(MG_EXIT_FAIL, NULL);
}

/* write the model file, whole or not at all */
static void
save(const struct mg_model *m, const char *path)
{
	struct mg_diag d = { "" };
	struct mg_out out;

	if (mg_out_open(&out, path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (mg_model_write(out.fp, m, &d) != 0 || mg_out_commit(&out, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
}

struct rlctx {
	const char *kind;
	enum mg_progress progress;
	int open;		/* a terminal's line to end */
};

static void
progress(void *ctx, long done, long total, double mean)
{
	struct rlctx *c = ctx;

	if (c->progress != MG_PROGRESS_OFF)
		fprintf(stderr, "%smirage-train: %s: %ld/%ld episodes played, "
		    "mean reward %.3f%s", c->progress == MG_PROGRESS_TTY ?
		    "\r" : "", c->kind, done, total, mean,
		    c->progress == MG_PROGRESS_TTY && done < total ? "" : "\n");
	c->open = c->progress == MG_PROGRESS_TTY && done < total;
}

/* dqn and pg: play episodes of the trace in the cluster model */
static int
train_rl(const char *kind, const char *path, const struct mg_simconf *conf,
    struct mg_epsel *sel, struct mg_rlopts *ro, double w_int, double w_ovl,
    int threads, double threshold, const char *out_path, const char *args,
    int quiet, int asked)
{
	struct mg_diag d = { "" };
	struct mg_trace t;
	struct mg_clusterdef def;
	struct mg_rlplay play;
	struct mg_model *m;
	struct mg_epconf e1;
	char **names;
	struct rlctx cx = { kind, mg_cli_progress(quiet, asked), 0 };
	size_t nnames;
	int rv;

	(void)trace_open(path, conf, &t, &def, sel);
	if (cx.progress != MG_PROGRESS_OFF)
		fprintf(stderr, "mirage-train: %s: simulating %zu episodes\n",
		    kind, sel->n * (size_t)sel->nsizes);
	if ((rv = mg_rlplay_open(&play, &def, sel, MG_OWN, threads, &d)) != 0)
		errx(rv == MG_ENOMEM ? MG_EXIT_FAIL : MG_EXIT_USAGE, "'%s': %s",
		    path, d.msg);
	/* our features come first among the features' names */
	e1 = sel->e;
	e1.window = 1;
	if (mg_episode_feature_names(&e1, &names, &nnames) != 0)
		err(MG_EXIT_FAIL, NULL);
	if ((rv = mg_model_new(kind, names, MG_OWN, &m, &d)) != 0)
		errx(MG_EXIT_USAGE, "%s", d.msg);
	mg_names_free(names, nnames);
	play.env.w_int = w_int;
	play.env.w_ovl = w_ovl;
	ro->progress = progress;
	ro->ctx = &cx;
	m->from = play.from;
	m->to = play.to;
	provenance(m, threshold, args);
	if ((m->cluster = strdup(play.cluster)) == NULL)
		err(MG_EXIT_FAIL, NULL);
	rv = mg_model_train_rl(m, &play.env, ro, &d);
	if (cx.open)
		fputc('\n', stderr);
	if (rv != 0)	/* an episode's probe failed, or the training */
		errx(rv == MG_ENOMEM ? MG_EXIT_FAIL : MG_EXIT_USAGE, "'%s': %s",
		    path, play.pd.msg[0] ? play.pd.msg : d.msg);
	save(m, out_path);
	if (!quiet)
		fprintf(stderr, "mirage-train: %s (%s) on %zu episodes\n", kind,
		    m->params, play.env.nep);
	mg_model_free(m);
	mg_rlplay_close(&play);
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	return MG_EXIT_OK;
}

/* the command line */
struct topts {
	const char *kind, *sel, *path, *out_path;
	struct mg_trainopts to;
	struct mg_rlopts ro;
	struct mg_simconf *conf;
	struct mg_epsel esel;
	double w_int, w_ovl, clip, threshold, maxs;
	int quiet, progress_asked;
	double target;		/* --target: the share wanted, 0: training */
	const char *model_path;	/* -M: its model */
	int64_t handover;	/* --handover, seconds */
	int folds;		/* --folds */
	double confidence;	/* --confidence, 0: MG_TARGET_CONFIDENCE */
	char args[1024];
};

enum { O_ETA = 400, O_TREES, O_SUB, O_COL, O_EPS, O_GAMMA, O_CLIP, O_MAX,
	O_PLAY, O_HIDDEN, O_LR, O_WINT, O_WOVL, O_QUANT, O_PROGRESS, O_TARGET,
	O_HANDOVER, O_FOLDS, O_CONF };

/* the numeric options: the word in messages, the range, and where each
 * goes (a double, an int, a long or a u64 of struct topts) */
static const struct numopt {
	int ch;
	const char *what;
	double min, max;
	char type;
	size_t off;
} numopts[] = {
#define N(ch, what, min, max, type, field) \
	{ ch, what, min, max, type, offsetof(struct topts, field) }
	N(O_PLAY, "episode count", 1, 1e8, 'l', ro.episodes),
	N(O_HIDDEN, "hidden units", 1, 4096, 'i', ro.hidden),
	N(O_LR, "learning rate", 1e-7, 1, 'd', ro.lr),
	N(O_WINT, "interruption weight", 0, 1000, 'd', w_int),
	N(O_WOVL, "overlap weight", 0, 1000, 'd', w_ovl),
	N('C', "cost", 1e-6, 1e6, 'd', to.C),
	N('d', "depth", 1, 20, 'i', to.depth),
	N('r', "rounds", 1, 100000, 'i', to.rounds),
	N('S', "seed", 0, 4294967295.0, 'u', to.seed),
	N('t', "threads", 1, 256, 'i', to.threads),
	N('T', "threshold", -1000, 1000, 'd', threshold),
	N(O_ETA, "eta", 1e-6, 1, 'd', to.eta),
	N(O_TREES, "trees", 1, 10000, 'i', to.trees),
	N(O_SUB, "subsample", 0.01, 1, 'd', to.subsample),
	N(O_COL, "colsample", 0.01, 1, 'd', to.colsample),
	N(O_EPS, "epsilon", 0, 100, 'd', to.epsilon),
	N(O_GAMMA, "gamma", 0, 1e6, 'd', to.gamma),
	N(O_CLIP, "clip", 0.01, 1e6, 'd', clip),
	N(O_MAX, "max-samples", 2, 1e9, 'd', maxs),
	N(O_FOLDS, "--folds", 1, MG_TARGET_MAXFOLDS, 'i', folds),
	N(O_QUANT, "quantile", 0.01, 0.99, 'd', to.quantile),
#undef N
};

/* a numeric option ch into o: 1 if it is one, else 0 */
static int
numeric(struct topts *o, int ch, const char *arg)
{
	const struct numopt *n;
	char *f;
	double v;

	for (n = numopts; n < numopts + sizeof(numopts) / sizeof(*n); n++)
		if (n->ch == ch)
			break;
	if (n == numopts + sizeof(numopts) / sizeof(*n))
		return 0;
	v = number_arg(n->what, arg, n->min, n->max);
	f = (char *)o + n->off;
	if (n->type == 'd')
		*(double *)(void *)f = v;
	else if (n->type == 'i')
		*(int *)(void *)f = (int)v;
	else if (n->type == 'l')
		*(long *)(void *)f = (long)v;
	else
		*(uint64_t *)(void *)f = (uint64_t)v;
	return 1;
}

/* mirage-train's options */
static const struct option longopts[] = {
	{ "algorithm", required_argument, NULL, 'a' },
	{ "clip", required_argument, NULL, O_CLIP },
	{ "colsample", required_argument, NULL, O_COL },
	{ "cost", required_argument, NULL, 'C' },
	{ "depth", required_argument, NULL, 'd' },
	{ "epsilon", required_argument, NULL, O_EPS },
	{ "eta", required_argument, NULL, O_ETA },
	{ "features", required_argument, NULL, 'F' },
	{ "folds", required_argument, NULL, O_FOLDS },
	{ "confidence", required_argument, NULL, O_CONF },
	{ "handover", required_argument, NULL, O_HANDOVER },
	{ "model", required_argument, NULL, 'M' },
	{ "target", required_argument, NULL, O_TARGET },
	{ "gamma", required_argument, NULL, O_GAMMA },
	{ "help", no_argument, NULL, 'h' },
	{ "info", required_argument, NULL, 'i' },
	{ "max-samples", required_argument, NULL, O_MAX },
	{ "quantile", required_argument, NULL, O_QUANT },
	{ "output", required_argument, NULL, 'o' },
	{ "progress", no_argument, NULL, O_PROGRESS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rounds", required_argument, NULL, 'r' },
	{ "seed", required_argument, NULL, 'S' },
	{ "subsample", required_argument, NULL, O_SUB },
	{ "threads", required_argument, NULL, 't' },
	{ "threshold", required_argument, NULL, 'T' },
	{ "trees", required_argument, NULL, O_TREES },
	{ "version", no_argument, NULL, 'V' },
	{ "play", required_argument, NULL, O_PLAY },
	{ "hidden", required_argument, NULL, O_HIDDEN },
	{ "lr", required_argument, NULL, O_LR },
	{ "w-int", required_argument, NULL, O_WINT },
	{ "w-ovl", required_argument, NULL, O_WOVL },
	CLUSTER_LONGOPTS,
	EPISODE_LONGOPTS,
	{ NULL, 0, NULL, 0 }
};

static void
parse(int argc, char *argv[], struct topts *o)
{
	int ch;

	memset(o, 0, sizeof(*o));
	o->sel = "own";
	o->path = "-";
	o->w_int = 1;
	o->w_ovl = 0.25;
	o->clip = 12;
	o->threshold = NAN;
	mg_trainopts_init(&o->to);
	mg_rlopts_init(&o->ro);
	o->conf = cluster_new();
	mg_epsel_init(&o->esel);
	while ((ch = getopt_long(argc, argv, "a:C:d:F:hi:M:o:qr:S:t:T:V"
	    CLUSTER_SHORTOPTS EPISODE_SHORTOPTS, longopts, NULL)) != -1) {
		if (episode_option(&o->esel, ch, optarg) ||
		    cluster_option(o->conf, ch, optarg) ||
		    numeric(o, ch, optarg))
			continue;
		switch (ch) {
		case 'a':
			o->kind = optarg;
			break;
		case 'F':
			o->sel = optarg;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'i':
			exit(model_info(optarg));
		case 'o':
			o->out_path = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'V':
			printf("mirage-train %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		case O_PROGRESS:
			o->progress_asked = 1;
			break;
		case O_TARGET:
			o->target = target_arg(optarg);
			break;
		case 'M':
			o->model_path = optarg;
			break;
		case O_CONF:
			o->confidence = confidence_arg(optarg);
			break;
		case O_HANDOVER:
			o->handover = span_arg("--handover", optarg, 86400);
			break;
		default:
			usage(MG_EXIT_USAGE);
		}
	}
	if ((o->target > 0) != (o->model_path != NULL))
		errx(MG_EXIT_USAGE, "--target and -M go together");
	if (o->target == 0 && (o->folds || o->handover || o->confidence > 0))
		errx(MG_EXIT_USAGE, "--folds, --handover and --confidence go "
		    "with --target");
	if (o->confidence == 0)
		o->confidence = MG_TARGET_CONFIDENCE;
	if (o->target > 0 && o->kind != NULL)
		errx(MG_EXIT_USAGE, "--target chooses the threshold of -M's "
		    "model: no -a");
	if (o->target > 0 && !isnan(o->threshold))
		errx(MG_EXIT_USAGE, "--target chooses the threshold: no -T");
	if (o->folds == 0)
		o->folds = 4;
	if (o->target > 0)
		o->kind = "";
	else if (o->kind == NULL)
		errx(MG_EXIT_USAGE, "-a algorithm is needed: gbt, rf, clf, svr, "
		    "dqn or pg (try --help)");
	if (o->target == 0 && (mg_model_kind(o->kind) & MG_KIND_KNOWN) &&
	    !(mg_model_kind(o->kind) & MG_KIND_WHEN))
		errx(MG_EXIT_USAGE, "-a %s: the dispatcher inside the node "
		    "is trained by mirage-accel train (mirage-accel(1))",
		    o->kind);
	if (o->target == 0 && mg_model_kind(o->kind) == 0)
		errx(MG_EXIT_USAGE, "unknown model kind '%s' (want gbt, rf, "
		    "clf, svr, dqn or pg)", o->kind);
	if (argc - optind > 1)
		errx(MG_EXIT_USAGE, "one input at most (try --help)");
	if (optind < argc)
		o->path = argv[optind];
	if ((o->out_path == NULL || strcmp(o->out_path, "-") == 0) &&
	    isatty(STDOUT_FILENO))
		errx(MG_EXIT_USAGE, "refusing to write a model to a terminal "
		    "(use -o file)");
	mg_cli_args(argc, argv, o->args, sizeof(o->args));
}

/* a model of kind o->kind on the samples of o->path, written to
 * o->out_path */
static void
train(const struct topts *o, double maxs, clock_t t0)
{
	struct mg_diag d = { "" };
	struct mg_samples ss, *s = &ss;
	struct mg_model *m;
	size_t step;
	int rv;

	if ((rv = mg_samples_read(o->path, strcmp(o->path, "-") ? o->path :
	    "<stdin>", o->sel, (mg_model_kind(o->kind) & MG_KIND_CLASSIFIER) !=
	    0, o->clip, s, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	/* an even subsample, in order, when asked (svr by default) */
	step = mg_samples_thin(s, maxs);

	if ((rv = mg_model_new(o->kind, s->names, s->nf, &m, &d)) != 0)
		errx(MG_EXIT_USAGE, "%s", d.msg);
	m->window = (uint32_t)s->window;
	m->from = s->from;
	m->to = s->to;
	m->cluster = s->cluster;	/* the samples stream's: owned by m */
	s->cluster = NULL;
	provenance(m, o->threshold, o->args);
	if (!o->quiet)
		fprintf(stderr, "mirage-train: %s on %zu samples x %zu "
		    "features%s\n", o->kind, s->n, s->nf, step > 1 ?
		    " (every nth, --max-samples)" : "");
	if ((rv = mg_model_train(m, s->X, s->y, s->n, &o->to, &d)) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if ((rv = mg_model_calibrate(m, s->X, s->y, s->n, &o->to, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	if (!o->quiet && m->classifier)
		fprintf(stderr, "mirage-train: calibration of %zu knots\n",
		    m->ncal);
	save(m, o->out_path);
	if (!o->quiet)
		fprintf(stderr, "mirage-train: %s (%s) in %.1f s of CPU\n",
		    o->kind, m->params, (double)(clock() - t0) /
		    CLOCKS_PER_SEC);
	mg_model_free(m);
	mg_samples_release(s);
}

/*
 * --target: -M's threshold chosen on the episodes of o->path, cut into
 * time-blocked folds (target.h), the most cautious of the chain sizes'
 * (the one that submits earliest); the model written with it and with
 * what it was chosen on
 */
static int
choose_threshold(struct topts *o)
{
	struct mg_diag d = { "" };
	struct mg_trace t;
	struct mg_clusterdef def;
	struct mg_target_size each[MG_EPSEL_MAXSIZES];
	struct mg_model *m;
	struct mg_target_span sp;
	int rv, i, reached;
	double worst, promise;
	FILE *fp;

	if ((fp = fopen(o->model_path, "rb")) == NULL)
		err(MG_EXIT_FAIL, "cannot open '%s'", o->model_path);
	if ((rv = mg_model_read(fp, o->model_path, &m, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	fclose(fp);
	if (!(mg_model_kind(m->kind) & MG_KIND_WHEN))
		errx(MG_EXIT_TYPE, "'%s': a dispatcher inside the node, not a "
		    "model of when to submit", o->model_path);
	(void)trace_open(o->path, o->conf, &t, &def, &o->esel);
	o->esel.e.window = (int)(m->window > 0 ? m->window : 1);
	sp.target = o->target;
	sp.handover = o->handover;
	sp.folds = o->folds;
	sp.from = o->esel.from;
	sp.to = mg_epsel_start(&o->esel, o->esel.n - 1);
	sp.episodes = o->esel.n * (size_t)o->esel.nsizes;
	if (!o->quiet)
		fprintf(stderr, "mirage-train: choosing %s's threshold on %zu "
		    "episodes\n", m->kind, sp.episodes);
	if ((rv = mg_target_threshold(m, o->model_path, &def, &o->esel,
	    o->path, &sp, o->confidence, o->to.threads > 0 ? o->to.threads :
	    (int)sysconf(_SC_NPROCESSORS_ONLN), each, &worst, &reached,
	    &promise, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	for (i = 0; i < o->esel.nsizes && !o->quiet; i++)
		fprintf(stderr, "mirage-train: %d-node chains: threshold %g, "
		    "%.1f%% without interruption in its worst fold%s, %.2f h "
		    "of %s a link\n", each[i].nodes, each[i].setting,
		    100 * each[i].worst, each[i].reached ? "" : " (short of "
		    "the target)", each[i].cost, o->handover ? "lease given up" :
		    "overlap");
	if (!reached)
		warnx("--target: the threshold chosen brought %.1f%% through in "
		    "the worst fold, short of %g%%", 100 * worst,
		    100 * o->target);
	if (promise < o->target && !o->quiet)
		fprintf(stderr, "mirage-train: it promises %.1f%% at %g%% "
		    "confidence, not %g%%: the %zu episodes chosen on certify "
		    "no more\n", 100 * promise, 100 * o->confidence,
		    100 * o->target, sp.episodes);
	save(m, o->out_path);
	if (!o->quiet)
		fprintf(stderr, "mirage-train: %s: threshold %g for %g%% "
		    "written\n", m->kind, m->threshold, 100 * o->target);
	mg_model_free(m);
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	return MG_EXIT_OK;
}

int
main(int argc, char *argv[])
{
	struct topts o;
	clock_t t0 = clock();
	int rv;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	mg_cli_keep_heap();
	parse(argc, argv, &o);
	if (o.target > 0) {
		rv = choose_threshold(&o);
	} else if (mg_model_kind(o.kind) & MG_KIND_EPISODES) {
		o.ro.seed = o.to.seed;
		rv = train_rl(o.kind, o.path, o.conf, &o.esel, &o.ro,
		    o.w_int, o.w_ovl, o.to.threads > 1 ? o.to.threads :
		    (int)sysconf(_SC_NPROCESSORS_ONLN), o.threshold,
		    o.out_path, o.args, o.quiet, o.progress_asked);
	} else {
		/* libsvm's training is quadratic: svr subsamples by default */
		train(&o, mg_model_kind(o.kind) & MG_KIND_SMALL && o.maxs == 0 ?
		    MG_MODEL_SMALL : o.maxs, t0);
		rv = MG_EXIT_OK;
	}
	mg_simconf_free(o.conf);
	return rv;
}
