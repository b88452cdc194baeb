/*
 * tap.h: a few lines of TAP for the C unit tests.  ok() prints
 * "ok N - what" or "not ok N - what" with the file and line; tap_done()
 * prints the plan and returns the exit status.
 */
#ifndef TAP_H
#define TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

static int __attribute__((format(printf, 4, 5)))
tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)

static int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* TAP_H */
