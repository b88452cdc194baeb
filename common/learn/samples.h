/*
 * samples.h: a samples stream (mirage-stream(5)) read into the arrays a
 * model trains on: the features a selection picks, each labelled row's
 * label (a classifier's: interrupted or not; a regressor's: x in hours,
 * clipped), and what the rows span.
 */
#ifndef MG_SAMPLES_H
#define MG_SAMPLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "io/stream.h"

struct mg_samples {
	float *X, *y;		/* n rows of nf features; labels */
	size_t n, cap, nf;
	char **names;		/* the features' (the stream's schema's) */
	int *col;		/* their columns */
	int window;		/* reference snapshots they read */
	int64_t from, to;	/* their episodes' starts */
	char *cluster;		/* the stream's cluster */
	struct mg_reader *r;	/* open: it owns the names */
	FILE *fp;
};

/*
 * mg_samples_read: the labelled rows of the samples stream at path ("-":
 * standard input; name in messages) with the features sel picks, into s;
 * classifier: labels are interruptions, else x in hours clipped to
 * +-clip.  0, or a status with d naming the file: MG_EIO, MG_ENOMEM,
 * a stream's, MG_ETYPE (no x or ep_start), MG_EINVAL (no feature
 * selected), MG_EFORMAT (fewer than 2 labelled rows).
 */
int mg_samples_read(const char *path, const char *name, const char *sel,
    int classifier, double clip, struct mg_samples *s, struct mg_diag *d);

/* mg_samples_thin: every k-th row, k the least that leaves at most most
 * rows; returns k */
size_t mg_samples_thin(struct mg_samples *s, double most);

void mg_samples_release(struct mg_samples *s);

#endif /* MG_SAMPLES_H */
