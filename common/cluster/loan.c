/*
 * loan.c: an inference pool's demand; see loan.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/loan.h"
#include "base/mem.h"
#include "base/parse.h"
#include "base/rand.h"

void
mg_loangen_default(struct mg_loangen *g, int32_t nodes)
{
	g->nodes = nodes;
	g->base = 0.25 * nodes;
	g->amp = 0.6 * nodes;
	g->noise = 0.05 * nodes;
	g->peak_hour = 14;
	g->seed = 1;
}

/* a standard normal draw (Box-Muller) */
static double
normal(uint64_t *rng)
{
	double u = mg_rand_unif(rng) + 1e-300, v = mg_rand_unif(rng);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

int
mg_demand_diurnal(const struct mg_loangen *g, int64_t from, int64_t to,
    int64_t step, int64_t **time, int32_t **nodes, size_t *n)
{
	uint64_t rng = g->seed ^ 0x9E3779B97F4A7C15ULL;
	size_t k, cnt;
	int64_t hour = INT64_MIN, t;
	double z = 0;

	*time = NULL;
	*nodes = NULL;
	*n = 0;
	if (step <= 0 || to < from || g->nodes <= 0)
		return MG_EINVAL;
	cnt = (size_t)((to - from) / step) + 1;
	if ((*time = malloc(cnt * sizeof(**time))) == NULL ||
	    (*nodes = malloc(cnt * sizeof(**nodes))) == NULL) {
		free(*time);
		*time = NULL;
		return MG_ENOMEM;
	}
	for (k = 0, t = from; k < cnt; k++, t += step) {
		double h = (double)(((t % 86400) + 86400) % 86400) / 3600, d;

		if (t / 3600 != hour) {		/* the hour's noise */
			hour = t / 3600;
			z = g->noise > 0 ? g->noise * normal(&rng) : 0;
		}
		d = g->base + g->amp * (1 + cos(2 * M_PI * (h -
		    g->peak_hour) / 24)) / 2 + z;
		d = floor(d + 0.5);
		(*time)[k] = t;
		(*nodes)[k] = d < 0 ? 0 : d > g->nodes ? g->nodes : (int32_t)d;
	}
	*n = cnt;
	return 0;
}

int
mg_demand_read(const char *path, double capacity, int64_t **time,
    int32_t **nodes, size_t *n, struct mg_diag *d)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, tcap = 0, ncap = 0, lineno = 0;
	ssize_t len;
	int rv = 0;

	*time = NULL;
	*nodes = NULL;
	*n = 0;
	if (fp == NULL)
		return mg_diag_set(d, MG_EIO, "cannot open '%s': %s", path,
		    strerror(errno));
	while ((len = getline(&line, &cap, fp)) >= 0) {
		char *p = line, *sp, *e;
		int64_t t;
		double v;

		lineno++;
		if ((e = strchr(p, '#')) != NULL)
			*e = '\0';
		p += strspn(p, " \t\r\n");
		if (*p == '\0')
			continue;
		sp = p + strcspn(p, " \t");
		e = sp + strspn(sp, " \t");
		len = (ssize_t)strcspn(e, " \t\r\n");
		if (*sp == '\0' || len == 0 || e[len + strspn(e + len,
		    " \t\r\n")] != '\0' || mg_parse_time(p, (size_t)(sp - p),
		    MG_TZ_UTC, &t) != 0 || mg_parse_f64(e, (size_t)len,
		    &v) != 0 || !(v >= 0) || v > 1e12) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s': line %zu: not "
			    "\"TIME VALUE\" (epoch seconds or "
			    "YYYY-MM-DDTHH:MM:SS, and nodes or requests per "
			    "second)", path, lineno);
			break;
		}
		if (*n > 0 && t <= (*time)[*n - 1]) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s': line %zu: time "
			    "not after the line before", path, lineno);
			break;
		}
		if (mg_grow((void **)time, &tcap, *n + 1, sizeof(**time)) ||
		    mg_grow((void **)nodes, &ncap, *n + 1, sizeof(**nodes))) {
			rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
			break;
		}
		if (capacity > 0)
			v = ceil(v / capacity);
		if (v > INT32_MAX) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s': line %zu: too "
			    "many nodes", path, lineno);
			break;
		}
		(*time)[*n] = t;
		(*nodes)[(*n)++] = (int32_t)floor(v + (capacity > 0 ? 0 : 0.5));
	}
	if (rv == 0 && ferror(fp))
		rv = mg_diag_set(d, MG_EIO, "'%s': read error", path);
	if (rv == 0 && *n == 0)
		rv = mg_diag_set(d, MG_EFORMAT, "'%s': no demand in it", path);
	free(line);
	fclose(fp);
	if (rv != 0) {
		free(*time);
		free(*nodes);
		*time = NULL;
		*nodes = NULL;
		*n = 0;
	}
	return rv;
}
