/*
 * evaluation.c: mirage-eval's protocol, set up once (evaluation.h).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/parse.h"
#include "cluster/simconf.h"
#include "eval/evaluation.h"

void
mg_evalconf_init(struct mg_evalconf *c)
{
	memset(c, 0, sizeof(*c));
	mg_epsel_init(&c->sel);
	mg_planconf_default(&c->pc);
	c->lambda = MG_PLAN_LAMBDA;
	c->threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
	c->prefix = "";
}

/* --target's shares, separated by commas */
static int
targets(struct mg_evalconf *c, const char *arg, struct mg_diag *d)
{
	char b[256], *p, *q;

	snprintf(b, sizeof(b), "%s", arg);
	for (c->ntarget = 0, p = b; p != NULL; p = q) {
		if ((q = strchr(p, ',')) != NULL)
			*q++ = '\0';
		if (c->ntarget == MG_TARGET_MAX)
			return mg_diag_set(d, MG_EINVAL, "--target: at most %d "
			    "shares", MG_TARGET_MAX);
		if (mg_parse_share(p, &c->target[c->ntarget++]) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid --target '%s' "
			    "(want a share of the links without an "
			    "interruption, e.g. 99%% or 0.99)", p);
	}
	return 0;
}

/* the evaluation's settings by name: how each is read and where it goes */
enum setkind { S_TARGETS, S_SPAN, S_INT, S_LONG, S_SHARE, S_DATE, S_CHOICE };

static const struct evalset {
	const char *name;
	enum setkind kind;
	size_t off;		/* in struct mg_evalconf */
	double min, max;	/* a number's range; a span's most (s, 0: none) */
	const char *want;	/* what a bad value is told to be */
} evalsets[] = {
	{ "target", S_TARGETS, 0, 0, 0, NULL },
	{ "walk-forward", S_SPAN, offsetof(struct mg_evalconf, walk), 0, 0,
	    "e.g. 90s, 10m, 48h, 2d or D-HH:MM:SS" },
	{ "history", S_SPAN, offsetof(struct mg_evalconf, history), 0, 0,
	    "e.g. 90s, 10m, 48h, 2d or D-HH:MM:SS" },
	{ "folds", S_INT, offsetof(struct mg_evalconf, folds), 1,
	    MG_TARGET_MAXFOLDS, NULL },
	{ "train-count", S_LONG, offsetof(struct mg_evalconf, train_count), 1,
	    1e6, NULL },
	{ "confidence", S_SHARE, offsetof(struct mg_evalconf, confidence), 0,
	    0, "a share between 0 and 1, e.g. 95% or 0.95" },
	{ "train-from", S_DATE, offsetof(struct mg_evalconf, train_from), 0, 0,
	    "a date, e.g. 2023-02-01" },
	{ "handover", S_SPAN, offsetof(struct mg_evalconf, handover), 0,
	    86400, "e.g. 10m, at most a day" },
	{ "ready-time", S_SPAN, offsetof(struct mg_evalconf, ready_time), 0,
	    86400, "e.g. 5m, at most a day" },
	{ "ahead", S_INT, offsetof(struct mg_evalconf, ahead), 1, 2,
	    "1, the successor, or 2, also its successor" },
	{ "hybrid", S_CHOICE, offsetof(struct mg_evalconf, hybrid), 0, 0,
	    "and, or, both or weight" }
};

/* setting s from arg into *to: 0, or -1 for a bad value */
static int
evalset_read(const struct evalset *s, const char *arg, void *to)
{
	static const char *const hybrids[] = { "and", "or", "both",
	    "weight" };
	int64_t v;
	int i;

	switch (s->kind) {
	case S_SPAN:
		return mg_parse_span(arg, to) != 0 || *(int64_t *)to <= 0 ||
		    (s->max > 0 && *(int64_t *)to > s->max) ? -1 : 0;
	case S_INT:
	case S_LONG:
		if (mg_parse_i64(arg, strlen(arg), (int64_t)s->min,
		    (int64_t)s->max, &v) != 0)
			return -1;
		if (s->kind == S_INT)
			*(int *)to = (int)v;
		else
			*(long *)to = (long)v;
		return 0;
	case S_SHARE:
		return mg_parse_share(arg, to);
	case S_DATE:
		return mg_parse_date(arg, MG_TZ_UTC, to);
	case S_CHOICE:
		for (i = 0; i < 4; i++)
			if (strcmp(arg, hybrids[i]) == 0) {
				*(int *)to = i + 1;
				return 0;
			}
		return -1;
	default:
		return -1;
	}
}

