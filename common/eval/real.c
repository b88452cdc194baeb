/*
 * real.c: a reliability target judged by what really happened; see
 * real.h.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/mem.h"
#include "base/parse.h"
#include "base/stats.h"
#include "cluster/view.h"
#include "episode/feature.h"
#include "eval/real.h"

#define HOUR	3600.0

static const char *const rule_name[MG_REAL_RULES] = { "lead", "estimate",
	"lead-adapt", "estimate-adapt", "estimate-load" };

struct test {
	size_t job;		/* the trace's */
	int size;		/* index into the sizes */
	double need[MG_REAL_RULES];	/* hours: the wait; the estimate's
					 * miss; the same again, adaptive */
	double setting[MG_REAL_RULES];	/* its period's, NAN: none */
	double load;		/* pending node-hours at its submission */
	int period;		/* index from c->from, -1: in the history only */
};

/* a month's (or all months') tally of one size and rule */
struct tally {
	size_t tests, judged, kept;
	size_t bound;		/* judged that waited at most their limit */
	double lower_days;	/* the lower bound by periods (blocks) */
	double setting, given;	/* sums: over the judged, over the kept */
	double down, worst;	/* hours down over the missed, the most */
};

struct mg_real {
	struct mg_realconf c;
	const struct mg_trace *t;
	struct test *test;
	size_t n;
	int nmonths;
	int month0;		/* the first month, as year * 12 + month */
	struct tally by[MG_REAL_MAXSIZES][MG_REAL_RULES][MG_REAL_MAXMONTHS + 1];
	/* the period after the span: each setting (NAN: none) and the
	 * adaptive rules' level */
	double next[MG_REAL_MAXSIZES][MG_REAL_RULES];
	double level[MG_REAL_MAXSIZES][MG_REAL_RULES];
};

/* a day's periods, 28 days of history, 99% at 95%, limits of a day or
 * more, at least 20 tests to choose on */
static void
realconf_init(struct mg_realconf *c)
{
	memset(c, 0, sizeof(*c));
	c->period = MG_DAY;
	c->history = 28 * MG_DAY;
	c->target = 0.99;
	c->confidence = 0.95;
	c->min_limit = MG_DAY;
	c->min_history = 20;
	c->ahead = 1;
}

int
mg_realconf_eval(struct mg_realconf *c, const struct mg_evalconf *ev,
    int32_t nodes, struct mg_diag *d)
{
	const struct mg_epsel *sel = &ev->sel;

	if (ev->nmodels > 0 || (ev->pc.given & MG_PLAN_GIVEN_PLAN))
		return mg_diag_set(d, MG_EINVAL, "the real jobs judge a fixed "
		    "lead and the scheduler estimate: no -M or --plan");

	realconf_init(c);
	c->history = ev->history;
	c->from = sel->from;
	c->until = sel->from + (int64_t)sel->n * sel->every;
	c->period = ev->walk;
	/* no walk: the settings of -f's day, the level walked over the
	 * history before it */
	if (ev->walk == 0) {
		if (!sel->have_from || sel->gpus)
			return mg_diag_set(d, MG_EINVAL, "--real without "
			    "--walk-forward chooses the settings of a day: give "
			    "it (-f) and the sizes in nodes (-k)");
		c->period = MG_DAY;
		c->until = sel->from;
		c->from = c->until - c->history;
	}
	c->target = ev->target[0];
	c->confidence = ev->confidence;
	c->nodes = nodes;
	c->handover = ev->handover;
	c->up = ev->handover + ev->ready_time;
	c->ahead = ev->ahead > 1 ? ev->ahead : 1;
	c->nsizes = sel->nsizes < MG_REAL_MAXSIZES ? sel->nsizes :
	    MG_REAL_MAXSIZES;
	memcpy(c->sizes, sel->sizes, (size_t)c->nsizes * sizeof(*c->sizes));
	return 0;
}

