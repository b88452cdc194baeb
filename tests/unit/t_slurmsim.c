/*
 * t_slurmsim.c: the faithful (event-driven) model on micro traces worked
 * out by hand: 4 nodes, main scheduler on events, backfill every 30 s.
 */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "mirage.h"
#include "cluster/simconf_int.h"
#include "io/slurmfmt.h"
#include "cluster/slurmsim.h"
#include "cluster/preempt.h"
#include "tap.h"

static const int64_t T0 = 1700000000;

struct spec {
	int64_t at, limit, dur;		/* seconds from T0 */
	int32_t nodes, user;
};

static struct mg_trace_job jobs[32];
static struct mg_trace trace;

static void
make(const struct spec *s, size_t n, size_t nusers)
{
	size_t i;

	memset(jobs, 0, sizeof(jobs));
	for (i = 0; i < n; i++) {
		jobs[i].submit = T0 + s[i].at;
		jobs[i].limit = s[i].limit;
		jobs[i].dur = s[i].dur;
		jobs[i].nodes = s[i].nodes;
		jobs[i].user = s[i].user;
		jobs[i].uid = s[i].user;
		jobs[i].prio = -1;
		jobs[i].after = -1;
		jobs[i].part = -1;
		jobs[i].qos = -1;
		jobs[i].account = -1;
		jobs[i].eligible = -1;
		snprintf(jobs[i].id, sizeof(jobs[i].id), "%zu", 100 + i);
	}
	trace.job = jobs;
	trace.n = n;
	trace.nusers = nusers;
	trace.naccts = 0;
}

/*
 * the jobs of make(), users 0..3 as associations: users 0 and 1 in
 * account A, 2 and 3 in B; a fair-share cluster of 4 nodes without
 * backfill
 */
static void
two_accounts(const struct spec *s, size_t n, struct mg_slurmsim_params *c)
{
	static int32_t acct_of[] = { 0, 0, 1, 1 };
	size_t k;

	make(s, n, 4);
	trace.naccts = 2;
	trace.nassoc = 4;
	trace.assoc_acct = acct_of;
	for (k = 0; k < n; k++) {
		jobs[k].account = acct_of[jobs[k].user];
		jobs[k].assoc = jobs[k].user;
	}
	mg_slurmsim_params_default(c, 4);
	c->w_fairshare = 10000;
	c->bf_interval = 100000;
}

static void
run(struct mg_slurmsim_params *c, int64_t *st, size_t n)
{
	struct mg_slurmsim *s;
	size_t i;

	if (mg_slurmsim_new(c, &trace, T0, T0, T0 + 100000, &s) != 0 ||
	    mg_slurmsim_run_all(s) != 0)
		return;
	for (i = 0; i < n; i++)
		st[i] = mg_slurmsim_job_start(s, i) - T0;
	mg_slurmsim_free(s);
}

/* the configuration and the starts every scenario shares */
static struct mg_slurmsim_params c;
static int64_t st[8];

static void
backfill_a_short_job(void)
{
	/* X: 3 nodes for 3600 s; Y: 4 nodes; Z: 1 node, short */
	struct spec s[] = {
		{ 0, 3600, 3600, 3, 0 },
		{ 5, 3600, 3600, 4, 0 },
		{ 7, 1200, 600, 1, 0 },
	};
	make(s, 3, 1);
	run(&c, st, 3);
	ok(st[0] == 0, "a job starts the second it arrives (%lld)",
	    (long long)st[0]);
	ok(st[2] == 30, "the short job is backfilled at the next "
	    "backfill run, 30 s (%lld)", (long long)st[2]);
	ok(st[1] == 3600, "the big job starts the second X ends (%lld)",
	    (long long)st[1]);
}

static void
backfill_keeps_the_reservation(void)
{
	struct spec s[] = {
		{ 0, 3600, 3600, 3, 0 },
		{ 5, 3600, 3600, 4, 0 },
		{ 7, 7200, 600, 1, 0 },	/* its limit crosses Y's start */
	};
	make(s, 3, 1);
	run(&c, st, 3);
	ok(st[2] == 7200, "a job whose limit would delay the reservation "
	    "is not backfilled (%lld)", (long long)st[2]);
}

static void
limit_of_jobs_per_user(void)
{
	/* one user's third job waits for a slot; another's does not */
	struct spec s[] = {
		{ 0, 1000, 1000, 1, 0 },
		{ 0, 2000, 2000, 1, 0 },
		{ 1, 100, 100, 1, 0 },
		{ 2, 100, 100, 1, 1 },
	};
	make(s, 4, 2);
	c.max_jobs_per_user = 2;
	run(&c, st, 4);
	ok(st[2] == 1000 && st[3] == 2, "MaxJobsPerUser=2: the third job "
	    "waits for the user's first to end (%lld); another user's "
	    "job behind it is not blocked (%lld)", (long long)st[2],
	    (long long)st[3]);
	c.max_jobs_per_user = 0;
	run(&c, st, 4);
	ok(st[2] == 1, "without the limit it starts at once (%lld)",
	    (long long)st[2]);
	c.max_nodes_per_user = 2;
	run(&c, st, 4);
	ok(st[2] == 1000 && st[3] == 2, "MaxNodesPerUser=2 holds the "
	    "third 1-node job the same way (%lld, %lld)",
	    (long long)st[2], (long long)st[3]);
	c.max_nodes_per_user = 0;
}

static void
age_capped_at_max_age(void)
{
	/* age capped: an old small job and a young big one */
	struct spec s[] = {
		{ 0, 7200, 7200, 4, 0 },
		{ 10, 600, 600, 1, 0 },	/* waits 7190 s */
		{ 7000, 600, 600, 4, 0 },	/* waits 200 s, 4 nodes */
	};
	make(s, 3, 1);
	c.w_age = 1000;
	c.w_size = 1000;
	c.max_age = 3600;	/* the old job's age factor is full */
	c.bf_interval = 100000;	/* the main scheduler alone */
	run(&c, st, 3);
	/* old: 1000 + 250; young big: 1000 * 200/3600 + 1000 = 1056 */
	ok(st[1] == 7200 && st[2] == 7800, "capped age (1250) beats size "
	    "(1056): %lld, %lld", (long long)st[1], (long long)st[2]);
	c.max_age = 100000;	/* now the age is 7190/100000 */
	run(&c, st, 3);
	ok(st[2] == 7200 && st[1] == 7800, "uncapped, small age loses to "
	    "size: %lld, %lld", (long long)st[2], (long long)st[1]);
}

static void
dependency_waits_for_its_end(void)
{
	/* a dependency: the second job waits for the first to end */
	struct spec s[] = {
		{ 0, 600, 300, 1, 0 },
		{ 10, 600, 100, 1, 0 },
	};
	make(s, 2, 1);
	mg_slurmsim_params_default(&c, 4);
	jobs[1].after = 0;
	run(&c, st, 2);
	ok(st[1] == 300, "a job that depends on another starts when it "
	    "ends (%lld)", (long long)st[1]);
}

static void
capacity_falls(void)
{
	/* capacity falls to 1 node from 100 s to 1000 s */
	static const int64_t ct[] = { T0 + 100, T0 + 1000 };
	static const int32_t cn[] = { 1, 4 };
	struct spec s[] = {
		{ 0, 600, 500, 2, 0 },	/* running through the drop */
		{ 200, 600, 60, 2, 0 },	/* no room until 1000 */
		{ 1100, 600, 60, 4, 0 },
	};
	make(s, 3, 1);
	mg_slurmsim_params_default(&c, 4);
	c.cap_time = ct;
	c.cap_nodes = cn;
	c.cap_n = 2;
	run(&c, st, 3);
	ok(st[0] == 0 && st[1] == 1000 && st[2] == 1100, "capacity below "
	    "the running jobs drains the cluster; starts resume when it "
	    "comes back: %lld, %lld", (long long)st[1], (long long)st[2]);
}