int
mg_evalconf_set(struct mg_evalconf *c, const char *name, const char *arg,
    struct mg_diag *d)
{
	const struct evalset *s;
	size_t n = sizeof(evalsets) / sizeof(evalsets[0]);

	for (s = evalsets; s < evalsets + n && strcmp(s->name, name); s++)
		;
	if (s == evalsets + n)
		return mg_diag_set(d, MG_EINVAL, "no evaluation setting '%s'",
		    name);
	if (s->kind == S_TARGETS)
		return targets(c, arg, d);
	if (evalset_read(s, arg, (char *)c + s->off) != 0) {
		if (s->want != NULL)
			return mg_diag_set(d, MG_EINVAL, "invalid --%s '%s' "
			    "(want %s)", name, arg, s->want);
		return mg_diag_set(d, MG_EINVAL, "invalid --%s '%s' (want a "
		    "whole number from %g to %g)", name, arg, s->min, s->max);
	}
	if (s->kind == S_DATE)
		c->have_train_from = 1;
	return 0;
}

int
mg_evalconf_check(struct mg_evalconf *c, struct mg_diag *d)
{
	const struct mg_epsel *s = &c->sel;

	if (c->handover > 0 && c->pc.cost == MG_PLAN_RISK_CV)
		return mg_diag_set(d, MG_EINVAL, "--plan-cost risk-cv does not "
		    "go with --handover (want risk or hours)");
	if (c->fit_calibration && (!(c->pc.given & MG_PLAN_GIVEN_PLAN) ||
	    c->pc.ncal[0] > 0 || c->ntarget > 0))
		return mg_diag_set(d, MG_EINVAL, "--plan-fit-calibration goes "
		    "with --plan, without --plan-calibration (it fits the raw "
		    "chances) or --target");
	c->keep_decisions = c->hybrid || c->fit_calibration;
	if (c->hybrid && (!(c->pc.given & MG_PLAN_GIVEN_PLAN) ||
	    c->nmodels == 0))
		return mg_diag_set(d, MG_EINVAL, "--hybrid goes with --plan and "
		    "-M models");
	if (c->walk && (c->ntarget > 1 || c->have_train_from ||
	    c->train_count))
		return mg_diag_set(d, MG_EINVAL, "--walk-forward takes one "
		    "--target share, and chooses on the history before each "
		    "period: no --train-from, --train-count, -E or -C");
	if (c->confidence == 0)
		c->confidence = MG_TARGET_CONFIDENCE;
	if (c->history == 0)
		c->history = 28 * 86400;
	if (c->folds == 0)
		c->folds = 4;
	/* a history that holds fewer ended episodes than folds: said
	 * before any is simulated */
	if (c->walk && (c->history - s->e.workload) / s->every + 1 < c->folds)
		return mg_diag_set(d, MG_EINVAL, "--history %.1fd holds fewer "
		    "ended episodes than the %d folds (each ends %.1f days "
		    "after it starts, one every %.1f h): give at least %.1fd",
		    (double)c->history / 86400, c->folds,
		    (double)s->e.workload / 86400, (double)s->every / 3600,
		    (double)(s->e.workload + (c->folds - 1) * s->every) /
		    86400);
	if (c->handover > 0 && !(c->pc.given & MG_PLAN_GIVEN_LAMBDA))
		c->lambda = MG_PLAN_HANDOVER_LAMBDA;
	return 0;
}

int
mg_evaluation_open(struct mg_evaluation *ev, struct mg_evalconf *c,
    const struct mg_clusterdef *def, const struct mg_trace *t,
    struct mg_diag *d)
{
	struct mg_compare *cmp;
	int rv;

