/*
 * advise.c: a chain's decision on a live cluster, and its report
 * (advise.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "decide/rule.h"
#include "live/advise.h"
#include "live/slurm.h"
#include "episode/episode.h"
#include "episode/feature.h"

#define MIN_SAMPLES	1000	/* fewer, and a model has seen little */
#define STALE_DAYS	90	/* a trace older than this, another time */

void
mg_advice_init(struct mg_advice *a)
{
	memset(a, 0, sizeof(*a));
	a->score = a->p10 = a->p90 = a->risk = NAN;
	a->promise = a->confidence = a->bound = NAN;
}

/* a state Slurm gives a job that has ended */
static int
final(const char *st)
{
	static const char *const live[] = { "", "PENDING", "RUNNING",
	    "COMPLETING", "CONFIGURING", "SUSPENDED", "REQUEUED",
	    "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING", "SIGNALING",
	    "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD", "SPECIAL_EXIT", NULL };
	int k;

	for (k = 0; live[k]; k++)
		if (strcmp(st, live[k]) == 0)
			return 0;
	return 1;
}

void
mg_advise_find(struct mg_live *l, const char *jobid, int64_t now,
    struct mg_advice *a)
{
	const struct mg_live_job *j = mg_live_find(l, jobid);

	a->p_start = a->p_limit = a->p_end = -1;
	a->p_nodes = 0;
	a->p_state = 0;
	a->p_preempted = 0;
	if (j == NULL)
		return;
	a->p_limit = j->limit;
	a->p_nodes = j->nodes;
	a->p_preempted = strcmp(j->state, "PREEMPTED") == 0;
	if (j->end >= 0 && j->end <= now) {
		a->p_state = 3;
		a->p_end = j->end;
	} else if (final(j->state)) {
		/* Slurm says it ended, though its end is after now: this
		 * host's clock is behind the controller's */
		a->p_state = 3;
		a->p_end = now;
	} else if (j->start >= 0 && j->start <= now) {
		a->p_state = 2;
		a->p_start = j->start;
		if (j->limit > 0)
			a->p_end = j->start + j->limit;
	} else
		a->p_state = 1;
}

/* the value of key in a "key=value ..." string, or "" */
static void
kv(const char *s, const char *key, char *out, size_t cap)
{
	size_t n = strlen(key);
	const char *p;

	*out = '\0';
	for (p = s; p && *p; p = strchr(p, ' ')) {
		while (*p == ' ')
			p++;
		if (strncmp(p, key, n) == 0 && p[n] == '=') {
			snprintf(out, cap, "%.*s", (int)strcspn(p + n + 1, " "),
			    p + n + 1);
			return;
		}
	}
}

int
mg_advise_misfit(const struct mg_advise *q, const struct mg_model *m,
    char (*msg)[512], int max)
{
	char v[256], parts[256];
	int64_t t;
	int n = 0;

	if (m->cluster == NULL || *m->cluster == '\0') {
		snprintf(msg[n++], sizeof(*msg), "model '%s' does not record "
		    "the cluster it was trained on: train it again to have "
		    "it checked", q->model);
		return n;
	}
	kv(m->cluster, "nodes", v, sizeof(v));
	if (n < max && q->nodes > 0 && *v && (atof(v) < 0.8 * q->nodes ||
	    atof(v) > 1.25 * q->nodes))
		snprintf(msg[n++], sizeof(*msg), "model '%s' was trained for "
		    "%s nodes, this cluster has %d: its features measure "
		    "another queue", q->model, v, (int)q->nodes);
	kv(m->cluster, "partitions", parts, sizeof(parts));
	if (n < max && q->partition != NULL && *parts &&
	    strcmp(parts, "-") != 0) {
		const char *p = strstr(parts, q->partition);
		size_t k = strlen(q->partition);

		if (p == NULL || (p != parts && p[-1] != ',') ||
		    (p[k] != '\0' && p[k] != ','))
			snprintf(msg[n++], sizeof(*msg), "model '%s' was "
			    "trained on partitions %s, not %s", q->model,
			    parts, q->partition);
	}
	kv(m->cluster, "trace_to", v, sizeof(v));
	if (n < max && *v && mg_parse_date(v, MG_TZ_UTC, &t) == 0 &&
	    q->now - t > (int64_t)STALE_DAYS * MG_DAY)
		snprintf(msg[n++], sizeof(*msg), "model '%s' was trained on a "
		    "trace that ends %s, %.0f days before %s: retrain it on "
		    "recent history (nightly-retrain.sh)", q->model, v,
		    (double)(q->now - t) / MG_DAY, q->now_given ? "--now" :
		    "now");
	if (n < max && m->nsamples < MIN_SAMPLES &&
	    !(mg_model_kind(m->kind) & MG_KIND_EPISODES))
		snprintf(msg[n++], sizeof(*msg), "model '%s' was trained on "
		    "%llu samples only (%d or more are usual)", q->model,
		    (unsigned long long)m->nsamples, MIN_SAMPLES);
	return n;
}