static void
warm_start(void)
{
	/* warm start at T0: A runs since -50 until 150, B is queued */
	struct spec s[] = {
		{ -100, 600, 200, 4, 0 },
		{ -10, 600, 60, 1, 0 },
		{ 20, 600, 60, 1, 0 },
	};
	struct mg_slurmsim *w;

	make(s, 3, 1);
	jobs[0].start = T0 - 50;
	jobs[1].start = T0 + 150;	/* its real start: after T0 */
	jobs[2].start = T0 + 150;
	mg_slurmsim_params_default(&c, 4);
	mg_slurmsim_new_warm(&c, &trace, T0, T0 + 1000, &w);
	mg_slurmsim_run_all(w);
	ok(mg_slurmsim_job_start(w, 0) == T0 - 50 &&
	    mg_slurmsim_job_start(w, 1) == T0 + 150 &&
	    mg_slurmsim_job_start(w, 2) == T0 + 150, "warm start: the "
	    "job running at t0 keeps its nodes to its end; the queued "
	    "and later jobs start then (%lld, %lld)", (long long)
	    (mg_slurmsim_job_start(w, 1) - T0), (long long)
	    (mg_slurmsim_job_start(w, 2) - T0));
	mg_slurmsim_free(w);
}

static void
chain_p_then_s(void)
{
	/* a chain: P, then S submitted early (overlap) or late */
	struct mg_slurmsim *a, *b;
	int32_t p, q;
	int okx;
	int64_t x;

	make(NULL, 0, 1);
	mg_slurmsim_params_default(&c, 8);
	mg_slurmsim_new(&c, &trace, T0, T0, T0, &a);
	p = mg_slurmsim_add_job(a, 4, 1000, 1000, T0, -1, -1);
	mg_slurmsim_run_until_start(a, p, T0 + 100000);
	b = mg_slurmsim_copy(a);
	q = mg_slurmsim_add_job(a, 4, 1000, 1000, T0 + 300, p, -1);
	mg_slurmsim_run_until_start(a, q, T0 + 100000);
	x = mg_slurmsim_chain_gap(a, q, &okx);
	ok(okx && x == -700, "a successor submitted 700 s before its "
	    "predecessor's end on free nodes overlaps by 700 s (%lld)",
	    (long long)x);
	q = mg_slurmsim_add_job(b, 8, 1000, 1000, T0 + 300, p, -1);
	mg_slurmsim_run_until_start(b, q, T0 + 100000);
	x = mg_slurmsim_chain_gap(b, q, &okx);
	ok(okx && x == 0, "one that needs the predecessor's nodes "
	    "starts at its end: x = 0 (%lld)", (long long)x);
	mg_slurmsim_free(a);
	mg_slurmsim_free(b);
}

static void
two_partitions(void)
{
	/* two partitions of 2 nodes: one full does not stop the other */
	struct spec s[] = {
		{ 0, 600, 600, 2, 0 },	/* fills partition 0 */
		{ 10, 600, 60, 2, 0 },	/* waits in partition 0 */
		{ 20, 600, 60, 2, 0 },	/* partition 1: starts */
	};
	make(s, 3, 1);
	jobs[0].part = jobs[1].part = 0;
	jobs[2].part = 1;
	mg_slurmsim_params_default(&c, 4);
	c.nparts = 2;
	c.part_nodes[0] = c.part_nodes[1] = 2;
	c.bf_interval = 100000;		/* the main scheduler alone */
	run(&c, st, 3);
	ok(st[0] == 0 && st[1] == 600 && st[2] == 20, "a blocked head "
	    "holds only its own partition: %lld, %lld, %lld",
	    (long long)st[0], (long long)st[1], (long long)st[2]);
	c.nparts = 0;
	run(&c, st, 3);
	ok(st[1] == 10 && st[2] == 70, "in one pool of 4 the second job "
	    "fits at once and the third waits for it (%lld, %lld)",
	    (long long)st[1], (long long)st[2]);
}

static void
overlapping_partitions(void)
{
	/*
	 * Overlapping partitions: "big" on all 4 nodes, "debug" on
	 * the last 2 (pool 0: nodes 1-2, big only; pool 1: nodes
	 * 3-4, both).  B (big, 3 nodes) cannot start while A holds
	 * nodes 1-2: the main scheduler then leaves big's nodes
	 * alone, so C (debug) does not start on arrival; backfill
	 * at 30 s reserves nodes 1-2 and one of 3-4 for B at 600
	 * and starts C on the other.
	 */
	struct spec s[] = {
		{ 0, 600, 600, 2, 0 },		/* A: big */
		{ 10, 600, 60, 3, 0 },		/* B: big */
		{ 20, 3600, 3600, 1, 0 },	/* C: debug */
	};
	make(s, 3, 1);
	jobs[0].part = jobs[1].part = 0;
	jobs[2].part = 1;
	mg_slurmsim_params_default(&c, 4);
	c.nparts = 2;
	c.npools = 2;
	c.pool_nodes[0] = c.pool_nodes[1] = 2;
	c.part_pools[0] = 3;
	c.part_pools[1] = 2;
	c.part_nodes[0] = 4;
	c.part_nodes[1] = 2;
	run(&c, st, 3);
	ok(st[0] == 0 && st[1] == 600 && st[2] == 30, "overlapping "
	    "partitions: a blocked big job holds the shared nodes "
	    "from the main scheduler, backfill starts the debug job "
	    "beside its reservation: %lld, %lld, %lld",
	    (long long)st[0], (long long)st[1], (long long)st[2]);
}

static void
reservation_on_shared_nodes(void)
{
	/*
	 * A reservation holds shared nodes against another
	 * partition's jobs.  A (big) holds nodes 1-2 to 600, B
	 * (debug) nodes 3-4 to 300; C (big, 4 nodes) is reserved
	 * all 4 at 600.  When B ends, D (debug, 1000 s, limit 1 h)
	 * would delay C and waits; E (debug, 120 s) fits before
	 * 600 and starts at 300.  C runs 600-660, then D.
	 */
	struct spec s[] = {
		{ 0, 600, 600, 2, 0 },		/* A: big */
		{ 0, 300, 300, 2, 1 },		/* B: debug */
		{ 10, 600, 60, 4, 2 },		/* C: big */
		{ 20, 3600, 1000, 1, 3 },	/* D: debug */
		{ 25, 120, 120, 1, 4 },		/* E: debug */
	};
	make(s, 5, 5);
	jobs[0].part = jobs[2].part = 0;
	jobs[1].part = jobs[3].part = jobs[4].part = 1;
	run(&c, st, 5);
	ok(st[0] == 0 && st[1] == 0 && st[2] == 600 && st[3] == 660 &&
	    st[4] == 300, "a reservation on shared nodes: %lld %lld "
	    "%lld %lld %lld", (long long)st[0], (long long)st[1],
	    (long long)st[2], (long long)st[3], (long long)st[4]);
	/* as disjoint partitions of 2 and 2 nodes, C never fits */
	c.npools = 0;
	c.part_nodes[0] = c.part_nodes[1] = 2;
	jobs[2].nodes = 2;
	run(&c, st, 5);
	ok(st[2] == 600 && st[3] == 300 && st[4] == 300, "the same as "
	    "disjoint partitions: D starts at B's end (%lld, %lld)",
	    (long long)st[3], (long long)st[4]);
}

static void
partition_priority_tiers(void)
{
	/* two partitions on the same 4 nodes; C's partition has the
	 * higher PriorityJobFactor */
	struct spec s[] = {
		{ 0, 600, 600, 4, 0 },	/* A: low */
		{ 10, 600, 60, 4, 1 },	/* B: low */
		{ 20, 600, 60, 4, 2 },	/* C: high */
	};
	make(s, 3, 3);
	jobs[0].part = jobs[1].part = 0;
	jobs[2].part = 1;
	mg_slurmsim_params_default(&c, 4);
	c.nparts = 2;
	c.npools = 1;
	c.pool_nodes[0] = 4;
	c.part_pools[0] = c.part_pools[1] = 1;
	c.part_nodes[0] = c.part_nodes[1] = 4;
	c.part_prio[0] = 1;
	c.part_prio[1] = 10;
	c.w_part = 10000;
	run(&c, st, 3);
	ok(st[1] == 660 && st[2] == 600, "PriorityWeightPartition: the "
	    "higher partition first (B %lld, C %lld)",
	    (long long)st[1], (long long)st[2]);
	c.w_part = 0;
	run(&c, st, 3);
	ok(st[1] == 600 && st[2] == 660, "without it, age decides (B "
	    "%lld, C %lld)", (long long)st[1], (long long)st[2]);
}

