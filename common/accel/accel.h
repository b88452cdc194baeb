/*
 * accel.h: a multi-accelerator system serving DNN inference requests
 * layer by layer (RELMAS, Blanco et al., DAC 2024, arXiv 2404.08950),
 * event-driven like the cluster model.
 *
 * nsa sub-accelerators, each of a dataflow (workload.h), share a DRAM
 * bandwidth of bw bytes per second: while the layers running ask for
 * more in all, every one of them runs slower by the same factor (the
 * bandwidth is shared in proportion).  A layer runs to its end on one
 * sub-accelerator; a request's layers run in order, one at a time; its
 * next layer on another sub-accelerator first moves the last output
 * (aout / xfer_bw seconds, added to the layer).  Energy: the layers'
 * dynamic energy plus static_w watts per sub-accelerator over the run.
 *
 * Requests arrive (Poisson per network, or given), each with a deadline
 * of arrival + q x its network's isolated latency on its best dataflow.
 * Whenever a sub-accelerator is idle the dispatcher (mg_apolicy) gives
 * it the next layer of a waiting request.
 */
#ifndef MG_ACCEL_H
#define MG_ACCEL_H

#include <stddef.h>
#include <stdint.h>

#include "accel/workload.h"
#include "base/status.h"

#define MG_ACCEL_MAXSA 64
#define MG_ACCEL_STRICT 1.1	/* MG_AP_STRICT's slowdown at most */
#define MG_ACCEL_FIT_IDLE 2	/* MG_AP_FIT's idle sub-accelerators at least */
#define MG_ACCEL_BURST_ON 50	/* a burst's mean length (mg_accel_requests) */

enum mg_apolicy {
	MG_AP_FCFS,		/* the earliest arrival */
	MG_AP_EDF,		/* the earliest deadline */
	MG_AP_FEDF,		/* the earliest deadline among the requests
				 * that can still meet theirs (laxity >= 0),
				 * then the others' */
	MG_AP_LLF,		/* the least laxity */
	MG_AP_SJF,		/* the least isolated latency left */
	MG_AP_MINLAT,		/* arrival order, each layer to the idle
				 * sub-accelerator where it is fastest */
	MG_AP_STATIC,		/* each network on its best dataflow only */
	MG_AP_RANDOM,
	MG_AP_FSJF,		/* the least isolated latency left among the
				 * requests that can still meet their
				 * deadlines, then the others' */
	MG_AP_PLACE,		/* fedf's six most urgent and each idle
				 * sub-accelerator: the pair of the least
				 * rank + 2 x the layer's slowdown there
				 * (mg_accel_place_score) */
	MG_AP_STRICT,		/* place's pair among those whose layer
				 * runs within MG_ACCEL_STRICT x its best
				 * time there; none: the idle ones wait; a
				 * request past hope only while all but
				 * one are idle (hook's strict) */
	MG_AP_FIT,		/* fedf's order, each request on the first
				 * idle sub-accelerator among strict's
				 * pairs and, while MG_ACCEL_FIT_IDLE or
				 * more are idle, those where its layer
				 * ends within MG_ACCEL_STRICT x the
				 * earliest any could end it (hook's fit);
				 * none: the idle ones wait */
	MG_AP_N
};

const char *mg_apolicy_name(enum mg_apolicy p);

struct mg_accel_config {
	int nsa;
	int df[MG_ACCEL_MAXSA];	/* each one's dataflow */
	int pes;		/* MAC units of each */
	double bw;		/* shared DRAM, bytes per second */
	double xfer_bw;		/* a move between sub-accelerators, B/s */
	double static_w;	/* watts of each, idle or not */
	int drop;		/* a waiting request that can no longer
				 * meet its deadline is dropped, unserved,
				 * at the next dispatch */
	int preempt;		/* a running layer may be interrupted for
				 * a more urgent request (mg_accel_run) */
	double preempt_s;	/* what an interruption costs beyond
				 * moving the partial output: seconds */
	int bw_deadline;	/* the bandwidth goes to the running
				 * layers in their requests' deadline
				 * order, not in proportion */
};

