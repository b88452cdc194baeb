/*
 * mem.h: growing arrays.
 */
#ifndef MG_MEM_H
#define MG_MEM_H

#include <stddef.h>

/*
 * mg_grow: make the array *p of *cap elements of size bytes hold at
 * least need elements, doubling its capacity (from 64).  Returns 0, or
 * MG_ENOMEM leaving *p and *cap as they were.
 */
int mg_grow(void **p, size_t *cap, size_t need, size_t size);

/*
 * mg_reserve_head: room for need elements from the start of a list that
 * is an array *buf of *cap elements of size bytes whose first *head were
 * taken from its front (a queue whose head moves instead of its tail):
 * the used elements move to the front if that makes room, else the array
 * grows.  Returns the list's start (*buf + *head, of used elements), or
 * NULL (MG_ENOMEM) leaving everything as it was.
 */
void *mg_reserve_head(void **buf, size_t *cap, size_t *head, size_t used,
    size_t need, size_t size);

/*
 * mg_copy: copy n elements of size bytes from src to dst; nothing when n
 * is 0, where src (an empty array) may be NULL.
 */
void mg_copy(void *dst, const void *src, size_t n, size_t size);

#endif /* MG_MEM_H */