static void
maintenance_reservation(void)
{
	/*
	 * A maintenance reservation of all 4 nodes over [1000,
	 * 2000), announced.  B's limit would run into it: it waits
	 * for its end, and C, short enough, is backfilled before it.
	 * At 2000 D goes first (its size factor outweighs B's few
	 * more minutes of age), then B.
	 */
	static const int64_t rt[] = { 1000 + T0, 2000 + T0 };
	static const int32_t rn[] = { 4, 0 };
	struct spec s[] = {
		{ 0, 600, 600, 2, 0 },		/* A */
		{ 500, 600, 100, 2, 1 },	/* B: to 1100 */
		{ 520, 300, 300, 1, 2 },	/* C: to 820 */
		{ 1500, 600, 600, 4, 3 },	/* D: in it */
	};
	make(s, 4, 4);
	mg_slurmsim_params_default(&c, 4);
	c.resv_time = rt;
	c.resv_nodes = rn;
	c.resv_n = 2;
	run(&c, st, 4);
	ok(st[0] == 0 && st[1] == 2600 && st[2] == 540 && st[3] == 2000,
	    "a reservation: nothing runs into it, short jobs run "
	    "before it (%lld %lld %lld %lld)", (long long)st[0],
	    (long long)st[1], (long long)st[2], (long long)st[3]);
	c.resv_n = 0;
	run(&c, st, 4);
	ok(st[1] == 500 && st[2] == 600 && st[3] == 1500, "without it, "
	    "B runs at once and C after A (%lld %lld %lld)", (long long)st[1], (long long)st[2],
	    (long long)st[3]);
}

static void
hostlists_and_pools(void)
{
	/* the configuration: hostlists, pools in slurm.conf's order */
	struct mg_simconf sc;
	struct mg_diag d = { "" };
	char debug[] = "debug", big[] = "big";
	char *names[] = { debug, big }, **h = NULL;
	size_t nh = 0, caph = 0, i;
	int r;

	r = mg_hostlist("gpu[08-10,1],r[1-2]n[1-2],x", 27, &h, &nh,
	    &caph, &d);
	ok(r == 0 && nh == 9 && strcmp(h[0], "gpu08") == 0 &&
	    strcmp(h[2], "gpu10") == 0 && strcmp(h[3], "gpu1") == 0 &&
	    strcmp(h[5], "r1n2") == 0 && strcmp(h[6], "r2n1") == 0 &&
	    strcmp(h[8], "x") == 0, "a hostlist of ranges, padded, "
	    "nested and plain (%zu names)", nh);
	for (i = 0; i < nh; i++)
		free(h[i]);
	free(h);
	h = NULL;
	nh = caph = 0;
	ok(mg_hostlist("gpu[1-", 6, &h, &nh, &caph, &d) != 0 &&
	    mg_hostlist("gpu[3-1]", 8, &h, &nh, &caph, &d) != 0 &&
	    mg_hostlist("a,,b", 4, &h, &nh, &caph, &d) != 0,
	    "bad hostlists are refused (%s)", d.msg);
	for (i = 0; i < nh; i++)
		free(h[i]);
	free(h);
	mg_simconf_init(&sc);
	r = mg_simconf_set(&sc, "NodeName=g[01-84] Gres=gpu:3", &d) ||
	    mg_simconf_set(&sc, "PartitionName=big Nodes=ALL "
	    "Default=YES", &d) ||
	    mg_simconf_set(&sc, "PartitionName=debug Nodes=g[81-84] "
	    "PriorityJobFactor=5", &d) ||
	    mg_simconf_set(&sc, "PartitionName=other Nodes=3", &d) ||
	    mg_simconf_set(&sc, "FairshareBy=tree", &d) ||
	    mg_simconf_set(&sc, "PriorityCalcPeriod=2", &d) ||
	    mg_simconf_partitions(&sc, names, 2, &d);
	ok(r == 0 && sc.slurm.npools == 3 && sc.slurm.pool_nodes[0] ==
	    80 && sc.slurm.pool_nodes[1] == 4 &&
	    sc.slurm.pool_nodes[2] == 3 && sc.slurm.part_pools[0] == 2 &&
	    sc.slurm.part_pools[1] == 3 && sc.slurm.part_nodes[0] == 4 &&
	    sc.slurm.part_nodes[1] == 84 && sc.slurm.nodes == 87 &&
	    sc.slurm.part_prio[0] == 5 && sc.slurm.part_prio[1] == 1 &&
	    sc.slurm.fs_by == MG_FS_TREE && sc.slurm.calc_period == 120,
	    "pools: 80 nodes of big alone, 4 shared, 3 of their own "
	    "(%s)", d.msg);
	mg_simconf_init(&sc);
	r = mg_simconf_set(&sc, "NodeName=g[01-04]", &d) ||
	    mg_simconf_set(&sc, "PartitionName=big Nodes=g[01-05]",
	    &d) || mg_simconf_partitions(&sc, names + 1, 1, &d);
	ok(r != 0 && strstr(d.msg, "'g05'") != NULL, "a node on no "
	    "NodeName= line: %s", d.msg);
}

static void
qos_priority(void)
{
	/* QOS priority: C's QOS outranks B's age */
	struct spec s[] = {
		{ 0, 600, 600, 4, 0 },		/* A fills the cluster */
		{ 10, 600, 600, 4, 0 },		/* B, QOS 0 */
		{ 20, 600, 600, 4, 0 },		/* C, QOS 1 */
	};
	make(s, 3, 1);
	jobs[1].qos = 0;
	jobs[2].qos = 1;
	mg_slurmsim_params_default(&c, 4);
	c.bf_interval = 100000;
	c.nqos = 2;
	c.qos_prio[0] = 10;
	c.qos_prio[1] = 100;
	c.w_qos = 10000;
	run(&c, st, 3);
	ok(st[2] == 600 && st[1] == 1200, "the higher QOS starts first "
	    "(C %lld, B %lld)", (long long)st[2], (long long)st[1]);
	c.w_qos = 0;
	run(&c, st, 3);
	ok(st[1] == 600 && st[2] == 1200, "without PriorityWeightQOS, "
	    "age decides (B %lld, C %lld)", (long long)st[1],
	    (long long)st[2]);
}

static void
qos_jobs_per_user(void)
{
	/* a QOS's per-user limit holds only that QOS's jobs */
	struct spec s[] = {
		{ 0, 600, 600, 1, 0 },		/* QOS 0 */
		{ 10, 600, 600, 1, 0 },		/* QOS 0: over its limit */
		{ 20, 600, 600, 1, 0 },		/* QOS 1 */
	};
	make(s, 3, 1);
	jobs[0].qos = jobs[1].qos = 0;
	jobs[2].qos = 1;
	mg_slurmsim_params_default(&c, 4);
	c.nqos = 2;
	c.qos_max_jobs_pu[0] = 1;
	run(&c, st, 3);
	ok(st[0] == 0 && st[1] == 600 && st[2] == 20, "MaxJobsPerUser=1 "
	    "of QOS 0 holds its second job, not the other QOS's: %lld, "
	    "%lld, %lld", (long long)st[0], (long long)st[1],
	    (long long)st[2]);
}

static void
qos_nodes_per_user(void)
{
	/* a QOS's per-user node limit, on 8 nodes */
	struct spec s[] = {
		{ 0, 600, 600, 1, 0 },		/* QOS 0 */
		{ 20, 600, 600, 2, 0 },		/* QOS 1 */
		{ 30, 600, 600, 1, 0 },		/* QOS 1: 3 > 2 nodes */
	};
	make(s, 3, 1);
	jobs[0].qos = 0;
	jobs[1].qos = jobs[2].qos = 1;
	mg_slurmsim_params_default(&c, 8);
	c.nqos = 2;
	c.qos_max_nodes_pu[1] = 2;
	run(&c, st, 3);
	ok(st[0] == 0 && st[1] == 20 && st[2] == 620, "MaxNodesPerUser=2 "
	    "of QOS 1 holds the job that would make 3: %lld, %lld, %lld",
	    (long long)st[0], (long long)st[1], (long long)st[2]);
	c.qos_max_nodes_pu[1] = 3;
	run(&c, st, 3);
	ok(st[2] == 30, "with 3 allowed it starts at once (%lld)",
	    (long long)st[2]);
}

