/*
 * t_plan.c: the planner on hand-made clusters whose answer is known: no
 * competition (wait until P's end), a burst that arrives every day at
 * the same hour (submit before it), nothing after the decision time
 * changes the decision, and the same seed gives the same draws.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "plan/plan.h"

#define H	3600
#define DAY	86400
#define T0	(1700000000 / DAY * DAY + 100 * DAY)	/* a midnight */

static struct mg_trace_job jobs[512];

/* a history job, ended (or not) as the arguments say */
static void
job(struct mg_trace *t, int64_t submit, int64_t start, int64_t dur,
    int64_t limit, int32_t nodes)
{
	struct mg_trace_job *j = &jobs[t->n];

	memset(j, 0, sizeof(*j));
	j->submit = submit;
	j->start = start;
	j->dur = dur;
	j->limit = limit;
	j->nodes = nodes;
	j->user = j->after = j->part = j->qos = j->account = j->assoc = -1;
	j->uid = j->prio = j->eligible = -1;
	snprintf(j->id, sizeof(j->id), "%zu", t->n);
	t->n++;
}

static int
by_submit(const void *a, const void *b)
{
	return mg_trace_job_cmp(a, b);
}

/*
 * A history of 60 days: every day, 30 jobs of an 8-hour limit that ran
 * 4 hours (long ended); with burst, also a 1-node job of a 24-hour limit
 * that runs it all, submitted at 21:00.
 */
static void
history(struct mg_trace *t, int burst, int64_t until)
{
	int64_t d;
	int i;

	memset(t, 0, sizeof(*t));
	t->job = jobs;
	for (d = T0 - 60 * DAY; d < until; d += DAY) {
		for (i = 0; i < 4 && d + i * H < until; i++)
			job(t, d + i * H, d + i * H, 4 * H, 8 * H, 1);
		if (burst && d + 21 * H < until)
			job(t, d + 21 * H, d + 21 * H + 60, 24 * H, 24 * H, 1);
	}
	qsort(t->job, t->n, sizeof(*t->job), by_submit);
}

/* a cluster of nodes nodes where P runs on one until p_end */
static void
view(struct mg_view *v, int32_t nodes, int64_t t)
{
	struct mg_view_job p = { 0 };

	memset(v, 0, sizeof(*v));
	v->t = t;
	v->nodes = nodes;
	v->free = nodes - 1;
	v->s_prio = 1;
	p.submit = p.start = T0 - 30 * H;
	p.limit = 48 * H;
	p.end = -1;
	p.nodes = 1;
	p.chain = 1;
	p.user = -1;
	mg_view_add(&v->run, &v->nrun, &v->caprun, &p);
}

/*
 * Two nodes at at, none free: P on one, user 0's R on the other, an
 * 8-hour job that started 2 hours before
 */
static void
user0_running(struct mg_view *v, int64_t at)
{
	struct mg_view_job r = { 0 };

	view(v, 2, at);
	v->free = 0;
	r.submit = r.start = at - 2 * H;
	r.limit = 8 * H;
	r.end = -1;
	r.nodes = 1;
	r.user = 0;
	r.trace = -1;
	mg_view_add(&v->run, &v->nrun, &v->caprun, &r);
}

static void
chain(struct mg_planchain *ch)
{
	memset(ch, 0, sizeof(*ch));
	ch->p_start = T0 - 30 * H;
	ch->p_end = T0 + 18 * H;	/* 18:00 */
	ch->p_dur = ch->p_limit = 48 * H;
	ch->nodes = ch->p_nodes = 1;
	ch->world_end = INT64_MAX;
	ch->s_limit = ch->s_dur = 48 * H;
}

/*
 * The mean overlap with P of S submitted at now on a cluster of two
 * nodes: P holds one until 4 hours on, R, user 0's 8-hour job that has
 * run elapsed seconds, the other (the one S needs first); with the
 * planner's run-time model pc over history t.  NAN if it cannot plan.
 */
static double
overlap_after_r(const struct mg_planconf *pc, const struct mg_trace *t,
    int64_t now, int64_t elapsed)
{
	struct mg_view_job r = { 0 };
	struct mg_planchain ch;
	struct mg_plancost c;
	struct mg_plan *p;
	struct mg_view v;
	double ovl = NAN;

	chain(&ch);
	ch.p_end = now + 4 * H;
	ch.p_start = ch.p_end - ch.p_dur;
	view(&v, 2, now);
	v.free = 0;
	r.submit = r.start = now - elapsed;
	r.limit = 8 * H;
	r.end = -1;
	r.nodes = 1;
	r.user = 0;
	r.trace = -1;
	mg_view_add(&v.run, &v.nrun, &v.caprun, &r);
	if (mg_plan_new(pc, t, &p) == 0 && mg_plan_costs(p, &v, &ch, now, 1,
	    &c) == 0 && c.n > 0)
		ovl = c.ovl[0];
	mg_plan_free(p);
	mg_view_release(&v);
	return ovl;
}

/* the state the scenarios share, in the order they run */
static struct mg_planconf pc;
static struct mg_plan *p;
static struct mg_trace t;
static struct mg_view v;
static struct mg_planchain ch;
static struct mg_plancost c, c2;
static int64_t now;
static int k, all_wait = 1;

