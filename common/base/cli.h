/*
 * cli.h: what every mirage command does the same way, without printing:
 * sane standard descriptors, default SIGPIPE, provenance strings, and
 * output files that appear whole or not at all.
 */
#ifndef MG_CLI_H
#define MG_CLI_H

#include <sys/types.h>

#include <stddef.h>
#include <stdio.h>

#include "base/status.h"

#define MG_VERSION "0.1.0"

/*
 * mg_cli_init: make sure fds 0-2 are open (on /dev/null if not) and
 * SIGPIPE has its default action, so "mirage-x | head" ends quietly;
 * SIGTERM, SIGINT and SIGHUP (unless ignored) first remove the temporary
 * files of the outputs being written (mg_out_open()); argv[0] becomes
 * the program's name without its directory, so that getopt's messages
 * read like err()'s.  Returns 0 or MG_EIO.
 */
int mg_cli_init(char *argv[]);

/*
 * mg_cli_keep_heap: for a command that makes and frees copies of large
 * simulations thousands of times (the planner's futures): freed memory
 * stays in the process for the next copy, instead of going back to the
 * kernel and being faulted in, zeroed, again.  The peak is unchanged.
 * Only with the GNU C library; elsewhere it does nothing.
 */
void mg_cli_keep_heap(void);

/*
 * mg_cli_args: argv[1..argc) joined with spaces into buf (truncated to
 * cap), for the provenance field of a stream header.
 */
void mg_cli_args(int argc, char *const argv[], char *buf, size_t cap);

/*
 * How a long run shows its progress on standard error: not at all (-q,
 * or a pipe or a log that did not ask), on one line rewritten in place
 * (a terminal), or a line per step (--progress, for a log).
 */
enum mg_progress {
	MG_PROGRESS_OFF,
	MG_PROGRESS_TTY,
	MG_PROGRESS_LINES
};

/* mg_cli_progress: the above, from -q, --progress and stderr's kind */
enum mg_progress mg_cli_progress(int quiet, int asked);

/*
 * An output: standard output, or a temporary file beside path that is
 * renamed to path by mg_out_commit() and removed by mg_out_abort(), so a
 * failed run never leaves a half-written file.  A path that exists and
 * is not a regular file (a device, a FIFO) is written in place.
 */
struct mg_out {
	FILE *fp;
	char *path;		/* NULL for standard output */
	char *tmp;
};

/* mg_out_open: path NULL or "-" is standard output.  0 or MG_EIO. */
int mg_out_open(struct mg_out *o, const char *path, struct mg_diag *d);

/* mg_out_open_mode: the same, the file made with mode (less the umask)
 * instead of 0666: 0600 for what only its owner may read */
int mg_out_open_mode(struct mg_out *o, const char *path, mode_t mode,
    struct mg_diag *d);

/* mg_out_commit: flush, fsync and rename into place.  0 or MG_EIO. */
int mg_out_commit(struct mg_out *o, struct mg_diag *d);

/* mg_out_abort: remove the temporary file; safe after commit. */
void mg_out_abort(struct mg_out *o);

#endif /* MG_CLI_H */
