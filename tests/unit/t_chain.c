/*
 * t_chain.c: a chain's state against what the cluster shows, worked out
 * by hand: a successor that started becomes the chain's job, one that
 * ended before it started is counted once and backs the next off, a job
 * that ran an hour (or its course) clears the count, unless it started
 * before the failure; a successor that ended while its predecessor runs
 * gives the chain back; a take-over's record survives a write and read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live/chain.h"
#include "mirage.h"
#include "tap.h"

static struct mg_live_job
job(const char *id, int64_t start, int64_t end, const char *state)
{
	struct mg_live_job j;

	memset(&j, 0, sizeof(j));
	snprintf(j.jobid, sizeof(j.jobid), "%s", id);
	j.start = start;
	j.end = end;
	snprintf(j.state, sizeof(j.state), "%s", state);
	return j;
}

static void
successor_started(void)
{
	struct mg_chainstate st;
	struct mg_live_job s = job("101", 1000, -1, "RUNNING");
	char old[32] = "", fate[128] = "";

	memset(&st, 0, sizeof(st));
	strcpy(st.current, "100");
	strcpy(st.successor, "101");
	ok(mg_chain_step(&st, &s, 999, old, sizeof(old), fate,
	    sizeof(fate)) == MG_CHAIN_SAME && strcmp(st.current, "100") == 0,
	    "a successor that starts after now: no change");
	ok(mg_chain_step(&st, &s, 1000, old, sizeof(old), fate,
	    sizeof(fate)) == MG_CHAIN_STARTED && strcmp(st.current,
	    "101") == 0 && *st.successor == '\0' && strcmp(old, "100") == 0,
	    "started: the chain's job, its predecessor named (%s, %s)",
	    st.current, old);
	strcpy(st.successor, "102");
	ok(mg_chain_step(&st, NULL, 5000, old, sizeof(old), fate,
	    sizeof(fate)) == MG_CHAIN_SAME && strcmp(st.successor,
	    "102") == 0, "a successor in no dump stays the successor");
}

static void
successor_lost(void)
{
	struct mg_chainstate st;
	struct mg_live_job s = job("101", -1, 2000, "CANCELLED");
	char old[32] = "", fate[128] = "";

	memset(&st, 0, sizeof(st));
	strcpy(st.current, "100");
	strcpy(st.successor, "101");
	ok(mg_chain_step(&st, &s, 2500, old, sizeof(old), fate,
	    sizeof(fate)) == MG_CHAIN_LOST && *st.successor == '\0' &&
	    st.failures == 1 && st.retry_after == 2000 + 600 &&
	    strcmp(st.current, "100") == 0, "cancelled before it started: "
	    "dropped, counted, 10 minutes of back-off (%s)", fate);
	strcpy(st.successor, "101");
	mg_chain_step(&st, &s, 2600, old, sizeof(old), fate, sizeof(fate));
	ok(st.failures == 1, "the same job is counted once");
	s = job("103", -1, 3000, "CANCELLED");
	strcpy(st.successor, "103");
	mg_chain_step(&st, &s, 3100, old, sizeof(old), fate, sizeof(fate));
	ok(st.failures == 2 && st.retry_after == 3000 + 1200, "the second "
	    "in a row: 20 minutes (%lld)", (long long)st.retry_after);
	ok(mg_chain_backoff(1) == 600 && mg_chain_backoff(3) == 2400 &&
	    mg_chain_backoff(50) == 600 << 9, "back-off doubles, capped");
}

static void
chain_job(void)
{
	struct mg_chainstate st;
	struct mg_live_job p = job("100", 1000, 1010, "FAILED");
	char fate[128] = "";

	memset(&st, 0, sizeof(st));
	mg_chain_job(&st, &p, 1, 2000, fate, sizeof(fate));
	ok(st.failures == 1 && strstr(fate, "failed (FAILED)") != NULL,
	    "the chain's job failed: counted (%s)", fate);
	p = job("104", 5000, -1, "RUNNING");
	mg_chain_job(&st, &p, 0, 5000 + 1800, fate, sizeof(fate));
	ok(st.failures == 1, "running half an hour: still counted");
	mg_chain_job(&st, &p, 0, 5000 + 3600, fate, sizeof(fate));
	ok(st.failures == 0 && st.retry_after == 0, "running an hour: the "
	    "count is cleared");
	st.failures = 2;
	p = job("105", 9000, 9500, "TIMEOUT");
	mg_chain_job(&st, &p, 1, 9600, fate, sizeof(fate));
	ok(st.failures == 0, "TIMEOUT is a chain's ordinary end: cleared");
}

static void
count_kept(void)
{
	struct mg_chainstate st;
	struct mg_live_job p = job("100", 1000, 5000, "TIMEOUT");
	char fate[128] = "";

	/* a successor lost at 3000, while P (started at 1000) ran */
	memset(&st, 0, sizeof(st));
	st.failures = 1;
	st.retry_after = 3000 + mg_chain_backoff(1);
	mg_chain_job(&st, &p, 1, 5100, fate, sizeof(fate));
	ok(st.failures == 1, "P's ordinary end does not clear the failures "
	    "of successors lost while it ran (%lld)", (long long)st.failures);
	p = job("100", 1000, -1, "RUNNING");
	mg_chain_job(&st, &p, 0, 1000 + 7200, fate, sizeof(fate));
	ok(st.failures == 1, "nor does its running an hour");
}