static void
optimizers_curse(void)
{
	/* the optimizer's curse: two later times each look safe on one
	 * half of the futures only; their means (0.375) undercut now's
	 * (0.5), so the plain rule waits, but each judged on the half it
	 * was not chosen on is worse than now: the cross-validated rule
	 * submits.  A later time safe on both halves makes it wait. */
	memset(&c, 0, sizeof(c));
	c.n = 3;
	c.pint[0] = c.hpint[0][0] = c.hpint[1][0] = 0.5;
	c.hpint[0][1] = 0, c.hpint[1][1] = 0.75, c.pint[1] = 0.375;
	c.hpint[0][2] = 0.75, c.hpint[1][2] = 0, c.pint[2] = 0.375;
	ok(!mg_plan_submit_now(&c, MG_PLAN_RISK, 1) &&
	    mg_plan_submit_now(&c, MG_PLAN_RISK_CV, 1), "a time that looks "
	    "safe by chance: risk waits, risk-cv submits");
	c.hpint[1][1] = 0, c.pint[1] = 0;
	ok(!mg_plan_submit_now(&c, MG_PLAN_RISK_CV, 1), "a time safe on "
	    "both halves: risk-cv waits");
}

static void
handing_over_prices_the_lease(void)
{
	/* handing over in 10 minutes, two futures: an overlap within the
	 * handover gives up no lease, so it costs nothing */
	memset(&c2, 0, sizeof(c2));
	c2.n = 2;
	c2.k = 2;
	c2.xk[0][0] = c2.xk[1][0] = -600;
	c2.xk[0][1] = c2.xk[1][1] = -300;
	c2.ovl[0] = 600.0 / H, c2.ovl[1] = 300.0 / H;
	ok(!mg_plan_submit_now(&c2, MG_PLAN_RISK, 1) &&
	    mg_plan_submit_handover(&c2, MG_PLAN_RISK, 1, 600), "10 minutes "
	    "early: overlap to a chain that runs P out, free to one that "
	    "hands over in 10");
	/* now: 3 h 10 min early in both futures (3 h of lease); a later
	 * time 1 h early but interrupted in one future; P's end: 2 h late
	 * in one, 10 minutes early in the other */
	c2.n = 3;
	c2.xk[0][0] = c2.xk[1][0] = -(3 * H + 600);
	c2.xk[0][1] = -H, c2.xk[1][1] = 3600;
	c2.xk[0][2] = 2 * H, c2.xk[1][2] = -600;
	c2.pint[0] = 0, c2.pint[1] = c2.pint[2] = 0.5;
	c2.intr[0] = 0, c2.intr[1] = 0.5, c2.intr[2] = 1;
	ok(mg_plan_submit_handover(&c2, MG_PLAN_RISK, 0.1, 600) &&
	    !mg_plan_submit_handover(&c2, MG_PLAN_RISK, 1, 600), "3 h of lease "
	    "against one future in two interrupted: given up at 0.1 an hour, "
	    "not at 1");
	ok(mg_plan_submit_handover(&c2, MG_PLAN_HOURS, 0.1, 600) &&
	    !mg_plan_submit_handover(&c2, MG_PLAN_HOURS, 0.2, 600), "priced "
	    "against the hours of interruption: 0.3 < 0.5 + 0.42 x 0.1, but "
	    "0.6 > 0.5 + 0.42 x 0.2");
}

static void
futures_weighed(void)
{
	/* futures weighed: two futures, x at now and at a later time;
	 * all the weight on the first gives its outcomes, equal weights
	 * the means */
	{
		struct mg_plancost w, o;
		double w10[2] = { 1, 0 }, w11[2] = { 2, 2 };

		memset(&w, 0, sizeof(w));
		w.n = w.k = 2;
		w.xk[0][0] = -3600, w.xk[0][1] = 7200;
		w.xk[1][0] = -7200, w.xk[1][1] = -1800;
		mg_plan_weigh(&w, w10, &o);
		ok(o.pint[0] == 0 && o.ovl[0] == 1 && o.pint[1] == 1 &&
		    o.intr[1] == 2 && o.ovl[1] == 0, "weighed on the first "
		    "future: its outcomes");
		mg_plan_weigh(&w, w11, &o);
		ok(o.ovl[0] == 1.5 && o.pint[1] == 0.5 && o.ovl[1] == 0.25 &&
		    o.hpint[0][1] == 0.5 && o.hovl[1][0] == 1.5, "equal "
		    "weights: the means, the halves the whole's");
	}
}

