/*
 * relmas.h: a learned dispatcher for DNN inference on a multi-
 * accelerator system (RELMAS, Blanco et al., DAC 2024), trained on the
 * accelerator model (accel.h).
 *
 * The actor, a pair scorer of learn (pairnet.h), scores each pair of a waiting
 * request and an idle sub-accelerator from its features (accel.h's
 * MG_AFEAT) and, with the encoder, the decision's context: attention
 * pooling (attn.h) over all the decision's pairs, so that a pair's score
 * sees the other waiting requests; while training, the pair is drawn
 * from the softmax of the scores, and at run time the best is taken.  The critic, a second MLP
 * on the pair-independent features (bandwidth in use, requests waiting,
 * idle sub-accelerators), learns the return as the baseline.  Rewards
 * (accel.h): +1 per deadline met, -1 per miss, -beta per mean isolated
 * latency of bandwidth oversubscription; the return of a decision is
 * its rewards until the next decision and the discounted ones after
 * (or, with own, its own request's end beside them).  With prior, a
 * pair's score adds prior times the rule's (MG_AP_FIT, or MG_AP_PLACE
 * without fit) and the actor's last layer starts at 0: the actor
 * learns what to change in a rule, from the rule; with strict its pairs
 * are those of MG_AP_STRICT, with fit too also MG_AP_FIT's (a
 * sub-accelerator may wait).
 * One update per episode: the advantage-weighted log-likelihood of the
 * pairs taken, Adam, through the actor and the encoder.  Where the paper
 * has DDPG and an LSTM over the waiting requests, this has a softmax
 * actor-critic over pairs, and attention over them (order-free, as the
 * set of waiting requests is).
 * Episodes are requests from seeds seed, seed + 1, ... at loads drawn
 * uniformly from [load_lo, load_hi].  Deterministic for a seed.
 */
#ifndef MG_RELMAS_H
#define MG_RELMAS_H

#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"
#include "learn/pairnet.h"

struct mg_relmas_opts {
	int episodes;		/* 400 */
	size_t requests;	/* per episode, 600 */
	double load_lo, load_hi;	/* 0.3, 0.8 */
	int hidden;		/* units per hidden layer, 32 */
	double lr;		/* 1e-3 */
	double gamma;		/* per decision, 0.998 */
	double beta;		/* the bandwidth penalty, 0.5 */
	double mix;		/* with own: the weight of the discounted
				 * rewards of all beside a decision's own
				 * request's end (0.1) */
	int no_bw;		/* the ablation without bandwidth features */
	int context;		/* the encoder's context size; 0: none (8) */
	int budget;		/* decoded under the bandwidth budget */
	int feasible;		/* its candidates: the most urgent requests
				 * that can still meet their deadlines
				 * first (accel.h's feasible), else by
				 * deadline alone */
	double prior;		/* a pair's score: the actor's plus prior
				 * times the rule's (fit's or place's; 10;
				 * 0: the actor's) */
	double strict;		/* its pairs (accel.h's strict; 1.1; 0:
				 * all) */
	double fit;		/* with strict > 0, its pairs also fit's
				 * (accel.h's fit) and the prior
				 * MG_AP_FIT's (1.1; 0: strict's pairs
				 * alone, the prior MG_AP_PLACE's) */
	int own;		/* a decision's return: its own request's
				 * end and mix times the discounted rewards
				 * of all (1), or those alone (0) */
	uint64_t seed;
	/* called after each episode; may be NULL */
	void (*progress)(void *ctx, int done, int total, double met);
	void *ctx;
};

void mg_relmas_opts_init(struct mg_relmas_opts *o);

/*
 * mg_relmas_train: the actor (and encoder) for scenario sc (its system
 * and its networks nets[0..nnets); its load and seed are the options'),
 * and the features' standardisation (mean, scale: MG_AFEAT each).
 * Returns 0 and *net (free with mg_pairnet_free()), or < 0.
 */
int mg_relmas_train(const struct mg_accel_scenario *sc,
    const struct mg_net *nets,
    size_t nnets, const struct mg_relmas_opts *o, struct mg_pairnet *net,
    double *mean, double *scale);

struct mg_model;

/*
 * mg_relmas_train_model: train "relmas" model m (features: accel.h's
 * mg_afeat_names) on scenario sc: the dispatcher, its standardisation
 * and its parameters.  Returns 0, or a status with d saying why.
 */
int mg_relmas_train_model(struct mg_model *m,
    const struct mg_accel_scenario *sc, const struct mg_net *nets,
    size_t nnets, const struct mg_relmas_opts *o, struct mg_diag *d);

/*
 * mg_relmas_hook: the run-time dispatcher of actor (the best pair):
 * fills h (ctx points into st, which must outlive the runs; st's fit
 * is 0 where its strict is).
 */
struct mg_relmas_run {
	struct mg_pairnet *net;
	const double *mean, *scale;
	double prior;		/* as mg_relmas_opts' */
	double strict, fit;
	double *x, *buf;	/* scratch */
	size_t capx, capbuf;
};
void mg_relmas_hook(struct mg_relmas_run *st, int no_bw, int budget,
    int feasible, struct mg_accel_hook *h);
void mg_relmas_run_free(struct mg_relmas_run *st);

#endif /* MG_RELMAS_H */
