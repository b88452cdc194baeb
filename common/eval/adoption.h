/*
 * adoption.h: many chains at once, reported: for each share of the long
 * jobs' work run as services (episode/adopt.h), the services reactive
 * and with the method, each a row of a TSV table, what the others' waits
 * and the services' links became in words, and the first services each
 * alone with the method against the same among all (mirage-eval(1)
 * --adoption).  A model decides for a service through mg_askmodel.
 */
#ifndef MG_ADOPTION_H
#define MG_ADOPTION_H

#include <stdio.h>

#include "base/status.h"
#include "cluster/cluster.h"
#include "decide/rule.h"
#include "episode/adopt.h"
#include "episode/episode.h"
#include "episode/feature.h"
#include "eval/evaluation.h"
#include "learn/model.h"

#define MG_ADOPTION_MAXSHARES	16

/* a model of when, deciding for a service (MG_ADOPT_ASK) */
struct mg_askmodel {
	struct mg_rule_model b;	/* the model, bound to one snapshot */
	double *scratch;
	size_t cap;
};

/* a size's rule from a target's table (--adopt-method target:FILE), or
 * from a walk's choices, a day's (mirage-eval --walk-forward --table) */
struct mg_adoptrule {
	int64_t from;		/* a walk's: the day's start, else 0 */
	int32_t nodes;		/* the chains' size it was chosen for */
	int alt;		/* the table's fixed lead (its lead row), for
				 * every second replica (--adopt-alternate) */
	enum mg_setting kind;	/* MG_SETTING_LEAD or MG_SETTING_MARGIN */
	double hours;		/* the lead, or the margin */
	double promise;		/* what the table promised, -1: not said */
};

#define MG_ADOPTION_MAXSIZES	16	/* a table's sizes (a walk's, a day's) */

struct mg_adoption {
	struct mg_adoptconf a;	/* the method, its settings, the span */
	double share[MG_ADOPTION_MAXSHARES];
	int nshare;
	int alone;		/* services run alone with the method too */
	const char *name;	/* the method's name in the table */
	const char *jobs_path;	/* the last share's replay, job by job, or
				 * NULL */
	FILE *say;		/* the words, or NULL */
	char namebuf[64];	/* mg_adoption_setup()'s name */
	struct mg_askmodel am;	/* MG_ADOPT_ASK: the model asked */
	/* MG_ADOPT_ASK by the rules a target's table recommends for each
	 * size (a service uses its size's, or the largest smaller one's);
	 * a walk's choices, by the day's rules (reactive before its first
	 * day) */
	const char *target_path;
	struct mg_adoptrule *rule;
	size_t nrule, caprule;
	int walked;		/* the rules are a walk's */
	int alternate;		/* every second replica by the table's
				 * fixed lead */
	int gap_col;		/* the scheduler estimate's column in feat */
	double feat[MG_OWN];
};

/*
 * mg_adoption_write: every share of ad run reactive and with its method
 * on def, a row each onto fp (a header first).  0, or a status with d
 * saying why (the rows written so far are the caller's to discard).
 */
int mg_adoption_write(const struct mg_clusterdef *def,
    const struct mg_adoption *ad, FILE *fp, struct mg_diag *d);

/* mg_adoption_init: no share, reactive, mg_adoptconf_init()'s */
void mg_adoption_init(struct mg_adoption *ad);

/*
 * mg_adoption_set: setting name ("adoption": percentages from 0 to 90
 * separated by commas; "adopt-method": reactive, lead:TIME, plan or
 * model, or target:FILE, the rules of a table of mirage-eval --target -F
 * tsv; "adopt-seed", "adopt-alone", "adopt-replicas", "adopt-nodes",
 * "adopt-hold", "adopt-alternate" with arg NULL) to
 * arg.  Returns 0, or MG_EINVAL with d naming the bad value.
 */
int mg_adoption_set(struct mg_adoption *ad, const char *name,
    const char *arg, struct mg_diag *d);

/*
 * mg_adoption_check: the settings that do not go together, with nmodels
 * models and the planner or not (plan): MG_EINVAL with d saying which.
 */
int mg_adoption_check(const struct mg_adoption *ad, int nmodels, int plan,
    struct mg_diag *d);

/*
 * mg_adoption_setup: ad's method set up from the evaluation's settings c
 * (a model's path, the handover, the planner's settings, the episodes'
 * span) on def: the model read and bound to one snapshot's features
 * (MG_ADOPT_ASK; MG_ETYPE for one that needs more snapshots or is not a
 * model of when, else its read's status), the planner (MG_ADOPT_PLAN)
 * with what def implies, the others counted (those submitted within the
 * episodes' span, as far as it is given), the method's name in the
 * table ("reactive", "lead 6h, held", "planner 8 futures", "model
 * FILE", each with ", handover" under one).  mg_adoption_release()
 * closes the model.
 */
int mg_adoption_setup(struct mg_adoption *ad, struct mg_evalconf *c,
    const struct mg_clusterdef *def, struct mg_diag *d);
void mg_adoption_release(struct mg_adoption *ad);

#endif /* MG_ADOPTION_H */
