/*
 * compare.c: the methods compared on the same episodes, their outcomes,
 * curves and reports (compare.h).
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval/compare.h"
#include "episode/protocol.h"
#include "io/stream.h"

enum kind { K_REACTIVE, K_AVERAGE, K_ESTIMATE, K_ORACLE };
#define NBASE		MG_COMPARE_NBASE
#define MAXMETHODS	MG_COMPARE_MAX

static const char *const base_name[NBASE] = {
	"reactive", "average-wait", "scheduler-estimate", "oracle",
};

/*
 * thresholds of the interruption/overlap curve: hours of predicted
 * overlap accepted (submit when the predicted gap is at least -h), and
 * for classifiers the accepted risk of interruption
 */
static const double curve_h[] = { -4, -2, -1, -0.5, -0.25, 0, 0.25, 0.5,
	0.75, 1, 1.5, 2, 3, 4, 6, 8 };
static const double curve_p[] = { 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.25,
	0.2, 0.15, 0.1, 0.07, 0.05, 0.03, 0.02, 0.01 };
/* and for the planner, the price of an hour of overlap in hours of
 * interruption, lambda (the cheaper, the earlier it submits) */
static const double curve_l[] = { 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4,
	0.5, 0.7, 1, 1.5, 2, 3, 5, 8, 15 };
#define NCURVE	(sizeof(curve_h) / sizeof(curve_h[0]))
/*
 * Under a handover an early start costs only the lease given up, so the
 * curves reach to the whole limit: hours of overlap accepted (and the
 * fixed leads' hours), classifiers' accepted risk, the planner's price
 * of an hour of lease given up
 */
static const double hcurve_h[NCURVE] = { 0, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 10,
	12, 16, 20, 24, 36, 48 };
static const double hcurve_p[NCURVE] = { 0.5, 0.3, 0.2, 0.15, 0.1, 0.07,
	0.05, 0.03, 0.02, 0.01, 0.007, 0.005, 0.003, 0.002, 0.001, 0.0001 };
static const double hcurve_l[NCURVE] = { 1, 0.5, 0.3, 0.2, 0.15, 0.1, 0.07,
	0.05, 0.03, 0.02, 0.015, 0.01, 0.007, 0.005, 0.003, 0.001 };
/* mean overlap budgets (hours) of the oracle bound's curve */
static const double budget_h[] = { 0, 0.25, 0.5, 1, 2, 4, 8 };
#define NBUDGET	(sizeof(budget_h) / sizeof(budget_h[0]))
/* and of mean lease given up, under a handover */
static const double hbudget_h[NBUDGET] = { 0, 0.5, 1, 2, 4, 8, 16 };

/*
 * the threshold rule fed the true outcome (mg_perfect_score()): of
 * submitting now, and of waiting one more tick
 */
#define NPERFECT	2
static const char *const perfect_name[NPERFECT] = {
	"perfect-predictor", "perfect-lookahead",
};

/* the leads of the fixed-lead baselines (a handover): what chains that
 * submit at a fixed offset (after:P+M, --begin) do today */
static const int lead_h[] = { 1, 4, 12, 24 };
#define NLEAD	(sizeof(lead_h) / sizeof(lead_h[0]))

/* a learned method: its model and where its features are in an
 * outcome; or the planner (m NULL) and its price of overlap */
struct lmethod {
	struct mg_model *m;
	size_t *col;
	char name[64];
	double lambda;
	enum mg_plancost_kind cost;
	int preempt;		/* "reactive-preempt": S urgent at P's end */
	int hybrid;		/* the planner and model m: enum mg_hybrid */
	size_t src;		/* a hybrid's model's method */
	int64_t lead;		/* "lead-Lh": S at P's end - L, seconds */
};

/* per chain size: each method's outcome and time, episode by episode */
struct table {
	int32_t nodes;
	size_t n, cap;
	int64_t *x[MAXMETHODS], *t[MAXMETHODS];
	int64_t *xc[MAXMETHODS][NCURVE];	/* curve points */
	int64_t *s0;
	int64_t *bovl, *bint;	/* mg_oracle_bound() of each episode */
	int64_t *xp[NPERFECT][NCURVE];	/* the perfect predictors' curves */
	double caused;		/* node-seconds reactive-preempt's victims
				 * lost, over the episodes */
};

struct mg_compare {
	struct lmethod lm[MAXMETHODS - NBASE];
	const char *name[MAXMETHODS];
	int nmeth, nmodels;
	int64_t handing;	/* the handover time (seconds, 0: none) */
	int64_t dur;		/* P's duration (service figures) */
	const double *cv_h, *cv_p, *cv_l;	/* the curves in use */
	double lambda;
	struct table tb[MG_EPSEL_MAXSIZES];
	int ntab;
};

/* a method's figures under a handover */
struct hstat {
	double held, lease;	/* mg_handover_costs() */
	double reach[2];	/* the least mean lease given up with 99%
				 * and 99.9% of the chains through, or -1 */
	struct mg_renewal sv;
};
static const double reach_want[2] = { 0.99, 0.999 };

static int
nomem(struct mg_diag *d)
{
	return mg_diag_set(d, MG_ENOMEM, "out of memory");
}

int
mg_compare_new(const struct mg_compareconf *conf, struct mg_compare **out,
    struct mg_diag *d)
{
	struct mg_compare *c;
	int k, nmeth, nm = conf->nmodels;
	struct lmethod *lm;

