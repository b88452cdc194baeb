/*
 * walk.c: settings chosen on the history before each period and run on
 * it, pooled and month by month (walk.h).
 */
#include <assert.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/parse.h"
#include "base/stats.h"
#include "episode/protocol.h"
#include "eval/target.h"
#include "eval/walk.h"

/* one row: a method (or the recommendation) of one size, every period's
 * outcomes one after the other */
struct wrow {
	const char *name;
	int32_t nodes;
	int64_t handing;
	int64_t *x;		/* outcome of each evaluated episode */
	const int64_t *bound;	/* the oracle bound's (its size's) */
	double *promise;	/* what its period's history promised */
	size_t n;
};

/* a period's choice for one method of one size */
struct wchoice {
	int64_t p0, h0, h1;	/* the period's start; the history's first
				 * and last episode's */
	size_t nh;
	int32_t nodes;
	const char *name;
	enum mg_setting kind;
	struct mg_choice ch;
	int recommended;
};

struct mg_walk {
	struct mg_walkconf wc;
	struct wchoice *log;	/* every period's choices */
	size_t nlog, caplog;
	struct wrow *row;
	int nrows;
	/* the evaluated episodes, the same for every row of a size */
	int64_t *start;
	int64_t *bound;		/* the oracle bound's outcome, a size's
				 * n after another's */
	int *month;		/* their month's index into mon */
	int64_t *scratch;	/* n outcomes: a row's of a month */
	size_t n;		/* per size */
	int ntables, per;	/* rows per size */
	int mon[MG_WALK_MAXMONTHS];	/* year * 12 + month */
	int nmon, periods;
};

static int
nomem(struct mg_diag *d)
{
	return mg_diag_set(d, MG_ENOMEM, "out of memory");
}

