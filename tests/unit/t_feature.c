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
#include "episode.h"
#include "tap.h"
#include "ls6.h"

#define DAY 86400
#define NREF (144 * MG_REF_SNAP + MG_REF_CHAIN)

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
	memcpy(out, ref + k * MG_REF_SNAP, MG_REF_SNAP * sizeof(double));
	memcpy(out + MG_REF_SNAP, ref + 144 * MG_REF_SNAP,
	    MG_REF_CHAIN * sizeof(double));
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
	struct mg_simconf conf;
	double v[42];

	mg_simconf_init(&conf);
	ok(mg_clusterdef_init(&def, &conf, t, NULL) == 0, "reference model");
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

int
main(void)
{
	struct mg_trace t;

	if (load_trace("data/ls6-a100.log.gz", &t) != 0) {
		ok(0, "load the LS6 trace");
		return tap_done();
	}
	test_golden(&t);
	mg_trace_release(&t);
	return tap_done();
}
