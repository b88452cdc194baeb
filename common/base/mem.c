/* mem.c: growing arrays; see mem.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/status.h"

int
mg_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c;
	void *q;

	if (need <= *cap)
		return 0;
	c = *cap ? *cap : 64;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			return MG_ENOMEM;
		c *= 2;
	}
	if ((q = realloc(*p, c * size)) == NULL)
		return MG_ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

void *
mg_reserve_head(void **buf, size_t *cap, size_t *head, size_t used,
    size_t need, size_t size)
{
	char *b = *buf;

	if (*head + need <= *cap)
		return b + *head * size;
	/* the head's room first; grow only if that is not enough (and
	 * before moving, so that a failure changes nothing) */
	if (need > *cap && mg_grow(buf, cap, need, size))
		return NULL;
	b = *buf;
	memmove(b, b + *head * size, used * size);
	*head = 0;
	return b;
}

void
mg_copy(void *dst, const void *src, size_t n, size_t size)
{
	if (n > 0)
		memcpy(dst, src, n * size);
}