	*out = NULL;
	if (nm < 0 || nm > MG_COMPARE_MAXMODELS)
		return mg_diag_set(d, MG_EINVAL, "at most %d models",
		    MG_COMPARE_MAXMODELS);
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return nomem(d);
	lm = c->lm;
	for (k = 0; k < NBASE; k++)
		c->name[k] = base_name[k];
	for (k = 0; k < nm; k++) {
		lm[k].m = conf->model[k];
		snprintf(lm[k].name, sizeof(lm[k].name), "%s", conf->name[k]);
		c->name[NBASE + k] = lm[k].name;
	}
	nmeth = NBASE + nm;
	if (conf->plan) {
		snprintf(lm[nm].name, sizeof(lm[0].name), "planner");
		lm[nm].lambda = conf->lambda;
		lm[nm].cost = conf->cost;
		c->name[nmeth++] = lm[nm].name;
	}
	/* the hybrids: the planner with each model of when to submit */
	for (k = 0; conf->plan && conf->hybrid && k < 3 * nm; k++) {
		struct lmethod *h = &lm[nmeth - NBASE];
		char hname[sizeof(h->name) + 16];
		int op = k < nm ? MG_HYBRID_AND : k < 2 * nm ? MG_HYBRID_OR :
		    MG_HYBRID_WEIGHT;

		if (!(conf->hybrid & op))
			continue;
		if (op == MG_HYBRID_WEIGHT && lm[k % nm].m->classifier)
			continue;	/* it weighs by a prediction of x */
		if (nmeth >= MAXMETHODS) {
			free(c);
			return mg_diag_set(d, MG_EINVAL, "--hybrid: too many "
			    "methods");
		}
		*h = lm[k % nm];
		h->src = (size_t)(k % nm);
		h->hybrid = op;
		h->lambda = conf->lambda;
		h->cost = conf->cost;
		snprintf(hname, sizeof(hname), "planner%s%s", op ==
		    MG_HYBRID_AND ? "&" : op == MG_HYBRID_OR ? "|" : "~",
		    lm[h->src].name);
		hname[sizeof(h->name) - 1] = '\0';	/* cut as the name is */
		memcpy(h->name, hname, sizeof(h->name));
		c->name[nmeth++] = h->name;
	}
	/* with a handover, the fixed leads people use today */
	for (k = 0; conf->handover > 0 && k < (int)NLEAD; k++) {
		struct lmethod *l = &lm[nmeth - NBASE];

		if (nmeth >= MAXMETHODS - 1) {
			free(c);
			return mg_diag_set(d, MG_EINVAL, "--handover: too many "
			    "methods");
		}
		l->lead = (int64_t)lead_h[k] * 3600;
		snprintf(l->name, sizeof(l->name), "lead-%dh", lead_h[k]);
		c->name[nmeth++] = l->name;
	}
	if (conf->preempt) {
		k = nmeth - NBASE;
		snprintf(lm[k].name, sizeof(lm[k].name), "reactive-preempt");
		lm[k].preempt = 1;
		c->name[nmeth++] = lm[k].name;
	}
	c->nmeth = nmeth;
	c->nmodels = nm;
	c->lambda = conf->lambda;
	c->handing = conf->handover > 0 ? conf->handover : 0;
	c->cv_h = c->handing ? hcurve_h : curve_h;
	c->cv_p = c->handing ? hcurve_p : curve_p;
	c->cv_l = c->handing ? hcurve_l : curve_l;
	*out = c;
	return MG_OK;
}

int
mg_compare_begin(struct mg_compare *c, const struct mg_epsel *sel,
    char *const *fnames, size_t nfn, int *bad, struct mg_diag *d)
{
	struct lmethod *lm = c->lm;
	int k, rv;

	*bad = -1;
	for (k = 0; k < c->nmodels; k++) {
		if ((lm[k].col = calloc(lm[k].m->nfeat, sizeof(size_t))) ==
		    NULL)
			return nomem(d);
		if ((rv = mg_model_bind(lm[k].m, fnames, nfn, lm[k].col,
		    d)) != 0) {
			*bad = k;
			return rv;
		}
	}
	for (k = 0; k < c->nmeth - NBASE; k++)	/* hybrids share them */
		if (lm[k].hybrid)
			lm[k].col = lm[lm[k].src].col;
	c->ntab = sel->nsizes;
	for (k = 0; k < c->ntab; k++)
		c->tb[k].nodes = sel->sizes[k];
	c->dur = sel->e.p_dur;
	return MG_OK;
}

size_t
mg_compare_prices(const struct mg_compare *c, double *price)
{
	size_t k;

	for (k = 0; k < NCURVE; k++)
		price[k] = c->cv_l[k];
	price[k++] = c->lambda;
	return k;
}

/* the first decision tick at or after P's end - lead, and not before
 * o->t_first (the reactive time if there is none, or if lead is 0) */
static size_t
lead_pick(const struct mg_outcome *o, int64_t lead)
{
	size_t k;

	if (lead <= 0)		/* at P's end: the reactive rule */
		return o->k_reactive;
	for (k = 0; k < o->n; k++)
		if (o->tick[k] && mg_rule_lead((double)(o->p_end - o->t[k]) /
		    3600, (double)lead / 3600) && o->t[k] >= o->t_first)
			return k;
	return o->k_reactive;
}

/* a model's score at each of the nt ticks: it submits at the first
 * whose score reaches its threshold (sign * threshold) */
static int
model_scores(const struct mg_outcome *o, const struct lmethod *lm,
    double *score, size_t nt, struct mg_diag *d)
{
	const struct mg_model *m = lm->m;
	float *X = malloc((nt ? nt : 1) * m->nfeat * sizeof(*X));
	size_t j, i;
	int rv;

	if (X == NULL)
		return nomem(d);
	for (j = 0; j < nt; j++)
		for (i = 0; i < m->nfeat; i++)
			X[j * m->nfeat + i] = o->feat[j * o->nfeat +
			    lm->col[i]];
	rv = mg_model_predict(lm->m, X, nt, score, d);
	free(X);
	if (rv != 0) {
		mg_diag_prefix(d, "%s", lm->name);
		return rv;
	}
	if (mg_model_kind(m->kind) & MG_KIND_POLICY) {
		/*
		 * A policy submits at tick j with probability p_j; evaluated
		 * deterministically, it submits once the probability that it
		 * has submitted by now reaches the threshold (0.5: the
		 * median of its submission time)
		 */
		double alive = 1;

		for (j = 0; j < nt; j++) {
			alive *= 1 - score[j];
			score[j] = 1 - alive;
		}
	}
	return MG_OK;
}

/* a learned method's submission into *pick; its curve points into
 * xc[c][at] */
static int
learned(const struct mg_compare *cp, const struct mg_outcome *o,
    const struct lmethod *lm, double *score, size_t nt, int64_t **xc,
    size_t at, size_t *pick, struct mg_diag *d)
{
	const struct mg_model *m = lm->m;
	size_t c;
	double sign = m->classifier ? 1 : -1;
	int rv;

	if ((rv = model_scores(o, lm, score, nt, d)) != 0)
		return rv;
	mg_rule_ticks(m, o, score);	/* as the live chain decides */
	for (c = 0; c < NCURVE; c++)
		xc[c][at] = o->x[mg_protocol_choose_first(o, score,
		    m->classifier ? cp->cv_p[c] : -cp->cv_h[c])];
	/* regressors: submit when x_hat >= -threshold hours */
	*pick = mg_protocol_choose_first(o, score, m->classifier ?
	    m->threshold : sign * m->threshold);
	return MG_OK;
}