/* mg_accel_config_default: 2 WS and 2 RS of 1024 PEs, 64 GB/s, 0.5 W each,
 * none dropped. */
void mg_accel_config_default(struct mg_accel_config *c);

struct mg_accel_request {
	int net;		/* index into the networks */
	double arrival, deadline;
	/* results */
	double end;		/* when its last layer ended, or -1
				 * (dropped) */
	double energy;		/* its layers' dynamic energy */
};

/*
 * mg_accel_requests: n requests over the networks nets[0..nnets), Poisson with
 * a total rate that offers `load` times the system's capacity (the mean
 * isolated latency over the sub-accelerators), the network of each
 * uniform, deadlines at q times the isolated latency; from seed.  With
 * burst b > 1 they come in bursts at b times that rate, on for a mean of
 * MG_ACCEL_BURST_ON mean isolated latencies and off for b - 1 times that
 * (both exponential), so the mean rate is the same.  *out allocated.
 * Returns 0, MG_EINVAL or MG_ENOMEM.
 */
int mg_accel_requests(const struct mg_accel_config *c, const struct mg_net *nets,
    size_t nnets, size_t n, double load, double q, double burst,
    uint64_t seed, struct mg_accel_request **out);

/* what a run did */
struct mg_arun {
	size_t requests, met, dropped;
	double lat_mean, lat_p95;	/* seconds, of those served */
	double energy;		/* joules, dynamic and static */
	double makespan;	/* seconds from the first arrival */
	double busy;		/* sub-accelerator-seconds running layers */
	double oversub;		/* seconds the bandwidth was oversubscribed */
	uint64_t decisions;	/* layers dispatched */
	uint64_t preemptions;	/* layers interrupted */
};

/*
 * mg_accel_run: serve req[0..n) (in arrival order; their results are
 * filled) with policy p (rng seed for random).  Returns 0 and *out, or
 * MG_EINVAL / MG_ENOMEM.  Deterministic.
 */
int mg_accel_run(const struct mg_accel_config *c, const struct mg_net *nets,
    size_t nnets, struct mg_accel_request *req, size_t n, enum mg_apolicy p,
    uint64_t seed, struct mg_arun *out);

/*
 * A learned dispatcher (RELMAS): at each dispatch it scores every pair
 * of one of the topk most urgent waiting requests (by deadline, or
 * with feasible the feasible ones first: MG_AP_FEDF's order) and an
 * idle sub-accelerator from MG_AFEAT features, and the pair picked runs.
 * The features (mg_afeat_names): the request's laxity, time to its
 * deadline and isolated latency left (over the networks' mean isolated
 * latency), how much slower its next layer runs here than on its best
 * dataflow, the layer's size (log10 of its time here over 0.1 ms), the
 * bandwidth it asks here (over the system's), whether its output must
 * move here, the dataflow here, the bandwidth the running layers ask,
 * the requests waiting (over 16), the idle sub-accelerators (over all)
 * and its rank by deadline (over topk).  With no_bw the two bandwidth
 * features are 0.  Rewards go to reward(): +1 for a request that meets
 * its deadline, -1 for one that misses, and -beta for each mean isolated
 * latency of time the bandwidth is oversubscribed.
 */
#define MG_AFEAT 12
extern const char *const mg_afeat_names[MG_AFEAT];

