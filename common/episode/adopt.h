/*
 * adopt.h: many chains at once.  A share of the trace's long-running
 * work becomes services, chains of jobs that each decide when to submit
 * their successors with one method, all inside one replay of the
 * cluster model; each decision sees the queue as it is then, the other
 * services' early successors included.  What that does to the other
 * jobs' waits is read against the same services submitting reactively
 * (mirage-eval(1), MANY CHAINS AT ONCE).
 *
 * The services replace work, they do not add it: jobs with a limit of at
 * least long_limit are taken in an order drawn from seed; each taken job
 * seeds a service on its nodes with its limit and user from its
 * submission for span seconds (to the trace's last submission at most),
 * and further taken jobs leave the trace until their node-hours pay for
 * the service's; taking stops once the services hold share of the long
 * jobs' node-hours.  A service's job runs to its limit (it serves until
 * it is stopped); its successor is submitted by the method, and with a
 * handover the predecessor ends handover seconds after the successor
 * starts.  A service whose successor is not submitted by its predecessor's
 * end submits it then.  Every service decides on the model as the tick
 * found it; the submissions follow, in the services' order.  The planner sees the queue of the model: the
 * other services' jobs are jobs in it, its own predecessor is the chain's.
 */
#ifndef MG_ADOPT_H
#define MG_ADOPT_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "cluster/cluster.h"
#include "episode/feature.h"
#include "plan/plan.h"

enum mg_adopt_method {
	MG_ADOPT_REACTIVE,	/* at the predecessor's end */
	MG_ADOPT_LEAD,		/* lead seconds before its end by its limit */
	MG_ADOPT_PLAN,		/* when the planner says, at a tick */
	MG_ADOPT_ASK		/* when the caller's rule says (a model of
				 * when), at a tick */
};

struct mg_adoptconf {
	double share;		/* of the long jobs' node-hours, [0, 0.9] */
	int64_t long_limit;	/* a long job's limit, at least: 24 h */
	int64_t span;		/* a service's span: 30 days */
	uint64_t seed;		/* which jobs */
	enum mg_adopt_method method;
	int64_t lead;		/* MG_ADOPT_LEAD */
	int64_t handover;	/* > 0: the successor takes over in so many
				 * seconds; 0: both run to their ends */
	int64_t tick;		/* how often services look: 600 s */
	const struct mg_planconf *pc;	/* MG_ADOPT_PLAN: the planner's
					 * settings (its history: the trace
					 * without the jobs replaced) */
	double lambda;		/* MG_ADOPT_PLAN: its price of an hour of
				 * overlap, or of lease given up */
	int threads;		/* MG_ADOPT_PLAN: a tick's decisions in
				 * parallel (the result does not depend
				 * on it): 1 */
	int64_t from, until;	/* the others counted were submitted in
				 * [from, until) */
	int64_t before;		/* and, apart, those in [before, from): the
				 * span a site knew when it chose (INT64_MIN:
				 * none) */
	/*
	 * MG_ADOPT_ASK: asked at each tick, one service after another,
	 * with the service's view (the day before in its recent jobs) and
	 * its chain now: 1 to submit, 0 to wait, or a negative status
	 */
	int (*ask)(void *arg, const struct mg_view *v,
	    const struct mg_chainnow *cn);
	void *ask_arg;
	/*
	 * MG_ADOPT_ASK, optional: a service of nodes nodes for which
	 * lead_of(ask_arg, nodes, now) is above 0 submits that many seconds
	 * before its predecessor's end by its limit (as MG_ADOPT_LEAD)
	 * instead of being asked
	 */
	int64_t (*lead_of)(void *arg, int32_t nodes, int64_t now);
	/*
	 * optional: every second replica of a service (the 2nd, 4th, ...)
	 * for which alt_lead_of(ask_arg, nodes, now) is above 0 submits
	 * that many seconds before its predecessor's end (another rule
	 * than the first replica's, whose misses then seldom coincide)
	 */
	int64_t (*alt_lead_of)(void *arg, int32_t nodes, int64_t now);
	int hold;		/* MG_ADOPT_LEAD, faithful model: each
				 * successor is submitted as soon as its
				 * predecessor runs (at a tick), held with a
				 * begin time until the lead says */
	int early_cap;		/* > 0: at most so many successors submitted
				 * before their predecessor's end wait at once
				 * (a successor QOS's GrpSubmitJobs); another
				 * is submitted at its predecessor's end */
	int low;		/* a successor submitted before its
				 * predecessor's end waits behind every other
				 * job until that end (a successor QOS of the
				 * lowest priority), then as if submitted
				 * then */
	double min_run;		/* a successor starts no earlier than its
				 * predecessor's start and this share of its
				 * limit (as held with --begin); 0: none */
	int32_t alone;		/* >= 0: only that service (in the order
				 * drawn) uses the method, the others
				 * submit reactively; -1: all of them */
	int32_t max_nodes;	/* > 0: only a job of at most so many nodes
				 * seeds a service (any pays for one) */
	int replicas;		/* each job taken seeds so many services
				 * on its nodes, the same service run as
				 * replicas, their first links submitted
				 * its limit / replicas apart: 1 */
};

