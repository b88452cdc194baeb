/*
 * target.c: settings chosen for a reliability target on time-blocked
 * folds (target.h); what they bring elsewhere is targetwrite.c's, a
 * model's threshold targetmodel.c's.
 */
#include <sys/stat.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/parse.h"
#include "base/stats.h"
#include "eval/target.h"
#include "episode/episode.h"
#include "episode/protocol.h"

double
mg_target_share(const int64_t *x, size_t lo, size_t hi)
{
	size_t k, ok = 0;

	for (k = lo; k < hi; k++)
		ok += x[k] <= 0;
	return hi > lo ? (double)ok / (double)(hi - lo) : 1;
}

/* what outcomes x cost a chain of v's: the mean lease given up under a
 * handover, else the mean overlap (hours) */
static double
cost(const struct mg_compare_view *v, const int64_t *x)
{
	double held, lease, ovl = 0;
	size_t k;

	if (v->handing > 0) {
		mg_handover_costs(x, v->n, v->nodes, v->handing, &held,
		    &lease);
		return lease;
	}
	for (k = 0; k < v->n; k++)
		ovl += x[k] < 0 ? (double)-x[k] / 3600 : 0;
	return v->n > 0 ? ovl / (double)v->n : 0;
}

/* the least share of a fold of x */
static double
worst(const struct mg_compare_view *v, const int64_t *x, int folds)
{
	double w = 1, s;
	int b;

	for (b = 0; b < folds; b++) {
		s = mg_target_share(x, v->n * (size_t)b / (size_t)folds,
		    v->n * (size_t)(b + 1) / (size_t)folds);
		if (s < w)
			w = s;
	}
	return w;
}

/* the share of v's episodes lo..hi the bound brings through */
static double
bound_share(const struct mg_compare_view *v, size_t lo, size_t hi)
{
	size_t k, ok = 0;

	for (k = lo; k < hi; k++)
		ok += v->bound[k] >= 0;
	return hi > lo ? (double)ok / (double)(hi - lo) : 1;
}

/* whether x reaches target in every fold (or the bound's share, where
 * it is lower) */
static int
reaches(const struct mg_compare_view *v, const int64_t *x, int folds,
    double target)
{
	size_t lo, hi;
	int b;

	for (b = 0; b < folds; b++) {
		lo = v->n * (size_t)b / (size_t)folds;
		hi = v->n * (size_t)(b + 1) / (size_t)folds;
		if (mg_target_share(x, lo, hi) < fmin(target, bound_share(v,
		    lo, hi)) - 1e-9)
			return 0;
	}
	return 1;
}

int
mg_target_folds(const struct mg_compare_view *v, int point, int folds,
    double target, double *out)
{
	const int64_t *x = point >= 0 ? v->xc[point] : v->x;
	int b;

	for (b = 0; b < folds; b++)
		out[b] = mg_target_share(x, v->n * (size_t)b / (size_t)folds,
		    v->n * (size_t)(b + 1) / (size_t)folds);
	return reaches(v, x, folds, target);
}

void
mg_target_span(const struct mg_compare_view *v, size_t lo, size_t hi,
    const int64_t **xc, struct mg_compare_view *out)
{
	size_t c;

	*out = *v;
	for (c = 0; c < v->npoints; c++)
		xc[c] = v->xc[c] + lo;
	out->xc = (int64_t *const *)xc;
	out->x = v->x + lo;
	out->bound = v->bound + lo;
	out->start = v->start != NULL ? v->start + lo : NULL;
	out->n = hi - lo;
}

/* how well a point does: 2 certified, 1 the target in every fold, 0 not */
static int
rank(const struct mg_compare_view *v, const int64_t *x, int folds,
    double target, double conf, double *lower)
{
	size_t k, ok = 0;

	for (k = 0; k < v->n; k++)
		ok += x[k] <= 0;
	*lower = mg_binom_lower(ok, v->n, conf);
	if (!reaches(v, x, folds, target))
		return 0;
	return *lower >= target - 1e-9 ? 2 : 1;
}

void
mg_target_choose_view(const struct mg_compare_view *v, double target,
    int folds, double conf, struct mg_choice *ch)
{
	double lo;
	size_t c;
	int b, r, cr = 0;

	memset(ch, 0, sizeof(*ch));
	ch->point = -1;
	ch->bound = 1;
	ch->n = v->n;
	for (b = 0; b < folds; b++)
		ch->bound = fmin(ch->bound, bound_share(v, v->n * (size_t)b /
		    (size_t)folds, v->n * (size_t)(b + 1) / (size_t)folds));
	if (v->npoints == 0) {
		ch->worst = worst(v, v->x, folds);
		ch->cost = cost(v, v->x);
		cr = rank(v, v->x, folds, target, conf, &ch->lower);
	}
	for (c = 0; c < v->npoints; c++) {
		double w = worst(v, v->xc[c], folds), k = cost(v, v->xc[c]);

		r = rank(v, v->xc[c], folds, target, conf, &lo);
		if (ch->point < 0 || r > cr || (r == cr && (r > 0 ?
		    k < ch->cost || (k == ch->cost && w > ch->worst) :
		    w > ch->worst || (w == ch->worst && k < ch->cost)))) {
			ch->point = (int)c;
			ch->setting = v->grid[c];
			ch->worst = w;
			ch->cost = k;
			ch->lower = lo;
			cr = r;
		}
	}
	ch->reached = cr > 0;
	/* never above the ceiling: no submission time keeps more than the
	 * bound of the history's worst fold, so neither a certificate nor
	 * a promise is issued above it */
	ch->certified = cr == 2 && ch->bound >= target - 1e-9;
	ch->promise = fmin(ch->certified ? target : ch->lower, ch->bound);
	ch->confidence = conf;
	ch->kind = v->kind;
}

