/*
 * t_sim_micro.c: the reference mode on micro traces whose schedules can
 * be worked out by hand (4 nodes, minute steps, a backfill pass at
 * minutes 0, 10, 20, ... and a FIFO pass at the others).
 */
#include <stdio.h>
#include <string.h>

#include "mirage.h"
#include "cluster/sim.h"
#include "tap.h"

#define MIN 60
static const int64_t T0 = 1700000000 - 1700000000 % 3600;	/* a whole hour */

struct spec {
	const char *id;
	int64_t at, limit, dur;		/* minutes */
	int32_t nodes;
};

static struct mg_trace_job jobs[32];
static struct mg_trace trace;

static void
make(const struct spec *s, size_t n)
{
	size_t i;

	memset(jobs, 0, sizeof(jobs));
	for (i = 0; i < n; i++) {
		jobs[i].submit = T0 + s[i].at * MIN;
		jobs[i].limit = s[i].limit * MIN;
		jobs[i].dur = s[i].dur * MIN;
		jobs[i].nodes = s[i].nodes;
		snprintf(jobs[i].id, sizeof(jobs[i].id), "%s", s[i].id);
	}
	trace.job = jobs;
	trace.n = n;
}

/* start minute of each trace job after running for minutes */
static void
run(int nodes, int64_t minutes, int64_t *start, size_t n)
{
	struct mg_sim_params c;
	struct mg_sim *s;
	size_t i;

	mg_sim_params_reference(&c, nodes);
	if (mg_sim_new(&c, &trace, T0, T0, T0 + 100000 * MIN, &s) != 0)
		return;
	while (mg_sim_time(s) < T0 + minutes * MIN)
		mg_sim_step(s);
	for (i = 0; i < n; i++) {
		int64_t t = mg_sim_job_start(s, (mg_jobref)i);

		start[i] = t < 0 ? -1 : (t - T0) / MIN;
	}
	mg_sim_free(s);
}

/* start minute of each trace job of a warm start at T0 (the trace's
 * start minutes before T0 mean running); prio_of: job 3's priority if
 * >= 0; bf: the next backfill pass (0: none known) */
static void
run_warm(int64_t bf, double prio3, int64_t *start, size_t n)
{
	struct mg_sim_params c;
	struct mg_sim *s;
	size_t i;

	for (i = 0; i < n; i++)
		start[i] = -99;
	mg_sim_params_reference(&c, 4);
	if (mg_sim_new_warm(&c, &trace, T0, T0 + 1000 * MIN, &s) != 0)
		return;
	mg_sim_set_bf_next(s, bf);
	if (prio3 >= 0 && mg_sim_set_prio(s, 3, prio3) != 0) {
		mg_sim_free(s);
		return;
	}
	while (mg_sim_time(s) < T0 + 300 * MIN)
		mg_sim_step(s);
	for (i = 0; i < n; i++) {
		int64_t t = mg_sim_job_start(s, (mg_jobref)i);

		start[i] = t < 0 ? -1 : (t - T0) / MIN;
	}
	mg_sim_free(s);
}

/*
 * a warm start in the middle of a minute: A (2 nodes) and B (3) were
 * submitted in that minute before it, C (2) just after; each is pending
 * once, so B (the larger first) starts at once and A and C together at
 * its end, when the 4 nodes are free
 */
static void
warm_mid_minute(void)
{
	static const struct mg_trace_job tj[] = {
		{ .id = "A", .submit = T0 + 10, .limit = 60 * MIN,
		    .dur = 60 * MIN, .nodes = 2, .start = -1 },
		{ .id = "B", .submit = T0 + 20, .limit = 60 * MIN,
		    .dur = 60 * MIN, .nodes = 3, .start = -1 },
		{ .id = "C", .submit = T0 + 40, .limit = 60 * MIN,
		    .dur = 60 * MIN, .nodes = 2, .start = -1 },
	};
	struct mg_trace t = { 0 };
	struct mg_sim_params c;
	struct mg_sim *s;
	int64_t a, b, cc;

	t.job = (struct mg_trace_job *)tj;
	t.n = 3;
	mg_sim_params_reference(&c, 4);
	if (mg_sim_new_warm(&c, &t, T0 + 30, T0 + 1000 * MIN, &s) != 0) {
		ok(0, "a warm start in the middle of a minute");
		return;
	}
	while (mg_sim_time(s) < T0 + 200 * MIN)
		mg_sim_step(s);
	a = mg_sim_job_start(s, 0);
	b = mg_sim_job_start(s, 1);
	cc = mg_sim_job_start(s, 2);
	ok(b == T0 && a == T0 + 60 * MIN && cc == T0 + 60 * MIN, "a warm start in the "
	    "middle of a minute: the jobs submitted in it before start once "
	    "(A %lld, B %lld, C %lld min)", (long long)(a - T0) / MIN,
	    (long long)(b - T0) / MIN, (long long)(cc - T0) / MIN);
	mg_sim_free(s);
}

