/*
 * t_adopt.c: many chains at once.  A take-over in both cluster models (the
 * predecessor ends its handover time after its successor starts, not
 * before it starts, and not when it ended already); the services and the
 * jobs they replace, drawn from a seed; a service's planner that sees
 * another service's successor waiting in the queue; one service alone
 * with the method; a successor held with a begin time, and its age with
 * and without PriorityFlags=ACCRUE_ALWAYS; a low successor, behind the
 * jobs submitted after it until it rises; a service's replicas, none
 * up while a wide job holds both successors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mirage.h"
#include "episode/adopt.h"
#include "tap.h"

#define T0	1700000000
#define HOUR	3600

static struct mg_trace_job jobs[64];
static struct mg_trace trace;

static void
job(size_t i, int64_t at, int64_t limit, int64_t dur, int32_t nodes,
    int32_t user)
{
	memset(&jobs[i], 0, sizeof(jobs[i]));
	jobs[i].submit = T0 + at;
	jobs[i].start = T0 + at;
	jobs[i].limit = limit;
	jobs[i].dur = dur;
	jobs[i].nodes = nodes;
	jobs[i].user = user;
	jobs[i].uid = user;
	jobs[i].prio = -1;
	jobs[i].after = -1;
	jobs[i].part = -1;
	jobs[i].qos = -1;
	jobs[i].account = -1;
	jobs[i].assoc = -1;
	jobs[i].eligible = -1;
	snprintf(jobs[i].id, sizeof(jobs[i].id), "%zu", 100 + i);
}

static int
def_of(enum mg_simmode mode, int32_t nodes, struct mg_clusterdef *def)
{
	struct mg_simconf *conf;
	struct mg_diag d = { "" };
	char n[32];
	int rv = -1;

	if (mg_simconf_new(&conf) != 0)
		return -1;
	snprintf(n, sizeof(n), "Nodes=%d", nodes);
	if (mg_simconf_set(conf, mode == MG_MODE_REFERENCE ?
	    "Mode=reference" : "Mode=faithful", &d) == 0 &&
	    mg_simconf_set(conf, n, &d) == 0)
		rv = mg_clusterdef_init(def, conf, &trace, &d);
	mg_simconf_free(conf);
	return rv;
}

/*
 * P (2 of 4 nodes, 10 h) from T0; S submitted 6 h in, taking over in 10
 * minutes; a small trace job keeps the trace from being empty
 */
static void
take_over(enum mg_simmode mode, const char *name)
{
	struct mg_clusterdef def;
	struct mg_cluster *c;
	int32_t p, s;
	int64_t ps, ss;

	job(0, 0, HOUR, 60, 1, 0);
	trace.job = jobs;
	trace.n = 1;
	trace.nusers = 1;
	if (!ok(def_of(mode, 4, &def) == 0, "%s: a 4-node cluster", name) ||
	    mg_cluster_new(&def, T0, T0, &c) != 0)
		return;
	p = mg_cluster_add_job(c, "P", 2, 10 * HOUR, 10 * HOUR, T0, -1);
	ok(mg_cluster_run_until_start(c, p, T0 + HOUR) == 1, "%s: P starts",
	    name);
	ps = mg_cluster_job_start(c, p);
	mg_cluster_run(c, T0 + 6 * HOUR);
	s = mg_cluster_add_job(c, "S", 2, 10 * HOUR, 10 * HOUR, T0 + 6 * HOUR,
	    p);
	ok(mg_cluster_set_handover(c, s, 600) == 0, "%s: S takes over", name);
	ok(mg_cluster_set_handover(c, p, 600) != 0,
	    "%s: a job without a predecessor does not", name);
	ok(mg_cluster_run_until_start(c, s, T0 + 7 * HOUR) == 1,
	    "%s: S starts on the 2 free nodes", name);
	ss = mg_cluster_job_start(c, s);
	ok(mg_cluster_set_handover(c, s, 600) != 0,
	    "%s: nor one that started", name);
	ok(mg_cluster_job_end(c, p) < 0, "%s: P runs on while S starts", name);
	mg_cluster_run(c, T0 + 12 * HOUR);
	ok(mg_cluster_job_end(c, p) == ss + 600,
	    "%s: P ends 10 minutes after S starts (%lld s after it)", name,
	    (long long)(mg_cluster_job_end(c, p) - ss));
	ok(ps + 10 * HOUR > ss + 600, "%s: before its own end", name);
	mg_cluster_free(c);
	mg_clusterdef_release(&def);
}

