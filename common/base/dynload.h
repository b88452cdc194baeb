/*
 * dynload.h: shared libraries loaded when first used.
 *
 * xgboost, OpenBLAS and libsvm bring in C++ and Fortran runtimes whose
 * relocations, and OpenBLAS's threads, cost a tool about 12 ms at every
 * start.  Most runs (a planner decision, a replay, a features pass) call
 * none of them, so the modules that use them (learn/gbt.c, learn/nn.c,
 * learn/svr.c) load them with mg_dynload() on first use instead of
 * linking them.
 */
#ifndef MG_DYNLOAD_H
#define MG_DYNLOAD_H

#include <stddef.h>

#include "base/status.h"

/*
 * A library and the functions taken from it.  fn points at n function
 * pointers (a struct of them, declared in the order of names) that
 * mg_dynload() fills.  Define it static, zero beyond these fields.
 */
struct mg_dynlib {
	const char *soname;	/* as the linker records it: "libsvm.so.3" */
	const char *package;	/* the Debian package that installs it */
	const char *const *names;	/* the functions, n of them */
	size_t n;
	void *fn;		/* n function pointers, filled in order */
	int state;		/* 0 not tried, 1 loaded, < 0 failed */
	char why[256];		/* why it failed */
};

/*
 * mg_dynload: load l's library and resolve its functions, the first time
 * it is called for l (thread-safe; later calls return what the first
 * returned).  Returns 0, or MG_EIO with d naming the library, what the
 * loader said and the package to install.
 */
int mg_dynload(struct mg_dynlib *l, struct mg_diag *d);

#endif /* MG_DYNLOAD_H */
