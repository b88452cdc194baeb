/*
 * t_target.c: a target's choice on views made by hand: the cheapest
 * point that reaches the target in every fold, a certified one first,
 * the most cautious where none reaches it; a span of a view chooses as
 * a view of those episodes would; the method recommended; the promise.
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/stats.h"
#include "decide/table.h"
#include "eval/target.h"
#include "tap.h"

#define N	400
#define NP	3

static int64_t xc0[N], xc1[N], xc2[N], x[N], bound[N], start[N];
static int64_t *xcs[NP] = { xc0, xc1, xc2 };
static const double grid[NP] = { 0.5, 3, 12 };

/* a view of n episodes: point 0 submits late (lease 0.83 h) and misses
 * where miss0 says, point 1 (1.83 h) where miss1 says, point 2 (9.83 h)
 * never */
static void
view(struct mg_compare_view *v, size_t n, const int *miss0, const int *miss1)
{
	size_t k;

	for (k = 0; k < n; k++) {
		xc0[k] = miss0[k] ? 60 : -3600;
		xc1[k] = miss1[k] ? 60 : -7200;
		xc2[k] = -36000;
		x[k] = xc1[k];
		bound[k] = 0;
		start[k] = 1000000 + (int64_t)k * 14400;
	}
	memset(v, 0, sizeof(*v));
	v->name = "scheduler-estimate";
	v->kind = MG_SETTING_MARGIN;
	v->grid = grid;
	v->npoints = NP;
	v->xc = xcs;
	v->x = x;
	v->bound = bound;
	v->start = start;
	v->nodes = 1;
	v->n = n;
	v->handing = 600;
	v->dur = 48 * 3600;
}

static void
choices(void)
{
	static int miss0[N], miss1[N];
	struct mg_compare_view v, s;
	const int64_t *buf[NP];
	struct mg_choice ch, cs;

	/* 40 episodes, 4 folds: point 0 misses one in the third fold (90%
	 * there), point 1 none */
	memset(miss0, 0, sizeof(miss0));
	memset(miss1, 0, sizeof(miss1));
	miss0[25] = 1;
	view(&v, 40, miss0, miss1);
	mg_target_choose_view(&v, 0.99, 4, 0.95, &ch);
	ok(ch.point == 1 && ch.setting == 3 && ch.reached && !ch.certified,
	    "the cheapest point in every fold: %d (%g)", ch.point, ch.setting);
	ok(fabs(ch.cost - (7200 - 600) / 3600.0) < 1e-9, "its cost: the mean "
	    "lease given up (%g h)", ch.cost);
	ok(fabs(ch.worst - 1) < 1e-12 && ch.n == 40, "its worst fold, its "
	    "episodes");
	/* 40 of 40 at 95%: 0.05^(1/40), promised as it is not 99% */
	ok(fabs(ch.lower - pow(0.05, 1 / 40.0)) < 1e-6 && ch.promise ==
	    ch.lower && ch.confidence == 0.95, "promise: the lower bound "
	    "(%.4f)", ch.promise);
	/* one fold only: point 0 brings 39 of 40 through, short of 99% */
	mg_target_choose_view(&v, 0.99, 1, 0.95, &ch);
	ok(ch.point == 1, "one fold: 97.5%% is short of 99%% (%d)", ch.point);
	mg_target_choose_view(&v, 0.97, 1, 0.95, &ch);
	ok(ch.point == 0, "one fold at 97%%: the cheaper point (%d)",
	    ch.point);

	/* none reaches it: the best worst fold, then the cheapest of those
	 * (each point misses one in the first fold) */
	miss1[3] = miss1[13] = 1;
	miss0[3] = miss0[13] = 1;
	view(&v, 40, miss0, miss1);
	mg_target_choose_view(&v, 0.99, 4, 0.95, &ch);
	ok(ch.point == 2 && ch.reached, "point 2 never misses: chosen (%d)",
	    ch.point);
	xc2[3] = 60;
	mg_target_choose_view(&v, 0.99, 4, 0.95, &ch);
	ok(ch.point == 0 && !ch.reached && fabs(ch.worst - 0.9) < 1e-12,
	    "none reaches: the best worst fold, cheapest (%d, %g)", ch.point,
	    ch.worst);

	/* 400 episodes: point 1 misses one (99% in its fold: reached, but
	 * 399 of 400 certify 98.8%), point 2 none (certifies 99.25%) */
	memset(miss0, 0, sizeof(miss0));
	memset(miss1, 0, sizeof(miss1));
	miss0[0] = miss0[1] = miss0[2] = miss0[3] = miss0[4] = 1;
	miss1[7] = 1;
	view(&v, N, miss0, miss1);
	mg_target_choose_view(&v, 0.99, 4, 0.95, &ch);
	ok(ch.point == 2 && ch.certified && ch.promise == 0.99,
	    "certified first: point %d, promise %g", ch.point, ch.promise);
	mg_target_choose_view(&v, 0.99, 4, 0.5, &ch);
	ok(ch.point == 1 && ch.certified, "at 50%% confidence point 1 is "
	    "certified too, and cheaper (%d)", ch.point);

	/* a span chooses as a view of its episodes would */
	mg_target_span(&v, 100, 140, buf, &s);
	ok(s.n == 40 && s.start[0] == start[100] && s.xc[1][0] == xc1[100],
	    "a span: its episodes");
	mg_target_choose_view(&s, 0.99, 4, 0.95, &cs);
	memmove(xc0, xc0 + 100, 40 * sizeof(*xc0));
	memmove(xc1, xc1 + 100, 40 * sizeof(*xc1));
	memmove(xc2, xc2 + 100, 40 * sizeof(*xc2));
	memmove(x, x + 100, 40 * sizeof(*x));
	v.n = 40;
	mg_target_choose_view(&v, 0.99, 4, 0.95, &ch);
	ok(cs.point == ch.point && cs.cost == ch.cost && cs.lower ==
	    ch.lower, "the span's choice is the copied episodes' (%d)",
	    cs.point);
}