static void
calibration_knots(void)
{
	/* a calibration: observed frequencies, made nondecreasing by
	 * pooling (0.3 then 0.2 become 0.25 twice), as knots the option
	 * reads back */
	{
		struct mg_plancal cal;
		struct mg_planconf pk;
		struct mg_diag d = { "" };
		char buf[256];
		static const double y0[5] = { 0, 3, 2, 8, 10 };
		int i;

		memset(&cal, 0, sizeof(cal));
		cal.k = 4;
		for (i = 0; i < 5; i++) {
			cal.n[0][i] = 10;
			cal.y[0][i] = y0[i];
		}
		cal.n[1][0] = 4, cal.y[1][0] = 1;
		cal.n[1][4] = 2, cal.y[1][4] = 2;
		ok(mg_plancal_knots(&cal, buf, sizeof(buf)) > 0 &&
		    strcmp(buf, "0:0.0000,0.25:0.2500,0.5:0.2500,0.75:0.8000,"
		    "1:1.0000/0:0.2500,1:1.0000") == 0, "calibration knots "
		    "(%s)", buf);
		ok(mg_plancal_knots(&cal, buf, 20) < 0, "too short a buffer: "
		    "refused");
		mg_planconf_default(&pk);
		mg_plancal_knots(&cal, buf, sizeof(buf));
		ok(mg_plan_option(&pk, NULL, "plan-calibration", buf, &d) == 0 &&
		    pk.ncal[0] == 5 && pk.ncal[1] == 2 && pk.calq[0][3] == 0.8,
		    "read back by the option");
		ok(mg_plan_option(&pk, NULL, "plan-calibration",
		    "0:0.1,0:0.2/0:0,1:1", &d) == MG_EINVAL && pk.ncal[0] == 0 &&
		    mg_plan_option(&pk, NULL, "plan-calibration", "0:0,1:1", &d)
		    == MG_EINVAL && mg_plan_option(&pk, NULL,
		    "plan-calibration", "0:0,1:1.5/0:0", &d) == MG_EINVAL,
		    "knots out of order or range, or without '/': refused (%s)",
		    d.msg);
	}
}

static void
no_competition_waits(void)
{
	/* one node, P on it, no competition: S cannot start before P ends
	 * and no one gets ahead of it, so waiting costs nothing: the
	 * planner waits, and its costs say why */
	history(&t, 0, T0);
	ok(mg_plan_new(&pc, &t, &p) == 0, "a planner over 60 days of history");
	for (now = T0 + 4 * H; now < ch.p_end - 600; now += 1800) {
		view(&v, 1, now);
		if (mg_plan_costs(p, &v, &ch, now, 1, &c) != 0 || c.n < 2)
			all_wait = 0;
		for (k = 0; k < c.n; k++)
			if (c.intr[k] != 0 || c.ovl[k] != 0)
				all_wait = 0;
		mg_view_release(&v);
	}
	ok(all_wait, "alone on a node: no interruption, no overlap at any "
	    "candidate time");
	view(&v, 1, T0 + 2 * H);
	mg_plan_costs(p, &v, &ch, T0 + 2 * H, 1, &c);
	ok(c.at[0] == T0 + 2 * H && c.at[c.n - 1] == ch.p_end,
	    "candidates from now to P's end's tick (%d of them)", c.n);
	mg_view_release(&v);
	view(&v, 1, T0 - 12 * H);
	ok(mg_plan_costs(p, &v, &ch, T0 - 12 * H, 1, &c) == 0 && c.n == 0 &&
	    !mg_plan_submit_now(&c, MG_PLAN_RISK, 1), "30 h before P's end (window 24 h): "
	    "no plan, wait");
	mg_view_release(&v);
	{
		/* handing over, the planner plans over the whole of P, but
		 * never for a P still pending */
		struct mg_planconf ph = pc;
		struct mg_planchain pend = ch;
		struct mg_plan *p2;

		ph.window = 48 * H;
		ph.handover = 600;
		pend.p_start = -1;
		view(&v, 1, T0 - 12 * H);
		ok(mg_plan_new(&ph, &t, &p2) == 0 && mg_plan_costs(p2, &v, &ch,
		    T0 - 12 * H, 1, &c) == 0 && c.n > 0 && mg_plan_costs(p2,
		    &v, &pend, T0 - 12 * H, 1, &c2) == 0 && c2.n == 0,
		    "handing over: a plan 30 h before P's end (window 48 h), "
		    "none while P is pending");
		mg_view_release(&v);
		mg_plan_free(p2);
		ph.nstop = MG_PLAN_MAXSTOP + 1;
		ok(mg_plan_new(&ph, &t, &p2) == MG_EINVAL, "too many prices to "
		    "stop at: refused");
	}
}

