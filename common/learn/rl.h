/*
 * rl.h: reinforcement learning of when to submit, on the RL core
 * (nn.h).  The environment is a set of training episodes (episode.h's
 * outcomes): at each decision tick before P's end the agent sees the
 * state (our features, normalised) and either waits or submits S; at the
 * first tick at or after P's end it must submit.  Submitting at tick k
 * ends the episode with the reward
 *
 *	R = -(w_int max(x_k, 0) + w_ovl max(-x_k, 0)) / 3600
 *
 * (hours of interruption and overlap, weighted; waiting earns 0).  The
 * simulator's state does not depend on the agent until it submits, so
 * each episode's outcome of every action is computed once, by probing
 * copies of the simulator's state, and replayed exactly.  The agent
 * needs the outcomes only where it submits, so an outcome left at
 * MG_X_UNKNOWN is asked of the env's probe when first needed (in
 * training, a few thousand of the hundreds of thousands of ticks), and
 * kept.
 *
 *   dqn  Deep Q-Network: Q(s, wait|submit) by a 2-hidden-layer MLP,
 *        a replay buffer, a target network, the double-DQN target,
 *        Huber loss, an epsilon schedule whose exploration stops at a
 *        uniformly random remaining tick.
 *   pg   REINFORCE with a learned baseline: a policy MLP gives the
 *        probability of submitting, a value MLP the baseline; batches
 *        of episodes, an entropy bonus.
 */
#ifndef MG_RL_H
#define MG_RL_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "episode/episode.h"
#include "learn/nn.h"

struct mg_rlenv {
	const struct mg_outcome *ep;	/* episodes, with features */
	size_t nep;
	size_t nfeat;		/* features used: the first nfeat of each tick */
	const double *mean, *scale;	/* normalisation of those */
	double w_int, w_ovl;	/* reward weights per hour */
	/* x at time index k of episode e when ep[e].x[k] is MG_X_UNKNOWN:
	 * 0, or a negative status that stops the training */
	int (*probe)(void *ctx, size_t e, size_t k, int64_t *x);
	void *probe_ctx;
};

/* the episodes an agent plays: simulated once in the cluster model,
 * each outcome probed when the agent first submits at it */
struct mg_rlplay {
	struct mg_rlenv env;	/* env.probe_ctx is the mg_rlplay: it must
				 * not move while it is played */
	struct mg_outcome *o;
	int32_t *nodes;		/* each episode's chain size */
	const struct mg_clusterdef *def;
	struct mg_epconf e;
	struct mg_diag pd;	/* why a probe failed */
	int64_t from, to;	/* the episodes' first and last start */
	char cluster[512];	/* the cluster model, in words */
};

/*
 * mg_rlplay_open: the episodes of sel on def (those with a window of
 * jobs), simulated on threads threads, with the first nfeat features of
 * each tick, into p.  0, or a status with d naming the episode; close p
 * either way.
 */
int mg_rlplay_open(struct mg_rlplay *p, const struct mg_clusterdef *def,
    const struct mg_epsel *sel, size_t nfeat, int threads,
    struct mg_diag *d);

void mg_rlplay_close(struct mg_rlplay *p);

struct mg_rlopts {
	long episodes;		/* episodes played */
	int hidden;		/* units per hidden layer */
	double lr;
	double gamma;		/* discount per decision */
	int batch;
	long replay;		/* dqn: transitions kept */
	long target_every;	/* dqn: updates between target syncs */
	int train_every;	/* dqn: steps between updates */
	double eps_end;		/* dqn: final exploration */
	double entropy;		/* pg: bonus weight */
	uint64_t seed;
	/* called every tenth of the training; may be NULL */
	void (*progress)(void *ctx, long done, long total, double mean_reward);
	void *ctx;
};

void mg_rlopts_init(struct mg_rlopts *o);

/* mg_rl_dqn: train a Q-network (outputs: wait, submit); 0 or < 0 */
int mg_rl_dqn(const struct mg_rlenv *env, const struct mg_rlopts *o,
    struct mg_mlp **q);

/* mg_rl_pg: train a policy (output: the logit of submitting); 0 or < 0 */
int mg_rl_pg(const struct mg_rlenv *env, const struct mg_rlopts *o,
    struct mg_mlp **policy);

/* the reward of outcome x seconds */

#endif /* MG_RL_H */