/* S waits behind a wide job, P ends first: no take-over is left to do */
static void
ended_first(enum mg_simmode mode, const char *name)
{
	struct mg_clusterdef def;
	struct mg_cluster *c;
	int32_t p, s;

	job(0, HOUR, 4 * HOUR, 4 * HOUR, 4, 0);	/* all 4 nodes, 1 h in */
	trace.job = jobs;
	trace.n = 1;
	trace.nusers = 1;
	if (def_of(mode, 4, &def) != 0 || mg_cluster_new(&def, T0, T0 +
	    HOUR, &c) != 0)
		return;
	p = mg_cluster_add_job(c, "P", 2, 2 * HOUR, 2 * HOUR, T0, -1);
	mg_cluster_run_until_start(c, p, T0 + HOUR);
	mg_cluster_run(c, T0 + HOUR + 600);
	/* submitted when the wide job waits for P's nodes: S waits too */
	s = mg_cluster_add_job(c, "S", 2, 2 * HOUR, 2 * HOUR, T0 + HOUR + 600,
	    p);
	mg_cluster_set_handover(c, s, 600);
	mg_cluster_run(c, T0 + 10 * HOUR);
	ok(mg_cluster_job_end(c, p) == mg_cluster_job_start(c, p) + 2 * HOUR,
	    "%s: P, ended before S started, ran to its end", name);
	ok(mg_cluster_job_start(c, s) >= mg_cluster_job_end(c, p),
	    "%s: S started after it", name);
	mg_cluster_free(c);
	mg_clusterdef_release(&def);
}

/*
 * two services on 4 nodes: the first's P runs, the second's waits behind
 * a trace job; the first's planner sees the second's job as a job of
 * the queue, and its own P as its chain
 */
static void
sees_others(void)
{
	struct mg_clusterdef def;
	struct mg_cluster *c;
	struct mg_view v;
	int32_t p1, p2;
	size_t i, pend_other = 0, run_own = 0, chain_pend = 0;

	memset(&v, 0, sizeof(v));
	job(0, 60, 10 * HOUR, 10 * HOUR, 2, 0);
	trace.job = jobs;
	trace.n = 1;
	trace.nusers = 1;
	if (def_of(MG_MODE_FAITHFUL, 4, &def) != 0 || mg_cluster_new(&def, T0,
	    T0 + 60, &c) != 0)
		return;
	p1 = mg_cluster_add_job(c, "~svc0", 2, 10 * HOUR, 10 * HOUR, T0, -1);
	p2 = mg_cluster_add_job(c, "~svc1", 4, 10 * HOUR, 10 * HOUR, T0 + 120,
	    -1);
	mg_cluster_run(c, T0 + HOUR);
	ok(mg_cluster_job_start(c, p1) >= 0 && mg_cluster_job_start(c, p2) < 0,
	    "one service runs, the other's job waits");
	ok(mg_adopt_view(c, p1, 2, 0, &v) == 0, "the first service's view");
	for (i = 0; i < v.npend; i++) {
		pend_other += v.pend[i].job == p2 && !v.pend[i].chain;
		chain_pend += v.pend[i].chain != 0;
	}
	for (i = 0; i < v.nrun; i++)
		run_own += v.run[i].job == p1 && v.run[i].chain;
	ok(pend_other == 1 && chain_pend == 0,
	    "the other service's waiting job is a job of its queue");
	ok(run_own == 1, "its own running job is its chain's");
	mg_view_release(&v);
	mg_cluster_free(c);
	mg_clusterdef_release(&def);
}

