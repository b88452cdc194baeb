/*
 * mirage-parse: Slurm accounting dumps into a jobs stream.
 * See mirage-parse(1).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mirage.h"
#include "base/mem.h"
#include "io/dedup.h"

#define MAX_SHOWN 20		/* row warnings printed per input */

struct list {
	char **item;
	size_t n;
};

struct ctx {
	const char *name;	/* current entry */
	int strict, quiet;
	struct list parts, states;
	int64_t since, until;	/* submit window, [since, until) */
	int keep_dups;
	struct mg_writer *w;
	/*
	 * the last-wins rule: the stream is written as if no JobID came
	 * again, to a temporary file (opt), and the later records of a
	 * JobID are kept aside (dd) to take the first's place when it is
	 * copied out
	 */
	FILE *opt;
	char *optbuf;		/* opt in memory, without a temporary file */
	size_t optlen;
	int spill_fd;		/* dd's temporary file, or -1 */
	struct mg_dedup *dd;	/* the later records of each JobID */
	/* counts for the current input and in all */
	uint64_t jobs, repaired, bad, filtered, dups, shown;
	uint64_t total_jobs, total_bad, total_dups;
	struct mg_diag diag;
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-parse [-fqs] [-d delim] [-E until] [-F format] "
	    "[-k fields]\n"
	    "                    [-l level] [-o file] [-p partitions] [-S since] "
	    "[-t states] [-z tz]\n"
	    "                    [--duplicates last|keep] "
	    "[--swf-cpus-per-node n] [file ...]\n");
	if (status == 0)
		fputs("options:\n"
		    "  -d delim          the delimiter of a delimited dump ('|')\n"
		    "  -E until          keep jobs submitted before until (date, time or epoch s)\n"
		    "  -F format         auto (default), delimited, fixed, swf, json or yaml\n"
		    "  -f                write the binary stream even to a terminal\n"
		    "  -k fields         the field names of a dump without a header (sacct -n)\n"
		    "  -l level          zlib level of the stream, 0 to 9 (1)\n"
		    "  -o file           write to file, whole or not at all (default: stdout)\n"
		    "  -p partitions     keep these comma-separated partitions only\n"
		    "  -q                no summary, no notes about repaired rows\n"
		    "  -S since          keep jobs submitted at or after since\n"
		    "  -s                make every bad or repaired row fatal\n"
		    "  -t states         keep these comma-separated states only\n"
		    "  -z tz             the dump's time zone: a tz name, UTC or local (default)\n"
		    "  --duplicates m    a JobID seen again: last (default) or keep\n"
		    "  --swf-cpus-per-node n  processors per node of an SWF trace (1)\n"
		    "  -h, --help        this help;  --version  the version\n"
		    "See mirage-parse(1).\n", stdout);
	exit(status);
}

static void
split_list(struct list *l, char *s)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",",
	    &save)) {
		if ((l->item = realloc(l->item, (l->n + 1) *
		    sizeof(*l->item))) == NULL)
			err(MG_EXIT_FAIL, NULL);
		l->item[l->n++] = tok;
	}
}

static int
in_list(const struct list *l, const struct mg_value *v)
{
	size_t i;

	if (l->n == 0)
		return 1;
	if (v->null)
		return 0;
	for (i = 0; i < l->n; i++)
		if (strlen(l->item[i]) == v->len &&
		    strncasecmp(l->item[i], v->s, v->len) == 0)
			return 1;
	return 0;
}

/*
 * a temporary file for the last-wins rule, unlinked at once (nothing is
 * left behind, whatever ends the run); -1, with a warning, if none can
 * be made
 */
static int
temp_file(int quiet)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if ((size_t)snprintf(path, sizeof(path), "%s/mirage-parse.XXXXXX",
	    dir) >= sizeof(path) || (fd = mkstemp(path)) < 0) {
		if (!quiet)
			warn("cannot make a temporary file in '%s'; the "
			    "jobs stay in memory", dir);
		return -1;
	}
	unlink(path);
	return fd;
}

