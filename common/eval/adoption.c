/*
 * adoption.c: many chains at once, replayed share by share and reported
 * (adoption.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/mem.h"
#include "base/parse.h"
#include "cluster/replay.h"
#include "episode/episode.h"
#include "episode/feature.h"
#include "eval/adoption.h"
#include "eval/target.h"
#include "decide/table.h"

/* the services of a run, summed: links after a predecessor, those
 * interrupted, hours of lease given up */
struct asum {
	size_t n, successors, interrupted;
	double lease_h;
};

static void
asum_add(struct asum *s, const struct mg_adoptsvc *v)
{
	s->n++;
	s->successors += v->successors;
	s->interrupted += v->interrupted;
	s->lease_h += v->lease_h;
}

static double
asum_share(const struct asum *s)
{
	return s->successors ? 1 - (double)s->interrupted /
	    (double)s->successors : NAN;
}

/* the share of the groups' hours not down so */
static double
up_share(const struct mg_adoptres *r, double down_h)
{
	return r->group_h > 0 ? 1 - down_h / r->group_h : NAN;
}

static void
header(FILE *fp)
{
	const char *name;
	int k;

	fputs("adoption_pct\tmethod\thandover_s\tservices\treplaced_jobs\t"
	    "service_nh\treplaced_nh\tservice_jobs\tsuccessors\t"
	    "share_no_interruption\tdown_h\tlease_given_h\theld_twice_nh\t"
	    "down_h_30d\tjobs_per_1000h\tqueue_mean\tspan_successors\t"
	    "span_no_interruption\tbefore_others\tbefore_wait_mean_h\t"
	    "before_wait_p90_h\tbefore_successors\tbefore_no_interruption",
	    fp);
	for (k = 0; k < MG_ADOPT_CLASSES; k++) {
		name = mg_adopt_class_name(k);
		fprintf(fp, "\tothers_%s\twait_mean_h_%s\twait_p90_h_%s",
		    name, name, name);
	}
	fputs("\talone_services\talone_no_interruption\talone_lease_given_h\t"
	    "together_no_interruption\ttogether_lease_given_h\treplicas\t"
	    "groups\tgroup_h\tup_any\tup_all\tworst_outage_h\n", fp);
}

static void
row(FILE *fp, double share, const char *method, int64_t handover,
    const struct mg_adoptres *r, const struct asum *alone,
    const struct asum *with)
{
	int k;

	fprintf(fp, "%g\t%s\t%lld\t%zu\t%zu\t%.0f\t%.0f\t%zu\t%zu\t%.4f\t"
	    "%.1f\t%.1f\t%.1f\t%.2f\t%.2f\t%.1f", 100 * share, method,
	    (long long)handover, r->services, r->removed, r->service_nh,
	    r->removed_nh, r->links, r->successors, r->successors ? 1 -
	    (double)r->interrupted / (double)r->successors : NAN, r->down_h,
	    r->lease_h, r->twice_nh, r->service_h > 0 ? r->down_h * 720 /
	    r->service_h : NAN, r->service_h > 0 ? (double)r->links * 1000 /
	    r->service_h : NAN, r->queue_mean);
	fprintf(fp, "\t%zu\t%.4f\t%zu\t%.3f\t%.3f\t%zu\t%.4f",
	    r->span_successors, r->span_successors ? 1 -
	    (double)r->span_interrupted / (double)r->span_successors : NAN,
	    r->pre.others, r->pre.wait_mean_h, r->pre.wait_p90_h,
	    r->pre.successors, r->pre.successors ? 1 -
	    (double)r->pre.interrupted / (double)r->pre.successors : NAN);
	for (k = 0; k < MG_ADOPT_CLASSES; k++)
		fprintf(fp, "\t%zu\t%.3f\t%.3f", r->others[k],
		    r->wait_mean_h[k], r->wait_p90_h[k]);
	fprintf(fp, "\t%zu\t%.4f\t%.1f\t%.4f\t%.1f", alone->n,
	    asum_share(alone), alone->n ? alone->lease_h : NAN,
	    asum_share(with), alone->n ? with->lease_h : NAN);
	fprintf(fp, "\t%d\t%zu\t%.1f\t%.5f\t%.5f\t%.2f\n", r->replicas,
	    r->groups, r->group_h, up_share(r, r->none_up_h),
	    up_share(r, r->some_down_h), r->worst_h);
}

