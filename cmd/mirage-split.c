/*
 * mirage-split: split a samples stream chronologically into a training
 * and a validation stream (by date, by fraction, or as one of k
 * time-blocked folds) so that no training sample depends on anything
 * the validation period holds.  See mirage-split(1).
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mirage.h"

enum { CROSS_DROP, CROSS_TRAIN, CROSS_VALID };
enum { TO_DROP, TO_TRAIN, TO_VALID };

struct span {
	int64_t start, end;
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-split [-q] (-d date | -F fraction | -K folds -k fold "
	    "[--forward])\n"
	    "                    [--crossing drop|train|valid] -t train.mrs "
	    "-v valid.mrs [file]\n");
	if (status == 0)
		fputs("options:\n"
		    "  -d date           validation: episodes starting at or after date\n"
		    "  -F fraction       the same, the boundary after that share of the starts\n"
		    "  -K folds -k fold  time-blocked folds: block fold is validation\n"
		    "  --forward         with -K: train only on the blocks before it\n"
		    "  --crossing m      episodes that cross the boundary: drop (default),\n"
		    "                    train or valid\n"
		    "  -t train.mrs, -v valid.mrs  the two outputs (both needed)\n"
		    "  -q                no summary on standard error\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-split(1).\n", stdout);
	exit(status);
}

static int
span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	return (x->end > y->end) - (x->end < y->end);
}

/* a field of the samples schema, or exit */
static int
field(const struct mg_schema *s, const char *name, const char *path)
{
	int k = mg_schema_field(s, name);

	if (k < 0 || s->fields[k].type != MG_T_I64)
		errx(MG_EXIT_TYPE, "'%s': the samples have no integer field "
		    "'%s'", path, name);
	return k;
}

/* open path (a copy of standard input if "-") as a samples stream */
static struct mg_reader *
open_samples(FILE *fp, const char *path)
{
	struct mg_diag d = { "" };
	struct mg_reader *r;
	int rv;

	if ((rv = mg_reader_open(fp, path, "samples", &r, &d)) != 0)
		errx(mg_exit_status(rv), "'%s': %s", path, d.msg);
	return r;
}

/* the command line */
struct sopts {
	const char *train_path, *valid_path, *path;
	int64_t date;		/* -d */
	double frac;		/* -F */
	int folds, fold;	/* -K, -k */
	int by;			/* 1 -d, 2 -F, 4 -K */
	int crossing, forward, quiet;
	char args[1024];
};

/* what went where: dropped, training, validation */
struct tally {
	uint64_t nsamp[3];
	size_t neps[3];
	int64_t lo[3], hi[3];	/* their episodes' starts */
};