static void
best(void)
{
	struct mg_choice ch[5];

	memset(ch, 0, sizeof(ch));
	/* afterany, cheap; a lead; the estimate; a model, certified */
	ch[0].kind = MG_SETTING_NONE;
	ch[0].reached = 1;
	ch[0].cost = 0;
	ch[1].kind = MG_SETTING_LEAD;
	ch[1].reached = 1;
	ch[1].cost = 5;
	ch[2].kind = MG_SETTING_MARGIN;
	ch[2].reached = 1;
	ch[2].cost = 9;
	ch[3].kind = MG_SETTING_MARGIN;
	ch[3].reached = 0;
	ch[3].cost = 1;
	ch[4].point = -2;	/* not a method */
	ch[4].reached = 1;
	ch[4].certified = 1;
	ok(mg_target_best(ch, 5) == 2, "a rule on the queue before a lead "
	    "and afterany, cheaper or not (%d)", mg_target_best(ch, 5));
	ch[2].reached = 0;
	ok(mg_target_best(ch, 5) == 1, "then a fixed lead (%d)",
	    mg_target_best(ch, 5));
	ch[1].reached = 0;
	ok(mg_target_best(ch, 5) == 0, "then afterany (%d)",
	    mg_target_best(ch, 5));
	ch[0].reached = 0;
	ok(mg_target_best(ch, 5) == -1, "none reached: none (%d)",
	    mg_target_best(ch, 5));
	ch[0].reached = ch[1].reached = ch[2].reached = 1;
	ch[1].certified = 1;
	ok(mg_target_best(ch, 5) == 1, "a certified one first (%d)",
	    mg_target_best(ch, 5));
	ch[2].certified = 1;
	ch[2].cost = 4;
	ok(mg_target_best(ch, 5) == 2, "of the certified, the queue's "
	    "first (%d)", mg_target_best(ch, 5));
}

/* the table read back: its rows, and a table cut or spoilt refused
 * with its line */
#define HDR	"method\tnodes\ttarget\thandover_s\tsetting_kind\tsetting\t" \
	"reached\trecommended\tpromise\tconfidence\tcluster_nodes\n"

static int
read_text(const char *text, size_t len, struct mg_table_row **rows,
    size_t *n, struct mg_diag *d)
{
	char path[] = "/tmp/t_target.XXXXXX";
	int fd = mkstemp(path), rv;
	FILE *fp = fdopen(fd, "w");

	fwrite(text, 1, len, fp);
	fclose(fp);
	rv = mg_table_read(path, rows, n, d);
	unlink(path);
	return rv;
}

