/*
 * targetwrite.c: what the settings chosen for a reliability target bring
 * on other episodes, as the table mirage-advise --settings reads, JSON
 * or words (target.h).
 */
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
	r->share = mg_target_share(x, 0, v->n);
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
