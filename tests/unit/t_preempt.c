/*
 * t_preempt.c: victim choice (preempt.h): the cost worked by hand, each
 * policy's order on a hand-made cluster, and PickyMan's greedy against
 * the exact search and youngest-first on random small instances.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mirage.h"
#include "base/rand.h"
#include "cluster/preempt.h"
#include "tap.h"

/* the set as a sorted string of letters, for messages and checks */
static const char *
letters(const size_t *v, size_t k)
{
	static char buf[32];
	size_t i, j;

	for (i = 0; i < k && i < sizeof(buf) - 1; i++)
		buf[i] = (char)('A' + v[i]);
	buf[i] = '\0';
	for (i = 1; i < k; i++)		/* insertion sort */
		for (j = i; j > 0 && buf[j - 1] > buf[j]; j--) {
			char t = buf[j];

			buf[j] = buf[j - 1];
			buf[j - 1] = t;
		}
	return buf;
}

int
main(void)
{
	/*
	 * A: 1 node, an epoch nearly done (rel 600 s), cheap to resume;
	 * B: 1 node, releases in 60 s, but loses 5000 s on resuming;
	 * C: 2 nodes, 120 s, 50 s; D: 4 nodes, 30 s, 400 s, the youngest.
	 * A waiting job of 2 nodes needs 2.
	 */
	static const struct mg_pcand c[] = {
		{ 1, 600, 100, 10, 1000, 3600 },
		{ 1, 60, 5000, 20, 2000, 500 },
		{ 2, 120, 50, 30, 3000, 9000 },
		{ 4, 30, 400, 5, 4000, 40 },
	};
	unsigned char taken[4];
	size_t v[4], k, all[] = { 0, 1 };
	uint64_t rng = 1;
	enum mg_victim_policy p;
	int i, match = 0, worse = 0, bad = 0, gmatch = 0, gworse = 0;
	int runs = 1000;

	ok(mg_victim_cost(c, all, 2, 2, 1) == 2 * 600 + 100 + 5000,
	    "J({A,B}) = 2 x 600 + 1 x 100 + 1 x 5000 = 6300 (%g)",
	    mg_victim_cost(c, all, 2, 2, 1));
	memset(taken, 0, sizeof(taken));
	mg_victims(MG_VICTIM_PICKYMAN, c, 4, taken, 2, 2, 1, &rng, v, &k);
	ok(strcmp(letters(v, k), "C") == 0, "PickyMan takes C: J = 2 x 120 "
	    "+ 2 x 50 = 340 (%s)", letters(v, k));
	memset(taken, 0, sizeof(taken));
	mg_victims(MG_VICTIM_EXACT, c, 4, taken, 2, 2, 1, &rng, v, &k);
	ok(strcmp(letters(v, k), "C") == 0, "so does the exact search (%s)",
	    letters(v, k));
	memset(taken, 0, sizeof(taken));
	mg_victims(MG_VICTIM_YOUNGEST, c, 4, taken, 2, 2, 1, &rng, v, &k);
	ok(strcmp(letters(v, k), "D") == 0, "youngest-first takes D, the "
	    "last started, J = 2 x 30 + 4 x 400 = 1660 (%s)", letters(v, k));
	memset(taken, 0, sizeof(taken));
	mg_victims(MG_VICTIM_PRIO, c, 4, taken, 2, 2, 1, &rng, v, &k);
	ok(strcmp(letters(v, k), "D") == 0, "lowest priority first: D (%s)",
	    letters(v, k));
	memset(taken, 0, sizeof(taken));
	mg_victims(MG_VICTIM_LAS, c, 4, taken, 2, 2, 1, &rng, v, &k);
	ok(strcmp(letters(v, k), "D") == 0, "least attained service: D, 40 "
	    "node-seconds (%s)", letters(v, k));
	/* an ordered division: the next waiting job gets what is left */
	memset(taken, 0, sizeof(taken));
	mg_victims(MG_VICTIM_PICKYMAN, c, 4, taken, 2, 2, 1, &rng, v, &k);
	i = mg_victims(MG_VICTIM_PICKYMAN, c, 4, taken, 4, 4, 1, &rng, v, &k);
	ok(i == 0 && strcmp(letters(v, k), "D") == 0 && taken[2] && taken[3],
	    "a second waiting job of 4 nodes gets D, C being taken (%s)",
	    letters(v, k));
	i = mg_victims(MG_VICTIM_PICKYMAN, c, 4, taken, 3, 3, 1, &rng, v, &k);
	ok(i == -1 && k == 0 && !taken[0] && !taken[1], "a third of 3 "
	    "nodes cannot be covered by A and B: nothing taken");
	ok(mg_victim_policy_parse("pickyman", &p) == 0 &&
	    p == MG_VICTIM_PICKYMAN && mg_victim_policy_parse("lifo", &p) ==
	    -1 && strcmp(mg_victim_policy_name(MG_VICTIM_LAS), "las") == 0,
	    "policy names");

	/* random small instances: 3 to 12 running jobs of 1 to 4 nodes */
	for (i = 0; i < runs; i++) {
		struct mg_pcand r[12];
		unsigned char t1[12], t2[12], t3[12];
		size_t n = 3 + (size_t)(mg_rand64(&rng) % 10), j, kg, ke, ky;
		size_t vg[12], ve[12], vy[12], vr[12], kr;
		int32_t total = 0, need, w;
		double jg, je, jy, jr;
		int64_t got = 0;

		for (j = 0; j < n; j++) {
			r[j].nodes = 1 + (int32_t)(mg_rand64(&rng) % 4);
			r[j].rel = 60 + 3540 * mg_rand_unif(&rng);
			r[j].res = 30 + 1800 * mg_rand_unif(&rng);
			r[j].prio = mg_rand_unif(&rng);
			r[j].start = (int64_t)(mg_rand64(&rng) % 100000);
			r[j].attained = 1e5 * mg_rand_unif(&rng);
			total += r[j].nodes;
		}
		need = 1 + (int32_t)(mg_rand64(&rng) % (uint64_t)total);
		w = need + (int32_t)(mg_rand64(&rng) % 3);
		memset(t1, 0, sizeof(t1));
		memset(t2, 0, sizeof(t2));
		memset(t3, 0, sizeof(t3));
		mg_victims(MG_VICTIM_PICKYMAN, r, n, t1, need, w, 1, &rng, vg,
		    &kg);
		mg_victims(MG_VICTIM_EXACT, r, n, t2, need, w, 1, &rng, ve,
		    &ke);
		mg_victims(MG_VICTIM_YOUNGEST, r, n, t3, need, w, 1, &rng, vy,
		    &ky);
		memset(t3, 0, sizeof(t3));
		mg_victims(MG_VICTIM_GREEDY, r, n, t3, need, w, 1, &rng, vr,
		    &kr);
		jr = mg_victim_cost(r, vr, kr, w, 1);
		jg = mg_victim_cost(r, vg, kg, w, 1);
		je = mg_victim_cost(r, ve, ke, w, 1);
		jy = mg_victim_cost(r, vy, ky, w, 1);
		match += fabs(jg - je) <= 1e-9 * je;
		worse += jg > jy + 1e-9 * jy;
		gmatch += fabs(jr - je) <= 1e-9 * je;
		gworse += jr > jy + 1e-9 * jy;
		/* a cover, of distinct jobs, each marked taken */
		for (j = 0, got = 0; j < kg; j++) {
			got += r[vg[j]].nodes;
			bad += !t1[vg[j]];
		}
		bad += got < need || kg == 0 || je > jg + 1e-9 * jg;
	}
	ok(match == runs, "PickyMan (thresholds x the cheapest cover) finds "
	    "the exact search's least cost in %d of %d random instances",
	    match, runs);
	ok(worse == 0, "and is never worse than youngest-first (%d worse)",
	    worse);
	ok(gmatch >= runs * 95 / 100, "the paper's greedy finds it in %d "
	    "(at least 95%%); worse than youngest-first in %d", gmatch,
	    gworse);
	ok(bad == 0, "every victim set covers its need and is marked taken; "
	    "the exact search is never beaten (%d faults)", bad);
	{
		/*
		 * Aryl's reclaim: the fewest jobs.  On the same random
		 * instances, never more than random or last-in-first-out,
		 * as few as an exhaustive search, and a cover.
		 */
		int more = 0, notmin = 0, nocover = 0;

		for (i = 0; i < runs; i++) {
			struct mg_pcand r[12];
			unsigned char t[12];
			size_t n = 3 + (size_t)(mg_rand64(&rng) % 10), j;
			size_t vf[12], kf, kr, ky, best = 99, sub;
			int32_t total = 0, need;
			int64_t got = 0;

			for (j = 0; j < n; j++) {
				r[j].nodes = 1 + (int32_t)(mg_rand64(&rng) % 6);
				r[j].rel = 0;
				r[j].res = 30 + 1800 * mg_rand_unif(&rng);
				r[j].prio = mg_rand_unif(&rng);
				r[j].start = (int64_t)(mg_rand64(&rng) % 100000);
				r[j].attained = 0;
				total += r[j].nodes;
			}
			need = 1 + (int32_t)(mg_rand64(&rng) % (uint64_t)total);
			memset(t, 0, sizeof(t));
			mg_victims(MG_VICTIM_FEWEST, r, n, t, need, 0, 1, &rng,
			    vf, &kf);
			for (j = 0; j < kf; j++)
				got += r[vf[j]].nodes;
			nocover += kf == 0 || got < need;
			memset(t, 0, sizeof(t));
			mg_victims(MG_VICTIM_RANDOM, r, n, t, need, 0, 1, &rng,
			    vf, &kr);
			memset(t, 0, sizeof(t));
			mg_victims(MG_VICTIM_YOUNGEST, r, n, t, need, 0, 1,
			    &rng, vf, &ky);
			more += kf > kr || kf > ky;
			for (sub = 1; sub < (size_t)1 << n; sub++) {
				size_t cnt = 0;

				for (j = 0, got = 0; j < n; j++)
					if (sub >> j & 1) {
						got += r[j].nodes;
						cnt++;
					}
				if (got >= need && cnt < best)
					best = cnt;
			}
			notmin += kf != best;
		}
		ok(nocover == 0 && more == 0 && notmin == 0, "the fewest-jobs "
		    "reclaim covers (%d faults), never takes more jobs than "
		    "random or LIFO (%d), and as few as an exhaustive search "
		    "(%d not)", nocover, more, notmin);
	}
	return tap_done();
}