static void
plans_reused(void)
{
	/* a plan read again at its own candidate times, shifted, while it
	 * is younger than every; never at its last (P's end) */
	struct mg_planconf pr = pc;
	struct mg_plancost r, r2;
	struct mg_plan *p2;
	int64_t t0 = T0 + 2 * H;
	int j, same = 1;

	pr.every = 1800;
	history(&t, 0, T0);
	view(&v, 1, t0);
	ok(mg_plan_new(&pr, &t, &p2) == 0 && mg_plan_costs(p2, &v, &ch, t0,
	    1, &c) == 0 && c.n > 4 && c.planned == t0, "a plan made at its "
	    "first candidate time");
	ok(mg_plan_reuse(p2, &c, t0 + 600, &r) == 1 && r.n == c.n - 1 &&
	    r.at[0] == t0 + 600 && r.planned == t0 && r.k == c.k,
	    "reused 10 minutes on: its candidates from then");
	for (j = 0; j < r.n; j++)
		if (r.pint[j] != c.pint[j + 1] || r.ovl[j] != c.ovl[j + 1] ||
		    r.xk[c.k - 1][j] != c.xk[c.k - 1][j + 1] ||
		    r.hpint[1][j] != c.hpint[1][j + 1])
			same = 0;
	ok(same, "the same futures' outcomes, shifted");
	ok(mg_plan_reuse(p2, &r, t0 + 1200, &r2) == 1 && r2.at[0] == t0 +
	    1200 && r2.pint[0] == c.pint[2], "and reused again from the "
	    "reused one");
	ok(mg_plan_reuse(p2, &r2, t0 + 1800, &r) == 0, "not once every "
	    "has passed since its futures were drawn");
	ok(mg_plan_reuse(p2, &c, t0 + 900, &r) == 0, "not between its "
	    "candidate times");
	ok(mg_plan_reuse(p2, &c, c.at[c.n - 1], &r) == 0, "not at its last "
	    "candidate (P's end)");
	mg_plan_free(p2);
	pr.fresh = c.at[c.n - 1] - (t0 + 600);
	ok(mg_plan_new(&pr, &t, &p2) == 0 && mg_plan_reuse(p2, &c, t0 + 600,
	    &r) == 0 && mg_plan_reuse(p2, &c, t0 + 1200, &r) == 0,
	    "not where P ends within fresh of the decision");
	mg_plan_free(p2);
	pr.fresh = c.at[c.n - 1] - (t0 + 600) - 1;
	ok(mg_plan_new(&pr, &t, &p2) == 0 && mg_plan_reuse(p2, &c, t0 + 600,
	    &r) == 1, "but a second before");
	pr.every = 0;
	pr.fresh = 0;
	mg_plan_free(p2);
	ok(mg_plan_new(&pr, &t, &p2) == 0 && mg_plan_reuse(p2, &c, t0 + 600,
	    &r) == 0, "every 0: never");
	mg_plan_free(p2);
	mg_view_release(&v);
}

static void
free_node_waits_to_p_end(void)
{
	/* two nodes: the second is free, so S submitted early overlaps P;
	 * nobody competes, so the planner waits to P's end */
	all_wait = 1;
	for (now = T0 + 4 * H; now < ch.p_end - 600; now += 1800) {
		view(&v, 2, now);
		if (mg_plan_costs(p, &v, &ch, now, 1, &c) != 0 ||
		    mg_plan_submit_now(&c, MG_PLAN_RISK, 0.05))
			all_wait = 0;
		if (c.ovl[0] < (double)(ch.p_end - now) / H - 1e-9)
			all_wait = 0;
		mg_view_release(&v);
	}
	ok(all_wait, "a free node and no competition: overlap now, none "
	    "later: wait");
	mg_plan_free(p);
}