int
main(void)
{
	int64_t st[8];

	/* X holds 3 of 4 nodes for an hour; Y wants all 4 from minute 5 */
	{
		struct spec s[] = {
			{ "10", 0, 60, 60, 3 },
			{ "11", 5, 60, 60, 4 },
			{ "12", 5, 30, 10, 1 },	/* fits before Y's reservation */
		};
		make(s, 3);
		run(4, 300, st, 3);
		ok(st[0] == 0, "X starts at once (%lld)", (long long)st[0]);
		ok(st[2] == 10, "a short job behind the blocked head waits for "
		    "the backfill pass and starts at minute 10 (%lld)",
		    (long long)st[2]);
		ok(st[1] == 60, "the head starts when X's nodes come back (%lld)",
		    (long long)st[1]);
	}
	{
		struct spec s[] = {
			{ "10", 0, 60, 60, 3 },
			{ "11", 5, 60, 60, 4 },
			{ "12", 5, 60, 10, 1 },	/* would run into it */
		};
		make(s, 3);
		run(4, 300, st, 3);
		ok(st[2] == 120, "a job whose limit reaches the head's "
		    "reservation is not backfilled; it runs after the head "
		    "(%lld)", (long long)st[2]);
	}
	/* FIFO minutes: strict head-of-line blocking */
	{
		struct spec s[] = {
			{ "10", 0, 15, 15, 3 },
			{ "11", 1, 60, 60, 2 },
			{ "12", 1, 5, 5, 1 },
		};
		make(s, 3);
		run(4, 100, st, 3);
		ok(st[2] == 10, "FIFO passes do not start a job behind a blocked "
		    "head; the backfill pass at minute 10 does (%lld)",
		    (long long)st[2]);
		ok(st[1] == 15, "the head starts when nodes free (%lld)",
		    (long long)st[1]);
	}
	/* priority: 25 per node at 4 nodes, against 0.694 per minute of age */
	{
		struct spec s[] = {
			{ "10", 0, 120, 120, 4 },
			{ "11", 1, 10, 10, 3 },	/* waits from minute 1 */
			{ "12", 30, 10, 10, 4 },	/* 29 min younger, 1 node bigger */
		};
		make(s, 3);
		run(4, 400, st, 3);
		ok(st[2] == 120 && st[1] == 130, "a bigger job 29 minutes younger "
		    "goes first (25 > 29 * 0.694): %lld, %lld", (long long)st[2],
		    (long long)st[1]);
	}
	{
		struct spec s[] = {
			{ "10", 0, 120, 120, 4 },
			{ "11", 1, 10, 10, 3 },
			{ "12", 38, 10, 10, 4 },	/* 37 min younger */
		};
		make(s, 3);
		run(4, 400, st, 3);
		ok(st[1] == 120 && st[2] == 130, "37 minutes of age outweigh one "
		    "node (37 * 0.694 > 25): %lld, %lld", (long long)st[1],
		    (long long)st[2]);
	}
	/* same minute, same size: arrival order is by id as a string */
	{
		struct spec s[] = {
			{ "10", 0, 30, 30, 4 },
			{ "9", 1, 10, 10, 4 },
			{ "100", 1, 10, 10, 4 },
		};
		make(s, 3);
		run(4, 200, st, 3);
		ok(st[2] == 30 && st[1] == 40, "\"100\" sorts before \"9\": %lld, "
		    "%lld", (long long)st[2], (long long)st[1]);
	}
	/* a zero-length job holds its nodes for one minute */
	{
		struct spec s[] = {
			{ "10", 0, 10, 0, 4 },
			{ "11", 0, 10, 5, 4 },
		};
		make(s, 2);
		run(4, 100, st, 2);
		ok(st[0] == 0 && st[1] == 1, "zero-length job: next starts a "
		    "minute later (%lld)", (long long)st[1]);
	}
	/* a job cannot run past its limit: the trace clamps it */
	{
		struct mg_sim_params c;
		struct mg_sim *s;
		mg_jobref p, q;
		int okx;
		int64_t x;

		make(NULL, 0);
		mg_sim_params_reference(&c, 4);
		mg_sim_new(&c, &trace, T0, T0, T0, &s);
		p = mg_sim_add_chain_job(s, "1000000", 4, 60 * MIN, 90 * MIN,
		    T0, -1, 1);
		q = mg_sim_add_chain_job(s, "1000001", 4, 60 * MIN, 60 * MIN,
		    T0 + 30 * MIN, p, 1);
		mg_sim_run_until_start(s, q, T0 + 1000 * MIN);
		x = mg_sim_chain_gap(s, q, &okx);
		ok(mg_sim_job_start(s, q) == T0 + 60 * MIN && okx && x == 0,
		    "a 90-minute run with a 60-minute limit ends at the limit; "
		    "the successor queued before starts then, x = 0 (%lld)",
		    (long long)x);
		mg_sim_free(s);
	}
	/* a successor submitted at its predecessor's end waits for nodes */
	{
		struct spec s[] = {
			{ "10", 50, 100, 100, 4 },	/* grabs the nodes at 60 */
		};
		struct mg_sim_params c;
		struct mg_sim *sim;
		mg_jobref p, q;
		int okx;
		int64_t x;

		make(s, 1);
		mg_sim_params_reference(&c, 4);
		mg_sim_new(&c, &trace, T0, T0, T0 + 1000 * MIN, &sim);
		p = mg_sim_add_chain_job(sim, "1000000", 4, 60 * MIN, 60 * MIN,
		    T0, -1, 1);
		mg_sim_run_until_start(sim, p, T0 + 1000 * MIN);
		while (mg_sim_time(sim) < T0 + 60 * MIN)
			mg_sim_step(sim);
		q = mg_sim_add_chain_job(sim, "1000001", 4, 60 * MIN, 60 * MIN,
		    0, p, 0);
		mg_sim_run_until_start(sim, q, T0 + 1000 * MIN);
		x = mg_sim_chain_gap(sim, q, &okx);
		ok(okx && x == 100 * MIN, "reactive successor behind a trace job "
		    "that arrived earlier: interruption of 100 minutes (%lld s)",
		    (long long)x);
		mg_sim_free(sim);
	}
	/* a copy continues exactly like the original */
	{
		static struct spec s[20];
		struct mg_sim_params c;
		struct mg_sim *a, *b;
		char ids[20][12];
		int i, same = 1;

		for (i = 0; i < 20; i++) {
			snprintf(ids[i], sizeof(ids[i]), "%d", 100 + i);
			s[i].id = ids[i];
			s[i].at = i * 7 % 50;
			s[i].limit = 20 + i * 13 % 90;
			s[i].dur = s[i].limit * (i % 4 + 1) / 4;
			s[i].nodes = 1 + i % 4;
		}
		make(s, 20);
		mg_sim_params_reference(&c, 4);
		mg_sim_new(&c, &trace, T0, T0, T0 + 1000 * MIN, &a);
		while (mg_sim_time(a) < T0 + 37 * MIN)
			mg_sim_step(a);
		b = mg_sim_copy(a);
		while (mg_sim_time(a) < T0 + 2000 * MIN)
			mg_sim_step(a);
		while (mg_sim_time(b) < T0 + 2000 * MIN)
			mg_sim_step(b);
		for (i = 0; i < 20; i++)
			if (mg_sim_job_start(a, i) != mg_sim_job_start(b, i) ||
			    mg_sim_job_start(a, i) < 0) {
				printf("# job %d: %lld vs %lld\n", i,
				    (long long)mg_sim_job_start(a, i),
				    (long long)mg_sim_job_start(b, i));
				same = 0;
			}
		ok(same, "running from a copy gives the same schedule as running "
		    "straight through");
		mg_sim_free(a);
		mg_sim_free(b);
	}
	/* a warm start: X runs on 3 of 4 nodes since minute -30, Y (4
	 * nodes) is pending, Z (1 node, 20 min) arrives at minute 5 */
	{
		struct spec s[] = {
			{ "1", -40, 60, 60, 3 },
			{ "2", -5, 60, 60, 4 },
			{ "3", 5, 20, 10, 1 },
		};
		make(s, 3);
		jobs[0].start = T0 - 30 * MIN;
		jobs[1].start = T0 + 30 * MIN;	/* after T0: pending then */
		jobs[2].start = -1;
		run_warm(0, -1, st, 3);
		ok(st[0] == -30 && st[1] == 30 && st[2] == 10, "warm: X ran "
		    "from minute -30, Y starts when its nodes come back (30), "
		    "Z in the backfill pass at 10 (%lld %lld %lld)",
		    (long long)st[0], (long long)st[1], (long long)st[2]);
		run_warm(T0 + 3 * MIN, -1, st, 3);
		ok(st[1] == 30 && st[2] == 13, "warm, the next backfill pass "
		    "at minute 3: Z starts at 13 (%lld %lld)",
		    (long long)st[1], (long long)st[2]);
		/* W (1 node, an hour), pending behind Y by size; given a
		 * priority above Y's it goes first and delays Y */
		jobs[3] = jobs[1];
		jobs[3].submit = T0 - 10 * MIN;
		jobs[3].nodes = 1;
		snprintf(jobs[3].id, sizeof(jobs[3].id), "4");
		trace.n = 4;
		run_warm(0, -1, st, 4);
		ok(st[1] == 30 && st[3] == 90, "warm: W waits behind Y "
		    "(%lld %lld)", (long long)st[1], (long long)st[3]);
		run_warm(0, 1000, st, 4);
		ok(st[3] == 0 && st[1] == 60, "warm, W's priority set above "
		    "Y's: W at once, Y when W ends (%lld %lld)",
		    (long long)st[3], (long long)st[1]);
		/* more running than the nodes (X's 3 and Y's 4 on 4, a
		 * capacity that fell): Z waits until enough have ended,
		 * Y's end at minute 59 */
		jobs[1].start = T0 - 1 * MIN;
		trace.n = 3;
		run_warm(0, -1, st, 3);
		ok(st[0] == -30 && st[1] == -1 && st[2] == 59, "warm, 7 nodes "
		    "running on 4: Z starts when Y has ended (%lld %lld %lld)",
		    (long long)st[0], (long long)st[1], (long long)st[2]);
	}
	/*
	 * Ageing, as the original does it: every minute each pending job's
	 * priority gains 7000 * 60 / 604800, rounded at each addition.  A
	 * (1 node: 25) waits m minutes behind a blocker when B (2 nodes: 50)
	 * comes; B goes before A only if A's m additions are still below
	 * 50 (about m = 36, where rounding decides).  The simulator adds
	 * lazily; its order and priorities must be the additions' own.
	 */
	{
		struct spec s[] = {
			{ "1", 0, 1000, 1000, 4 },
			{ "2", 1, 10, 10, 1 },		/* A */
			{ "3", 0, 10, 10, 2 },		/* B, at 1 + m */
		};
		struct mg_sim_params c;
		struct mg_view v;
		int m, k, bad = 0, before = 0;

		memset(&v, 0, sizeof(v));
		mg_sim_params_reference(&c, 4);
		for (m = 30; m <= 42; m++) {
			double a = 25, b = 50, inc = c.w_age * 60 / c.max_age;
			struct mg_sim *sim;
			int b_first;

			s[2].at = 1 + m;
			make(s, 3);
			mg_sim_new(&c, &trace, T0, T0, T0 + 1000 * MIN, &sim);
			while (mg_sim_time(sim) <= T0 + (1 + m) * MIN)
				mg_sim_step(sim);
			for (k = 0; k < m; k++)
				a += inc;
			b_first = a < b;	/* at B's arrival */
			a += inc;		/* and the minute's ageing */
			b += inc;
			before += b_first;
			if (mg_sim_view(sim, 1, 0, &v) != 0 || v.npend != 2 ||
			    v.pend[0].trace != (b_first ? 2 : 1) ||
			    v.pend[b_first ? 1 : 0].prio != a ||
			    v.pend[b_first ? 0 : 1].prio != b)
				bad++;
			mg_sim_free(sim);
		}
		mg_view_release(&v);
		ok(bad == 0 && before > 0 && before < 13, "lazy ageing: the "
		    "order and priorities are those of a minute-by-minute "
		    "addition (%d of 13 differ; B first in %d)", bad, before);
	}
	/*
	 * A pass worked out from the last one stops at a job new in the
	 * list: C comes in ahead of A between two passes (a wider job,
	 * younger by minutes), and takes the nodes X leaves at minute 120.
	 */
	{
		struct spec s[] = {
			{ "10", 0, 120, 120, 3 },	/* X */
			{ "11", 95, 60, 60, 2 },	/* A */
			{ "12", 105, 60, 60, 3 },	/* C */
		};
		make(s, 3);
		run(4, 300, st, 3);
		ok(st[2] == 120 && st[1] == 180, "a job new in the list ahead "
		    "of the last pass's starts first (C %lld, A %lld)",
		    (long long)st[2], (long long)st[1]);
	}
	/*
	 * A backfill pass may be worked out from the pass a slot before
	 * (see backfill() in sim.c); a copy carries no earlier pass and
	 * makes its own.  Every minute of random loads, a copy and the
	 * simulator it was copied from start the same jobs.
	 */
	{
		static struct mg_trace_job rj[150];
		struct mg_trace rt;
		struct mg_sim_params c;
		struct mg_sim *a, *b;
		uint64_t x = 42;
		int load, bad = 0, passes = 0, started = 0;
		size_t i, n = sizeof(rj) / sizeof(rj[0]);

		/* loads of about 1.1, 0.8 and 0.6 of long jobs; then short
		 * ones arriving often, a wide one passing the narrow ones
		 * that came shortly before it */
		for (load = 0; load < 4; load++) {
			int64_t at = T0;

			memset(rj, 0, sizeof(rj));
			for (i = 0; i < n; i++) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				at += (int64_t)((x >> 33) % (uint64_t)(load < 3 ?
				    500 + 200 * load : 40)) * MIN;
				rj[i].submit = at;
				/* limits of 10 minutes to 60 hours, past the window */
				rj[i].limit = (int64_t)(10 + (x >> 20) % 3590) * MIN;
				if ((x >> 45) % 3 == 0)
					rj[i].limit = 2880 * MIN;
				if (load == 3)
					rj[i].limit = (int64_t)(10 + (x >> 20) % 300) * MIN;
				/* a third run to their limit, as most long jobs do */
				rj[i].dur = (x >> 8) % 3 == 0 ? rj[i].limit :
				    rj[i].limit * (int64_t)(1 + (x >> 12) % 100) / 100;
				rj[i].nodes = (int32_t)(1 + (x >> 40) % ((x >> 52) % 4 == 0 ? 8 : 3));
				rj[i].start = -1;
				rj[i].prio = -1;
				snprintf(rj[i].id, sizeof(rj[i].id), "%06zu", i);
			}
			memset(&rt, 0, sizeof(rt));
			rt.job = rj;
			rt.n = n;
			mg_sim_params_reference(&c, 8);
			if (mg_sim_new(&c, &rt, T0, T0, at, &a) != 0)
				break;
			while (mg_sim_started(a) < n && mg_sim_time(a) < at + 100000 * MIN) {
				if ((b = mg_sim_copy(a)) == NULL)
					break;
				mg_sim_step(a);
				mg_sim_step(b);
				passes++;
				for (i = 0; i < n; i++)
					if (mg_sim_job_start(a, (mg_jobref)i) !=
					    mg_sim_job_start(b, (mg_jobref)i))
						bad++;
				mg_sim_free(b);
			}
			started += (int)mg_sim_started(a);
			mg_sim_free(a);
		}
		ok(bad == 0 && started == 4 * (int)n, "a pass worked out from "
		    "the last starts what a pass of its own does (%d of %d "
		    "minutes differ; %d of %d jobs started)", bad, passes,
		    started, 4 * (int)n);
	}
	warm_mid_minute();
	return tap_done();
}