/* 40 long jobs of 1-2 nodes over 60 days, and 20 short ones */
static void
month_trace(void)
{
	size_t i;

	for (i = 0; i < 40; i++)
		job(i, (int64_t)i * 36 * HOUR, 48 * HOUR, (20 + (int64_t)i % 28) *
		    HOUR, 1 + (int32_t)(i % 2), (int32_t)(i % 5));
	for (i = 40; i < 60; i++)
		job(i, (int64_t)(i - 40) * 70 * HOUR + 600, 4 * HOUR, HOUR, 1,
		    (int32_t)(i % 5));
	trace.job = jobs;
	trace.n = 60;
	trace.nusers = 5;
}

static void
picks(void)
{
	struct mg_clusterdef def;
	struct mg_adoptconf a;
	struct mg_adoptres r, q, o;
	struct mg_diag d = { "" };
	double most = 2.0 * 48;

	month_trace();
	if (def_of(MG_MODE_FAITHFUL, 16, &def) != 0)
		return;
	mg_adoptconf_init(&a);
	a.share = 0.3;
	a.span = 10 * 86400;
	if (!ok(mg_adopt_run(&def, &a, &r, &d) == 0, "30%%: a replay (%s)",
	    d.msg))
		return;
	ok(r.services > 0 && r.service_nh >= 0.3 * r.long_nh &&
	    r.service_nh < 0.3 * r.long_nh + 2 * 10 * 24,
	    "the services hold 30%% of the long work: %.0f of %.0f "
	    "node-hours", r.service_nh, r.long_nh);
	ok(r.removed_nh >= r.service_nh && r.removed_nh < r.service_nh + most,
	    "the jobs replaced pay for them within one job: %.0f for %.0f",
	    r.removed_nh, r.service_nh);
	ok(r.kept.n + r.removed == 60, "the others are the rest: %zu + %zu",
	    r.kept.n, r.removed);
	ok(r.links == r.successors + r.services, "every link after a "
	    "service's first has a predecessor");
	mg_adopt_run(&def, &a, &q, &d);
	ok(q.kept.n == r.kept.n && memcmp(q.start, r.start, r.kept.n *
	    sizeof(*r.start)) == 0 && q.services == r.services,
	    "the same seed, the same services and starts");
	a.seed = 2;
	mg_adopt_run(&def, &a, &o, &d);
	ok(o.service_nh != r.service_nh || o.kept.n != r.kept.n ||
	    memcmp(o.kept.job, r.kept.job, r.kept.n * sizeof(*r.kept.job)),
	    "another seed, other jobs replaced");
	mg_adopt_release(&r);
	mg_adopt_release(&q);
	mg_adopt_release(&o);
	/* 90%: the trace's first job seeds a service too */
	a.share = 0.9;
	for (a.seed = 1; a.seed <= 4; a.seed++) {
		if (mg_adopt_run(&def, &a, &r, &d) != 0)
			break;
		mg_adopt_release(&r);
	}
	ok(a.seed == 5, "90%%, seeds 1 to 4: every service's jobs run (%s)",
	    d.msg);
	a.seed = 1;
	a.share = 0.95;
	ok(mg_adopt_run(&def, &a, &r, &d) == MG_EINVAL &&
	    strstr(d.msg, "share") != NULL, "a share above 90%% is refused");
	mg_clusterdef_release(&def);
}

/*
 * a job of 10 h 5 min seeds a service of two replicas, reactive, on 2
 * nodes: the second's first link starts 5 h after the first's.  Alone,
 * each successor starts at its predecessor's end: none is down.  With
 * a 2-node job of 2 h submitted at 9 h, the first replica's
 * successor waits behind it from 10 h 5 min, the second's from 15 h 5
 * min, and the job runs once both links ended: none is up for its 2 h,
 * one is down for 7 h.  One replica: down, and none up, while the job
 * runs from its first link's end.
 */