/* the planner's submission at price lambda: the first tick where
 * submitting now costs no more than waiting (plan.h) */
static size_t
planned(const struct mg_compare *cp, const struct mg_outcome *o,
    const struct mg_plancost *pc, enum mg_plancost_kind kind, double lambda,
    double *score, size_t nt)
{
	size_t j;

	for (j = 0; j < nt; j++)
		score[j] = mg_plan_submit(&pc[j], kind, lambda, cp->handing);
	return mg_protocol_choose_first(o, score, 0.5);
}

/*
 * The planner's futures weighed by a regressor's prediction of x now:
 * the model's x_hat is a noisy reading of the true x, with the spread
 * of its residuals on its training samples (resid_p10, resid_p90 in its
 * parameters); a future whose x now is z hours from x_hat weighs
 * exp(-z^2 / 2 sigma^2), so the futures that agree with the model count
 * for more.  o->plan[j] weighed, into pc[j].
 */
static void
weighed(const struct mg_outcome *o, const struct mg_model *m,
    const double *xhat, size_t nt, struct mg_plancost *pc)
{
	double w[MG_PLAN_MAXK], p10, p90, sigma = 1;
	size_t j;
	int k;

	if (mg_model_spread(m, &p10, &p90) == 0 && p90 - p10 > 0.1)
		sigma = (p90 - p10) / 2.563;	/* a normal's 10-90% range */
	for (j = 0; j < nt; j++) {
		const struct mg_plancost *c = &o->plan[j];

		if (c->n == 0 || c->k == 0) {
			pc[j] = *c;
			continue;
		}
		for (k = 0; k < c->k; k++) {
			double z = ((double)c->xk[k][0] / 3600 - xhat[j]) /
			    sigma;

			w[k] = exp(-0.5 * z * z) + 1e-9;
		}
		mg_plan_weigh(c, w, &pc[j]);
	}
}

/*
 * a hybrid's submission at price lambda: the first tick where both the
 * planner and the model (at its threshold) would submit, or either;
 * its curve is the planner's prices
 */
static int
hybrid(const struct mg_compare *cp, const struct mg_outcome *o,
    const struct lmethod *lm, double *score, size_t nt, int64_t **xc,
    size_t at, size_t *pick, struct mg_diag *d)
{
	const struct mg_model *m = lm->m;
	double th = m->classifier ? m->threshold : -m->threshold;
	unsigned char *ok = malloc(nt ? nt : 1);
	size_t j, c;
	int rv;

	if (ok == NULL)
		return nomem(d);
	if ((rv = model_scores(o, lm, score, nt, d)) != 0) {
		free(ok);
		return rv;
	}
	mg_rule_ticks(m, o, score);
	for (j = 0; j < nt; j++)
		ok[j] = score[j] >= th;
	*pick = 0;
	for (c = 0; c <= NCURVE; c++) {
		/* the planner's own scores at this price, then combined */
		planned(cp, o, o->plan, lm->cost, c < NCURVE ? cp->cv_l[c] :
		    lm->lambda, score, nt);
		for (j = 0; j < nt; j++)
			score[j] = lm->hybrid == MG_HYBRID_AND ? score[j] >=
			    0.5 && ok[j] : score[j] >= 0.5 || ok[j];
		*pick = mg_protocol_choose_first(o, score, 0.5);
		if (c < NCURVE)
			xc[c][at] = o->x[*pick];
	}
	free(ok);
	return MG_OK;
}

/* the planner's submission on its costs pc, its curve points into
 * xc[c][at] */
static size_t
planner(const struct mg_compare *cp, const struct mg_outcome *o,
    const struct mg_plancost *pc, const struct lmethod *lm, double *score,
    size_t nt, int64_t **xc, size_t at)
{
	size_t c;

	for (c = 0; c < NCURVE; c++)
		xc[c][at] = o->x[planned(cp, o, pc, lm->cost, cp->cv_l[c],
		    score, nt)];
	return planned(cp, o, pc, lm->cost, lm->lambda, score, nt);
}

/* the planner on its futures weighed by the model (weighed()) */
static int
weighed_planner(const struct mg_compare *cp, const struct mg_outcome *o,
    const struct lmethod *lm, double *score, size_t nt, int64_t **xc,
    size_t at, size_t *pick, struct mg_diag *d)
{
	struct mg_plancost *pc = malloc((nt ? nt : 1) * sizeof(*pc));
	int rv;

	if (pc == NULL)
		return nomem(d);
	if ((rv = model_scores(o, lm, score, nt, d)) == 0) {
		weighed(o, lm->m, score, nt, pc);
		*pick = planner(cp, o, pc, lm, score, nt, xc, at);
	}
	free(pc);
	return rv;
}

/* room for one more episode in tb */
static int
grow(struct table *tb, int nmeth)
{
	size_t c;
	int m;

	if (tb->n < tb->cap)
		return MG_OK;
	tb->cap = tb->cap ? 2 * tb->cap : 256;
	for (m = 0; m < nmeth; m++) {
		tb->x[m] = realloc(tb->x[m], tb->cap * sizeof(int64_t));
		tb->t[m] = realloc(tb->t[m], tb->cap * sizeof(int64_t));
		if (tb->x[m] == NULL || tb->t[m] == NULL)
			return MG_ENOMEM;
		for (c = 0; c < NCURVE; c++)
			if ((tb->xc[m][c] = realloc(tb->xc[m][c],
			    tb->cap * sizeof(int64_t))) == NULL)
				return MG_ENOMEM;
	}
	for (m = 0; m < NPERFECT; m++)
		for (c = 0; c < NCURVE; c++)
			if ((tb->xp[m][c] = realloc(tb->xp[m][c],
			    tb->cap * sizeof(int64_t))) == NULL)
				return MG_ENOMEM;
	if ((tb->s0 = realloc(tb->s0, tb->cap * sizeof(int64_t))) == NULL ||
	    (tb->bovl = realloc(tb->bovl, tb->cap * sizeof(int64_t))) ==
	    NULL || (tb->bint = realloc(tb->bint, tb->cap *
	    sizeof(int64_t))) == NULL)
		return MG_ENOMEM;
	return MG_OK;
}

