/*
 * planconf.c: the planner's settings: defaults, the options by name,
 * the calibration's knots; see plan.h.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "cluster/cluster.h"
#include "cluster/simconf.h"
#include "plan/plan_int.h"

void
mg_planconf_world(struct mg_planconf *pc, const struct mg_clusterdef *def,
    int64_t limit, int64_t handover)
{
	unsigned given = pc->given;
	int faithful = mg_simconf_mode(def->conf) == MG_MODE_FAITHFUL;

	if (handover > 0) {
		if (!(given & MG_PLAN_GIVEN_WINDOW))
			pc->window = limit;
		pc->handover = handover;
	}
	if (!(given & MG_PLAN_GIVEN_MODEL))
		pc->model = faithful ? MG_PLAN_FAITHFUL : MG_PLAN_REFERENCE;
	if (!(given & MG_PLAN_GIVEN_LIMITS) && faithful)
		mg_simconf_user_limits(def->conf, &pc->max_jobs_pu,
		    &pc->max_nodes_pu);
	if (pc->cap_model != MG_PLAN_CAP_NOW && faithful)
		pc->cap_n = mg_clusterdef_capacity(def, &pc->cap_time,
		    &pc->cap_nodes);
}

void
mg_planconf_default(struct mg_planconf *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->k = 8;
	pc->seed = 1;
	pc->window = MG_DAY;
	pc->history = 30 * MG_DAY;
	pc->margin = 12 * 3600;
	/* chosen on the training period's episodes (mirage-eval(1)) */
	pc->arrivals = MG_PLAN_ARR_BLOCKS;
	pc->block = 4 * 3600;
	pc->runtimes = MG_PLAN_RT_USER;
	pc->recent = 10;
	/* the same curve as planning every decision, at a fraction of the
	 * cost (mirage-eval(1)) */
	pc->every = 1800;
	pc->fresh = 6 * 3600;
}

/* "blocks[:H][,rate[:W]]" into pc; 0 or -1 (pc unchanged) */
static int
parse_blocks(struct mg_planconf *pc, const char *arg)
{
	const char *comma = strchr(arg, ',');
	size_t len = comma ? (size_t)(comma - arg) : strlen(arg);
	int64_t h = pc->block / 3600, w = 0;

	if (len < 6 || strncmp(arg, "blocks", 6) != 0 || (len > 6 &&
	    (arg[6] != ':' || mg_parse_i64(arg + 7, len - 7, 1, 24, &h) != 0)))
		return -1;
	if (comma != NULL) {
		const char *r = comma + 1;

		if (strncmp(r, "rate", 4) != 0 || (r[4] != '\0' &&
		    (r[4] != ':' || mg_parse_i64(r + 5, strlen(r + 5), 1, 720,
		    &w) != 0)))
			return -1;
		if (r[4] == '\0')
			w = 24;
	}
	pc->arrivals = MG_PLAN_ARR_BLOCKS;
	pc->block = h * 3600;
	pc->rate = w * 3600;
	return 0;
}

/* "p:q,p:q,..." of nondecreasing p in [0, 1] and q in [0, 1] into
 * p[], q[] (at most MG_PLAN_MAXK + 1); their count, or -1 */
static int
parse_knots(const char *s, size_t len, double *p, double *q)
{
	int n = 0;
	size_t i = 0;

	while (i < len) {
		size_t j = i, colon = 0;

		while (j < len && s[j] != ',') {
			if (s[j] == ':')
				colon = j;
			j++;
		}
		if (n > MG_PLAN_MAXK || colon <= i || mg_parse_f64(s + i,
		    colon - i, &p[n]) != 0 || mg_parse_f64(s + colon + 1,
		    j - colon - 1, &q[n]) != 0 || !(p[n] >= 0 && p[n] <= 1 &&
		    q[n] >= 0 && q[n] <= 1) || (n > 0 && p[n] <= p[n - 1]))
			return -1;
		n++;
		i = j + 1;
	}
	return n > 0 ? n : -1;
}

/* the options read their own way: 0, or -1 for a bad argument */
static int
opt_lambda(struct mg_planconf *pc, double *lambda, const char *arg)
{
	(void)pc;
	return mg_parse_f64(arg, strlen(arg), lambda) != 0 ||
	    !(*lambda > 0 && *lambda < 1e6) ? -1 : 0;
}