static void
eligible_time(void)
{
	/* Eligible: not before it; age counts from it */
	struct spec s[] = {
		{ 0, 1000, 1000, 4, 0 },	/* A fills the cluster */
		{ 10, 600, 600, 4, 0 },		/* X, eligible at 300 */
		{ 100, 600, 600, 4, 0 },	/* Y */
		{ 0, 600, 60, 1, 0 },		/* E: alone, later */
	};
	make(s, 3, 1);
	jobs[1].eligible = T0 + 300;
	mg_slurmsim_params_default(&c, 4);
	c.bf_interval = 100000;
	run(&c, st, 3);
	ok(st[2] == 1000 && st[1] == 1600, "X's age counts from its "
	    "Eligible time, so Y goes first (Y %lld, X %lld)",
	    (long long)st[2], (long long)st[1]);
	jobs[1].eligible = -1;
	run(&c, st, 3);
	ok(st[1] == 1000 && st[2] == 1600, "without it X is older "
	    "(X %lld, Y %lld)", (long long)st[1], (long long)st[2]);
	make(s + 3, 1, 1);
	jobs[0].eligible = T0 + 540;
	mg_slurmsim_params_default(&c, 4);
	run(&c, st, 1);
	ok(st[0] >= 540 && st[0] < 600, "an idle cluster does not start "
	    "a job before its Eligible time (%lld)", (long long)st[0]);
}

static void
backfill_only_on_change(void)
{
	/*
	 * Backfill runs only when something changed since its last
	 * pass (Slurm's _more_work()): C's Eligible time passing is
	 * no change, so C, which only backfill can start (B blocks
	 * the main scheduler), waits for the next priority
	 * calculation (at 300, a period after the first) rather
	 * than starting at the backfill tick after 150.
	 */
	struct spec s[] = {
		{ 0, 3600, 3600, 2, 0 },	/* A: half the nodes */
		{ 5, 600, 600, 4, 0 },		/* B: waits for A */
		{ 10, 600, 600, 1, 0 },		/* C: eligible at 150 */
	};
	make(s, 3, 1);
	jobs[2].eligible = T0 + 150;
	mg_slurmsim_params_default(&c, 4);
	run(&c, st, 3);
	ok(st[0] == 0 && st[1] == 3600 && st[2] == 300, "a backfill "
	    "tick with nothing changed is skipped: C starts at 300, "
	    "when the priorities are set (A %lld, B %lld, C "
	    "%lld)", (long long)st[0], (long long)st[1],
	    (long long)st[2]);
	jobs[2].eligible = -1;
	run(&c, st, 3);
	ok(st[2] == 30, "eligible at once, C starts at the first "
	    "backfill pass (%lld)", (long long)st[2]);
}

static void
fair_share_by_account(void)
{
	/* fair-share by account: users 0 and 1 share account 0, which
	 * user 0 used; user 2 is in account 1 */
	struct spec s[] = {
		{ 0, 3600, 3600, 4, 0 },
		{ 100, 600, 600, 4, 1 },	/* older; account 0 */
		{ 200, 600, 600, 4, 2 },	/* account 1 */
	};
	make(s, 3, 3);
	trace.naccts = 2;
	jobs[0].account = jobs[1].account = 0;
	jobs[2].account = 1;
	mg_slurmsim_params_default(&c, 4);
	c.w_fairshare = 10000;
	c.bf_interval = 100000;
	run(&c, st, 3);
	ok(st[1] == 3600 && st[2] == 4200, "by user, neither user has "
	    "used the cluster: the older job first (%lld, %lld)",
	    (long long)st[1], (long long)st[2]);
	c.fs_by = MG_FS_ACCOUNT;
	run(&c, st, 3);
	ok(st[2] == 3600 && st[1] == 4200, "by account, user 1 pays for "
	    "user 0's use of their account (%lld, %lld)",
	    (long long)st[2], (long long)st[1]);
}

static void
fair_tree(void)
{
	/*
	 * Fair Tree: account A (users 0 and 1) has used 3 node-hours,
	 * account B (users 2 and 3) 1, by users 0 and 2.  By user,
	 * the users who have not run go first, the older first (1,
	 * 3, 2); by account, B's jobs first, the older first (2, 3,
	 * 1); Fair Tree ranks B's users above A's, and within B the
	 * user who has not run above the one who has (3, 2, 1).
	 */
	struct spec s[] = {
		{ 0, 3600, 3600, 3, 0 },
		{ 0, 3600, 3600, 1, 2 },
		{ 100, 600, 600, 4, 1 },	/* P1: user 1, A */
		{ 200, 600, 600, 4, 2 },	/* P2: user 2, B */
		{ 300, 600, 600, 4, 3 },	/* P3: user 3, B */
	};

	two_accounts(s, 5, &c);
	run(&c, st, 5);
	ok(st[2] == 3600 && st[4] == 4200 && st[3] == 4800, "by user: "
	    "P1, P3, P2 (%lld %lld %lld)", (long long)st[2],
	    (long long)st[3], (long long)st[4]);
	c.fs_by = MG_FS_ACCOUNT;
	run(&c, st, 5);
	ok(st[3] == 3600 && st[4] == 4200 && st[2] == 4800, "by "
	    "account: P2, P3, P1 (%lld %lld %lld)", (long long)st[2],
	    (long long)st[3], (long long)st[4]);
	c.fs_by = MG_FS_TREE;
	run(&c, st, 5);
	ok(st[4] == 3600 && st[3] == 4200 && st[2] == 4800, "Fair "
	    "Tree: P3, P2, P1 (%lld %lld %lld)", (long long)st[2],
	    (long long)st[3], (long long)st[4]);
	/* ranks computed at 0, when nobody had used anything, and
	 * not again for a day: all tie, age decides */
	c.calc_period = 86400;
	run(&c, st, 5);
	ok(st[2] == 3600 && st[3] == 4200 && st[4] == 4800, "Fair "
	    "Tree ranks last for PriorityCalcPeriod: P1, P2, P3 (%lld "
	    "%lld %lld)", (long long)st[2], (long long)st[3],
	    (long long)st[4]);
	trace.nassoc = 0;
	trace.assoc_acct = NULL;
}

static void
fair_tree_tie(void)
{
	/*
	 * Fair Tree, accounts that tie: A (users 0 and 1) and B
	 * (users 2 and 3) have each used 2 node-hours, all by users
	 * 0 and 2.  Slurm merges tied accounts' users: 1 and 3 (no
	 * usage) rank first, 0 and 2 below them, so user 3's P3 goes
	 * before user 0's older P0; taking A before B would rank all
	 * of A's users above B's.
	 */
	struct spec s[] = {
		{ 0, 3600, 3600, 2, 0 },
		{ 0, 3600, 3600, 2, 2 },
		{ 100, 600, 600, 4, 0 },	/* P0: user 0, A */
		{ 200, 600, 600, 4, 3 },	/* P3: user 3, B */
	};

	two_accounts(s, 4, &c);
	c.fs_by = MG_FS_TREE;
	run(&c, st, 4);
	ok(st[3] == 3600 && st[2] == 4200, "Fair Tree merges the users "
	    "of tied accounts: P3 before the older P0 (%lld %lld)",
	    (long long)st[3], (long long)st[2]);
	trace.nassoc = 0;
	trace.assoc_acct = NULL;
}

static void
fair_share_by_user(void)
{
	/* fair-share: user 0 used the cluster, user 1 did not */
	struct spec s[] = {
		{ 0, 3600, 3600, 4, 0 },
		{ 100, 600, 600, 4, 0 },	/* older, but user 0 */
		{ 200, 600, 600, 4, 1 },
	};
	make(s, 3, 2);
	mg_slurmsim_params_default(&c, 4);
	c.w_fairshare = 10000;
	c.bf_interval = 100000;
	run(&c, st, 3);
	ok(st[2] == 3600 && st[1] == 4200, "fair-share puts the user who "
	    "has not run first (%lld, %lld)", (long long)st[2],
	    (long long)st[1]);
	c.w_fairshare = 0;
	run(&c, st, 3);
	ok(st[1] == 3600 && st[2] == 4200, "without it, the older job "
	    "goes first (%lld, %lld)", (long long)st[1], (long long)st[2]);
}

