/* t_elastic.c: the elastic jobs' knapsack against brute force. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster/elastic.h"
#include "base/rand.h"
#include "tap.h"

/* the best total over every way to share free nodes, by enumeration */
static double
brute(const struct mg_elastic_job *j, size_t n, int32_t free, size_t i)
{
	double best = 0, v;
	int32_t q;

	if (i == n)
		return 0;
	for (q = 0; q <= j[i].max - j[i].base && q <= free; q++) {
		v = mg_elastic_value(&j[i], q) + brute(j, n, free - q, i + 1);
		if (q == 0 || v > best)
			best = v;
	}
	return best;
}

int
main(void)
{
	struct mg_elastic_job j[5];
	int32_t k[5], g[5];
	uint64_t rng = 7;
	int runs = 500, match = 0, below = 0, over = 0, r;
	double v;

	/*
	 * by hand: A on 2 nodes (max 4), 1000 s left, linear; B on 1 (max
	 * 3), 900 s, linear; restart 10 s.  Two free nodes: A+2 saves 500
	 * - 10, B+2 saves 600 - 10, A+1 B+1 saves 333.3 + 450 - 20 =
	 * 763.3: the best.
	 */
	j[0] = (struct mg_elastic_job){ 2, 4, 1000, 1, 10, NULL, 0 };
	j[1] = (struct mg_elastic_job){ 1, 3, 900, 1, 10, NULL, 0 };
	v = mg_elastic_mckp(j, 2, 2, k);
	ok(fabs(v - (1000 - 2000.0 / 3 + 450 - 20)) < 1e-9 && k[0] == 1 &&
	    k[1] == 1, "by hand: one node each (%d, %d), saving %.1f s", k[0],
	    k[1], v);
	ok(fabs(mg_elastic_value(&j[1], 2) - (900 - 300 - 10)) < 1e-9,
	    "a job's value: the time it saves less its restart");
	for (r = 0; r < runs; r++) {
		size_t n = 1 + (size_t)(mg_rand64(&rng) % 5), i;
		int32_t free = (int32_t)(mg_rand64(&rng) % 13), used = 0;
		double m, b, gr;

		for (i = 0; i < n; i++) {
			j[i].base = 1 + (int32_t)(mg_rand64(&rng) % 4);
			j[i].max = j[i].base + (int32_t)(mg_rand64(&rng) % 5);
			j[i].rem = 100 + 10000 * mg_rand_unif(&rng);
			j[i].alpha = 0.3 + 0.7 * mg_rand_unif(&rng);
			j[i].restart = 300 * mg_rand_unif(&rng);
			j[i].prof = NULL;
			j[i].size = 0;
		}
		m = mg_elastic_mckp(j, n, free, k);
		b = brute(j, n, free, 0);
		gr = mg_elastic_greedy(j, n, free, g);
		for (i = 0; i < n; i++)
			used += k[i];
		match += fabs(m - b) <= 1e-9 * (fabs(b) + 1);
		below += gr > m + 1e-9 * (fabs(m) + 1);
		over += used > free;
	}
	ok(match == runs, "the knapsack equals brute force on %d of %d "
	    "random instances (up to 5 jobs, 12 nodes)", match, runs);
	ok(below == 0 && over == 0, "greedy marginal never beats it (%d), "
	    "and no allocation exceeds the free nodes (%d)", below, over);
	{
		/* a measured curve: linear up to twice the size, flat after */
		struct mg_eprofile p = { 3, { 0.5, 1, 2 }, { 0.5, 1, 2 } };
		struct mg_elastic_job x = { 2, 8, 1000, 0.5, 0, &p, 2 };

		ok(fabs(mg_eprofile_speed(&p, 1.5) - 1.5) < 1e-12 &&
		    fabs(mg_eprofile_speed(&p, 3) - 2) < 1e-12 &&
		    fabs(mg_eprofile_speed(&p, 0.25) - 0.5) < 1e-12,
		    "a curve interpolates linearly and is flat past its ends");
		ok(fabs(mg_elastic_value(&x, 2) - 500) < 1e-9 &&
		    fabs(mg_elastic_value(&x, 6) - 500) < 1e-9, "with a curve, "
		    "4 nodes halve the time and 8 do no better (%g, %g)",
		    mg_elastic_value(&x, 2), mg_elastic_value(&x, 6));
	}
	return tap_done();
}