/* others' waits under the method against the same services reactive */
static void
say(FILE *fp, double share, const struct mg_adoptres *m,
    const struct mg_adoptres *b, const struct asum *alone,
    const struct asum *with)
{
	fprintf(fp, "mirage-eval: %g%%: %zu services for %zu jobs; the "
	    "others' mean wait %+.1f%%, 90th percentile %+.1f%% against "
	    "reactive; services %.1f%% without interruption (reactive "
	    "%.1f%%), %.0f node-hours held twice, %.0f hours of lease given "
	    "up; a service is down %.1f h in 30 days (reactive %.1f h)\n",
	    100 * share, m->services, m->removed,
	    100 * (m->wait_mean_h[0] / b->wait_mean_h[0] - 1),
	    100 * (m->wait_p90_h[0] / b->wait_p90_h[0] - 1),
	    m->successors ? 100 - 100 * (double)m->interrupted /
	    (double)m->successors : 100, b->successors ? 100 - 100 *
	    (double)b->interrupted / (double)b->successors : 100,
	    m->twice_nh, m->lease_h, m->service_h > 0 ? m->down_h * 720 /
	    m->service_h : 0, b->service_h > 0 ? b->down_h * 720 /
	    b->service_h : 0);
	if (m->groups > 0)
		fprintf(fp, "mirage-eval: %g%%: %zu services of %d replica%s: "
		    "at least one up %.3f%% of %.0f hours (reactive %.3f%%), "
		    "all up %.2f%% (%.2f%%), the worst outage of all %.1f h "
		    "(%.1f h)\n", 100 * share, m->groups, m->replicas,
		    m->replicas > 1 ? "s" : "",
		    100 * up_share(m, m->none_up_h), m->group_h,
		    100 * up_share(b, b->none_up_h),
		    100 * up_share(m, m->some_down_h),
		    100 * up_share(b, b->some_down_h), m->worst_h, b->worst_h);
	if (alone->n > 0)
		fprintf(fp, "mirage-eval: %g%%: %zu services each alone "
		    "with the method: %.1f%% without interruption, %.0f hours "
		    "of lease given up (the same with all: %.1f%%, %.0f "
		    "hours)\n", 100 * share, alone->n,
		    100 * asum_share(alone), alone->lease_h,
		    100 * asum_share(with), with->lease_h);
}

/* what the table's rules promised one chain against what all the
 * services kept at this share */
static void
promised(FILE *fp, double share, const struct mg_adoption *ad, double kept)
{
	double least = 2;
	size_t k;

	for (k = 0; k < ad->nrule; k++)
		if (!ad->rule[k].alt && ad->rule[k].promise >= 0 &&
		    ad->rule[k].promise < least)
			least = ad->rule[k].promise;
	if (least > 1)
		return;		/* a table that promises nothing */
	fprintf(fp, "mirage-eval: %g%%: the table promised a chain %.1f%% "
	    "without interruption; all the services together kept %.1f%%: "
	    "the promise %s at this share\n", 100 * share, 100 * least,
	    100 * kept, kept >= least ? "holds" : "does not hold");
}

/* the method's run of share a->share, and its first services each
 * alone, into the row */
static int
with_method(const struct mg_clusterdef *def, const struct mg_adoption *ad,
    struct mg_adoptconf *a, const struct mg_adoptres *b, FILE *fp,
    struct mg_diag *d)
{
	struct mg_adoptres m, one;
	struct asum alone, with;
	int s, rv;

	memset(&alone, 0, sizeof(alone));
	memset(&with, 0, sizeof(with));
	a->method = ad->a.method;
	a->hold = ad->a.hold;
	if ((rv = mg_adopt_run(def, a, &m, d)) != 0)
		return rv;
	/* the first services drawn, each alone with the method, against
	 * the same in the run of all */
	for (s = 0; s < ad->alone && (size_t)s < m.services; s++) {
		a->alone = s;
		if ((rv = mg_adopt_run(def, a, &one, d)) != 0) {
			mg_adopt_release(&m);
			return rv;
		}
		asum_add(&alone, &one.svc[s]);
		asum_add(&with, &m.svc[s]);
		mg_adopt_release(&one);
	}
	a->alone = -1;
	row(fp, a->share, ad->name, a->handover, &m, &alone, &with);
	if (ad->say != NULL)
		say(ad->say, a->share, &m, b, &alone, &with);
	if (ad->say != NULL && ad->nrule > 0 && !ad->walked)
		promised(ad->say, a->share, ad, m.successors ? 1 -
		    (double)m.interrupted / (double)m.successors : 1);
	mg_adopt_release(&m);
	return MG_OK;
}

