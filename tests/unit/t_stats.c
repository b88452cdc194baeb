/*
 * t_stats.c: the isotonic fit behind a classifier's calibration, and
 * its interpolation, on hand-worked data.
 */
#include <math.h>
#include <stddef.h>

#include "base/stats.h"
#include "tap.h"

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
	return tap_done();
}
