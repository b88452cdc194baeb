/*
 * t_rl.c: the reinforcement-learning environment's outcomes, probed only
 * where the agent submits.  On loaded LS6 episodes (reference mode, 76
 * nodes, 1- and 8-node chains): an episode run without probes has the
 * same times and features as one with; each outcome probed alone equals
 * the one probed in the full run; and DQN and REINFORCE trained on lazy
 * outcomes are the networks trained on the full ones, weight for weight.
 * Run from the top of the tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mirage.h"
#include "episode/episode.h"
#include "learn/rl.h"
#include "tap.h"
#include "ls6.h"

#define NEP 4

struct lazy {
	const struct mg_clusterdef *def;
	const struct mg_epconf *e;
	const struct mg_outcome *o;
	long calls;
};

static int
probe(void *ctx, size_t e, size_t k, int64_t *x)
{
	struct lazy *z = ctx;

	z->calls++;
	return mg_episode_outcome_at(z->def, &z->e[e], z->o[e].s0, k, x, NULL);
}

static int
same_mlp(struct mg_mlp *a, struct mg_mlp *b)
{
	return a != NULL && b != NULL && mg_mlp_nparams(a) ==
	    mg_mlp_nparams(b) && memcmp(mg_mlp_params(a), mg_mlp_params(b),
	    mg_mlp_nparams(a) * sizeof(double)) == 0;
}

static void
train_both(const char *kind, struct mg_rlenv *full, struct mg_rlenv *lazy,
    struct lazy *z, size_t ticks)
{
	struct mg_rlopts ro;
	struct mg_mlp *a = NULL, *b = NULL;
	int is_dqn = strcmp(kind, "dqn") == 0, ra, rb;

	mg_rlopts_init(&ro);
	ro.episodes = 200;
	ro.hidden = 16;
	ro.seed = 3;
	z->calls = 0;
	ra = is_dqn ? mg_rl_dqn(full, &ro, &a) : mg_rl_pg(full, &ro, &a);
	rb = is_dqn ? mg_rl_dqn(lazy, &ro, &b) : mg_rl_pg(lazy, &ro, &b);
	ok(ra == 0 && rb == 0 && same_mlp(a, b), "%s on lazy outcomes is the "
	    "network trained on full ones", kind);
	ok(z->calls > 0 && (size_t)z->calls < ticks, "%s probed %ld of %zu "
	    "times", kind, z->calls, ticks);
	mg_mlp_free(a);
	mg_mlp_free(b);
}

int
main(void)
{
	struct mg_trace t;
	struct mg_clusterdef def;
	struct mg_simconf *conf;
	struct mg_epconf e[NEP];
	struct mg_outcome full[NEP], none[NEP];
	struct mg_rlenv ef, el;
	struct lazy z;
	double mean[MG_OWN], scale[MG_OWN];
	size_t i, k, nt, ticks = 0;
	int bad_t = 0, bad_f = 0, bad_x = 0, unknown = 1;

	if (load_trace("data/ls6-a100.log.gz", &t) != 0) {
		ok(0, "load the LS6 trace");
		return tap_done();
	}
	if (mg_simconf_new(&conf) != 0 ||
	    mg_simconf_set(conf, "Nodes=76", NULL) != 0 ||
	    mg_clusterdef_init(&def, conf, &t, NULL) != 0) {
		ok(0, "the reference model at 76 nodes");
		return tap_done();
	}
	mg_simconf_free(conf);
	for (i = 0; i < NEP; i++) {
		/* loaded days of March 2023 */
		int64_t s0 = when("2023-03-01T00:00:00") + (int64_t)i * 86400;

		mg_epconf_paper(&e[i], i % 2 ? 8 : 1);
		e[i].window = 1;
		if (mg_episode_outcomes(&def, &e[i], s0, 1, NULL, MG_PROBE_ALL,
		    &full[i], NULL) != 0 || mg_episode_outcomes(&def, &e[i],
		    s0, 1, NULL, MG_PROBE_NONE, &none[i], NULL) != 0) {
			ok(0, "episode %zu runs", i);
			return tap_done();
		}
		bad_t += full[i].n != none[i].n || memcmp(full[i].t, none[i].t,
		    full[i].n * sizeof(*full[i].t)) != 0 ||
		    memcmp(full[i].tick, none[i].tick, full[i].n) != 0;
		for (k = nt = 0; k < full[i].n; k++)
			nt += full[i].tick[k];
		ticks += nt;
		bad_f += full[i].nfeat != none[i].nfeat || memcmp(full[i].feat,
		    none[i].feat, nt * full[i].nfeat * sizeof(float)) != 0;
		for (k = 0; k < full[i].n; k++) {
			int64_t x = 0;

			unknown &= none[i].x[k] == MG_X_UNKNOWN;
			/* every 7th time, and the last ones */
			if (k % 7 != 0 && k + 3 <= full[i].n)
				continue;
			if (mg_episode_outcome_at(&def, &e[i], s0, k, &x,
			    NULL) != 0 || x != full[i].x[k])
				bad_x++;
		}
	}
	ok(bad_t == 0, "without probes, the same times and ticks");
	ok(bad_f == 0, "without probes, the same features");
	ok(unknown, "without probes, every outcome unknown");
	ok(bad_x == 0, "an outcome probed alone equals the full run's (%d "
	    "differ)", bad_x);

	memset(&ef, 0, sizeof(ef));
	for (k = 0; k < MG_OWN; k++) {
		mean[k] = 0;
		scale[k] = 1;
	}
	ef.ep = full;
	ef.nep = NEP;
	ef.nfeat = MG_OWN;
	ef.mean = mean;
	ef.scale = scale;
	ef.w_int = 1;
	ef.w_ovl = 0.25;
	el = ef;
	el.ep = none;
	z.def = &def;
	z.e = e;
	z.o = none;
	el.probe = probe;
	el.probe_ctx = &z;
	train_both("dqn", &ef, &el, &z, ticks);
	train_both("pg", &ef, &el, &z, ticks);
	el.probe = NULL;
	{
		struct mg_rlopts ro;
		struct mg_mlp *q = NULL;

		mg_rlopts_init(&ro);
		ro.episodes = 5;
		ok(mg_rl_dqn(&el, &ro, &q) == MG_EINVAL && q == NULL, "an "
		    "unknown outcome without a probe is an error");
	}
	for (i = 0; i < NEP; i++) {
		mg_outcome_release(&full[i]);
		mg_outcome_release(&none[i]);
	}
	mg_clusterdef_release(&def);
	mg_trace_release(&t);
	return tap_done();
}