/* the replay of b, job by job, onto path */
static int
jobs(const char *path, const struct mg_adoptres *b, struct mg_diag *d)
{
	struct mg_replay rp;
	struct mg_out out;
	int rv;

	memset(&rp, 0, sizeof(rp));
	rp.start = b->start;
	if ((rv = mg_out_open(&out, path, d)) != 0)
		return rv;
	mg_replay_write_jobs(out.fp, &b->kept, &rp, 0);
	return mg_out_commit(&out, d);
}

int
mg_adoption_write(const struct mg_clusterdef *def,
    const struct mg_adoption *ad, FILE *fp, struct mg_diag *d)
{
	struct mg_adoptconf a = ad->a;
	struct asum none;
	struct mg_adoptres b;
	int i, rv = MG_OK;

	memset(&none, 0, sizeof(none));
	header(fp);
	for (i = 0; i < ad->nshare && rv == 0; i++) {
		a.share = ad->share[i];
		a.method = MG_ADOPT_REACTIVE;
		a.hold = 0;
		if ((rv = mg_adopt_run(def, &a, &b, d)) != 0)
			break;
		row(fp, a.share, "reactive", 0, &b, &none, &none);
		if (ad->a.method != MG_ADOPT_REACTIVE && b.services > 0)
			rv = with_method(def, ad, &a, &b, fp, d);
		/* the last share's replay, job by job */
		if (rv == 0 && ad->jobs_path != NULL && i == ad->nshare - 1)
			rv = jobs(ad->jobs_path, &b, d);
		mg_adopt_release(&b);
	}
	return rv;
}

/* mg_askmodel_says: an mg_adoptconf ask: the model's decision on the
 * view now, through the rule of mirage-advise(1) */
static int
mg_askmodel_says(void *arg, const struct mg_view *v,
    const struct mg_chainnow *cn)
{
	struct mg_askmodel *a = arg;
	struct mg_diag d = { "" };
	double score;
	size_t need = (v->npend > v->nrun ? v->npend : v->nrun) + 1;

	if (need > a->cap) {
		free(a->scratch);
		if ((a->scratch = malloc(need * sizeof(*a->scratch))) == NULL)
			return MG_ENOMEM;
		a->cap = need;
	}
	if (mg_own_features(v, cn, a->b.feat) != 0)
		return MG_ENOMEM;
	mg_paper_snapshot(v, a->scratch, a->b.feat + MG_OWN);
	mg_paper_chain(cn, a->b.feat + MG_OWN + MG_PAPER_SNAP);
	if (mg_rule_score(&a->b, &score, &d) != 0)
		return MG_EINVAL;
	return mg_rule_submits(a->b.m, &score, a->b.m->threshold,
	    (double)(cn->p_start + cn->p_limit - cn->t) / 3600);
}

/*
 * mg_askmodel_open: the model at path, read and bound to the features of
 * one snapshot, into a.  MG_ETYPE for a model that needs more snapshots
 * or is not a model of when; a read or bind status otherwise.
 */
static int
mg_askmodel_open(const char *path, struct mg_askmodel *a, struct mg_diag *d)
{
	struct mg_model *m;
	FILE *fp;
	int rv;

	memset(a, 0, sizeof(*a));
	if ((fp = fopen(path, "rb")) == NULL)
		return mg_diag_set(d, MG_EIO, "cannot open '%s': %s", path,
		    strerror(errno));
	rv = mg_model_read(fp, path, &m, d);
	fclose(fp);
	if (rv != 0)
		return rv;
	a->b.m = m;
	if (m->window > 1 || !(mg_model_kind(m->kind) & MG_KIND_WHEN))
		return mg_diag_set(d, MG_ETYPE, "--adopt-method model: '%s' "
		    "needs %s; a model trained with -w 1 decides for many "
		    "chains at once", path, m->window > 1 ? "a window of "
		    "reference snapshots" : "a node's dispatcher");
	if ((rv = mg_rule_model_now(m, d)) != 0) {
		char why[sizeof(d->msg)];

		memcpy(why, d->msg, sizeof(why));
		return mg_diag_set(d, rv, "--adopt-method model: '%s': %s",
		    path, why);
	}
	if ((rv = mg_rule_bind(&a->b, m, 600, d)) != 0 && rv != MG_ENOMEM) {
		char why[sizeof(d->msg)];

		memcpy(why, d->msg, sizeof(why));
		return mg_diag_set(d, MG_EINVAL, "'%s': %s", path, why);
	}
	return rv;
}

