/*
 * proc.h: run a program (squeue, sacct, sbatch) with an argument vector,
 * never through a shell, and collect what it prints.
 */
#ifndef MG_PROC_H
#define MG_PROC_H

#include <stddef.h>

#include "base/status.h"

struct mg_proc {
	char *out;		/* standard output, NUL-terminated */
	size_t outlen;
	char *err;		/* the first 4 KiB of standard error */
	int status;		/* exit status, or 128 + signal */
	int timedout;		/* killed after the time allowed */
};

/*
 * mg_proc_run: run argv[0] (found on PATH by execvp) with argv, standard
 * input from /dev/null, for at most timeout seconds (then SIGKILL).
 * Returns 0 when the program ran (whatever its exit status: see
 * p->status), or MG_EIO with d set when it could not be started
 * (d says why: not found, not executable) or MG_ENOMEM.  Free p with
 * mg_proc_release().
 */
int mg_proc_run(const char *const argv[], int timeout, struct mg_proc *p,
    struct mg_diag *d);

void mg_proc_release(struct mg_proc *p);

#endif /* MG_PROC_H */