static void
submits_before_a_burst(void)
{
	/* one node and a 24-hour job that arrives every day at 21:00: P
	 * ends at 18:00, so a burst job submitted ahead of S does not delay
	 * it; with P ending at 22:00 it does, by 24 hours, for S submitted
	 * after 21:00: the planner submits before the burst */
	ch.p_end = T0 + 22 * H;
	history(&t, 1, T0);
	pc.cost = MG_PLAN_HOURS;	/* runs go on after P's end */
	ok(mg_plan_new(&pc, &t, &p) == 0, "a planner over a bursty history");
	now = T0 + 19 * H;
	view(&v, 1, now);
	ok(mg_plan_costs(p, &v, &ch, now, 1, &c) == 0 && c.n > 2,
	    "a plan at 19:00");
	for (k = 0; k < c.n && c.at[k] <= T0 + 21 * H; k++)
		;
	ok(k < c.n && c.intr[k] > 23 && c.pint[k] == 1 && c.intr[0] == 0,
	    "S submitted after 21:00 waits behind the burst: %.1f h (now "
	    "%.1f h)", k < c.n ? c.intr[k] : NAN, c.intr[0]);
	ok(mg_plan_submit_now(&c, MG_PLAN_RISK, 1) && mg_plan_submit_now(&c, MG_PLAN_HOURS, 15),
	    "so it submits before the burst, whatever the price of overlap");
	ok(mg_plan_risk_next(&c) == 0, "waiting 10 more minutes is still "
	    "safe at 19:00");
	{
		int halves = 1;

		for (k = 0; k < c.n; k++)
			halves &= fabs((c.hpint[0][k] + c.hpint[1][k]) / 2 -
			    c.pint[k]) < 1e-12 && fabs((c.hovl[0][k] +
			    c.hovl[1][k]) / 2 - c.ovl[k]) < 1e-12;
		ok(halves && mg_plan_submit_now(&c, MG_PLAN_RISK_CV, 1),
		    "the halves' means are the whole's; risk-cv submits "
		    "before the burst too");
	}
	{
		/* calibrated: every chance through the knots (here a map
		 * to 0.5 for now and 0.2-0.6 later), the overlaps as they
		 * were */
		struct mg_planconf pk = pc;
		struct mg_plan *pp;
		struct mg_diag d = { "" };
		int mapped = 1;

		ok(mg_plan_option(&pk, NULL, "plan-calibration",
		    "0:0.5,1:0.5/0:0.2,1:0.6", &d) == 0 &&
		    mg_plan_new(&pk, &t, &pp) == 0, "a calibrated planner");
		mg_plan_costs(pp, &v, &ch, now, 1, &c2);
		for (k = 0; k < c.n; k++)
			mapped &= c2.ovl[k] == c.ovl[k] && fabs(c2.pint[k] -
			    (k == 0 ? 0.5 : 0.2 + 0.4 * c.pint[k])) < 1e-12;
		ok(mapped && c2.n == c.n, "its chances through the knots, its "
		    "overlaps the same");
		mg_plan_free(pp);
	}
	{
		/* the same draws at every decision: the decision time no
		 * longer seeds them, so they are those of a planner seeded
		 * with it folded in */
		struct mg_planconf pe = pc, pt = pc;
		struct mg_plan *a, *b;
		struct mg_plancost ca, cb;

		pe.episode_draws = 1;
		pe.seed = pc.seed ^ (uint64_t)now * 0x8CB92BA72F3D8DD7ULL;
		ok(mg_plan_new(&pe, &t, &a) == 0 && mg_plan_new(&pt, &t, &b) ==
		    0 && mg_plan_costs(a, &v, &ch, now, 1, &ca) == 0 &&
		    mg_plan_costs(b, &v, &ch, now, 1, &cb) == 0 &&
		    memcmp(&ca, &cb, sizeof(ca)) == 0, "episode draws: the "
		    "decision time does not seed them");
		mg_plan_free(a);
		mg_plan_free(b);
	}
	mg_view_release(&v);
	{
		/* the risk alone: runs stop at P's end, the same chances */
		struct mg_plan *pr;
		int same = 1;

		pc.cost = MG_PLAN_RISK;
		ok(mg_plan_new(&pc, &t, &pr) == 0, "a planner of risks");
		view(&v, 1, now);
		mg_plan_costs(pr, &v, &ch, now, 1, &c2);
		for (k = 0; k < c.n; k++)
			same &= c.pint[k] == c2.pint[k] && c.ovl[k] ==
			    c2.ovl[k];
		ok(same && c2.n == c.n && mg_plan_submit_now(&c2, MG_PLAN_RISK,
		    1), "the same chances and overlaps; it submits");
		mg_view_release(&v);
		mg_plan_free(pr);
		pc.cost = MG_PLAN_HOURS;
	}

	{
		/* the burst is daily: arrivals drawn in 4-hour blocks of
		 * any of the last 28 days hold it too; and the reference
		 * model (older jobs first) sees the same */
		struct mg_plan *pb;
		const char *what[] = { "arrivals in blocks", "the reference "
		    "model" };
		int i;

		for (k = 0; k < c.n && c.at[k] <= T0 + 21 * H; k++)
			;
		for (i = 0; i < 2; i++) {
			if (i == 0)
				pc.arrivals = MG_PLAN_ARR_BLOCKS;
			else {
				/* a limit P keeps to: the original's
				 * backfill trusts limits */
				pc.model = MG_PLAN_REFERENCE;
				ch.p_limit = ch.p_end - ch.p_start;
			}
			ok(mg_plan_new(&pc, &t, &pb) == 0 &&
			    (view(&v, 1, now), mg_plan_costs(pb, &v, &ch, now,
			    1, &c2)) == 0 && c2.n == c.n && c2.intr[k] > 23 &&
			    c2.pint[k] == 1 && c2.intr[0] == 0 &&
			    mg_plan_submit_now(&c2, MG_PLAN_HOURS, 15),
			    "%s: S after 21:00 waits behind the burst (%.1f "
			    "h), so it submits before", what[i], c2.intr[k]);
			mg_view_release(&v);
			mg_plan_free(pb);
		}
		pc.arrivals = MG_PLAN_ARR_WEEK;
		pc.model = MG_PLAN_FAITHFUL;
		ch.p_limit = 48 * H;
	}
}

static void
same_seed_same_draws(void)
{
	/* the same seed, the same draws; another stream may differ */
	view(&v, 1, now);
	mg_plan_costs(p, &v, &ch, now, 1, &c2);
	ok(memcmp(&c, &c2, sizeof(c)) == 0, "deterministic for a seed");
	mg_view_release(&v);
}

static void
nothing_after_decision_time(void)
{
	/* nothing after the decision time: the history cut at now gives the
	 * same plan, and so does one with other jobs after now */
	{
		struct mg_trace cut;
		struct mg_plan *pcut;
		static struct mg_trace_job keep[512];
		size_t n = 0, i;
		int same;

		history(&t, 1, T0 + 3 * DAY);	/* jobs up to 3 days on */
		mg_plan_free(p);
		ok(mg_plan_new(&pc, &t, &p) == 0, "a planner over a history "
		    "that goes on after now");
		view(&v, 1, now);
		mg_plan_costs(p, &v, &ch, now, 1, &c);
		for (i = 0; i < t.n; i++)
			if (t.job[i].submit < now)
				keep[n++] = t.job[i];
		memset(&cut, 0, sizeof(cut));
		cut.job = keep;
		cut.n = n;
		ok(mg_plan_new(&pc, &cut, &pcut) == 0 && n < t.n,
		    "the history cut at now (%zu of %zu jobs)", n, t.n);
		mg_plan_costs(pcut, &v, &ch, now, 1, &c2);
		same = memcmp(&c, &c2, sizeof(c)) == 0;
		ok(same, "the same plan without the jobs submitted after now");
		mg_plan_free(pcut);
		/* the same with arrivals scaled to the recent rate and the
		 * same draws at every decision */
		{
			struct mg_planconf pr = pc;
			struct mg_plan *a, *b;

			pr.rate = 24 * 3600;
			pr.episode_draws = 1;
			ok(mg_plan_new(&pr, &t, &a) == 0 && mg_plan_new(&pr,
			    &cut, &b) == 0, "planners with the recent rate");
			mg_plan_costs(a, &v, &ch, now, 1, &c);
			mg_plan_costs(b, &v, &ch, now, 1, &c2);
			ok(c.n > 1 && memcmp(&c, &c2, sizeof(c)) == 0, "the same "
			    "plan at the recent rate without the jobs after now");
			mg_plan_free(a);
			mg_plan_free(b);
			/* arrivals in blocks from the last 28 days: a block
			 * more than a day ahead, drawn from yesterday, would
			 * reach past now */
			pr = pc;
			pr.arrivals = MG_PLAN_ARR_BLOCKS;
			pr.margin = 2 * DAY;
			for (i = 0, same = 1; i < 8; i++) {
				if (mg_plan_new(&pr, &t, &a) != 0 ||
				    mg_plan_new(&pr, &cut, &b) != 0)
					same = 0;
				mg_plan_costs(a, &v, &ch, now, i, &c);
				mg_plan_costs(b, &v, &ch, now, i, &c2);
				same &= c.n > 1 && memcmp(&c, &c2,
				    sizeof(c)) == 0;
				mg_plan_free(a);
				mg_plan_free(b);
			}
			ok(same, "the same plan with arrivals in blocks, 2 days "
			    "ahead, without the jobs after now");
		}
		mg_view_release(&v);
	}
	mg_plan_free(p);
}

