/*
 * t_rule.c: the ways of deciding applied alike by their three callers.
 * The comparison that chooses a setting decides over an episode's ticks
 * at once (scores raised by mg_rule_ticks(), then the first over the
 * threshold); many chains at once and the live chain ask at each tick in
 * turn (mg_rule_submits(), mg_rule_estimate(), mg_rule_lead()).  On
 * random episodes both must submit at the same tick, for every rule; the
 * comparison fed a regressor's raw scores must not (a threshold would be
 * chosen under one rule and applied under another).  A
 * policy (pg), which the comparison applies over the episode's ticks,
 * is refused by the callers that ask at one tick.
 * Then a chain size's row, the rules a queue alone runs, the settings'
 * names.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "decide/rule.h"
#include "decide/table.h"
#include "episode/feature.h"
#include "episode/protocol.h"
#include "tap.h"

#define H	3600
#define MAXT	200
#define CASES	3000

static uint64_t seed = 42;

/* a uniform draw in [0, 1) */
static double
draw(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(seed >> 11) / 9007199254740992.0;
}

/* a random episode: P ends at 48 h, decision ticks every 10 min from
 * 28 h to 49 h with times that are not ticks between them, no decision
 * before t_first (0, or a random time) */
struct ep {
	struct mg_outcome o;
	int64_t t[MAXT], x[MAXT];
	unsigned char tick[MAXT];
};

static void
episode(struct ep *e)
{
	size_t k;
	int64_t t;

	memset(e, 0, sizeof(*e));
	e->o.p_end = 48 * H;
	for (t = 28 * H, k = 0; t <= 49 * H && k < MAXT; t += 300, k++) {
		e->t[k] = t;
		e->tick[k] = t % 600 == 0;
		e->x[k] = (int64_t)((draw() - 0.7) * 20 * H);
	}
	e->o.n = k;
	e->o.t = e->t;
	e->o.x = e->x;
	e->o.tick = e->tick;
	e->o.t_first = draw() < 0.5 ? 0 : (int64_t)(28 + draw() * 20) * H;
}

/* what a caller asking at each tick in turn submits at: the first tick
 * before P's end, not before t_first, where says(j) is true; else the
 * first tick at or after the end */
enum ask { ASK_MODEL, ASK_ESTIMATE, ASK_LEAD };

static size_t
in_turn(const struct ep *e, enum ask how, const struct mg_model *m,
    const double *score, double thr)
{
	size_t k, j = 0;
	double s, left;
	int yes;

	for (k = 0; k < e->o.n; k++) {
		if (!e->tick[k])
			continue;
		if (e->t[k] >= e->o.p_end)
			return k;
		left = (double)(e->o.p_end - e->t[k]) / H;
		s = score[j++];
		yes = how == ASK_MODEL ? mg_rule_submits(m, &s, thr, left) :
		    how == ASK_ESTIMATE ? mg_rule_estimate(s, thr) :
		    mg_rule_lead(left, thr);
		if (yes && e->t[k] >= e->o.t_first)
			return k;
	}
	return e->o.n - 1;
}

/* the model's rule: the comparison's way against the callers' */
static void
models(int classifier)
{
	struct mg_model m;
	struct ep e;
	double raw[MAXT], up[MAXT], thr;
	size_t i, j, same = 0, raw_same = 0;

	memset(&m, 0, sizeof(m));
	m.classifier = classifier;
	for (i = 0; i < CASES; i++) {
		episode(&e);
		for (j = 0; j < MAXT; j++)
			raw[j] = classifier ? draw() : (draw() - 0.9) * 60;
		thr = classifier ? draw() : draw() * 6;
		memcpy(up, raw, sizeof(up));
		mg_rule_ticks(&m, &e.o, up);
		j = in_turn(&e, ASK_MODEL, &m, raw, thr);
		same += mg_protocol_choose_first(&e.o, up, classifier ? thr :
		    -thr) == j;
		raw_same += mg_protocol_choose_first(&e.o, raw, classifier ?
		    thr : -thr) == j;
	}
	ok(same == CASES, "a %s's rule: the comparison submits where the live "
	    "chain would, in %zu of %d episodes", classifier ? "classifier" :
	    "regressor", same, CASES);
	if (classifier)
		ok(raw_same == CASES, "a classifier's score is not raised");
	else
		ok(raw_same < CASES, "a regressor's raw score, not raised to -(time "
		    "left), decides otherwise in %d episodes: the check can fail",
		    CASES - (int)raw_same);
}