	memset(ev, 0, sizeof(*ev));
	ev->c = c;
	ev->def = def;
	ev->bad = -1;
	ev->cc.plan = (c->pc.given & MG_PLAN_GIVEN_PLAN) != 0;
	ev->cc.hybrid = c->hybrid;
	ev->cc.lambda = c->lambda;
	ev->cc.cost = c->pc.cost;
	ev->cc.handover = c->handover;
	ev->cc.preempt = mg_simconf_preempts(def->conf, NULL, NULL);
	if ((rv = mg_compare_models(&ev->cc, c->model, c->nmodels,
	    &ev->window, d)) != 0)
		return rv;
	if ((rv = mg_compare_new(&ev->cc, &cmp, d)) != 0)
		return MG_EINVAL;
	if (ev->window > 200) {
		mg_compare_free(cmp);
		return mg_diag_set(d, MG_ETYPE, "a model needs %d reference "
		    "snapshots; at most 200 can be computed", ev->window);
	}
	mg_planconf_world(&c->pc, def, c->sel.e.limit, c->handover);
	/* the planner's decisions after its latest price has submitted
	 * are never read, unless a hybrid or a calibration reads them */
	if (!c->keep_decisions)
		c->pc.nstop = (int)mg_compare_prices(cmp, c->pc.stop);
	mg_compare_free(cmp);
	if (ev->cc.plan && (rv = mg_plan_new(&c->pc, t, &ev->plan)) != 0)
		return mg_diag_set(d, rv, "--plan: %s", rv == MG_ENOMEM ?
		    "out of memory" : "invalid planner settings");
	if ((rv = mg_epsel_resolve(&c->sel, def, d)) != 0)
		return rv;
	/* where each model's features are in an outcome's */
	c->sel.e.window = ev->window;
	return 0;
}

/* a batch of outcomes: the planner's decisions counted, then the
 * caller's callback */
static void
batch(void *arg, const struct mg_outcome *res, size_t n, size_t done,
    size_t all)
{
	struct mg_evaluation *ev = arg;

	mg_compare_tally(res, n, &ev->decided, &ev->planned, ev->cal);
	if (ev->c->each != NULL)
		ev->c->each(ev->c->arg, res, n, done, all);
}

/* the methods compared on sel's episodes into *out */
static int
compare(struct mg_evaluation *ev, const struct mg_epsel *sel,
    struct mg_compare **out, struct mg_diag *d)
{
	int rv;

	ev->decided = ev->planned = 0;
	if ((rv = mg_compare_open(&ev->cc, sel, out, &ev->bad, d)) != 0)
		return rv;
	if ((rv = mg_compare_run(*out, ev->def, sel, ev->window, ev->plan,
	    ev->c->threads, batch, ev, d)) != 0) {
		mg_compare_free(*out);
		*out = NULL;
	}
	return rv;
}

int
mg_evaluation_run(struct mg_evaluation *ev, const struct mg_epsel *sel,
    struct mg_compare **out, struct mg_diag *d)
{
	const struct mg_evalconf *c = ev->c;
	int32_t nodes;
	double lost;
	size_t n;
	int k, rv;

	if ((rv = compare(ev, sel, out, d)) != 0 || c->say == NULL)
		return rv;
	if (ev->plan != NULL)
		fprintf(c->say, "%sthe planner planned %zu decisions of %d "
		    "futures each (%zu with futures of their own)\n",
		    c->prefix, ev->decided, c->pc.k, ev->planned);
	for (k = 0; k < sel->nsizes; k++)
		if (mg_compare_victims_lost(*out, k, &nodes, &n, &lost) && n > 0)
			fprintf(c->say, "%sreactive-preempt, %d-node chains: "
			    "its preemptions cost other jobs %.1f node-hours "
			    "(%.2f a chain)\n", c->prefix, nodes, lost / 3600,
			    lost / 3600 / (double)n);
	return 0;
}

/*
 * A model trained on the weeks its setting is chosen on would be judged
 * on its own training: left out of the choice, and said in pv->insample
 */
