/*
 * mirage-features: place chains into a replayed trace (episodes) and
 * write, for each probed decision time, the features a model sees then
 * and the outcome x = S.start - P.end had S been submitted then, as a
 * samples stream.  See mirage-features(1).
 */
#include <err.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mirage.h"
#include "options.h"
#include "cluster/cluster.h"
#include "episode/episode.h"

#define MAXPROBES	4096
#define NMETA		11

enum { META_EPISODE, META_START, META_END, META_NODES, META_PROBE, META_T,
	META_PSUBMIT, META_PSTART, META_PEND, META_X, META_SWAIT };

static const char *const meta_name[NMETA] = {
	"episode", "ep_start", "ep_end", "nodes", "probe", "t",
	"p_submit", "p_start", "p_end", "x", "s_wait",
};

struct opts {
	struct mg_epsel sel;	/* the episodes */
	struct mg_epconf e;	/* = sel.e, once resolved */
	int probes;		/* evenly spaced from P.submit + 1 min to P.end */
	int64_t probe_every;	/* 0, or every decision time this far apart */
	int near_n;		/* extra probes in the last near_span before P.end */
	int64_t near_span;
	int threads;
	int quiet, progress;
};

/* the samples of one episode */
struct result {
	int32_t nodes;
	long episode;
	int64_t s0;
	int status;		/* 0, or a negative status with msg */
	int skipped;		/* no job in its window (and no range given) */
	char msg[MG_DIAG_MAX];
	size_t n;
	int64_t *meta;		/* n * NMETA */
	double *feat;		/* n * nfeat */
};

struct work {
	const struct mg_clusterdef *def;
	const struct opts *o;
	size_t nfeat, npaper;
	struct result *res;
	size_t nres, next;
	pthread_mutex_t mu;
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-features [-q] [-c config] [-m mode] [-n nodes] "
	    "[-s key=value]\n"
	    "           [-f date] [-N count | -u date] [-e every] "
	    "[-k nodes[,...] | -g gpus[,...]]\n"
	    "           [--chain jobs] [--workload span] [--warmup span] "
	    "[--limit span]\n"
	    "           [--p-runtime span]"
	    " [-p probes] [--probe-every span] "
	    "[--near-end count:span]\n"
	    "           [-w window] [--at-start] [--shard i/n] [-t threads] "
	    "[-o file] [file]\n");
	if (status == 0)
		fputs("options:\n"
		    "  -c config, -m reference|faithful, -n nodes, -s key=value\n"
		    "                    the cluster model (see mirage-eval(1))\n"
		    "  -f date           the first episode's start (the trace's first day)\n"
		    "  -N count | -u date  that many episodes, or up to date\n"
		    "  -e span           between episode starts (4h)\n"
		    "  -k nodes,... | -g gpus,...  chain sizes, in nodes or in GPUs\n"
		    "  --chain jobs      jobs in a chain (2)\n"
		    "  --workload span, --warmup span, --limit span, --p-runtime span\n"
		    "                    the episode's window, warm-up, time limit, P's run time\n"
		    "  -p probes         decision times from P's submission to P's end (7)\n"
		    "  --probe-every span  a decision time every span instead\n"
		    "  --near-end count:span  more decision times in P's last span\n"
		    "  -w window         reference snapshots kept per sample (144)\n"
		    "  --at-start        the original's probe features (at P's start)\n"
		    "  --shard i/n       the i-th of n shares of the episodes (job arrays)\n"
		    "  -t threads        episodes in parallel (one per CPU)\n"
		    "  -o file           write the samples to file (default: stdout)\n"
		    "  --progress        a progress line per batch, also in a log\n"
		    "  -q                no progress or summary on standard error\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-features(1).\n", stdout);
	exit(status);
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* the probe times of an episode, sorted, distinct, in [lo, hi] */
static size_t
probe_times(const struct opts *o, int64_t s0, int64_t lo, int64_t hi,
    int64_t *tp)
{
	size_t n = 0, i, k;
	int64_t t;
	int j;

	if (o->probes == 1)
		tp[n++] = hi;
	for (j = 0; o->probes > 1 && j < o->probes; j++) {
		/* the original: lower + j (upper - lower) / (n - 1), whole
		 * minutes */
		t = lo + (int64_t)j * (hi - lo) / (o->probes - 1);
		tp[n++] = t - t % 60;
	}
	if (o->probe_every > 0) {
		/* decision times: S0 + k period, after P's submission */
		t = s0 + ((lo - s0) + o->e.period - 1) / o->e.period *
		    o->e.period;
		for (; t <= hi && n < MAXPROBES / 2; t += o->probe_every)
			tp[n++] = t;
	}
	for (j = 0; j < o->near_n && n < MAXPROBES; j++) {
		t = hi - o->near_span + (int64_t)j * o->near_span / o->near_n;
		t -= t % 60;
		tp[n++] = t < lo ? lo : t;
	}
	qsort(tp, n, sizeof(*tp), cmp_i64);
	for (i = k = 0; i < n; i++)
		if (k == 0 || tp[k - 1] != tp[i])
			tp[k++] = tp[i];
	return k;
}

