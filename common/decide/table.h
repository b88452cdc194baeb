/*
 * table.h: the table of settings chosen for a reliability target
 * (mirage-eval --target -F tsv; mirage-eval(1), "A RELIABILITY TARGET")
 * read back, a chain size's row found in it, and the target a model's
 * threshold was chosen for (its target_* keys): what the live chain and
 * many chains at once decide with.
 */
#ifndef MG_TABLE_H
#define MG_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "decide/rule.h"
#include "learn/model.h"

/* a row of the table, as read back */
struct mg_table_row {
	int line;		/* its line in the file */
	char method[64];
	int32_t nodes;		/* the chains' size */
	double target;
	int64_t handover;	/* seconds, 0: none */
	enum mg_setting kind;
	double setting;		/* 0 if it has none */
	int reached;		/* in every fold of the training period */
	int recommended;	/* the method recommended for the size */
	double promise;		/* -1: not said */
	double confidence, bound;	/* the promise's confidence; the
				 * training share any time brought through */
	int certified;
	long links;		/* the training period's episodes */
	int32_t cluster_nodes;	/* 0: not said */
	int64_t history_end;	/* 0: not said */
	int64_t period;		/* a walk's: the day it was chosen for, 0:
				 * not a walk's (mirage-eval --walk-forward
				 * --table) */
};

/*
 * mg_table_read: the rows of the table at path, whole (every row its
 * header's fields), into *rows (free() them) and *n.  0, or with d
 * naming the file and line: MG_EIO, MG_EFORMAT (a bad row, a NUL, a
 * number not finite or out of its range), MG_ETRUNC (cut short),
 * MG_ETYPE (not such a table), MG_EINVAL (a directory).
 */
int mg_table_read(const char *path, struct mg_table_row **rows, size_t *n,
    struct mg_diag *d);

/*
 * mg_table_size: the index, among the n sizes[k] that have a row, of
 * the one a chain of nodes nodes decides by: its own size's, else the
 * largest smaller size's (a chain waits for at least as many nodes as
 * that size's did); -1 if every size is larger.  The one rule every
 * caller applies: a live chain says which size's row it used.
 */
int mg_table_size(const int32_t *sizes, int n, int32_t nodes);

/*
 * mg_table_model: the target m's threshold was chosen for, its handover
 * time (seconds), and its promise and confidence (-1 where the model
 * does not say): 0, or MG_EINVAL with d saying which key is missing or
 * out of its range
 */
int mg_table_model(const struct mg_model *m, double *target, double *handover,
    double *promise, double *confidence, struct mg_diag *d);

#endif /* MG_TABLE_H */