/* method m's decision on o (m a learned method, the planner, a hybrid,
 * a fixed lead or reactive-preempt) into tb's row n */
static int
decide(struct mg_compare *cp, struct table *tb, int m,
    const struct mg_outcome *o, double *score, size_t nt,
    struct mg_diag *d)
{
	const struct lmethod *lm = &cp->lm[m - NBASE];
	size_t pick = 0, c;
	int rv = MG_OK;

	if (lm->lead > 0) {
		pick = lead_pick(o, lm->lead);
		for (c = 0; c < NCURVE; c++)
			tb->xc[m][c][tb->n] = o->x[lead_pick(o,
			    (int64_t)(cp->cv_h[c] * 3600))];
	} else if (lm->preempt) {
		tb->x[m][tb->n] = o->x_urgent;
		tb->t[m][tb->n] = o->p_end;
		tb->caused += o->caused_urgent;
		return MG_OK;
	} else if (lm->hybrid == MG_HYBRID_WEIGHT)
		rv = weighed_planner(cp, o, lm, score, nt, tb->xc[m], tb->n,
		    &pick, d);
	else if (lm->hybrid)
		rv = hybrid(cp, o, lm, score, nt, tb->xc[m], tb->n, &pick, d);
	else if (lm->m == NULL)
		pick = planner(cp, o, o->plan, lm, score, nt, tb->xc[m],
		    tb->n);
	else
		rv = learned(cp, o, lm, score, nt, tb->xc[m], tb->n, &pick,
		    d);
	tb->x[m][tb->n] = o->x[pick];
	tb->t[m][tb->n] = o->t[pick];
	return rv;
}

/* mg_compare_add: every method's decision on outcome o, into the
 * table'th table (o->n > 0) */
static int
mg_compare_add(struct mg_compare *cp, int table, const struct mg_outcome *o,
    struct mg_diag *d)
{
	struct table *tb = &cp->tb[table];
	double *score;
	size_t k, j, c, nt = 0, col;
	int m, rv;

	if (grow(tb, cp->nmeth) != 0)
		return nomem(d);
	for (k = 0; k < o->n; k++)
		nt += o->tick[k];
	if ((score = malloc((nt ? nt : 1) * sizeof(*score))) == NULL)
		return nomem(d);
	/* the scheduler's estimate: the plan's start minus P's expected end */
	col = mg_rule_estimate_col();
	for (j = 0; j < nt; j++)
		score[j] = o->feat[j * o->nfeat + col];
	for (m = 0; m < cp->nmeth; m++) {
		size_t pick;

		switch (m) {
		case K_REACTIVE:
			pick = o->k_reactive;
			break;
		case K_AVERAGE:
			/* not before P's start when handing over */
			for (pick = o->k_avg; pick + 1 < o->n &&
			    o->t[pick] < o->t_first; pick++)
				;
			break;
		case K_ESTIMATE:
			pick = mg_protocol_choose_first(o, score, 0);
			for (c = 0; c < NCURVE; c++)
				tb->xc[m][c][tb->n] = o->x[
				    mg_protocol_choose_first(o, score,
				    -cp->cv_h[c])];
			break;
		case K_ORACLE:
			pick = mg_choose_oracle(o);
			break;
		default:
			if ((rv = decide(cp, tb, m, o, score, nt, d)) != 0) {
				free(score);
				return rv;
			}
			continue;
		}
		tb->x[m][tb->n] = o->x[pick];
		tb->t[m][tb->n] = o->t[pick];
	}
	for (m = 0; m < NPERFECT; m++) {
		mg_perfect_score(o, (size_t)m, score);
		for (c = 0; c < NCURVE; c++)
			tb->xp[m][c][tb->n] = o->x[mg_protocol_choose_first(o,
			    score, -cp->cv_h[c])];
	}
	mg_oracle_bound(o, &tb->bovl[tb->n], &tb->bint[tb->n]);
	tb->s0[tb->n++] = o->s0;
	free(score);
	return MG_OK;
}

/* the share without interruption per load class, as text */
static const char *
load_text(const struct mg_summary *s, char *b, size_t len)
{
	snprintf(b, len, "%.0f/%.0f/%.0f (%zu/%zu/%zu)",
	    100 * s->no_int_load[0], 100 * s->no_int_load[1],
	    100 * s->no_int_load[2], s->n_load[0], s->n_load[1],
	    s->n_load[2]);
	return b;
}

/* the first fixed-lead method: its curve is the leads' */
static int
first_lead(const struct mg_compare *cp)
{
	int m;

	for (m = NBASE; m < cp->nmeth; m++)
		if (cp->lm[m - NBASE].lead)
			return m;
	return -1;
}

/* the mean lease given up (hours) by outcomes x if they bring a share of
 * at least want of the chains through, or -1 */
static double
reach_one(const struct mg_compare *cp, const struct table *tb,
    const int64_t *x, double want)
{
	double held, lease;
	size_t k, ok;

	for (k = ok = 0; k < tb->n; k++)
		ok += x[k] <= 0;
	if ((double)ok < want * (double)tb->n - 1e-9)
		return -1;
	mg_handover_costs(x, tb->n, tb->nodes, cp->handing, &held, &lease);
	return lease;
}