static void
mg_askmodel_close(struct mg_askmodel *a)
{
	mg_model_free(a->b.m);
	mg_rule_unbind(&a->b);
	free(a->scratch);
	memset(a, 0, sizeof(*a));
}

/*
 * mg_adoption_name: a's method in words, as the table names it:
 * "reactive", "lead 6h" (", held"), "planner K futures" or "model FILE"
 * (model: the model's path), each with ", handover" under one
 */
static void
mg_adoption_name(const struct mg_adoptconf *a, const char *model,
    char *buf, size_t len)
{
	const char *ho = a->handover > 0 ? ", handover" : "";
	const char *base;

	if (a->method == MG_ADOPT_LEAD)
		snprintf(buf, len, "lead %lld%s%s%s", (long long)(a->lead %
		    3600 ? a->lead / 60 : a->lead / 3600), a->lead % 3600 ?
		    "m" : "h", a->hold ? ", held" : "", ho);
	else if (a->method == MG_ADOPT_PLAN)
		snprintf(buf, len, "planner %d futures%s", a->pc->k, ho);
	else if (a->method == MG_ADOPT_ASK) {
		base = strrchr(model, '/');
		snprintf(buf, len, "model %s%s", base ? base + 1 : model, ho);
	} else
		snprintf(buf, len, "reactive");
}

/* mg_adoption_span: the others counted in a: those submitted within
 * sel's range of episodes, as far as it is given, and apart those of
 * the span as long before it */
static void
mg_adoption_span(struct mg_adoptconf *a, const struct mg_epsel *sel)
{
	if (sel->have_from)
		a->from = sel->from;
	if (sel->have_until)
		a->until = sel->until;
	else if (sel->count > 0 && sel->have_from)
		a->until = sel->from + sel->count * sel->every;
	/* the span before, as long */
	if (sel->have_from && a->until != INT64_MAX)
		a->before = a->from - (a->until - a->from);
}

void
mg_adoption_init(struct mg_adoption *ad)
{
	memset(ad, 0, sizeof(*ad));
	mg_adoptconf_init(&ad->a);
}

/* --adoption's shares: percentages separated by commas */
static int
shares(struct mg_adoption *ad, const char *arg, struct mg_diag *d)
{
	const char *p = arg;
	size_t n;
	double v;

	for (ad->nshare = 0; *p; p += *p == ',') {
		n = strcspn(p, ",");
		if (ad->nshare == MG_ADOPTION_MAXSHARES)
			return mg_diag_set(d, MG_EINVAL, "--adoption: at most %d "
			    "shares", MG_ADOPTION_MAXSHARES);
		if (mg_parse_f64(p, n - (n > 0 && p[n - 1] == '%'), &v) != 0 ||
		    v < 0 || v > 90)
			return mg_diag_set(d, MG_EINVAL, "--adoption: invalid "
			    "share '%s' (want percentages from 0 to 90, e.g. "
			    "0,10,30,50)", arg);
		ad->share[ad->nshare++] = v / 100;
		p += n;
	}
	if (ad->nshare == 0)
		return mg_diag_set(d, MG_EINVAL, "--adoption: no share given");
	return 0;
}

int
mg_adoption_set(struct mg_adoption *ad, const char *name, const char *arg,
    struct mg_diag *d)
{
	int64_t v;
	double x;