/* the model's features for P now, into feat (names' order) */
static int
features(const struct mg_advise *q, const struct mg_model *m,
    struct mg_live *l, const struct mg_chainnow *cn, double *feat)
{
	struct mg_view v = { 0 };
	double *scratch = NULL;
	int rv = MG_ENOMEM;
	uint32_t k;

	if (mg_live_view(l, q->now, q->nodes, MG_DAY, q->job, isnan(q->prio) ?
	    mg_live_fresh_prio(l) : q->prio, &v) != 0 ||
	    mg_own_features(&v, cn, feat) != 0)
		goto out;
	/* the reference window: r0 now, r1 ten minutes ago, ... */
	for (k = 0; k < m->window; k++) {
		if (mg_live_view(l, q->now - (int64_t)k * MG_ADVISE_PERIOD,
		    q->nodes, MG_DAY, q->job, 0, &v) != 0)
			goto out;
		free(scratch);
		if ((scratch = malloc((v.npend + v.nrun + 1) *
		    sizeof(*scratch))) == NULL)
			goto out;
		mg_paper_snapshot(&v, scratch, feat + MG_OWN +
		    (size_t)(m->window - 1 - k) * MG_PAPER_SNAP);
	}
	mg_paper_chain(cn, feat + MG_OWN + (size_t)m->window * MG_PAPER_SNAP);
	rv = MG_OK;
out:
	mg_view_release(&v);
	free(scratch);
	return rv;
}

/* the chain now, as the features see it, for q's running P */
static void
chain_now(const struct mg_advise *q, const struct mg_live_job *p,
    struct mg_chainnow *cn)
{
	memset(cn, 0, sizeof(*cn));
	cn->t = q->now;
	cn->p_submit = p->submit >= 0 ? p->submit : p->start;
	cn->p_start = p->start;
	cn->p_elapsed = q->now - p->start;
	cn->p_limit = p->limit > 0 ? p->limit : 48 * 3600;
	cn->p_nodes = p->nodes > 0 ? p->nodes : 1;
	cn->s_nodes = q->s_nodes > 0 ? q->s_nodes : cn->p_nodes;
	cn->s_limit = q->s_limit > 0 ? q->s_limit : cn->p_limit;
}

/* the decision by the model's score a->score */
static void
model_rule(const struct mg_advise *q, const struct mg_model *m,
    const struct mg_live_job *p, int64_t p_limit, struct mg_advice *a)
{
	double thr = isnan(q->threshold) ? m->threshold : q->threshold;

	a->classifier = m->classifier;
	a->rule = "model";
	a->submit = mg_rule_submits(m, &a->score, thr,
	    (double)(p->start + p_limit - q->now) / 3600);
	if (m->classifier)
		snprintf(a->why, sizeof(a->why), "the %s model gives %.2f "
		    "for submitting now (%s the threshold %.2f)", m->kind,
		    a->score, a->submit ? "at or above" : "below", thr);
	else
		snprintf(a->why, sizeof(a->why), "if submitted now the "
		    "successor would start %.1f h %s %s ends (the %s model); "
		    "it is submitted when that overlap is at most %.1f h: %s",
		    fabs(a->score), a->score >= 0 ? "after" : "before", q->job,
		    m->kind, thr, a->submit ? "submit" : "wait");
}

