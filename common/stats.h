/*
 * stats.h: small statistics over arrays of doubles, for reports.
 */
#ifndef MG_STATS_H
#define MG_STATS_H

#include <stddef.h>

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

#endif /* MG_STATS_H */
