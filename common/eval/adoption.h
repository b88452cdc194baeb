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
#include "learn/model.h"

#define MG_ADOPTION_MAXSHARES	16

struct mg_adoption {
	struct mg_adoptconf a;	/* the method, its settings, the span */
	double share[MG_ADOPTION_MAXSHARES];
	int nshare;
	int alone;		/* services run alone with the method too */
	const char *name;	/* the method's name in the table */
	const char *jobs_path;	/* the last share's replay, job by job, or
				 * NULL */
	FILE *say;		/* the words, or NULL */
};

/*
 * mg_adoption_write: every share of ad run reactive and with its method
 * on def, a row each onto fp (a header first).  0, or a status with d
 * saying why (the rows written so far are the caller's to discard).
 */
int mg_adoption_write(const struct mg_clusterdef *def,
    const struct mg_adoption *ad, FILE *fp, struct mg_diag *d);

/* a model of when, deciding for a service (MG_ADOPT_ASK) */
struct mg_askmodel {
	struct mg_model *m;
	size_t *col;		/* each model feature's column in feat */
	double *feat;		/* own, then one reference snapshot, chain */
	float *X;
	double *scratch;
	size_t cap;
};

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