static void
replicas(void)
{
	struct mg_clusterdef def;
	struct mg_adoptconf a;
	struct mg_adoptres r;
	struct mg_diag d = { "" };
	int wide;

	for (wide = 0; wide < 2; wide++) {
		job(0, 0, 10 * HOUR + 300, 10 * HOUR + 300, 1, 0);
		job(1, 40 * HOUR, HOUR, 60, 1, 1);	/* the trace's last */
		job(2, 0, HOUR, 60, 1, 1);	/* and first */
		job(3, 9 * HOUR, 3 * HOUR, 2 * HOUR, 2, 1);
		trace.job = jobs;
		trace.n = wide ? 4 : 3;
		trace.nusers = 2;
		if (def_of(MG_MODE_REFERENCE, 2, &def) != 0)
			return;
		mg_adoptconf_init(&a);
		a.share = 0.9;
		a.long_limit = 10 * HOUR;
		a.span = 86400;
		a.replicas = 2;
		if (!ok(mg_adopt_run(&def, &a, &r, &d) == 0, "two replicas%s: "
		    "a replay (%s)", wide ? ", a wide job" : "", d.msg)) {
			mg_clusterdef_release(&def);
			return;
		}
		ok(r.services == 2 && r.groups == 1 && r.replicas == 2,
		    "one job, one service of two replicas: %zu, %zu", r.services,
		    r.groups);
		if (!wide)
			ok(r.none_up_h == 0 && r.some_down_h == 0 &&
			    r.worst_h == 0 && r.group_h > 9, "alone, each "
			    "successor starts at its predecessor's end: none "
			    "down in %.1f h", r.group_h);
		else {
			ok(fabs(r.none_up_h - 2) < 0.2 && fabs(r.worst_h -
			    r.none_up_h) < 1e-9, "the wide job: none up for its "
			    "2 h at once: %.2f h, the worst %.2f h", r.none_up_h,
			    r.worst_h);
			ok(fabs(r.some_down_h - 7) < 0.3, "one down from the "
			    "first's end to the job's: %.2f h", r.some_down_h);
			mg_adopt_release(&r);
			a.replicas = 1;
			mg_adopt_run(&def, &a, &r, &d);
			ok(r.services == 1 && r.groups == 1 && r.none_up_h ==
			    r.some_down_h && fabs(r.none_up_h - 2) < 0.2 &&
			    r.worst_h == r.none_up_h, "one replica: down is none "
			    "up, the wide job's 2 h: %.2f h, the worst %.2f h",
			    r.none_up_h, r.worst_h);
			mg_adopt_release(&r);
			a.replicas = 0;
			ok(mg_adopt_run(&def, &a, &r, &d) == MG_EINVAL &&
			    strstr(d.msg, "replicas") != NULL,
			    "no replica is refused");
		}
		mg_adopt_release(&r);
		mg_clusterdef_release(&def);
	}
}

/*
 * one service alone with a 6 h lead, the others reactive: only its links
 * are counted, and no other service gives up lease or holds nodes twice
 */
static void
alone(void)
{
	struct mg_clusterdef def;
	struct mg_adoptconf a;
	struct mg_adoptres r;
	struct mg_diag d = { "" };
	size_t k, quiet = 0;

	month_trace();
	if (def_of(MG_MODE_FAITHFUL, 16, &def) != 0)
		return;
	mg_adoptconf_init(&a);
	a.share = 0.3;
	a.span = 10 * 86400;
	a.method = MG_ADOPT_LEAD;
	a.lead = 6 * HOUR;
	a.handover = 600;
	a.alone = 0;
	if (!ok(mg_adopt_run(&def, &a, &r, &d) == 0 && r.services > 1,
	    "service 0 alone: a replay (%s)", d.msg))
		return;
	ok(r.successors == r.svc[0].successors && r.interrupted ==
	    r.svc[0].interrupted && r.lease_h == r.svc[0].lease_h,
	    "only the service alone is counted");
	ok(r.svc[0].successors > 0 && r.svc[0].lease_h > 0,
	    "it hands over early: %.1f h of lease given up", r.svc[0].lease_h);
	for (k = 1; k < r.services; k++)
		quiet += r.svc[k].lease_h == 0 && r.svc[k].twice_nh == 0;
	ok(quiet == r.services - 1, "the other %zu submit reactively: %zu "
	    "give up no lease", r.services - 1, quiet);
	mg_adopt_release(&r);
	mg_clusterdef_release(&def);
}

/*
 * a successor held until its lead: refused in the reference model and
 * without a lead; in the faithful model on an idle cluster its links
 * start as the unheld ones do
 */