/* the least of that over a curve's points, or -1 if none reaches want */
static double
reach(const struct mg_compare *cp, const struct table *tb,
    int64_t *const *x, double want)
{
	double best = -1, r;
	size_t c;

	for (c = 0; c < NCURVE; c++)
		if ((r = reach_one(cp, tb, x[c], want)) >= 0 && (best < 0 ||
		    r < best))
			best = r;
	return best;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* the same for a method that knew the future: the cheapest leases;
 * -2 out of memory */
static double
reach_bound(const struct mg_compare *cp, const struct table *tb,
    double want)
{
	int64_t *l = malloc((tb->n ? tb->n : 1) * sizeof(*l));
	size_t k, m = 0, need = (size_t)ceil(want * (double)tb->n - 1e-9);
	double sum = 0;

	if (l == NULL)
		return -2;
	for (k = 0; k < tb->n; k++)
		if (tb->bovl[k] >= 0)
			l[m++] = tb->bovl[k] > cp->handing ? tb->bovl[k] -
			    cp->handing : 0;
	if (m > 0)
		qsort(l, m, sizeof(*l), cmp_i64);
	for (k = 0; k < need && k < m; k++)
		sum += (double)l[k];
	free(l);
	return need > m || tb->n == 0 ? -1 : sum / 3600 / (double)tb->n;
}

static const char *
hours(double h, char *b, size_t len)
{
	if (h < 0)
		snprintf(b, len, "never");
	else
		snprintf(b, len, "%.2f h", h);
	return b;
}

/*
 * Each method's figures: a method with a curve (a model, the planner,
 * the estimate, and the fixed leads over every lead from 0 to the
 * whole limit) reaches 99% where its curve first does; the others at
 * their one setting; the oracle's are the bound's (the least any method
 * choosing among the same times gives up).  The 30 days are at each
 * method's own setting.
 */
static struct hstat *
handover_stats(const struct mg_compare *cp)
{
	const struct lmethod *lm = cp->lm;
	int i, m, w, lead = first_lead(cp), nmeth = cp->nmeth;
	struct hstat *hs = calloc((size_t)(cp->ntab * nmeth + 1), sizeof(*hs));

	if (hs == NULL)
		return NULL;
	for (i = 0; i < cp->ntab; i++)
		for (m = 0; m < nmeth; m++) {
			const struct table *tb = &cp->tb[i];
			struct hstat *h = &hs[i * nmeth + m];
			int curve = m == K_ESTIMATE || (m >= NBASE &&
			    !lm[m - NBASE].preempt);

			mg_handover_costs(tb->x[m], tb->n, tb->nodes,
			    cp->handing, &h->held, &h->lease);
			mg_renewal(tb->x[m], tb->n, tb->nodes, cp->dur,
			    cp->handing, &h->sv);
			for (w = 0; w < 2; w++)
				h->reach[w] = m == K_ORACLE ?
				    reach_bound(cp, tb, reach_want[w]) :
				    !curve ? reach_one(cp, tb, tb->x[m],
				    reach_want[w]) : reach(cp, tb, tb->xc[
				    m >= NBASE && lm[m - NBASE].lead ? lead :
				    m], reach_want[w]);
			if (h->reach[0] < -1 || h->reach[1] < -1) {
				free(hs);
				return NULL;
			}
		}
	return hs;
}

/*
 * With a handover, after the table: where each method brings 99% and
 * 99.9% of the chains through and at what lease given up, against the
 * fixed leads; and what a service whose links fare as these episodes
 * did costs over 30 days at each method's own setting.
 */
static void
print_handover(const struct mg_compare *cp, FILE *fp, const struct hstat *hs)
{
	const char *const *name = cp->name;
	const struct lmethod *lm = cp->lm;
	char a[32], b[32];
	int i, m, lead = first_lead(cp);

	for (i = 0; i < cp->ntab; i++) {
		const struct hstat *h = &hs[i * cp->nmeth];
		int best = -1;

		fprintf(fp, "\nhanding over in %.0f min, %d-node chains: the "
		    "least mean lease given up at which\neach method brings "
		    "99%% and 99.9%% of the chains through (its curve)\n",
		    (double)cp->handing / 60, cp->tb[i].nodes);
		fprintf(fp, "  %-20s %10s %10s\n", "method", "99%", "99.9%");
		for (m = 0; m < cp->nmeth; m++) {
			int islead = m >= NBASE && lm[m - NBASE].lead;

			if ((m < NBASE && m != K_ESTIMATE) || (islead &&
			    m != lead) || (m >= NBASE && lm[m - NBASE].preempt))
				continue;
			fprintf(fp, "  %-20s %10s %10s\n", islead ?
			    "fixed lead" : name[m], hours(h[m].reach[0], a,
			    sizeof(a)), hours(h[m].reach[1], b, sizeof(b)));
			if (!islead && h[m].reach[0] >= 0 && (best < 0 ||
			    h[m].reach[0] < h[best].reach[0]))
				best = m;
		}
		fprintf(fp, "  %-20s %10s %10s\n", "oracle-bound",
		    hours(h[K_ORACLE].reach[0], a, sizeof(a)),
		    hours(h[K_ORACLE].reach[1], b, sizeof(b)));
		if (best >= 0 && lead >= 0 && h[lead].reach[0] > 0)
			fprintf(fp, "  at 99%%: %s gives up %.2f of the best "
			    "fixed lead's lease\n", name[best],
			    h[best].reach[0] / h[lead].reach[0]);
		else if (lead >= 0)
			fprintf(fp, "  at 99%%: %s\n", best < 0 ? "no method "
			    "reaches it" : "no fixed lead reaches it");
		fprintf(fp, "\n  over 30 days, links faring as these "
		    "episodes did:\n  %-20s %8s %10s %17s %12s\n", "method",
		    "down", "jobs/1000h", "wasted, run to end", "handing over");
		for (m = 0; m < cp->nmeth; m++)
			if (m != K_ESTIMATE)
				fprintf(fp, "  %-20s %6.1f h %10.1f %14.1f nh "
				    "%9.1f nh\n", name[m], h[m].sv.down_h,
				    h[m].sv.jobs_per_kh, h[m].sv.waste_nh,
				    h[m].sv.handover_waste_nh);
	}
}

/* the TSV header */
static void
tsv_header(FILE *fp, int handover)
{
	fprintf(fp, "method\tnodes\tepisodes\tno_interruption_share\t"
	    "seamless_share\tinterruption_mean_h\t"
	    "interruption_median_h\tinterruption_p90_h\t"
	    "overlap_mean_h\toracle_gap_h\tepisodes_low\t"
	    "episodes_medium\tepisodes_heavy\tno_interruption_low\t"
	    "no_interruption_medium\tno_interruption_heavy%s\n",
	    handover ? "\theld_twice_nh\tlease_given_h\t"
	    "reach_99_lease_h\treach_999_lease_h\tdown_h_30d\t"
	    "jobs_per_1000h\twasted_nh_30d\thandover_wasted_nh_30d" : "");
}

/* one row in text, a handover's figures h (or NULL) at its end */
static void
text_row(FILE *fp, const char *name, int32_t nodes,
    const struct mg_summary *s, const struct hstat *h)
{
	char ho[48] = "", lt[64];

	if (h != NULL)
		snprintf(ho, sizeof(ho), " %7.2f nh %8.2f h", h->held,
		    h->lease);
	fprintf(fp, "%-20s %5d %8zu %8.1f%% %7.2f h %7.2f h %7.2f h %7.2f h "
	    "%8.2f h  %-*s%s\n", name, nodes, s->n, 100 * s->no_interruption,
	    s->int_mean_h, s->int_median_h, s->int_p90_h, s->ovl_mean_h,
	    s->oracle_gap_h, h != NULL ? 26 : 0, load_text(s, lt,
	    sizeof(lt)), ho);
}

/* one row in TSV */
static void
tsv_row(FILE *fp, const char *name, int32_t nodes,
    const struct mg_summary *s, const struct hstat *h)
{
	fprintf(fp, "%s\t%d\t%zu\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t"
	    "%zu\t%zu\t%zu\t%.4f\t%.4f\t%.4f", name, nodes, s->n,
	    s->no_interruption, s->seamless, s->int_mean_h, s->int_median_h,
	    s->int_p90_h, s->ovl_mean_h, s->oracle_gap_h, s->n_load[0],
	    s->n_load[1], s->n_load[2], s->no_int_load[0], s->no_int_load[1],
	    s->no_int_load[2]);
	if (h != NULL)
		fprintf(fp, "\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f",
		    h->held, h->lease, h->reach[0], h->reach[1],
		    h->sv.down_h, h->sv.jobs_per_kh, h->sv.waste_nh,
		    h->sv.handover_waste_nh);
	fputc('\n', fp);
}

/* one row as a JSON object */
static struct json_object *
json_row(const char *name, int32_t nodes, const struct mg_summary *s,
    const struct hstat *h)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "method", json_object_new_string(name));
	json_object_object_add(o, "nodes", json_object_new_int(nodes));
	json_object_object_add(o, "episodes",
	    json_object_new_int64((int64_t)s->n));
