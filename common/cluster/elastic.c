/*
 * elastic.c: free nodes among elastic jobs; see elastic.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/elastic.h"
#include "base/rand.h"

void
mg_elastic_attr_draw(double share, double alpha, uint64_t seed, const char *id,
    size_t idlen, int32_t nodes, int32_t cluster, struct mg_elastic_attr *out)
{
	uint64_t s = seed ^ 0xD1B54A32D192ED03ULL, h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < idlen; i++)	/* FNV-1a of the id */
		h = (h ^ (unsigned char)id[i]) * 1099511628211ULL;
	s ^= h;
	(void)mg_rand64(&s);
	out->elastic = share > 0 && mg_rand_unif(&s) < share;
	out->alpha = alpha;
	out->min = out->max = nodes;
	if (out->elastic) {
		out->min = (nodes + 1) / 2;
		out->max = 2 * nodes < cluster ? 2 * nodes : cluster;
		if (out->max < nodes)
			out->max = nodes;
	}
}

double
mg_eprofile_speed(const struct mg_eprofile *p, double ratio)
{
	double one = 0, at = 0, x;
	size_t k, pass;

	for (pass = 0; pass < 2; pass++) {
		x = pass ? ratio : 1;
		if (x <= p->ratio[0])
			at = p->speed[0];
		else if (x >= p->ratio[p->n - 1])
			at = p->speed[p->n - 1];
		else {
			for (k = 1; p->ratio[k] < x; k++)
				;
			at = p->speed[k - 1] + (p->speed[k] - p->speed[k - 1]) *
			    (x - p->ratio[k - 1]) / (p->ratio[k] -
			    p->ratio[k - 1]);
		}
		if (pass == 0)
			one = at;
	}
	return one > 0 ? at / one : at;
}

int
mg_eprofile_read(const char *path, struct mg_eprofile *p, struct mg_diag *d)
{
	FILE *fp = fopen(path, "r");
	char line[512];
	size_t lineno = 0;
	int rv = 0;

	p->n = 0;
	if (fp == NULL)
		return mg_diag_set(d, MG_EIO, "cannot open '%s': %s", path,
		    strerror(errno));
	while (rv == 0 && fgets(line, sizeof(line), fp) != NULL) {
		char *h = strchr(line, '#'), *e;
		double r, v;

		lineno++;
		if (h != NULL)
			*h = '\0';
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		r = strtod(line, &e);
		v = e != line ? strtod(e, &h) : 0;
		if (e == line || h == e || h[strspn(h, " \t\r\n")] != '\0' ||
		    !(r > 0) || !(v > 0) || !isfinite(r) || !isfinite(v))
			rv = mg_diag_set(d, MG_EFORMAT, "'%s': line %zu: not "
			    "\"RATIO SPEEDUP\" (two positive numbers)", path,
			    lineno);
		else if (p->n > 0 && r <= p->ratio[p->n - 1])
			rv = mg_diag_set(d, MG_EFORMAT, "'%s': line %zu: ratio "
			    "not above the line before", path, lineno);
		else if (p->n == MG_EPROFILE_MAX)
			rv = mg_diag_set(d, MG_EFORMAT, "'%s': line %zu: more "
			    "than %d points", path, lineno, MG_EPROFILE_MAX);
		else {
			p->ratio[p->n] = r;
			p->speed[p->n++] = v;
		}
	}
	if (rv == 0 && p->n < 2)
		rv = mg_diag_set(d, MG_EFORMAT, "'%s': fewer than two points",
		    path);
	fclose(fp);
	if (rv != 0)
		p->n = 0;
	return rv;
}

/* the speed of j on n nodes, relative to one node's (power law) or to
 * its own size (a curve): only ratios of it matter */
static double
speed(const struct mg_elastic_job *j, int32_t n)
{
	if (j->prof != NULL && j->prof->n > 0 && j->size > 0)
		return mg_eprofile_speed(j->prof, (double)n / (double)j->size);
	return pow((double)n, j->alpha);
}

double
mg_elastic_value(const struct mg_elastic_job *j, int32_t k)
{
	double t0, t1;

	if (k <= 0 || j->base <= 0)
		return 0;
	t0 = j->rem;
	t1 = j->rem * speed(j, j->base) / speed(j, j->base + k);
	return t0 - t1 - j->restart;
}

/* the extra nodes job j may take within free */
static int32_t
room(const struct mg_elastic_job *j, int32_t nfree)
{
	int32_t r = j->max - j->base;

	return r < 0 ? 0 : r > nfree ? nfree : r;
}

