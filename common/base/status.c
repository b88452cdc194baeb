/* status.c: status names, exit codes and diagnostics. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/status.h"

const char *
mg_strerror(int status)
{
	switch (status) {
	case MG_OK:		return "success";
	case MG_EIO:		return "I/O error";
	case MG_ENOMEM:		return "out of memory";
	case MG_EINVAL:		return "invalid argument";
	case MG_EFORMAT:	return "malformed input";
	case MG_EVERSION:	return "unsupported stream version";
	case MG_ECHECKSUM:	return "checksum mismatch";
	case MG_ETRUNC:		return "truncated stream";
	case MG_ETYPE:		return "wrong record type";
	case MG_ECORRUPT:	return "corrupt stream";
	default:		return "unknown error";
	}
}

int
mg_exit_status(int status)
{
	switch (status) {
	case MG_OK:		return MG_EXIT_OK;
	case MG_EINVAL:		return MG_EXIT_USAGE;
	case MG_EVERSION:	return MG_EXIT_VERSION;
	case MG_ECHECKSUM:
	case MG_ECORRUPT:	return MG_EXIT_CORRUPT;
	case MG_ETRUNC:		return MG_EXIT_TRUNC;
	case MG_ETYPE:		return MG_EXIT_TYPE;
	default:		return MG_EXIT_FAIL;
	}
}

int
mg_diag_set(struct mg_diag *d, int status, const char *fmt, ...)
{
	va_list ap;

	if (d == NULL)
		return status;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	return status;
}

void
mg_diag_prefix(struct mg_diag *d, const char *fmt, ...)
{
	char old[MG_DIAG_MAX];
	size_t k, n;
	va_list ap;

	if (d == NULL)
		return;
	memcpy(old, d->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	k = strlen(d->msg);
	if (k + 3 >= sizeof(d->msg))
		return;
	memcpy(d->msg + k, ": ", 2);
	k += 2;
	n = strnlen(old, sizeof(old) - 1);
	if (n > sizeof(d->msg) - 1 - k)
		n = sizeof(d->msg) - 1 - k;
	memcpy(d->msg + k, old, n);
	d->msg[k + n] = '\0';
}