static int
run_episode(const struct work *w, struct result *r)
{
	const struct opts *o = w->o;
	struct mg_epconf e = o->e;
	struct mg_episode *ep = NULL;
	struct mg_diag d = { "" };
	int64_t tp[MAXPROBES], ps, pst, pe, end;
	size_t n, i;
	char when[32];
	int rv;

	e.nodes = r->nodes;
	mg_format_time(r->s0, when, sizeof(when));
	if (o->sel.skip_empty && mg_episode_empty(w->def, &e, r->s0)) {
		r->skipped = 1;
		return 0;
	}
	if ((rv = mg_episode_new(w->def, &e, r->s0, &ep, &d)) != 0)
		goto fail;
	if ((rv = mg_episode_presim(ep, &ps, &pst, &pe)) != 1) {
		if (rv == 0)
			mg_diag_set(&d, MG_EINVAL, "episode %ld (%s, %d nodes): "
			    "P never starts", r->episode, when, r->nodes);
		rv = rv == 0 ? MG_EINVAL : rv;
		goto fail;
	}
	n = probe_times(o, r->s0, ps + 60, pe, tp);
	r->meta = malloc(n * NMETA * sizeof(*r->meta));
	r->feat = malloc(n * w->nfeat * sizeof(*r->feat));
	if (r->meta == NULL || r->feat == NULL) {
		rv = MG_ENOMEM;
		goto fail;
	}
	end = r->s0 + e.workload;
	for (i = 0; i < n; i++) {
		int64_t *m = r->meta + i * NMETA, x;
		double *f = r->feat + i * w->nfeat;

		if ((rv = mg_episode_advance(ep, tp[i])) != 0 ||
		    (rv = mg_episode_features(ep, e.at_start ? NULL :
		    f + MG_OWN, f)) != 0 ||
		    (rv = mg_episode_probe(ep, &x, e.at_start ? f + MG_OWN :
		    NULL)) < 0)
			goto fail;
		if (rv == 0) {
			mg_diag_set(&d, MG_EINVAL, "episode %ld (%s, %d nodes): "
			    "S submitted at probe %zu never starts", r->episode,
			    when, r->nodes, i);
			rv = MG_EINVAL;
			goto fail;
		}
		m[META_EPISODE] = r->episode;
		m[META_START] = r->s0;
		m[META_NODES] = r->nodes;
		m[META_PROBE] = (int64_t)i;
		m[META_T] = tp[i];
		m[META_PSUBMIT] = ps;
		m[META_PSTART] = pst;
		m[META_PEND] = pe;
		m[META_X] = x;
		m[META_SWAIT] = pe + x - tp[i];
		if (pe + x > end)
			end = pe + x;
	}
	/* the last moment of the simulation any sample depends on */
	for (i = 0; i < n; i++)
		r->meta[i * NMETA + META_END] = end;
	r->n = n;
	mg_episode_free(ep);
	return 0;
fail:
	mg_episode_free(ep);
	r->status = rv < 0 ? rv : MG_EINVAL;
	if (d.msg[0] == '\0')
		snprintf(d.msg, sizeof(d.msg), "episode %ld (%s, %d nodes): %s",
		    r->episode, when, r->nodes, mg_strerror(r->status));
	memcpy(r->msg, d.msg, sizeof(r->msg));
	return r->status;
}

