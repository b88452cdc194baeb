/*
 * t_feature.c: the features.  In reference mode, the golden feature
 * vectors of the original Mirage (spec section 13.3: LS6 episodes 0 and
 * 22, 88 nodes, 1-node chains, its probes' windows as they are when S
 * starts) must come out exactly; percentiles follow numpy; the backfill
 * plan on hand-made views; and decision-time features must not depend
 * on anything after the decision time.  Run from the top of the tree.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mirage.h"
#include "episode/episode.h"
#include "tap.h"
#include "ls6.h"

#define DAY 86400
#define NREF (144 * MG_PAPER_SNAP + MG_PAPER_CHAIN)

static int
same(const double *got, const double *want, int n, const char *what)
{
	int i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i]) {
			printf("# %s: value %d is %.17g, want %.17g\n", what, i,
			    got[i], want[i]);
			return 0;
		}
	return 1;
}

/* snapshot k (0 oldest) of a window, with the tuples after it */
static void
step(const double *ref, int k, double out[42])
{
	memcpy(out, ref + k * MG_PAPER_SNAP, MG_PAPER_SNAP * sizeof(double));
	memcpy(out + MG_PAPER_SNAP, ref + 144 * MG_PAPER_SNAP,
	    MG_PAPER_CHAIN * sizeof(double));
}

struct probe_out {
	int64_t x;
	double ref[NREF];
};

/* the original's lower-bound and reactive probes of episode i */
static int
golden_probes(const struct mg_clusterdef *def, int i, struct probe_out *lo,
    struct probe_out *re)
{
	struct mg_epconf e;
	struct mg_episode *ep;
	int64_t ps, pst, pe;

	mg_epconf_paper(&e, 1);
	e.at_start = 1;
	if (mg_episode_new(def, &e, when("2023-03-01T00:00:00") +
	    (int64_t)i * 4 * 3600, &ep, NULL) != 0 ||
	    mg_episode_presim(ep, &ps, &pst, &pe) != 1 ||
	    mg_episode_advance(ep, ps + 60) != 0 ||
	    mg_episode_probe(ep, &lo->x, lo->ref) != 1 ||
	    mg_episode_advance(ep, pe) != 0 ||
	    mg_episode_probe(ep, &re->x, re->ref) != 1)
		return -1;
	mg_episode_free(ep);
	return 0;
}

static void
test_golden(struct mg_trace *t)
{
	static const double e0_lo_0[42] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0, 0, 0, 0, 0, 0, 40, 83, 420, 1755, 2880, 2880, 2880, 0, 0, 0, 0,
	    0, 1200, 11730, 40980, 56235, 83160, 2880, 1, 0, 60, 2880, 1, 0,
	    0 };
	static const double e0_lo_143[42] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0, 0, 0, 0, 0, 0, 0, 44, 81, 120, 1440, 2880, 2880, 2880, 0, 0,
	    0, 0, 540, 2160, 29115, 66750, 123270, 149460, 2880, 1, 0, 60,
	    2880, 1, 0, 0 };
	static const double e0_re_143[42] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0, 0, 0, 0, 0, 0, 0, 38, 56, 90, 2880, 2880, 2880, 2880, 0, 0,
	    0, 0, 0, 60, 11520, 14700, 29580, 138720, 2880, 1, 0, 172800,
	    2880, 1, 0, 0 };
	static const double e22_re_143[42] = { 43, 69, 10, 70, 90, 90, 2880,
	    420, 4380, 9840, 12570, 16440, 0, 0, 0, 0, 0, 55, 88, 120, 480,
	    2880, 2880, 2880, 0, 0, 600, 17940, 25260, 120, 8220, 46320,
	    106050, 142860, 2880, 1, 12000, 172800, 2880, 1, 0, 0 };
	static const double e22_lo_143[42] = { 55, 57, 5, 30, 480, 480, 2880,
	    420, 6840, 6840, 9720, 12000, 0, 0, 0, 0, 0, 50, 86, 30, 360,
	    1439.5, 2880, 2880, 0, 0, 0, 15285, 23460, 60, 3750, 29370,
	    149235, 170700, 2880, 1, 60, 0, 2880, 1, 0, 0 };
	static struct probe_out lo, re;
	struct mg_clusterdef def;
	struct mg_simconf *conf;
	double v[42];

	if (!ok(mg_simconf_new(&conf) == 0 &&
	    mg_clusterdef_init(&def, conf, t, NULL) == 0, "reference model"))
		return;
	mg_simconf_free(conf);
	ok(golden_probes(&def, 0, &lo, &re) == 0, "episode 0 probes run");
	ok(lo.x == -172740, "episode 0, lower-bound probe: x = %lld",
	    (long long)lo.x);
	ok(re.x == 0, "episode 0, reactive probe: x = %lld", (long long)re.x);
	step(lo.ref, 0, v);
	ok(same(v, e0_lo_0, 42, "e0 lower step 0"),
	    "episode 0, lower-bound probe, oldest snapshot (13.3)");
	step(lo.ref, 143, v);
	ok(same(v, e0_lo_143, 42, "e0 lower step 143"),
	    "episode 0, lower-bound probe, newest snapshot");
	step(re.ref, 143, v);
	ok(same(v, e0_re_143, 42, "e0 reactive step 143"),
	    "episode 0, reactive probe, newest snapshot");
	ok(golden_probes(&def, 22, &lo, &re) == 0, "episode 22 probes run");
	ok(lo.x == -172560, "episode 22, lower-bound probe: x = %lld",
	    (long long)lo.x);
	ok(re.x == 16680, "episode 22, reactive probe: x = %lld",
	    (long long)re.x);
	step(re.ref, 143, v);
	ok(same(v, e22_re_143, 42, "e22 reactive step 143"),
	    "episode 22, reactive probe, newest snapshot");
	step(lo.ref, 143, v);
	ok(same(v, e22_lo_143, 42, "e22 lower step 143"),
	    "episode 22, lower-bound probe, newest snapshot (at S's start, "
	    "55 pending)");
	mg_clusterdef_release(&def);
}