/* the size a job of `nodes` tests, or -1: a size's nodes up to twice
 * them, less one */
static int
size_of(const struct mg_realconf *c, int32_t nodes)
{
	int k;

	for (k = 0; k < c->nsizes; k++)
		if (nodes >= c->sizes[k] && nodes < 2 * c->sizes[k])
			return k;
	return -1;
}

/*
 * The start the backfill plan of the queue as it stood at job j's
 * submission gives j: the trace's jobs submitted before it and not yet
 * started (eligible then), by priority, and those running, each to its
 * limit.  v is reused.  A negative value is MG_ENOMEM.
 */
static int64_t
planned(const struct mg_trace *t, int32_t nodes, size_t j,
    struct mg_view *v, double *load)
{
	const struct mg_trace_job *J = &t->job[j];
	struct mg_view_job x;
	int64_t now = J->submit, busy = 0, p_start;
	size_t i;

	*load = 0;
	mg_view_clear(v);
	v->t = now;
	v->nodes = nodes;
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *o = &t->job[i];

		if (i == j || o->submit > now || o->start + o->dur <= now)
			continue;
		memset(&x, 0, sizeof(x));
		x.submit = o->submit;
		x.limit = o->limit;
		x.end = -1;
		x.nodes = o->nodes;
		x.prio = o->prio >= 0 ? (double)o->prio : 0;
		x.trace = (int32_t)i;
		x.user = o->user;
		x.job = -1;
		if (o->start <= now) {
			x.start = o->start;
			busy += o->nodes;
			if (mg_view_add(&v->run, &v->nrun, &v->caprun, &x) != 0)
				return MG_ENOMEM;
		} else if (o->eligible <= now) {
			x.start = -1;
			*load += (double)o->nodes * (double)o->limit / HOUR;
			if (mg_view_add(&v->pend, &v->npend, &v->cappend,
			    &x) != 0)
				return MG_ENOMEM;
		}
	}
	v->free = nodes > busy ? (int32_t)(nodes - busy) : 0;
	mg_view_sort_pending(v);
	v->s_prio = J->prio >= 0 ? (double)J->prio : -INFINITY;
	return mg_feature_plan_start(v, J->nodes, J->limit, v->s_prio,
	    &p_start);
}

/*
 * A setting is given at most the predecessor's limit (the successor's
 * own: a chain's links are alike), c->ahead of them with the links
 * queued ahead: no lead submits before the first of them started.  A
 * link is kept when the need is within it and the successor waited no
 * longer than that, which no submission time could have made up for.
 */
static double
reach(const struct mg_real *r, const struct test *x)
{
	return (double)r->c.ahead * (double)r->t->job[x->job].limit / HOUR;
}

static double
effective(const struct mg_real *r, const struct test *x, int q)
{
	return fmin(x->setting[q], reach(r, x));
}

static int
kept_by(const struct mg_real *r, const struct test *x, int q)
{
	return x->need[q] <= effective(r, x, q) &&
	    x->need[MG_REAL_LEAD] <= reach(r, x);
}