static void *
worker(void *arg)
{
	struct work *w = arg;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&w->mu);
		i = w->next++;
		pthread_mutex_unlock(&w->mu);
		if (i >= w->nres)
			return NULL;
		run_episode(w, &w->res[i]);
	}
}

/* where the samples go, in order */
struct sink {
	struct mg_writer *wr;
	struct mg_out *out;
	struct mg_value *vals;
	const char *path;
	size_t total, done, all, skipped;
	enum mg_progress progress;
};

static void
write_batch(struct sink *s, struct work *w)
{
	struct mg_diag d = { "" };
	char what[64];
	size_t i, j, f;

	for (i = 0; i < w->nres; i++) {
		struct result *r = &w->res[i];

		if (r->status != 0) {
			mg_writer_free(s->wr);
			mg_out_abort(s->out);
			errx(mg_exit_status(r->status), "'%s': %s", s->path,
			    r->msg);
		}
		for (j = 0; j < r->n; j++) {
			for (f = 0; f < NMETA; f++) {
				s->vals[f].null = 0;
				s->vals[f].i = r->meta[j * NMETA + f];
			}
			for (f = 0; f < w->nfeat; f++) {
				s->vals[NMETA + f].null = 0;
				s->vals[NMETA + f].f = r->feat[j * w->nfeat + f];
			}
			if (mg_writer_put(s->wr, s->vals, &d) != 0) {
				mg_writer_free(s->wr);
				mg_out_abort(s->out);
				errx(MG_EXIT_FAIL, "%s", d.msg);
			}
		}
		s->total += r->n;
		s->skipped += r->skipped;
		free(r->meta);
		free(r->feat);
		r->meta = NULL;
		r->feat = NULL;
	}
	s->done += w->nres;
	snprintf(what, sizeof(what), "episodes, %zu samples", s->total);
	progress_line(s->progress, "mirage-features", s->done, s->all, what);
}

static long
int_arg(const char *name, const char *arg, long min, long max)
{
	int64_t v;

	if (mg_parse_i64(arg, strlen(arg), min, max, &v) != 0)
		errx(MG_EXIT_USAGE, "invalid %s '%s' (want %ld to %ld)", name,
		    arg, min, max);
	return (long)v;
}

/* the schema: metadata, then the features */
static struct mg_field *
make_schema(const struct opts *o, char ***names, size_t *nf)
{
	struct mg_field *f;
	size_t n, k;

	if (mg_episode_feature_names(&o->e, names, &n) != 0 ||
	    (f = calloc(NMETA + n, sizeof(*f))) == NULL)
		err(MG_EXIT_FAIL, NULL);
	for (k = 0; k < NMETA; k++) {
		f[k].name = meta_name[k];
		f[k].type = MG_T_I64;
	}
	for (k = 0; k < n; k++) {
		f[NMETA + k].name = (*names)[k];
		f[NMETA + k].type = MG_T_F64;
	}
	*nf = NMETA + n;
	return f;
}

