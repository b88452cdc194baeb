/*
 * samples.c: a samples stream read into training arrays (samples.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "learn/samples.h"

/*
 * mg_feature_selected: whether column name belongs to the selection sel:
 * "own" (f_*), "ref" (the reference snapshots' r_*, rN_*), "all", or
 * names and PREFIX* separated by commas
 */
static int
mg_feature_selected(const char *name, const char *sel)
{
	const char *p = sel, *q;
	size_t n;

	if (strcmp(sel, "own") == 0)
		return strncmp(name, "f_", 2) == 0;
	if (strcmp(sel, "ref") == 0)
		return name[0] == 'r' && strncmp(name, "f_", 2) != 0 &&
		    (name[1] == '_' || (name[1] >= '0' && name[1] <= '9'));
	if (strcmp(sel, "all") == 0)
		return mg_feature_selected(name, "own") ||
		    mg_feature_selected(name, "ref");
	/* a comma-separated list of names or PREFIX* */
	for (;;) {
		q = strchr(p, ',');
		n = q ? (size_t)(q - p) : strlen(p);
		if (n > 0 && p[n - 1] == '*' ? strncmp(name, p, n - 1) == 0 :
		    strlen(name) == n && strncmp(name, p, n) == 0)
			return 1;
		if (q == NULL)
			return 0;
		p = q + 1;
	}
}

static int
nomem(struct mg_diag *d)
{
	return mg_diag_set(d, MG_ENOMEM, "out of memory");
}

/* the selected columns of the schema into s */
static int
columns(const struct mg_schema *sc, const char *sel, struct mg_samples *s,
    struct mg_diag *d)
{
	size_t i;

	if ((s->col = malloc(sc->nfields * sizeof(*s->col))) == NULL ||
	    (s->names = malloc(sc->nfields * sizeof(*s->names))) == NULL)
		return nomem(d);
	for (i = 0; i < sc->nfields; i++) {
		const struct mg_field *f = &sc->fields[i];
		int lag;

		if (f->type != MG_T_F64 || !mg_feature_selected(f->name, sel))
			continue;
		s->col[s->nf] = (int)i;
		s->names[s->nf++] = (char *)f->name;
		if (f->name[0] == 'r' && sscanf(f->name, "r%d_", &lag) == 1 &&
		    lag + 1 > s->window)
			s->window = lag + 1;
	}
	return MG_OK;
}

/* one labelled row v into s */
static int
add(struct mg_samples *s, const struct mg_value *v, int kx, int ks,
    int classifier, double clip)
{
	size_t k;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		if ((s->X = realloc(s->X, s->cap * s->nf * sizeof(*s->X))) ==
		    NULL || (s->y = realloc(s->y, s->cap * sizeof(*s->y))) ==
		    NULL)
			return MG_ENOMEM;
	}
	for (k = 0; k < s->nf; k++)
		s->X[s->n * s->nf + k] = v[s->col[k]].null ? NAN :
		    (float)v[s->col[k]].f;
	if (classifier) {
		s->y[s->n] = v[kx].i > 0;
	} else {
		double h = (double)v[kx].i / 3600;

		s->y[s->n] = (float)(h > clip ? clip : h < -clip ? -clip : h);
	}
	if (v[ks].i < s->from)
		s->from = v[ks].i;
	if (v[ks].i > s->to)
		s->to = v[ks].i;
	s->n++;
	return MG_OK;
}

int
mg_samples_read(const char *path, const char *name, const char *sel,
    int classifier, double clip, struct mg_samples *s, struct mg_diag *d)
{
	const struct mg_stream_info *info;
	const struct mg_value *v;
	int kx, ks, rv;

	/* the reader stays open: the features' names are its schema's */
	memset(s, 0, sizeof(*s));
	s->from = INT64_MAX;
	s->to = INT64_MIN;
	s->fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (s->fp == NULL)
		return mg_diag_set(d, MG_EIO, "cannot open '%s': %s", path,
		    strerror(errno));
	if ((rv = mg_reader_open(s->fp, name, "samples", &s->r, d)) != 0) {
		mg_diag_prefix(d, "'%s'", name);
		return rv;
	}
	info = mg_reader_info(s->r);
	if ((s->cluster = strdup(info->cluster)) == NULL)
		return nomem(d);
	kx = mg_schema_field(&info->schema, "x");
	ks = mg_schema_field(&info->schema, "ep_start");
	if (kx < 0 || ks < 0)
		return mg_diag_set(d, MG_ETYPE, "'%s': samples without x or "
		    "ep_start", name);
	if ((rv = columns(&info->schema, sel, s, d)) != 0)
		return rv;
	if (s->nf == 0)
		return mg_diag_set(d, MG_EINVAL, "'%s': no feature matches "
		    "'%s' (try own, ref, all, or names and PREFIX* separated by "
		    "commas)", name, sel);
	while ((rv = mg_reader_next(s->r, &v, d)) == 1)
		if (!v[kx].null && add(s, v, kx, ks, classifier, clip) != 0)
			return nomem(d);
	if (rv < 0) {
		mg_diag_prefix(d, "'%s'", name);
		return rv;
	}
	if (s->n < 2)
		return mg_diag_set(d, MG_EFORMAT, "'%s': %zu labelled samples, "
		    "too few to train on", name, s->n);
	return MG_OK;
}

size_t
mg_samples_thin(struct mg_samples *s, double most)
{
	size_t i, w = 0, step;

	if (!(most > 0 && (double)s->n > most))
		return 1;
	step = (size_t)ceil((double)s->n / most);
	for (i = 0; i < s->n; i += step, w++) {
		memmove(s->X + w * s->nf, s->X + i * s->nf, s->nf *
		    sizeof(*s->X));
		s->y[w] = s->y[i];
	}
	s->n = w;
	return step;
}

void
mg_samples_release(struct mg_samples *s)
{
	mg_reader_free(s->r);
	if (s->fp != NULL && s->fp != stdin)
		fclose(s->fp);
	free(s->X);
	free(s->y);
	free(s->col);
	free(s->names);
	free(s->cluster);
	memset(s, 0, sizeof(*s));
}
