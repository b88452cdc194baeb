/*
 * t_protocol.c: the evaluation's decisions on hand-made outcomes: the
 * first tick over a threshold, the oracle, and the bound of what any
 * method can reach within an overlap budget.
 */
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
	ok(mg_choose_first(&o, score, 0.5) == 2, "first tick over the "
	    "threshold");
	ok(mg_choose_first(&o, score, 2) == 4, "no tick over it: the "
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
	ok(mg_frontier(ovl, intr, 4, 0, &s) == 0, "the frontier");
	ok(s.no_interruption ==
	    0.25 && s.ovl_mean_h == 0 && s.int_mean_h == (1 + 1 + 3) / 4.0,
	    "no budget: only the seamless chain (%g, %g h)",
	    s.no_interruption, s.int_mean_h);
	mg_frontier(ovl, intr, 4, 0.125 * H, &s);
	ok(s.no_interruption == 0.5 && s.ovl_mean_h == 0.125 &&
	    s.int_mean_h == 2 / 4.0, "an eighth of an hour each: the 0.5 h "
	    "overlap too (%g)", s.no_interruption);
	mg_frontier(ovl, intr, 4, 0.49 * H, &s);
	ok(s.no_interruption == 0.5, "just under 0.5 h each: not the 1.5 h "
	    "one");
	mg_frontier(ovl, intr, 4, 8 * H, &s);
	ok(s.no_interruption == 0.75 && s.ovl_mean_h == 0.5 &&
	    s.int_mean_h == 0.25, "any budget: all but the chain that is "
	    "always interrupted");

	/* the perfect predictors, on episode a: ticks before P's end at
	 * 6, 7, 8 and 9 h */
	episode(&o, t, x, tick, a);
	mg_perfect_score(&o, 0, score);
	ok(score[0] == -3 && score[1] == -2 && score[2] == -1.5 &&
	    score[3] == 1, "perfect predictor: the true outcome, in hours");
	ok(mg_choose_first(&o, score, 0) == 3, "fed the truth, the rule "
	    "waits for x >= 0 and is interrupted");
	mg_perfect_score(&o, 1, score);
	ok(score[0] == -2 && score[1] == -1.5 && score[2] == 1 &&
	    score[3] == 2, "one tick ahead: the worse of now and the next "
	    "tick, the fallback's included");
	ok(mg_choose_first(&o, score, 0) == 2, "looking ahead, it submits "
	    "before the interruption (1.5 h overlap)");
	/* a time that is not a decision tick (the average-wait baseline's)
	 * is not looked at */
	tick[1] = 0;
	mg_perfect_score(&o, 1, score);
	ok(score[0] == -1.5 && score[1] == 1 && score[2] == 2,
	    "the next tick, not the next time (%g %g %g)", score[0],
	    score[1], score[2]);
	return tap_done();
}