#define JD(k, v) json_object_object_add(o, k, json_object_new_double(v))
	JD("no_interruption_share", s->no_interruption);
	JD("seamless_share", s->seamless);
	JD("interruption_mean_h", s->int_mean_h);
	JD("interruption_median_h", s->int_median_h);
	JD("interruption_p90_h", s->int_p90_h);
	JD("overlap_mean_h", s->ovl_mean_h);
	JD("oracle_gap_h", s->oracle_gap_h);
	JD("no_interruption_low", s->no_int_load[0]);
	JD("no_interruption_medium", s->no_int_load[1]);
	JD("no_interruption_heavy", s->no_int_load[2]);
	if (h != NULL) {
		JD("held_twice_nh", h->held);
		JD("lease_given_h", h->lease);
		JD("reach_99_lease_h", h->reach[0]);
		JD("reach_999_lease_h", h->reach[1]);
		JD("down_h_30d", h->sv.down_h);
		JD("jobs_per_1000h", h->sv.jobs_per_kh);
		JD("wasted_nh_30d", h->sv.waste_nh);
		JD("handover_wasted_nh_30d", h->sv.handover_waste_nh);
	}
#undef JD
	return o;
}

int
mg_compare_write(const struct mg_compare *cp, FILE *fp,
    enum mg_compare_format fmt, struct mg_diag *d)
{
	struct json_object *arr = NULL;
	struct hstat *hs = NULL;
	struct mg_summary s;
	int i, m;