static void
test_percentiles(void)
{
	double a[] = { 4, 1, 3, 2 }, b[] = { 5 }, c[] = { 0, 2879, 2880 };
	double q[5];

	mg_percentiles(a, 4, q);
	ok(q[0] == 1 && q[1] == 1.75 && q[2] == 2.5 && q[3] == 3.25 &&
	    q[4] == 4, "percentiles: numpy's linear rule on 4 values");
	mg_percentiles(b, 1, q);
	ok(q[0] == 5 && q[2] == 5 && q[4] == 5, "percentiles of one value");
	mg_percentiles(b, 0, q);
	ok(q[0] == 0 && q[4] == 0, "percentiles of none: zeros");
	mg_percentiles(c, 3, q);
	ok(q[1] == 1439.5 && q[2] == 2879, "percentiles: 1439.5 as in 13.3");
}

/* a view of 4 nodes at t = 1000: A (2 nodes) and B (2) running */
static void
toy(struct mg_view *v)
{
	static struct mg_view_job run[2], pend[1];

	memset(v, 0, sizeof(*v));
	v->t = 1000;
	v->nodes = 4;
	v->free = 0;
	run[0] = (struct mg_view_job){ .submit = 0, .start = 900, .limit = 200,
	    .nodes = 2 };
	run[1] = (struct mg_view_job){ .submit = 0, .start = 800, .limit = 500,
	    .nodes = 2 };
	pend[0] = (struct mg_view_job){ .submit = 950, .start = -1, .limit = 200,
	    .nodes = 3, .prio = 10 };
	v->run = run;
	v->nrun = 2;
	v->pend = pend;
	v->npend = 1;
	v->s_prio = 5;
}

static void
test_plan(void)
{
	struct mg_view v;
	struct mg_chainnow c = { 0 };
	double f[MG_OWN];
	int64_t p;

	toy(&v);
	/* free: 0 until 1100, 2 until 1300, then 4; J (3 nodes) reserves
	 * [1300, 1500) */
	ok(mg_feature_plan_start(&v, 2, 100, 5, &p) == 1100 && p == -1,
	    "plan: S backfills before the reservation of the job ahead");
	ok(mg_feature_plan_start(&v, 2, 250, 5, &p) == 1500,
	    "plan: a longer S waits behind the reservation");
	ok(mg_feature_plan_start(&v, 2, 250, 20, &p) == 1100,
	    "plan: at a higher priority S goes first (2 nodes from 1100 on)");
	ok(mg_feature_plan_start(&v, 5, 100, 5, &p) == 1000 + 30 * 86400,
	    "plan: a job bigger than the cluster never fits");
	v.pend[0].chain = 1;
	mg_feature_plan_start(&v, 2, 100, 50, &p);
	ok(p == 1300, "plan: the chain's pending P is planned, ahead of S");
	v.pend[0].chain = 0;
	c.t = 1000;
	c.p_submit = 0;
	c.p_start = 800;
	c.p_limit = 500;
	c.p_nodes = 2;
	c.s_limit = 100;
	c.s_nodes = 2;
	ok(mg_own_features(&v, &c, f) == 0, "own features");
	ok(f[23] * 3600 == 100 && f[24] * 3600 == 1100 - 1300,
	    "plan_start_h and plan_gap_h (P ends by its limit at 1300)");
	ok(f[22] * 3600 == 100, "shadow_h: 2 nodes free at 1100");
	ok(f[12] == 1 && f[13] == 0.75, "ahead: one job of 3 of 4 nodes");
	ok(f[4] == 1 && f[6] * 3600 == 300, "P runs, ends in 300 s");
	ok(fabs(f[17] * 3600 - 100) < 1e-9 && fabs(f[21] * 3600 - 300) < 1e-9,
	    "remaining limits of running jobs");
}

int
main(void)
{
	struct mg_trace t;

	if (load_trace("data/ls6-a100.log.gz", &t) != 0) {
		ok(0, "load the LS6 trace");
		return tap_done();
	}
	test_percentiles();
	test_plan();
	test_golden(&t);
	mg_trace_release(&t);
	return tap_done();
}
