/* t_accel.c: the multi-accelerator model and its dispatchers, by hand. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel/accel.h"
#include "tap.h"

/* a network of n layers of t seconds and bw bytes/s on both dataflows */
static struct mg_layer lay[8][8];

static void
synth(struct mg_net *net, int k, size_t n, double t, double bw)
{
	size_t i;
	int df;

	memset(net, 0, sizeof(*net));
	net->n = n;
	net->l = lay[k];
	for (i = 0; i < n; i++) {
		memset(&lay[k][i], 0, sizeof(lay[k][i]));
		for (df = 0; df < MG_DF_N; df++) {
			lay[k][i].cost[df].time = t;
			lay[k][i].cost[df].bw = bw;
			lay[k][i].cost[df].energy = 1;
		}
	}
	net->best = t * (double)n;
	net->best_df = MG_DF_WS;
}

/* a dispatcher that likes bandwidth: a pair's score is its bw_here */
static int
greedy_bw(void *ctx, const double *feat, size_t n, double *out)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < n; i++)
		out[i] = feat[i * MG_AFEAT + 5];
	return 0;
}

int
main(void)
{
	struct mg_accel_config c;
	struct mg_net nets[MG_NNETS], sy[2];
	struct mg_accel_request req[4], *rq;
	struct mg_arun run, run2;
	size_t i;
	int k, ok_all = 1;

	/* the real networks: built, with costs, best dataflows as meant */
	for (k = 0; k < MG_NNETS; k++)
		ok_all &= mg_net_build(mg_net_names[k], 1024, &nets[k]) == 0 &&
		    nets[k].n > 0 && nets[k].best > 0;
	ok(ok_all && nets[0].n == 54 && nets[2].n == 16 && nets[3].n == 72,
	    "the networks' layers: ResNet-50 %zu, VGG-16 %zu, BERT %zu",
	    nets[0].n, nets[2].n, nets[3].n);
	ok(nets[0].best_df == MG_DF_WS && nets[1].best_df == MG_DF_RS &&
	    nets[4].best_df == MG_DF_RS, "ResNet-50 runs best on WS, "
	    "MobileNetV2 (depthwise) and the LSTM on RS");

	/* one sub-accelerator, bandwidth without limit: FCFS serves a
	 * request in the sum of its layers, the second after the first */
	mg_accel_config_default(&c);
	c.nsa = 1;
	c.bw = 1e30;
	memset(req, 0, sizeof(req));
	req[0].net = req[1].net = 0;
	req[0].deadline = req[1].deadline = 1e9;
	mg_accel_run(&c, nets, MG_NNETS, req, 2, MG_AP_FCFS, 1, &run);
	{
		double sum = 0;

		for (i = 0; i < nets[0].n; i++)
			sum += nets[0].l[i].cost[MG_DF_WS].time;
		ok(fabs(req[0].end - sum) < 1e-9 * sum && fabs(req[1].end -
		    2 * sum) < 1e-9 * sum && run.decisions == 2 * nets[0].n,
		    "one sub-accelerator, FCFS: latency the sum of the layers "
		    "(%.6f s, %.6f s), the next after it", req[0].end, sum);
	}

	/* two sub-accelerators asking twice the bandwidth between them: both
	 * layers (1 s each at full speed) end at 2 s; busy 4 s for 2 s of
	 * work */
	synth(&sy[0], 0, 1, 1.0, 10e9);
	c.nsa = 2;
	c.bw = 10e9;
	memset(req, 0, sizeof(req));
	req[0].deadline = req[1].deadline = 10;
	mg_accel_run(&c, sy, 1, req, 2, MG_AP_FCFS, 1, &run);
	ok(fabs(req[0].end - 2) < 1e-9 && fabs(req[1].end - 2) < 1e-9 &&
	    fabs(run.busy - 4) < 1e-9 && fabs(run.oversub - 2) < 1e-9,
	    "bandwidth shared in proportion: both end at 2 s (%g, %g), the "
	    "work conserved", req[0].end, req[1].end);

	/* EDF against FCFS: A (4 layers of 1 s, deadline 10) at 0, B (1
	 * layer, deadline 2.5) at 0.5 on one sub-accelerator: FCFS runs A
	 * to its end and B misses; EDF runs B after A's first layer */
	synth(&sy[0], 0, 4, 1.0, 0);
	synth(&sy[1], 1, 1, 1.0, 0);
	c.nsa = 1;
	c.bw = 1e30;
	memset(req, 0, sizeof(req));
	req[0].net = 0;
	req[0].deadline = 10;
	req[1].net = 1;
	req[1].arrival = 0.5;
	req[1].deadline = 2.5;
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_FCFS, 1, &run);
	ok(run.met == 1 && fabs(req[1].end - 5) < 1e-9, "FCFS: B waits for "
	    "all of A, ends at 5 (%g), a miss", req[1].end);
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_EDF, 1, &run);
	ok(run.met == 2 && fabs(req[1].end - 2) < 1e-9 && fabs(req[0].end -
	    5) < 1e-9, "EDF: B after A's first layer, at 2 (%g); both met",
	    req[1].end);

	/* feasible first: A (4 layers of 1 s, deadline 3: hopeless) and B
	 * (1 layer, deadline 3.5) at 0 on one sub-accelerator.  EDF runs
	 * all of A first (its deadline is the earlier) and both miss; FEDF
	 * runs B first, which meets its deadline at 1, then A */
	memset(req, 0, sizeof(req));
	req[0].net = 0;
	req[0].deadline = 3;
	req[1].net = 1;
	req[1].deadline = 3.5;
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_EDF, 1, &run);
	ok(run.met == 0 && fabs(req[0].end - 4) < 1e-9 && fabs(req[1].end -
	    5) < 1e-9, "EDF: the hopeless A first (ends at %g), B at %g, both "
	    "miss", req[0].end, req[1].end);
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_FEDF, 1, &run);
	ok(run.met == 1 && fabs(req[1].end - 1) < 1e-9 && fabs(req[0].end -
	    5) < 1e-9, "FEDF: B first, met at %g; A after, at %g", req[1].end,
	    req[0].end);
	req[0].deadline = 4.5;	/* A can meet it: deadline order again */
	req[1].deadline = 6;
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_FEDF, 1, &run);
	ok(run.met == 2 && fabs(req[0].end - 4) < 1e-9 && fabs(req[1].end -
	    5) < 1e-9, "FEDF: A, feasible, first (%g), then B (%g)",
	    req[0].end, req[1].end);

	/* the shortest feasible first: A (4 layers, deadline 4.5) and B (1
	 * layer, deadline 6) at 0.  FEDF runs A first (the earlier
	 * deadline), both met; FSJF runs B first (the shorter), and A,
	 * ending at 5, misses */
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_FSJF, 1, &run);
	ok(run.met == 1 && fabs(req[1].end - 1) < 1e-9 && fabs(req[0].end -
	    5) < 1e-9, "FSJF: the shorter B first (%g), A after (%g)",
	    req[1].end, req[0].end);
	/* ... but not a hopeless one: A (1 layer, deadline 0.5) is shorter
	 * than B (4 layers, deadline 10), and goes after it */
	memset(req, 0, sizeof(req));
	req[0].net = 1;
	req[0].deadline = 0.5;
	req[1].net = 0;
	req[1].deadline = 10;
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_FSJF, 1, &run);
	ok(run.met == 1 && fabs(req[1].end - 4) < 1e-9 && fabs(req[0].end -
	    5) < 1e-9, "FSJF: the hopeless short A after B (%g, %g)",
	    req[0].end, req[1].end);
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_SJF, 1, &run);
	ok(fabs(req[0].end - 1) < 1e-9, "SJF: the hopeless short A first "
	    "(%g)", req[0].end);

	/* place: a layer of 1 s on WS, 3 s on RS, sub-accelerator 0 RS and
	 * 1 WS, both idle.  FEDF gives it the first idle one (RS, ends at
	 * 3); place the one where it runs at its best (WS, ends at 1) */
	synth(&sy[1], 1, 1, 1.0, 0);
	lay[1][0].cost[MG_DF_RS].time = 3;
	c.nsa = 2;
	c.df[0] = MG_DF_RS;
	c.df[1] = MG_DF_WS;
	memset(req, 0, sizeof(req));
	req[0].net = 1;
	req[0].deadline = 10;
	mg_accel_run(&c, sy, 2, req, 1, MG_AP_FEDF, 1, &run);
	ok(fabs(req[0].end - 3) < 1e-9, "FEDF: the first idle one, RS (ends "
	    "at %g)", req[0].end);
	mg_accel_run(&c, sy, 2, req, 1, MG_AP_PLACE, 1, &run);
	ok(fabs(req[0].end - 1) < 1e-9, "place: where it runs fastest, WS "
	    "(ends at %g)", req[0].end);
	/* strict: two of them at 0, a third at 100.  Place runs the second
	 * on RS (ends at 3); strict lets RS wait and runs it on WS after
	 * the first (2) */
	req[1] = req[0];
	req[2] = req[0];
	req[2].arrival = 100;
	req[2].deadline = 110;
	mg_accel_run(&c, sy, 2, req, 3, MG_AP_PLACE, 1, &run);
	ok(fabs(req[0].end - 1) < 1e-9 && fabs(req[1].end - 3) < 1e-9,
	    "place: the second on the idle RS (ends at %g)", req[1].end);
	mg_accel_run(&c, sy, 2, req, 3, MG_AP_STRICT, 1, &run);
	ok(fabs(req[0].end - 1) < 1e-9 && fabs(req[1].end - 2) < 1e-9 &&
	    fabs(req[2].end - 101) < 1e-9, "strict: RS waits, the second "
	    "runs on WS after the first (ends at %g)", req[1].end);
	/* ... but not once the last has arrived: then what waits runs */
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_STRICT, 1, &run);
	ok(fabs(req[1].end - 3) < 1e-9, "strict, nothing more to arrive: "
	    "the second on RS (ends at %g)", req[1].end);
	/* ... and never forever: with RS alone, all run there */
	c.nsa = 1;
	mg_accel_run(&c, sy, 2, req, 3, MG_AP_STRICT, 1, &run);
	ok(run.requests == 3 && fabs(req[0].end - 3) < 1e-9 &&
	    fabs(req[1].end - 6) < 1e-9, "strict on RS alone: all run there "
	    "(end at %g and %g)", req[0].end, req[1].end);
	c.nsa = 2;
	/* fit, on RS, WS and RS, the same three: the first runs on WS.
	 * With RS at 3 s, the second ends soonest on WS after the first
	 * (at 2), so it waits, as in strict; place runs it on RS (ends at
	 * 3).  With RS at 1.5 s it ends sooner on an idle RS (1.5), so fit
	 * runs it there while two are idle, and strict waits (2) */
	c.nsa = 3;
	c.df[2] = MG_DF_RS;
	mg_accel_run(&c, sy, 2, req, 3, MG_AP_FIT, 1, &run);
	ok(fabs(req[0].end - 1) < 1e-9 && fabs(req[1].end - 2) < 1e-9,
	    "fit, RS at 3 s: the second waits for WS (ends at %g)",
	    req[1].end);
	lay[1][0].cost[MG_DF_RS].time = 1.5;
	mg_accel_run(&c, sy, 2, req, 3, MG_AP_FIT, 1, &run);
	ok(fabs(req[0].end - 1) < 1e-9 && fabs(req[1].end - 1.5) < 1e-9 &&
	    fabs(req[2].end - 101) < 1e-9, "fit, RS at 1.5 s: the second on "
	    "an idle RS (ends at %g)", req[1].end);
	mg_accel_run(&c, sy, 2, req, 3, MG_AP_STRICT, 1, &run);
	ok(fabs(req[1].end - 2) < 1e-9, "strict, RS at 1.5 s: the second "
	    "waits for WS (ends at %g)", req[1].end);
	/* ... and only while two are idle: on RS and WS alone it waits */
	c.nsa = 2;
	mg_accel_run(&c, sy, 2, req, 3, MG_AP_FIT, 1, &run);
	ok(fabs(req[1].end - 2) < 1e-9, "fit with one idle: the second "
	    "waits for WS (ends at %g)", req[1].end);
	lay[1][0].cost[MG_DF_RS].time = 1;
	c.df[0] = MG_DF_WS;
	/* strict and the hopeless: on three WS, F1 and F2 (deadline 10)
	 * and H (deadline 0.5, past hope) at 0, one more at 100.  Place
	 * runs all three at once; strict runs H only once all but one are
	 * idle again, at 1 (ends at 2), and at once when nothing more is
	 * to arrive */
	c.nsa = 3;
	c.df[2] = MG_DF_WS;
	memset(req, 0, sizeof(req));
	req[0].net = req[1].net = req[2].net = req[3].net = 1;
	req[0].deadline = req[1].deadline = 10;
	req[2].deadline = 0.5;
	req[3].arrival = 100;
	req[3].deadline = 110;
	mg_accel_run(&c, sy, 2, req, 4, MG_AP_PLACE, 1, &run);
	ok(fabs(req[2].end - 1) < 1e-9, "place: the hopeless H at once (ends "
	    "at %g)", req[2].end);
	mg_accel_run(&c, sy, 2, req, 4, MG_AP_STRICT, 1, &run);
	ok(fabs(req[0].end - 1) < 1e-9 && fabs(req[1].end - 1) < 1e-9 &&
	    fabs(req[2].end - 2) < 1e-9 && run.met == 3, "strict: F1, F2 at "
	    "once, H once two are idle (ends at %g)", req[2].end);
	mg_accel_run(&c, sy, 2, req, 3, MG_AP_STRICT, 1, &run);
	ok(fabs(req[2].end - 1) < 1e-9, "strict, nothing more to arrive: H "
	    "at once (ends at %g)", req[2].end);
	/* with drop, H is dropped at 0, unserved, by any dispatcher; the
	 * latencies are the served ones' */
	c.drop = 1;
	mg_accel_run(&c, sy, 2, req, 4, MG_AP_PLACE, 1, &run);
	ok(req[2].end == -1 && req[2].energy == 0 && run.dropped == 1 &&
	    run.met == 3 && run.decisions == 3 && fabs(run.lat_mean - 1) <
	    1e-9, "drop: H unserved (%zu dropped, %zu met, %llu layers, mean "
	    "latency %g)", run.dropped, run.met, (unsigned long long)
	    run.decisions, run.lat_mean);
	c.drop = 0;
	c.nsa = 2;

	/* EDF at light load on one sub-accelerator: every deadline of at
	 * least the isolated latency is met */
	c.nsa = 1;
	c.df[0] = MG_DF_WS;
	mg_accel_requests(&c, nets, 1, 300, 0.05, 1.0, 1, 3, &rq);
	mg_accel_run(&c, nets, 1, rq, 300, MG_AP_EDF, 1, &run);
	ok(run.met >= 300 * 90 / 100, "EDF, light load (5%%), deadlines at "
	    "the isolated latency: %zu of 300 met (the others arrive while "
	    "one runs)", run.met);
	free(rq);

	/* the same seed, the same run; random differs from FCFS */
	mg_accel_config_default(&c);
	mg_accel_requests(&c, nets, MG_NNETS, 2000, 0.9, 2, 1, 5, &rq);
	mg_accel_run(&c, nets, MG_NNETS, rq, 2000, MG_AP_RANDOM, 7, &run);
	mg_accel_run(&c, nets, MG_NNETS, rq, 2000, MG_AP_RANDOM, 7, &run2);
	ok(memcmp(&run, &run2, sizeof(run)) == 0, "same seed, same run");
	{
		enum mg_apolicy p;
		int all = 1;

		for (p = 0; p < MG_AP_N; p++)
			all &= mg_accel_run(&c, nets, MG_NNETS, rq, 2000, p, 1,
			    &run) == 0 && run.requests == 2000 &&
			    run.decisions > 0;
		ok(all, "every policy serves every request");
	}
	free(rq);
	{
		/* bursts: the same mean rate as Poisson, but the counts in
		 * windows of one burst's length vary far more (Poisson's
		 * variance is its mean) */
		struct mg_accel_request *rb;
		double span[2], disp[2], w, mean = 0;
		size_t x;
		int b;

		for (x = 0; x < MG_NNETS; x++)
			mean += nets[x].best / MG_NNETS;
		w = MG_ACCEL_BURST_ON * mean;
		for (b = 0; b < 2; b++) {
			double cnt[4096] = { 0 }, m = 0, v = 0;
			size_t nw;

			mg_accel_requests(&c, nets, MG_NNETS, 20000, 0.5, 2,
			    b ? 4 : 1, 11, &rb);
			span[b] = rb[19999].arrival;
			nw = (size_t)(span[b] / w);
			if (nw > 4096)
				nw = 4096;
			for (x = 0; x < 20000; x++)
				if ((size_t)(rb[x].arrival / w) < nw)
					cnt[(size_t)(rb[x].arrival / w)]++;
			for (x = 0; x < nw; x++)
				m += cnt[x] / (double)nw;
			for (x = 0; x < nw; x++)
				v += (cnt[x] - m) * (cnt[x] - m) / (double)nw;
			disp[b] = v / m;
			free(rb);
		}
		ok(fabs(span[1] / span[0] - 1) < 0.1 && disp[0] < 1.5 &&
		    disp[1] > 5, "bursts of 4: the same span (%.3f x Poisson's), "
		    "counts' variance / mean %.1f against Poisson's %.1f",
		    span[1] / span[0], disp[1], disp[0]);
		ok(mg_accel_requests(&c, nets, MG_NNETS, 10, 0.5, 2, 0.5, 1,
		    &rb) == MG_EINVAL, "a burst factor under 1 is refused");
	}
	{
		/* a measured table replaces the analytic costs */
		FILE *fp;
		char path[64];
		struct mg_diag d = { "" };
		int fd;

		snprintf(path, sizeof(path), "/tmp/t_accel.%d.csv", (int)getpid());
		fp = fopen(path, "w");
		fprintf(fp, "# layer,dataflow,seconds,bytes,joules\n0,ws,0.5,1000,2\n");
		fclose(fp);
		fd = mg_net_read_costs(&nets[2], path, &d);
		ok(fd == 0 && nets[2].l[0].cost[MG_DF_WS].time == 0.5 &&
		    nets[2].l[0].cost[MG_DF_WS].bw == 2000 &&
		    nets[2].l[0].cost[MG_DF_WS].energy == 2, "a measured table "
		    "replaces a layer's cost (%s)", d.msg);
		fp = fopen(path, "w");
		fprintf(fp, "0,ws,0.5,1000,2\n99,rs,1,1,1\n");
		fclose(fp);
		fd = mg_net_read_costs(&nets[2], path, &d);
		ok(fd == MG_EFORMAT && strstr(d.msg, "line 2") != NULL,
		    "a layer it does not have is refused by line (%s)", d.msg);
		remove(path);
	}
	for (k = 0; k < MG_NNETS; k++)
		mg_net_free(&nets[k]);
	{
		/*
		 * The bandwidth budget (10 GB/s, two sub-accelerators): A
		 * and B ask 8 GB/s, C 1 GB/s, all at 0, layers of 1 s.  A
		 * dispatcher that likes bandwidth runs A and B together
		 * (oversubscribed); decoded under the budget, A and C, then
		 * B: never oversubscribed.
		 */
		struct mg_accel_hook h;
		double over[2];
		int b;

		synth(&sy[0], 0, 1, 1.0, 8e9);
		synth(&sy[1], 1, 1, 1.0, 1e9);
		mg_accel_config_default(&c);
		c.nsa = 2;
		c.bw = 10e9;
		for (b = 0; b < 2; b++) {
			memset(req, 0, sizeof(req));
			req[0].net = req[1].net = 0;
			req[2].net = 1;
			req[0].deadline = req[1].deadline = req[2].deadline = 10;
			memset(&h, 0, sizeof(h));
			h.score = greedy_bw;
			h.budget = b;
			if (mg_accel_run_hook(&c, sy, 2, req, 3, &h, &run) != 0)
				run.oversub = NAN;
			over[b] = run.oversub;
		}
		ok(over[0] > 0.5 && over[1] == 0 && fabs(req[1].end - 2) < 1e-9,
		    "decoded under the bandwidth budget: never oversubscribed "
		    "(%g s without the budget), B after A", over[0]);
	}
	/* preemption: A (one layer of 4 s, deadline 10) at 0, B (one of
	 * 1 s, deadline 2.5) at 1, one sub-accelerator: without it B waits
	 * for A and misses; with it B interrupts A at 1, after a save of
	 * 0.1 s ends at 2.1, and A resumes with its 3 s left: 5.1 */
	synth(&sy[0], 0, 1, 4.0, 0);
	synth(&sy[1], 1, 1, 1.0, 0);
	c.nsa = 1;
	c.bw = 1e30;
	memset(req, 0, sizeof(req));
	req[0].net = 0;
	req[0].deadline = 10;
	req[1].net = 1;
	req[1].arrival = 1;
	req[1].deadline = 2.5;
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_EDF, 1, &run);
	ok(run.met == 1 && fabs(req[1].end - 5) < 1e-9 && run.preemptions ==
	    0, "without preemption B waits for A's layer, ends at 5 (%g)",
	    req[1].end);
	c.preempt = 1;
	c.preempt_s = 0.1;
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_EDF, 1, &run);
	ok(run.met == 2 && run.preemptions == 1 && fabs(req[1].end - 2.1) <
	    1e-9 && fabs(req[0].end - 5.1) < 1e-9 && fabs(req[0].energy - 1) <
	    1e-9, "preemption: B ends at 2.1 (%g), A at 5.1 (%g), A's energy "
	    "counted once (%g)", req[1].end, req[0].end, req[0].energy);
	/* not when B cannot meet its deadline anyway, nor when A's layer
	 * is about to end */
	req[1].deadline = 1.9;
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_EDF, 1, &run);
	ok(run.preemptions == 0, "no preemption for a request that misses "
	    "even so");
	req[1].deadline = 2.5;
	req[1].arrival = 3.9;
	req[1].deadline = 5.5;
	mg_accel_run(&c, sy, 2, req, 2, MG_AP_EDF, 1, &run);
	ok(run.preemptions == 0 && run.met == 2, "no preemption of a layer "
	    "that ends within twice the cost");
	c.preempt = 0;

	/* the bandwidth by deadline: two layers of 1 s asking all of it,
	 * B's deadline first: B runs at full speed and ends at 1, A waits
	 * and ends at 2 (in proportion both end at 2) */
	synth(&sy[0], 0, 1, 1.0, 10e9);
	c.nsa = 2;
	c.bw = 10e9;
	memset(req, 0, sizeof(req));
	req[0].deadline = 10;
	req[1].deadline = 5;
	c.bw_deadline = 1;
	mg_accel_run(&c, sy, 1, req, 2, MG_AP_EDF, 1, &run);
	ok(fabs(req[1].end - 1) < 1e-9 && fabs(req[0].end - 2) < 1e-9,
	    "bandwidth by deadline: B ends at 1 (%g), A at 2 (%g)",
	    req[1].end, req[0].end);
	c.bw_deadline = 0;
	mg_accel_run(&c, sy, 1, req, 2, MG_AP_EDF, 1, &run);
	ok(fabs(req[1].end - 2) < 1e-9 && fabs(req[0].end - 2) < 1e-9,
	    "in proportion both end at 2 (%g, %g)", req[1].end, req[0].end);

	return tap_done();
}