static int
opt_arrivals(struct mg_planconf *pc, double *lambda, const char *arg)
{
	(void)lambda;
	if (strcmp(arg, "week") == 0) {
		pc->arrivals = MG_PLAN_ARR_WEEK;
		return 0;
	}
	return parse_blocks(pc, arg) != 0 ? -1 : 0;
}

static int
opt_runtimes(struct mg_planconf *pc, double *lambda, const char *arg)
{
	int64_t v;

	(void)lambda;
	if (strcmp(arg, "class") == 0)
		pc->runtimes = MG_PLAN_RT_CLASS;
	else if (strcmp(arg, "user") == 0)
		pc->runtimes = MG_PLAN_RT_USER;
	else if (strncmp(arg, "recent", 6) == 0 && (arg[6] == '\0' ||
	    (arg[6] == ':' && mg_parse_i64(arg + 7, strlen(arg + 7), 1, 1000,
	    &v) == 0))) {
		pc->runtimes = MG_PLAN_RT_RECENT;
		if (arg[6] == ':')
			pc->recent = (int)v;
	} else
		return -1;
	return 0;
}

static int
opt_calibration(struct mg_planconf *pc, double *lambda, const char *arg)
{
	const char *slash = strchr(arg, '/');
	int a, b;

	(void)lambda;
	if (slash == NULL || (a = parse_knots(arg, (size_t)(slash - arg),
	    pc->calp[0], pc->calq[0])) < 0 || (b = parse_knots(slash + 1,
	    strlen(slash + 1), pc->calp[1], pc->calq[1])) < 0) {
		pc->ncal[0] = pc->ncal[1] = 0;
		return -1;
	}
	pc->ncal[0] = a;
	pc->ncal[1] = b;
	return 0;
}

static int
opt_limits(struct mg_planconf *pc, double *lambda, const char *arg)
{
	const char *colon = strchr(arg, ':');
	int64_t v = 0, m = 0;

	(void)lambda;
	if (strcmp(arg, "none") != 0 && (mg_parse_i64(arg, colon ?
	    (size_t)(colon - arg) : strlen(arg), 0, 100000, &v) != 0 ||
	    (colon != NULL && mg_parse_i64(colon + 1, strlen(colon + 1), 0,
	    1000000, &m) != 0)))
		return -1;
	pc->max_jobs_pu = (int)v;
	pc->max_nodes_pu = (int)m;
	return 0;
}

static int
opt_capacity(struct mg_planconf *pc, double *lambda, const char *arg)
{
	static const char *const cm[] = { "delta", "day", "now" };
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg), i;
	int64_t v = 0;

	(void)lambda;
	for (i = 0; i < 3; i++)
		if (strlen(cm[i]) == len && strncmp(arg, cm[i], len) == 0)
			break;
	if (i == 3 || (colon != NULL && mg_parse_i64(colon + 1,
	    strlen(colon + 1), 0, 1440, &v) != 0))
		return -1;
	pc->cap_model = (enum mg_plancap)i;
	pc->cap_hold = v * 60;
	return 0;
}

static int
opt_followers(struct mg_planconf *pc, double *lambda, const char *arg)
{
	int64_t v = 0;

	(void)lambda;
	if (strcmp(arg, "none") != 0 && mg_parse_i64(arg, strlen(arg), 1,
	    1440, &v) != 0)
		return -1;
	pc->follow = v * 60;
	return 0;
}

static int
opt_every(struct mg_planconf *pc, double *lambda, const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	int64_t v, h = pc->fresh / 3600;

	(void)lambda;
	if (mg_parse_i64(arg, len, 0, 60, &v) != 0 || (colon != NULL &&
	    mg_parse_i64(colon + 1, strlen(colon + 1), 0, 48, &h) != 0))
		return -1;
	pc->every = v * 60;
	pc->fresh = h * 3600;
	return 0;
}

static int
opt_window(struct mg_planconf *pc, double *lambda, const char *arg)
{
	int64_t v;

	(void)lambda;
	if (mg_parse_span(arg, &v) != 0 || v <= 0 || v > 4 * MG_DAY)
		return -1;
	pc->window = v;
	return 0;
}

