/*
 * elastic.h: sharing free nodes among elastic jobs (Aryl's second
 * phase; arXiv 2202.07896, Lyra EuroSys 2023).
 *
 * An elastic job runs on n nodes, min <= n <= max, at a speed of
 * speedup(n) = n^alpha (relative to one node; alpha 1 is linear), so
 * work w (node-seconds at one node's speed) takes w / speedup(n)
 * seconds.  Each resize costs restart seconds of no progress.
 *
 * Given F free nodes, job j (now on base_j nodes, with rem_j seconds of
 * work left at base_j) may take k_j = 0 .. max_j - base_j extra ones.
 * The value of k extra nodes is the completion time it saves,
 *     v_j(k) = T_j(base_j) - T_j(base_j + k) - (k > 0 ? restart_j : 0),
 *     T_j(n) = rem_j * speedup(base_j) / speedup(n),
 * and the allocation maximises the sum of v_j(k_j) with sum k_j <= F: a
 * multiple-choice knapsack, solved exactly by dynamic programming over
 * the nodes (O(jobs x F x extra)).  The ablation gives one node at a
 * time to the job it helps most (greedy marginal).  Pure functions.
 */
#ifndef MG_ELASTIC_H
#define MG_ELASTIC_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "io/stream.h"

/*
 * A measured speedup curve instead of the power law: speed[k] at ratio[k]
 * (nodes over the job's own size), ratios increasing, interpolated
 * linearly and flat beyond the ends, relative to the speed at ratio 1.
 */
#define MG_EPROFILE_MAX 64
struct mg_eprofile {
	size_t n;		/* 0: none, the power law */
	double ratio[MG_EPROFILE_MAX], speed[MG_EPROFILE_MAX];
};

/* mg_eprofile_speed: the speed on ratio times its own size (1 at 1). */
double mg_eprofile_speed(const struct mg_eprofile *p, double ratio);

/*
 * mg_eprofile_read: "RATIO SPEEDUP" lines ('#' comments); at least two,
 * ratios increasing, both positive.  Returns 0, or MG_EIO / MG_EFORMAT
 * with d naming the file and line.
 */
int mg_eprofile_read(const char *path, struct mg_eprofile *p,
    struct mg_diag *d);

struct mg_elastic_job {
	int32_t base;		/* nodes now */
	int32_t max;		/* at most */
	double rem;		/* seconds of work left at base nodes */
	double alpha;		/* speedup(n) = n^alpha */
	double restart;		/* seconds a resize costs */
	const struct mg_eprofile *prof;	/* or this curve (NULL: none) */
	int32_t size;		/* its own size, for the curve */
};

/*
 * Which trace jobs are elastic, drawn from (seed, JobID) alone with
 * probability share (sacct knows nothing of it): an elastic job of n
 * nodes runs on ceil(n / 2) to min(2 n, the cluster) nodes, at
 * speedup n^alpha.  A rigid job has min = max = n.
 */
struct mg_elastic_attr {
	int elastic;
	int32_t min, max;
	double alpha;
};

void mg_elastic_attr_draw(double share, double alpha, uint64_t seed,
    const char *id, size_t idlen, int32_t nodes, int32_t cluster,
    struct mg_elastic_attr *out);

/*
 * The record type "elastic" (mirage-stream(5)): a job that is elastic,
 * its range and its speedup exponent; a job not named is rigid.
 */
enum { MG_EL_JOBID, MG_EL_MIN, MG_EL_MAX, MG_EL_ALPHA, MG_EL_NFIELDS };

/* mg_elastic_attr_schema: the schema of an elastic stream. */
const struct mg_schema *mg_elastic_attr_schema(void);

/*
 * mg_elastic_attr_to_record, mg_elastic_attr_from_record: one record, its
 * job id borrowed; from_record returns 0, or -1 with *bad naming the field
 * (min at least 1, max at least min, alpha in (0, 1]).
 */
void mg_elastic_attr_to_record(const struct mg_elastic_attr *a, const char *id,
    size_t idlen, struct mg_value *rec);
int mg_elastic_attr_from_record(const struct mg_value *rec,
    struct mg_elastic_attr *a,
    const char **bad);

/* mg_elastic_value: v_j(k) above. */
double mg_elastic_value(const struct mg_elastic_job *j, int32_t k);

/*
 * mg_elastic_mckp: the extra nodes k[i] of each of jobs j[0..n) that
 * maximise the total value within free nodes; returns the total, or a
 * negative number when out of memory (k all 0).
 */
double mg_elastic_mckp(const struct mg_elastic_job *j, size_t n, int32_t nfree,
    int32_t *k);

/* mg_elastic_greedy: the greedy-marginal allocation; its total value. */
double mg_elastic_greedy(const struct mg_elastic_job *j, size_t n, int32_t nfree,
    int32_t *k);

#endif /* MG_ELASTIC_H */
