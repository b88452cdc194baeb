/* rand.c: splitmix64; see rand.h. */
#include "base/rand.h"

uint64_t
mg_rand64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double
mg_rand_unif(uint64_t *s)
{
	return (double)(mg_rand64(s) >> 11) / 9007199254740992.0;
}
