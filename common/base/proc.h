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

/* what mg_proc_runf() does besides */
#define MG_PROC_GROUP	1	/* a session of its own: killed whole when
				 * its time is out (a shell's children) */
#define MG_PROC_NOOUT	2	/* its standard output is read and dropped */

/*
 * mg_proc_runf: run argv[0] (found on PATH by execvp) with argv, standard
 * input from /dev/null, for at most timeout seconds (then SIGKILL), with
 * flags (MG_PROC_*) and env, "NAME=value" strings added to the program's
 * environment (NULL-terminated; NULL: none).  Returns 0 when the program
 * ran (whatever its exit status: see p->status), or MG_EIO with d set
 * when it could not be started (d says why: not found, not executable)
 * or MG_ENOMEM.  Free p with mg_proc_release().
 */
int mg_proc_runf(const char *const argv[], const char *const env[],
    int timeout, int flags, struct mg_proc *p, struct mg_diag *d);

/*
 * mg_proc_fake: a stand-in that answers every run instead of a child
 * process (a simulated Slurm in the tests): it fills p (out and err
 * malloc'd, err at most 4 KiB) and returns as mg_proc_runf() does.
 * mg_proc_set_fake(NULL, NULL) runs programs again.
 */
typedef int (*mg_proc_fake)(void *arg, const char *const argv[],
    const char *const env[], int timeout, struct mg_proc *p,
    struct mg_diag *d);
void mg_proc_set_fake(mg_proc_fake fn, void *arg);

/*
 * mg_proc_run_tries: mg_proc_runf() without flags or env, run again after 1 s, 2 s, 4 s ... (at
 * most tries runs in all) while the program exits non-zero: not when it
 * could not start or ran out of its time, nor when its standard error
 * holds final (an answer, not a failure; NULL: none).  *runs gets the
 * runs made.  Returns as mg_proc_runf() does, with p the last run's.
 */
int mg_proc_run_tries(const char *const argv[], int timeout, int tries,
    const char *final, struct mg_proc *p, int *runs, struct mg_diag *d);

void mg_proc_release(struct mg_proc *p);

/*
 * mg_proc_selfdir: the directory of the running program (from
 * /proc/self/exe) into buf: 0, or MG_EIO when it cannot be read or does
 * not fit.
 */
int mg_proc_selfdir(char *buf, size_t cap);

#endif /* MG_PROC_H */