static void
copy_midway(void)
{
	struct spec s[12];
	struct mg_slurmsim *a, *b;
	int i, same = 1;

	for (i = 0; i < 12; i++) {
		s[i].at = i * 97 % 700;
		s[i].limit = 600 + i * 311 % 3000;
		s[i].dur = s[i].limit / (1 + i % 3);
		s[i].nodes = 1 + i % 4;
		s[i].user = i % 3;
	}
	make(s, 12, 3);
	mg_slurmsim_params_default(&c, 4);
	c.max_jobs_per_user = 2;
	mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &a);
	mg_slurmsim_run(a, T0 + 333);
	b = mg_slurmsim_copy(a);
	mg_slurmsim_run_all(a);
	mg_slurmsim_run_all(b);
	for (i = 0; i < 12; i++)
		if (mg_slurmsim_job_start(a, (size_t)i) < 0 ||
		    mg_slurmsim_job_start(a, (size_t)i) !=
		    mg_slurmsim_job_start(b, (size_t)i))
			same = 0;
	ok(same, "a copy taken midway continues exactly like the "
	    "original");
	mg_slurmsim_free(a);
	mg_slurmsim_free(b);
}

static void
priority_calc_period(void)
{
	/*
	 * Slurm sets priorities every PriorityCalcPeriod (300 s;
	 * periods start at T0 - 200, T0 + 100, T0 + 400) and on
	 * submission.  A (1 node, at 110) and B (1 node, at 350,
	 * recorded priority 3 x 0.1 = 0.3): at 350 A's priority as
	 * set on its submission is 0, so B is ahead of it, though A's
	 * age alone is worth 1000 x 240 / 604800 = 0.40 by then; at
	 * T0 + 400 A's is set to 0.48 and A is ahead.  One node frees
	 * at E.
	 */
	static const int64_t ends[] = { 380, 420 };
	size_t e;

	for (e = 0; e < 2; e++) {
		struct spec s[] = {
			{ 0, 20000, 10000, 3, 0 },
			{ 0, 20000, ends[e], 1, 1 },
			{ 110, 600, 600, 1, 2 },	/* A */
			{ 350, 600, 600, 1, 3 },	/* B */
		};
		make(s, 4, 4);
		jobs[3].prio = 3;
		mg_slurmsim_params_default(&c, 4);
		c.w_size = 0;
		c.w_trace = 0.1;
		c.bf_interval = 100000;
		run(&c, st, 4);
		if (e == 0)
			ok(st[3] == 380 && st[2] == 980, "PriorityCalc"
			    "Period: a node free at 380 goes to B, whose "
			    "priority is above A's as last set (B %lld, "
			    "A %lld)", (long long)st[3],
			    (long long)st[2]);
		else
			ok(st[2] == 420 && st[3] == 1020, "... and at "
			    "420, after the period's start at 400, to A "
			    "(A %lld, B %lld)", (long long)st[2],
			    (long long)st[3]);
	}
}

static void
default_queue_depth(void)
{
	/*
	 * default_queue_depth: a job's end tests that many jobs; the
	 * periodic run (every 60 s from T0) all.  User 0 may run one
	 * job and runs R, so H1 and H2 are held; J (user 2) is behind
	 * them.  Q's end at 500 frees a node.
	 */
	struct spec s[] = {
		{ 0, 20000, 10000, 3, 0 },	/* R */
		{ 0, 20000, 500, 1, 1 },	/* Q */
		{ 10, 600, 600, 1, 0 },		/* H1 */
		{ 11, 600, 600, 1, 0 },		/* H2 */
		{ 12, 600, 600, 1, 2 },		/* J */
	};
	make(s, 5, 3);
	mg_slurmsim_params_default(&c, 4);
	c.max_jobs_per_user = 1;
	c.bf_interval = 100000;
	c.queue_depth = 2;
	run(&c, st, 5);
	ok(st[4] == 540, "default_queue_depth=2: the end at 500 tests "
	    "the two held jobs only; J starts at the periodic run, "
	    "540 (%lld)", (long long)st[4]);
	c.queue_depth = 3;
	run(&c, st, 5);
	ok(st[4] == 500, "default_queue_depth=3: J starts at 500 "
	    "(%lld)", (long long)st[4]);
}

static void
preemption_requeue(void)
{
	/*
	 * Preemption.  B (best-effort, 4 nodes, 10000 s of work,
	 * epochs of 1000 s, a checkpoint of nothing, a resume of
	 * 100 s) runs from 0; U (urgent, 2 nodes, 600 s) comes at
	 * 2500.  B finishes its epoch at 3000 and its nodes come
	 * free; U starts then.  Requeued, B has 7000 s left plus
	 * 100 s to resume: it starts when U ends, 3600, and ends at
	 * 10700.  Cancelled, it ends at 3000.
	 */
	static struct mg_dlattr dl[2];
	struct spec s[] = {
		{ 0, 20000, 10000, 4, 0 },	/* B */
		{ 2500, 600, 600, 2, 1 },	/* U */
	};
	struct mg_slurmsim *sim;
	struct mg_joblife b, u;
	static const int64_t exempt[] = { 0, 2800, 3500 };
	static const int64_t want[] = { 3000, 3000, 4000 };
	size_t e;

	memset(dl, 0, sizeof(dl));
	dl[0].epoch_s = 1000;
	dl[0].init_s = 100;
	dl[1].epoch_s = 1000;
	dl[1].urgent = 1;
	make(s, 2, 2);
	mg_slurmsim_params_default(&c, 4);
	c.bf_interval = 100000;
	c.dl = dl;
	mg_dlgen_default(&c.dlgen);
	c.w_urgent = 1e6;
	c.victims = MG_VICTIM_PICKYMAN;
	c.preempt_mode = MG_PREEMPT_REQUEUE;
	mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
	mg_slurmsim_run_all(sim);
	mg_slurmsim_job_preempt(sim, 0, &b);
	mg_slurmsim_job_preempt(sim, 1, &u);
	ok(u.first_start == T0 + 3000 && b.first_start == T0 &&
	    mg_slurmsim_job_start(sim, 0) == T0 + 3600 &&
	    b.end == T0 + 10700 && b.npreempt == 1 && b.lost == 400 &&
	    u.urgent && !b.urgent, "PreemptMode=REQUEUE: U starts at "
	    "B's release, 3000 (%lld); B again at 3600 (%lld), ends at "
	    "10700 (%lld), preempted %d times, %g node-s lost (400)",
	    (long long)(u.first_start - T0), (long long)
	    (mg_slurmsim_job_start(sim, 0) - T0), (long long)(b.end -
	    T0), b.npreempt, b.lost);
	mg_slurmsim_free(sim);
	/* its limit starts again: 10000 s, and it ends at 10700 */
	jobs[0].limit = 10000;
	mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
	mg_slurmsim_run_all(sim);
	mg_slurmsim_job_preempt(sim, 0, &b);
	ok(b.end == T0 + 10700, "REQUEUE: B's time limit starts again "
	    "when it restarts: with a limit of 10000 s it ends at "
	    "10700 (%lld)", (long long)(b.end - T0));
	mg_slurmsim_free(sim);
	jobs[0].limit = 20000;
	c.preempt_mode = MG_PREEMPT_CANCEL;
	mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
	mg_slurmsim_run_all(sim);
	mg_slurmsim_job_preempt(sim, 0, &b);
	mg_slurmsim_job_preempt(sim, 1, &u);
	ok(u.first_start == T0 + 3000 && b.end == T0 + 3000 &&
	    b.lost == 4 * 3000, "PreemptMode=CANCEL: B ends at 3000 "
	    "(%lld), its 12000 node-s lost (%g)", (long long)(b.end -
	    T0), b.lost);
	mg_slurmsim_free(sim);
	c.preempt_mode = MG_PREEMPT_REQUEUE;
	for (e = 0; e < 3; e++) {
		c.preempt_exempt = exempt[e];
		run(&c, st, 2);
		ok(st[1] == want[e], "PreemptExemptTime=%lld: B is "
		    "preempted at the first scheduler run after it; U "
		    "starts at %lld (%lld)", (long long)exempt[e],
		    (long long)want[e], (long long)st[1]);
	}
	c.preempt_exempt = 0;
	c.preempt_mode = MG_PREEMPT_OFF;
	run(&c, st, 2);
	ok(st[1] == 10000 && st[0] == 0, "without preemption U waits for "
	    "B's end (%lld)", (long long)st[1]);
	c.preempt_mode = MG_PREEMPT_REQUEUE;
	c.dl = NULL;
	run(&c, st, 2);
	ok(st[1] == 10000, "nor without attributes (%lld)",
	    (long long)st[1]);
}