	if (cp->handing > 0 && (hs = handover_stats(cp)) == NULL)
		return nomem(d);
	if (fmt == MG_COMPARE_TSV)
		tsv_header(fp, hs != NULL);
	else if (fmt == MG_COMPARE_JSON)
		arr = json_object_new_array();
	for (i = 0; i < cp->ntab; i++) {
		const struct table *tb = &cp->tb[i];

		if (fmt == MG_COMPARE_TEXT)
			fprintf(fp, "%s%-20s %5s %8s %9s %9s %9s %9s %9s %10s  "
			    "%-*s%s\n", i ? "\n" : "", "method", "nodes",
			    "episodes", "no-int %", "int mean", "int med",
			    "int p90", "ovl mean", "oracle gap",
			    hs != NULL ? 26 : 0, "no-int % low/med/heavy",
			    hs != NULL ? " held twice  lease given" : "");
		for (m = 0; m < cp->nmeth; m++) {
			const struct hstat *h = hs != NULL ?
			    &hs[i * cp->nmeth + m] : NULL;

			if (mg_protocol_summarize(tb->x[m], tb->x[K_ORACLE],
			    tb->x[K_REACTIVE], tb->n, &s) != 0) {
				free(hs);
				json_object_put(arr);
				return nomem(d);
			}
			if (fmt == MG_COMPARE_TEXT)
				text_row(fp, cp->name[m], tb->nodes, &s, h);
			else if (fmt == MG_COMPARE_TSV)
				tsv_row(fp, cp->name[m], tb->nodes, &s, h);
			else
				json_object_array_add(arr, json_row(
				    cp->name[m], tb->nodes, &s, h));
		}
	}
	if (fmt == MG_COMPARE_JSON) {
		fprintf(fp, "%s\n", json_object_to_json_string_ext(arr,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
	}
	if (hs != NULL && fmt == MG_COMPARE_TEXT)
		print_handover(cp, fp, hs);
	free(hs);
	return MG_OK;
}

/* one curve: a point per threshold, x[c] the outcomes at threshold c */
static int
curve_rows(const struct mg_compare *cp, FILE *fp, const char *name,
    const struct table *tb, int64_t *const *x, const double *thr)
{
	struct mg_summary s;
	size_t c;

	for (c = 0; c < NCURVE; c++) {
		if (mg_protocol_summarize(x[c], tb->x[K_ORACLE],
		    tb->x[K_REACTIVE], tb->n, &s) != 0)
			return MG_ENOMEM;
		fprintf(fp, "%s\t%d\t%g\t%.4f\t%.4f\t%.4f", name,
		    tb->nodes, thr[c],
		    s.no_interruption, s.int_mean_h, s.ovl_mean_h);
		if (cp->handing > 0) {
			double held, lease;

			mg_handover_costs(x[c], tb->n, tb->nodes, cp->handing,
			    &held, &lease);
			fprintf(fp, "\t%.4f\t%.4f", lease, held);
		}
		fputc('\n', fp);
	}
	return MG_OK;
}

/* the oracle bound's point within a budget of mean overlap, or under a
 * handover of mean lease given up (an overlap's part beyond it) */
static int
bound_row(const struct mg_compare *cp, FILE *fp, const struct table *tb,
    double budget)
{
	struct mg_summary s;
	int64_t *ovl = tb->bovl, handing = cp->handing;
	size_t k;
	int rv;

	if (handing > 0) {
		if ((ovl = malloc((tb->n ? tb->n : 1) * sizeof(*ovl))) == NULL)
			return MG_ENOMEM;
		for (k = 0; k < tb->n; k++)
			ovl[k] = tb->bovl[k] < 0 ? -1 : tb->bovl[k] > handing ?
			    tb->bovl[k] - handing : 0;
	}
	rv = mg_protocol_frontier(ovl, tb->bint, tb->n, budget * 3600, &s);
	if (ovl != tb->bovl)
		free(ovl);
	if (rv != 0)
		return MG_ENOMEM;
	fprintf(fp, "oracle-bound\t%d\t%g\t%.4f\t%.4f\t%.4f", tb->nodes,
	    budget, s.no_interruption, s.int_mean_h, handing > 0 ? NAN :
	    s.ovl_mean_h);
	if (handing > 0)
		fprintf(fp, "\t%.4f\tnan", s.ovl_mean_h);
	fputc('\n', fp);
	return MG_OK;
}

int
mg_compare_write_curve(const struct mg_compare *cp, FILE *fp,
    struct mg_diag *d)
{
	const struct lmethod *lm = cp->lm;
	size_t c;
	int i, m, rv = MG_OK;

	fprintf(fp, "method\tnodes\tthreshold\tno_interruption_share\t"
	    "interruption_mean_h\toverlap_mean_h%s\n", cp->handing > 0 ?
	    "\tlease_given_h\theld_twice_nh" : "");
	for (i = 0; i < cp->ntab && rv == 0; i++)
		for (m = 0; m < cp->nmeth && rv == 0; m++)
			if (m == K_ESTIMATE || (m >= NBASE &&
			    !lm[m - NBASE].preempt && (!lm[m - NBASE].lead ||
			    m == first_lead(cp))))
				rv = curve_rows(cp, fp, m >= NBASE &&
				    lm[m - NBASE].lead ? "lead" : cp->name[m],
				    &cp->tb[i], cp->tb[i].xc[m], m < NBASE ||
				    lm[m - NBASE].lead ? cp->cv_h :
				    lm[m - NBASE].m == NULL ? cp->cv_l :
				    lm[m - NBASE].m->classifier ? cp->cv_p :
				    cp->cv_h);
	/* what a perfect predictor of the outcome gets from the same rule */
	for (i = 0; i < cp->ntab && rv == 0; i++)
		for (m = 0; m < NPERFECT && rv == 0; m++)
			rv = curve_rows(cp, fp, perfect_name[m], &cp->tb[i],
			    cp->tb[i].xp[m], cp->cv_h);
	/* the bound: the best any method can do within each budget */
	for (i = 0; i < cp->ntab && rv == 0; i++)
		for (c = 0; c < NBUDGET && rv == 0; c++)
			rv = bound_row(cp, fp, &cp->tb[i], cp->handing > 0 ?
			    hbudget_h[c] : budget_h[c]);
	return rv != 0 ? nomem(d) : MG_OK;
}

static const struct mg_field outcome_fields[] = {
	{ "episode", MG_T_I64 }, { "ep_start", MG_T_I64 },
	{ "nodes", MG_T_I64 }, { "method", MG_T_STR },
	{ "t", MG_T_I64 }, { "x", MG_T_I64 }, { "load", MG_T_STR },
};

int
mg_compare_write_outcomes(const struct mg_compare *cp, FILE *fp,
    const struct mg_epsel *sel, const struct mg_writer_opts *wo,
    struct mg_diag *d)
{
	struct mg_schema sc = { "outcomes", 7, outcome_fields };
	struct mg_writer *w;
	struct mg_value v[7];
	size_t k;
	int i, m, rv;

	if ((rv = mg_writer_open(fp, &sc, wo, &w, d)) != 0)
		return rv;
	memset(v, 0, sizeof(v));
	for (i = 0; i < cp->ntab; i++)
		for (k = 0; k < cp->tb[i].n; k++)
			for (m = 0; m < cp->nmeth; m++) {
				const struct table *tb = &cp->tb[i];
				const char *l = mg_load_name(mg_load_class(
				    tb->x[K_REACTIVE][k]));

				/* the episode's number in the whole run
				 * (also under --shard), from its start */
				v[0].i = (int64_t)mg_epsel_index(sel,
				    (size_t)((tb->s0[k] - sel->from) /
				    sel->every));
				v[1].i = tb->s0[k];
				v[2].i = tb->nodes;
				v[3].s = cp->name[m];
				v[3].len = strlen(cp->name[m]);
				v[4].i = tb->t[m][k];
				v[5].i = tb->x[m][k];
				v[6].s = l;
				v[6].len = strlen(l);
				if ((rv = mg_writer_put(w, v, d)) != 0) {
					mg_writer_free(w);
					return rv;
				}
			}
	return mg_writer_close(w, d);
}

int
mg_compare_victims_lost(const struct mg_compare *cp, int table, int32_t *nodes,
    size_t *n, double *lost)
{
	const struct table *tb = &cp->tb[table];

	if (cp->nmeth == NBASE || !cp->lm[cp->nmeth - 1 - NBASE].preempt)
		return 0;
	*nodes = tb->nodes;
	*n = tb->n;
	*lost = tb->caused;
	return 1;
}

int
mg_compare_run(struct mg_compare *cp, const struct mg_clusterdef *def,
    const struct mg_epsel *sel, int window, const struct mg_plan *plan,
    int threads, void (*each)(void *, const struct mg_outcome *, size_t,
    size_t, size_t), void *arg, struct mg_diag *d)
{
	size_t q, i, all = sel->n * (size_t)sel->nsizes;
	size_t batch = (size_t)(threads > 0 ? threads : 1) * 8;
	struct mg_outcome *res = calloc(batch, sizeof(*res));
	int rv = MG_OK;

	if (res == NULL)
		return nomem(d);
	for (q = 0; q < all && rv == 0; q += batch) {
		size_t nres = all - q < batch ? all - q : batch;

		rv = mg_outcomes_run(def, sel, window, q, nres, threads, plan,
		    1, res, d);
		for (i = 0; i < nres && rv == 0; i++) {
			if (cp->handing > 0)	/* S only for a P that runs */
				res[i].t_first = res[i].p_start;
			/* else skipped: an empty window */
			if (res[i].n > 0)
				rv = mg_compare_add(cp, (int)((q + i) / sel->n),
				    &res[i], d);
		}
		if (rv == 0 && each != NULL)
			each(arg, res, nres, q + nres, all);
		for (i = 0; i < nres; i++)
			mg_outcome_release(&res[i]);
	}
	free(res);
	return rv;
}

int
mg_compare_nmethods(const struct mg_compare *cp)
{
	return cp->nmeth;
}

int
mg_compare_ntables(const struct mg_compare *cp)
{
	return cp->ntab;
}

int
mg_compare_view(const struct mg_compare *cp, int table, int m,
    struct mg_compare_view *v)
{
	const struct table *tb = &cp->tb[table];
	const struct lmethod *lm = m >= NBASE ? &cp->lm[m - NBASE] : NULL;

	if (m == K_ORACLE || (lm != NULL && lm->lead && m != first_lead(cp)))
		return -1;
	memset(v, 0, sizeof(*v));
	v->name = lm != NULL && lm->lead ? "lead" : cp->name[m];
	v->kind = MG_SETTING_NONE;
	if (m == K_ESTIMATE || (lm != NULL && lm->m != NULL && !lm->hybrid &&
	    !lm->m->classifier))
		v->kind = MG_SETTING_MARGIN;
	else if (lm != NULL && lm->lead)
		v->kind = MG_SETTING_LEAD;
	else if (lm != NULL && lm->m != NULL && !lm->hybrid)
		v->kind = MG_SETTING_RISK;
	else if (lm != NULL && !lm->preempt)
		v->kind = MG_SETTING_PRICE;	/* the planner, a hybrid */
	if (v->kind != MG_SETTING_NONE) {
		v->grid = v->kind == MG_SETTING_RISK ? cp->cv_p :
		    v->kind == MG_SETTING_PRICE ? cp->cv_l : cp->cv_h;
		v->npoints = NCURVE;
		v->xc = tb->xc[m];
	}
	v->x = tb->x[m];
	v->bound = tb->bovl;
	v->start = tb->s0;
	v->trained_to = lm != NULL && lm->m != NULL ? lm->m->to : 0;
	v->nodes = tb->nodes;
	v->n = tb->n;
	v->handing = cp->handing;
	v->dur = cp->dur;
	return 0;
}

void
mg_compare_free(struct mg_compare *cp)
{
	size_t c;
	int k, m;

	if (cp == NULL)
		return;
	for (k = 0; k < cp->ntab; k++) {
		struct table *tb = &cp->tb[k];

		for (m = 0; m < cp->nmeth; m++) {
			free(tb->x[m]);
			free(tb->t[m]);
			for (c = 0; c < NCURVE; c++)
				free(tb->xc[m][c]);
		}
		for (m = 0; m < NPERFECT; m++)
			for (c = 0; c < NCURVE; c++)
				free(tb->xp[m][c]);
		free(tb->s0);
		free(tb->bovl);
		free(tb->bint);
	}
	for (k = 0; k < cp->nmodels; k++)
		free(cp->lm[k].col);
	free(cp);
}

int
mg_compare_models(struct mg_compareconf *conf, const char *const *path,
    int n, int *window, struct mg_diag *d)
{
	int k, rv;

	*window = 1;
	for (k = 0; k < n; k++) {
		const char *base = strrchr(path[k], '/');
		FILE *fp = fopen(path[k], "rb");
		char *dot, *name = conf->namebuf[k];

		if (fp == NULL)
			return mg_diag_set(d, MG_EIO, "cannot open '%s': %s",
			    path[k], strerror(errno));
		rv = mg_model_read(fp, path[k], &conf->model[k], d);
		fclose(fp);
		if (rv != 0)
			return rv;
		conf->nmodels = k + 1;
		if ((int)conf->model[k]->window > *window)
			*window = (int)conf->model[k]->window;
		snprintf(name, sizeof(conf->namebuf[k]), "%s", base ? base +
		    1 : path[k]);
		if ((dot = strrchr(name, '.')) != NULL && dot != name)
			*dot = '\0';
		conf->name[k] = name;
	}
	conf->nmodels = n;
	return 0;
}

void
mg_compare_models_free(struct mg_compareconf *conf)
{
	int k;

	for (k = 0; k < conf->nmodels; k++)
		mg_model_free(conf->model[k]);
	conf->nmodels = 0;
}

int
mg_compare_open(const struct mg_compareconf *conf,
    const struct mg_epsel *sel, struct mg_compare **out, int *bad,
    struct mg_diag *d)
{
	char **fnames;
	size_t nfn;
	int rv;

	*bad = -1;
	if ((rv = mg_compare_new(conf, out, d)) != 0)
		return rv;
	if (mg_episode_feature_names(&sel->e, &fnames, &nfn) != 0) {
		mg_compare_free(*out);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	rv = mg_compare_begin(*out, sel, fnames, nfn, bad, d);
	mg_names_free(fnames, nfn);
	if (rv != 0)
		mg_compare_free(*out);
	return rv;
}

/* the planner's chances at each tick of o against what happened */
static void
calibrate(struct mg_plancal *cal, const struct mg_outcome *o)
{
	size_t j, q, f;
	int c;

	for (j = f = 0; j < o->n; j++) {
		const struct mg_plancost *pc;

		if (!o->tick[j])
			continue;
		pc = &o->plan[f++];
		if (pc->n > 0 && !mg_plan_own(pc))
			continue;	/* a plan reused: counted once */
		for (c = 0, q = j; c < pc->n; c++) {
			long share = lround(pc->pint[c] * cal->k);

			while (q < o->n && o->t[q] < pc->at[c])
				q++;
			if (q == o->n || o->t[q] != pc->at[c] ||
			    o->x[q] == MG_X_UNKNOWN || share < 0 ||
			    share > cal->k)
				continue;
			cal->n[c > 0][share]++;
			cal->y[c > 0][share] += o->x[q] > 0;
		}
	}
}

void
mg_compare_tally(const struct mg_outcome *res, size_t n, size_t *decided,
    size_t *planned, struct mg_plancal *cal)
{
	size_t i, j, nt;

	for (i = 0; i < n; i++) {
		if (res[i].n > 0 && cal != NULL)
			calibrate(cal, &res[i]);
		for (j = nt = 0; res[i].plan != NULL && j < res[i].n; j++)
			nt += res[i].tick[j];
		for (j = 0; j < nt; j++) {
			*decided += res[i].plan[j].k > 0;
			*planned += mg_plan_own(&res[i].plan[j]);
		}
	}
}
