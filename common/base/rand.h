/*
 * rand.h: splitmix64 (Steele, Lea and Flood), the project's one source
 * of pseudo-random numbers: small, fast, every seed a good one, and the
 * same sequence on every machine, so that a seed fixes a result.
 */
#ifndef MG_RAND_H
#define MG_RAND_H

#include <stdint.h>

/* mg_rand64: the next 64 random bits of the state *s. */
uint64_t mg_rand64(uint64_t *s);

/* mg_rand_unif: a double in [0, 1) with 53 random bits. */
double mg_rand_unif(uint64_t *s);

#endif /* MG_RAND_H */