static void
victim_policies(void)
{
	/*
	 * The victim policy in the model: B1 (2 nodes from 0, epochs
	 * of 1000 s, resumes in 100 s) and B2 (2 nodes from 100,
	 * epochs of 200 s, resumes in 5000 s); U (urgent, 2 nodes)
	 * at 2500.  Youngest-first takes B2, released at 2700 (2400 s
	 * in, it has just begun an epoch); PickyMan B1, at 3000:
	 * 2 x 500 + 2 x 100 node-s against 2 x 200 + 2 x 5000.
	 */
	static struct mg_dlattr dl[3];
	struct spec s[] = {
		{ 0, 20000, 10000, 2, 0 },	/* B1 */
		{ 100, 20000, 10000, 2, 1 },	/* B2 */
		{ 2500, 600, 600, 2, 2 },	/* U */
	};

	memset(dl, 0, sizeof(dl));
	dl[0].epoch_s = 1000;
	dl[0].init_s = 100;
	dl[1].epoch_s = 200;
	dl[1].init_s = 5000;
	dl[2].epoch_s = 1000;
	dl[2].urgent = 1;
	make(s, 3, 3);
	mg_slurmsim_params_default(&c, 4);
	c.bf_interval = 100000;
	c.dl = dl;
	mg_dlgen_default(&c.dlgen);
	c.w_urgent = 1e6;
	c.preempt_mode = MG_PREEMPT_REQUEUE;
	c.victims = MG_VICTIM_YOUNGEST;
	run(&c, st, 3);
	ok(st[2] == 2700, "youngest-first preempts B2: U starts at 2700 "
	    "(%lld)", (long long)st[2]);
	c.victims = MG_VICTIM_PICKYMAN;
	run(&c, st, 3);
	ok(st[2] == 3000, "PickyMan preempts B1, cheaper to resume: U "
	    "starts at 3000 (%lld)", (long long)st[2]);
}

static void
requeued_job_held(void)
{
	/*
	 * A requeued job is held for requeue_delay + 1 s (Slurm's
	 * credential lifetime, 120 s, by default).  C (urgent, 2
	 * nodes) runs until 3050, B (2 nodes) from 0; U (urgent, 2
	 * nodes) at 2500 preempts B, released at 3000 (epochs of
	 * 1000 s).  C's nodes come free at 3050: B, eligible at
	 * 3121, starts at the first scheduler run after it (every
	 * 60 s from 0), 3180; with requeue_delay=0 at 3050.
	 */
	static struct mg_dlattr dl[3];
	struct spec s[] = {
		{ 0, 20000, 10000, 2, 0 },	/* B */
		{ 2500, 600, 600, 2, 1 },	/* U */
		{ 0, 3050, 3050, 2, 2 },	/* C */
	};

	memset(dl, 0, sizeof(dl));
	dl[0].epoch_s = 1000;
	dl[1].urgent = dl[2].urgent = 1;
	make(s, 3, 3);
	mg_slurmsim_params_default(&c, 4);
	c.bf_interval = 100000;
	c.dl = dl;
	c.preempt_mode = MG_PREEMPT_REQUEUE;
	run(&c, st, 3);
	ok(st[1] == 3000 && st[0] == 3180, "requeue_delay 120: U starts "
	    "at 3000 (%lld), B again at 3180 (%lld)", (long long)st[1],
	    (long long)st[0]);
	c.requeue_delay = 0;
	run(&c, st, 3);
	ok(st[0] == 3050, "requeue_delay 0: B again at 3050 (%lld)",
	    (long long)st[0]);
}

static void
preempt_suspend(void)
{
	/*
	 * PreemptMode=SUSPEND,GANG on 5 nodes.  B (4 nodes, limit
	 * and work 10000 s) runs from 0; U (urgent, 2 nodes, 600 s)
	 * comes at 2500, with 1 node free: B is suspended at once,
	 * U gets the free node and 1 of B's; B's other 3 stay its
	 * own, idle, so J (1 node, 100 s, at 2600) waits.  U ends
	 * at 3100: B resumes (7500 s left, ends at 10600, past
	 * 10000 from its start: suspended time is not counted
	 * against its limit) and J gets the node left.  Backfill
	 * sees the same: X (5 nodes) waits for B's expected end,
	 * 3100 + 10000 - 2500 = 10600, so Y (1 node, limit 9000 s,
	 * at 3400) cannot start before X (it could if the limit
	 * counted from 3100).
	 */
	static struct mg_dlattr dl[5];
	struct spec s[] = {
		{ 0, 10000, 10000, 4, 0 },	/* B */
		{ 2500, 600, 600, 2, 1 },	/* U */
		{ 2600, 600, 100, 1, 2 },	/* J */
		{ 3300, 600, 100, 5, 2 },	/* X */
		{ 3400, 9000, 100, 1, 3 },	/* Y */
	};
	struct mg_slurmsim *sim;
	struct mg_joblife b, u;

	memset(dl, 0, sizeof(dl));
	dl[0].epoch_s = 1000;
	dl[0].init_s = 100;
	dl[1].urgent = 1;
	make(s, 5, 4);
	mg_slurmsim_params_default(&c, 5);
	c.dl = dl;
	c.victims = MG_VICTIM_PICKYMAN;
	c.preempt_mode = MG_PREEMPT_SUSPEND;
	mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
	mg_slurmsim_run_all(sim);
	mg_slurmsim_job_preempt(sim, 0, &b);
	mg_slurmsim_job_preempt(sim, 1, &u);
	ok(u.first_start == T0 + 2500 && b.npreempt == 1 &&
	    b.suspended == 600 && mg_slurmsim_job_start(sim, 0) ==
	    T0 + 3100 && b.end == T0 + 10600,
	    "PreemptMode=SUSPEND,GANG: U starts at once, 2500 (%lld); "
	    "B, suspended 600 s (%lld), resumes at 3100 (%lld) and "
	    "ends at 10600 (%lld)", (long long)(u.first_start - T0),
	    (long long)b.suspended, (long long)
	    (mg_slurmsim_job_start(sim, 0) - T0),
	    (long long)(b.end - T0));
	ok(mg_slurmsim_job_start(sim, 2) == T0 + 3100 &&
	    b.lost == 3 * 600 && u.caused == b.lost,
	    "SUSPEND: B's 3 nodes U does not use stay B's: J waits "
	    "until 3100 (%lld); 1800 idle node-s lost (%g), caused by "
	    "U (%g)", (long long)(mg_slurmsim_job_start(sim, 2) - T0),
	    b.lost, u.caused);
	ok(mg_slurmsim_job_start(sim, 3) == T0 + 10600 &&
	    mg_slurmsim_job_start(sim, 4) == T0 + 10700, "SUSPEND: "
	    "backfill counts B's limit without its suspension: X at "
	    "10600 (%lld), Y after it, 10700 (%lld)", (long long)
	    (mg_slurmsim_job_start(sim, 3) - T0), (long long)
	    (mg_slurmsim_job_start(sim, 4) - T0));
	mg_slurmsim_free(sim);
}

