/* stats.c: rank correlation, quantiles, isotonic fits; see stats.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rand.h"
#include "base/stats.h"

struct ix {
	double v;
	size_t i;
};

/* a double's bits as an unsigned key in the same order (-0 before +0) */
static uint64_t
key(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

/*
 * t[0..n) by value, ties in index order, with tmp for n more: a stable
 * radix sort of the keys a byte at a time, skipping the bytes that all
 * keys share (waits in seconds use three or four of the eight).  Uses
 * the i fields as they are, so they must be ascending on entry.
 */
static void
sort_ix(struct ix *t, struct ix *tmp, size_t n)
{
	size_t cnt[8][256] = { { 0 } }, i, b;
	struct ix *src = t, *dst = tmp, *sw;

	for (i = 0; i < n; i++) {
		uint64_t k = key(t[i].v);

		for (b = 0; b < 8; b++)
			cnt[b][k >> (8 * b) & 255]++;
	}
	for (b = 0; b < 8; b++) {
		size_t pos = 0, c;
		int d;

		if (n == 0 || cnt[b][key(t[0].v) >> (8 * b) & 255] == n)
			continue;	/* one value of this byte: order kept */
		for (d = 0; d < 256; d++) {
			c = cnt[b][d];
			cnt[b][d] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[b][key(src[i].v) >> (8 * b) & 255]++] = src[i];
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != t)
		memcpy(t, src, n * sizeof(*t));
}

/* ranks from 1, ties averaged */
static int
ranks(const double *x, size_t n, double *r)
{
	struct ix *t = malloc(2 * n * sizeof(*t));
	size_t i, j, k;

	if (t == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		t[i].v = x[i];
		t[i].i = i;
	}
	sort_ix(t, t + n, n);
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
	struct ix *s;
	double pos, res;
	size_t lo, i;

	if (n == 0 || (s = malloc(2 * n * sizeof(*s))) == NULL)
		return NAN;
	for (i = 0; i < n; i++) {
		s[i].v = x[i];
		s[i].i = i;
	}
	sort_ix(s, s + n, n);
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	res = lo + 1 < n ? s[lo].v + (s[lo + 1].v - s[lo].v) * (pos -
	    (double)lo) : s[n - 1].v;
	free(s);
	return res;
}

int
mg_isotonic(const double *x, const double *y, size_t n, size_t max,
    double *kx, double *ky, size_t *nk)
{
	struct ix *o;
	double *w;
	size_t i, b, nb, lo, hi;

	*nk = 0;
	if (n == 0 || max == 0 || (o = malloc(2 * n * sizeof(*o))) == NULL)
		return -1;
	if ((w = malloc(max * sizeof(*w))) == NULL) {
		free(o);
		return -1;
	}
	for (i = 0; i < n; i++) {
		o[i].v = x[i];
		o[i].i = i;
	}
	sort_ix(o, o + n, n);
	/* bins of equal count, then the blocks pooled while they decrease */
	nb = n < max ? n : max;
	for (b = 0, *nk = 0; b < nb; b++) {
		double sx = 0, sy = 0;

		lo = b * n / nb;
		hi = (b + 1) * n / nb;
		for (i = lo; i < hi; i++) {
			sx += o[i].v;
			sy += y[o[i].i];
		}
		kx[*nk] = sx / (double)(hi - lo);
		ky[*nk] = sy / (double)(hi - lo);
		w[(*nk)++] = (double)(hi - lo);
		while (*nk > 1 && (ky[*nk - 2] >= ky[*nk - 1] ||
		    kx[*nk - 2] >= kx[*nk - 1])) {
			size_t a = *nk - 2, c = *nk - 1;
			double t = w[a] + w[c];

			kx[a] = (kx[a] * w[a] + kx[c] * w[c]) / t;
			ky[a] = (ky[a] * w[a] + ky[c] * w[c]) / t;
			w[a] = t;
			(*nk)--;
		}
	}
	free(w);
	free(o);
	return 0;
}

double
mg_interp(const double *kx, const double *ky, size_t nk, double v)
{
	size_t lo = 0, hi, mid;

	if (nk == 0)
		return v;
	if (v <= kx[0])
		return ky[0];
	if (v >= kx[nk - 1])
		return ky[nk - 1];
	/* kx[lo] < v < kx[hi] */
	for (hi = nk - 1; hi - lo > 1;) {
		mid = lo + (hi - lo) / 2;
		if (kx[mid] < v)
			lo = mid;
		else
			hi = mid;
	}
	return ky[lo] + (ky[hi] - ky[lo]) * (v - kx[lo]) / (kx[hi] - kx[lo]);
}

/* P(X >= k) for X ~ Binomial(n, p), 0 < p < 1: the terms summed in log
 * space from the mode outwards would be exact to rounding; summed from
 * k up, each from lgamma, they are enough for a bisection */
static double
binom_tail(size_t k, size_t n, double p)
{
	double lp = log(p), lq = log1p(-p), lnf = lgamma((double)n + 1), s = 0;
	size_t i;

	for (i = k; i <= n; i++)
		s += exp(lnf - lgamma((double)i + 1) - lgamma((double)(n - i) +
		    1) + (double)i * lp + (double)(n - i) * lq);
	return s;
}

double
mg_binom_lower(size_t k, size_t n, double conf)
{
	double lo = 0, hi = 1, mid, alpha = 1 - conf;
	int it;

	if (k == 0 || n == 0 || k > n)
		return 0;
	if (k == n)
		return pow(alpha, 1 / (double)n);
	/* the tail grows with p: the p where it is alpha */
	for (it = 0; it < 60; it++) {
		mid = (lo + hi) / 2;
		if (binom_tail(k, n, mid) < alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
mg_block_lower(const size_t *kept, const size_t *n, size_t nb, double conf,
    int draws, uint64_t seed)
{
	double *share, low;
	size_t i, j, k, all = 0, good = 0;
	int d;

	for (i = 0; i < nb; i++) {
		all += n[i];
		good += kept[i];
	}
	if (all == 0)
		return 0;
	if (nb == 1 || draws < 1)
		return (double)good / (double)all;
	if ((share = malloc((size_t)draws * sizeof(*share))) == NULL)
		return -1;
	for (d = 0; d < draws; d++) {
		size_t a = 0, g = 0;

		for (i = 0; i < nb; i++) {
			j = (size_t)(mg_rand64(&seed) % nb);
			a += n[j];
			g += kept[j];
		}
		share[d] = a ? (double)g / (double)a : 1;
	}
	qsort(share, (size_t)draws, sizeof(*share), by_value);
	k = (size_t)floor((1 - conf) * draws);
	low = share[k < (size_t)draws ? k : (size_t)draws - 1];
	free(share);
	return low;
}