int
mg_advise_model(const struct mg_advise *q, struct mg_model *m,
    struct mg_live *l, struct mg_advice *a)
{
	const struct mg_live_job *p = mg_live_find(l, q->job);
	struct mg_rule_model b;
	struct mg_chainnow cn;
	struct mg_diag d = { "" };
	int rv;

	chain_now(q, p, &cn);
	if ((rv = mg_rule_bind(&b, m, MG_ADVISE_PERIOD, &d)) != 0) {
		if (rv == MG_ENOMEM)
			return rv;
		snprintf(a->note, sizeof(a->note), "model '%s': %s", q->model,
		    d.msg);
		return -1;
	}
	if ((rv = features(q, m, l, &cn, b.feat)) != 0)
		goto out;
	rv = -1;
	if (mg_rule_score(&b, &a->score, &d) != 0) {
		snprintf(a->note, sizeof(a->note), "model '%s': %s", q->model,
		    d.msg);
		goto out;
	}
	model_rule(q, m, p, cn.p_limit, a);
	(void)mg_model_spread_at(m, a->score, &a->p10, &a->p90);
	rv = 0;
out:
	mg_rule_unbind(&b);
	return rv;
}

void
mg_advise_lead(const struct mg_advise *q, double lead_h, struct mg_live *l,
    struct mg_advice *a)
{
	const struct mg_live_job *p = mg_live_find(l, q->job);
	int64_t limit = p->limit > 0 ? p->limit : 48 * 3600;
	double left = (double)(p->start + limit - q->now) / 3600;

	a->rule = "fixed lead";
	a->submit = mg_rule_lead(left, lead_h);
	snprintf(a->why, sizeof(a->why), "%s ends in %.1f h; with a lead of "
	    "%g h its successor is submitted when at most that is left: %s",
	    q->job, left, lead_h, a->submit ? "submit" : "wait");
}

int
mg_advise_estimate(const struct mg_advise *q, double margin_h,
    struct mg_live *l, struct mg_advice *a)
{
	const struct mg_live_job *p = mg_live_find(l, q->job);
	struct mg_view v = { 0 };
	struct mg_chainnow cn;
	double feat[MG_OWN], gap;
	size_t col;

	col = mg_rule_estimate_col();
	chain_now(q, p, &cn);
	if (col == MG_OWN || mg_live_view(l, q->now, q->nodes, MG_DAY, q->job,
	    isnan(q->prio) ? mg_live_fresh_prio(l) : q->prio, &v) != 0 ||
	    mg_own_features(&v, &cn, feat) != 0) {
		mg_view_release(&v);
		return MG_ENOMEM;
	}
	mg_view_release(&v);
	gap = feat[col];
	a->rule = "scheduler estimate";
	a->score = gap;
	a->submit = mg_rule_estimate(gap, margin_h);
	snprintf(a->why, sizeof(a->why), "the backfill plan starts the "
	    "successor, submitted now, %.1f h %s %s ends; it is submitted when "
	    "that is at most %g h before: %s", fabs(gap), gap >= 0 ? "after" :
	    "before", q->job, margin_h, a->submit ? "submit" : "wait");
	return MG_OK;
}