/*
 * the stream written as if no JobID came again is complete (its writer
 * closed): copy it to fp, the last record of each job in its place
 */
static int
finish_last(struct ctx *c, FILE *fp, const struct mg_writer_opts *wo)
{
	FILE *in;
	int rv;

	if (fflush(c->opt) != 0)
		return mg_diag_set(&c->diag, MG_EIO, "the temporary stream: "
		    "%s", strerror(errno));
	if (c->optbuf != NULL)
		in = fmemopen(c->optbuf, c->optlen, "r");
	else
		in = fseek(c->opt, 0, SEEK_SET) == 0 ? c->opt : NULL;
	if (in == NULL)
		return mg_diag_set(&c->diag, MG_EIO, "the temporary stream: "
		    "%s", strerror(errno));
	rv = mg_dedup_copy(c->dd, in, fp, wo, &c->diag);
	if (in != c->opt)
		fclose(in);
	return rv;
}

static void
last_free(struct ctx *c)
{
	mg_dedup_free(c->dd);
	if (c->opt != NULL)
		fclose(c->opt);
	free(c->optbuf);
	if (c->spill_fd >= 0)
		close(c->spill_fd);
}

static int on_warn(void *ctx, uint64_t line, int isbad, const char *msg);

/* a text field longer than this is not a job's (a name, a user, ...) but
 * a damaged row: it is reported as a bad row, not stored */
#define MAX_TEXT_FIELD	65536

static int
on_job(void *ctx, const struct mg_value *job, uint64_t line)
{
	static const enum mg_job_field text[] = { MG_JOB_JOBID, MG_JOB_NAME,
	    MG_JOB_USER, MG_JOB_ACCOUNT, MG_JOB_PARTITION, MG_JOB_QOS,
	    MG_JOB_STATE };
	static const char *name[] = { "JobID", "JobName", "User", "Account",
	    "Partition", "QOS", "State" };
	struct ctx *c = ctx;
	int64_t t;
	size_t i;
	int rv;

	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		if (!job[text[i]].null && job[text[i]].len > MAX_TEXT_FIELD) {
			const struct mg_value *id = &job[MG_JOB_JOBID];
			char msg[200];

			/* the job's id when it is not the long field: JSON
			 * has no line to name */
			snprintf(msg, sizeof(msg), "%s%.*s%s%s of %zu bytes "
			    "(more than %d): not a job's", i > 0 && !id->null ?
			    "job " : "", i > 0 && !id->null && id->len < 40 ?
			    (int)id->len : 0, id->s, i > 0 && !id->null ? ": " :
			    "", name[i], job[text[i]].len, MAX_TEXT_FIELD);
			return on_warn(ctx, line, 1, msg);
		}
	if (!in_list(&c->parts, &job[MG_JOB_PARTITION]) ||
	    !in_list(&c->states, &job[MG_JOB_STATE])) {
		c->filtered++;
		return 0;
	}
	if (c->since != INT64_MIN || c->until != INT64_MAX) {
		t = job[MG_JOB_SUBMIT].null ? INT64_MIN : job[MG_JOB_SUBMIT].i;
		if (job[MG_JOB_SUBMIT].null || t < c->since || t >= c->until) {
			c->filtered++;
			return 0;
		}
	}
	c->jobs++;
	if (!c->keep_dups && (rv = mg_dedup_add(c->dd, job,
	    mg_writer_count(c->w))) != 0) {
		if (rv < 0)
			return mg_diag_set(&c->diag, rv, "%s", mg_strerror(rv));
		c->dups++;
		return 0;
	}
	return mg_writer_put(c->w, job, &c->diag);
}