/* the options into *o and *conf, the output and the input's paths */
static void
parse(int argc, char *argv[], struct opts *o, struct mg_simconf *conf,
    const char **out_path, const char **path)
{
	enum { O_EVERY = 256,
		O_NEAR, O_ATSTART, O_PROGRESS };
	static const struct option longopts[] = {
		{ "at-start", no_argument, NULL, O_ATSTART },
		{ "help", no_argument, NULL, 'h' },
		{ "near-end", required_argument, NULL, O_NEAR },
		{ "output", required_argument, NULL, 'o' },
		{ "probe-every", required_argument, NULL, O_EVERY },
		{ "probes", required_argument, NULL, 'p' },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "threads", required_argument, NULL, 't' },
		{ "version", no_argument, NULL, 'V' },
		CLUSTER_LONGOPTS,
		EPISODE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	char *colon, count[16];
	int ch;

	memset(o, 0, sizeof(*o));
	mg_epsel_init(&o->sel);
	o->probes = 7;
	o->threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
	while ((ch = getopt_long(argc, argv, "ho:p:qt:V"
	    CLUSTER_SHORTOPTS EPISODE_SHORTOPTS, longopts, NULL)) != -1) {
		if (episode_option(&o->sel, ch, optarg) ||
		    cluster_option(conf, ch, optarg))
			continue;
		switch (ch) {
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'o':
			*out_path = optarg;
			break;
		case 'p':
			o->probes = (int)int_arg("probe count", optarg, 0,
			    MAXPROBES / 4);
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 't':
			o->threads = (int)int_arg("thread count", optarg, 1, 256);
			break;
		case 'V':
			printf("mirage-features %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		case O_EVERY:
			o->probe_every = span_arg("probe interval", optarg, 0);
			if (o->probe_every % o->sel.e.period)
				errx(MG_EXIT_USAGE, "--probe-every must be a "
				    "multiple of the decision period (10m)");
			break;
		case O_PROGRESS:
			o->progress = 1;
			break;
		case O_NEAR:
			/* a copy: the stream's header records the argument */
			if ((colon = strchr(optarg, ':')) == NULL ||
			    (size_t)(colon - optarg) >= sizeof(count))
				errx(MG_EXIT_USAGE, "invalid --near-end '%s' "
				    "(want count:span, e.g. 6:2h)", optarg);
			memcpy(count, optarg, (size_t)(colon - optarg));
			count[colon - optarg] = '\0';
			o->near_n = (int)int_arg("near-end count", count, 1,
			    MAXPROBES / 4);
			o->near_span = span_arg("near-end span", colon + 1, 0);
			break;
		case O_ATSTART:
			o->sel.e.at_start = 1;
			break;
		default:
			usage(MG_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if ((*out_path == NULL || strcmp(*out_path, "-") == 0) &&
	    isatty(STDOUT_FILENO))
		errx(MG_EXIT_USAGE, "refusing to write a binary stream to a "
		    "terminal (use -o file or a pipe)");
	if (argc > 1)
		usage(MG_EXIT_USAGE);
	if (argc == 1)
		*path = argv[0];
	if (o->probes == 0 && o->probe_every == 0 && o->near_n == 0)
		errx(MG_EXIT_USAGE, "no probes: give -p, --probe-every or "
		    "--near-end");
}

/*
 * The episodes in batches computed in parallel and written in order:
 * the previous batch is written while the next one is computed.
 */
static void
run(const struct opts *o, const struct work *w, struct sink *sink)
{
	struct work wk[2];
	pthread_t *tid;
	size_t i, j, q, batch, nep = o->sel.n;
	int k;

	batch = (size_t)o->threads * 16;
	for (k = 0; k < 2; k++) {
		wk[k] = *w;
		if ((wk[k].res = calloc(batch, sizeof(*wk[k].res))) == NULL)
			err(MG_EXIT_FAIL, NULL);
		pthread_mutex_init(&wk[k].mu, NULL);
	}
	if ((tid = calloc((size_t)o->threads, sizeof(*tid))) == NULL)
		err(MG_EXIT_FAIL, NULL);
	for (q = 0, k = 0; q < sink->all; q += batch, k ^= 1) {
		struct work *cur = &wk[k];

		cur->nres = sink->all - q < batch ? sink->all - q : batch;
		cur->next = 0;
		for (i = 0; i < cur->nres; i++) {
			size_t e = (q + i) % nep;

			memset(&cur->res[i], 0, sizeof(cur->res[i]));
			cur->res[i].nodes = o->sel.sizes[(q + i) / nep];
			cur->res[i].episode = (long)mg_epsel_index(&o->sel, e);
			cur->res[i].s0 = mg_epsel_start(&o->sel, e);
		}
		for (j = 0; j < (size_t)o->threads; j++)
			if (pthread_create(&tid[j], NULL, worker, cur))
				errx(MG_EXIT_FAIL, "cannot start a thread");
		if (q > 0)
			write_batch(sink, &wk[k ^ 1]);
		for (j = 0; j < (size_t)o->threads; j++)
			pthread_join(tid[j], NULL);
	}
	write_batch(sink, &wk[k ^ 1]);
	for (k = 0; k < 2; k++) {
		pthread_mutex_destroy(&wk[k].mu);
		free(wk[k].res);
	}
	free(tid);
}

int
main(int argc, char *argv[])
{
	const char *out_path = NULL, *path = "-";
	struct mg_diag d = { "" };
	struct mg_simconf *conf;
	struct mg_clusterdef def;
	struct mg_trace t;
	struct mg_schema schema;
	struct mg_writer_opts wo;
	struct mg_writer *wr;
	struct mg_out out;
	struct work w;
	struct sink sink;
	struct opts o;
	size_t nf;
	char args[1024], cluster[512], **names;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	conf = cluster_new();
	parse(argc, argv, &o, conf, &out_path, &path);
	path = trace_open(path, conf, &t, &def, &o.sel);
	o.e = o.sel.e;

	/* the samples stream */
	memset(&w, 0, sizeof(w));
	w.def = &def;
	w.o = &o;
	w.npaper = (size_t)mg_episode_paper_columns(&o.e);
	w.nfeat = MG_OWN + w.npaper;
	schema.type = "samples";
	schema.fields = make_schema(&o, &names, &nf);
	schema.nfields = nf;
	mg_writer_opts_init(&wo);
	mg_cli_args(argc, argv, args, sizeof(args));
	wo.producer = "mirage-features " MG_VERSION;
	wo.args = args;
	mg_clusterdef_describe(&def, cluster, sizeof(cluster));
	wo.cluster = cluster;
	memset(&sink, 0, sizeof(sink));
	if ((sink.vals = calloc(nf, sizeof(*sink.vals))) == NULL)
		err(MG_EXIT_FAIL, NULL);
	if (mg_out_open(&out, out_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (mg_writer_open(out.fp, &schema, &wo, &wr, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
	sink.wr = wr;
	sink.out = &out;
	sink.path = path;
	sink.all = o.sel.n * (size_t)o.sel.nsizes;
	sink.progress = mg_cli_progress(o.quiet, o.progress);
	run(&o, &w, &sink);

	/* committed whole, or not at all */
	if (mg_writer_close(wr, &d) != 0 || mg_out_commit(&out, &d) != 0) {
		mg_out_abort(&out);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
	if (!o.quiet)
		fprintf(stderr, "mirage-features: %zu samples from %zu "
		    "episodes (%s mode, %d nodes, %d threads)%s\n", sink.total,
		    o.sel.n * (size_t)o.sel.nsizes - sink.skipped,
		    mg_simconf_mode(conf) == MG_MODE_REFERENCE ? "reference" :
		    "faithful",
		    def.nodes, o.threads, sink.skipped ? "; skipped those "
		    "without a job in their window" : "");
	mg_names_free(names, nf - NMETA);
	free((void *)schema.fields);
	free(sink.vals);
	mg_clusterdef_release(&def);
	mg_simconf_free(conf);
	mg_trace_release(&t);
	return MG_EXIT_OK;
}
