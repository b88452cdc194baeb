/*
 * t_stats.c: the isotonic fit behind a classifier's calibration, and
 * its interpolation, on hand-worked data; quantiles and rank
 * correlations (whose sort is a radix sort) against plain definitions.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rand.h"
#include "base/stats.h"
#include "tap.h"

static int
dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the q-quantile by qsort, as numpy interpolates */
static double
quantile_plain(const double *x, size_t n, double q)
{
	double s[64], pos = q * (double)(n - 1);
	size_t lo = (size_t)pos;

	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), dcmp);
	return lo + 1 < n ? s[lo] + (s[lo + 1] - s[lo]) * (pos - (double)lo) :
	    s[n - 1];
}

/* ranks by counting: 1 + the smaller values + half the other equal ones */
static void
ranks_plain(const double *x, size_t n, double *r)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		double lt = 0, eq = 0;

		for (j = 0; j < n; j++) {
			lt += x[j] < x[i];
			eq += x[j] == x[i];
		}
		r[i] = 1 + lt + (eq - 1) / 2;
	}
}

static double
pearson(const double *x, const double *y, size_t n)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		mx += x[i] / (double)n;
		my += y[i] / (double)n;
	}
	for (i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	return sxy / sqrt(sxx * syy);
}

/* random arrays with ties, negatives, zeros of both signs, huge values */
static void
sorts(void)
{
	static const double pick[] = { 0.0, -0.0, -1.5, 3, 3, 1e300, -1e300,
	    7200, 86400 * 365.0, -2, 1e-300 };
	double x[64], y[64], rx[64], ry[64];
	unsigned seed = 12345;
	int trial, bad_q = 0, bad_r = 0;
	size_t i, n;

	for (trial = 0; trial < 200; trial++) {
		n = 2 + (size_t)trial % 60;
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			x[i] = seed >> 16 & 1 ? pick[(seed >> 8) % 11] :
			    (double)((int)(seed >> 10 & 1023) - 300) * 60;
			seed = seed * 1103515245 + 12345;
			y[i] = (double)(seed >> 12 & 63);
		}
		if (mg_quantile(x, n, 0.5) != quantile_plain(x, n, 0.5) ||
		    mg_quantile(x, n, 0.95) != quantile_plain(x, n, 0.95) ||
		    mg_quantile(x, n, 0) != quantile_plain(x, n, 0))
			bad_q++;
		ranks_plain(x, n, rx);
		ranks_plain(y, n, ry);
		if (fabs(mg_spearman(x, y, n) - pearson(rx, ry, n)) > 1e-9 &&
		    !(isnan(mg_spearman(x, y, n)) && isnan(pearson(rx, ry, n))))
			bad_r++;
	}
	ok(bad_q == 0, "quantiles equal qsort's on 200 random arrays (%d "
	    "differ)", bad_q);
	ok(bad_r == 0, "Spearman equals the Pearson of counted ranks on 200 "
	    "random arrays (%d differ)", bad_r);
}

/*
 * Clopper and Pearson's one-sided lower bound against values summed
 * exactly (Python's integer binomials, bisected to 1e-12), and its closed
 * forms at the ends
 */
