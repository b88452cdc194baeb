/*
 * attn.h: attention pooling over sets of rows, on the RL core (nn.h):
 * a permutation-invariant encoder of a variable set, such as the
 * requests waiting at a dispatcher's decision.
 *
 * Each row x_i of a set is embedded by an MLP, e_i = f(x_i) (one ReLU
 * hidden layer, d linear outputs); a learned query w weighs them,
 * alpha = softmax_i(w . e_i); the set's context is c = sum_i alpha_i e_i.
 * Sets are batched: rows consecutive, n[t] rows in set t.  The backward
 * pass takes dL/dc per set and adds dL/d(parameters).  Deterministic for
 * a seed.  Not thread-safe on one encoder.
 */
#ifndef MG_ATTN_H
#define MG_ATTN_H

#include <stddef.h>
#include <stdint.h>

#include "learn/nn.h"

struct mg_attn;

/*
 * mg_attn_new: an encoder of rows of in numbers, hidden units, contexts
 * of d numbers; embedding weights from seed, the query 0 (mean pooling
 * at first).  Returns 0 and *out, or MG_EINVAL / MG_ENOMEM.
 */
int mg_attn_new(int in, int hidden, int d, uint64_t seed,
    struct mg_attn **out);

/* mg_attn_from: an encoder of embedding f (which it then owns: its
 * outputs are d) and query w[0..d); 0, MG_EINVAL or MG_ENOMEM */
int mg_attn_from(struct mg_mlp *f, const double *w, struct mg_attn **out);

void mg_attn_free(struct mg_attn *a);

/* the context's size d; the embedding; the query (d numbers) */
int mg_attn_dim(const struct mg_attn *a);
struct mg_mlp *mg_attn_embedding(struct mg_attn *a);
double *mg_attn_query(struct mg_attn *a);
double *mg_attn_query_grad(struct mg_attn *a);

/*
 * mg_attn_forward: the contexts C (nsets x d) of the sets of rows X,
 * n[t] > 0 rows in set t; what backward needs is kept.  0 or MG_ENOMEM.
 */
int mg_attn_forward(struct mg_attn *a, const double *X, const size_t *n,
    size_t nsets, double *C);

/* mg_attn_backward: given dL/dC of the last forward, add the gradients
 * of the embedding's parameters and of the query */
void mg_attn_backward(struct mg_attn *a, const double *dC);

void mg_attn_zero_grad(struct mg_attn *a);

/* mg_attn_adam: an Adam step (nn.h's) for the embedding and the query,
 * gradients clipped to a norm of clip each (0: none) */
void mg_attn_adam(struct mg_attn *a, double lr, double clip);

#endif /* MG_ATTN_H */
