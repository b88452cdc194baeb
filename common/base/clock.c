/*
 * clock.c: the system's clock, or a hook's; see clock.h.
 */
#include <stddef.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"

static struct mg_clock_hook hook;
static int hooked;

int64_t
mg_clock_now(void)
{
	return hooked ? hook.now(hook.arg) : (int64_t)time(NULL);
}

void
mg_clock_sleep(int64_t seconds, enum mg_clock_wait why)
{
	if (seconds <= 0)
		return;
	if (hooked)
		hook.sleep(hook.arg, seconds, why);
	else
		sleep((unsigned)seconds);
}

void
mg_clock_set_hook(const struct mg_clock_hook *h)
{
	hooked = h != NULL;
	if (h != NULL)
		hook = *h;
}