static void
runtimes_by_user(void)
{
	/* run times by user: user 0's 8-hour jobs run an hour, user
	 * 1's the whole 8 hours.  R, user 0's, has run 30 minutes
	 * on the node S needs; P holds the other until 4 hours on.
	 * By user, R ends in 30 minutes in every future (S overlaps
	 * P by 3.5 hours); by class, in about half of them */
	int64_t d;
	int i;

	memset(&t, 0, sizeof(t));
	t.job = jobs;
	for (d = T0 - 40 * DAY; d < T0; d += 4 * DAY)
		for (i = 0; i < 20; i++) {
			job(&t, d + i * 600, d + i * 600,
			    i % 2 ? 8 * H : H, 8 * H, 1);
			jobs[t.n - 1].user = i % 2;
		}
	qsort(t.job, t.n, sizeof(*t.job), by_submit);
	pc.k = 32;
	for (i = 0; i < 2; i++) {
		double o;

		pc.runtimes = i ? MG_PLAN_RT_USER : MG_PLAN_RT_CLASS;
		o = overlap_after_r(&pc, &t, T0 + 10 * H, H / 2);
		ok(i ? o > 3.49 : o < 3, "run times by %s: S submitted "
		    "now overlaps P by %.2f h on average", i ?
		    "user (3.5)" : "class (less)", o);
	}
	pc.runtimes = MG_PLAN_RT_CLASS;
	pc.k = 8;
}

static void
recent_runtimes(void)
{
	/* recent run times: user 0's 8-hour jobs ran all 8 hours
	 * until ten days ago, an hour since.  R, user 0's, has run
	 * 30 minutes on the node S needs.  By the user's last ten, R
	 * ends in 30 minutes in every future (S overlaps P by 3.5
	 * hours); by the user's 30 days, in about a third.  R having
	 * run 2 hours, longer than any of the last ten, the recent
	 * model falls back to the user's 30 days. */
	int64_t d;
	int i;

	memset(&t, 0, sizeof(t));
	t.job = jobs;
	for (d = T0 - 29 * DAY; d < T0; d += DAY) {
		job(&t, d, d, d >= T0 - 10 * DAY ? H : 8 * H, 8 * H, 1);
		jobs[t.n - 1].user = 0;
	}
	pc.k = 32;
	for (i = 0; i < 3; i++) {
		double o;

		pc.runtimes = i ? MG_PLAN_RT_RECENT : MG_PLAN_RT_USER;
		o = overlap_after_r(&pc, &t, T0 + 10 * H, i == 2 ? 2 * H :
		    H / 2);
		ok(i == 1 ? o > 3.49 : o < 3, "run times %s: S "
		    "submitted now overlaps P by %.2f h on average",
		    i == 0 ? "by user (less than 3.5)" : i == 1 ?
		    "recent (3.5)" : "recent, R past them all (less)", o);
	}
	pc.runtimes = MG_PLAN_RT_CLASS;
	pc.k = 8;
}

static void
option_errors(void)
{
	struct mg_planconf q;
	struct mg_diag dg;

	mg_planconf_default(&q);
	ok(mg_plan_option(&q, NULL, "plan-runtimes", "recent:3",
	    &dg) == 0 && q.runtimes == MG_PLAN_RT_RECENT &&
	    q.recent == 3, "--plan-runtimes recent:3");
	ok(mg_plan_option(&q, NULL, "plan-runtimes", "recent:0",
	    &dg) == MG_EINVAL && strstr(dg.msg, "recent:N") != NULL,
	    "recent:0 is refused: %s", dg.msg);
}

