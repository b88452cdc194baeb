/*
 * t_dlattr.c: deep-learning jobs' attributes (dlattr.h): the overheads
 * worked by hand, the generator's determinism and spread, and the
 * side stream's records.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mirage.h"
#include "cluster/dlattr.h"
#include "tap.h"

/* the same attributes (a struct's padding is not compared) */
static int
same_attr(const struct mg_dlattr *a, const struct mg_dlattr *b)
{
	return a->epoch_s == b->epoch_s && a->ckpt_mb == b->ckpt_mb &&
	    a->model_mb == b->model_mb && a->data_mb == b->data_mb &&
	    a->init_s == b->init_s && a->urgent == b->urgent;
}

int
main(void)
{
	struct mg_dlgen g;
	struct mg_dlattr a, b;
	struct mg_value rec[MG_DL_NFIELDS];
	const char *msg = NULL;
	double sum = 0, sum2 = 0, mean, cv, urgent = 0;
	char id[32];
	int i, same = 1, n = 20000;

	mg_dlgen_default(&g);
	/* an epoch of 1000 s, 3000 MB of checkpoint at 1000 MB/s; 1000 MB of
	 * model, 4000 MB of data at 2000 MB/s, 60 s of start-up */
	a.epoch_s = 1000;
	a.ckpt_mb = 3000;
	a.model_mb = 1000;
	a.data_mb = 4000;
	a.init_s = 60;
	a.urgent = 0;
	ok(mg_dlattr_release_time(&a, &g, 2250, 1e6) == 750 + 3,
	    "2250 s in: a quarter of the third epoch done, release = 750 + "
	    "3 s (%g)", mg_dlattr_release_time(&a, &g, 2250, 1e6));
	ok(mg_dlattr_release_time(&a, &g, 2250, 100) == 100, "a job with 100 s left "
	    "ends first: release = 100 (%g)", mg_dlattr_release_time(&a, &g, 2250,
	    100));
	ok(mg_dlattr_resume_time(&a, &g) == 1 + 2 + 60, "resume = 1 + 2 + 60 s (%g)",
	    mg_dlattr_resume_time(&a, &g));

	for (i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "%d", 1000 + i);
		mg_dlattr_draw(&g, 7, id, strlen(id), &a);
		mg_dlattr_draw(&g, 7, id, strlen(id), &b);
		same &= same_attr(&a, &b);
		sum += a.epoch_s;
		sum2 += a.epoch_s * a.epoch_s;
		urgent += a.urgent;
	}
	mean = sum / n;
	cv = sqrt(sum2 / n - mean * mean) / mean;
	ok(same, "a job's attributes depend on (seed, JobID) alone");
	ok(cv >= 1 && cv < 1.2, "epoch times log-uniform over 1-60 min: "
	    "coefficient of variation %.3f (at least 1)", cv);
	ok(fabs(urgent / n - 0.1) < 0.01, "urgent share %.3f (0.1)",
	    urgent / n);
	mg_dlattr_draw(&g, 8, "1000", 4, &b);
	mg_dlattr_draw(&g, 7, "1000", 4, &a);
	ok(!same_attr(&a, &b), "another seed, other attributes");
	g.equal = 1;
	mg_dlattr_draw(&g, 7, "1", 1, &a);
	mg_dlattr_draw(&g, 7, "2", 1, &b);
	ok(a.epoch_s == b.epoch_s && a.epoch_s == sqrt(60.0 * 3600) &&
	    a.ckpt_mb == b.ckpt_mb, "equal overheads: one epoch time (%g s) "
	    "and family for all", a.epoch_s);

	/* the side stream's record, both ways, and bad ones */
	mg_dlattr_to_record(&a, "28_3", 4, rec);
	ok(mg_dlattr_from_record(rec, &b, &msg) == 0 && b.epoch_s ==
	    a.epoch_s && b.urgent == a.urgent && b.data_mb == a.data_mb &&
	    rec[MG_DL_JOBID].len == 4, "a record round trip");
	rec[MG_DL_EPOCH_S].f = 0;
	i = mg_dlattr_from_record(rec, &b, &msg);
	ok(i == -1 && strcmp(msg, "epoch_s") == 0, "an epoch of 0 is "
	    "refused (%s)", msg);
	rec[MG_DL_EPOCH_S].f = NAN;
	ok(mg_dlattr_from_record(rec, &b, &msg) == -1, "so is NaN");
	mg_dlattr_to_record(&a, "28_3", 4, rec);
	rec[MG_DL_CLASS].s = "urgentish";
	rec[MG_DL_CLASS].len = 9;
	i = mg_dlattr_from_record(rec, &b, &msg);
	ok(i == -1 && strcmp(msg, "class") == 0, "and an unknown class (%s)",
	    msg);
	ok(strcmp(mg_dlattr_schema()->type, "dlattrs") == 0 &&
	    mg_dlattr_schema()->nfields == MG_DL_NFIELDS, "the schema");
	return tap_done();
}