static void
insample(const struct mg_evaluation *ev, struct mg_target_prov *pv)
{
	char last[32], from[32], need[32];
	size_t n = 0;
	int k;

	*pv->insample = '\0';
	for (k = 0; k < ev->cc.nmodels; k++) {
		const struct mg_model *m = ev->cc.model[k];

		if (m == NULL || !mg_target_insample(m->to, pv->models_before) ||
		    n >= sizeof(pv->insample))
			continue;
		mg_format_time(m->to, last, sizeof(last));
		mg_format_time(pv->history_from, from, sizeof(from));
		mg_format_time(m->to + (pv->history_from - pv->models_before),
		    need, sizeof(need));
		n += (size_t)snprintf(pv->insample + n, sizeof(pv->insample) -
		    n, "%smodel '%s' was trained on episodes up to %s, and the "
		    "settings are chosen on episodes from %s: it is left out "
		    "of the choice (never recommended); train it on weeks that "
		    "end before them, or choose from %s on (--train-from)",
		    n ? "; " : "", ev->cc.name[k], last, from, need);
	}
}

/* the cluster model's links have no ready time and queue one successor:
 * --ready-time and --ahead go with the real jobs.  0 or MG_EINVAL */
static int
model_links(const struct mg_evalconf *c, struct mg_diag *d)
{
	if (c->ready_time > 0 || c->ahead > 1)
		return mg_diag_set(d, MG_EINVAL, "--%s goes with --real",
		    c->ready_time > 0 ? "ready-time" : "ahead");
	return 0;
}

int
mg_evaluation_choose(struct mg_evaluation *ev, struct mg_choice **out,
    struct mg_target_prov *pv, int *run, struct mg_diag *d)
{
	const struct mg_evalconf *c = ev->c;
	int64_t last;
	struct mg_epsel ts;
	struct mg_compare *cmp;
	char a[32], b[32];
	int rv;

	*run = 0;
	if ((rv = model_links(c, d)) != 0)
		return rv;
	(void)mg_target_training(&c->sel, c->have_train_from ? &c->train_from :
	    NULL, c->train_count, &ts);
	if ((*run = (rv = compare(ev, &ts, &cmp, d)) != 0))
		return rv;
	pv->cluster_nodes = ev->def->nodes;
	pv->history_end = mg_target_known(&ts);
	pv->history_from = ts.from;
	/* a model is chosen only on episodes after its training's
	 * outcomes were known, as in a walk */
	pv->models_before = ts.from - c->sel.e.workload;
	rv = mg_target_choose_all(cmp, c->target, c->ntarget, c->folds,
	    c->confidence, pv->models_before, out, d);
	insample(ev, pv);
	mg_compare_free(cmp);
	last = ts.from + (ts.count - 1) * ts.every;
	mg_format_time(ts.from, a, sizeof(a));
	mg_format_time(last, b, sizeof(b));
	if (rv == 0 && c->say != NULL)
		fprintf(c->say, "%ssettings chosen on %ld episodes from %s to "
		    "%s, %d time-blocked folds\n", c->prefix, ts.count, a, b,
		    c->folds);
	return rv;
}

int
mg_evaluation_walk(struct mg_evaluation *ev, struct mg_walk **out, int *run,
    struct mg_diag *d)
{
	const struct mg_evalconf *c = ev->c;
	struct mg_epsel all = mg_walk_episodes(&c->sel, c->history);
	struct mg_walkconf wc = { c->sel.from, c->walk, c->history,
	    c->sel.e.workload, c->target[0], c->confidence, c->folds,
	    c->handover };
	struct mg_compare *cmp;
	int rv;

	*run = 0;
	if ((rv = model_links(c, d)) != 0)
		return rv;
	if ((*run = (rv = compare(ev, &all, &cmp, d)) != 0))
		return rv;
	ev->walked = cmp;
	if ((rv = mg_walk_run(cmp, &wc, out, d)) == 0 && c->say != NULL)
		fprintf(c->say, "%s%d periods walked forward, each chosen on "
		    "the %g days before it\n", c->prefix, mg_walk_periods(*out),
		    (double)c->history / 86400);
	return rv;
}

void
mg_evaluation_close(struct mg_evaluation *ev)
{
	mg_compare_models_free(&ev->cc);
	mg_plan_free(ev->plan);
	mg_compare_free(ev->walked);
	ev->plan = NULL;
	ev->walked = NULL;
}
