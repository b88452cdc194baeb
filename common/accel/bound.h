/*
 * bound.h: the most deadlines any dispatcher could meet on given
 * requests, knowing every arrival (an offline bound, for accel.h's
 * system).
 *
 * The bound is the optimum of a relaxation of the system, solved by
 * GLPK: each request j is met to a share y_j in [0, 1] (or 0 or 1,
 * exact), and within its window [arrival, deadline] it does its work
 * as time on each dataflow, split between the intervals that the
 * arrivals and deadlines cut the time into.  A network's layers are
 * grouped by kind and by how much slower they run on one dataflow
 * than on the other (a kind's layers share that ratio in the cost
 * model), and a group g is done when its seconds on WS over its whole
 * time there plus its seconds on RS over its whole time there reach
 * y_j.  In each interval of length L:
 *     a request runs at most L seconds in all (one layer at a time),
 *     a dataflow's sub-accelerators at most their count x L,
 *     the layers' bytes, each second of a group's work at the fewest
 *     bytes per second any of its layers asks there, at most B x L.
 * Every schedule of the system meets these (a layer slowed by the
 * shared bandwidth moves the same bytes in more time), so the optimum
 * is at least what any dispatcher meets.  What it gives away: layers
 * may be split, run out of order and moved for free, and a group's
 * bytes are counted at its leanest layer's rate.
 *
 * The requests fall apart into blocks whose windows do not overlap,
 * a block of more than 200 is cut (each part then has the whole system
 * to itself, which only raises the bound), and each block is one
 * problem: exact (y binary, GLPK's branch and cut) while a block is
 * small, its linear relaxation otherwise.
 */
#ifndef MG_BOUND_H
#define MG_BOUND_H

#include <stddef.h>

#include "accel/accel.h"
#include "base/status.h"

/* the bound and how it was had */
struct mg_abound {
	double met;		/* deadlines, at most (a whole number) */
	size_t blocks;		/* independent problems */
	size_t exact;		/* of them, solved with y binary */
	size_t largest;		/* requests in the largest block */
	size_t cols;		/* variables in all */
};

/*
 * mg_accel_bound: the bound on req[0..n) (sorted by arrival; only
 * net, arrival and deadline are read).  A block of at most exact_max
 * requests is solved exactly (0: none is).  Returns 0, MG_EINVAL,
 * MG_ENOMEM, or MG_EIO with d saying why (GLPK missing, or a problem
 * it could not solve).
 */
int mg_accel_bound(const struct mg_accel_config *c, const struct mg_net *nets,
    size_t nnets, const struct mg_accel_request *req, size_t n,
    size_t exact_max, struct mg_abound *out, struct mg_diag *d);

#endif /* MG_BOUND_H */