/* a stream of the planner's draws for this chain's job */
static uint64_t
id_stream(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* why the planner decides as it does: what submitting now and at the
 * cheapest later time bring */
static void
plan_why(const struct mg_advise *q, const struct mg_plancost *c, int k,
    const char *up, struct mg_advice *a)
{
	double cost[MG_PLAN_MAXCAND];
	char at[32];
	int best = c->n > 1 ? 1 : 0, j;

	/* what an early start costs: overlap, or handing over the lease
	 * given up */
	for (j = 0; j < c->n; j++)
		cost[j] = q->handover ? mg_plan_lease(c, j,
		    MG_ADVISE_HANDOVER) : c->ovl[j];
	for (j = 1; j < c->n; j++)
		if (c->pint[j] + q->lambda * cost[j] < c->pint[best] +
		    q->lambda * cost[best])
			best = j;
	mg_slurm_time(c->at[best], q->tz, at, sizeof(at));
	snprintf(a->why, sizeof(a->why), "in %d futures drawn from the queue "
	    "and the last 4 weeks%s: submitted now, %.0f%% interrupted and "
	    "%.1f h of %s; submitted at %s, %.0f%% and %.1f h (an hour of %s "
	    "weighs %.3g interruptions): %s", k, up, 100 * c->pint[0],
	    cost[0], q->handover ? "lease given up" : "overlap", at,
	    100 * c->pint[best], cost[best], q->handover ? "lease" :
	    "overlap", q->lambda, a->submit ? "submit now" : "wait");
}

int
mg_advise_plan(const struct mg_advise *q, const struct mg_planconf *conf,
    struct mg_live *l, const struct mg_trace *tr,
    const struct mg_capacity *cap, struct mg_advice *a)
{
	const struct mg_live_job *p = mg_live_find(l, q->job);
	struct mg_plan *pl = NULL;
	struct mg_view v = { 0 };
	struct mg_planchain ch;
	struct mg_plancost c;
	struct mg_planconf pc = *conf;
	char up[64] = "";
	int32_t nodes = q->nodes;
	int rv = MG_ENOMEM;

	/* handing over: over the whole of P, priced by the lease */
	if (q->handover) {
		pc.handover = MG_ADVISE_HANDOVER;
		if (p->limit > pc.window)
			pc.window = p->limit;
	}
	/* the nodes up now and before, as the nodes' events record them */
	if (cap->n > 0) {
		pc.cap_time = cap->time;
		pc.cap_nodes = cap->nodes;
		pc.cap_n = cap->n;
		snprintf(up, sizeof(up), ", %d of %d nodes up", cap->now,
		    nodes);
		nodes = cap->now > 0 ? cap->now : 1;
	}
	if (mg_plan_new(&pc, tr, &pl) != 0 || mg_live_view(l, q->now, nodes,
	    MG_DAY, q->job, isnan(q->prio) ? mg_live_fresh_prio(l) : q->prio,
	    &v) != 0)
		goto out;
	memset(&ch, 0, sizeof(ch));
	ch.p_start = p->start;
	ch.p_limit = p->limit > 0 ? p->limit : 48 * 3600;
	ch.p_end = p->start + ch.p_limit;
	ch.p_dur = ch.p_limit;
	ch.p_nodes = p->nodes > 0 ? p->nodes : 1;
	ch.nodes = q->s_nodes > 0 ? q->s_nodes : ch.p_nodes;
	ch.s_limit = ch.s_dur = q->s_limit > 0 ? q->s_limit : ch.p_limit;
	ch.world_end = INT64_MAX;
	if ((rv = mg_plan_costs(pl, &v, &ch, q->now, id_stream(q->job),
	    &c)) != 0) {
		snprintf(a->note, sizeof(a->note), "planner: %s",
		    mg_strerror(rv));
		rv = -1;
		goto out;
	}
	a->rule = "planner";
	if (c.n == 0) {
		a->submit = 0;
		snprintf(a->why, sizeof(a->why), "%s ends in %.1f h, beyond "
		    "the planner's window of %.0f h: wait", q->job,
		    (double)(ch.p_end - q->now) / 3600,
		    (double)pc.window / 3600);
		goto out;
	}
	a->submit = mg_plan_submit(&c, MG_PLAN_RISK, q->lambda, q->handover ?
	    MG_ADVISE_HANDOVER : 0);
	a->risk = mg_plan_risk_next(&c);
	plan_why(q, &c, conf->k, up, a);
	rv = 0;
out:
	mg_view_release(&v);
	mg_plan_free(pl);
	return rv;
}

int
mg_advise_rule(const struct mg_advise *q, int queue_ok, struct mg_advice *a)
{
	if (!queue_ok) {
		/* cannot see P: a dependency keeps the chain */
		a->rule = "dependency";
		a->p_state = 4;
		a->submit = 1;
		snprintf(a->why, sizeof(a->why), "the queue cannot be read: "
		    "submit with an afterany dependency on %s (the reactive "
		    "outcome, without watching)", q->job);
	} else if (a->p_state == 3) {
		a->rule = "reactive";
		a->submit = 1;
		snprintf(a->why, sizeof(a->why), "%s %s: submit now", q->job,
		    a->p_preempted ? "was preempted, not ended at its limit; "
		    "the service is down until its successor starts" :
		    "has ended");
	} else if (a->p_state == 1) {
		a->rule = "pending";
		a->submit = 0;
		a->next = q->now + MG_ADVISE_PERIOD;
		snprintf(a->why, sizeof(a->why), "%s has not started: wait",
		    q->job);
	} else
		return 0;
	return 1;
}

int
mg_advise_ready(const struct mg_advise *q, struct mg_live *l,
    const char *why, struct mg_advice *a)
{
	size_t n;

	if (*a->note != '\0')
		return 1;
	if (q->nodes <= 0)
		snprintf(a->note, sizeof(a->note), "the cluster's node count "
		    "is unknown (give -n)%s%.400s", *why ? ": " : "", why);
	else if ((n = mg_live_incomplete(l, q->now)) > 0)
		snprintf(a->note, sizeof(a->note), "the queue shows no time "
		    "limit or no submission time for %zu jobs (squeue's "
		    "default or -l layout): give squeue -o '%s' or --json", n,
		    MG_SLURM_SQUEUE_FMT);
	else if (a->p_limit <= 0)
		snprintf(a->note, sizeof(a->note), "job %s has no time limit "
		    "(UNLIMITED): no limit ends it, so there is no end to "
		    "submit ahead of", q->job);
	else
		return 1;
	return 0;
}

void
mg_advise_reactive(const struct mg_advise *q, int modelless, int none_asked,
    struct mg_advice *a)
{
	static const char *const decided[] = { "model", "planner",
	    "fixed lead", "scheduler estimate" };
	const char *rule = a->rule ? a->rule : "";
	size_t k;

	for (k = 0; k < sizeof(decided) / sizeof(decided[0]); k++)
		if (strcmp(rule, decided[k]) == 0)
			break;
	if (k == sizeof(decided) / sizeof(decided[0])) {
		if (none_asked && *a->note == '\0')
			snprintf(a->note, sizeof(a->note), "no model (-m)");
		a->rule = "reactive";
		a->submit = 0;
		snprintf(a->why, sizeof(a->why), "%s: submit when %s ends",
		    modelless ? "without a model" : "the reactive rule",
		    q->job);
	}
	if (!a->submit) {
		a->next = q->now + MG_ADVISE_PERIOD;
		if (a->p_end > q->now && a->p_end < a->next)
			a->next = a->p_end;
	}
}

static void
json_str(FILE *fp, const char *key, const char *s, int comma)
{
	fprintf(fp, "  \"%s\": \"", key);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(fp, "\\u%04x", *s);
		else
			fputc(*s, fp);
	}
	fprintf(fp, "\"%s\n", comma ? "," : "");
}

