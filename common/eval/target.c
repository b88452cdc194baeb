/*
 * target.c: settings chosen for a reliability target on time-blocked
 * folds, and what they bring elsewhere (target.h).
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

/* the share of x[lo..hi) without an interruption */
static double
share(const int64_t *x, size_t lo, size_t hi)
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
		s = share(x, v->n * (size_t)b / (size_t)folds,
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
		if (share(x, lo, hi) < fmin(target, bound_share(v, lo, hi)) -
		    1e-9)
			return 0;
	}
	return 1;
}

/* v's share without interruption in each of folds folds at its curve's
 * point (-1: its own setting) into out[0..folds); 1 if that reaches
 * target in every fold (or the bound's share where it is lower), else 0 */
static int
target_folds(const struct mg_compare_view *v, int point, int folds,
    double target, double *out)
{
	const int64_t *x = point >= 0 ? v->xc[point] : v->x;
	int b;

	for (b = 0; b < folds; b++)
		out[b] = share(x, v->n * (size_t)b / (size_t)folds,
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

/* a share's 95% interval (Wilson's score interval) */
static void
wilson(double p, size_t n, double *lo, double *hi)
{
	double z = 1.959964, den, mid, half;

	if (n == 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	den = 1 + z * z / (double)n;
	mid = (p + z * z / (2 * (double)n)) / den;
	half = z * sqrt(p * (1 - p) / (double)n + z * z / (4 * (double)n *
	    (double)n)) / den;
	*lo = fmax(0, mid - half);
	*hi = fmin(1, mid + half);
}

/* one row's figures: the outcomes at the chosen setting */
struct trow {
	const char *name;
	int32_t nodes;
	size_t n;
	double share, lo, hi, lease, held, ovl;
	struct mg_renewal sv;
};

static void
figures(const struct mg_compare_view *v, const struct mg_choice *h,
    struct trow *r)
{
	const int64_t *x = h->point >= 0 ? v->xc[h->point] : v->x;
	size_t k;

	memset(r, 0, sizeof(*r));
	r->name = v->name;
	r->nodes = v->nodes;
	r->n = v->n;
	r->share = share(x, 0, v->n);
	wilson(r->share, v->n, &r->lo, &r->hi);
	mg_handover_costs(x, v->n, v->nodes, v->handing > 0 ? v->handing : 0,
	    &r->held, &r->lease);
	for (k = 0; k < v->n; k++)
		r->ovl += x[k] < 0 ? (double)-x[k] / 3600 : 0;
	r->ovl = v->n > 0 ? r->ovl / (double)v->n : 0;
	if (v->handing == 0)
		r->held = r->lease = 0;
	mg_renewal(x, v->n, v->nodes, v->dur, v->handing, &r->sv);
}

static const char *
setting_text(const struct mg_compare_view *v, const struct mg_choice *h,
    char *b, size_t len)
{
	if (h->point < 0)
		snprintf(b, len, "-");
	else
		snprintf(b, len, "%s %g", v->kind == MG_SETTING_MARGIN ?
		    "margin" : v->kind == MG_SETTING_RISK ? "risk" :
		    v->kind == MG_SETTING_PRICE ? "price" : "lead",
		    h->setting);
	if (h->point >= 0 && (v->kind == MG_SETTING_MARGIN || v->kind ==
	    MG_SETTING_LEAD))
		snprintf(b + strlen(b), len - strlen(b), " h");
	return b;
}

/* what the history lets a setting promise, in words */
static void
promise_text(const struct mg_choice *h, double want, FILE *fp)
{
	if (h->certified)
		fprintf(fp, "  promised: %g%% at %g%% confidence (%zu links "
		    "chosen on)\n", 100 * want, 100 * h->confidence, h->n);
	else if (h->bound < want)
		fprintf(fp, "  promised: %.1f%% at %g%% confidence, not %g%%: "
		    "at most %.1f%% of these links can start in time here "
		    "(%.1f%% waited longer than a whole limit in a fold)\n",
		    100 * h->promise, 100 * h->confidence, 100 * want,
		    100 * h->bound, 100 * (1 - h->bound));
	else
		fprintf(fp, "  promised: %.1f%% at %g%% confidence, not %g%%: "
		    "%zu links chosen on certify no more (about %.0f "
		    "without a failure would)\n", 100 * h->promise,
		    100 * h->confidence, 100 * want, h->n,
		    ceil(log(1 - h->confidence) / log(want)));
}

/* in text, after a size's rows: the method recommended and its cost
 * against the fixed lead chosen the same way */
static void
text_verdict(const struct mg_compare *c, const struct mg_choice *ch, int i,
    double want, FILE *fp)
{
	int nm = mg_compare_nmethods(c), m, best = -1, lead = -1;
	struct mg_compare_view v, lv;
	struct trow r, lr;
	char s[48];

	for (m = 0; m < nm; m++) {
		if (mg_compare_view(c, i, m, &v) != 0)
			continue;
		if (ch[i * nm + m].best)
			best = m;
		if (v.kind == MG_SETTING_LEAD)
			lead = m;
	}
	if (best < 0) {
		fprintf(fp, "  no method reached %g%% in every fold of the "
		    "training period (in its worst fold, no submission time "
		    "could bring more than %.1f%% through)\n", 100 * want,
		    100 * ch[i * nm].bound);
		return;
	}
	mg_compare_view(c, i, best, &v);
	figures(&v, &ch[i * nm + best], &r);
	promise_text(&ch[i * nm + best], want, fp);
	fprintf(fp, "  use %s (%s): %.1f%% without interruption here",
	    v.name, setting_text(&v, &ch[i * nm + best], s, sizeof(s)),
	    100 * r.share);
	if (v.handing > 0)
		fprintf(fp, ", %.2f h of lease given up a link", r.lease);
	else
		fprintf(fp, ", %.2f h of overlap a link", r.ovl);
	fputc('\n', fp);
	if (lead >= 0 && lead != best && ch[i * nm + lead].point >= 0) {
		mg_compare_view(c, i, lead, &lv);
		figures(&lv, &ch[i * nm + lead], &lr);
		fprintf(fp, "  the fixed lead chosen the same way (%s): "
		    "%.1f%%, %.2f h", setting_text(&lv, &ch[i * nm + lead], s,
		    sizeof(s)), 100 * lr.share, lr.lease);
		if (lr.lease > 0)
			fprintf(fp, "; %s gives up %.2f of its lease", v.name,
			    r.lease / lr.lease);
		fputc('\n', fp);
	}
}

/* a JSON object of one row */
static struct json_object *
json_row(const struct mg_compare_view *v, const struct mg_choice *h,
    const struct trow *r, double want, const struct mg_target_prov *pv)
{
	struct json_object *o = json_object_new_object();

#define JS(k, val) json_object_object_add(o, k, json_object_new_string(val))
#define JD(k, val) json_object_object_add(o, k, json_object_new_double(val))
#define JI(k, val) json_object_object_add(o, k, json_object_new_int64(val))
	JS("method", r->name);
	JI("nodes", r->nodes);
	JS("setting_kind", mg_rule_setting_name(v->kind));
	if (h->point >= 0)
		JD("setting", h->setting);
	JI("reached", h->reached);
	JD("train_worst_share", h->worst);
	JD("train_cost_h", h->cost);
	JI("recommended", h->best);
	JI("episodes", (int64_t)r->n);
	JD("no_interruption_share", r->share);
	JD("share_lo", r->lo);
	JD("share_hi", r->hi);
	JD("lease_given_h", r->lease);
	JD("held_twice_nh", r->held);
	JD("overlap_mean_h", r->ovl);
	JD("down_h_30d", r->sv.down_h);
	JD("jobs_per_1000h", r->sv.jobs_per_kh);
	JD("handover_wasted_nh_30d", r->sv.handover_waste_nh);
	JD("target", want);
	JI("handover_s", v->handing);
	JD("train_bound_share", h->bound);
	JI("train_episodes", (int64_t)h->n);
	JD("train_lower", h->lower);
	JI("certified", h->certified);
	JD("promise", h->promise);
	JD("confidence", h->confidence);
	JI("cluster_nodes", pv->cluster_nodes);
	JI("history_end", pv->history_end);
	JI("in_sample", h->insample);
#undef JS
#undef JD
#undef JI
	return o;
}

/* one row in TSV or text */
static void
row(FILE *fp, enum mg_compare_format fmt, const struct mg_compare_view *v,
    const struct mg_choice *h, const struct trow *r, double want,
    const struct mg_target_prov *pv)
{
	char s[48];

	if (fmt == MG_COMPARE_TSV) {
		fprintf(fp, "%s\t%d\t%s\t", r->name, r->nodes,
		    mg_rule_setting_name(v->kind));
		if (h->point >= 0)
			fprintf(fp, "%g", h->setting);
		else
			fputc('-', fp);
		fprintf(fp, "\t%d\t%.4f\t%.4f\t%d\t%zu\t%.4f\t%.4f\t%.4f\t"
		    "%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%g\t%lld\t%.4f\t"
		    "%zu\t%.4f\t%d\t%.4f\t%g\t%d\t%lld\t%d\n",
		    h->reached, h->worst, h->cost, h->best, r->n, r->share,
		    r->lo, r->hi, r->lease, r->held, r->ovl, r->sv.down_h,
		    r->sv.jobs_per_kh, r->sv.handover_waste_nh, want,
		    (long long)v->handing, h->bound, h->n, h->lower,
		    h->certified, h->promise, h->confidence,
		    pv->cluster_nodes, (long long)pv->history_end,
		    h->insample);
		return;
	}
	fprintf(fp, "%-20s %5d %-16s %10.1f%%%s %8.1f%% %6.1f-%5.1f%% %9.2f h "
	    "%8.2f nh %7.1f h\n", r->name, r->nodes, setting_text(v, h, s,
	    sizeof(s)), 100 * h->worst, h->best ? "*" : h->insample ? "~" :
	    h->reached ? " " : "!", 100 * r->share, 100 * r->lo, 100 * r->hi,
	    v->handing > 0 ? r->lease : r->ovl, r->held, r->sv.down_h);
}

int
mg_target_write(const struct mg_compare *c, const struct mg_choice *chs,
    const double *wants, int nwant, const struct mg_target_prov *pv,
    FILE *fp, enum mg_compare_format fmt, struct mg_diag *d)
{
	int nm = mg_compare_nmethods(c), nt = mg_compare_ntables(c), i, m, w;
	struct json_object *arr = NULL;
	struct mg_compare_view v;
	struct trow r;

	if (fmt == MG_COMPARE_TSV)
		fprintf(fp, "method\tnodes\tsetting_kind\tsetting\treached\t"
		    "train_worst_share\ttrain_cost_h\trecommended\tepisodes\t"
		    "no_interruption_share\tshare_lo\tshare_hi\t"
		    "lease_given_h\theld_twice_nh\toverlap_mean_h\t"
		    "down_h_30d\tjobs_per_1000h\thandover_wasted_nh_30d\t"
		    "target\thandover_s\ttrain_bound_share\t"
		    "train_episodes\ttrain_lower\tcertified\tpromise\t"
		    "confidence\tcluster_nodes\thistory_end\tin_sample\n");
	else if (fmt == MG_COMPARE_JSON)
		arr = json_object_new_array();
	for (w = 0; w < nwant; w++)
		for (i = 0; i < nt; i++) {
			const struct mg_choice *cw = &chs[w * nt * nm];

			if (fmt == MG_COMPARE_TEXT)
				fprintf(fp, "%s%g%%, %-13s %5s %-16s %11s %9s "
				    "%15s %11s %11s %9s\n", w || i ? "\n" : "",
				    100 * wants[w], "method", "nodes",
				    "setting", "train worst", "no-int %",
				    "95% interval", mg_compare_view(c, i, 0,
				    &v) == 0 && v.handing > 0 ? "lease given" :
				    "overlap",
				    "held twice", "30d down");
			for (m = 0; m < nm; m++) {
				if (mg_compare_view(c, i, m, &v) != 0)
					continue;
				figures(&v, &cw[i * nm + m], &r);
				if (fmt == MG_COMPARE_JSON)
					json_object_array_add(arr, json_row(&v,
					    &cw[i * nm + m], &r, wants[w], pv));
				else
					row(fp, fmt, &v, &cw[i * nm + m], &r,
					    wants[w], pv);
			}
			if (fmt == MG_COMPARE_TEXT)
				text_verdict(c, cw, i, wants[w], fp);
		}
	if (fmt == MG_COMPARE_JSON) {
		fprintf(fp, "%s\n", json_object_to_json_string_ext(arr,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
	}
	if (fmt == MG_COMPARE_TEXT)
		fprintf(fp, "\n(* the method recommended: of those reaching "
		    "the target in every fold of the training period, one "
		    "certified, then one deciding on the queue now, then the "
		    "cheapest; ! not reached in every fold; ~ a model trained "
		    "on the weeks chosen on, never recommended)\n");
	return ferror(fp) ? mg_diag_set(d, MG_EIO, "write error") : MG_OK;
}

/* params without the target's keys (those of an earlier choice) */
static void
strip_target(char *params)
{
	char *p = params, *q;

	while ((p = strstr(p, "target")) != NULL) {
		if (p != params && p[-1] != ' ') {
			p++;
			continue;
		}
		q = strchr(p, ' ');
		memmove(p, q != NULL ? q + 1 : p + strlen(p), strlen(q != NULL ?
		    q + 1 : p + strlen(p)) + 1);
	}
	for (q = params + strlen(params); q > params && q[-1] == ' '; q--)
		q[-1] = '\0';
}

/*
 * mg_target_stamp: m's threshold set to what method (a model's index in
 * c) was chosen for in ch (a block of mg_target_choose()'s), the most
 * cautious of the sizes' (the one that submits earliest), and m's
 * params given the target's keys (target, target_handover_s,
 * target_folds, target_episodes, target_from, target_to,
 * target_worst_share, target_reached, target_folds_<N>n with each fold's
 * share, target_promise and target_confidence: the least of the sizes'),
 * an earlier target's replaced.  *worst, *reached and *promise for the
 * caller's words.  MG_EINVAL if no threshold was chosen, MG_ENOMEM.
 */
static int
mg_target_stamp(struct mg_model *m, const struct mg_compare *c,
    int method, const struct mg_choice *ch, const struct mg_target_span *sp,
    double *worst, int *reached, double *promise, struct mg_diag *d)
{
	int nm = mg_compare_nmethods(c), nt = mg_compare_ntables(c), i, f;
	int point = -1, at = -1;
	struct mg_compare_view v;
	double conf = 0;
	char a[32], b[32], *params;
	size_t len;

	*worst = 1;
	*reached = 1;
	*promise = 1;
	for (i = 0; i < nt; i++) {
		const struct mg_choice *h = &ch[i * nm + method];

		if (h->point > point) {	/* the later point submits earlier */
			point = h->point;
			at = i;
		}
	}
	if (at < 0)
		return mg_diag_set(d, MG_EINVAL, "no threshold to choose from");
	m->threshold = ch[at * nm + method].setting;
	mg_format_time(sp->from, a, sizeof(a));
	mg_format_time(sp->to, b, sizeof(b));
	len = strlen(m->params ? m->params : "") + 320 + (size_t)(16 * nt *
	    (sp->folds + 2));
	if ((params = malloc(len)) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	snprintf(params, len, "%s", m->params ? m->params : "");
	strip_target(params);
	/* every size's folds at the threshold kept */
	for (i = 0; i < nt; i++) {
		double share[MG_TARGET_MAXFOLDS];

		mg_compare_view(c, i, method, &v);
		*reached &= target_folds(&v, point, sp->folds, sp->target,
		    share);
		snprintf(params + strlen(params), len - strlen(params),
		    "%starget_folds_%dn=", *params ? " " : "", (int)v.nodes);
		for (f = 0; f < sp->folds; f++) {
			snprintf(params + strlen(params), len - strlen(params),
			    "%s%.4f", f ? "," : "", share[f]);
			if (share[f] < *worst)
				*worst = share[f];
		}
		*promise = fmin(*promise, ch[i * nm + method].promise);
		conf = ch[i * nm + method].confidence;
	}
	snprintf(params + strlen(params), len - strlen(params), " target=%g "
	    "target_handover_s=%lld target_folds=%d target_episodes=%zu "
	    "target_from=%s target_to=%s target_worst_share=%.4f "
	    "target_reached=%d target_promise=%.4f target_confidence=%g",
	    sp->target, (long long)sp->handover, sp->folds, sp->episodes, a, b,
	    *worst, *reached, *promise, conf);
	free(m->params);
	m->params = params;
	return MG_OK;
}

int
mg_target_threshold(struct mg_model *m, const char *model,
    const struct mg_clusterdef *def, const struct mg_epsel *sel,
    const char *trace, const struct mg_target_span *sp, double conf,
    int threads, struct mg_target_size *each, double *worst, int *reached,
    double *promise, struct mg_diag *d)
{
	struct mg_compareconf cc;
	struct mg_compare *cmp;
	struct mg_compare_view v;
	struct mg_choice *ch = NULL;
	char **fnames;
	size_t nfn;
	int rv, bad, i, nm;

	/* a threshold chosen on the model's own training would promise
	 * what it learnt, not what it will do */
	if (mg_target_insample(m->to, sel->from - sel->e.workload)) {
		char last[32], from[32];

		mg_format_time(m->to, last, sizeof(last));
		mg_format_time(m->to + sel->e.workload, from, sizeof(from));
		return mg_diag_set(d, MG_EINVAL, "--target: '%s' was trained "
		    "on episodes up to %s: its threshold would be chosen on "
		    "its own training; choose it on episodes from %s on (-f), "
		    "or train it on earlier weeks", model, last, from);
	}
	memset(&cc, 0, sizeof(cc));
	cc.model[0] = m;
	cc.name[0] = m->kind;
	cc.nmodels = 1;
	cc.handover = sp->handover;
	if ((rv = mg_compare_new(&cc, &cmp, d)) != 0)
		return rv;
	if (mg_episode_feature_names(&sel->e, &fnames, &nfn) != 0) {
		mg_compare_free(cmp);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	rv = mg_compare_begin(cmp, sel, fnames, nfn, &bad, d);
	mg_names_free(fnames, nfn);
	if (rv != 0) {
		mg_diag_prefix(d, "'%s'", model);
		goto out;
	}
	if ((rv = mg_compare_run(cmp, def, sel, (int)sel->e.window, NULL,
	    threads, NULL, NULL, d)) != 0) {
		mg_diag_prefix(d, "'%s'", trace);
		if (rv != MG_ENOMEM)
			rv = MG_EINVAL;
		goto out;
	}
	nm = mg_compare_nmethods(cmp);
	if ((ch = calloc((size_t)(nm * mg_compare_ntables(cmp)),
	    sizeof(*ch))) == NULL) {
		rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
		goto out;
	}
	if ((rv = mg_target_choose(cmp, sp->target, sp->folds, conf,
	    INT64_MAX, ch, d)) != 0) {
		mg_diag_prefix(d, "--target");
		goto out;
	}
	/* the model's row: the first after the baselines */
	for (i = 0; i < mg_compare_ntables(cmp); i++) {
		const struct mg_choice *h = &ch[i * nm + MG_COMPARE_NBASE];

		mg_compare_view(cmp, i, MG_COMPARE_NBASE, &v);
		each[i].nodes = v.nodes;
		each[i].setting = h->setting;
		each[i].worst = h->worst;
		each[i].cost = h->cost;
		each[i].reached = h->reached;
	}
	if ((rv = mg_target_stamp(m, cmp, MG_COMPARE_NBASE, ch, sp, worst,
	    reached, promise, d)) != 0)
		mg_diag_prefix(d, "--target");
out:
	free(ch);
	mg_compare_free(cmp);
	return rv;
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