static void
binom_bounds(void)
{
	static const struct { size_t k, n; double conf, want; } c[] = {
		{ 95, 100, 0.95, 0.897747 }, { 1, 10, 0.95, 0.005116 },
		{ 690, 700, 0.95, 0.975889 }, { 299, 300, 0.95, 0.984285 },
		{ 9, 10, 0.99, 0.495647 }, { 154, 156, 0.95, 0.960194 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ok(fabs(mg_binom_lower(c[i].k, c[i].n, c[i].conf) - c[i].want) <
		    1e-6, "%zu of %zu at %g: %.6f", c[i].k, c[i].n, c[i].conf,
		    mg_binom_lower(c[i].k, c[i].n, c[i].conf));
	/* 156 links without a failure certify 98.1% at 95%; 300, 99% */
	ok(fabs(mg_binom_lower(156, 156, 0.95) - 0.980980) < 1e-6,
	    "156 of 156: %.6f", mg_binom_lower(156, 156, 0.95));
	ok(mg_binom_lower(299, 299, 0.95) >= 0.99 &&
	    mg_binom_lower(297, 297, 0.95) < 0.99, "about 300 for 99%%");
	ok(mg_binom_lower(0, 10, 0.95) == 0 && mg_binom_lower(0, 0, 0.95) ==
	    0, "no success, no trial: 0");
	ok(mg_binom_lower(50, 100, 0.99) < mg_binom_lower(50, 100, 0.9),
	    "more confidence, a lower bound");
}

/*
 * Outcomes that fail together: 60 days of 40 trials, a day bad one
 * time in ten (its share 0.30 lower) and otherwise a little better, so
 * that the true share is 0.95.  Over 300 such months, Clopper and
 * Pearson's bound, which counts every trial as independent, lies above
 * the truth far more often than 5%; the bound by days does not.
 */
static void
block_bounds(void)
{
	enum { DAYS = 60, TRIALS = 40, REPS = 300 };
	const double p = 0.95, bad = 0.30, good = bad * 0.1 / 0.9;
	size_t kept[DAYS], n[DAYS], all, k, cp_ok = 0, bl_ok = 0;
	uint64_t s = 42;
	int r, d, i;

	for (r = 0; r < REPS; r++) {
		for (d = 0, all = k = 0; d < DAYS; d++) {
			double pd = mg_rand_unif(&s) < 0.1 ? p - bad : p + good;

			n[d] = TRIALS;
			kept[d] = 0;
			for (i = 0; i < TRIALS; i++)
				kept[d] += mg_rand_unif(&s) < pd;
			all += n[d];
			k += kept[d];
		}
		cp_ok += mg_binom_lower(k, all, 0.95) <= p;
		bl_ok += mg_block_lower(kept, n, DAYS, 0.95, 500, (uint64_t)r +
		    1) <= p;
	}
	ok(bl_ok >= 0.87 * REPS && cp_ok <= 0.80 * REPS, "outcomes that fail "
	    "by days: the bound by days holds %.0f%% of the time, one that "
	    "counts trials as independent %.0f%% (95%% asked)", 100.0 *
	    (double)bl_ok / REPS, 100.0 * (double)cp_ok / REPS);
	kept[0] = 3;
	n[0] = 4;
	ok(mg_block_lower(kept, n, 1, 0.95, 500, 1) == 0.75 &&
	    mg_block_lower(kept, n, 0, 0.95, 500, 1) == 0, "one block: its "
	    "share; none: 0");
}

int
main(void)
{
	/* in order of x: 0 1 0 1 1 0 -> pooled to 0 | 0.5 0.5 | 2/3 x3 */
	static const double x[6] = { 6, 1, 2, 3, 4, 5 };
	static const double y[6] = { 0, 0, 1, 0, 1, 1 };
	static const double same[6] = { 1, 1, 2, 2, 2, 2 };
	double kx[8], ky[8];
	size_t nk = 0;
	int rv;

	rv = mg_isotonic(x, y, 6, 8, kx, ky, &nk);
	ok(rv == 0 && nk == 3, "three blocks (%zu)", nk);
	ok(kx[0] == 1 && ky[0] == 0, "first: the lone 0 at x 1");
	ok(kx[1] == 2.5 && ky[1] == 0.5, "then 1, 0 at x 2, 3 pooled: 0.5 at "
	    "2.5");
	ok(fabs(kx[2] - 5) < 1e-12 && fabs(ky[2] - 2 / 3.0) < 1e-12,
	    "then 1, 1, 0 at x 4, 5, 6: 2/3 at 5");
	ok(mg_isotonic(x, y, 6, 2, kx, ky, &nk) == 0 && nk == 2 &&
	    kx[0] == 2 && fabs(ky[0] - 1 / 3.0) < 1e-12 && kx[1] == 5 &&
	    fabs(ky[1] - 2 / 3.0) < 1e-12, "two bins of three at most");
	ok(mg_isotonic(x, y, 0, 2, kx, ky, &nk) == -1 && nk == 0,
	    "no data: an error");
	ok(mg_interp(kx, ky, 2, 0) == ky[0] && mg_interp(kx, ky, 2, 9) ==
	    ky[1], "constant beyond the knots");
	ok(fabs(mg_interp(kx, ky, 2, 3.5) - 0.5) < 1e-12, "linear between "
	    "them");
	ok(mg_interp(kx, ky, 0, 0.25) == 0.25, "no knots: the identity");
	/* equal x in several bins: one knot, so that x increases */
	rv = mg_isotonic(same, y, 6, 6, kx, ky, &nk);
	ok(rv == 0 && nk == 2 && kx[0] == 1 && kx[1] == 2 && ky[0] == 0 &&
	    ky[1] == 0.75, "bins of the same x pooled (%zu knots)", nk);
	sorts();
	binom_bounds();
	block_bounds();
	return tap_done();
}