static void
who_may_preempt_whom(void)
{
	/*
	 * Who may preempt whom.  L (QOS 0) and N (QOS 1), 2 nodes
	 * each, run from 0 and 100; H (QOS 2, not urgent, 2 nodes)
	 * comes at 2500.  Youngest-first would take N; a Preempt=
	 * list naming only QOS 0 makes it L; no list names QOS 2's
	 * victims: H waits.  By partitions sharing the nodes: a
	 * job of the higher PriorityTier preempts, of the lower
	 * waits.
	 */
	static struct mg_dlattr dl[3];
	struct spec s[] = {
		{ 0, 20000, 10000, 2, 0 },	/* L */
		{ 100, 20000, 10000, 2, 1 },	/* N */
		{ 2500, 600, 600, 2, 2 },	/* H */
	};
	struct mg_slurmsim *sim;
	struct mg_joblife l, n;
	int k;

	memset(dl, 0, sizeof(dl));
	make(s, 3, 3);
	for (k = 0; k < 3; k++)
		jobs[k].qos = k;
	mg_slurmsim_params_default(&c, 4);
	c.bf_interval = 100000;
	c.dl = dl;
	c.nqos = 3;
	c.victims = MG_VICTIM_YOUNGEST;
	c.preempt_mode = MG_PREEMPT_REQUEUE;
	c.qos_lists = 1;
	for (k = 0; k < 2; k++) {
		c.qos_preempts[2] = 1u << k;
		mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
		mg_slurmsim_run_all(sim);
		mg_slurmsim_job_preempt(sim, 0, &l);
		mg_slurmsim_job_preempt(sim, 1, &n);
		ok(l.npreempt == (k == 0) && n.npreempt == (k == 1) &&
		    mg_slurmsim_job_start(sim, 2) == T0 + 2500,
		    "QOS 2's Preempt= names QOS %d: H preempts %s "
		    "(L %d, N %d times), starts at 2500 (%lld)", k,
		    k ? "N" : "L", l.npreempt, n.npreempt, (long long)
		    (mg_slurmsim_job_start(sim, 2) - T0));
		mg_slurmsim_free(sim);
	}
	c.qos_preempts[2] = 0;
	c.qos_preempts[0] = 1u << 2;
	run(&c, st, 3);
	ok(st[2] == 10000, "only QOS 0 may preempt QOS 2: H waits "
	    "for L's end (%lld)", (long long)st[2]);
	c.qos_preempts[0] = 0;
	c.qos_lists = 0;
	c.nqos = 0;
	for (k = 0; k < 3; k++) {
		jobs[k].qos = -1;
		jobs[k].part = k == 2;
	}
	trace.nparts = 2;
	c.nparts = 2;
	c.npools = 1;
	c.pool_nodes[0] = 4;
	c.part_nodes[0] = c.part_nodes[1] = 4;
	c.part_pools[0] = c.part_pools[1] = 1;
	c.preempt_type = MG_PTYPE_PARTITION;
	c.part_tier[0] = 1;
	c.part_tier[1] = 2;
	run(&c, st, 3);
	ok(st[2] == 2500, "PreemptType=preempt/partition_prio: H, of "
	    "the higher tier, preempts at 2500 (%lld)", (long long)
	    st[2]);
	c.part_tier[1] = 1;
	run(&c, st, 3);
	ok(st[2] == 10000, "of an equal tier, it waits (%lld)",
	    (long long)st[2]);
	c.preempt_type = MG_PTYPE_NONE;
	c.part_tier[1] = 2;
	run(&c, st, 3);
	ok(st[2] == 10000, "preempt/none: it waits (%lld)",
	    (long long)st[2]);
	trace.nparts = 0;
}

static void
loaning(void)
{
	/*
	 * Loaning.  4 nodes here, 4 for inference, which needs 2
	 * until 3000 and all 4 from then; loan ticks every 600 s.
	 * J1 (4 nodes, 5000 s) runs from 0; J2 (2 nodes) comes at
	 * 100 and starts at once on the 2 lent nodes.  At 3000 the
	 * 2 nodes go back: if J2 has ended (1000 s of work) they
	 * are idle; if not (5000 s), the reclaim preempts it (no
	 * attributes: released at once, its work kept), held 121 s
	 * and then waiting for J1's end at 5000.
	 */
	static const int64_t dt[] = { T0, T0 + 3000 };
	static const int32_t dn[] = { 2, 4 };
	static struct mg_dlattr dl[2];
	struct spec s[] = {
		{ 0, 5000, 5000, 4, 0 },	/* J1 */
		{ 100, 6000, 1000, 2, 1 },	/* J2 */
	};
	struct mg_slurmsim *sim;
	struct mg_loanstats ls;
	struct mg_joblife b;

	make(s, 2, 2);
	mg_slurmsim_params_default(&c, 4);
	c.bf_interval = 100000;
	run(&c, st, 2);
	ok(st[1] == 5000, "no loaning: J2 waits for J1 (%lld)",
	    (long long)st[1]);
	c.inf_nodes = 4;
	c.dem_time = dt;
	c.dem_nodes = dn;
	c.dem_n = 2;
	c.loan_interval = 600;
	c.reclaim_grace = 60;
	c.reclaim_policy = MG_VICTIM_FEWEST;
	mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
	mg_slurmsim_run_all(sim);
	mg_slurmsim_loan_stats(sim, &ls);
	ok(mg_slurmsim_job_start(sim, 1) == T0 + 100 && ls.reclaims ==
	    1 && ls.reclaim_jobs == 0 && ls.slo_violations == 0 &&
	    ls.lent_ns == 2 * 3000, "a loan: J2 starts on lent nodes at "
	    "100 (%lld); at 3000 they are taken back idle (%lld "
	    "reclaims, %lld jobs preempted, %lld SLO violations, %g "
	    "node-s lent)", (long long)(mg_slurmsim_job_start(sim, 1) -
	    T0), (long long)ls.reclaims, (long long)ls.reclaim_jobs,
	    (long long)ls.slo_violations, ls.lent_ns);
	mg_slurmsim_free(sim);
	jobs[1].dur = 5000;
	mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
	mg_slurmsim_run_all(sim);
	mg_slurmsim_loan_stats(sim, &ls);
	mg_slurmsim_job_preempt(sim, 1, &b);
	ok(b.first_start == T0 + 100 && b.npreempt == 1 &&
	    mg_slurmsim_job_start(sim, 1) == T0 + 5000 && b.end == T0 +
	    5000 + 2100 && ls.reclaim_jobs == 1 &&
	    ls.slo_violations == 0, "a reclaim that must preempt: J2 "
	    "goes at 3000 and runs its last 2100 s from J1's end, "
	    "5000 (%lld, ends %lld); within the grace",
	    (long long)(mg_slurmsim_job_start(sim, 1) - T0),
	    (long long)(b.end - T0));
	mg_slurmsim_free(sim);
	/*
	 * epochs of 1000 s: J2 would need 100 s to release, past
	 * the 60 s grace, so it is killed at 3060 and redoes its
	 * epoch from 2100 (960 s, 1920 node-s lost): 3000 s left
	 * from J1's end, 5000; no SLO violation
	 */
	memset(dl, 0, sizeof(dl));
	dl[0].epoch_s = dl[1].epoch_s = 1000;
	c.dl = dl;
	mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
	mg_slurmsim_run_all(sim);
	mg_slurmsim_loan_stats(sim, &ls);
	mg_slurmsim_job_preempt(sim, 1, &b);
	ok(ls.slo_violations == 0 && b.lost == 2 * 960 && b.end == T0 +
	    8000, "a release past the grace: J2 is killed at 3060 and "
	    "redoes its epoch (%g node-s lost), ends at 8000 (%lld); no "
	    "SLO violation (%lld)", b.lost, (long long)(b.end - T0),
	    (long long)ls.slo_violations);
	mg_slurmsim_free(sim);
	/*
	 * nobody to take them from: a chain job (never a victim) of
	 * 8 nodes runs on the 4 lent ones from 0 to 5000, when the
	 * inference pool wants them back at 3000 (grace 0): they
	 * are owed until 5000, an SLO violation of 4 x 2000 node-s
	 */
	{
		static const int64_t dt2[] = { T0, T0 + 3000 };
		static const int32_t dn2[] = { 0, 4 };
		struct spec late[] = { { 9000, 600, 600, 1, 0 } };

		make(late, 1, 1);
		c.dl = NULL;
		c.dem_time = dt2;
		c.dem_nodes = dn2;
		c.loan_headroom = 0;
		c.reclaim_grace = 0;
		mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
		mg_slurmsim_add_job(sim, 8, 6000, 5000, T0, -1, -1);
		mg_slurmsim_run_all(sim);
		mg_slurmsim_loan_stats(sim, &ls);
		ok(ls.slo_violations == 1 && ls.slo_short_ns == 4 * 2000,
		    "nodes no job can give back are owed until they come "
		    "free: an SLO violation (%lld), 8000 node-s short (%g)",
		    (long long)ls.slo_violations, ls.slo_short_ns);
		mg_slurmsim_free(sim);
	}
	c.dl = NULL;
	c.inf_nodes = 0;
	c.dem_n = 0;
}