/* the first index of start[0..n) at or after t (starts ascend) */
static size_t
first_at(const int64_t *start, size_t n, int64_t t)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (start[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* the method the history recommends among ch[0..nm) (point -2: not a
 * method; part[m]: judged on part of the history only, not compared),
 * as target.h's; where none reached the target, the one whose worst fold
 * kept the most */
static int
recommended(const struct mg_choice *ch, const int *part, int nm)
{
	struct mg_choice eq[MG_COMPARE_MAX];
	int m, b;

	for (m = 0; m < nm; m++) {
		eq[m] = ch[m];
		if (part[m])
			eq[m].point = -2;
	}
	if ((b = mg_target_best(eq, nm)) >= 0)
		return b;
	for (m = 0; m < nm; m++) {
		const struct mg_choice *h = &eq[m], *o = b >= 0 ? &eq[b] : NULL;

		if (h->point == -2)
			continue;
		if (o == NULL || h->reached > o->reached || (h->reached ==
		    o->reached && (h->reached ? h->certified > o->certified ||
		    (h->certified == o->certified && h->cost < o->cost) :
		    h->worst > o->worst || (h->worst == o->worst &&
		    h->cost < o->cost))))
			b = m;
	}
	return b;
}

/* the choices of a period p0 into w's log */
static int
log_period(struct mg_walk *w, const struct mg_compare *c, int i, int64_t p0,
    size_t hlo, size_t hhi, const struct mg_choice *ch, int b)
{
	int nm = mg_compare_nmethods(c), m;
	struct mg_compare_view v;

	for (m = 0; m < nm; m++) {
		struct wchoice *l;

		if (mg_compare_view(c, i, m, &v) != 0)
			continue;
		if (w->nlog == w->caplog) {
			size_t cap = w->caplog ? 2 * w->caplog : 256;
			struct wchoice *n = realloc(w->log, cap * sizeof(*n));

			if (n == NULL)
				return MG_ENOMEM;
			w->log = n;
			w->caplog = cap;
		}
		l = &w->log[w->nlog++];
		l->p0 = p0;
		l->h0 = v.start[hlo];
		l->h1 = v.start[hhi - 1];
		l->nh = ch[m].n;
		l->nodes = v.nodes;
		l->name = v.name;
		l->kind = v.kind;
		l->ch = ch[m];
		l->recommended = m == b;
	}
	return MG_OK;
}

/* the period's episodes lo..hi of table i decided by each method with
 * the setting chosen on hlo..hhi, appended to rows r[0..nm] at *at;
 * the method recommended */
static int
walk_period(const struct mg_compare *c, int i, size_t hlo, size_t hhi,
    size_t lo, size_t hi, const struct mg_walkconf *wc, struct mg_choice *ch,
    const int64_t **xc, struct wrow *r, size_t at)
{
	int nm = mg_compare_nmethods(c), m, b, part[MG_COMPARE_MAX] = { 0 };
	struct mg_compare_view v, h;
	size_t k;

	for (m = 0; m < nm; m++) {
		size_t from = hlo;

		if (mg_compare_view(c, i, m, &v) != 0) {
			ch[m].point = -2;
			continue;
		}
		/* a model is judged on episodes it was not trained on */
		if (v.trained_to > 0 && (from = first_at(v.start, v.n,
		    v.trained_to + wc->workload)) < hlo)
			from = hlo;
		if (hhi >= from + (size_t)wc->folds) {
			mg_target_span(&v, from, hhi, xc, &h);
			mg_target_choose_view(&h, wc->target, wc->folds,
			    wc->confidence, &ch[m]);
			/* judged on fewer episodes than the others: not
			 * compared with them */
			part[m] = from > hlo;
			continue;
		}
		/* too few of them yet: chosen on the whole history, never
		 * recommended, nothing promised */
		mg_target_span(&v, hlo, hhi, xc, &h);
		mg_target_choose_view(&h, wc->target, wc->folds,
		    wc->confidence, &ch[m]);
		ch[m].reached = ch[m].certified = 0;
		ch[m].promise = 0;
		ch[m].n = 0;
	}
	b = recommended(ch, part, nm);
	for (m = 0; m <= nm; m++) {
		int src = m == 0 ? b : m - 1;
		const int64_t *x;

		if (src < 0 || ch[src].point == -2)
			continue;
		mg_compare_view(c, i, src, &v);
		x = ch[src].point >= 0 ? v.xc[ch[src].point] : v.x;
		for (k = lo; k < hi; k++) {
			r[m].x[at + k - lo] = x[k];
			r[m].promise[at + k - lo] = ch[src].promise;
		}
	}
	return b;
}

/* the rows of a size and the evaluated episodes' starts, months and
 * bounds; the number of evaluated episodes in *n */
static int
walk_setup(struct mg_walk *w, const struct mg_compare *c, size_t first,
    const struct mg_compare_view *v0, struct mg_diag *d)
{
	size_t k;
	int j;

	w->n = v0->n - first;
	if ((w->start = malloc(w->n * sizeof(*w->start))) == NULL ||
	    (w->bound = malloc(w->n * (size_t)mg_compare_ntables(c) *
	    sizeof(*w->bound))) == NULL ||
	    (w->month = malloc(w->n * sizeof(*w->month))) == NULL ||
	    (w->scratch = malloc(w->n * sizeof(*w->scratch) + 1)) == NULL)
		return nomem(d);
	for (k = 0; k < w->n; k++) {
		int mo = mg_month_of(v0->start[first + k]);

		w->start[k] = v0->start[first + k];
		if (w->nmon == 0 || w->mon[w->nmon - 1] != mo) {
			if (w->nmon == MG_WALK_MAXMONTHS)
				return mg_diag_set(d, MG_EINVAL, "more than "
				    "%d months evaluated", MG_WALK_MAXMONTHS);
			w->mon[w->nmon++] = mo;
		}
		w->month[k] = w->nmon - 1;
	}
	w->per = mg_compare_nmethods(c) + 1;
	w->ntables = mg_compare_ntables(c);
	w->nrows = w->per * w->ntables;
	if ((w->row = calloc((size_t)w->nrows, sizeof(*w->row))) == NULL)
		return nomem(d);
	for (j = 0; j < w->nrows; j++) {
		struct wrow *r = &w->row[j];
		struct mg_compare_view v;
		int m = j % w->per;

		if (m > 0 && mg_compare_view(c, j / w->per, m - 1, &v) != 0)
			continue;
		mg_compare_view(c, j / w->per, 0, &v);
		r->name = m == 0 ? "recommended" : NULL;
		if (m > 0) {
			mg_compare_view(c, j / w->per, m - 1, &v);
			r->name = v.name;
		}
		r->nodes = v.nodes;
		r->handing = v.handing;
		r->bound = w->bound + (size_t)(j / w->per) * w->n;
		r->n = w->n;
		if ((r->x = malloc(w->n * sizeof(*r->x))) == NULL ||
		    (r->promise = malloc(w->n * sizeof(*r->promise))) == NULL)
			return nomem(d);
	}
	return MG_OK;
}

/* the most points of a curve */
static size_t
npoints(const struct mg_compare *c)
{
	struct mg_compare_view v;
	size_t most = 0;
	int i, m;

	for (i = 0; i < mg_compare_ntables(c); i++)
		for (m = 0; m < mg_compare_nmethods(c); m++)
			if (mg_compare_view(c, i, m, &v) == 0 && v.npoints >
			    most)
				most = v.npoints;
	return most;
}

int
mg_walk_run(const struct mg_compare *c, const struct mg_walkconf *wc,
    struct mg_walk **out, struct mg_diag *d)
{
	int nm = mg_compare_nmethods(c), i, b, rv = MG_OK;
	struct mg_compare_view v0;
	const int64_t **xc = NULL;
	struct mg_choice *ch = NULL;
	struct mg_walk *w;
	size_t first, lo, hi, hlo, hhi;
	int64_t p0;

	*out = NULL;
	if (wc->period <= 0 || wc->history <= 0 || !(wc->target > 0 &&
	    wc->target < 1) || !(wc->confidence > 0 && wc->confidence < 1))
		return mg_diag_set(d, MG_EINVAL, "a period, a history, a target "
		    "and a confidence");
	if (mg_compare_ntables(c) < 1 || mg_compare_view(c, 0, 0, &v0) != 0)
		return mg_diag_set(d, MG_EINVAL, "no episode");
	first = first_at(v0.start, v0.n, wc->from);
	if (first == v0.n)
		return mg_diag_set(d, MG_EINVAL, "no episode from the first "
		    "period on");
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return nomem(d);
	w->wc = *wc;
	if ((rv = walk_setup(w, c, first, &v0, d)) != 0 ||
	    (ch = calloc((size_t)nm, sizeof(*ch))) == NULL ||
	    (xc = calloc(npoints(c) + 1, sizeof(*xc))) == NULL) {
		if (rv == 0)
			rv = nomem(d);
		goto fail;
	}
	for (i = 0; i < w->ntables; i++) {
		mg_compare_view(c, i, 0, &v0);
		if (v0.n != first + w->n || memcmp(v0.start + first, w->start,
		    w->n * sizeof(*w->start)) != 0) {
			rv = mg_diag_set(d, MG_EINVAL, "the sizes' episodes "
			    "differ");
			goto fail;
		}
		memcpy(w->bound + (size_t)i * w->n, v0.bound + first, w->n *
		    sizeof(*w->bound));
		w->periods = 0;
		for (lo = first; lo < v0.n; lo = hi, w->periods++) {
			p0 = wc->from + (v0.start[lo] - wc->from) /
			    wc->period * wc->period;
			hi = first_at(v0.start, v0.n, p0 + wc->period);
			/* the history: started within it, and ended */
			hlo = first_at(v0.start, v0.n, p0 - wc->history);
			hhi = first_at(v0.start, v0.n, p0 - wc->workload + 1);
			if (hhi < hlo + (size_t)wc->folds) {
				char when[32];

				mg_format_time(p0, when, sizeof(when));
				rv = mg_diag_set(d, MG_EINVAL, "the period from "
				    "%s has %zu episodes of history, fewer "
				    "than the %d folds", when, hhi > hlo ?
				    hhi - hlo : 0, wc->folds);
				goto fail;
			}
			/* no outcome of the history is known after the
			 * period starts; the period is its episodes' */
			assert(hhi == 0 || v0.start[hhi - 1] + wc->workload <=
			    p0);
			assert(v0.start[lo] >= p0 && hi > lo);
			b = walk_period(c, i, hlo, hhi, lo, hi, wc, ch, xc,
			    &w->row[i * w->per], lo - first);
			if ((rv = log_period(w, c, i, p0, hlo, hhi, ch,
			    b)) != 0) {
				rv = nomem(d);
				goto fail;
			}
		}
	}
	free(ch);
	free(xc);
	*out = w;
	return MG_OK;
fail:
	free(ch);
	free(xc);
	mg_walk_free(w);
	return rv;
}

int
mg_walk_periods(const struct mg_walk *w)
{
	return w->periods;
}

/* a row's figures over the episodes of month mo (-1: all) */
struct wfig {
	size_t n, kept, bkept;
	double share, lower, lease, held, ovl, promise, bshare;
};

static void
figures(const struct mg_walk *w, const struct wrow *r, int mo,
    struct wfig *f)
{
	int64_t *x = w->scratch;
	size_t k, j = 0;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < w->n; k++) {
		if (mo >= 0 && w->month[k] != mo)
			continue;
		x[j++] = r->x[k];
		f->kept += r->x[k] <= 0;
		f->bkept += r->bound[k] >= 0;
		f->promise += r->promise[k];
		f->ovl += r->x[k] < 0 ? (double)-r->x[k] / 3600 : 0;
	}
	f->n = j;
	if (j > 0) {
		f->share = (double)f->kept / (double)j;
		f->bshare = (double)f->bkept / (double)j;
		f->promise /= (double)j;
		f->ovl /= (double)j;
		mg_handover_costs(x, j, r->nodes, r->handing, &f->held,
		    &f->lease);
		if (r->handing == 0)
			f->held = f->lease = 0;
	}
	f->lower = mg_binom_lower(f->kept, f->n, w->wc.confidence);
}

static void
month_name(int mo, char *b, size_t len)
{
	if (mo < 0)
		snprintf(b, len, "all");
	else
		snprintf(b, len, "%04d-%02d", mo / 12, mo % 12 + 1);
}

static void
tsv_row(FILE *fp, const struct mg_walk *w, const struct wrow *r, int mo,
    const struct wfig *f)
{
	char m[16];

	month_name(mo < 0 ? -1 : w->mon[mo], m, sizeof(m));
	fprintf(fp, "%s\t%d\t%s\t%zu\t%zu\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t"
	    "%.4f\t%.4f\t%g\t%g\t%d\n", r->name, r->nodes, m, f->n, f->kept,
	    f->share, f->lower, f->lease, f->held, f->ovl, f->promise,
	    f->bshare, w->wc.target, w->wc.confidence, w->periods);
}

static struct json_object *
json_row(const struct mg_walk *w, const struct wrow *r, int mo,
    const struct wfig *f)
{
	struct json_object *o = json_object_new_object();
	char m[16];

	month_name(mo < 0 ? -1 : w->mon[mo], m, sizeof(m));
#define JS(k, val) json_object_object_add(o, k, json_object_new_string(val))
#define JD(k, val) json_object_object_add(o, k, json_object_new_double(val))
#define JI(k, val) json_object_object_add(o, k, json_object_new_int64(val))
	JS("method", r->name);
	JI("nodes", r->nodes);
	JS("month", m);
	JI("episodes", (int64_t)f->n);
	JI("kept", (int64_t)f->kept);
	JD("no_interruption_share", f->share);
	JD("share_lower", f->lower);
	JD("lease_given_h", f->lease);
	JD("held_twice_nh", f->held);
	JD("overlap_mean_h", f->ovl);
	JD("promise", f->promise);
	JD("bound_share", f->bshare);
	JD("target", w->wc.target);
	JD("confidence", w->wc.confidence);
	JI("periods", w->periods);
#undef JS
#undef JD
#undef JI
	return o;
}

/* in text: a size's rows, the months side by side, then its bottom
 * line */
static void
text_size(FILE *fp, const struct mg_walk *w, int i)
{
	const struct wrow *rec = &w->row[i * w->per], *lead = NULL;
	struct wfig f, g, wf;
	char m[48];
	int j, mo, worst;

	fprintf(fp, "%s%d-node chains: %g%% at %g%% confidence, walking "
	    "forward %g days at a time on the %g days before\n", i ? "\n" :
	    "", rec->nodes, 100 * w->wc.target, 100 * w->wc.confidence,
	    (double)w->wc.period / 86400, (double)w->wc.history / 86400);
	fprintf(fp, "  %-19s", "method");
	for (mo = 0; mo < w->nmon; mo++) {
		month_name(w->mon[mo], m, sizeof(m));
		fprintf(fp, " %8s", m);
	}
	snprintf(m, sizeof(m), "(%g%% from)", 100 * w->wc.confidence);
	fprintf(fp, " %8s %10s %9s %11s %10s\n", "pooled", m, "promised",
	    "lease given", "held twice");
	for (j = 0; j < w->per; j++) {
		const struct wrow *r = &w->row[i * w->per + j];

		if (r->name == NULL)
			continue;
		if (strcmp(r->name, "lead") == 0)
			lead = r;
		fprintf(fp, "  %-19s", r->name);
		for (mo = 0; mo < w->nmon; mo++) {
			figures(w, r, mo, &f);
			fprintf(fp, " %7.1f%%", 100 * f.share);
		}
		figures(w, r, -1, &f);
		fprintf(fp, " %7.1f%% %9.1f%% %8.1f%% %9.2f h %7.2f nh\n",
		    100 * f.share, 100 * f.lower, 100 * f.promise, r->handing >
		    0 ? f.lease : f.ovl, f.held);
	}
	fprintf(fp, "  %-19s", "(bound)");
	for (mo = 0; mo < w->nmon; mo++) {
		figures(w, rec, mo, &f);
		fprintf(fp, " %7.1f%%", 100 * f.bshare);
	}
	figures(w, rec, -1, &f);
	fprintf(fp, " %7.1f%%\n", 100 * f.bshare);
	for (mo = 0, worst = 0; mo < w->nmon; mo++) {
		figures(w, rec, mo, &wf);
		figures(w, rec, worst, &g);
		if (wf.share < g.share)
			worst = mo;
	}
	figures(w, rec, worst, &wf);
	month_name(w->mon[worst], m, sizeof(m));
	fprintf(fp, "  following the recommendation: %.1f%% of %zu links "
	    "without interruption (%g%%: from %.1f%%), promised %.1f%%; the "
	    "worst month %s at %.1f%%; %.2f h of lease given up a link",
	    100 * f.share, f.n, 100 * w->wc.confidence, 100 * f.lower,
	    100 * f.promise, m, 100 * wf.share, f.lease);
	if (lead != NULL) {
		figures(w, lead, -1, &g);
		fprintf(fp, "; the fixed lead chosen the same way %.1f%% at "
		    "%.2f h", 100 * g.share, g.lease);
	}
	fputc('\n', fp);
	if (f.bshare < w->wc.target)
		fprintf(fp, "  at most %.1f%% of these links could start in "
		    "time whatever was done: %.1f%% waited longer than a "
		    "whole limit\n", 100 * f.bshare, 100 * (1 - f.bshare));
}

int
mg_walk_write(const struct mg_walk *w, FILE *fp, enum mg_compare_format fmt,
    struct mg_diag *d)
{
	struct json_object *arr = NULL;
	struct wfig f;
	int i, j, mo;

	if (fmt == MG_COMPARE_TEXT) {
		for (i = 0; i < w->ntables; i++)
			text_size(fp, w, i);
		fprintf(fp, "\n(each period's settings chosen on the history "
		    "before it only; recommended: the method its history "
		    "recommended; promised: the target where the history "
		    "certified it, else the history's lower bound)\n");
		return ferror(fp) ? mg_diag_set(d, MG_EIO, "write error") :
		    MG_OK;
	}
	if (fmt == MG_COMPARE_TSV)
		fprintf(fp, "method\tnodes\tmonth\tepisodes\tkept\t"
		    "no_interruption_share\tshare_lower\tlease_given_h\t"
		    "held_twice_nh\toverlap_mean_h\tpromise\tbound_share\t"
		    "target\tconfidence\tperiods\n");
	else
		arr = json_object_new_array();
	for (j = 0; j < w->nrows; j++) {
		const struct wrow *r = &w->row[j];

		if (r->name == NULL)
			continue;
		for (mo = -1; mo < w->nmon; mo++) {
			figures(w, r, mo, &f);
			if (fmt == MG_COMPARE_TSV)
				tsv_row(fp, w, r, mo, &f);
			else
				json_object_array_add(arr, json_row(w, r, mo,
				    &f));
		}
	}
	if (fmt == MG_COMPARE_JSON) {
		fprintf(fp, "%s\n", json_object_to_json_string_ext(arr,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
	}
	return ferror(fp) ? mg_diag_set(d, MG_EIO, "write error") : MG_OK;
}

int
mg_walk_write_choices(const struct mg_walk *w, FILE *fp, struct mg_diag *d)
{
	size_t k;

	fprintf(fp, "period_start\tnodes\tmethod\thistory_first\t"
	    "history_last\thistory_episodes\tsetting_kind\tsetting\t"
	    "reached\tcertified\tpromise\trecommended\tbound_share\t"
	    "target\thandover_s\tconfidence\n");
	for (k = 0; k < w->nlog; k++) {
		const struct wchoice *l = &w->log[k];

		fprintf(fp, "%lld\t%d\t%s\t%lld\t%lld\t%zu\t%s\t",
		    (long long)l->p0, l->nodes, l->name, (long long)l->h0,
		    (long long)l->h1, l->nh, mg_rule_setting_name(l->kind));
		if (l->ch.point >= 0)
			fprintf(fp, "%g", l->ch.setting);
		else
			fputc('-', fp);
		fprintf(fp, "\t%d\t%d\t%.4f\t%d\t%.4f\t%g\t%lld\t%g\n",
		    l->ch.reached, l->ch.certified, l->ch.promise,
		    l->recommended, l->ch.bound, w->wc.target,
		    (long long)w->wc.handover, w->wc.confidence);
	}
	return ferror(fp) ? mg_diag_set(d, MG_EIO, "write error") : MG_OK;
}

void
mg_walk_free(struct mg_walk *w)
{
	int j;

	if (w == NULL)
		return;
	for (j = 0; j < w->nrows; j++) {
		free(w->row[j].x);
		free(w->row[j].promise);
	}
	free(w->row);
	free(w->start);
	free(w->bound);
	free(w->month);
	free(w->scratch);
	free(w->log);
	free(w);
}

struct mg_epsel
mg_walk_episodes(const struct mg_epsel *sel, int64_t history)
{
	int64_t back = (history + sel->e.workload + sel->every - 1) /
	    sel->every * sel->every;

	return mg_epsel_span(sel, sel->from - back, (long)sel->n +
	    (long)(back / sel->every));
}