static void
capacity_history(void)
{
	/* nodes drained every day from 16:00 to 22:00 (the
	 * cluster's capacity history): a 2-node S submitted after
	 * 16:00 waits until 22:00, so the planner submits before;
	 * without the history, or told the capacity stays, it
	 * waits until P's end.  The records after now change
	 * nothing. */
	static int64_t ct[64];
	static int32_t cn[64];
	struct mg_planconf q;
	struct mg_plancost c3;
	size_t n = 0;
	int64_t d, at = T0 + 10 * H;
	int i, ok1 = 1, same;

	for (d = T0 - 30 * DAY; d <= T0; d += DAY) {
		ct[n] = d + 16 * H, cn[n++] = 1;
		ct[n] = d + 22 * H, cn[n++] = 3;
	}
	history(&t, 0, T0);
	mg_planconf_default(&q);
	chain(&ch);
	ch.nodes = 2;
	for (i = 0; i < 3; i++) {
		q.cap_time = ct;
		q.cap_nodes = cn;
		q.cap_n = i == 0 ? 0 : n - 2;	/* up to yesterday */
		q.cap_model = i == 2 ? MG_PLAN_CAP_DELTA :
		    MG_PLAN_CAP_DAY;
		view(&v, 3, at);
		if (mg_plan_new(&q, &t, &p) != 0 || mg_plan_costs(p,
		    &v, &ch, at, 1, &c) != 0 || c.n < 3)
			ok1 = 0;
		if (c.n < 3)
			;
		else if (i == 0)
			ok1 &= c.pint[c.n - 1] == 0 && c.ovl[c.n - 1] ==
			    0 && !mg_plan_submit_now(&c, MG_PLAN_RISK, 1);
		else	/* at 14:00 in time, from 16:00 too late */
			for (k = 0; k < c.n; k++)
				ok1 &= c.pint[k] == (c.at[k] >= T0 +
				    16 * H) && (c.at[k] != T0 + 14 * H ||
				    c.ovl[k] == 4);
		if (i == 1) {
			/* today's records, after now */
			q.cap_n = n;
			cn[n - 2] = 3;
			mg_plan_free(p);
			mg_plan_new(&q, &t, &p);
			mg_plan_costs(p, &v, &ch, at, 1, &c3);
			same = memcmp(&c, &c3, sizeof(c)) == 0;
			ok(same, "capacity records after now: the "
			    "same plan");
			cn[n - 2] = 1;
		}
		mg_plan_free(p);
		mg_view_release(&v);
	}
	ok(ok1, "nodes drained daily from 16:00: S submitted after "
	    "waits until 22:00, before it starts; without the "
	    "history no time interrupts");
	/* at 15:50, the last tick before the drain, it submits,
	 * with the history only */
	at = T0 + 15 * H + 50 * 60;
	for (i = 0, ok1 = 1; i < 2; i++) {
		q.cap_n = i ? n - 2 : 0;
		view(&v, 3, at);
		ok1 &= mg_plan_new(&q, &t, &p) == 0 && mg_plan_costs(p,
		    &v, &ch, at, 1, &c) == 0 && mg_plan_submit_now(&c,
		    MG_PLAN_RISK, 0.1) == i;
		mg_plan_free(p);
		mg_view_release(&v);
	}
	ok(ok1, "at 15:50, overlap at 0.1 an hour, it submits with the "
	    "capacity history, and waits without");
}

static void
limits_per_user(void)
{
	/* limits per user: user 0 runs R, and Q waits ahead of S
	 * for the one free node; at one running job a user, Q is
	 * held and S starts now, overlapping P; without the limit
	 * Q takes the node and S starts at P's end */
	struct mg_view_job r = { 0 };
	struct mg_planconf q;
	struct mg_diag dg;
	double ovl[2];
	int i;

	history(&t, 0, T0);
	t.nusers = 1;
	chain(&ch);
	for (i = 0; i < 2; i++) {
		mg_planconf_default(&q);
		ok(mg_plan_option(&q, NULL, "plan-limits", i ? "1" :
		    "none", &dg) == 0, "--plan-limits %s", i ? "1" :
		    "none");
		view(&v, 3, T0 + 14 * H);
		r.submit = r.start = T0;
		r.limit = 48 * H;
		r.end = -1;
		r.nodes = 1;
		r.user = 0;
		r.trace = -1;
		mg_view_add(&v.run, &v.nrun, &v.caprun, &r);
		r.start = -1;
		r.submit = T0 + 13 * H;
		r.prio = 1000;
		mg_view_add(&v.pend, &v.npend, &v.cappend, &r);
		ovl[i] = NAN;
		if (mg_plan_new(&q, &t, &p) == 0 && mg_plan_costs(p, &v,
		    &ch, T0 + 14 * H, 1, &c) == 0 && c.n > 0)
			ovl[i] = c.ovl[0];
		mg_plan_free(p);
		mg_view_release(&v);
	}
	ok(ovl[0] == 0 && ovl[1] == 4, "S submitted at 14:00 overlaps "
	    "P by %.1f h without the limit (0), %.1f h with it (4)",
	    ovl[0], ovl[1]);
	ok(mg_plan_option(&q, NULL, "plan-limits", "8:x", &dg) ==
	    MG_EINVAL && mg_plan_option(&q, NULL, "plan-limits", "-1",
	    &dg) == MG_EINVAL, "bad limits refused: %s", dg.msg);
}