static int
on_warn(void *ctx, uint64_t line, int isbad, const char *msg)
{
	struct ctx *c = ctx;

	if (isbad)
		c->bad++;
	else
		c->repaired++;
	if (c->strict) {
		if (line)
			mg_diag_set(&c->diag, MG_EFORMAT, "'%s': line %llu: %s "
			    "(--strict)", c->name, (unsigned long long)line,
			    msg);
		else
			mg_diag_set(&c->diag, MG_EFORMAT, "'%s': %s "
			    "(--strict)", c->name, msg);
		return MG_EFORMAT;
	}
	if (c->quiet && !isbad)
		return 0;
	if (++c->shown <= MAX_SHOWN) {
		if (line)
			warnx("'%s': line %llu: %s%s", c->name,
			    (unsigned long long)line, msg, isbad ?
			    "; row skipped" : "");
		else
			warnx("'%s': %s%s", c->name, msg, isbad ?
			    "; skipped" : "");
	}
	return 0;
}

static int64_t
parse_when(const char *s, enum mg_tz tz, const char *opt)
{
	int64_t t;

	if (mg_parse_date(s, tz, &t) != 0) {
		warnx("invalid %s time '%s' (want YYYY-MM-DD[THH:MM:SS] or "
		    "epoch seconds)", opt, s);
		usage(MG_EXIT_USAGE);
	}
	return t;
}

/* parse one input; 0, or a status with c->diag set */
static int
parse_file(struct ctx *c, const char *path, const struct mg_sacct_opts *so)
{
	struct mg_slurmfmt_sink sink;
	struct mg_input *in;
	const char *name;
	int rv, entries = 0;

	if ((rv = mg_input_open(path, &in, &c->diag)) != 0) {
		mg_diag_prefix(&c->diag, "cannot open '%s'", path);
		return rv;
	}
	while ((rv = mg_input_next_entry(in, &name, &c->diag)) == 1) {
		entries++;
		c->name = name;
		c->jobs = c->repaired = c->bad = c->filtered = c->dups = 0;
		c->shown = 0;
		memset(&sink, 0, sizeof(sink));
		sink.ctx = c;
		sink.job = on_job;
		sink.warn = on_warn;
		rv = mg_sacct_parse(in, so, &sink, &c->diag);
		if (rv != 0) {
			if (strncmp(c->diag.msg, "'", 1) != 0)
				mg_diag_prefix(&c->diag, "'%s'", name);
			break;
		}
		if (c->shown > MAX_SHOWN)
			warnx("'%s': %llu more row warnings not shown", name,
			    (unsigned long long)(c->shown - MAX_SHOWN));
		if (!c->quiet)
			fprintf(stderr, "mirage-parse: '%s': %s%s%s: %llu job records"
			    ", %llu repaired rows, %llu bad rows skipped, "
			    "%llu step rows skipped, %llu filtered out\n",
			    name, sink.layout, strcmp(mg_input_filters(in),
			    "none") ? ", " : "", strcmp(mg_input_filters(in),
			    "none") ? mg_input_filters(in) : "",
			    (unsigned long long)c->jobs,
			    (unsigned long long)c->repaired,
			    (unsigned long long)c->bad,
			    (unsigned long long)sink.steps,
			    (unsigned long long)c->filtered);
		c->total_jobs += c->jobs;
		c->total_bad += c->bad;
		c->total_dups += c->dups;
	}
	if (rv < 0 && strncmp(c->diag.msg, "'", 1) != 0)
		mg_diag_prefix(&c->diag, "'%s'", strcmp(path, "-") ? path :
		    "<stdin>");
	if (rv == 0 && entries == 0)
		rv = mg_diag_set(&c->diag, MG_EFORMAT, "'%s': empty input "
		    "(no header, no jobs)", strcmp(path, "-") ? path :
		    "<stdin>");
	mg_input_free(in);
	return rv < 0 ? rv : 0;
}

enum { OPT_DUPS = 256, OPT_SWF_CPN, OPT_VERSION };