static int
by_need(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The lower bound of each tally counted by periods, not by links: the
 * links of one period share a queue and fail together (base/stats.h,
 * mg_block_lower; 2,000 draws, a fixed seed).
 */
static int
by_period(struct mg_real *r, int nper, struct mg_diag *d)
{
	const struct mg_realconf *c = &r->c;
	size_t *kept = calloc((size_t)nper + 1, sizeof(*kept));
	size_t *n = calloc((size_t)nper + 1, sizeof(*n));
	size_t i, nb;
	int k, q, mo, p, lo, hi;

	if (kept == NULL || n == NULL) {
		free(kept);
		free(n);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	for (k = 0; k < c->nsizes; k++)
		for (q = 0; q < MG_REAL_RULES; q++)
			for (mo = 0; mo <= r->nmonths; mo++) {
				memset(kept, 0, (size_t)nper * sizeof(*kept));
				memset(n, 0, (size_t)nper * sizeof(*n));
				lo = nper;
				hi = -1;
				for (i = 0; i < r->n; i++) {
					const struct test *x = &r->test[i];

					if (x->period < 0 || x->size != k ||
					    isnan(x->setting[q]) || (mo <
					    r->nmonths && mg_month_of(r->t->job[
					    x->job].submit) - r->month0 != mo))
						continue;
					n[x->period]++;
					kept[x->period] += kept_by(r, x, q);
					lo = x->period < lo ? x->period : lo;
					hi = x->period > hi ? x->period : hi;
				}
				/* the periods with a judged link */
				for (p = lo, nb = 0; p <= hi; p++)
					if (n[p] > 0) {
						n[nb] = n[p];
						kept[nb++] = kept[p];
					}
				if ((r->by[k][q][mo < r->nmonths ? mo :
				    MG_REAL_MAXMONTHS].lower_days =
				    mg_block_lower(kept, n, nb, c->confidence,
				    2000, 0x6d69726167650000ULL + (uint64_t)k *
				    97 + (uint64_t)q * 31 + (uint64_t)mo)) < 0)
					goto nomem;
			}
	free(kept);
	free(n);
	return 0;
nomem:
	free(kept);
	free(n);
	return mg_diag_set(d, MG_ENOMEM, "out of memory");
}

/* does rule q learn from its misses? */
static int
adaptive(int q)
{
	return q == MG_REAL_LEAD_ADAPT || q == MG_REAL_ESTIMATE_ADAPT;
}

/* the quantile at level lv of v[0..m) (m > 0; copied to w, sorted):
 * INFINITY (the limit) at a level of 1 or more, never below 0 */
static double
quantile(const double *v, size_t m, double lv, double *w)
{
	size_t want;

	if (lv >= 1)
		return INFINITY;
	if (w != v)
		memcpy(w, v, m * sizeof(*w));
	qsort(w, m, sizeof(*w), by_need);
	want = (size_t)ceil((lv > 0 ? lv : 0) * (double)m - 1e-9);
	return w[want > 0 ? want - 1 : 0] > 0 ? w[want > 0 ? want - 1 : 0] :
	    0;
}

/*
 * The queue's alarm: the history's needs split in thirds by their load
 * (cut: the loads at a third and two thirds), each third's quantile at
 * lv into bset, or all's (set) for a third with fewer than least.
 */
static void
by_load(const double *needs, const double *loads, size_t m, double lv,
    size_t least, double set, double cut[2], double bset[3], double *w)
{
	size_t i, n;
	int b;

	memcpy(w, loads, m * sizeof(*w));
	qsort(w, m, sizeof(*w), by_need);
	cut[0] = w[m / 3];
	cut[1] = w[2 * m / 3];
	for (b = 0; b < 3; b++) {
		double *x = w;

		for (i = n = 0; i < m; i++)
			if ((b == 0 && loads[i] < cut[0]) || (b == 1 &&
			    loads[i] >= cut[0] && loads[i] < cut[1]) ||
			    (b == 2 && loads[i] >= cut[1]))
				x[n++] = needs[i];
		bset[b] = n >= least && n > 0 ? quantile(x, n, lv, x) : set;
	}
}

/* each period's setting of each size and rule, from the needs of the
 * history's tests; then the tally of what it kept */
static int
walk(struct mg_real *r, struct mg_diag *d)
{
	const struct mg_realconf *c = &r->c;
	size_t cap = r->n ? r->n : 1;
	double *needs = malloc(cap * sizeof(*needs));
	double *loads = malloc(cap * sizeof(*loads));
	double *scratch = malloc(cap * sizeof(*scratch));
	double level[MG_REAL_MAXSIZES][MG_REAL_RULES], lv;
	double cut[2] = { 0, 0 }, bset[3] = { 0, 0, 0 };
	int64_t p0, p1;
	size_t i, m;
	int k, q, per, mo, rv;

	if (needs == NULL || loads == NULL || scratch == NULL) {
		free(needs);
		free(loads);
		free(scratch);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	for (k = 0; k < MG_REAL_MAXSIZES; k++)
		for (q = 0; q < MG_REAL_RULES; q++)
			level[k][q] = c->target;
	/* the periods of the span, then the one after it (next) */
	for (p0 = c->from, per = 0; ; p0 += c->period, per++) {
		int next = p0 >= c->until;

		p1 = p0 + c->period;
		for (k = 0; k < c->nsizes; k++)
			for (q = 0; q < MG_REAL_RULES; q++) {
				double set = NAN;

				/* the adaptive level: the outcomes known
				 * since the last period (their jobs started) */
				for (i = 0; adaptive(q) && i < r->n; i++) {
					const struct test *x = &r->test[i];
					const struct mg_trace_job *J =
					    &r->t->job[x->job];

					if (x->size != k || isnan(x->setting[q]) ||
					    J->start < p0 - c->period ||
					    J->start >= p0)
						continue;
					level[k][q] += MG_REAL_GAMMA * (kept_by(r,
					    x, q) ? -(1 - c->target) :
					    c->target);
				}
				lv = adaptive(q) ? level[k][q] : c->target;

				for (i = m = 0; i < r->n; i++) {
					const struct mg_trace_job *J =
					    &r->t->job[r->test[i].job];

					if (r->test[i].size == k &&
					    J->submit >= p0 - c->history &&
					    J->submit < p0 && J->start <= p0) {
						needs[m] = r->test[i].need[q];
						loads[m++] = r->test[i].load;
					}
				}
				if (m >= c->min_history && m > 0)
					set = quantile(needs, m, lv, scratch);
				if (q == MG_REAL_ESTIMATE_LOAD && !isnan(set))
					by_load(needs, loads, m, lv,
					    c->min_history, set, cut, bset,
					    scratch);
				if (next) {
					r->next[k][q] = set;
					r->level[k][q] = lv;
					continue;
				}
				for (i = 0; i < r->n; i++) {
					struct test *x = &r->test[i];
					const struct mg_trace_job *J =
					    &r->t->job[x->job];

					if (x->size == k && J->submit >= p0 &&
					    J->submit < p1) {
						x->setting[q] = q !=
						    MG_REAL_ESTIMATE_LOAD ||
						    isnan(set) ? set : bset[
						    x->load < cut[0] ? 0 :
						    x->load < cut[1] ? 1 : 2];
						x->period = per;
					}
				}
			}
		if (next)
			break;
	}
	free(needs);
	free(loads);
	free(scratch);
	/* the tally: month by month, and all (the last slot); and per
	 * period, for the bound by periods */
	if ((rv = by_period(r, per, d)) != 0)
		return rv;
	for (i = 0; i < r->n; i++) {
		const struct test *x = &r->test[i];

		if (x->period < 0)
			continue;
		mo = mg_month_of(r->t->job[x->job].submit) - r->month0;
		for (q = 0; q < MG_REAL_RULES; q++) {
			struct tally *a = &r->by[x->size][q][mo];
			struct tally *all = &r->by[x->size][q][MG_REAL_MAXMONTHS];
			double set = effective(r, x, q);
			int kept = kept_by(r, x, q);

			a->tests++;
			all->tests++;
			if (isnan(x->setting[q]))
				continue;
			a->judged++;
			all->judged++;
			if (x->need[MG_REAL_LEAD] <= reach(r, x)) {
				a->bound++;
				all->bound++;
			}
			a->setting += set;
			all->setting += set;
			if (kept) {
				/* a kept link's lease given up is never
				 * negative */
				assert(set - x->need[q] >= -1e-9);
				a->kept++;
				all->kept++;
				a->given += set - x->need[q];
				all->given += set - x->need[q];
			} else {
				/* down from P's drain to S's ready: past the
				 * setting, or past the longest lead */
				double down = fmax(x->need[q] - set,
				    x->need[MG_REAL_LEAD] - reach(r, x));

				down = fmax(down, 0);
				a->down += down;
				all->down += down;
				a->worst = fmax(a->worst, down);
				all->worst = fmax(all->worst, down);
			}
		}
	}
	return 0;
}

int
mg_real_run(const struct mg_trace *t, const struct mg_realconf *c,
    struct mg_real **out, struct mg_diag *d)
{
	struct mg_real *r;
	struct mg_view v = { 0 };
	size_t i, cap = 0;
	int64_t at;
	double load;
	int k, rv;

	*out = NULL;
	if (c->nsizes < 1 || c->nsizes > MG_REAL_MAXSIZES)
		return mg_diag_set(d, MG_EINVAL, "give the chain sizes (-k), "
		    "1 to %d of them", MG_REAL_MAXSIZES);
	for (k = 0; k < c->nsizes; k++)
		if (c->sizes[k] > c->nodes)
			return mg_diag_set(d, MG_EINVAL, "%d-node chains on a "
			    "cluster of %d nodes", (int)c->sizes[k],
			    (int)c->nodes);
	if (c->until <= c->from || c->period <= 0 ||
	    mg_month_of(c->until - 1) - mg_month_of(c->from) >= MG_REAL_MAXMONTHS)
		return mg_diag_set(d, MG_EINVAL, "the span judged: from before "
		    "until, and at most %d months", MG_REAL_MAXMONTHS);
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	r->c = *c;
	r->t = t;
	r->month0 = mg_month_of(c->from);
	r->nmonths = mg_month_of(c->until - 1) - r->month0 + 1;
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *J = &t->job[i];
		struct test *x;

		if ((k = size_of(c, J->nodes)) < 0 || J->limit < c->min_limit ||
		    J->submit < c->from - c->history || J->submit >= c->until)
			continue;
		if ((at = planned(t, c->nodes, i, &v, &load)) < 0) {
			rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
			goto fail;
		}
		if (r->n == cap && mg_grow((void **)&r->test, &cap, r->n + 1,
		    sizeof(*r->test)) != 0) {
			rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
			goto fail;
		}
		x = &r->test[r->n++];
		x->job = i;
		x->size = k;
		x->need[MG_REAL_LEAD] = (double)(J->start - J->submit +
		    c->up) / HOUR;
		x->need[MG_REAL_ESTIMATE] = (double)(J->start - at + c->up) /
		    HOUR;
		x->need[MG_REAL_LEAD_ADAPT] = x->need[MG_REAL_LEAD];
		x->need[MG_REAL_ESTIMATE_ADAPT] = x->need[MG_REAL_ESTIMATE];
		x->need[MG_REAL_ESTIMATE_LOAD] = x->need[MG_REAL_ESTIMATE];
		x->load = load;
		for (k = 0; k < MG_REAL_RULES; k++)
			x->setting[k] = NAN;
		x->period = -1;
	}
	mg_view_release(&v);
	if ((rv = walk(r, d)) != 0) {
		mg_real_free(r);
		return rv;
	}
	*out = r;
	return 0;
fail:
	mg_view_release(&v);
	mg_real_free(r);
	return rv;
}

/*
 * The misses n links may have at a target kept share t and still be
 * judged to meet it: the least k with P(X <= k) >= conf for X the
 * binomial of n trials at 1 - t.  A month is green within the budget
 * at 95%, amber within that at 99.99%, red beyond (a value-at-risk
 * backtest's traffic lights).
 */
static size_t
budget(size_t n, double t, double conf)
{
	double q = 1 - t, pmf, cdf;
	size_t k;

	if (q <= 0)
		return 0;
	if (q >= 1)
		return n;
	pmf = pow(1 - q, (double)n);
	for (k = 0, cdf = pmf; cdf < conf && k < n; k++) {
		pmf *= (double)(n - k) / (double)(k + 1) * q / (1 - q);
		cdf += pmf;
	}
	return k;
}

static const char *
zone(size_t misses, size_t n, double t)
{
	return misses <= budget(n, t, 0.95) ? "green" : misses <= budget(n,
	    t, 0.9999) ? "amber" : "red";
}

static void
month_name(int m, char *buf, size_t cap)
{
	snprintf(buf, cap, "%04d-%02d", m / 12, m % 12 + 1);
}

/* a's lower bound by days, never above low, the one by links: a block
 * bootstrap sees no miss that did not happen */
static double
by_days(const struct tally *a, double low)
{
	return a->lower_days < low ? a->lower_days : low;
}

int
mg_real_write(const struct mg_real *r, FILE *fp, int text,
    struct mg_diag *d)
{
	const struct mg_realconf *c = &r->c;
	char mname[16];
	int k, q, mo;

	if (text)
		fprintf(fp, "Judged by what really happened: every job of a "
		    "chain size's nodes (up to twice them) with a limit of a "
		    "day or more is a test; each period's setting for %g%% is "
		    "chosen on the tests of the %g days before it, then run on "
		    "the period's (a lead: the wait; the estimate: the start "
		    "less the backfill plan's)%s%s\n", 100 * c->target,
		    (double)c->history / MG_DAY, c->up > 0 ? "; a link is kept "
		    "when its successor starts the handover and the ready time "
		    "before the limit, and a miss is down from the drain to the "
		    "successor's ready" : "", c->ahead > 1 ? "; the successor's "
		    "successor is queued with the successor (a setting, and a "
		    "wait any rule could keep, up to two limits)" : "");
	else
		fprintf(fp, "nodes\trule\tmonth\ttests\tjudged\tkept\tshare\t"
		    "lower\tlower_days\tsetting_mean_h\tgiven_up_mean_h\t"
		    "bound_share\tmisses\tbudget\tzone\tdown_min_per_link\t"
		    "worst_down_min\n");
	for (k = 0; k < c->nsizes; k++)
		for (q = 0; q < MG_REAL_RULES; q++)
			for (mo = 0; mo <= r->nmonths; mo++) {
				const struct tally *a = &r->by[k][q][mo <
				    r->nmonths ? mo : MG_REAL_MAXMONTHS];
				double share = a->judged ? (double)a->kept /
				    (double)a->judged : NAN;
				double low = mg_binom_lower(a->kept, a->judged,
				    c->confidence);
				double lowd = by_days(a, low);

				if (mo < r->nmonths)
					month_name(r->month0 + mo, mname,
					    sizeof(mname));
				else
					snprintf(mname, sizeof(mname), "all");
				if (text && a->judged == 0)
					fprintf(fp, "%3d-node %-14s %-7s %5zu "
					    "tests, none judged: fewer than %zu "
					    "in the history before\n",
					    (int)c->sizes[k], rule_name[q], mname,
					    a->tests, c->min_history);
				else if (text)
					fprintf(fp, "%3d-node %-14s %-7s %5zu "
					    "judged, %5.1f%% kept (%g%%: at least "
					    "%.1f%%, by days %.1f%%; any rule at most "
					    "%.1f%%), setting %.2f h, given up %.2f "
					    "h; %zu missed, %zu allowed: %s; down "
					    "%.1f min a link, worst %.0f min\n",
					    (int)c->sizes[k], rule_name[q],
					    mname, a->judged, 100 * share, 100 *
					    c->confidence, 100 * low, 100 * lowd,
					    100 *
					    (double)a->bound / (double)a->judged,
					    a->setting / (double)a->judged,
					    a->kept ? a->given / (double)a->kept :
					    NAN, a->judged - a->kept,
					    budget(a->judged, c->target, 0.95),
					    zone(a->judged - a->kept, a->judged,
					    c->target), 60 * a->down / (double)
					    a->judged, 60 * a->worst);
				else
					fprintf(fp, "%d\t%s\t%s\t%zu\t%zu\t%zu\t"
					    "%.4f\t%.4f\t%.4f\t%.3f\t%.3f\t%.4f\t"
					    "%zu\t%zu\t%s\t%.2f\t%.0f\n",
					    (int)c->sizes[k], rule_name[q], mname,
					    a->tests, a->judged, a->kept, share,
					    low, lowd, a->judged ?
					    a->setting /
					    (double)a->judged : NAN, a->kept ?
					    a->given / (double)a->kept : NAN,
					    a->judged ? (double)a->bound /
					    (double)a->judged : NAN, a->judged -
					    a->kept, budget(a->judged, c->target,
					    0.95), a->judged ? zone(a->judged -
					    a->kept, a->judged, c->target) : "-",
					    a->judged ? 60 * a->down / (double)
					    a->judged : NAN, 60 * a->worst);
			}
	if (ferror(fp))
		return mg_diag_set(d, MG_EIO, "write failed");
	return 0;
}

/* the rules a settings table carries: the adaptive ones, under the
 * names and kinds mirage-advise runs */
static const struct {
	int rule;
	const char *method, *kind;
} carried[] = {
	{ MG_REAL_ESTIMATE_ADAPT, "scheduler-estimate", "margin_h" },
	{ MG_REAL_LEAD_ADAPT, "lead", "lead_h" },
};

/* the share of size k's history before c->until (its tests started by
 * then) that setting set of rule q keeps, and its longest reach (h) */
static double
in_sample(const struct mg_real *r, int k, int q, double set, double *reach_h)
{
	const struct mg_realconf *c = &r->c;
	struct test x;
	size_t i, n = 0, kept = 0;

	*reach_h = 0;
	for (i = 0; i < r->n; i++) {
		const struct mg_trace_job *J = &r->t->job[r->test[i].job];

		if (r->test[i].size != k || J->submit < c->until - c->history ||
		    J->start > c->until)
			continue;
		x = r->test[i];
		x.setting[q] = set;
		n++;
		kept += kept_by(r, &x, q);
		*reach_h = fmax(*reach_h, reach(r, &x));
	}
	return n ? (double)kept / (double)n : NAN;
}

int
mg_real_write_settings(const struct mg_real *r, FILE *fp, int text,
    struct mg_diag *d)
{
	const struct mg_realconf *c = &r->c;
	char day[32];
	int k, j, best;

	mg_format_time(c->until, day, sizeof(day));
	if (text)
		fprintf(fp, "The settings for %.10s on, for %g%% of links kept, "
		    "chosen on the real jobs of the %g days before it (a level "
		    "walked over them, raised after each miss)\n", day,
		    100 * c->target, (double)c->history / MG_DAY);
	else
		fprintf(fp, "method\tnodes\tsetting_kind\tsetting\treached\t"
		    "recommended\ttarget\thandover_s\ttrain_bound_share\t"
		    "train_episodes\ttrain_lower\tcertified\tpromise\t"
		    "confidence\tcluster_nodes\thistory_end\tjudge\tlevel\t"
		    "walked_share\n");
	for (k = 0; k < c->nsizes; k++) {
		double share[2];

		/* the rule that kept more of the walk (the estimate on a
		 * tie) is recommended */
		for (j = 0; j < 2; j++) {
			const struct tally *a = &r->by[k][carried[j].rule][
			    MG_REAL_MAXMONTHS];

			share[j] = a->judged ? (double)a->kept /
			    (double)a->judged : -1;
		}
		best = share[1] > share[0];
		for (j = 0; j < 2; j++) {
			int q = carried[j].rule;
			const struct tally *a = &r->by[k][q][MG_REAL_MAXMONTHS];
			double set = r->next[k][q], lim, ins, bound, low, lowd;
			double promise;
			int cert;

			if (isnan(set) || a->judged == 0) {
				if (text)
					fprintf(fp, "%3d-node %-18s no setting: "
					    "fewer than %zu tests in the history "
					    "before\n", (int)c->sizes[k],
					    carried[j].method, c->min_history);
				continue;
			}
			ins = in_sample(r, k, q, set, &lim);
			set = fmin(set, lim);	/* at once, at a level of 1 */
			bound = (double)a->bound / (double)a->judged;
			low = mg_binom_lower(a->kept, a->judged, c->confidence);
			lowd = by_days(a, low);
			cert = lowd >= c->target && bound >= c->target;
			promise = cert ? c->target : fmin(lowd, bound);
			if (text)
				fprintf(fp, "%3d-node %-18s %s %.2f h (level "
				    "%.4f)%s: the walk kept %.1f%% (%g%%: by "
				    "days at least %.1f%%; any rule at most "
				    "%.1f%%), the history %.1f%%; promise "
				    "%.1f%%%s\n", (int)c->sizes[k],
				    carried[j].method, carried[j].kind, set,
				    r->level[k][q], j == best ?
				    ", recommended" : "", 100 * share[j], 100 *
				    c->confidence, 100 * lowd, 100 * bound,
				    100 * ins, 100 * promise, cert ?
				    ", certified" : "");
			else
				fprintf(fp, "%s\t%d\t%s\t%.4f\t%d\t%d\t%g\t"
				    "%lld\t%.4f\t%zu\t%.4f\t%d\t%.4f\t%g\t%d\t"
				    "%lld\treal\t%.4f\t%.4f\n", carried[j].method,
				    (int)c->sizes[k], carried[j].kind, set,
				    ins >= c->target, j == best, c->target,
				    (long long)c->handover, bound, a->judged,
				    lowd, cert, promise, c->confidence,
				    (int)c->nodes, (long long)c->until,
				    r->level[k][q], share[j]);
		}
	}
	if (ferror(fp))
		return mg_diag_set(d, MG_EIO, "write error");
	return 0;
}

int
mg_real_write_tests(const struct mg_real *r, FILE *fp, struct mg_diag *d)
{
	double up = (double)r->c.up / HOUR;	/* the tests' real waits */
	char at[32];
	size_t i;
	int q;

	fprintf(fp, "job\tnodes\tsize\tsubmit\tlimit_h\twait_h\t"
	    "estimate_miss_h\tlead_h\tlead_kept\tmargin_h\testimate_kept\t"
	    "lead_adapt_h\tlead_adapt_kept\tmargin_adapt_h\t"
	    "estimate_adapt_kept\tmargin_load_h\testimate_load_kept\t"
	    "pending_nh\n");
	for (i = 0; i < r->n; i++) {
		const struct test *x = &r->test[i];
		const struct mg_trace_job *J = &r->t->job[x->job];

		mg_format_time(J->submit, at, sizeof(at));
		fprintf(fp, "%s\t%d\t%d\t%s\t%.4f\t%.4f\t%.4f", J->id,
		    (int)J->nodes, (int)r->c.sizes[x->size], at,
		    (double)J->limit / HOUR, x->need[MG_REAL_LEAD] - up,
		    x->need[MG_REAL_ESTIMATE] - up);
		for (q = 0; q < MG_REAL_RULES; q++)
			if (isnan(x->setting[q]))
				fprintf(fp, "\t\t");
			else
				fprintf(fp, "\t%.4f\t%d", x->setting[q],
				    kept_by(r, x, q));
		fprintf(fp, "\t%.1f\n", x->load);
	}
	if (ferror(fp))
		return mg_diag_set(d, MG_EIO, "write failed");
	return 0;
}

void
mg_real_free(struct mg_real *r)
{
	if (r == NULL)
		return;
	free(r->test);
	free(r);
}
