/*
 * mirage-cat: print any mirage stream as TSV or JSON lines, or describe
 * it.  See mirage-cat(1).
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mirage.h"
#include "base/stats.h"

enum mode { TSV, JSON, STATS, INFO, CORR };

struct stat_col {
	uint64_t n, nulls;
	double sum, min, max;
};

/* the numeric columns of every record, for -c; NaN for null */
struct columns {
	double **v;
	size_t n, cap, nf;
};

static void
col_add(struct columns *c, const struct mg_field *f, const struct mg_value *v)
{
	size_t k;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4096;
		for (k = 0; k < c->nf; k++)
			if (f[k].type != MG_T_STR && (c->v[k] = realloc(c->v[k],
			    c->cap * sizeof(double))) == NULL)
				err(MG_EXIT_FAIL, NULL);
	}
	for (k = 0; k < c->nf; k++)
		if (f[k].type != MG_T_STR)
			c->v[k][c->n] = v[k].null ? NAN : f[k].type == MG_T_I64 ?
			    (double)v[k].i : v[k].f;
	c->n++;
}

struct corr {
	size_t k, n;
	double rho;
};

static int
corr_cmp(const void *a, const void *b)
{
	const struct corr *x = a, *y = b;
	double p = isnan(x->rho) ? -1 : fabs(x->rho);
	double q = isnan(y->rho) ? -1 : fabs(y->rho);

	if (p != q)
		return p > q ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

/* Spearman's rho of every numeric field with field t, strongest first */
static void
correlate(const struct columns *c, const struct mg_field *f, size_t t)
{
	double *x = malloc((c->n ? c->n : 1) * sizeof(*x));
	double *y = malloc((c->n ? c->n : 1) * sizeof(*y));
	struct corr *r = calloc(c->nf, sizeof(*r));
	size_t k, i, m = 0, n;

	if (x == NULL || y == NULL || r == NULL)
		err(MG_EXIT_FAIL, NULL);
	for (k = 0; k < c->nf; k++) {
		if (k == t || f[k].type == MG_T_STR)
			continue;
		for (i = n = 0; i < c->n; i++)
			if (!isnan(c->v[k][i]) && !isnan(c->v[t][i])) {
				x[n] = c->v[k][i];
				y[n++] = c->v[t][i];
			}
		r[m].k = k;
		r[m].n = n;
		r[m++].rho = mg_spearman(x, y, n);
	}
	qsort(r, m, sizeof(*r), corr_cmp);
	printf("field\tpairs\tspearman_with_%s\n", f[t].name);
	for (i = 0; i < m; i++)
		if (isnan(r[i].rho))
			printf("%s\t%zu\t\n", f[r[i].k].name, r[i].n);
		else
			printf("%s\t%zu\t%.4f\n", f[r[i].k].name, r[i].n,
			    r[i].rho);
	free(x);
	free(y);
	free(r);
}

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-cat [-HijsT] [-c field] [-t type] [file ...]\n");
	if (status == 0)
		fputs("options:\n"
		    "  -H                leave out the header line\n"
		    "  -i                print the stream's header, not its records\n"
		    "  -j                one JSON object per record (JSON lines)\n"
		    "  -s                per field: records, nulls, minimum, mean, maximum\n"
		    "  -T                times as ISO 8601 (UTC), not epoch seconds\n"
		    "  -c field          Spearman's correlation of every numeric field with field\n"
		    "  -t type           require streams of record type type\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-cat(1).\n", stdout);
	exit(status);
}

static void
tsv_str(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '\t': fputs("\\t", stdout); break;
		case '\n': fputs("\\n", stdout); break;
		case '\r': fputs("\\r", stdout); break;
		case '\\': fputs("\\\\", stdout); break;
		default: putchar(s[i]);
		}
	}
}

/* the length of the valid UTF-8 sequence at s[0..n), or 0 (overlong
 * forms, surrogates and code points past U+10FFFF are not valid) */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return len;
}

/* s as a JSON string: bytes that are not UTF-8 become U+FFFD, so that
 * every line is valid JSON whatever a dump's names held */
static void
json_str(const char *s, size_t n)
{
	size_t i, k;

	putchar('"');
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch >= 0x80) {
			if ((k = utf8_len((const unsigned char *)s + i,
			    n - i)) == 0)
				fputs("\\ufffd", stdout);
			else
				fwrite(s + i, 1, k, stdout);
			i += k ? k - 1 : 0;
		} else if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", stdout);
		else if (ch == '\t')
			fputs("\\t", stdout);
		else if (ch < 0x20 || ch == 0x7f)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static int
