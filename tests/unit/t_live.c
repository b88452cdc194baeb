/*
 * t_live.c: views of a real cluster from squeue and sacct dumps (the
 * input of mirage-advise), worked out by hand: which jobs are pending,
 * running, recently started and ended at a moment, in which order, with
 * how many free nodes; a later dump replaces an earlier one's rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "live/live.h"
#include "mirage.h"
#include "tap.h"

/* a day of history (sacct -P) and the queue now (squeue -o, padded) */
static const char hist[] =
    "JobID|Partition|State|Submit|Start|End|Timelimit|NNodes\n"
    "10|gpu|COMPLETED|2026-11-23T08:00:00|2026-11-23T08:00:00|"
    "2026-11-23T12:00:00|10:00:00|2\n"
    "11|gpu|COMPLETED|2026-11-23T20:00:00|2026-11-23T21:00:00|"
    "2026-11-23T22:00:00|02:00:00|1\n"
    "12|cpu|COMPLETED|2026-11-23T20:00:00|2026-11-23T20:00:00|"
    "2026-11-23T21:00:00|02:00:00|1\n"
    "13|gpu|RUNNING|2026-11-23T21:00:00|2026-11-23T21:30:00|"
    "Unknown|1-00:00:00|2\n";
static const char queue[] =
    "JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|END_TIME|TIME_LIMIT|NODES|"
    "PRIORITY\n"
    "   13|      gpu| R|2026-11-23T21:00:00|2026-11-23T21:30:00|"
    "2026-11-24T21:30:00|1-00:00:00|    2|  500\n"
    "   14|      gpu|PD|2026-11-23T22:30:00|2026-11-24T01:00:00|N/A|"
    "2-00:00:00|    4|  900\n"
    "   15|      gpu|PD|2026-11-23T22:50:00|N/A|N/A|1:00:00|    1|  1200\n"
    "   16|      gpu|PD|2026-11-23T20:30:00|N/A|N/A|1:00:00|    1|  700\n";

