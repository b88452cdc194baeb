/* t_bound.c: the offline bound on deadlines met, by hand and against
 * every dispatcher. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/accel.h"
#include "accel/bound.h"
#include "tap.h"

static struct mg_layer lay[8];

/* a network of n layers of t seconds asking bw bytes/s on both
 * dataflows */
static void
synth(struct mg_net *net, size_t n, double t, double bw)
{
	size_t i;
	int df;

	memset(net, 0, sizeof(*net));
	net->n = n;
	net->l = lay;
	for (i = 0; i < n; i++) {
		memset(&lay[i], 0, sizeof(lay[i]));
		for (df = 0; df < MG_DF_N; df++) {
			lay[i].cost[df].time = t;
			lay[i].cost[df].bw = bw;
		}
	}
	net->best = t * (double)n;
	net->best_df = MG_DF_WS;
}

/* the bound on req[0..n), exact while blocks are of exact requests */
static double
bound(const struct mg_accel_config *c, const struct mg_net *nets,
    size_t nn, const struct mg_accel_request *req, size_t n, size_t exact,
    struct mg_abound *b)
{
	struct mg_diag d = { "" };
	int rv = mg_accel_bound(c, nets, nn, req, n, exact, b, &d);

	if (rv != 0) {
		printf("# mg_accel_bound: %d %s\n", rv, d.msg);
		return -1;
	}
	return b->met;
}

int
main(void)
{
	struct mg_accel_config c;
	struct mg_net sy, nets[MG_NNETS];
	struct mg_accel_request req[3], *rq;
	struct mg_abound b;
	struct mg_arun run;
	int k, p, worst = 0, all = 1, exact_le = 1, bad = 0;
	double lo = 1, v;

	/* one sub-accelerator, bandwidth without limit, 4 layers of 1 s */
	mg_accel_config_default(&c);
	c.nsa = 1;
	c.bw = 1e30;
	synth(&sy, 4, 1.0, 0);
	memset(req, 0, sizeof(req));
	req[0].deadline = 4;
	v = bound(&c, &sy, 1, req, 1, 10, &b);
	ok(v == 1 && b.exact == 1,
	    "a request whose window holds its work: met (%g)", v);
	req[0].deadline = 3.9;
	v = bound(&c, &sy, 1, req, 1, 10, &b);
	ok(v == 0, "a window shorter than "
	    "its work: not (%g)", v);
	req[0].deadline = req[1].deadline = 6;
	v = bound(&c, &sy, 1, req, 2, 10, &b);
	ok(v == 1, "two at once, 8 s of "
	    "work in 6: one (%g)", v);
	v = bound(&c, &sy, 1, req, 2, 0, &b);
	ok(v == 1 && b.exact == 0,
	    "and its linear relaxation, 1.5 rounded down: one (%g)", v);
	c.nsa = 2;
	v = bound(&c, &sy, 1, req, 2, 10, &b);
	ok(v == 2, "on two "
	    "sub-accelerators: both (%g)", v);
	req[0].deadline = 3;
	v = bound(&c, &sy, 1, req, 1, 10, &b);
	ok(v == 0, "one request never runs on "
	    "two at once: 4 s of work not in 3 s on two (%g)", v);

	/* the bandwidth: a layer of 1 s asking twice what there is takes
	 * 2 s */
	c.nsa = 1;
	c.bw = 10e9;
	synth(&sy, 1, 1.0, 20e9);
	req[0].deadline = 1.9;
	v = bound(&c, &sy, 1, req, 1, 10, &b);
	ok(v == 0, "a layer asking twice "
	    "the bandwidth does not end in 1.9 s");
	req[0].deadline = 2;
	v = bound(&c, &sy, 1, req, 1, 10, &b);
	ok(v == 1, "it ends in 2 s");
	/* two sub-accelerators, each layer asking half: both fit at once */
	c.nsa = 2;
	synth(&sy, 1, 1.0, 5e9);
	req[0].deadline = req[1].deadline = 1;
	v = bound(&c, &sy, 1, req, 2, 10, &b);
	ok(v == 2, "two layers asking half "
	    "each: both at once");
	synth(&sy, 1, 1.0, 10e9);
	v = bound(&c, &sy, 1, req, 2, 10, &b);
	ok(v == 1, "asking all each: one");

	/* the real networks at 2 WS + 2 RS and 40 GB/s: no dispatcher, with
	 * or without preemption or the bandwidth by deadline, meets more
	 * than the bound; exact at most its relaxation */
	for (k = 0; k < MG_NNETS; k++)
		mg_net_build(mg_net_names[k], 1024, &nets[k]);
	mg_accel_config_default(&c);
	c.bw = 40e9;
	for (k = 0; k < 12; k++) {
		double lp, ex;

		if (mg_accel_requests(&c, nets, MG_NNETS, 60, 0.3 + 0.1 * k, 2,
		    1, (uint64_t)k + 1, &rq) != 0) {
			bad = 1;
			break;
		}
		lp = bound(&c, nets, MG_NNETS, rq, 60, 0, &b);
		ex = bound(&c, nets, MG_NNETS, rq, 60, 60, &b);
		exact_le &= ex >= 0 && ex <= lp;
		for (p = 0; p < 3 * MG_AP_N; p++) {
			c.preempt = p / MG_AP_N == 1;
			c.bw_deadline = p / MG_AP_N == 2;
			mg_accel_run(&c, nets, MG_NNETS, rq, 60, (enum mg_apolicy)
			    (p % MG_AP_N), 1, &run);
			if ((double)run.met > ex)
				all = 0;
			if ((double)run.met / ex < lo) {
				lo = (double)run.met / ex;
				worst = p;
			}
		}
		c.preempt = c.bw_deadline = 0;
		free(rq);
	}
	ok(!bad && all, "no dispatcher above the bound on 12 sets of 60 "
	    "requests at loads 0.3-1.4 (the lowest: %s at %.2f of it)",
	    mg_apolicy_name((enum mg_apolicy)(worst % MG_AP_N)), lo);
	ok(!bad && exact_le, "the exact bound at most its relaxation");
	for (k = 0; k < MG_NNETS; k++)
		mg_net_free(&nets[k]);
	return tap_done();
}