	if (strcmp(name, "adoption") == 0)
		return shares(ad, arg, d);
	if (strcmp(name, "adopt-hold") == 0) {
		ad->a.hold = 1;
		return 0;
	}
	if (strcmp(name, "adopt-low") == 0) {
		ad->a.low = 1;
		return 0;
	}
	if (strcmp(name, "adopt-alternate") == 0) {
		ad->alternate = 1;
		return 0;
	}
	if (strcmp(name, "adopt-cap") == 0) {
		if (mg_parse_f64(arg, strlen(arg), &x) != 0 || !(x >= 1 &&
		    x <= 100000) || x != floor(x))
			return mg_diag_set(d, MG_EINVAL, "invalid --adopt-cap '%s' "
			    "(want the early successors that may wait at once, "
			    "1 to 100000)", arg);
		ad->a.early_cap = (int)x;
		return 0;
	}
	if (strcmp(name, "adopt-replicas") == 0) {
		if (mg_parse_i64(arg, strlen(arg), 1, MG_ADOPT_MAXREPLICAS,
		    &v) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid "
			    "--adopt-replicas '%s' (want the replicas of a "
			    "service, 1 to %d)", arg, MG_ADOPT_MAXREPLICAS);
		ad->a.replicas = (int)v;
		return 0;
	}
	if (strcmp(name, "adopt-nodes") == 0) {
		if (mg_parse_i64(arg, strlen(arg), 1, 1000000, &v) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid --adopt-nodes "
			    "'%s' (want a service's nodes at most, 1 or more)",
			    arg);
		ad->a.max_nodes = (int32_t)v;
		return 0;
	}
	if (strcmp(name, "adopt-min-run") == 0) {
		if (mg_parse_share(arg, &ad->a.min_run) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid --adopt-min-run "
			    "'%s' (want the share of its limit a job runs before "
			    "its successor starts, e.g. 50%% or 0.5)", arg);
		return 0;
	}
	if (strcmp(name, "adopt-method") == 0) {
		if (strcmp(arg, "reactive") == 0)
			ad->a.method = MG_ADOPT_REACTIVE;
		else if (strncmp(arg, "lead:", 5) == 0 && mg_parse_span(arg +
		    5, &v) == 0 && v > 0 && v <= 2 * 86400) {
			ad->a.method = MG_ADOPT_LEAD;
			ad->a.lead = v;
		} else if (strcmp(arg, "plan") == 0)
			ad->a.method = MG_ADOPT_PLAN;
		else if (strcmp(arg, "model") == 0)
			ad->a.method = MG_ADOPT_ASK;
		else if (strncmp(arg, "target:", 7) == 0 && arg[7] != '\0') {
			ad->a.method = MG_ADOPT_ASK;
			ad->target_path = arg + 7;
		} else
			return mg_diag_set(d, MG_EINVAL, "invalid --adopt-method "
			    "'%s' (want reactive, lead:TIME, e.g. lead:6h, plan, "
			    "model or target:FILE)", arg);
		return 0;
	}
	/* the whole numbers: the draw of services, the services run alone */
	if (strcmp(name, "adopt-seed") == 0 || strcmp(name, "adopt-alone") ==
	    0) {
		int seed = strcmp(name, "adopt-seed") == 0;
		double most = seed ? 1e9 : 1000;

		if (mg_parse_i64(arg, strlen(arg), 1, (int64_t)most, &v) != 0)
			return mg_diag_set(d, MG_EINVAL, "invalid --%s '%s' (want "
			    "1 to %g)", name, arg, most);
		if (seed)
			ad->a.seed = (uint64_t)v;
		else
			ad->alone = (int)v;
		return 0;
	}
	return mg_diag_set(d, MG_EINVAL, "no adoption setting '%s'", name);
}

int
mg_adoption_check(const struct mg_adoption *ad, int nmodels, int plan,
    struct mg_diag *d)
{
	const struct mg_adoptconf *a = &ad->a;

	if (a->hold && a->method != MG_ADOPT_LEAD)
		return mg_diag_set(d, MG_EINVAL, "--adopt-hold goes with "
		    "--adopt-method lead:TIME");
	if (ad->alone > 0 && a->method == MG_ADOPT_REACTIVE)
		return mg_diag_set(d, MG_EINVAL, "--adopt-alone goes with "
		    "--adopt-method lead:TIME or plan");
	if (ad->alternate && (ad->target_path == NULL || a->replicas < 2))
		return mg_diag_set(d, MG_EINVAL, "--adopt-alternate goes with "
		    "--adopt-method target:FILE and --adopt-replicas 2 or more");
	if (ad->target_path != NULL && nmodels > 0)
		return mg_diag_set(d, MG_EINVAL, "--adopt-method target:FILE "
		    "takes no -M: the table says each size's rule");
	if (ad->target_path == NULL && ((a->method == MG_ADOPT_ASK) !=
	    (nmodels > 0) || (a->method == MG_ADOPT_ASK && nmodels != 1)))
		return mg_diag_set(d, MG_EINVAL, "--adopt-method model goes "
		    "with one -M model, and -M with --adoption with it");
	if ((a->method == MG_ADOPT_PLAN) != plan)
		return mg_diag_set(d, MG_EINVAL, "--adopt-method plan goes with "
		    "--plan futures, and --plan with it");
	return 0;
}