static void
resubmissions(void)
{
	/*
	 * Resubmissions: user 0 runs 4-hour jobs of an 8-hour limit
	 * back to back, each submitted as the one before ends.  Two
	 * nodes: P on one until 18:00, user 0's R on the other from
	 * 10:00 (it ends at 14:00).  At 12:00, S submitted at 15:00
	 * starts at once on R's node (3 h of overlap) unless the
	 * planner knows that user 0 resubmits: then R's follower
	 * holds it, and S starts at P's end.  With a job of user 0
	 * already pending (submitted since R started, 24-hour limit)
	 * that is R's follower: none is added, so S still starts at
	 * P's end (with a follower added too it would wait behind
	 * it, 4 h after P's end).
	 */
	struct mg_view_job r = { 0 };
	struct mg_planconf q;
	struct mg_diag dg;
	int64_t d, at = T0 + 12 * H;
	double ovl[3], pint[3];
	int i, j, idx;

	memset(&t, 0, sizeof(t));
	t.job = jobs;
	for (d = T0 - 60 * DAY; d < T0; d += 4 * H) {
		job(&t, d, d, 4 * H, 8 * H, 1);
		jobs[t.n - 1].user = 0;
	}
	t.nusers = 1;
	chain(&ch);
	for (i = 0; i < 3; i++) {
		mg_planconf_default(&q);
		ok(mg_plan_option(&q, NULL, "plan-followers", i ? "10" :
		    "none", &dg) == 0, "--plan-followers %s",
		    i ? "10" : "none");
		user0_running(&v, at);
		if (i == 2) {
			r.start = -1;
			r.submit = at - H;
			r.end = -1;
			r.nodes = 1;
			r.user = 0;
			r.trace = -1;
			r.limit = 24 * H;
			r.prio = 1000;
			mg_view_add(&v.pend, &v.npend, &v.cappend, &r);
		}
		ovl[i] = pint[i] = NAN;
		if (mg_plan_new(&q, &t, &p) == 0 && mg_plan_costs(p, &v,
		    &ch, at, 1, &c) == 0)
			for (j = 0, idx = -1; j < c.n; j++)
				if (c.at[j] == at + 3 * H) {
					idx = j;
					ovl[i] = c.ovl[idx];
					pint[i] = c.pint[idx];
				}
		mg_plan_free(p);
		mg_view_release(&v);
	}
	ok(ovl[0] == 3 && pint[0] == 0, "without followers S submitted "
	    "at 15:00 takes R's node: %.1f h of overlap (3)", ovl[0]);
	ok(ovl[1] == 0 && pint[1] == 0, "with them R's follower takes "
	    "it: %.1f h (0), no interruption", ovl[1]);
	ok(ovl[2] == 0 && pint[2] == 0, "a job of R's user already "
	    "pending is its follower: %.1f h, chance of an "
	    "interruption %.2f (0, 0)", ovl[2], pint[2]);
	/*
	 * The arrivals drawn from a past day leave out the
	 * followers of the jobs that ran at that day's now: user 0
	 * now runs one 08:00-12:00 job a day, followed by a
	 * 12:00-16:00 one.  At 11:00 R (from 09:00) runs on one
	 * node, P on the other until 18:00; R's follower, if drawn
	 * (from half of the past jobs), holds it until 17:00.  A
	 * 2-node S submitted at 17:00 starts at P's end, unless
	 * the past day's 12:00 job came too: it would hold the node
	 * first, and R's follower after it.
	 */
	memset(&t, 0, sizeof(t));
	t.job = jobs;
	for (d = T0 - 60 * DAY; d < T0; d += DAY) {
		job(&t, d + 8 * H, d + 8 * H, 4 * H, 8 * H, 1);
		jobs[t.n - 1].user = 0;
		job(&t, d + 12 * H, d + 12 * H, 4 * H, 8 * H, 1);
		jobs[t.n - 1].user = 0;
	}
	t.nusers = 1;
	chain(&ch);
	ch.nodes = 2;
	at = T0 + 11 * H;
	user0_running(&v, at);
	pint[0] = NAN;
	if (mg_plan_new(&q, &t, &p) == 0 && mg_plan_costs(p, &v, &ch,
	    at, 1, &c) == 0)
		for (j = 0; j < c.n; j++)
			if (c.at[j] == at + 6 * H)
				pint[0] = c.pint[j];
	mg_plan_free(p);
	mg_view_release(&v);
	ok(pint[0] == 0, "a past day's follower of a job running at "
	    "its now is left out: S submitted at 17:00 is interrupted "
	    "with a chance of %.2f (0)", pint[0]);
	ok(mg_plan_option(&q, NULL, "plan-followers", "0", &dg) ==
	    MG_EINVAL && mg_plan_option(&q, NULL, "plan-followers",
	    "1441", &dg) == MG_EINVAL, "bad followers refused: %s",
	    dg.msg);
}

static void
no_futures_refused(void)
{
	pc.k = 0;
	ok(mg_plan_new(&pc, &t, &p) == MG_EINVAL, "no futures: refused");
}

int
main(void)
{
	mg_planconf_default(&pc);
	chain(&ch);

	optimizers_curse();
	handing_over_prices_the_lease();
	futures_weighed();
	calibration_knots();
	no_competition_waits();
	plans_reused();
	free_node_waits_to_p_end();
	submits_before_a_burst();
	same_seed_same_draws();
	nothing_after_decision_time();
	runtimes_by_user();
	recent_runtimes();
	option_errors();
	capacity_history();
	limits_per_user();
	resubmissions();
	no_futures_refused();
	return tap_done();
}
