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

int
main(int argc, char *argv[])
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
	const char *train_path = NULL, *valid_path = NULL, *path = "-";
	const char *name;
	struct mg_diag d = { "" };
	struct mg_reader *r;
	struct mg_writer *w[2] = { NULL, NULL };
	struct mg_writer_opts wo;
	struct mg_out out[2];
	const struct mg_stream_info *info;
	const struct mg_value *v;
	struct span *sp = NULL;
	size_t nsp = 0, capsp = 0, i, neps;
	int64_t boundary = 0, vlo = 0, vhi = 0, date = 0, tmp;
	uint64_t nsamp[3] = { 0, 0, 0 };
	size_t neps_to[3] = { 0, 0, 0 };
	int64_t lo[3], hi[3];
	int ch, rv, crossing = CROSS_DROP, by = 0, folds = 0, fold = -1;
	int forward = 0, quiet = 0, ks, ke, kn, s;
	double frac = 0;
	char args[1024];
	FILE *fp;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	while ((ch = getopt_long(argc, argv, "d:F:hK:k:qt:v:V", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd':
			if (mg_parse_date(optarg, MG_TZ_UTC, &date) != 0)
				errx(MG_EXIT_USAGE, "invalid date '%s'", optarg);
			by |= 1;
			break;
		case 'F':
			if (mg_parse_f64(optarg, strlen(optarg), &frac) != 0 ||
			    !(frac > 0 && frac < 1))
				errx(MG_EXIT_USAGE, "invalid fraction '%s' (want "
				    "a number between 0 and 1)", optarg);
			by |= 2;
			break;
		case 'K':
			if (mg_parse_i64(optarg, strlen(optarg), 2, 1000,
			    &tmp) != 0)
				errx(MG_EXIT_USAGE, "invalid fold count '%s'",
				    optarg);
			folds = (int)tmp;
			by |= 4;
			break;
		case 'k':
			if (mg_parse_i64(optarg, strlen(optarg), 0, 999,
			    &tmp) != 0)
				errx(MG_EXIT_USAGE, "invalid fold '%s'", optarg);
			fold = (int)tmp;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'q':
			quiet = 1;
			break;
		case 't':
			train_path = optarg;
			break;
		case 'v':
			valid_path = optarg;
			break;
		case 'V':
			printf("mirage-split %s\n", MG_VERSION);
			return MG_EXIT_OK;
		case O_CROSSING:
			if (strcmp(optarg, "drop") == 0)
				crossing = CROSS_DROP;
			else if (strcmp(optarg, "train") == 0)
				crossing = CROSS_TRAIN;
			else if (strcmp(optarg, "valid") == 0)
				crossing = CROSS_VALID;
			else
				errx(MG_EXIT_USAGE, "invalid --crossing '%s' "
				    "(want drop, train or valid)", optarg);
			break;
		case O_FORWARD:
			forward = 1;
			break;
		default:
			usage(MG_EXIT_USAGE);
		}
	}
	if (argc - optind > 1)
		errx(MG_EXIT_USAGE, "one input at most (try --help)");
	if (train_path == NULL || valid_path == NULL)
		errx(MG_EXIT_USAGE, "-t train.mrs and -v valid.mrs are needed "
		    "(try --help)");
	if (by != 1 && by != 2 && by != 4)
		errx(MG_EXIT_USAGE, "give exactly one of -d, -F and -K");
	if (by == 4 && (fold < 0 || fold >= folds))
		errx(MG_EXIT_USAGE, "-K %d needs -k between 0 and %d", folds,
		    folds - 1);
	if (by != 4 && (fold >= 0 || forward))
		errx(MG_EXIT_USAGE, "-k and --forward go with -K");
	if (optind < argc)
		path = argv[optind];
	if ((strcmp(train_path, "-") == 0 || strcmp(valid_path, "-") == 0) &&
	    isatty(STDOUT_FILENO))
		errx(MG_EXIT_USAGE, "refusing to write a binary stream to a "
		    "terminal (use a file or a pipe)");
	name = strcmp(path, "-") ? path : "<stdin>";

	/* two passes: standard input is spooled to a temporary file */
	if (strcmp(path, "-") == 0) {
		char buf[65536];
		size_t n;

		if ((fp = tmpfile()) == NULL)
			err(MG_EXIT_FAIL, "temporary file");
		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
			if (fwrite(buf, 1, n, fp) != n)
				err(MG_EXIT_FAIL, "temporary file");
		if (ferror(stdin))
			err(MG_EXIT_FAIL, "<stdin>");
		rewind(fp);
	} else if ((fp = fopen(path, "rb")) == NULL) {
		err(MG_EXIT_FAIL, "cannot open '%s'", path);
	}

	/* pass 1: the episodes' spans */
	r = open_samples(fp, name);
	info = mg_reader_info(r);
	ks = field(&info->schema, "ep_start", name);
	ke = field(&info->schema, "ep_end", name);
	kn = field(&info->schema, "nodes", name);
	while ((rv = mg_reader_next(r, &v, &d)) == 1) {
		if (v[ks].null || v[ke].null || v[kn].null)
			errx(MG_EXIT_FAIL, "'%s': record %llu: no episode span",
			    name, (unsigned long long)mg_reader_count(r));
		if (nsp > 0 && sp[nsp - 1].start == v[ks].i &&
		    sp[nsp - 1].end == v[ke].i)
			continue;
		if (nsp == capsp) {
			capsp = capsp ? 2 * capsp : 1024;
			if ((sp = realloc(sp, capsp * sizeof(*sp))) == NULL)
				err(MG_EXIT_FAIL, NULL);
		}
		sp[nsp].start = v[ks].i;
		sp[nsp++].end = v[ke].i;
	}
	if (rv < 0)
		errx(mg_exit_status(rv), "'%s': %s", name, d.msg);
	mg_reader_free(r);
	if (nsp == 0)
		errx(MG_EXIT_FAIL, "'%s': no samples", name);
	qsort(sp, nsp, sizeof(*sp), span_cmp);
	/* distinct episode starts (chain sizes share their windows) */
	for (i = neps = 0; i < nsp; i++)
		if (neps == 0 || sp[neps - 1].start != sp[i].start)
			sp[neps++] = sp[i];
		else if (sp[i].end > sp[neps - 1].end)
			sp[neps - 1].end = sp[i].end;

	/* the validation period [vlo, vhi) and its information horizon */
	if (by == 1) {
		vlo = date;
		vhi = INT64_MAX;
	} else if (by == 2) {
		i = (size_t)((double)neps * frac + 0.5);
		if (i == 0 || i >= neps)
			errx(MG_EXIT_USAGE, "a fraction of %g leaves a side "
			    "without episodes (%zu in all)", frac, neps);
		vlo = sp[i].start;
		vhi = INT64_MAX;
	} else {
		size_t a = neps * (size_t)fold / (size_t)folds;
		size_t b = neps * (size_t)(fold + 1) / (size_t)folds;

		if (a == b)
			errx(MG_EXIT_USAGE, "%zu episodes do not make %d "
			    "folds", neps, folds);
		vlo = sp[a].start;
		vhi = b < neps ? sp[b].start : INT64_MAX;
	}
	/* training after the validation block must not see into it */
	boundary = vlo;
	for (i = 0; i < neps; i++)
		if (sp[i].start >= vlo && sp[i].start < vhi &&
		    sp[i].end > boundary)
			boundary = sp[i].end;

	/* pass 2: route each sample by its episode's span */
	rewind(fp);
	r = open_samples(fp, name);
	info = mg_reader_info(r);
	mg_writer_opts_init(&wo);
	mg_cli_args(argc, argv, args, sizeof(args));
	wo.producer = "mirage-split " MG_VERSION;
	wo.args = args;
	wo.seed = info->seed;
	if (mg_out_open(&out[0], train_path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	if (mg_out_open(&out[1], valid_path, &d) != 0) {
		mg_out_abort(&out[0]);
		errx(MG_EXIT_FAIL, "%s", d.msg);
	}
	for (s = 0; s < 2; s++)
		if (mg_writer_open(out[s].fp, &info->schema, &wo, &w[s],
		    &d) != 0)
			goto fail;
	for (s = 0; s < 3; s++) {
		lo[s] = INT64_MAX;
		hi[s] = INT64_MIN;
	}
	{
		int64_t last_start = INT64_MIN;
		int last_to = -1;

		while ((rv = mg_reader_next(r, &v, &d)) == 1) {
			int64_t st = v[ks].i, en = v[ke].i;
			int to;

			if (st >= vlo && st < vhi)
				to = TO_VALID;
			else if (en <= vlo)
				to = TO_TRAIN;
			else if (!forward && st >= boundary)
				to = TO_TRAIN;
			else if (st < vlo && crossing == CROSS_TRAIN)
				to = TO_TRAIN;
			else if (st < vlo && crossing == CROSS_VALID)
				to = TO_VALID;
			else
				to = TO_DROP;
			if (st != last_start || to != last_to)
				neps_to[to]++;
			last_start = st;
			last_to = to;
			nsamp[to]++;
			if (st < lo[to])
				lo[to] = st;
			if (st > hi[to])
				hi[to] = st;
			if (to != TO_DROP && mg_writer_put(w[to == TO_VALID],
			    v, &d) != 0)
				goto fail;
		}
		if (rv < 0) {
			mg_diag_prefix(&d, "'%s'", name);
			goto fail;
		}
	}
	mg_reader_free(r);
	fclose(fp);
	for (s = 0; s < 2; s++) {
		rv = mg_writer_close(w[s], &d);
		w[s] = NULL;
		if (rv != 0)
			goto fail;
	}
	if (mg_out_commit(&out[0], &d) != 0 || mg_out_commit(&out[1], &d) != 0)
		goto fail;
	if (!quiet) {
		static const char *const what[3] = { "dropped", "training",
		    "validation" };
		char a[32], b[32];

		for (s = 1; s < 4; s++) {
			int k = s % 3;

			if (nsamp[k] == 0) {
				fprintf(stderr, "mirage-split: %-10s %6d samples\n",
				    what[k], 0);
				continue;
			}
			mg_format_time(lo[k], a, sizeof(a));
			mg_format_time(hi[k], b, sizeof(b));
			fprintf(stderr, "mirage-split: %-10s %6llu samples, "
			    "%5zu episodes, starts %s .. %s\n", what[k],
			    (unsigned long long)nsamp[k], neps_to[k], a, b);
		}
	}
	free(sp);
	return MG_EXIT_OK;
fail:
	for (s = 0; s < 2; s++)
		if (w[s])
			mg_writer_free(w[s]);
	mg_out_abort(&out[0]);
	mg_out_abort(&out[1]);
	errx(rv < 0 ? mg_exit_status(rv) : MG_EXIT_FAIL, "%s", d.msg);
}