static void
table(void)
{
	static const char good[] = HDR
	    "lead\t1\t0.99\t600\tlead_h\t6.5\t1\t1\t0.979\t0.95\t88\n"
	    "oracle\t1\t0.99\t600\t-\t-\t1\t0\t0.98\t0.95\t88\n"
	    "scheduler-estimate\t8\t0.99\t600\tmargin_h\t3\t0\t1\t0.9"
	    "\t0.95\t88\n";
	struct mg_table_row *r;
	struct mg_diag d = { "" };
	enum mg_setting k, all[] = { MG_SETTING_NONE, MG_SETTING_MARGIN,
	    MG_SETTING_RISK, MG_SETTING_PRICE, MG_SETTING_LEAD };
	size_t n, i;
	char bad[512];
	int ok_kinds = 1;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		ok_kinds &= mg_rule_setting_kind(mg_rule_setting_name(
		    all[i]), &k) == 0 && k == all[i];
	ok(ok_kinds && mg_rule_setting_kind("hours", &k) == -1,
	    "every kind's name reads back as its kind; no other does");
	ok(read_text(good, strlen(good), &r, &n, &d) == 0 && n == 3,
	    "a table's rows read (%s)", d.msg);
	ok(r[0].nodes == 1 && r[0].kind == MG_SETTING_LEAD &&
	    r[0].setting == 6.5 && r[0].handover == 600 && r[0].recommended &&
	    r[0].reached && fabs(r[0].promise - 0.979) < 1e-12 &&
	    r[0].cluster_nodes == 88 && r[0].line == 2 &&
	    strcmp(r[0].method, "lead") == 0, "a row's every field");
	ok(r[1].kind == MG_SETTING_NONE && r[1].setting == 0 &&
	    !r[1].recommended && r[2].nodes == 8 && !r[2].reached &&
	    r[2].kind == MG_SETTING_MARGIN && r[2].history_end == 0 &&
	    r[2].bound == 1, "no setting, another size; columns not there "
	    "at their defaults");
	free(r);
	ok(read_text(good, strlen(good) - 1, &r, &n, &d) == MG_ETRUNC &&
	    strstr(d.msg, "line 4: truncated") != NULL && r == NULL,
	    "cut short: refused with its line (%s)", d.msg);
	ok(read_text(good, sizeof(HDR) + 10, &r, &n, &d) == MG_ETRUNC,
	    "cut in a row: refused");
	snprintf(bad, sizeof(bad), "%s", good);
	memcpy(strstr(bad, "0.99\t600\t-"), "nan!", 4);
	ok(read_text(bad, strlen(bad), &r, &n, &d) == MG_EFORMAT &&
	    strstr(d.msg, "line 3: not a row") != NULL,
	    "a target not a number: refused with its line (%s)", d.msg);
	snprintf(bad, sizeof(bad), "%s", good);
	*strstr(bad, "\t8\t") = ' ';
	ok(read_text(bad, strlen(bad), &r, &n, &d) == MG_EFORMAT &&
	    strstr(d.msg, "line 4: 10 fields, the header has 11") != NULL,
	    "a field missing: refused (%s)", d.msg);
	snprintf(bad, sizeof(bad), "%s", good);
	memcpy(strstr(bad, "lead_h"), "hours!", 6);
	ok(read_text(bad, strlen(bad), &r, &n, &d) == MG_EFORMAT,
	    "a kind of setting no method has: refused");
	ok(read_text("a\tb\n", 4, &r, &n, &d) == MG_ETYPE,
	    "not such a table: refused as another type");
	memcpy(bad, good, sizeof(good));
	bad[sizeof(HDR) - 1] = '\0';
	ok(read_text(bad, sizeof(good) - 1, &r, &n, &d) == MG_EFORMAT &&
	    strstr(d.msg, "line 2: a NUL byte") != NULL,
	    "a NUL byte: refused with its line (%s)", d.msg);
	ok(mg_table_read("/nonexistent/t.tsv", &r, &n, &d) == MG_EIO,
	    "a file that is not there: refused");
}

/*
 * A model is in sample when its last training episode's outcome was
 * known after the first episode chosen on started (as the walk judges
 * a model only on episodes from its last one's end): to + workload
 * after first, that is to after first - workload.
 */
static void
insample(void)
{
	int64_t first = 1000000, workload = 5 * 86400;

	ok(!mg_target_insample(first - workload, first - workload),
	    "a model whose last episode ends as the first chosen on starts "
	    "is out of sample");
	ok(mg_target_insample(first - workload + 1, first - workload),
	    "a second later it is in sample");
	ok(!mg_target_insample(0, first - workload), "a model that does not "
	    "say what it was trained on is not taken for in sample");
}

int
main(void)
{
	insample();
	choices();
	best();
	table();
	return tap_done();
}