static void
held(void)
{
	struct mg_clusterdef def;
	struct mg_adoptconf a;
	struct mg_adoptres r, h;
	struct mg_diag d = { "" };
	size_t k, same = 0;

	month_trace();
	mg_adoptconf_init(&a);
	a.share = 0.3;
	a.span = 10 * 86400;
	a.handover = 600;
	a.hold = 1;
	if (def_of(MG_MODE_REFERENCE, 64, &def) != 0)
		return;
	a.method = MG_ADOPT_LEAD;
	a.lead = 6 * HOUR;
	ok(mg_adopt_run(&def, &a, &r, &d) == MG_EINVAL &&
	    strstr(d.msg, "faithful") != NULL, "no hold in the reference "
	    "model: %s", d.msg);
	mg_clusterdef_release(&def);
	if (def_of(MG_MODE_FAITHFUL, 64, &def) != 0)
		return;
	a.method = MG_ADOPT_REACTIVE;
	ok(mg_adopt_run(&def, &a, &r, &d) == MG_EINVAL, "no hold without a "
	    "lead");
	a.method = MG_ADOPT_LEAD;
	d.msg[0] = '\0';
	if (!ok(mg_adopt_run(&def, &a, &h, &d) == 0, "held: a replay (%s)",
	    d.msg))
		return;
	a.hold = 0;
	mg_adopt_run(&def, &a, &r, &d);
	for (k = 0; k < r.services; k++)
		same += r.svc[k].successors == h.svc[k].successors &&
		    r.svc[k].lease_h == h.svc[k].lease_h;
	ok(h.services == r.services && same == r.services &&
	    h.lease_h > 0, "an idle cluster: held or not, the same "
	    "take-overs (%zu of %zu, %.1f h of lease given up)", same,
	    r.services, h.lease_h);
	mg_adopt_release(&r);
	mg_adopt_release(&h);
	mg_clusterdef_release(&def);
}

/*
 * A (held from 1 h to 5 h) and B (submitted at 3 h) wait behind a
 * 10-hour job on the whole cluster: B is older by eligibility and goes
 * first, unless PriorityFlags=ACCRUE_ALWAYS counts A's age from 1 h
 */
static void
accrue(int always)
{
	struct mg_clusterdef def;
	struct mg_cluster *c;
	struct mg_diag d = { "" };
	int32_t x, y;

	job(0, 0, 10 * HOUR, 10 * HOUR, 4, 0);
	trace.job = jobs;
	trace.n = 1;
	trace.nusers = 2;
	if (def_of(MG_MODE_FAITHFUL, 4, &def) != 0)
		return;
	if (always && !ok(mg_simconf_set(def.conf,
	    "PriorityFlags=ACCRUE_ALWAYS", &d) == 0, "ACCRUE_ALWAYS is a "
	    "setting"))
		return;
	if (mg_cluster_new(&def, T0, T0, &c) != 0)
		return;
	x = mg_cluster_add_job(c, "A", 4, HOUR, HOUR, T0 + HOUR, -1);
	y = mg_cluster_add_job(c, "B", 4, HOUR, HOUR, T0 + 3 * HOUR, -1);
	ok(mg_cluster_set_begin(c, x, T0 + 5 * HOUR) == 0, "A is held to 5 h");
	mg_cluster_run(c, T0 + 2 * HOUR);
	ok(mg_cluster_set_begin(c, x, T0 + 6 * HOUR) != 0,
	    "no begin once submitted");
	mg_cluster_run(c, T0 + 13 * HOUR);
	if (always)
		ok(mg_cluster_job_start(c, x) == T0 + 10 * HOUR &&
		    mg_cluster_job_start(c, y) == T0 + 11 * HOUR,
		    "ACCRUE_ALWAYS: A ages from its submission and goes first");
	else
		ok(mg_cluster_job_start(c, y) == T0 + 10 * HOUR &&
		    mg_cluster_job_start(c, x) == T0 + 11 * HOUR,
		    "A ages from its begin time: B goes first");
	mg_cluster_free(c);
	mg_clusterdef_release(&def);
}

/*
 * L (submitted at 1 h, low until until) and B (submitted at 3 h) wait
 * behind a 10-hour job on the whole cluster.  Low until 5 h, L waits
 * behind B though older; rising at 2 h, it is older again and goes
 * first.
 */