static void
reverted(void)
{
	struct mg_chainstate st;
	struct mg_live_job s = job("101", 1000, 1060, "FAILED");
	char fate[128] = "";

	memset(&st, 0, sizeof(st));
	strcpy(st.current, "101");
	strcpy(st.take.job, "100");
	st.take.began = 1001;
	mg_chain_revert(&st, "100", &s, 1200, fate, sizeof(fate));
	ok(strcmp(st.current, "100") == 0 && st.failures == 1 &&
	    *st.take.job == '\0' && st.take.began == 0 &&
	    st.retry_after == 1060 + 600, "a successor that ended while P "
	    "runs: P is the chain's job again, S counted (%s)", fate);
	mg_chain_revert(&st, "100", &s, 1300, fate, sizeof(fate));
	ok(st.failures == 1, "counted once");
}

static void
record_kept(void)
{
	struct mg_chainstate st, back;
	struct mg_diag d = { "" };
	char path[] = "/tmp/t_chain.XXXXXX";
	int fd = mkstemp(path);

	memset(&st, 0, sizeof(st));
	strcpy(st.current, "101");
	strcpy(st.take.job, "100_3");
	st.take.began = 10;
	st.take.until = 1200;
	st.take.signalled = 20;
	st.take.cancelled = 950;
	st.updated = 1795470612;
	st.held_until = 1795470000;
	st.nice = 2147483645;
	st.current_start = 1795470012;
	st.ready_max = 1500;
	ok(fd >= 0 && mg_chain_write(path, &st, &d) == 0 &&
	    mg_chain_read(path, &back, &d) == 1, "written and read (%s)",
	    d.msg);
	ok(memcmp(&st.take, &back.take, sizeof(st.take)) == 0,
	    "the take-over's record is kept (%s %lld %lld %lld %lld)",
	    back.take.job, (long long)back.take.began,
	    (long long)back.take.until, (long long)back.take.signalled,
	    (long long)back.take.cancelled);
	ok(back.updated == st.updated && back.held_until == st.held_until &&
	    back.nice == st.nice, "when it was written, and the holds set on "
	    "the successor, are read back (%lld %lld %lld)",
	    (long long)back.updated, (long long)back.held_until,
	    (long long)back.nice);
	ok(back.current_start == st.current_start && back.ready_max ==
	    st.ready_max, "the chain's job's start seen, its successors' "
	    "time to ready, are read back (%lld %lld)",
	    (long long)back.current_start, (long long)back.ready_max);
	if (fd >= 0)
		close(fd);
	unlink(path);
}

int
main(void)
{
	successor_started();
	successor_lost();
	chain_job();
	count_kept();
	reverted();
	record_kept();
	return tap_done();
}
