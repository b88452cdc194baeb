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
#include "episode/adopt.h"
#include "episode/episode.h"
#include "eval/evaluation.h"
#include "learn/model.h"

#define MG_ADOPTION_MAXSHARES	16

/* a model of when, deciding for a service (MG_ADOPT_ASK) */
struct mg_askmodel {
	struct mg_model *m;
	size_t *col;		/* each model feature's column in feat */
	double *feat;		/* own, then one reference snapshot, chain */
	float *X;
	double *scratch;
	size_t cap;
};

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
 * model; "adopt-seed", "adopt-alone", "adopt-hold" with arg NULL) to
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
 * span) on def: the model opened (MG_ADOPT_ASK; mg_askmodel_open()'s
 * status), the planner (MG_ADOPT_PLAN) with what def implies, the others
 * counted (mg_adoption_span()), the name (mg_adoption_name()).
 * mg_adoption_release() closes the model.
 */
int mg_adoption_setup(struct mg_adoption *ad, struct mg_evalconf *c,
    const struct mg_clusterdef *def, struct mg_diag *d);
void mg_adoption_release(struct mg_adoption *ad);

/*
 * mg_adoption_name: a's method in words, as the table names it:
 * "reactive", "lead 6h" (", held"), "planner K futures" or "model FILE"
 * (model: the model's path), each with ", handover" under one
 */
void mg_adoption_name(const struct mg_adoptconf *a, const char *model,
    char *buf, size_t len);

/* mg_adoption_span: the others counted in a: those submitted within
 * sel's range of episodes, as far as it is given */
void mg_adoption_span(struct mg_adoptconf *a, const struct mg_epsel *sel);


/*
 * mg_askmodel_open: the model at path, read and bound to the features of
 * one snapshot, into a.  MG_ETYPE for a model that needs more snapshots
 * or is not a model of when; a read or bind status otherwise.
 */
int mg_askmodel_open(const char *path, struct mg_askmodel *a,
    struct mg_diag *d);

/* mg_askmodel_says: an mg_adoptconf ask: the model's decision on the
 * view now, through the rule of mirage-advise(1) */
int mg_askmodel_says(void *arg, const struct mg_view *v,
    const struct mg_chainnow *cn);

void mg_askmodel_close(struct mg_askmodel *a);

#endif /* MG_ADOPTION_H */
