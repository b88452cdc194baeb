/*
 * nn.h: the reinforcement-learning core's networks: multi-layer
 * perceptrons (ReLU hidden layers, a linear output) with batched forward
 * and backward passes on OpenBLAS (cblas_dgemm) and the Adam optimiser.
 * Deterministic for a given seed.  Not thread-safe on one network.
 */
#ifndef MG_NN_H
#define MG_NN_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

#define MG_MLP_MAXLAYERS 8

struct mg_mlp;

/*
 * mg_mlp_blas: load OpenBLAS, which the networks compute on, the first
 * time (mg_mlp_new() does it too, but says only MG_EIO), and if threads >
 * 0 have it compute with that many threads.  0, or MG_EIO with d naming
 * the library and the package to install.
 */
int mg_mlp_blas(int threads, struct mg_diag *d);

/*
 * mg_mlp_new: a network of nlayers sizes (inputs, hidden..., outputs),
 * weights drawn He-uniform from seed, biases 0.  Returns 0 and *out, or
 * MG_EINVAL / MG_ENOMEM, or MG_EIO without OpenBLAS.
 */
int mg_mlp_new(const int *sizes, int nlayers, uint64_t seed,
    struct mg_mlp **out);

void mg_mlp_free(struct mg_mlp *n);

/* mg_mlp_copy_params: dst's parameters := src's (same shape); 0 or < 0 */
int mg_mlp_copy_params(struct mg_mlp *dst, const struct mg_mlp *src);

/*
 * mg_mlp_forward: outputs of batch rows of inputs X (batch x inputs) into
 * out (batch x outputs); the activations are kept for a backward pass.
 * Returns 0 or MG_ENOMEM.
 */
int mg_mlp_forward(struct mg_mlp *n, const double *X, size_t batch,
    double *out);

/*
 * mg_mlp_backward: given dL/d(out) for the batch of the last forward
 * pass, add dL/d(parameters) to the gradients.
 */
void mg_mlp_backward(struct mg_mlp *n, const double *dout);

/* mg_mlp_backward_input: the same, and dL/d(inputs) into dx (batch x
 * inputs), for a network fed by another */
void mg_mlp_backward_input(struct mg_mlp *n, const double *dout,
    double *dx);

void mg_mlp_zero_grad(struct mg_mlp *n);

/* mg_mlp_adam: one Adam step with the gradients (lr, beta1 0.9, beta2
 * 0.999, eps 1e-8), gradients clipped to a norm of clip (0: none) */
void mg_mlp_adam(struct mg_mlp *n, double lr, double clip);

/* mg_adam: that step on any n parameters p with gradients g and Adam's
 * moments m and v, the step-th (from 1) */
void mg_adam(double *p, const double *g, double *m, double *v, size_t n,
    long step, double lr, double clip);

/* the parameters and their gradients as one vector, for checks and files */
size_t mg_mlp_nparams(const struct mg_mlp *n);
double *mg_mlp_params(struct mg_mlp *n);
double *mg_mlp_grads(struct mg_mlp *n);

int mg_mlp_layers(const struct mg_mlp *n, int *sizes);

#endif /* MG_NN_H */
