/* stats.c: rank correlation and quantiles; see stats.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

struct ix {
	double v;
	size_t i;
};

static int
cmp_ix(const void *a, const void *b)
{
	const struct ix *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ranks from 1, ties averaged */
static int
ranks(const double *x, size_t n, double *r)
{
	struct ix *t = malloc(n * sizeof(*t));
	size_t i, j, k;

	if (t == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		t[i].v = x[i];
		t[i].i = i;
	}
	qsort(t, n, sizeof(*t), cmp_ix);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && t[j].v == t[i].v; j++)
			;
		for (k = i; k < j; k++)
			r[t[k].i] = (double)(i + j + 1) / 2.0;
	}
	free(t);
	return 0;
}

double
mg_spearman(const double *x, const double *y, size_t n)
{
	double *rx, *ry, mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0, res = NAN;
	size_t i;

	if (n < 2)
		return NAN;
	rx = malloc(n * sizeof(*rx));
	ry = malloc(n * sizeof(*ry));
	if (rx && ry && ranks(x, n, rx) == 0 && ranks(y, n, ry) == 0) {
		for (i = 0; i < n; i++) {
			mx += rx[i];
			my += ry[i];
		}
		mx /= (double)n;
		my /= (double)n;
		for (i = 0; i < n; i++) {
			sxy += (rx[i] - mx) * (ry[i] - my);
			sxx += (rx[i] - mx) * (rx[i] - mx);
			syy += (ry[i] - my) * (ry[i] - my);
		}
		if (sxx > 0 && syy > 0)
			res = sxy / sqrt(sxx * syy);
	}
	free(rx);
	free(ry);
	return res;
}

double
mg_quantile(const double *x, size_t n, double q)
{
	double *s, pos, res;
	size_t lo;

	if (n == 0 || (s = malloc(n * sizeof(*s))) == NULL)
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_d);
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	res = lo + 1 < n ? s[lo] + (s[lo + 1] - s[lo]) * (pos - (double)lo) :
	    s[n - 1];
	free(s);
	return res;
}
