/*
 * t_protocol.c: the evaluation's decisions on hand-made outcomes: the
 * first tick over a threshold, the oracle, and the bound of what any
 * method can reach within an overlap budget.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "episode/protocol.h"
#include "tap.h"

#define H 3600

/* an episode whose P ends at 10 h, with decision ticks at 6..10 h */
static void
episode(struct mg_outcome *o, int64_t *t, int64_t *x, unsigned char *tick,
    const int64_t *xs)
{
	size_t k;

	memset(o, 0, sizeof(*o));
	o->p_end = 10 * H;
	o->n = 5;
	for (k = 0; k < o->n; k++) {
		t[k] = (int64_t)(6 + k) * H;
		x[k] = xs[k];
		tick[k] = 1;
	}
	o->t = t;
	o->x = x;
	o->tick = tick;
}

/* a service whose links last 48 h unless the next starts early */
static void
service(void)
{
	struct mg_renewal sv;
	/* 2 h early, 4 h late, on time, 1 h early */
	static const int64_t x[4] = { -2 * H, 4 * H, 0, -H };
	double cycle = (46 + 52 + 48 + 47) / 4.0;

	mg_renewal(x, 4, 8, 48 * H, 600, &sv);
	ok(fabs(sv.down_h - 720 * (4 / 4.0) / cycle) < 1e-9, "down: 4 h a "
	    "cycle of 4 links, per 30 days (%g h)", sv.down_h);
	ok(fabs(sv.waste_nh - 720 * 8 * (3 / 4.0) / cycle) < 1e-9, "run to "
	    "its end, P holds its 8 nodes beside S for the whole overlap");
	ok(fabs(sv.handover_waste_nh - 720 * 8 * (2 * 600.0 / H / 4) /
	    cycle) < 1e-9, "handing over in 10 minutes: 10 minutes a link "
	    "that starts early (%g nh)", sv.handover_waste_nh);
	ok(fabs(sv.jobs_per_kh - 1000 / ((cycle * 4 - 4) / 4)) < 1e-9,
	    "jobs per 1,000 hours of service: the hours down are not "
	    "service (%g)", sv.jobs_per_kh);
	mg_renewal(x, 0, 8, 48 * H, 600, &sv);
	ok(sv.down_h == 0 && sv.jobs_per_kh == 0, "no link, no figure");
}

