/*
 * clock.h: the time and the waits of the library's parts that act on a
 * live cluster (live/), and the hook that puts a simulated clock in
 * their place: a test drives a simulated Slurm through a take-over and
 * cron runs in simulated time (tests/unit/t_soak.c), deterministically.
 */
#ifndef MG_CLOCK_H
#define MG_CLOCK_H

#include <stdint.h>

/* why a wait is made: a command tried again (inside a step, the chain's
 * lock perhaps held), or a poll between steps (no lock held: other runs
 * may act meanwhile) */
enum mg_clock_wait {
	MG_CLOCK_RETRY,
	MG_CLOCK_POLL
};

struct mg_clock_hook {
	int64_t (*now)(void *arg);
	void (*sleep)(void *arg, int64_t seconds, enum mg_clock_wait why);
	void *arg;
};

/* mg_clock_now: seconds since the epoch (the hook's, or the system's) */
int64_t mg_clock_now(void);

/* mg_clock_sleep: wait seconds (> 0) */
void mg_clock_sleep(int64_t seconds, enum mg_clock_wait why);

/* mg_clock_hook: use h from now on (copied); NULL: the system's clock */
void mg_clock_set_hook(const struct mg_clock_hook *h);

#endif /* MG_CLOCK_H */