static void
low(enum mg_simmode mode, const char *name, int64_t until)
{
	struct mg_clusterdef def;
	struct mg_cluster *c;
	int32_t x, y;
	int64_t l, b;

	job(0, 0, 10 * HOUR, 10 * HOUR, 4, 0);
	trace.job = jobs;
	trace.n = 1;
	trace.nusers = 2;
	if (def_of(mode, 4, &def) != 0 || mg_cluster_new(&def, T0, T0, &c) != 0)
		return;
	x = mg_cluster_add_job(c, "L", 4, HOUR, HOUR, T0 + HOUR, -1);
	y = mg_cluster_add_job(c, "B", 4, HOUR, HOUR, T0 + 3 * HOUR, -1);
	ok(mg_cluster_set_low(c, x, T0 + until) == 0, "%s: L is low to %lld h",
	    name, (long long)(until / HOUR));
	mg_cluster_run(c, T0 + 13 * HOUR);
	l = mg_cluster_job_start(c, x) - T0;
	b = mg_cluster_job_start(c, y) - T0;
	if (until > 3 * HOUR)
		ok(b >= 10 * HOUR - 60 && l >= b + HOUR, "%s: low past B's "
		    "submission, L goes after B (%lld, %lld s)", name,
		    (long long)l, (long long)b);
	else
		ok(l >= 10 * HOUR - 60 && b >= l + HOUR, "%s: risen before B's "
		    "submission, L goes first (%lld, %lld s)", name,
		    (long long)l, (long long)b);
	ok(mg_cluster_set_low(c, x, T0 + until) != 0, "%s: no low once "
	    "started", name);
	mg_cluster_free(c);
	mg_clusterdef_release(&def);
}

/* an idle cluster: early successors low or not, the same take-overs */
static void
low_idle(enum mg_simmode mode, const char *name)
{
	struct mg_clusterdef def;
	struct mg_adoptconf a;
	struct mg_adoptres r, w;
	struct mg_diag d = { "" };
	size_t k, same = 0;

	month_trace();
	if (def_of(mode, 64, &def) != 0)
		return;
	mg_adoptconf_init(&a);
	a.share = 0.3;
	a.span = 10 * 86400;
	a.handover = 600;
	a.method = MG_ADOPT_LEAD;
	a.lead = 6 * HOUR;
	a.low = 1;
	if (!ok(mg_adopt_run(&def, &a, &w, &d) == 0, "%s: low: a replay (%s)",
	    name, d.msg))
		return;
	a.low = 0;
	mg_adopt_run(&def, &a, &r, &d);
	for (k = 0; k < r.services; k++)
		same += r.svc[k].successors == w.svc[k].successors &&
		    r.svc[k].lease_h == w.svc[k].lease_h;
	ok(w.services == r.services && same == r.services && w.lease_h > 0 &&
	    w.interrupted == 0, "%s: an idle cluster: low or not, the same "
	    "take-overs (%zu of %zu, %.1f h of lease given up)", name, same,
	    r.services, w.lease_h);
	mg_adopt_release(&r);
	mg_adopt_release(&w);
	mg_clusterdef_release(&def);
}

/* a rule that submits at once, counting the calls that saw their own
 * job running as the chain's */
static size_t calls, saw_own;

static int
at_once(void *arg, const struct mg_view *v, const struct mg_chainnow *cn)
{
	size_t i, own = 0;

	(void)arg;
	calls++;
	for (i = 0; i < v->nrun; i++)
		own += v->run[i].chain;
	saw_own += own == 1 && cn->p_start >= 0 && cn->t >= cn->p_start &&
	    cn->p_elapsed == cn->t - cn->p_start && cn->p_limit == 48 * HOUR;
	return 1;
}

static int
fails(void *arg, const struct mg_view *v, const struct mg_chainnow *cn)
{
	(void)arg;
	(void)v;
	(void)cn;
	return MG_ENOMEM;
}

