/*
 * stats.h: small statistics over arrays of doubles, for reports.
 */
#ifndef MG_STATS_H
#define MG_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * mg_spearman: Spearman's rank correlation of x and y (n pairs), with
 * tied values given their average rank.  Returns NaN if n < 2 or a side
 * is constant, or on allocation failure.
 */
double mg_spearman(const double *x, const double *y, size_t n);

/*
 * mg_quantile: the q-quantile (0..1) of x by linear interpolation
 * between order statistics (numpy's default); x is not changed.  NaN for
 * n = 0 or on allocation failure.
 */
double mg_quantile(const double *x, size_t n, double q);

/*
 * mg_isotonic: the non-decreasing fit of y over x (isotonic regression
 * by pool-adjacent-violators) on the n pairs sorted by x and cut first
 * into at most max bins of equal count, as knots (kx[i], ky[i]): each
 * pooled block's mean x and mean y, both strictly increasing (blocks of
 * equal mean x are pooled too).  kx and ky hold max
 * values; *nk is set.  Returns 0, or -1 if n or max is 0 or on
 * allocation failure.
 */
int mg_isotonic(const double *x, const double *y, size_t n, size_t max,
    double *kx, double *ky, size_t *nk);

/*
 * mg_interp: the piecewise-linear function through the nk knots at v,
 * constant beyond the first and the last; v if nk is 0.
 */
double mg_interp(const double *kx, const double *ky, size_t nk, double v);

/*
 * mg_binom_lower: the one-sided lower confidence bound (Clopper and
 * Pearson's exact bound) on the probability of success behind k
 * successes in n trials, at confidence conf (0.95): the p at which k or
 * more successes have probability 1 - conf.  0 for k = 0 or n = 0; for
 * k = n, (1 - conf)^(1/n).
 */
double mg_binom_lower(size_t k, size_t n, double conf);

/*
 * mg_block_lower: the one-sided lower confidence bound on a share of
 * successes whose trials come in blocks that fail together (the links
 * of a day, which share a queue): kept[i] of n[i] in block i of nb.  A
 * block bootstrap: the blocks drawn with replacement `draws` times
 * (seed fixes them), the pooled share of each draw, and the (1 - conf)
 * quantile of those shares.  0 with no trial; the share itself with one
 * block; -1 when out of memory.
 */
double mg_block_lower(const size_t *kept, const size_t *n, size_t nb,
    double conf, int draws, uint64_t seed);

#endif /* MG_STATS_H */