/* the rule of a service of nodes nodes at now, as mg_table_size()
 * finds it among the rules of the last day begun (a table's: all); NULL
 * if every size is larger or no day has begun (the reactive rule) */
static const struct mg_adoptrule *
rule_for(const struct mg_adoption *ad, int32_t nodes, int64_t now, int alt)
{
	int32_t sizes[MG_ADOPTION_MAXSIZES];
	size_t k, at[MG_ADOPTION_MAXSIZES];
	int64_t day = INT64_MIN;
	int n = 0, i;

	for (k = 0; k < ad->nrule; k++)
		if (ad->rule[k].alt == alt && ad->rule[k].from <= now &&
		    ad->rule[k].from > day)
			day = ad->rule[k].from;
	for (k = 0; k < ad->nrule && n < MG_ADOPTION_MAXSIZES; k++)
		if (ad->rule[k].alt == alt && ad->rule[k].from == day) {
			sizes[n] = ad->rule[k].nodes;
			at[n++] = k;
		}
	i = mg_table_size(sizes, n, nodes);
	return i < 0 ? NULL : &ad->rule[at[i]];
}

/* an mg_adoptconf lead_of: a fixed lead's seconds, or 0: asked */
static int64_t
rule_lead(void *arg, int32_t nodes, int64_t now)
{
	const struct mg_adoptrule *r = rule_for(arg, nodes, now, 0);

	return r != NULL && r->kind == MG_SETTING_LEAD ? (int64_t)llround(r->hours *
	    3600) : 0;
}

/* an mg_adoptconf alt_lead_of: the table's fixed lead, seconds, or 0 */
static int64_t
alt_lead(void *arg, int32_t nodes, int64_t now)
{
	const struct mg_adoptrule *r = rule_for(arg, nodes, now, 1);

	return r != NULL ? (int64_t)llround(r->hours * 3600) : 0;
}

/* an mg_adoptconf ask: the scheduler estimate's margin, as mirage-eval
 * decides with it: submit once the plan's start for S submitted now is
 * at most the margin before P's end */
static int
rule_says(void *arg, const struct mg_view *v, const struct mg_chainnow *cn)
{
	struct mg_adoption *ad = arg;
	const struct mg_adoptrule *r = rule_for(ad, cn->s_nodes, cn->t, 0);

	if (r == NULL)
		return 0;
	if (mg_own_features(v, cn, ad->feat) != 0)
		return MG_ENOMEM;
	return mg_rule_estimate(ad->feat[ad->gap_col], r->hours);
}

/* the rules the table at path recommends for its first target (a
 * walk's: each day's), for the handover framing handover, into ad */
static int
read_rules(struct mg_adoption *ad, const char *path, int64_t handover,
    struct mg_diag *d)
{
	struct mg_table_row *rows, *r;
	struct mg_adoptrule *u;
	size_t n, i, k, sizes;
	int rv, alt;