/* how much a kind of method sees of the queue now: a margin on an
 * estimate, a model's risk, the planner's price 2; a fixed lead 1; a
 * rule without a setting (afterany, the average wait) 0 */
static int
queue_rank(enum mg_setting kind)
{
	return kind == MG_SETTING_LEAD ? 1 : kind == MG_SETTING_NONE ? 0 : 2;
}

int
mg_target_best(const struct mg_choice *ch, int nm)
{
	int m, b = -1;

	for (m = 0; m < nm; m++) {
		const struct mg_choice *h = &ch[m], *o = b >= 0 ? &ch[b] : NULL;
		int hq = queue_rank(h->kind), oq;

		if (h->point == -2 || !h->reached || h->insample)
			continue;
		oq = o != NULL ? queue_rank(o->kind) : 0;
		if (o == NULL || h->certified > o->certified ||
		    (h->certified == o->certified && (hq > oq || (hq == oq &&
		    h->cost < o->cost))))
			b = m;
	}
	return b;
}

/*
 * mg_target_choose: every method's setting in every table of c (the
 * training period's comparison) for target (0 < target < 1) on folds
 * time-blocked folds, into ch[table * nmethods + m] (nmethods as
 * mg_compare_nmethods() says).  A point whose share's lower bound at
 * confidence conf reaches the target (certified) comes before one that
 * only reaches it in every fold.  MG_EINVAL if a table has fewer
 * episodes than folds.
 */
static int
mg_target_choose(const struct mg_compare *c, double target, int folds,
    double conf, int64_t models_before, struct mg_choice *ch,
    struct mg_diag *d)
{
	int nm = mg_compare_nmethods(c), i, m, best;
	struct mg_compare_view v;

	if (!(target > 0 && target < 1) || !(conf > 0 && conf < 1) ||
	    folds < 1 || folds > MG_TARGET_MAXFOLDS)
		return mg_diag_set(d, MG_EINVAL, "a target and a confidence "
		    "between 0 and 1 and 1 to %d folds", MG_TARGET_MAXFOLDS);
	for (i = 0; i < mg_compare_ntables(c); i++) {
		for (m = 0; m < nm; m++) {
			struct mg_choice *h = &ch[i * nm + m];

			if (mg_compare_view(c, i, m, &v) != 0) {
				memset(h, 0, sizeof(*h));
				h->point = -2;	/* not a row */
				continue;
			}
			if (v.n < (size_t)folds)
				return mg_diag_set(d, MG_EINVAL, "%zu episodes "
				    "of %d-node chains to choose on, fewer "
				    "than the %d folds", v.n, v.nodes, folds);
			mg_target_choose_view(&v, target, folds, conf, h);
			h->insample = mg_target_insample(v.trained_to,
			    models_before);
		}
		if ((best = mg_target_best(&ch[i * nm], nm)) >= 0)
			ch[i * nm + best].best = 1;
	}
	return MG_OK;
}

int
mg_target_choose_all(const struct mg_compare *c, const double *target,
    int n, int folds, double conf, int64_t models_before,
    struct mg_choice **out, struct mg_diag *d)
{
	size_t per = (size_t)mg_compare_ntables(c) *
	    (size_t)mg_compare_nmethods(c);
	struct mg_choice *ch;
	int k, rv;

	if ((ch = calloc(per * (size_t)n, sizeof(*ch))) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	for (k = 0; k < n; k++)
		if ((rv = mg_target_choose(c, target[k], folds, conf,
		    models_before, &ch[(size_t)k * per], d)) != 0) {
			free(ch);
			return rv;
		}
	*out = ch;
	return 0;
}

int
mg_target_insample(int64_t to, int64_t models_before)
{
	return to > 0 && to > models_before;
}

int
mg_target_training(const struct mg_epsel *sel, const int64_t *from,
    long count, struct mg_epsel *ts)
{
	if (count == 0)
		count = (long)sel->n;
	*ts = mg_epsel_span(sel, from != NULL ? *from : sel->from -
	    sel->e.workload - count * sel->every, count);
	return mg_target_known(ts) > sel->from && sel->from > ts->from;
}

int64_t
mg_target_known(const struct mg_epsel *ts)
{
	return ts->from + (ts->count - 1) * ts->every + ts->e.workload;
}
