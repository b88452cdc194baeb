/*
 * mirage-policy: a site's policy for early successors chosen from the
 * replays of many chains at once (mirage-eval --adoption), one line per
 * share of the long jobs' work made services.  See mirage-policy(1).
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mirage.h"
#include "eval/policy.h"
#include "options.h"

struct popts {
	double harm;		/* the others' mean wait up by at most, % */
	const char *harm_text;
	const char *target;	/* as given to --target, or "" */
	const char *in;		/* the replays, or - */
	const char *out;	/* the lines, or - */
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: mirage-policy [-H harm%%] [-T target] [-o file] "
	    "[replays.tsv]\n");
	if (status == 0)
		fputs("options:\n"
		    "  -H, --harm p      the others' mean wait raised by at most p%\n"
		    "                    in the span before (5)\n"
		    "  -T, --target t    the target a 'target' policy's table was\n"
		    "                    chosen for, as mirage-advise --target takes it\n"
		    "  -o, --output file the lines (default: standard output)\n"
		    "  -h, --help        this help;  -V, --version  the version\n"
		    "The replays: mirage-eval --adoption's rows, each led by its\n"
		    "draw's seed (a column 'seed').  See mirage-policy(1).\n",
		    stdout);
	exit(status);
}

static void
parse(int argc, char *argv[], struct popts *o)
{
	static const struct option lo[] = {
		{ "harm", required_argument, NULL, 'H' },
		{ "target", required_argument, NULL, 'T' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	memset(o, 0, sizeof(*o));
	o->harm = 5;
	o->harm_text = "5";
	o->target = "";
	o->in = o->out = "-";
	while ((ch = getopt_long(argc, argv, "H:T:o:hV", lo, NULL)) != -1)
		switch (ch) {
		case 'H':
			o->harm_text = optarg;
			break;
		case 'T':
			o->target = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'h':
			usage(MG_EXIT_OK);
			break;
		case 'V':
			printf("mirage-policy %s\n", MG_VERSION);
			exit(MG_EXIT_OK);
		default:
			usage(MG_EXIT_USAGE);
		}
	if (argc - optind > 1)
		errx(MG_EXIT_USAGE, "one table of replays at most (try --help)");
	if (optind < argc)
		o->in = argv[optind];
}

static void
validate(struct popts *o)
{
	char text[32];
	size_t n = strlen(o->harm_text);

	/* "5" or "5%": printed as given, without its sign */
	snprintf(text, sizeof(text), "%.*s", (int)(n > 0 &&
	    o->harm_text[n - 1] == '%' ? n - 1 : n), o->harm_text);
	o->harm = number_arg("--harm", text, 0, 1e6);
	o->harm_text = strdup(text);
	if (o->harm_text == NULL)
		errx(MG_EXIT_FAIL, "out of memory");
	if (*o->target)
		(void)target_arg(o->target);
}

int
main(int argc, char *argv[])
{
	struct popts o;
	struct mg_policy *p;
	struct mg_diag d = { "" };
	struct mg_out out;
	const char *name;
	FILE *fp, *w;
	int rv;

	if (mg_cli_init(argv) != 0)
		return MG_EXIT_FAIL;
	parse(argc, argv, &o);
	validate(&o);
	name = strcmp(o.in, "-") ? o.in : "<stdin>";
	if ((fp = strcmp(o.in, "-") ? fopen(o.in, "r") : stdin) == NULL)
		err(MG_EXIT_FAIL, "cannot open '%s'", o.in);
	rv = mg_policy_read(fp, name, &p, &d);
	if (fp != stdin)
		fclose(fp);
	if (rv != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	w = out_begin(&out, o.out);
	rv = mg_policy_write(p, o.harm, o.harm_text, o.target, w, &d);
	out_end(&out, rv, &d, NULL);
	mg_policy_free(p);
	free((char *)o.harm_text);
	return MG_EXIT_OK;
}
