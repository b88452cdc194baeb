/*
 * planconf.c: the planner's settings: defaults, the options by name,
 * the calibration's knots; see plan.h.
 */
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

int
mg_plan_option(struct mg_planconf *pc, double *lambda, const char *name,
    const char *arg, struct mg_diag *d)
{
	int64_t v;

	if (strcmp(name, "plan") == 0) {
		if (mg_parse_i64(arg, strlen(arg), 1, MG_PLAN_MAXK, &v) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid number of "
			    "futures '%s' (1 to %d)", arg, MG_PLAN_MAXK);
		pc->k = (int)v;
	} else if (strcmp(name, "lambda") == 0) {
		if (mg_parse_f64(arg, strlen(arg), lambda) != 0 ||
		    !(*lambda > 0 && *lambda < 1e6))
			return mg_diag_set(d, MG_EINVAL, "invalid --lambda '%s' "
			    "(a positive number)", arg);
	} else if (strcmp(name, "plan-seed") == 0) {
		if (mg_parse_i64(arg, strlen(arg), 0, INT64_MAX, &v) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-seed "
			    "'%s'", arg);
		pc->seed = (uint64_t)v;
	} else if (strcmp(name, "plan-arrivals") == 0) {
		if (strcmp(arg, "week") == 0)
			pc->arrivals = MG_PLAN_ARR_WEEK;
		else if (parse_blocks(pc, arg) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--plan-arrivals '%s' (week, or blocks[:H][,rate[:W]]"
			    ", H from 1 to 24 hours, W from 1 to 720)", arg);
	} else if (strcmp(name, "plan-runtimes") == 0) {
		if (strcmp(arg, "class") == 0)
			pc->runtimes = MG_PLAN_RT_CLASS;
		else if (strcmp(arg, "user") == 0)
			pc->runtimes = MG_PLAN_RT_USER;
		else if (strncmp(arg, "recent", 6) == 0 && (arg[6] == '\0' ||
		    (arg[6] == ':' && mg_parse_i64(arg + 7, strlen(arg + 7), 1,
		    1000, &v) == 0))) {
			pc->runtimes = MG_PLAN_RT_RECENT;
			if (arg[6] == ':')
				pc->recent = (int)v;
		} else
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--plan-runtimes '%s' (class, user, recent or "
			    "recent:N, N from 1 to 1000 jobs)", arg);
	} else if (strcmp(name, "plan-calibration") == 0) {
		const char *slash = strchr(arg, '/');
		int a, b;

		if (slash == NULL || (a = parse_knots(arg, (size_t)(slash -
		    arg), pc->calp[0], pc->calq[0])) < 0 ||
		    (b = parse_knots(slash + 1, strlen(slash + 1), pc->calp[1],
		    pc->calq[1])) < 0) {
			pc->ncal[0] = pc->ncal[1] = 0;
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--plan-calibration '%s' (p:q,... for submitting "
			    "now, '/', p:q,... for later: increasing chances p "
			    "and their calibrated q, from 0 to 1)", arg);
		}
		pc->ncal[0] = a;
		pc->ncal[1] = b;
	} else if (strcmp(name, "plan-limits") == 0) {
		const char *colon = strchr(arg, ':');
		int64_t m = 0;

		if (strcmp(arg, "none") == 0)
			v = 0;
		else if (mg_parse_i64(arg, colon ? (size_t)(colon - arg) :
		    strlen(arg), 0, 100000, &v) != 0 || (colon != NULL &&
		    mg_parse_i64(colon + 1, strlen(colon + 1), 0, 1000000,
		    &m) != 0))
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-limits "
			    "'%s' (none, or JOBS[:NODES], the running jobs and "
			    "nodes a user may hold, 0 for no limit)", arg);
		pc->max_jobs_pu = (int)v;
		pc->max_nodes_pu = (int)m;
	} else if (strcmp(name, "plan-capacity") == 0) {
		static const char *const cm[] = { "delta", "day", "now" };
		const char *colon = strchr(arg, ':');
		size_t len = colon ? (size_t)(colon - arg) : strlen(arg), i;

		for (i = 0; i < 3; i++)
			if (strlen(cm[i]) == len && strncmp(arg, cm[i], len) == 0)
				break;
		v = 0;
		if (i == 3 || (colon != NULL && mg_parse_i64(colon + 1,
		    strlen(colon + 1), 0, 1440, &v) != 0))
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--plan-capacity '%s' (delta, day or now, with "
			    ":M the minutes from 0 to 1440 that now's holds)",
			    arg);
		pc->cap_model = (enum mg_plancap)i;
		pc->cap_hold = v * 60;
	} else if (strcmp(name, "plan-followers") == 0) {
		if (strcmp(arg, "none") == 0)
			v = 0;
		else if (mg_parse_i64(arg, strlen(arg), 1, 1440, &v) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--plan-followers '%s' (none, or the minutes from 1 "
			    "to 1440 within which a user's next job follows "
			    "one that ended)", arg);
		pc->follow = v * 60;
	} else if (strcmp(name, "plan-every") == 0) {
		const char *colon = strchr(arg, ':');
		size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
		int64_t h = pc->fresh / 3600;

		if (mg_parse_i64(arg, len, 0, 60, &v) != 0 || (colon != NULL &&
		    mg_parse_i64(colon + 1, strlen(colon + 1), 0, 48, &h) != 0))
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-every "
			    "'%s' (the minutes from 0 to 60 over which a plan "
			    "is reused, 0: none; then :H, the hours from 0 to "
			    "48 before P's end from which every decision is "
			    "planned)", arg);
		pc->every = v * 60;
		pc->fresh = h * 3600;
	} else if (strcmp(name, "plan-model") == 0) {
		if (strcmp(arg, "faithful") == 0)
			pc->model = MG_PLAN_FAITHFUL;
		else if (strcmp(arg, "reference") == 0)
			pc->model = MG_PLAN_REFERENCE;
		else
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-model "
			    "'%s' (faithful or reference)", arg);
	} else if (strcmp(name, "plan-cost") == 0) {
		if (strcmp(arg, "risk") == 0)
			pc->cost = MG_PLAN_RISK;
		else if (strcmp(arg, "hours") == 0)
			pc->cost = MG_PLAN_HOURS;
		else if (strcmp(arg, "risk-cv") == 0)
			pc->cost = MG_PLAN_RISK_CV;
		else
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-cost "
			    "'%s' (want risk, hours or risk-cv)", arg);
	} else if (strcmp(name, "plan-draws") == 0) {
		if (strcmp(arg, "decision") == 0)
			pc->episode_draws = 0;
		else if (strcmp(arg, "episode") == 0)
			pc->episode_draws = 1;
		else
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-draws "
			    "'%s' (want decision or episode)", arg);
	} else if (strcmp(name, "plan-truth") == 0) {
		if (strcmp(arg, "none") == 0)
			pc->truth = 0;
		else if (strcmp(arg, "runtimes") == 0)
			pc->truth = MG_PLAN_TRUE_RUNTIMES;
		else if (strcmp(arg, "arrivals") == 0)
			pc->truth = MG_PLAN_TRUE_ARRIVALS;
		else if (strcmp(arg, "both") == 0)
			pc->truth = MG_PLAN_TRUE_RUNTIMES |
			    MG_PLAN_TRUE_ARRIVALS;
		else
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-truth "
			    "'%s' (want none, runtimes, arrivals or both)", arg);
	} else if (strcmp(name, "plan-window") == 0) {
		if (mg_parse_span(arg, &v) != 0 || v <= 0 || v > 4 * MG_DAY)
			return mg_diag_set(d, MG_EINVAL, "invalid --plan-window "
			    "'%s' (up to 4d)", arg);
		pc->window = v;
	} else
		return mg_diag_set(d, MG_EINVAL, "no planner option '%s'",
		    name);
	pc->given |= strcmp(name, "plan") == 0 ? MG_PLAN_GIVEN_PLAN :
	    strcmp(name, "lambda") == 0 ? MG_PLAN_GIVEN_LAMBDA :
	    strcmp(name, "plan-model") == 0 ? MG_PLAN_GIVEN_MODEL :
	    strcmp(name, "plan-limits") == 0 ? MG_PLAN_GIVEN_LIMITS :
	    strcmp(name, "plan-window") == 0 ? MG_PLAN_GIVEN_WINDOW : 0;
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
