/*
 * t_event.c: the capacity over the past from sacctmgr's node events: in
 * its default columns (with a header, a cluster event among them), in
 * the four columns mirage-advise asks for (no header), overlapping
 * events of one node counted once, events still open, bad lines named.
 */
#include <string.h>

#include "tap.h"
#include "live/event.h"

#define T(s)	(since + (s))

int
main(void)
{
	struct mg_capacity c;
	struct mg_diag d = { "" };
	int64_t since, now;
	int rv;
	/* 2023-03-01T00:00:00 UTC */
	const char *dflt =
	    "Cluster|NodeName|TimeStart|TimeEnd|State|Reason|User\n"
	    "ls6||2023-02-28T00:00:00|2023-03-01T06:00:00||Cluster Registered TRES|\n"
	    "ls6|c001|2023-03-01T01:00:00|2023-03-01T05:00:00|DRAIN|bad gpu|root(0)\n"
	    "ls6|c001|2023-03-01T02:00:00|2023-03-01T03:00:00|DOWN|not responding|slurm(64030)\n"
	    "ls6|c002|2023-03-01T02:00:00|Unknown|DRAIN|maint|root(0)\n"
	    "ls6|c003|2023-02-20T00:00:00|2023-02-21T00:00:00|DOWN|old|root(0)\n"
	    "ls6|c004|2023-03-01T07:00:00|Unknown|DOWN|later|root(0)\n";
	const char *four =
	    "c001|2023-02-28T22:00:00|2023-03-01T01:00:00|DOWN\r\n"
	    "\n"
	    "c002|2023-03-01T01:00:00|2023-03-01T02:00:00|DRAIN\n";

	since = 1677628800;	/* 2023-03-01T00:00:00Z */
	now = T(6 * 3600);
	rv = mg_events_parse(dflt, strlen(dflt), "ev.txt", MG_TZ_UTC, 10, NULL,
	    since, now, &c, &d);
	ok(rv == 0, "the default columns, with a header (%s)", d.msg);
	ok(c.events == 6, "six events read, the cluster's among them (%zu)",
	    c.events);
	ok(c.n == 4 && c.time[0] == since && c.nodes[0] == 10 &&
	    c.time[1] == T(3600) && c.nodes[1] == 9 &&
	    c.time[2] == T(7200) && c.nodes[2] == 8 &&
	    c.time[3] == T(5 * 3600) && c.nodes[3] == 9,
	    "10 up, 9 from 01:00, 8 from 02:00 (c001 counted once while "
	    "down and drained), 9 from 05:00 (c002 still drained); "
	    "%zu points", c.n);
	ok(c.now == 9, "9 up now (%d); an event after now left out", c.now);
	mg_capacity_release(&c);

	rv = mg_events_parse(four, strlen(four), "four.txt", MG_TZ_UTC, 4, NULL,
	    since, now, &c, &d);
	ok(rv == 0 && c.n == 2 && c.time[0] == since && c.nodes[0] == 3 &&
	    c.time[1] == T(7200) && c.nodes[1] == 4 && c.now == 4, "four "
	    "columns, no header: an event that covers the start counted from "
	    "it; one ending as another starts changes nothing (%zu points)",
	    c.n);
	mg_capacity_release(&c);

	rv = mg_events_parse("", 0, "empty", MG_TZ_UTC, 4, NULL, since, now, &c,
	    &d);
	ok(rv == 0 && c.n == 1 && c.time[0] == since && c.nodes[0] == 4 &&
	    c.now == 4, "no event: all nodes up all along");
	mg_capacity_release(&c);

	rv = mg_events_parse("c001|2023-03-01T01:00:00\n", 25, "short.txt",
	    MG_TZ_UTC, 4, NULL, since, now, &c, &d);
	ok(rv == MG_EFORMAT && strstr(d.msg, "short.txt, line 1: 2 fields"),
	    "too few fields: named (%s)", d.msg);
	rv = mg_events_parse("c001|2023-03-01T01:00:00|yesterday|DOWN\n", 40,
	    "bad.txt", MG_TZ_UTC, 4, NULL, since, now, &c, &d);
	ok(rv == MG_EFORMAT && strstr(d.msg, "bad.txt, line 1: bad TimeStart"),
	    "a bad time: named (%s)", d.msg);
	rv = mg_events_parse("NodeName|State\nc001|DOWN\n", 25, "hdr.txt",
	    MG_TZ_UTC, 4, NULL, since, now, &c, &d);
	ok(rv == MG_EFORMAT && strstr(d.msg, "hdr.txt, line 1: a header "
	    "without"), "a header without the times: named (%s)", d.msg);
	rv = mg_events_parse("c1|2023-03-01T02:00:00|2023-03-01T01:00:00|D\n",
	    45, "rev.txt", MG_TZ_UTC, 4, NULL, since, now, &c, &d);
	ok(rv == MG_EFORMAT, "an event that ends before it starts: refused");
	ok(mg_events_parse("", 0, "x", MG_TZ_UTC, 0, NULL, since, now, &c, &d) ==
	    MG_EINVAL, "no nodes: refused");
	return tap_done();
}