/* mg_adoptconf_init: share 0, 24 h, 30 days, reactive, ticks of 600 s,
 * every service with the method, one replica */
void mg_adoptconf_init(struct mg_adoptconf *a);

#define MG_ADOPT_MAXREPLICAS 8

#define MG_ADOPT_CLASSES 5	/* all, 1, 2-4, 5-16, 17 and more nodes */

/* mg_adopt_class_name: "all", "nodes=1", "nodes=2-4", ... */
const char *mg_adopt_class_name(int k);

/* what one service's links did */
struct mg_adoptsvc {
	size_t successors, interrupted;
	double down_h, lease_h, twice_nh;
};

struct mg_adoptres {
	size_t services, removed;	/* services, trace jobs they replace */
	double service_nh, removed_nh;	/* the node-hours of each */
	double service_h;	/* the hours the services span */
	double long_nh;		/* the long jobs' node-hours */
	size_t links;		/* service jobs that ran */
	size_t successors;	/* links with a predecessor */
	size_t interrupted;	/* those that started after it ended */
	size_t span_successors;	/* links whose predecessor ended in
				 * [from, until) */
	size_t span_interrupted;	/* those that started after that end */
	struct {		/* the same in [before, from), all sizes */
		size_t others, successors, interrupted;
		double wait_mean_h, wait_p90_h;
	} pre;
	double down_h;		/* hours between such ends and starts */
	double lease_h;		/* hours of predecessors' limits given up */
	double twice_nh;	/* node-hours held by both at once */
	size_t others[MG_ADOPT_CLASSES];	/* other jobs counted */
	double wait_mean_h[MG_ADOPT_CLASSES];
	double wait_p90_h[MG_ADOPT_CLASSES];
	double queue_mean;	/* jobs waiting, over the ticks */
	/*
	 * the replicas of each job taken, together, over the span all of
	 * them served (from the last one's first start to the first one's
	 * last end) within [from, until): a replica is down from a link's
	 * end until its successor is ready, the handover's time after its
	 * start
	 */
	int replicas;		/* a group's services */
	size_t groups;		/* the groups measured */
	double group_h;		/* the hours measured, summed */
	double some_down_h;	/* of them, with a replica down */
	double none_up_h;	/* with none up */
	double worst_h;		/* the longest time with none up */
	struct mg_adoptsvc *svc;	/* each service's, in the order drawn,
					 * a job's replicas one after another */
	struct mg_trace kept;	/* the trace without the jobs replaced
				 * (its names borrowed from the input) */
	int64_t *start;		/* each kept job's start */
};

/*
 * mg_adopt_run: the services of a in one replay of def's trace (whose
 * whole span it replays).  Fills r; release it with mg_adopt_release().
 * With share 0 the replay is mg_cluster_replay()'s.  Returns 0, or
 * MG_EINVAL with d set (a setting the replay cannot take: preemption,
 * elastic jobs, loaning, a hold in the reference model or with another
 * method than a lead; a job that never starts), or MG_ENOMEM.
 */
int mg_adopt_run(const struct mg_clusterdef *def, const struct mg_adoptconf *a,
    struct mg_adoptres *r, struct mg_diag *d);

void mg_adopt_release(struct mg_adoptres *r);

/*
 * mg_adopt_view: what a service decides on: the queue of c now for a
 * successor of chain_nodes nodes (with the starts and ends of the last recent
 * seconds), the service's running link p its chain job, every other
 * service's jobs jobs of the queue.  0 or MG_ENOMEM.
 */
int mg_adopt_view(const struct mg_cluster *c, int32_t p, int32_t chain_nodes,
    int64_t recent, struct mg_view *v);

#endif /* MG_ADOPT_H */