/*
 * The planner's options: a number (into an int or an int64_t field,
 * from min to max), a word (its value into an int field), or an
 * argument read its own way; each said, when bad, as "invalid WHAT
 * 'ARG' (WANT)".
 */
enum pkind { P_INT, P_I64, P_WORD, P_OWN };

static const struct popt {
	const char *name;
	unsigned given;		/* its MG_PLAN_GIVEN_* bit, or 0 */
	enum pkind kind;
	size_t off;		/* P_INT, P_I64, P_WORD */
	int64_t min, max;	/* P_INT, P_I64 */
	const char *const words[5];	/* P_WORD */
	int values[4];
	int (*own)(struct mg_planconf *, double *, const char *);
	const char *what, *want;
} popts[] = {
#define F(f)	offsetof(struct mg_planconf, f)
	{ "plan", MG_PLAN_GIVEN_PLAN, P_INT, F(k), 1, MG_PLAN_MAXK, { NULL },
	    { 0 }, NULL, "number of futures", "1 to 64" },
	{ "lambda", MG_PLAN_GIVEN_LAMBDA, P_OWN, 0, 0, 0, { NULL }, { 0 },
	    opt_lambda, "--lambda", "a positive number" },
	{ "plan-seed", 0, P_I64, F(seed), 0, INT64_MAX, { NULL }, { 0 }, NULL,
	    "--plan-seed", "a number from 0" },
	{ "plan-arrivals", 0, P_OWN, 0, 0, 0, { NULL }, { 0 }, opt_arrivals,
	    "--plan-arrivals", "week, or blocks[:H][,rate[:W]], H from 1 to "
	    "24 hours, W from 1 to 720" },
	{ "plan-runtimes", 0, P_OWN, 0, 0, 0, { NULL }, { 0 }, opt_runtimes,
	    "--plan-runtimes", "class, user, recent or recent:N, N from 1 to "
	    "1000 jobs" },
	{ "plan-calibration", 0, P_OWN, 0, 0, 0, { NULL }, { 0 },
	    opt_calibration, "--plan-calibration", "p:q,... for submitting "
	    "now, '/', p:q,... for later: increasing chances p and their "
	    "calibrated q, from 0 to 1" },
	{ "plan-limits", MG_PLAN_GIVEN_LIMITS, P_OWN, 0, 0, 0, { NULL },
	    { 0 }, opt_limits, "--plan-limits", "none, or JOBS[:NODES], the "
	    "running jobs and nodes a user may hold, 0 for no limit" },
	{ "plan-capacity", 0, P_OWN, 0, 0, 0, { NULL }, { 0 }, opt_capacity,
	    "--plan-capacity", "delta, day or now, with :M the minutes from 0 "
	    "to 1440 that now's holds" },
	{ "plan-followers", 0, P_OWN, 0, 0, 0, { NULL }, { 0 }, opt_followers,
	    "--plan-followers", "none, or the minutes from 1 to 1440 within "
	    "which a user's next job follows one that ended" },
	{ "plan-every", 0, P_OWN, 0, 0, 0, { NULL }, { 0 }, opt_every,
	    "--plan-every", "the minutes from 0 to 60 over which a plan is "
	    "reused, 0: none; then :H, the hours from 0 to 48 before P's end "
	    "from which every decision is planned" },
	{ "plan-model", MG_PLAN_GIVEN_MODEL, P_WORD, F(model), 0, 0,
	    { "faithful", "reference", NULL }, { MG_PLAN_FAITHFUL,
	    MG_PLAN_REFERENCE }, NULL, "--plan-model", "faithful or "
	    "reference" },
	{ "plan-cost", 0, P_WORD, F(cost), 0, 0, { "risk", "hours", "risk-cv",
	    NULL }, { MG_PLAN_RISK, MG_PLAN_HOURS, MG_PLAN_RISK_CV }, NULL,
	    "--plan-cost", "want risk, hours or risk-cv" },
	{ "plan-draws", 0, P_WORD, F(episode_draws), 0, 0, { "decision",
	    "episode", NULL }, { 0, 1 }, NULL, "--plan-draws", "want decision "
	    "or episode" },
	{ "plan-truth", 0, P_WORD, F(truth), 0, 0, { "none", "runtimes",
	    "arrivals", "both", NULL }, { 0, MG_PLAN_TRUE_RUNTIMES,
	    MG_PLAN_TRUE_ARRIVALS, MG_PLAN_TRUE_RUNTIMES |
	    MG_PLAN_TRUE_ARRIVALS }, NULL, "--plan-truth", "want none, "
	    "runtimes, arrivals or both" },
	{ "plan-window", MG_PLAN_GIVEN_WINDOW, P_OWN, 0, 0, 0, { NULL },
	    { 0 }, opt_window, "--plan-window", "up to 4d" },
#undef F
};