int
main(void)
{
	struct mg_outcome o;
	struct mg_summary s;
	int64_t t[5], x[5], ovl[4], intr[4];
	unsigned char tick[5];
	double score[5] = { 0, 0, 1, 0, 0 };
	/* submitted at 6..9 h: overlaps 3, 2, 1.5 h, an interruption of
	 * 1 h at 9 h; the fallback at 10 h: 2 h of interruption */
	static const int64_t a[5] = { -3 * H, -2 * H, -3 * H / 2, 1 * H,
	    2 * H };
	static const int64_t b[5] = { -H / 2, 0, H, H, H };
	static const int64_t c[5] = { 5 * H, 4 * H, 3 * H, 2 * H, H };

	episode(&o, t, x, tick, a);
	ok(mg_protocol_choose_first(&o, score, 0.5) == 2, "first tick over the "
	    "threshold");
	ok(mg_protocol_choose_first(&o, score, 2) == 4, "no tick over it: the "
	    "fallback at P's end");
	ok(mg_choose_oracle(&o) == 3, "the oracle: the smallest |x| (1 h "
	    "interruption)");
	mg_oracle_bound(&o, &ovl[0], &intr[0]);
	ok(ovl[0] == 3 * H / 2 && intr[0] == H, "bound: 1.5 h overlap or "
	    "1 h interruption (%lld, %lld)", (long long)ovl[0],
	    (long long)intr[0]);
	episode(&o, t, x, tick, b);
	mg_oracle_bound(&o, &ovl[1], &intr[1]);
	ok(ovl[1] == 0 && intr[1] == 0, "bound: a seamless time costs "
	    "nothing");
	episode(&o, t, x, tick, c);
	mg_oracle_bound(&o, &ovl[2], &intr[2]);
	ok(ovl[2] == -1 && intr[2] == H, "bound: never without "
	    "interruption");
	ovl[3] = H / 2;
	intr[3] = 3 * H;

	/* four chains: overlaps 1.5 h, 0, none, 0.5 h */
	ok(mg_protocol_frontier(ovl, intr, 4, 0, &s) == 0, "the frontier");
	ok(s.no_interruption ==
	    0.25 && s.ovl_mean_h == 0 && s.int_mean_h == (1 + 1 + 3) / 4.0,
	    "no budget: only the seamless chain (%g, %g h)",
	    s.no_interruption, s.int_mean_h);
	mg_protocol_frontier(ovl, intr, 4, 0.125 * H, &s);
	ok(s.no_interruption == 0.5 && s.ovl_mean_h == 0.125 &&
	    s.int_mean_h == 2 / 4.0, "an eighth of an hour each: the 0.5 h "
	    "overlap too (%g)", s.no_interruption);
	mg_protocol_frontier(ovl, intr, 4, 0.49 * H, &s);
	ok(s.no_interruption == 0.5, "just under 0.5 h each: not the 1.5 h "
	    "one");
	mg_protocol_frontier(ovl, intr, 4, 8 * H, &s);
	ok(s.no_interruption == 0.75 && s.ovl_mean_h == 0.5 &&
	    s.int_mean_h == 0.25, "any budget: all but the chain that is "
	    "always interrupted");

	/* the perfect predictors, on episode a: ticks before P's end at
	 * 6, 7, 8 and 9 h */
	episode(&o, t, x, tick, a);
	mg_perfect_score(&o, 0, score);
	ok(score[0] == -3 && score[1] == -2 && score[2] == -1.5 &&
	    score[3] == 1, "perfect predictor: the true outcome, in hours");
	ok(mg_protocol_choose_first(&o, score, 0) == 3,
	    "fed the truth, the rule "
	    "waits for x >= 0 and is interrupted");
	mg_perfect_score(&o, 1, score);
	ok(score[0] == -2 && score[1] == -1.5 && score[2] == 1 &&
	    score[3] == 2, "one tick ahead: the worse of now and the next "
	    "tick, the fallback's included");
	ok(mg_protocol_choose_first(&o, score, 0) == 2,
	    "looking ahead, it submits "
	    "before the interruption (1.5 h overlap)");
	/* a time that is not a decision tick (the average-wait baseline's)
	 * is not looked at */
	tick[1] = 0;
	mg_perfect_score(&o, 1, score);
	ok(score[0] == -1.5 && score[1] == 1 && score[2] == 2,
	    "the next tick, not the next time (%g %g %g)", score[0],
	    score[1], score[2]);

	/* under a handover, nothing before P's start (here 8 h) */
	tick[1] = 1;
	episode(&o, t, x, tick, a);
	o.t_first = 8 * H;
	score[0] = score[1] = 1;
	score[2] = score[3] = 0;
	ok(mg_protocol_choose_first(&o, score, 0.5) == 4,
	    "decisions begin at P's "
	    "start: the early yes is not taken, the fallback is");
	score[3] = 1;
	ok(mg_protocol_choose_first(&o, score, 0.5) == 3,
	    "the first yes at or after "
	    "P's start");
	ok(mg_choose_oracle(&o) == 3, "the oracle, too, only from P's start");
	mg_oracle_bound(&o, &ovl[0], &intr[0]);
	ok(ovl[0] == 3 * H / 2 && intr[0] == H, "bound from P's start: 1.5 h "
	    "overlap at 8 h, 1 h interruption at 9 h");
	o.t_first = 9 * H;
	mg_oracle_bound(&o, &ovl[0], &intr[0]);
	ok(ovl[0] == -1 && intr[0] == H, "from 9 h no time is free of "
	    "interruption");

	service();
	return tap_done();
}