static const struct option longopts[] = {
	{ "delimiter", required_argument, NULL, 'd' },
	{ "duplicates", required_argument, NULL, OPT_DUPS },
	{ "force", no_argument, NULL, 'f' },
	{ "format", required_argument, NULL, 'F' },
	{ "fields", required_argument, NULL, 'k' },
	{ "help", no_argument, NULL, 'h' },
	{ "level", required_argument, NULL, 'l' },
	{ "output", required_argument, NULL, 'o' },
	{ "partition", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "since", required_argument, NULL, 'S' },
	{ "state", required_argument, NULL, 't' },
	{ "strict", no_argument, NULL, 's' },
	{ "swf-cpus-per-node", required_argument, NULL, OPT_SWF_CPN },
	{ "tz", required_argument, NULL, 'z' },
	{ "until", required_argument, NULL, 'E' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* the command line, beside the run's context */
struct popts {
	struct mg_sacct_opts so;
	const char *output, *since, *until;
	int fflag;		/* -f: binary to a terminal */
	int64_t level;		/* -l: compression */
	char args[4096];
};

static void
parse(int argc, char *argv[], struct popts *o, struct ctx *c)
{
	int ch;

	memset(o, 0, sizeof(*o));
	o->level = 1;
	memset(c, 0, sizeof(*c));
	c->since = INT64_MIN;
	c->until = INT64_MAX;
	mg_sacct_opts_init(&o->so);
	/* sacct prints wall-clock times in its own zone, TZ's: so do we */
	(void)mg_tz_use("local", &o->so.tz);
	mg_cli_args(argc, argv, o->args, sizeof(o->args));

	while ((ch = getopt_long(argc, argv, "d:E:F:fhk:l:o:p:qS:st:z:",
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			if (strlen(optarg) != 1 || optarg[0] == '\n')
				errx(MG_EXIT_USAGE, "invalid delimiter '%s' "
				    "(one character)", optarg);
			o->so.delim = optarg[0];
			break;
		case 'E':
			o->until = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "auto") == 0)
				o->so.format = MG_FMT_AUTO;
			else if (strcmp(optarg, "delimited") == 0)
				o->so.format = MG_FMT_DELIM;
			else if (strcmp(optarg, "fixed") == 0)
				o->so.format = MG_FMT_FIXED;
			else if (strcmp(optarg, "swf") == 0)
				o->so.format = MG_FMT_SWF;
			else if (strcmp(optarg, "json") == 0)
				o->so.format = MG_FMT_JSON;
			else if (strcmp(optarg, "yaml") == 0)
				o->so.format = MG_FMT_YAML;
			else
				errx(MG_EXIT_USAGE, "invalid format '%s' (auto,"
				    " delimited, fixed, swf, json, yaml)", optarg);
			break;
		case 'f':
			o->fflag = 1;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'k':
			o->so.fields = optarg;
			break;
		case 'l':
			if (mg_parse_i64(optarg, strlen(optarg), 0, 9, &o->level))
				errx(MG_EXIT_USAGE, "invalid level '%s' (0-9)",
				    optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'p':
			split_list(&c->parts, optarg);
			break;
		case 'q':
			c->quiet = 1;
			break;
		case 'S':
			o->since = optarg;
			break;
		case 's':
			c->strict = 1;
			break;
		case 't':
			split_list(&c->states, optarg);
			break;
		case 'z':
			if (mg_tz_use(optarg, &o->so.tz) != 0)
				errx(MG_EXIT_USAGE, "-z: unknown time zone '%s' "
				    "(not in the tz database)", optarg);
			break;
		case OPT_DUPS:
			if (strcmp(optarg, "last") == 0)
				c->keep_dups = 0;
			else if (strcmp(optarg, "keep") == 0)
				c->keep_dups = 1;
			else
				errx(MG_EXIT_USAGE, "invalid --duplicates '%s'"
				    " (last or keep)", optarg);
			break;
		case OPT_SWF_CPN: {
			int64_t v;

			if (mg_parse_i64(optarg, strlen(optarg), 1, 1 << 20,
			    &v) != 0)
				errx(MG_EXIT_USAGE, "invalid "
				    "--swf-cpus-per-node '%s'", optarg);
			o->so.swf_cpus_per_node = v;
			break;
		}
		case OPT_VERSION:
			printf("mirage-parse %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		default:
			usage(MG_EXIT_USAGE);
		}
	}
	if (o->since)
		c->since = parse_when(o->since, o->so.tz, "--since");
	if (o->until)
		c->until = parse_when(o->until, o->so.tz, "--until");
	if (o->output == NULL && !o->fflag && isatty(STDOUT_FILENO))
		errx(MG_EXIT_USAGE, "refusing to write a binary stream to a "
		    "terminal (use -o file, a pipe, or -f)");
}

/*
 * --duplicates last: the records go to a temporary stream (a file, or
 * memory), the last of each job kept, and are written when all are read
 */
static void
open_dedup(struct ctx *c)
{
	c->spill_fd = -1;
	if (!c->keep_dups) {
		int fd = temp_file(c->quiet), rv;

		if (fd >= 0 && (c->opt = fdopen(fd, "w+")) == NULL)
			err(MG_EXIT_FAIL, "fdopen");
		if (c->opt == NULL && (c->opt = open_memstream(&c->optbuf,
		    &c->optlen)) == NULL)
			err(MG_EXIT_FAIL, "open_memstream");
		if (fd >= 0)
			c->spill_fd = temp_file(c->quiet);
		if ((rv = mg_dedup_new(c->spill_fd, &c->dd)) == MG_ENOMEM)
			err(MG_EXIT_FAIL, NULL);
		if (rv != 0)
			errx(MG_EXIT_FAIL, "cannot use the temporary file");
	}
}

int
main(int argc, char *argv[])
{
	struct popts o;
	struct mg_writer_opts wo;
	struct mg_out out;
	struct ctx c;
	char producer[64], zone[256];
	int i, n, rv = 0;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	parse(argc, argv, &o, &c);
	argc -= optind;
	argv += optind;
	open_dedup(&c);
	if (mg_out_open(&out, o.output, &c.diag) != 0)
		errx(MG_EXIT_FAIL, "%s", c.diag.msg);
	mg_writer_opts_init(&wo);
	snprintf(producer, sizeof(producer), "mirage-parse %s", MG_VERSION);
	wo.producer = producer;
	wo.args = o.args;
	wo.level = (int)o.level;
	mg_tz_name(o.so.tz, zone, sizeof(zone));
	wo.tz = zone;
	if ((rv = mg_writer_open(c.keep_dups ? out.fp : c.opt,
	    mg_job_schema(), &wo, &c.w, &c.diag)) != 0)
		goto fail;

	n = argc ? argc : 1;
	for (i = 0; i < n; i++)
		if ((rv = parse_file(&c, argc ? argv[i] : "-", &o.so)) != 0)
			goto fail;
	/* rows, and every one of them bad: not a dump to trust */
	if (c.total_jobs == 0 && c.total_bad > 0) {
		rv = mg_diag_set(&c.diag, MG_EFORMAT, "no job read: all %llu "
		    "rows were bad", (unsigned long long)c.total_bad);
		goto fail;
	}
	rv = mg_writer_close(c.w, &c.diag);
	c.w = NULL;
	if (rv == 0 && !c.keep_dups) {
		rv = finish_last(&c, out.fp, &wo);
		if (rv == 0 && c.total_dups && !c.quiet)
			warnx("%llu records of jobs seen before replaced the "
			    "earlier ones (--duplicates last)",
			    (unsigned long long)c.total_dups);
	}
	if (rv == 0)
		rv = mg_out_commit(&out, &c.diag);
	if (rv != 0)
		goto fail;
	last_free(&c);
	free(c.parts.item);
	free(c.states.item);
	return MG_EXIT_OK;
fail:
	/* no trailer: a reader downstream sees a truncated stream */
	mg_writer_free(c.w);
	mg_out_abort(&out);
	last_free(&c);
	free(c.parts.item);
	free(c.states.item);
	warnx("%s", c.diag.msg[0] ? c.diag.msg : mg_strerror(rv));
	return rv == MG_EFORMAT || rv == MG_EIO ? MG_EXIT_FAIL :
	    mg_exit_status(rv);
}