is_time(const char *name)
{
	static const char *const names[] = { "submit", "eligible", "start",
	    "end", "t", "ep_start", "ep_end", "p_submit", "p_start", "p_end",
	    NULL };
	size_t i, n = strlen(name);

	for (i = 0; names[i]; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return n > 5 && strcmp(name + n - 5, "_time") == 0;
}

static void
value(const struct mg_field *f, const struct mg_value *v, enum mode m,
    int iso)
{
	char buf[40];

	if (v->null) {
		if (m == JSON)
			fputs("null", stdout);
		return;
	}
	switch (f->type) {
	case MG_T_I64:
		if (iso && is_time(f->name)) {
			mg_format_time(v->i, buf, sizeof(buf));
			printf(m == JSON ? "\"%s\"" : "%s", buf);
		} else {
			printf("%lld", (long long)v->i);
		}
		break;
	case MG_T_F64:
		if (isfinite(v->f))
			printf("%.17g", v->f);
		else if (m == JSON)
			fputs("null", stdout);
		else
			printf("%s", isnan(v->f) ? "nan" : v->f > 0 ? "inf" :
			    "-inf");
		break;
	case MG_T_STR:
		if (m == JSON)
			json_str(v->s, v->len);
		else
			tsv_str(v->s, v->len);
		break;
	}
}

static void
info(const char *name, const struct mg_stream_info *si)
{
	size_t i;

	printf("file\t%s\nrecord_type\t%s\nversion\t%u.%u\nproducer\t%s\n"
	    "args\t%s\nseed\t%llu\ntz\t%s\ncluster\t%s\nfields\t%zu\n",
	    name, si->schema.type, si->major, si->minor, si->producer,
	    si->args, (unsigned long long)si->seed, *si->tz ? si->tz : "-",
	    *si->cluster ? si->cluster : "-", si->schema.nfields);
	for (i = 0; i < si->schema.nfields; i++)
		printf("field\t%s\t%s\n", si->schema.fields[i].name,
		    mg_type_name(si->schema.fields[i].type));
}

/* the command line */
struct copts {
	enum mode m;
	const char *type, *target;	/* -t, -c */
	int header, iso;
};

/* what the inputs so far have given */
struct cat {
	struct mg_reader *first;	/* kept open: owns the schema */
	struct stat_col *st;
	struct columns cols;
	int tk;				/* -c's field */
	size_t nf;
};

static void
parse(int argc, char *argv[], struct copts *o)
{
	static const struct option longopts[] = {
		{ "correlate", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "info", no_argument, NULL, 'i' },
		{ "iso-time", no_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-header", no_argument, NULL, 'H' },
		{ "stats", no_argument, NULL, 's' },
		{ "type", required_argument, NULL, 't' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	memset(o, 0, sizeof(*o));
	o->m = TSV;
	o->header = 1;
	while ((ch = getopt_long(argc, argv, "c:HhijsTt:V", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'V':
			printf("mirage-cat %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		case 'c':
			o->m = CORR;
			o->target = optarg;
			break;
		case 'H':
			o->header = 0;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'i':
			o->m = INFO;
			break;
		case 'j':
			o->m = JSON;
			break;
		case 's':
			o->m = STATS;
			break;
		case 'T':
			o->iso = 1;
			break;
		case 't':
			o->type = optarg;
			break;
		default:
			usage(MG_EXIT_USAGE);
		}
	}
}

/* one record: into the statistics, or printed as TSV or JSON */
static void
put_record(const struct copts *o, struct cat *c, const struct mg_field *f,
    const struct mg_value *v)
{
	size_t k;

	for (k = 0; k < c->nf; k++) {
		if (o->m == STATS) {
			struct stat_col *s = &c->st[k];
			double x;

			s->n++;
			if (v[k].null) {
				s->nulls++;
				continue;
			}
			x = f[k].type == MG_T_I64 ? (double)v[k].i :
			    f[k].type == MG_T_F64 ? v[k].f : (double)v[k].len;
			if (s->n - s->nulls == 1 || x < s->min)
				s->min = x;
			if (s->n - s->nulls == 1 || x > s->max)
				s->max = x;
			s->sum += x;
			continue;
		}
		if (o->m == JSON) {
			printf(k ? "," : "{");
			json_str(f[k].name, strlen(f[k].name));
			putchar(':');
		} else if (k) {
			putchar('\t');
		}
		value(&f[k], &v[k], o->m, o->iso);
	}
	if (o->m == JSON)
		puts("}");
	else if (o->m == TSV)
		putchar('\n');
}

/* -s: a line per field */
static void
print_stats(const struct cat *c, const struct mg_field *f)
{
	size_t k;

	printf("field\ttype\trecords\tnulls\tmin\tmean\tmax\n");
	for (k = 0; k < c->nf; k++) {
		const struct stat_col *s = &c->st[k];
		uint64_t nn = s->n - s->nulls;

		printf("%s\t%s\t%llu\t%llu\t", f[k].name,
		    f[k].type == MG_T_STR ? "str(len)" :
		    mg_type_name(f[k].type), (unsigned long long)s->n,
		    (unsigned long long)s->nulls);
		if (nn)
			printf("%.10g\t%.10g\t%.10g\n", s->min,
			    s->sum / (double)nn, s->max);
		else
			printf("\t\t\n");
	}
}

/* one input, the last if last; 0 or a status (said on stderr) */
static int
cat_one(const struct copts *o, struct cat *c, const char *path, int last)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	const struct mg_stream_info *si;
	const struct mg_field *f;
	const struct mg_value *v;
	struct mg_reader *r;
	struct mg_diag d = { "" };
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t k;
	int rv;

	if (fp == NULL)
		err(MG_EXIT_FAIL, "cannot open '%s'", path);
	if ((rv = mg_reader_open(fp, name, o->type, &r, &d)) != 0) {
		warnx("'%s': %s", name, d.msg);
		return rv;
	}
	si = mg_reader_info(r);
	f = si->schema.fields;
	if (c->first == NULL) {
		c->nf = si->schema.nfields;
		c->st = calloc(c->nf, sizeof(*c->st));
		c->cols.nf = c->nf;
		c->cols.v = calloc(c->nf, sizeof(*c->cols.v));
		if (c->st == NULL || c->cols.v == NULL)
			err(MG_EXIT_FAIL, NULL);
		if (o->m == CORR && ((c->tk = mg_schema_field(&si->schema,
		    o->target)) < 0 || f[c->tk].type == MG_T_STR))
			errx(MG_EXIT_USAGE, "'%s': no numeric field '%s'",
			    name, o->target);
		if (o->m == TSV && o->header)
			for (k = 0; k < c->nf; k++)
				printf("%s%s", f[k].name, k + 1 < c->nf ?
				    "\t" : "\n");
	} else if (o->m != INFO && !mg_schema_equal(&si->schema,
	    &mg_reader_info(c->first)->schema)) {
		warnx("'%s': holds '%s' records of another schema than the "
		    "first input ('%s')", name, si->schema.type,
		    mg_reader_info(c->first)->schema.type);
		mg_reader_free(r);
		return MG_ETYPE;
	}
	if (o->m == INFO)
		info(name, si);	/* read to the end: a broken stream fails */
	while ((rv = mg_reader_next(r, &v, &d)) == 1)
		if (o->m == CORR)
			col_add(&c->cols, f, v);
		else if (o->m != INFO)
			put_record(o, c, f, v);
	if (rv < 0)
		warnx("'%s': %s", name, d.msg);
	else
		rv = 0;
	if (o->m == STATS && rv == 0 && last)
		print_stats(c, f);
	if (o->m == CORR && rv == 0 && last)
		correlate(&c->cols, f, (size_t)c->tk);
	if (c->first == NULL)
		c->first = r;
	else
		mg_reader_free(r);
	if (fp != stdin)
		fclose(fp);
	return rv;
}

int
main(int argc, char *argv[])
{
	struct copts o;
	struct cat c = { NULL, NULL, { NULL, 0, 0, 0 }, -1, 0 };
	int i, n, rv = 0;
	size_t k;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	parse(argc, argv, &o);
	argc -= optind;
	argv += optind;
	n = argc ? argc : 1;
	for (i = 0; i < n && rv == 0; i++)
		rv = cat_one(&o, &c, argc ? argv[i] : "-", i + 1 == n);
	mg_reader_free(c.first);
	free(c.st);
	for (k = 0; k < c.cols.nf; k++)
		free(c.cols.v[k]);
	free(c.cols.v);
	if (rv == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
		warn("write error");
		return MG_EXIT_FAIL;
	}
	return mg_exit_status(rv);
}