/* the scheduler estimate's margin and the fixed lead */
static void
queue_rules(void)
{
	struct ep e;
	double gap[MAXT], thr;
	size_t i, j, k, est = 0, lead = 0, first;

	for (i = 0; i < CASES; i++) {
		episode(&e);
		for (j = 0; j < MAXT; j++)
			gap[j] = (draw() - 0.8) * 30;
		thr = draw() * 8;
		est += mg_protocol_choose_first(&e.o, gap, -thr) ==
		    in_turn(&e, ASK_ESTIMATE, NULL, gap, thr);
		/* a lead as the comparison has it: the first tick at or after
		 * P's end - lead, not before t_first */
		first = e.o.n - 1;
		for (k = 0; k < e.o.n; k++)
			if (e.tick[k] && (e.t[k] >= e.o.p_end || (e.t[k] >=
			    e.o.p_end - (int64_t)(thr * H) && e.t[k] >=
			    e.o.t_first))) {
				first = k;
				break;
			}
		lead += first == in_turn(&e, ASK_LEAD, NULL, gap, thr);
	}
	ok(est == CASES, "the scheduler estimate's margin: the comparison "
	    "submits where the live chain would, in %zu of %d", est, CASES);
	ok(lead == CASES, "a fixed lead: the same, in %zu of %d", lead, CASES);
}

static void
sizes(void)
{
	const int32_t two[] = { 1, 8 }, big[] = { 8, 4 };

	ok(mg_table_size(two, 2, 1) == 0 && mg_table_size(two, 2, 8) == 1,
	    "a size with a row decides by its own");
	ok(mg_table_size(two, 2, 2) == 0 && mg_table_size(two, 2, 7) == 0 &&
	    mg_table_size(two, 2, 64) == 1, "a size without one, by the "
	    "largest smaller size's");
	ok(mg_table_size(big, 2, 2) == -1 && mg_table_size(big, 2, 5) == 1 &&
	    mg_table_size(two, 0, 4) == -1, "below every size, or no row: "
	    "none");
}

static void
plain_and_names(void)
{
	static const enum mg_setting all[] = { MG_SETTING_NONE,
	    MG_SETTING_MARGIN, MG_SETTING_RISK, MG_SETTING_PRICE,
	    MG_SETTING_LEAD };
	enum mg_setting k;
	size_t i, back = 0;

	ok(mg_rule_plain("lead", MG_SETTING_LEAD) &&
	    mg_rule_plain("scheduler-estimate", MG_SETTING_MARGIN),
	    "a fixed lead and the estimate's margin need the queue alone");
	ok(!mg_rule_plain("lead", MG_SETTING_MARGIN) &&
	    !mg_rule_plain("gbt", MG_SETTING_MARGIN) &&
	    !mg_rule_plain("planner", MG_SETTING_PRICE) &&
	    !mg_rule_plain("reactive", MG_SETTING_NONE),
	    "a model, the planner, a name with another kind do not");
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		back += mg_rule_setting_kind(mg_rule_setting_name(all[i]),
		    &k) == 0 && k == all[i];
	ok(back == sizeof(all) / sizeof(all[0]) &&
	    mg_rule_setting_kind("hours", &k) == -1,
	    "every kind's name reads back as it; another name does not");
	ok(strcmp(mg_own_names[mg_rule_estimate_col()], "plan_gap_h") == 0,
	    "the estimate's column is plan_gap_h");
}

/* a policy's rule sums over the episode's ticks: the callers that ask
 * at one tick refuse it, the others decide now */
static void
at_one_tick(void)
{
	static const char *const now[] = { "gbt", "rf", "clf", "svr", "dqn" };
	struct mg_model m;
	struct mg_diag d = { "" };
	size_t i, yes = 0;

	memset(&m, 0, sizeof(m));
	for (i = 0; i < sizeof(now) / sizeof(now[0]); i++) {
		snprintf(m.kind, sizeof(m.kind), "%s", now[i]);
		yes += mg_rule_model_now(&m, &d) == 0;
	}
	snprintf(m.kind, sizeof(m.kind), "pg");
	ok(yes == 5 && mg_rule_model_now(&m, &d) == MG_ETYPE &&
	    strstr(d.msg, "a pg model submits by the chance") != NULL,
	    "gbt, rf, clf, svr, dqn decide at one tick; pg does not: %s",
	    d.msg);
}

int
main(void)
{
	models(0);
	models(1);
	queue_rules();
	sizes();
	plain_and_names();
	at_one_tick();
	return tap_done();
}