struct mg_accel_hook {
	/* the scores of n candidates (rows of MG_AFEAT); 0 or < 0 */
	int (*score)(void *ctx, const double *feat, size_t n, double *out);
	/* the candidate to take (NULL: the best score) */
	size_t (*pick)(void *ctx, const double *feat, const double *score,
	    size_t n);
	void (*reward)(void *ctx, double r);	/* may be NULL */
	/* the request of the pair taken, and a request's end (met or
	 * not); either may be NULL */
	void (*taken)(void *ctx, size_t request);
	void (*ended)(void *ctx, size_t request, int met);
	void *ctx;
	size_t topk;		/* 0: 6 */
	int no_bw;
	int budget;		/* only pairs whose bandwidth fits in what
				 * is left of B, when any does */
	int feasible;		/* the topk in MG_AP_FEDF's order (the
				 * requests that can still meet their
				 * deadlines first), not by deadline */
	double strict;		/* > 0: only the pairs whose layer runs
				 * within strict x its time on its
				 * network's best dataflow (or the fastest
				 * the system has); while requests
				 * still arrive and none is, the idle
				 * sub-accelerators wait, and a request
				 * past hope is a candidate only while all
				 * but one are idle (0: every pair) */
	double fit;		/* > 0, with strict: also the pairs whose
				 * layer ends within fit x the earliest
				 * any sub-accelerator could end it (a
				 * busy one after its layer, at the
				 * bandwidth now), while MG_ACCEL_FIT_IDLE
				 * or more are idle */
	double beta;
};

/*
 * mg_accel_place_score: MG_AP_PLACE's scores of n candidates (rows of
 * MG_AFEAT raw features, as a hook's score() gets them): minus their
 * rank by urgency (over topk) and twice how much slower the layer runs
 * on the pair's sub-accelerator than on its best dataflow.  Always 0.
 */
int mg_accel_place_score(void *ctx, const double *feat, size_t n,
    double *out);

/*
 * mg_accel_fit_score: MG_AP_FIT's scores of n candidates: minus their
 * rank by urgency (the first idle sub-accelerator wins a tie, as in
 * fedf).  Always 0.
 */
int mg_accel_fit_score(void *ctx, const double *feat, size_t n,
    double *out);

/*
 * mg_accel_run_hook: mg_accel_run() with the learned dispatcher h.
 * Returns as it, or the status score() returned.
 */
int mg_accel_run_hook(const struct mg_accel_config *c,
    const struct mg_net *nets,
    size_t nnets, struct mg_accel_request *req, size_t n,
    const struct mg_accel_hook *h, struct mg_arun *out);

/* a scenario: the system, the load, the networks */
struct mg_accel_scenario {
	struct mg_accel_config hw;
	double load;		/* offered work over capacity */
	double q;		/* deadline tightness */
	double burst;		/* arrivals' burst factor (1: Poisson) */
	size_t requests;
	uint64_t seed;		/* arrivals */
	char nets[256];		/* networks, by commas */
	/* measured cost tables (workload.h), "network:path" each */
	char costs[MG_NNETS][300];
	int ncosts;
};

/*
 * mg_accel_scenario_nets: the scenario's networks into nets (room for MG_NNETS)
 * with its measured cost tables; their count, or < 0 with d saying why
 * (an unknown network, a bad table).  Free each with mg_net_free().
 */
int mg_accel_scenario_nets(const struct mg_accel_scenario *sc,
    struct mg_net *nets,
    struct mg_diag *d);

/* mg_accel_scenario_default: 2 WS + 2 RS, load 0.5, q 2, 5000 requests of all
 * five networks, seed 1. */
void mg_accel_scenario_default(struct mg_accel_scenario *sc);

/*
 * mg_accel_scenario_set: one "Key=value": AccelWS, AccelRS (how many of each),
 * AccelPEs, Bandwidth and TransferBandwidth (GB/s), StaticWatts, Load,
 * Tightness, Burst, Requests, ArrivalSeed, Networks, Costs (network:file, a
 * measured table; again for another network), Drop (0 or 1).  Returns 0
 * or MG_EINVAL with d saying why.
 */
int mg_accel_scenario_set(struct mg_accel_scenario *sc,
    const char *kv, struct mg_diag *d);

#endif /* MG_ACCEL_H */
