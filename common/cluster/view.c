/*
 * view.c: the lists of a struct mg_view; see view.h.
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/view.h"
#include "base/mem.h"
#include "base/status.h"

void
mg_view_clear(struct mg_view *v)
{
	v->npend = v->nrun = v->nrecent = v->nended = 0;
	v->bf_next = 0;
}

void
mg_view_release(struct mg_view *v)
{
	free(v->pend);
	free(v->run);
	free(v->recent);
	free(v->ended);
	memset(v, 0, sizeof(*v));
}

int
mg_view_add(struct mg_view_job **list, size_t *n, size_t *cap,
    const struct mg_view_job *j)
{
	if (mg_grow((void **)list, cap, *n + 1, sizeof(**list)))
		return MG_ENOMEM;
	(*list)[(*n)++] = *j;
	return 0;
}

static int
prio_cmp(const void *a, const void *b)
{
	const struct mg_view_job *x = a, *y = b;

	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	return (x->submit > y->submit) - (x->submit < y->submit);
}

void
mg_view_sort_pending(struct mg_view *v)
{
	if (v->npend > 1)
		qsort(v->pend, v->npend, sizeof(*v->pend), prio_cmp);
}