int
mg_plan_option(struct mg_planconf *pc, double *lambda, const char *name,
    const char *arg, struct mg_diag *d)
{
	const struct popt *o;
	char *f;
	int64_t v;
	int i, bad = 0;

	for (o = popts; o < popts + sizeof(popts) / sizeof(*o); o++)
		if (strcmp(o->name, name) == 0)
			break;
	if (o == popts + sizeof(popts) / sizeof(*o))
		return mg_diag_set(d, MG_EINVAL, "no planner option '%s'",
		    name);
	f = (char *)pc + o->off;
	switch (o->kind) {
	case P_INT:
	case P_I64:
		if ((bad = mg_parse_i64(arg, strlen(arg), o->min, o->max,
		    &v) != 0))
			break;
		if (o->kind == P_INT)
			*(int *)(void *)f = (int)v;
		else
			*(int64_t *)(void *)f = v;
		break;
	case P_WORD:
		for (i = 0; o->words[i] != NULL; i++)
			if (strcmp(arg, o->words[i]) == 0)
				break;
		if (!(bad = o->words[i] == NULL))
			*(int *)(void *)f = o->values[i];
		break;
	case P_OWN:
		bad = o->own(pc, lambda, arg) != 0;
		break;
	}
	if (bad)
		return mg_diag_set(d, MG_EINVAL, "invalid %s '%s' (%s)", o->what,
		    arg, o->want);
	pc->given |= o->given;
	return 0;
}

/* a chance through calibration kind w: linear between the knots */
double
mg_plan_calibrated(const struct mg_planconf *pc, int w, double x)
{
	const double *p = pc->calp[w], *q = pc->calq[w];
	int n = pc->ncal[w], i;

	if (n == 0)
		return x;
	if (x <= p[0])
		return q[0];
	for (i = 1; i < n; i++)
		if (x <= p[i])
			return q[i - 1] + (q[i] - q[i - 1]) * (x - p[i - 1]) /
			    (p[i] - p[i - 1]);
	return q[n - 1];
}

int
mg_plancal_knots(const struct mg_plancal *cal, char *buf, size_t len)
{
	size_t off = 0;
	int w;

	for (w = 0; w < 2; w++) {
		double v[MG_PLAN_MAXK + 1], wt[MG_PLAN_MAXK + 1];
		int first[MG_PLAN_MAXK + 1], nb = 0, i, j;

		/* pool adjacent violators over the shares seen */
		for (i = 0; i <= cal->k && i <= MG_PLAN_MAXK; i++) {
			if (cal->n[w][i] <= 0)
				continue;
			v[nb] = cal->y[w][i] / cal->n[w][i];
			wt[nb] = cal->n[w][i];
			first[nb++] = i;
			while (nb > 1 && v[nb - 2] > v[nb - 1]) {
				v[nb - 2] = (v[nb - 2] * wt[nb - 2] + v[nb - 1] *
				    wt[nb - 1]) / (wt[nb - 2] + wt[nb - 1]);
				wt[nb - 2] += wt[nb - 1];
				nb--;
			}
		}
		if (nb == 0)
			return -1;
		/* a knot at each share seen, valued by its block */
		for (j = 0, i = 0; i <= cal->k; i++) {
			int r;

			if (cal->n[w][i] <= 0)
				continue;
			while (j + 1 < nb && first[j + 1] <= i)
				j++;
			r = snprintf(buf + off, len - off, "%s%.4g:%.4f",
			    off == 0 || buf[off - 1] == '/' ? "" : ",",
			    (double)i / cal->k, v[j]);
			if (r < 0 || (size_t)r >= len - off)
				return -1;
			off += (size_t)r;
		}
		if (w == 0) {
			if (off + 1 >= len)
				return -1;
			buf[off++] = '/';
			buf[off] = '\0';
		}
	}
	return (int)off;
}
