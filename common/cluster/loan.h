/*
 * loan.h: an inference pool's demand over time, for loaning its spare
 * nodes to the training cluster (Aryl, arXiv 2202.07896; Lyra,
 * EuroSys 2023).
 *
 * The demand is a step function: nodes[k] nodes from time[k] on.  It is
 * drawn from a diurnal curve,
 *     D(t) = base + amp * (1 + cos(2 pi (hour(t) - peak) / 24)) / 2
 *            + noise,
 * rounded and kept within [0, nodes], at every step seconds; the noise,
 * normal with standard deviation `noise` nodes, is drawn once an hour
 * from the seed (so the curve does not flap at every step).  Or it is
 * read from a text file: one "TIME VALUE" line per step, TIME in epoch
 * seconds or YYYY-MM-DDTHH:MM:SS (UTC), VALUE the nodes needed or, with
 * a per-node capacity, requests per second (nodes: VALUE / capacity,
 * rounded up); '#' starts a comment, blank lines are skipped, times must
 * increase.
 */
#ifndef MG_LOAN_H
#define MG_LOAN_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

struct mg_loangen {
	int32_t nodes;		/* the inference pool */
	double base, amp;	/* nodes at night, and the day's swing */
	double noise;		/* sd of the hourly noise, nodes */
	double peak_hour;	/* when the demand peaks, UTC hours */
	uint64_t seed;
};

/* mg_loangen_default: a pool of `nodes` nodes, idle a third of the day. */
void mg_loangen_default(struct mg_loangen *g, int32_t nodes);

/*
 * mg_demand_diurnal: the curve at every step from `from` to `to`.
 * *time and *nodes are allocated (free them).  Returns 0, MG_EINVAL or
 * MG_ENOMEM.
 */
int mg_demand_diurnal(const struct mg_loangen *g, int64_t from, int64_t to,
    int64_t step, int64_t **time, int32_t **nodes, size_t *n);

/*
 * mg_demand_read: the file at path; capacity > 0 reads request rates.
 * Returns 0, or MG_EIO / MG_EFORMAT / MG_ENOMEM with d naming the file
 * and line.
 */
int mg_demand_read(const char *path, double capacity, int64_t **time,
    int32_t **nodes, size_t *n, struct mg_diag *d);

#endif /* MG_LOAN_H */