/* the caller's rule, asked at each tick with the service's view */
static void
rule(void)
{
	struct mg_clusterdef def;
	struct mg_adoptconf a;
	struct mg_adoptres r;
	struct mg_diag d = { "" };

	month_trace();
	if (def_of(MG_MODE_FAITHFUL, 64, &def) != 0)
		return;
	mg_adoptconf_init(&a);
	a.share = 0.3;
	a.span = 10 * 86400;
	a.method = MG_ADOPT_ASK;
	a.handover = 600;
	ok(mg_adopt_run(&def, &a, &r, &d) == MG_EINVAL, "a rule without its "
	    "function is refused");
	a.ask = at_once;
	d.msg[0] = '\0';
	if (!ok(mg_adopt_run(&def, &a, &r, &d) == 0, "a rule: a replay (%s)",
	    d.msg))
		return;
	ok(calls > 0 && saw_own == calls, "asked %zu times, each with its "
	    "own job running as the chain's (%zu)", calls, saw_own);
	ok(r.successors > 0 && r.interrupted == 0 && r.lease_h > 0,
	    "submitting at once on an idle cluster: no interruption, %.0f h "
	    "of lease given up", r.lease_h);
	mg_adopt_release(&r);
	a.ask = fails;
	ok(mg_adopt_run(&def, &a, &r, &d) == MG_ENOMEM, "the rule's failure "
	    "is the run's");
	mg_clusterdef_release(&def);
}

/*
 * MaxJobsAccrue=1: user 0's A (1 h) and B (2 h), user 1's C (3 h) wait
 * behind a 10-hour job on the whole cluster.  B's age counts only once
 * A has started, so C goes before it; without the limit, B goes first.
 */
static void
accrue_cap(int cap)
{
	struct mg_clusterdef def;
	struct mg_cluster *c;
	struct mg_diag d = { "" };
	int64_t a, b, cc;

	job(0, 0, 10 * HOUR, 10 * HOUR, 4, 2);
	job(1, HOUR, HOUR, HOUR, 4, 0);
	job(2, 2 * HOUR, HOUR, HOUR, 4, 0);
	job(3, 3 * HOUR, HOUR, HOUR, 4, 1);
	trace.job = jobs;
	trace.n = 4;
	trace.nusers = 3;
	if (def_of(MG_MODE_FAITHFUL, 4, &def) != 0)
		return;
	if (cap && !ok(mg_simconf_set(def.conf, "MaxJobsAccrue=1", &d) == 0,
	    "MaxJobsAccrue is a setting"))
		return;
	if (mg_cluster_new(&def, T0, T0 + 4 * HOUR, &c) != 0)
		return;
	mg_cluster_run(c, T0 + 14 * HOUR);
	a = mg_cluster_job_start(c, 1) - T0;
	b = mg_cluster_job_start(c, 2) - T0;
	cc = mg_cluster_job_start(c, 3) - T0;
	if (cap)
		ok(a == 10 * HOUR && cc == 11 * HOUR && b == 12 * HOUR,
		    "MaxJobsAccrue=1: A, then the other user's C, then B "
		    "(%lld %lld %lld s)", (long long)a, (long long)cc,
		    (long long)b);
	else
		ok(a == 10 * HOUR && b == 11 * HOUR && cc == 12 * HOUR,
		    "no limit: A, B, then C (%lld %lld %lld s)", (long long)a,
		    (long long)b, (long long)cc);
	mg_cluster_free(c);
	mg_clusterdef_release(&def);
}

int
main(void)
{
	take_over(MG_MODE_FAITHFUL, "faithful");
	take_over(MG_MODE_REFERENCE, "reference");
	ended_first(MG_MODE_FAITHFUL, "faithful");
	ended_first(MG_MODE_REFERENCE, "reference");
	picks();
	replicas();
	sees_others();
	alone();
	held();
	accrue(0);
	accrue(1);
	rule();
	accrue_cap(0);
	accrue_cap(1);
	low(MG_MODE_FAITHFUL, "faithful", 5 * HOUR);
	low(MG_MODE_FAITHFUL, "faithful", 2 * HOUR);
	low(MG_MODE_REFERENCE, "reference", 5 * HOUR);
	low(MG_MODE_REFERENCE, "reference", 2 * HOUR);
	low_idle(MG_MODE_FAITHFUL, "faithful");
	low_idle(MG_MODE_REFERENCE, "reference");
	return tap_done();
}