static void
json_num(FILE *fp, const char *key, double v, int comma)
{
	if (isnan(v))
		fprintf(fp, "  \"%s\": null%s\n", key, comma ? "," : "");
	else
		fprintf(fp, "  \"%s\": %.4g%s\n", key, v, comma ? "," : "");
}

static const char *const pst[] = { "in no dump", "pending", "running",
	"ended", "unknown (no queue)" };

static void
write_json(FILE *fp, const struct mg_advise *q, const struct mg_advice *a,
    const char *decision, const char *next)
{
	int64_t now = q->now;

	fprintf(fp, "{\n");
	json_str(fp, "decision", decision, 1);
	json_str(fp, "rule", a->rule, 1);
	json_str(fp, "job", q->job, 1);
	json_str(fp, "job_state", pst[a->p_state], 1);
	json_num(fp, "job_left_h", a->p_state == 2 && a->p_end > now ?
	    (double)(a->p_end - now) / 3600 : NAN, 1);
	json_num(fp, a->classifier ? "score" : "predicted_gap_h", a->score, 1);
	json_num(fp, "gap_p10_h", isnan(a->p10) ? NAN : a->score + a->p10, 1);
	json_num(fp, "gap_p90_h", isnan(a->p90) ? NAN : a->score + a->p90, 1);
	json_num(fp, "risk_if_wait", a->risk, 1);
	json_str(fp, "next_check", a->next > 0 ? next : "", 1);
	json_str(fp, "submitted", a->submitted, 1);
	json_num(fp, "promise", a->promise, 1);
	json_num(fp, "promise_confidence", a->confidence, 1);
	json_num(fp, "promise_certified", isnan(a->promise) ? NAN :
	    a->certified, 1);
	json_num(fp, "bound_share", a->bound, 1);
	json_str(fp, "note", a->note, 1);
	json_str(fp, "why", a->why, 0);
	fprintf(fp, "}\n");
}

