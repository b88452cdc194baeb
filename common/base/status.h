/*
 * status.h: status codes shared by the whole library, and diagnostics.
 *
 * Library functions return 0 (or a count) on success and a negative
 * enum mg_status on failure; they never print or exit.  When the caller
 * needs to know where a failure happened (file, line, record, block) the
 * function fills an optional struct mg_diag.  Commands turn a status into
 * an exit code with mg_exit_status(); the table is in mirage(7).
 */
#ifndef MG_STATUS_H
#define MG_STATUS_H

#include <stddef.h>

enum mg_status {
	MG_OK = 0,
	MG_EIO = -1,		/* read or write failed; errno is kept */
	MG_ENOMEM = -2,
	MG_EINVAL = -3,		/* bad argument from the caller */
	MG_EFORMAT = -4,	/* input text or data that cannot be parsed */
	MG_EVERSION = -5,	/* stream of an unsupported major version */
	MG_ECHECKSUM = -6,	/* stream block or header fails its CRC32 */
	MG_ETRUNC = -7,		/* stream ends before its trailer */
	MG_ETYPE = -8,		/* stream of another record type or schema */
	MG_ECORRUPT = -9	/* stream structure is invalid (not a CRC) */
};

/* Exit statuses of every mirage command; see mirage(7). */
enum mg_exit {
	MG_EXIT_OK = 0,
	MG_EXIT_FAIL = 1,	/* I/O error, bad input data */
	MG_EXIT_USAGE = 2,
	MG_EXIT_VERSION = 3,	/* stream from a newer major version */
	MG_EXIT_CORRUPT = 4,	/* bad checksum, bad magic, bad structure */
	MG_EXIT_TRUNC = 5,	/* stream cut short */
	MG_EXIT_TYPE = 6	/* wrong record type or schema */
};

#define MG_DIAG_MAX 512

/*
 * A diagnostic: a message that says where and what, without the program
 * name ("'jobs.mrs': block 3: CRC32 mismatch").  msg is empty when unset.
 */
struct mg_diag {
	char msg[MG_DIAG_MAX];
};

/* mg_strerror: a short constant text for a status code. */
const char *mg_strerror(int status);

/* mg_exit_status: the exit status a command should use for status. */
int mg_exit_status(int status);

/*
 * mg_diag_set: format a message into d (d may be NULL) and return status,
 * so that "return mg_diag_set(d, MG_EFORMAT, ...)" reads naturally.
 */
int mg_diag_set(struct mg_diag *d, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* mg_diag_prefix: prepend "prefix: " to an existing message. */
void mg_diag_prefix(struct mg_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* MG_STATUS_H */