	if ((rv = mg_table_read(path, &rows, &n, d)) != 0)
		return rv;
	/* the rules recommended, then with --adopt-alternate the fixed
	 * leads chosen the same way */
	for (alt = 0; alt <= ad->alternate; alt++)
	for (i = 0; i < n && rv == 0; i++) {
		r = &rows[i];
		if (r->target != rows[0].target || (alt ? strcmp(r->method,
		    "lead") != 0 || r->kind != MG_SETTING_LEAD || !(r->setting >
		    0) : !r->recommended))
			continue;	/* the table's first target's rules */
		for (k = sizes = 0; k < ad->nrule && !(ad->rule[k].alt == alt &&
		    ad->rule[k].from == r->period && ad->rule[k].nodes ==
		    r->nodes); k++)
			sizes += ad->rule[k].alt == alt && ad->rule[k].from ==
			    r->period;
		if ((r->handover > 0) != (handover > 0))
			rv = mg_diag_set(d, MG_EINVAL, "'%s', line %d: chosen %s "
			    "handing over; run mirage-eval --target %s "
			    "--handover", path, r->line, r->handover > 0 ? "for" :
			    "without", r->handover > 0 ? "without" : "with");
		else if (k < ad->nrule || sizes == MG_ADOPTION_MAXSIZES)
			rv = mg_diag_set(d, MG_EINVAL, "'%s', line %d: a second "
			    "%s for %d-node chains (one target a table, a walk's "
			    "a day, at most %d sizes)", path, r->line, alt ?
			    "lead" : "rule", (int)r->nodes, MG_ADOPTION_MAXSIZES);
		else if (mg_grow((void **)&ad->rule, &ad->caprule, ad->nrule +
		    1, sizeof(*ad->rule)) != 0)
			rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
		else if (!mg_rule_plain(r->method, r->kind))
			rv = mg_diag_set(d, MG_EINVAL, "'%s', line %d: it "
			    "recommends %s for %d-node chains; many chains at "
			    "once run a fixed lead or the scheduler estimate's "
			    "margin", path, r->line, r->method, (int)r->nodes);
		else {
			u = &ad->rule[ad->nrule++];
			u->from = r->period;
			ad->walked |= r->period != 0;
			u->nodes = r->nodes;
			u->alt = alt;
			u->kind = r->kind;
			u->hours = r->setting;
			u->promise = r->promise;
		}
	}
	free(rows);
	if (rv == 0 && ad->nrule == 0)
		rv = mg_diag_set(d, MG_EINVAL, "'%s': no method reached the "
		    "target on its training period", path);
	return rv;
}

int
mg_adoption_setup(struct mg_adoption *ad, struct mg_evalconf *c,
    const struct mg_clusterdef *def, struct mg_diag *d)
{
	const char *base;
	int rv;

	if (ad->a.method == MG_ADOPT_ASK && ad->target_path != NULL) {
		if ((rv = read_rules(ad, ad->target_path, c->handover,
		    d)) != 0)
			return rv;
		ad->gap_col = mg_rule_estimate_col();
		ad->a.ask = rule_says;
		ad->a.lead_of = rule_lead;
		if (ad->alternate)
			ad->a.alt_lead_of = alt_lead;
		ad->a.ask_arg = ad;
	} else if (ad->a.method == MG_ADOPT_ASK) {
		if ((rv = mg_askmodel_open(c->model[0], &ad->am, d)) != 0)
			return rv;
		ad->a.ask = mg_askmodel_says;
		ad->a.ask_arg = &ad->am;
	}
	ad->a.handover = c->handover;
	if (ad->a.method == MG_ADOPT_PLAN) {
		mg_planconf_world(&c->pc, def, c->sel.e.limit, c->handover);
		ad->a.pc = &c->pc;
		ad->a.threads = c->threads;
		ad->a.lambda = (c->pc.given & MG_PLAN_GIVEN_LAMBDA) ||
		    c->handover == 0 ? c->lambda : MG_PLAN_HANDOVER_LAMBDA;
	}
	mg_adoption_span(&ad->a, &c->sel);
	if (ad->target_path != NULL) {
		base = strrchr(ad->target_path, '/');
		snprintf(ad->namebuf, sizeof(ad->namebuf), "target %s%s",
		    base ? base + 1 : ad->target_path, c->handover > 0 ?
		    ", handover" : "");
	} else
		mg_adoption_name(&ad->a, c->model[0], ad->namebuf,
		    sizeof(ad->namebuf));
	if (ad->a.min_run > 0)
		snprintf(ad->namebuf + strlen(ad->namebuf), sizeof(ad->namebuf) -
		    strlen(ad->namebuf), ", min run %g%%", 100 * ad->a.min_run);
	if (ad->a.early_cap > 0)
		snprintf(ad->namebuf + strlen(ad->namebuf), sizeof(ad->namebuf) -
		    strlen(ad->namebuf), ", cap %d", ad->a.early_cap);
	if (ad->a.low)
		snprintf(ad->namebuf + strlen(ad->namebuf), sizeof(ad->namebuf) -
		    strlen(ad->namebuf), ", low");
	if (ad->alternate)
		snprintf(ad->namebuf + strlen(ad->namebuf), sizeof(ad->namebuf) -
		    strlen(ad->namebuf), ", alternate");
	ad->name = ad->namebuf;
	return 0;
}

void
mg_adoption_release(struct mg_adoption *ad)
{
	mg_askmodel_close(&ad->am);
	free(ad->rule);
	ad->rule = NULL;
	ad->nrule = ad->caprule = 0;
}
