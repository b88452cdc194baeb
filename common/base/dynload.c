/*
 * dynload.c: shared libraries loaded when first used; see dynload.h.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/dynload.h"

_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
    "a function's address fits in a data pointer (POSIX)");

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int
load(struct mg_dynlib *l)
{
	void *h, *sym;
	const char *e;
	size_t i;

	/* RTLD_LOCAL: its symbols stay its own; RTLD_NOW: all or nothing */
	if ((h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		e = dlerror();
		snprintf(l->why, sizeof(l->why), "%s (on Debian, install %s; "
		    "elsewhere, see mirage(7))", e ? e : l->soname, l->package);
		return MG_EIO;
	}
	for (i = 0; i < l->n; i++) {
		(void)dlerror();
		if ((sym = dlsym(h, l->names[i])) == NULL) {
			snprintf(l->why, sizeof(l->why), "%s: no function %s "
			    "(a version this build does not know)", l->soname,
			    l->names[i]);
			dlclose(h);
			return MG_EIO;
		}
		/* POSIX: a data pointer from dlsym() holds a function's */
		memcpy((char *)l->fn + i * sizeof(void (*)(void)), &sym,
		    sizeof(sym));
	}
	return 1;	/* the handle stays open for the process's life */
}

int
mg_dynload(struct mg_dynlib *l, struct mg_diag *d)
{
	int state;

	pthread_mutex_lock(&lock);
	if (l->state == 0)
		l->state = load(l);
	state = l->state;
	pthread_mutex_unlock(&lock);
	if (state < 0)
		return mg_diag_set(d, state, "%s", l->why);
	return 0;
}