int
main(void)
{
	struct mg_live l;
	struct mg_view v = { 0 };
	struct mg_diag d = { "" };
	const struct mg_live_job *j;
	const char *layout = NULL;
	int64_t now;
	int rv;

	mg_parse_date("2026-11-23T23:00:00", MG_TZ_UTC, &now);
	memset(&l, 0, sizeof(l));
	l.partition = "gpu";
	l.now = now;
	ok(mg_live_read_mem(&l, hist, sizeof(hist) - 1, "hist", &layout,
	    &d) == 0 && strcmp(layout, "sacct -P") == 0, "history read (%s)",
	    d.msg);
	ok(mg_live_read_mem(&l, queue, sizeof(queue) - 1, "queue", &layout,
	    &d) == 0 && strcmp(layout, "squeue -o (delimited)") == 0,
	    "queue read (%s)", d.msg);
	ok(mg_live_find(&l, "12") == NULL, "another partition's job is left "
	    "out");
	j = mg_live_find(&l, "14");
	ok(j != NULL && j->pending && j->start == -1 && j->prio == 900,
	    "a pending job has no start (squeue's is a plan) and its priority");
	j = mg_live_find(&l, "13");
	ok(j != NULL && !j->pending && j->prio == 500 && j->end == -1,
	    "the queue's row replaces the history's; a running job's planned "
	    "end is no end");
	rv = mg_live_view(&l, now, 8, 86400, "13", 1000, &v);
	ok(rv == 0, "a view now");
	ok(v.npend == 3 && v.pend[0].prio == 1200 && v.pend[1].prio == 900 &&
	    v.pend[2].prio == 700, "pending in Slurm's priority order: "
	    "%zu jobs, %g %g %g", v.npend, v.npend > 2 ? v.pend[0].prio : 0,
	    v.npend > 2 ? v.pend[1].prio : 0, v.npend > 2 ? v.pend[2].prio : 0);
	ok(v.nrun == 1 && v.run[0].chain == 1 && v.run[0].nodes == 2 &&
	    v.free == 6, "one job running, the chain's, 6 of 8 nodes free "
	    "(%zu, %d)", v.nrun, v.free);
	ok(v.nrecent == 3 && v.nended == 2, "started in the last day: 10, "
	    "11 and 13; ended: 10 and 11 (%zu, %zu)", v.nrecent, v.nended);
	rv = mg_live_view(&l, now - 2 * 3600, 8, 86400, NULL, 0, &v);
	ok(rv == 0 && v.nrun == 1 && v.npend == 2 && v.free == 7,
	    "two hours ago: 11 ran; 13 and 16 were pending (%zu, %zu, %d)",
	    v.nrun, v.npend, v.free);
	ok(v.npend == 2 && v.pend[0].submit < v.pend[1].submit,
	    "in the past, priorities are not known: first come first");
	ok(mg_live_fresh_prio(&l) == 1050, "a new job's priority: the median "
	    "of those submitted in the last hour (14, 15) (%g)",
	    mg_live_fresh_prio(&l));
	mg_view_release(&v);
	mg_live_release(&l);

	/* no priority shown: a new job is behind every pending one */
	memset(&l, 0, sizeof(l));
	l.now = now;
	mg_live_read_mem(&l, hist, sizeof(hist) - 1, "hist", NULL, &d);
	ok(mg_live_fresh_prio(&l) == -(double)now, "no priorities: first "
	    "come, first served (%g)", mg_live_fresh_prio(&l));
	{
		static const char bad[] = "JOBID|ST|SUBMIT_TIME\n7|PD|x\n";

		ok(mg_live_read_mem(&l, bad, sizeof(bad) - 1, "q.txt", NULL,
		    &d) == MG_EFORMAT && strstr(d.msg, "'q.txt': line 2: bad "
		    "Submit 'x'") != NULL, "a bad row stops it: %s", d.msg);
	}
	mg_live_release(&l);

	/* the history's ended jobs as a trace, and what a dump lacks */
	memset(&l, 0, sizeof(l));
	l.now = now;
	l.partition = "gpu";
	mg_live_read_mem(&l, hist, sizeof(hist) - 1, "hist", NULL, &d);
	mg_live_read_mem(&l, queue, sizeof(queue) - 1, "queue", NULL, &d);
	{
		struct mg_trace t;

		ok(mg_live_history(&l, now, &t) == 0 && t.n == 2 &&
		    t.job[0].dur == 4 * 3600 && t.job[1].dur == 3600 &&
		    t.job[1].limit == 7200 && t.job[1].nodes == 1,
		    "history: the 2 gpu jobs ended by 23:00, in arrival order");
		mg_trace_release(&t);
		ok(mg_live_history(&l, now - 2 * 3600, &t) == 0 && t.n == 1,
		    "history at 21:00: one job had ended");
		mg_trace_release(&t);
	}
	ok(mg_live_incomplete(&l, now) == 0, "squeue -o shows limits and "
	    "submission times");
	mg_live_release(&l);
	{
		/* squeue's default layout: neither */
		static const char dflt[] =
		    "JOBID PARTITION     NAME     USER ST       TIME  NODES "
		    "NODELIST(REASON)\n"
		    "   13       gpu      run     root  R    1:30:00      2 c1\n"
		    "   14       gpu      run     root PD       0:00      4 "
		    "(Priority)\n";

		memset(&l, 0, sizeof(l));
		l.now = now;
		ok(mg_live_read_mem(&l, dflt, sizeof(dflt) - 1, "d", NULL,
		    &d) == 0 && mg_live_incomplete(&l, now) == 2,
		    "squeue's default layout lacks them for both jobs (%s)",
		    d.msg);
		mg_live_release(&l);
	}
	/* users: the queue's and the history's share one index, so that
	 * the planner draws run times by user live as in evaluation */
	{
		static const char h2[] =
		    "JobID|Partition|State|Submit|Start|End|Timelimit|NNodes|"
		    "User\n"
		    "20|gpu|COMPLETED|2026-11-23T08:00:00|2026-11-23T08:00:00|"
		    "2026-11-23T09:00:00|10:00:00|1|bob\n"
		    "21|gpu|COMPLETED|2026-11-23T08:00:00|2026-11-23T08:00:00|"
		    "2026-11-23T10:00:00|10:00:00|1|alice\n"
		    "22|gpu|COMPLETED|2026-11-23T08:00:00|2026-11-23T08:00:00|"
		    "2026-11-23T11:00:00|10:00:00|1|\n";
		static const char q2[] =
		    "JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|END_TIME|"
		    "TIME_LIMIT|NODES|PRIORITY|USER\n"
		    "23|gpu|R|2026-11-23T21:00:00|2026-11-23T21:30:00|N/A|"
		    "1-00:00:00|1|500|alice\n"
		    "24|gpu|PD|2026-11-23T22:30:00|N/A|N/A|1:00:00|1|900|bob\n";
		struct mg_live l2;
		struct mg_trace tr;
		size_t i;
		int32_t a = -2, b = -2, none = -2;

		memset(&l2, 0, sizeof(l2));
		mg_live_read_mem(&l2, h2, sizeof(h2) - 1, "h2", NULL, &d);
		mg_live_read_mem(&l2, q2, sizeof(q2) - 1, "q2", NULL, &d);
		mg_live_view(&l2, now, 8, 86400, NULL, 1000, &v);
		mg_live_history(&l2, now, &tr);
		for (i = 0; i < tr.n; i++) {
			if (strcmp(tr.job[i].id, "21") == 0)
				a = tr.job[i].user;
			if (strcmp(tr.job[i].id, "20") == 0)
				b = tr.job[i].user;
			if (strcmp(tr.job[i].id, "22") == 0)
				none = tr.job[i].user;
		}
		ok(a == 0 && b == 1 && none == -1 && tr.nusers == 2, "the "
		    "history's users by name: alice 0, bob 1, none -1 (%d %d "
		    "%d)", a, b, none);
		ok(v.nrun == 1 && v.run[0].user == a && v.npend == 1 &&
		    v.pend[0].user == b, "the queue's jobs carry the same "
		    "indices (%d, %d)", v.nrun ? v.run[0].user : -9,
		    v.npend ? v.pend[0].user : -9);
		free(tr.job);
		mg_live_release(&l2);
		mg_view_release(&v);
	}
	return tap_done();
}
