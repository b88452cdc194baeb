/*
 * options.c: the option groups the tools share; see options.h.
 */
#include <err.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "options.h"

static const struct option cluster_opts[] = { CLUSTER_LONGOPTS };
static const struct option episode_opts[] = { EPISODE_LONGOPTS };
static const struct option plan_opts[] = { PLAN_LONGOPTS };

/* the name of option ch in opts[0..n), or NULL */
static const char *
name_of(const struct option *opts, size_t n, int ch)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (opts[i].val == ch)
			return opts[i].name;
	return NULL;
}

struct mg_simconf *
cluster_new(void)
{
	struct mg_simconf *c;

	if (mg_simconf_new(&c) != 0)
		errx(MG_EXIT_FAIL, "out of memory");
	return c;
}

int
cluster_option(struct mg_simconf *c, int ch, const char *arg)
{
	struct mg_diag d = { "" };
	const char *name = name_of(cluster_opts, sizeof(cluster_opts) /
	    sizeof(cluster_opts[0]), ch);

	if (name == NULL)
		return 0;
	if (mg_simconf_option(c, name, arg, &d) != 0)
		errx(MG_EXIT_USAGE, "%s", d.msg);
	return 1;
}

int
episode_option(struct mg_epsel *s, int ch, const char *arg)
{
	struct mg_diag d = { "" };
	const char *name = name_of(episode_opts, sizeof(episode_opts) /
	    sizeof(episode_opts[0]), ch);

	if (name == NULL)
		return 0;
	if (mg_epsel_set(s, name, arg, &d) != 0)
		errx(MG_EXIT_USAGE, "%s", d.msg);
	return 1;
}

const char *
plan_option(struct mg_planconf *pc, double *lambda, int ch, const char *arg)
{
	struct mg_diag d = { "" };
	const char *name = name_of(plan_opts, sizeof(plan_opts) /
	    sizeof(plan_opts[0]), ch);

	if (name != NULL && mg_plan_option(pc, lambda, name, arg, &d) != 0)
		errx(MG_EXIT_USAGE, "%s", d.msg);
	return name;
}

double
number_arg(const char *what, const char *arg, double min, double max)
{
	double v;

	if (mg_parse_f64(arg, strlen(arg), &v) != 0 || !(v >= min && v <= max))
		errx(MG_EXIT_USAGE, "invalid %s '%s' (want %g to %g)", what,
		    arg, min, max);
	return v;
}

/* a share, "99%" or "0.99", strictly between 0 and 1, or NAN */
static double
share_arg(const char *arg)
{
	double v;

	return mg_parse_share(arg, &v) == 0 ? v : NAN;
}

double
target_arg(const char *arg)
{
	double v = share_arg(arg);

	if (isnan(v))
		errx(MG_EXIT_USAGE, "invalid --target '%s' (want a share of "
		    "the links without an interruption, e.g. 99%% or 0.99)",
		    arg);
	return v;
}

double
confidence_arg(const char *arg)
{
	double v = share_arg(arg);

	if (isnan(v))
		errx(MG_EXIT_USAGE, "invalid --confidence '%s' (want a share "
		    "between 0 and 1, e.g. 95%% or 0.95)", arg);
	return v;
}

int64_t
span_arg(const char *what, const char *s, int64_t most)
{
	int64_t v;

	if (mg_parse_span(s, &v) != 0 || v <= 0)
		errx(MG_EXIT_USAGE, "invalid %s '%s' (want e.g. 90s, 10m, "
		    "48h, 2d or D-HH:MM:SS)", what, s);
	if (most > 0 && v > most)
		errx(MG_EXIT_USAGE, "invalid %s '%s' (at most a day)", what, s);
	return v;
}

int
opt_store(const struct optstore *t, size_t n, int ch, const char *arg)
{
	const struct optstore *o;
	int64_t v;

	for (o = t; o < t + n && o->ch != ch; o++)
		;
	if (o == t + n)
		return 0;
	switch (o->kind) {
	case OPT_STR:
		if (o->min > 0 && *arg == '\0')
			errx(MG_EXIT_USAGE, "invalid %s: empty", o->what);
		*(const char **)o->to = arg;
		break;
	case OPT_SPAN:
		*(int64_t *)o->to = span_arg(o->what, arg, (int64_t)o->max);
		break;
	case OPT_HOURS:
		*(double *)o->to = (double)span_arg(o->what, arg,
		    (int64_t)o->max) / 3600;
		break;
	case OPT_COUNT:
		if (mg_parse_i64(arg, strlen(arg), (int64_t)o->min,
		    (int64_t)o->max, &v) != 0)
			errx(MG_EXIT_USAGE, "invalid %s '%s' (want %.0f to %.0f)",
			    o->what, arg, o->min, o->max);
		*(int32_t *)o->to = (int32_t)v;
		break;
	case OPT_NUMBER:
		*(double *)o->to = number_arg(o->what, arg, o->min, o->max);
		break;
	case OPT_FLAG:
		*(int *)o->to = 1;
		break;
	}
	return 1;
}

FILE *
out_begin(struct mg_out *out, const char *path)
{
	struct mg_diag d = { "" };

	if (mg_out_open(out, path, &d) != 0)
		errx(MG_EXIT_FAIL, "%s", d.msg);
	return out->fp;
}

void
out_end(struct mg_out *out, int rv, struct mg_diag *d, const char *what)
{
	if (rv != 0 || mg_out_commit(out, d) != 0) {
		mg_out_abort(out);
		if (what != NULL)
			errx(MG_EXIT_FAIL, "'%s': %s", what, d->msg);
		errx(MG_EXIT_FAIL, "%s", d->msg);
	}
}

const char *
trace_open(const char *path, const struct mg_simconf *conf,
    struct mg_trace *t, struct mg_clusterdef *def, struct mg_epsel *sel)
{
	struct mg_diag d = { "" };
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	int rv;

	if ((rv = mg_trace_read(path, t, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	if ((rv = mg_clusterdef_init(def, conf, t, &d)) != 0)
		errx(rv == MG_EINVAL ? MG_EXIT_FAIL : mg_exit_status(rv),
		    "'%s': %s", name, d.msg);
	if (sel != NULL && (rv = mg_epsel_resolve(sel, def, &d)) != 0)
		errx(mg_exit_status(rv), "%s", d.msg);
	return name;
}

void
progress_line(enum mg_progress pr, const char *prog, size_t done,
    size_t all, const char *what)
{
	if (pr != MG_PROGRESS_OFF)
		fprintf(stderr, "%s%s: %zu/%zu %s%s", pr == MG_PROGRESS_TTY ?
		    "\r" : "", prog, done, all, what, pr == MG_PROGRESS_TTY &&
		    done < all ? "" : "\n");
}