void
mg_advise_write(FILE *fp, const struct mg_advise *q,
    const struct mg_advice *a, const char *decision, int json)
{
	char next[32], end[32];
	int64_t now = q->now;

	mg_slurm_time(a->next, q->tz, next, sizeof(next));
	mg_slurm_time(a->p_end, q->tz, end, sizeof(end));
	if (json) {
		write_json(fp, q, a, decision, next);
		return;
	}
	fprintf(fp, "decision: %s\n", decision);
	fprintf(fp, "job:      %s %s", q->job, pst[a->p_state]);
	if (a->p_state == 2 && a->p_end > now)
		fprintf(fp, ", ends by %s (%.1f h left)", end,
		    (double)(a->p_end - now) / 3600);
	else if (a->p_state == 2 && a->p_end > 0)
		fprintf(fp, ", its limit ran out at %s, before %s", end,
		    q->now_given ? "--now" : "now");
	fprintf(fp, "\n");
	if (!isnan(a->score)) {
		if (a->classifier)
			fprintf(fp, "model:    score %.3f\n", a->score);
		else if (!isnan(a->p10))
			fprintf(fp, "model:    gap %+.1f h (held-out errors "
			    "put 80%% within %+.1f to %+.1f h)\n", a->score,
			    a->score + a->p10, a->score + a->p90);
		else
			fprintf(fp, "model:    gap %+.1f h (too few held-out "
			    "predictions of that size to give its spread)\n",
			    a->score);
	}
	if (!isnan(a->risk))
		fprintf(fp, "planner:  %.0f%% chance of an interruption if it "
		    "waits 10 minutes\n", 100 * a->risk);
	if (*a->submitted)
		fprintf(fp, "submitted: %s%s\n", a->submitted, a->dependency ?
		    " (afterany dependency on the current job)" : "");
	if (a->next > 0)
		fprintf(fp, "next:     %s\n", next);
	if (!isnan(a->promise))
		fprintf(fp, "promise:  %.1f%% of links without an interruption "
		    "at %g%% confidence%s; at most %.1f%% could start in time "
		    "however early submitted\n", 100 * a->promise,
		    100 * a->confidence, a->certified ? " (the target)" :
		    ", not the target", 100 * a->bound);
	if (*a->note)
		fprintf(fp, "note:     %s\n", a->note);
	fprintf(fp, "why:      %s\n", a->why);
}