double
mg_elastic_mckp(const struct mg_elastic_job *j, size_t n, int32_t nfree,
    int32_t *k)
{
	/* best[i][f]: the most value of jobs 0..i-1 within f nodes; take
	 * [i][f]: job i-1's share there */
	size_t w = (size_t)(nfree > 0 ? nfree : 0) + 1, i;
	double *best = malloc((n + 1) * w * sizeof(*best));
	int32_t *take = malloc((n + 1) * w * sizeof(*take));
	double total;
	int32_t f, q;

	memset(k, 0, n * sizeof(*k));
	if (best == NULL || take == NULL) {
		free(best);
		free(take);
		return -1;
	}
	for (f = 0; f < (int32_t)w; f++) {
		best[f] = 0;
		take[f] = 0;
	}
	for (i = 1; i <= n; i++)
		for (f = 0; f < (int32_t)w; f++) {
			double b = best[(i - 1) * w + (size_t)f];
			int32_t t = 0;

			for (q = 1; q <= room(&j[i - 1], f); q++) {
				double v = best[(i - 1) * w + (size_t)(f - q)] +
				    mg_elastic_value(&j[i - 1], q);

				if (v > b) {
					b = v;
					t = q;
				}
			}
			best[i * w + (size_t)f] = b;
			take[i * w + (size_t)f] = t;
		}
	total = best[n * w + w - 1];
	for (i = n, f = (int32_t)w - 1; i > 0; i--) {
		k[i - 1] = take[i * w + (size_t)f];
		f -= k[i - 1];
	}
	free(best);
	free(take);
	return total;
}

double
mg_elastic_greedy(const struct mg_elastic_job *j, size_t n, int32_t nfree,
    int32_t *k)
{
	double total = 0;
	size_t i, bi;

	memset(k, 0, n * sizeof(*k));
	while (nfree > 0) {
		double gain = 0;

		bi = n;
		for (i = 0; i < n; i++) {
			double g;

			if (k[i] >= j[i].max - j[i].base)
				continue;
			g = mg_elastic_value(&j[i], k[i] + 1) -
			    mg_elastic_value(&j[i], k[i]);
			if (g > gain) {
				gain = g;
				bi = i;
			}
		}
		if (bi == n)
			break;
		k[bi]++;
		total += gain;
		nfree--;
	}
	return total;
}

static const struct mg_field fields[] = {
	{ "jobid", MG_T_STR },
	{ "min_nodes", MG_T_I64 },
	{ "max_nodes", MG_T_I64 },
	{ "alpha", MG_T_F64 },
};
static const struct mg_schema schema = { "elastic", MG_EL_NFIELDS, fields };

const struct mg_schema *
mg_elastic_attr_schema(void)
{
	return &schema;
}

void
mg_elastic_attr_to_record(const struct mg_elastic_attr *a, const char *id,
    size_t idlen, struct mg_value *rec)
{
	memset(rec, 0, MG_EL_NFIELDS * sizeof(*rec));
	rec[MG_EL_JOBID].s = id;
	rec[MG_EL_JOBID].len = idlen;
	rec[MG_EL_MIN].i = a->min;
	rec[MG_EL_MAX].i = a->max;
	rec[MG_EL_ALPHA].f = a->alpha;
}

int
mg_elastic_attr_from_record(const struct mg_value *rec,
    struct mg_elastic_attr *a,
    const char **bad)
{
	if (rec[MG_EL_JOBID].null || rec[MG_EL_JOBID].len == 0) {
		*bad = "jobid";
		return -1;
	}
	if (rec[MG_EL_MIN].null || rec[MG_EL_MIN].i < 1 ||
	    rec[MG_EL_MIN].i > INT32_MAX) {
		*bad = "min_nodes";
		return -1;
	}
	if (rec[MG_EL_MAX].null || rec[MG_EL_MAX].i < rec[MG_EL_MIN].i ||
	    rec[MG_EL_MAX].i > INT32_MAX) {
		*bad = "max_nodes";
		return -1;
	}
	if (rec[MG_EL_ALPHA].null || !(rec[MG_EL_ALPHA].f > 0) ||
	    rec[MG_EL_ALPHA].f > 1) {
		*bad = "alpha";
		return -1;
	}
	a->elastic = 1;
	a->min = (int32_t)rec[MG_EL_MIN].i;
	a->max = (int32_t)rec[MG_EL_MAX].i;
	a->alpha = rec[MG_EL_ALPHA].f;
	return 0;
}
