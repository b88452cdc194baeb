/*
 * preempt.h: choosing which running jobs to preempt for a waiting
 * urgent one (PickyMan, IEEE IPCCC 2022, and the policies it is measured
 * against).
 *
 * A deep-learning job cannot stop at once: it finishes its epoch and
 * writes a checkpoint before its nodes come free (its release delay,
 * rel), and it loses time again when it resumes, reloading its model and
 * data (its resume loss, res, per node).  For a waiting job of w nodes
 * that needs `need` more nodes, a set V of victims that covers the need
 * costs
 *
 *     J(V) = w * max_{j in V} rel_j + alpha * sum_{j in V} n_j * res_j
 *
 * node-seconds: the waiting job's extra wait, and the victims' lost GPU
 * time.  The policies:
 *   MG_VICTIM_PRIO      Slurm's preempt/qos: the lowest priority first
 *                       (then the youngest);
 *   MG_VICTIM_YOUNGEST  PreemptParameters=youngest_first: the latest
 *                       started first;
 *   MG_VICTIM_RANDOM    a uniform order (seeded);
 *   MG_VICTIM_LAS       least attained service (Tiresias): the fewest
 *                       node-seconds run first;
 *   MG_VICTIM_PICKYMAN  for each threshold tau among the rel values, the
 *                       cheapest cover (least sum of n * res) by the
 *                       jobs with rel <= tau, a knapsack over the nodes
 *                       covered; the least J over the thresholds.  This
 *                       is the optimum, in O(m^2 need) for m jobs;
 *   MG_VICTIM_GREEDY    the paper's greedy as reconstructed: for each
 *                       tau, the jobs with rel <= tau by resume loss per
 *                       node (and again by whole loss) until the need is
 *                       covered, less those the cover does not need.  On
 *                       random small instances it finds the optimum
 *                       99.4% of the time but can lose to youngest-first
 *                       (t_preempt), hence the knapsack above;
 *   MG_VICTIM_EXACT     the least J over all covering subsets (at most
 *                       MG_VICTIM_EXACT_MAX candidates): the yardstick;
 *   MG_VICTIM_FEWEST    the fewest jobs (Aryl's server-preemption cost
 *                       for jobs that cannot shrink): the widest first,
 *                       then the least lost node-seconds, less those the
 *                       cover does not need.
 * The first four take candidates in their order until the need is
 * covered.  Waiting jobs are served in priority order, each from the
 * candidates the earlier ones left (an ordered division of the running
 * jobs): the taken[] flags carry it from one call to the next.
 * Pure functions: no allocation beyond the call, no output.
 */
#ifndef MG_PREEMPT_H
#define MG_PREEMPT_H

#include <stddef.h>
#include <stdint.h>

#define MG_VICTIM_EXACT_MAX 20

enum mg_victim_policy {
	MG_VICTIM_PRIO,
	MG_VICTIM_YOUNGEST,
	MG_VICTIM_RANDOM,
	MG_VICTIM_LAS,
	MG_VICTIM_PICKYMAN,
	MG_VICTIM_GREEDY,
	MG_VICTIM_EXACT,
	MG_VICTIM_FEWEST
};

/* a running job that may be preempted, as the scheduler predicts it */
struct mg_pcand {
	int32_t nodes;
	double rel;		/* seconds until its nodes would be free */
	double res;		/* seconds of work each node loses */
	double prio;		/* its priority */
	int64_t start;		/* when it (last) started */
	double attained;	/* node-seconds it has run */
};

/*
 * mg_victim_policy_parse: "prio", "youngest", "random", "las",
 * "pickyman", "greedy", "exact" or "fewest" into *p.  Returns 0 or -1.
 */
int mg_victim_policy_parse(const char *s, enum mg_victim_policy *p);

/* mg_victim_policy_name: the name mg_victim_policy_parse() reads. */
const char *mg_victim_policy_name(enum mg_victim_policy p);

/* mg_victim_cost: J of the set idx[0..k) for a waiting job of w nodes. */
double mg_victim_cost(const struct mg_pcand *c, const size_t *idx, size_t k,
    int32_t w, double alpha);

/*
 * mg_victims: victims among c[0..n) not taken[] that free at least need
 * nodes for a waiting job of w nodes, by policy p (rng: its state, for
 * MG_VICTIM_RANDOM).  Their indices go to out[] (room for n), their
 * count to *k, and they are marked taken.  Returns 0, or -1 (nothing
 * taken) when the free candidates cannot cover the need, or when
 * MG_VICTIM_EXACT has more than MG_VICTIM_EXACT_MAX of them.
 */
int mg_victims(enum mg_victim_policy p, const struct mg_pcand *c, size_t n,
    unsigned char *taken, int32_t need, int32_t w, double alpha,
    uint64_t *rng, size_t *out, size_t *k);

#endif /* MG_PREEMPT_H */
