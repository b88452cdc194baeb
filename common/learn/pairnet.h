/*
 * pairnet.h: a scorer of a decision's candidates, each a row of nfeat
 * features, that may also read the decision's context: attention
 * pooling (attn.h) over all its candidates, so that a candidate's score
 * sees the others, in any order and any number.  The actor is an MLP of
 * the RL core (nn.h); its gradient is that of a softmax policy over the
 * candidates.  RELMAS's dispatcher inside the node is one
 * (accel/relmas.h).
 */
#ifndef MG_PAIRNET_H
#define MG_PAIRNET_H

#include <stddef.h>

#include "learn/attn.h"
#include "learn/nn.h"

struct mg_pairnet {
	struct mg_mlp *actor;	/* inputs: nfeat, and the context's */
	struct mg_attn *enc;	/* the encoder of the rows; NULL: none */
	size_t nfeat;
};

void mg_pairnet_free(struct mg_pairnet *net);

/*
 * mg_pairnet_score: the scores out[0..n) of the n candidates of one
 * decision, X their features (n x nfeat), with scratch *buf of *cap
 * numbers (grown).  0 or MG_ENOMEM.
 */
int mg_pairnet_score(struct mg_pairnet *net, const double *X, size_t n,
    double *out, double **buf, size_t *cap);

/*
 * mg_pairnet_policy_grad: the gradient of -sum_t adv[t] log p(a_t) over
 * decisions t, each of n[t] candidate rows of X (ndec decisions, rows
 * consecutive), p the softmax of the scores plus off (a number per
 * row added to its score; NULL: none): added to the actor's and the
 * encoder's gradients.  0 or < 0.
 */
int mg_pairnet_policy_grad(struct mg_pairnet *net, const double *X,
    const size_t *n, const size_t *a, const double *adv, size_t ndec,
    const double *off);

#endif /* MG_PAIRNET_H */