static void
elastic_job(void)
{
	/*
	 * An elastic job.  E (2 nodes asked, 1 to 4, linear speedup,
	 * 1000 s of work at 2 nodes) comes at 0 on a 4-node cluster:
	 * it starts on its minimum, 1 node, and grows at once to 4
	 * (twice its speed).  R (rigid, 2 nodes, 100 s) comes at 100
	 * and does not fit: E shrinks to 2, 800 s of work left; R
	 * ends at 200 and E grows to 4 again: 700 s left at twice the
	 * speed, it ends at 550.  With a resize costing 50 s of no
	 * progress: 0-50 paused, 50-100 at 4 nodes (900 left), 100-150
	 * paused, 150-200 at 2 (850 left), 200-250 paused, then 425 s
	 * at 4: it ends at 675.
	 */
	static struct mg_elastic_attr el[2];
	static struct mg_dlattr dl[2];
	struct spec s[] = {
		{ 0, 3000, 1000, 2, 0 },	/* E */
		{ 100, 600, 100, 2, 1 },	/* R */
	};
	struct mg_slurmsim *sim;
	struct mg_joblife e;
	struct mg_loanstats ls;

	memset(el, 0, sizeof(el));
	memset(dl, 0, sizeof(dl));
	el[0] = (struct mg_elastic_attr){ 1, 1, 4, 1.0 };
	el[1] = (struct mg_elastic_attr){ 0, 2, 2, 1.0 };
	make(s, 2, 2);
	mg_slurmsim_params_default(&c, 4);
	c.bf_interval = 100000;
	c.el = el;
	c.dl = dl;
	mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
	mg_slurmsim_run_all(sim);
	mg_slurmsim_job_preempt(sim, 0, &e);
	mg_slurmsim_loan_stats(sim, &ls);
	ok(mg_slurmsim_job_start(sim, 1) == T0 + 100 && e.end == T0 +
	    550 && e.nresize == 3 && ls.grows == 2 && ls.shrinks == 1,
	    "an elastic job grows into free nodes, shrinks for a job "
	    "that does not fit, grows again: R at 100 (%lld), E ends "
	    "at 550 (%lld), resized %d times", (long long)
	    (mg_slurmsim_job_start(sim, 1) - T0), (long long)(e.end -
	    T0), e.nresize);
	mg_slurmsim_free(sim);
	dl[0].init_s = 50;
	mg_slurmsim_new(&c, &trace, T0, T0, T0 + 100000, &sim);
	mg_slurmsim_run_all(sim);
	mg_slurmsim_job_preempt(sim, 0, &e);
	ok(e.end == T0 + 675, "each resize costs its restart in time "
	    "without progress: E ends at 675 (%lld)", (long long)(e.end -
	    T0));
	mg_slurmsim_free(sim);
	c.el = NULL;
	run(&c, st, 2);
	c.dl = NULL;
	ok(st[1] == 100, "rigid, E holds its 2 nodes and R starts at "
	    "once on the 2 left (%lld)", (long long)st[1]);
}

static void
shortest_first(void)
{
	/*
	 * JobOrder=sjf: X holds both nodes until 1000; A (limit
	 * 5000) comes at 10, B (limit 600) at 20, both of 2 nodes.
	 * By priority A goes first (older); shortest first, B.
	 */
	struct spec s[] = {
		{ 0, 1000, 1000, 2, 0 },	/* X */
		{ 10, 5000, 500, 2, 1 },	/* A */
		{ 20, 600, 500, 2, 2 },		/* B */
	};

	make(s, 3, 3);
	mg_slurmsim_params_default(&c, 2);
	c.bf_interval = 100000;
	run(&c, st, 3);
	ok(st[1] == 1000 && st[2] == 1500, "by priority: A at 1000, B "
	    "at 1500 (%lld, %lld)", (long long)st[1], (long long)st[2]);
	c.sjf = 1;
	run(&c, st, 3);
	ok(st[2] == 1000 && st[1] == 1500, "shortest first: B at 1000, "
	    "A at 1500 (%lld, %lld)", (long long)st[2],
	    (long long)st[1]);
	c.sjf = 0;
}

/*
 * An overloaded queue: 3,000 jobs of 1 to 8 nodes over ten days on 16
 * nodes, a third of them twins of the job before (the same second, the
 * same size), ages capped at 2 days.  Every 10 minutes the pending list
 * is in the order of the priorities as Slurm has them set (highest
 * first; on a tie, the earlier submission): a job whose priority a
 * period did not set again (it stays behind the job before it) has the
 * one that period would have given it.  With recorded priorities too
 * (weight 1e-3, near ties), and with the size factor off (ages alone).
 */
static void
overloaded_queue_in_order(void)
{
	static const double w_trace[] = { 0, 1e-3, 0 }, w_size[] = { 1000,
	    1000, 0 };
	const size_t n = 3000;
	struct mg_trace_job *J = calloc(n, sizeof(*J));
	struct mg_trace tr;
	uint64_t x = 12345;
	size_t i, k, bad, views;
	int v;

	if (J == NULL)
		return;
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		if (i > 0 && i % 3 == 0) {
			J[i] = J[i - 1];	/* a twin */
		} else {
			J[i].submit = T0 + (int64_t)((x >> 33) % 864000);
			J[i].nodes = 1 << ((x >> 20) % 4);
			J[i].limit = 3600 * (1 + (int64_t)((x >> 40) % 48));
		}
		J[i].dur = J[i].limit * (int64_t)(20 + (x >> 50) % 80) / 100;
		J[i].prio = (int64_t)((x >> 8) % 5000);
		J[i].user = J[i].uid = (int32_t)(i % 40);
		J[i].after = J[i].part = J[i].qos = J[i].account = -1;
		J[i].eligible = -1;
		snprintf(J[i].id, sizeof(J[i].id), "%zu", 1000 + i);
	}
	for (i = 1; i < n; i++)		/* in submission order */
		for (k = i; k > 0 && J[k - 1].submit > J[k].submit; k--) {
			struct mg_trace_job t = J[k];

			J[k] = J[k - 1];
			J[k - 1] = t;
		}
	memset(&tr, 0, sizeof(tr));
	tr.job = J;
	tr.n = n;
	tr.nusers = 40;
	for (v = 0; v < 3; v++) {
		struct mg_slurmsim *s;
		struct mg_view vw;
		int64_t t;

		mg_slurmsim_params_default(&c, 16);
		c.max_age = 2 * 86400;
		c.w_trace = w_trace[v];
		c.w_size = w_size[v];
		if (mg_slurmsim_new(&c, &tr, T0, T0, T0 + 40 * 86400, &s) != 0)
			break;
		memset(&vw, 0, sizeof(vw));
		for (t = T0 + 600, bad = views = 0; t < T0 + 30 * 86400;
		    t += 600) {
			if (mg_slurmsim_run(s, t) != 0 ||
			    mg_slurmsim_view(s, 1, 0, &vw) != 0)
				break;
			views += vw.npend > 100;
			bad += mg_slurmsim_disorder(s);
		}
		ok(bad == 0 && views > 3000, "overloaded (%zu looks with over "
		    "100 jobs waiting; weights size %g, trace %g): every "
		    "pending list in priority order (%zu out of place)",
		    views, w_size[v], w_trace[v], bad);
		mg_view_release(&vw);
		mg_slurmsim_free(s);
	}
	free(J);
	mg_slurmsim_params_default(&c, 4);
	c.bf_resolution = 60;
}

int
main(void)
{
	mg_slurmsim_params_default(&c, 4);
	c.bf_resolution = 60;
	backfill_a_short_job();
	backfill_keeps_the_reservation();
	limit_of_jobs_per_user();
	age_capped_at_max_age();
	dependency_waits_for_its_end();
	capacity_falls();
	warm_start();
	chain_p_then_s();
	two_partitions();
	overlapping_partitions();
	reservation_on_shared_nodes();
	partition_priority_tiers();
	maintenance_reservation();
	hostlists_and_pools();
	qos_priority();
	qos_jobs_per_user();
	qos_nodes_per_user();
	eligible_time();
	backfill_only_on_change();
	fair_share_by_account();
	fair_tree();
	fair_tree_tie();
	fair_share_by_user();
	copy_midway();
	priority_calc_period();
	default_queue_depth();
	preemption_requeue();
	victim_policies();
	requeued_job_held();
	preempt_suspend();
	who_may_preempt_whom();
	loaning();
	elastic_job();
	shortest_first();
	overloaded_queue_in_order();
	return tap_done();
}