static void
parse(int argc, char *argv[], struct sopts *o)
{
	enum { O_CROSSING = 256, O_FORWARD };
	static const struct option longopts[] = {
		{ "crossing", required_argument, NULL, O_CROSSING },
		{ "date", required_argument, NULL, 'd' },
		{ "fold", required_argument, NULL, 'k' },
		{ "folds", required_argument, NULL, 'K' },
		{ "forward", no_argument, NULL, O_FORWARD },
		{ "fraction", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "train", required_argument, NULL, 't' },
		{ "valid", required_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int64_t tmp;
	int ch;

	memset(o, 0, sizeof(*o));
	o->path = "-";
	o->crossing = CROSS_DROP;
	o->fold = -1;
	mg_cli_args(argc, argv, o->args, sizeof(o->args));
	while ((ch = getopt_long(argc, argv, "d:F:hK:k:qt:v:V", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd':
			if (mg_parse_date(optarg, MG_TZ_UTC, &o->date) != 0)
				errx(MG_EXIT_USAGE, "invalid date '%s'", optarg);
			o->by |= 1;
			break;
		case 'F':
			if (mg_parse_f64(optarg, strlen(optarg), &o->frac) !=
			    0 || !(o->frac > 0 && o->frac < 1))
				errx(MG_EXIT_USAGE, "invalid fraction '%s' (want "
				    "a number between 0 and 1)", optarg);
			o->by |= 2;
			break;
		case 'K':
			if (mg_parse_i64(optarg, strlen(optarg), 2, 1000,
			    &tmp) != 0)
				errx(MG_EXIT_USAGE, "invalid fold count '%s'",
				    optarg);
			o->folds = (int)tmp;
			o->by |= 4;
			break;
		case 'k':
			if (mg_parse_i64(optarg, strlen(optarg), 0, 999,
			    &tmp) != 0)
				errx(MG_EXIT_USAGE, "invalid fold '%s'", optarg);
			o->fold = (int)tmp;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 't':
			o->train_path = optarg;
			break;
		case 'v':
			o->valid_path = optarg;
			break;
		case 'V':
			printf("mirage-split %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		case O_CROSSING:
			if (strcmp(optarg, "drop") == 0)
				o->crossing = CROSS_DROP;
			else if (strcmp(optarg, "train") == 0)
				o->crossing = CROSS_TRAIN;
			else if (strcmp(optarg, "valid") == 0)
				o->crossing = CROSS_VALID;
			else
				errx(MG_EXIT_USAGE, "invalid --crossing '%s' "
				    "(want drop, train or valid)", optarg);
			break;
		case O_FORWARD:
			o->forward = 1;
			break;
		default:
			usage(MG_EXIT_USAGE);
		}
	}
	if (argc - optind > 1)
		errx(MG_EXIT_USAGE, "one input at most (try --help)");
	if (optind < argc)
		o->path = argv[optind];
}

static void
validate(const struct sopts *o)
{
	if (o->train_path == NULL || o->valid_path == NULL)
		errx(MG_EXIT_USAGE, "-t train.mrs and -v valid.mrs are needed "
		    "(try --help)");
	if (o->by != 1 && o->by != 2 && o->by != 4)
		errx(MG_EXIT_USAGE, "give exactly one of -d, -F and -K");
	if (o->by == 4 && (o->fold < 0 || o->fold >= o->folds))
		errx(MG_EXIT_USAGE, "-K %d needs -k between 0 and %d",
		    o->folds, o->folds - 1);
	if (o->by != 4 && (o->fold >= 0 || o->forward))
		errx(MG_EXIT_USAGE, "-k and --forward go with -K");
	if ((strcmp(o->train_path, "-") == 0 || strcmp(o->valid_path,
	    "-") == 0) && isatty(STDOUT_FILENO))
		errx(MG_EXIT_USAGE, "refusing to write a binary stream to a "
		    "terminal (use a file or a pipe)");
}

/* the input, read twice: standard input is spooled to a temporary file */
static FILE *
open_input(const char *path)
{
	char buf[65536];
	size_t n;
	FILE *fp;

	if (strcmp(path, "-") != 0) {
		if ((fp = fopen(path, "rb")) == NULL)
			err(MG_EXIT_FAIL, "cannot open '%s'", path);
		return fp;
	}
	if ((fp = tmpfile()) == NULL)
		err(MG_EXIT_FAIL, "temporary file");
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		if (fwrite(buf, 1, n, fp) != n)
			err(MG_EXIT_FAIL, "temporary file");
	if (ferror(stdin))
		err(MG_EXIT_FAIL, "<stdin>");
	rewind(fp);
	return fp;
}

/* pass 1: the distinct episodes' spans, by start, into *sp; their count */
static size_t
spans(FILE *fp, const char *name, struct span **sp)
{
	struct mg_diag d = { "" };
	const struct mg_stream_info *info;
	const struct mg_value *v;
	struct mg_reader *r = open_samples(fp, name);
	size_t nsp = 0, capsp = 0, i, neps;
	int ks, ke, kn, rv;

	info = mg_reader_info(r);
	ks = field(&info->schema, "ep_start", name);
	ke = field(&info->schema, "ep_end", name);
	kn = field(&info->schema, "nodes", name);
	*sp = NULL;
	while ((rv = mg_reader_next(r, &v, &d)) == 1) {
		if (v[ks].null || v[ke].null || v[kn].null)
			errx(MG_EXIT_FAIL, "'%s': record %llu: no episode span",
			    name, (unsigned long long)mg_reader_count(r));
		if (nsp > 0 && (*sp)[nsp - 1].start == v[ks].i &&
		    (*sp)[nsp - 1].end == v[ke].i)
			continue;
		if (nsp == capsp) {
			capsp = capsp ? 2 * capsp : 1024;
			if ((*sp = realloc(*sp, capsp * sizeof(**sp))) == NULL)
				err(MG_EXIT_FAIL, NULL);
		}
		(*sp)[nsp].start = v[ks].i;
		(*sp)[nsp++].end = v[ke].i;
	}
	if (rv < 0)
		errx(mg_exit_status(rv), "'%s': %s", name, d.msg);
	mg_reader_free(r);
	if (nsp == 0)
		errx(MG_EXIT_FAIL, "'%s': no samples", name);
	qsort(*sp, nsp, sizeof(**sp), span_cmp);
	/* distinct episode starts (chain sizes share their windows) */
	for (i = neps = 0; i < nsp; i++)
		if (neps == 0 || (*sp)[neps - 1].start != (*sp)[i].start)
			(*sp)[neps++] = (*sp)[i];
		else if ((*sp)[i].end > (*sp)[neps - 1].end)
			(*sp)[neps - 1].end = (*sp)[i].end;
	return neps;
}

/*
 * The validation period [*vlo, *vhi), and *boundary, its information
 * horizon: training after the validation block must not see into it.
 */
static void
period(const struct sopts *o, const struct span *sp, size_t neps,
    int64_t *vlo, int64_t *vhi, int64_t *boundary)
{
	size_t i;

	if (o->by == 1) {
		*vlo = o->date;
		*vhi = INT64_MAX;
	} else if (o->by == 2) {
		i = (size_t)((double)neps * o->frac + 0.5);
		if (i == 0 || i >= neps)
			errx(MG_EXIT_USAGE, "a fraction of %g leaves a side "
			    "without episodes (%zu in all)", o->frac, neps);
		*vlo = sp[i].start;
		*vhi = INT64_MAX;
	} else {
		size_t a = neps * (size_t)o->fold / (size_t)o->folds;
		size_t b = neps * (size_t)(o->fold + 1) / (size_t)o->folds;

		if (a == b)
			errx(MG_EXIT_USAGE, "%zu episodes do not make %d "
			    "folds", neps, o->folds);
		*vlo = sp[a].start;
		*vhi = b < neps ? sp[b].start : INT64_MAX;
	}
	*boundary = *vlo;
	for (i = 0; i < neps; i++)
		if (sp[i].start >= *vlo && sp[i].start < *vhi &&
		    sp[i].end > *boundary)
			*boundary = sp[i].end;
}

/* where a sample of an episode from st to en goes */
static int
route(const struct sopts *o, int64_t st, int64_t en, int64_t vlo,
    int64_t vhi, int64_t boundary)
{
	if (st >= vlo && st < vhi)
		return TO_VALID;
	if (en <= vlo)
		return TO_TRAIN;
	if (!o->forward && st >= boundary)
		return TO_TRAIN;
	if (st < vlo && o->crossing == CROSS_TRAIN)
		return TO_TRAIN;
	if (st < vlo && o->crossing == CROSS_VALID)
		return TO_VALID;
	return TO_DROP;
}

/* pass 2: each sample to its stream; both committed, or neither */
static void
split(const struct sopts *o, FILE *fp, const char *name, int64_t vlo,
    int64_t vhi, int64_t boundary, struct tally *t)
{
	struct mg_diag d = { "" };
	struct mg_reader *r = open_samples(fp, name);
	const struct mg_stream_info *info = mg_reader_info(r);
	struct mg_writer *w[2] = { NULL, NULL };
	struct mg_writer_opts wo;
	struct mg_out out[2];
	const struct mg_value *v;
	int64_t last_start = INT64_MIN;
	int ks, ke, s, to, last_to = -1, rv = 0;

	ks = field(&info->schema, "ep_start", name);
	ke = field(&info->schema, "ep_end", name);
	mg_writer_opts_init(&wo);
	wo.producer = "mirage-split " MG_VERSION;
	wo.args = o->args;
	wo.seed = info->seed;
	/* the samples' provenance goes with them: a model trained on
	 * either part knows its cluster (mirage-train -i, mirage-advise) */
	wo.tz = *info->tz ? info->tz : NULL;
	wo.cluster = *info->cluster ? info->cluster : NULL;
	if (mg_out_open(&out[0], o->train_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (mg_out_open(&out[1], o->valid_path, &d) != 0) {
		mg_out_abort(&out[0]);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
	for (s = 0; s < 2; s++)
		if (mg_writer_open(out[s].fp, &info->schema, &wo, &w[s],
		    &d) != 0)
			goto fail;
	memset(t, 0, sizeof(*t));
	for (s = 0; s < 3; s++) {
		t->lo[s] = INT64_MAX;
		t->hi[s] = INT64_MIN;
	}
	while ((rv = mg_reader_next(r, &v, &d)) == 1) {
		int64_t st = v[ks].i;

		to = route(o, st, v[ke].i, vlo, vhi, boundary);
		if (st != last_start || to != last_to)
			t->neps[to]++;
		last_start = st;
		last_to = to;
		t->nsamp[to]++;
		if (st < t->lo[to])
			t->lo[to] = st;
		if (st > t->hi[to])
			t->hi[to] = st;
		if (to != TO_DROP && mg_writer_put(w[to == TO_VALID], v,
		    &d) != 0)
			goto fail;
	}
	if (rv < 0) {
		mg_diag_prefix(&d, "'%s'", name);
		goto fail;
	}
	mg_reader_free(r);
	for (s = 0; s < 2; s++) {
		rv = mg_writer_close(w[s], &d);
		w[s] = NULL;
		if (rv != 0)
			goto fail;
	}
	if (mg_out_commit(&out[0], &d) != 0 || mg_out_commit(&out[1], &d) != 0)
		goto fail;
	return;
fail:
	for (s = 0; s < 2; s++)
		if (w[s])
			mg_writer_free(w[s]);
	mg_out_abort(&out[0]);
	mg_out_abort(&out[1]);
	errx(rv < 0 ? mg_exit_status(rv) : MG_EXIT_FAIL, "%s", d.msg);
}

/* what went where, on standard error */
static void
summary(const struct tally *t)
{
	static const char *const what[3] = { "dropped", "training",
	    "validation" };
	char a[32], b[32];
	int s, k;

	for (s = 1; s < 4; s++) {
		k = s % 3;
		if (t->nsamp[k] == 0) {
			fprintf(stderr, "mirage-split: %-10s %6d samples\n",
			    what[k], 0);
			continue;
		}
		mg_format_time(t->lo[k], a, sizeof(a));
		mg_format_time(t->hi[k], b, sizeof(b));
		fprintf(stderr, "mirage-split: %-10s %6llu samples, %5zu "
		    "episodes, starts %s .. %s\n", what[k],
		    (unsigned long long)t->nsamp[k], t->neps[k], a, b);
	}
}

int
main(int argc, char *argv[])
{
	struct sopts o;
	struct span *sp;
	struct tally t;
	int64_t vlo, vhi, boundary;
	const char *name;
	size_t neps;
	FILE *fp;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	parse(argc, argv, &o);
	validate(&o);
	name = strcmp(o.path, "-") ? o.path : "<stdin>";
	fp = open_input(o.path);
	neps = spans(fp, name, &sp);
	period(&o, sp, neps, &vlo, &vhi, &boundary);
	rewind(fp);
	split(&o, fp, name, vlo, vhi, boundary, &t);
	fclose(fp);
	if (!o.quiet)
		summary(&t);
	free(sp);
	return MG_EXIT_OK;
}
