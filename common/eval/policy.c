/*
 * policy.c: a site's policy for early successors chosen from replays of
 * many chains at once; see policy.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/stats.h"
#include "eval/policy.h"

enum { F_SEED, F_SHARE, F_METHOD, F_WM, F_WP, F_BWM, F_BNI, F_SNI, F_JOBS,
	F_SUCC, F_LEASE, F_N, F_NUM = F_WM };
static const char *const fname[F_N] = { "seed", "adoption_pct", "method",
	"wait_mean_h_all", "wait_p90_h_all", "before_wait_mean_h",
	"before_no_interruption", "span_no_interruption", "jobs_per_1000h",
	"successors", "lease_given_h" };

struct row {
	char seed[32], share[32], method[160];
	double v[F_N];		/* the numbers, from F_NUM on */
};

struct mg_policy {
	struct row *r;
	size_t n;
};

/* the tab-separated fields of line (no newline) into f[0..max): how
 * many there are */
static int
split(char *line, char **f, int max)
{
	int n = 0;

	for (;;) {
		if (n < max)
			f[n] = line;
		n++;
		if ((line = strchr(line, '\t')) == NULL)
			return n;
		*line++ = '\0';
	}
}

static int
copy(char *to, size_t cap, const char *s)
{
	return snprintf(to, cap, "%s", s) >= (int)cap ? -1 : 0;
}

/* row r from the fields f as the header's columns col say: 0 or -1 */
static int
read_row(char **f, const int *col, struct row *r)
{
	char *end;
	int k;

	if (copy(r->seed, sizeof(r->seed), f[col[F_SEED]]) != 0 ||
	    copy(r->share, sizeof(r->share), f[col[F_SHARE]]) != 0 ||
	    copy(r->method, sizeof(r->method), f[col[F_METHOD]]) != 0 ||
	    !*r->share || !*r->method)
		return -1;
	for (k = F_NUM; k < F_N; k++) {
		r->v[k] = strtod(f[col[k]], &end);
		if (end == f[col[k]] || *end != '\0')
			return -1;
	}
	return 0;
}

#define MAXF	256

int
mg_policy_read(FILE *fp, const char *name, struct mg_policy **out,
    struct mg_diag *d)
{
	struct mg_policy *p;
	char *line = NULL, *f[MAXF];
	size_t cap = 0, rcap = 0;
	ssize_t len;
	int col[F_N], nf = 0, k, i, lineno = 0, rv = MG_OK;

	*out = NULL;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	while ((len = getline(&line, &cap, fp)) > 0) {
		lineno++;
		if (line[len - 1] != '\n') {
			rv = mg_diag_set(d, MG_ETRUNC, "'%s', line %d: cut short "
			    "(no newline); write it again", name, lineno);
			goto out;
		}
		line[len - 1] = '\0';
		if ((k = split(line, f, MAXF)) > MAXF) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s', line %d: more "
			    "than %d fields", name, lineno, MAXF);
			goto out;
		}
		if (lineno == 1) {
			nf = k;
			for (i = 0; i < F_N; i++) {
				for (col[i] = 0; col[i] < nf &&
				    strcmp(f[col[i]], fname[i]) != 0; col[i]++)
					;
				if (col[i] == nf) {
					rv = mg_diag_set(d, MG_EFORMAT, "'%s', "
					    "line 1: no column '%s': not the "
					    "replays of mirage-eval --adoption "
					    "led by their seed", name, fname[i]);
					goto out;
				}
			}
			continue;
		}
		if (k != nf) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s', line %d: %d fields, "
			    "the header has %d", name, lineno, k, nf);
			goto out;
		}
		if (p->n == rcap && mg_grow((void **)&p->r, &rcap, p->n + 1,
		    sizeof(*p->r)) != 0) {
			rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
			goto out;
		}
		if (read_row(f, col, &p->r[p->n]) != 0) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s', line %d: a share, "
			    "method or number missing, too long or not a "
			    "number", name, lineno);
			goto out;
		}
		p->n++;
	}
	if (ferror(fp))
		rv = mg_diag_set(d, MG_EIO, "'%s': read error", name);
	else if (lineno == 0)
		rv = mg_diag_set(d, MG_EFORMAT, "'%s': empty: no replays",
		    name);
out:
	free(line);
	if (rv != 0)
		mg_policy_free(p);
	else
		*out = p;
	return rv;
}

int
mg_policy_deploy(const char *method, const char *target, char *buf,
    size_t cap)
{
	const char *c = strstr(method, ", cap "), *s;
	size_t n;

	*buf = '\0';
	if (c != NULL && c[6] >= '0' && c[6] <= '9')
		return -1;
	if (strncmp(method, "target ", 7) == 0)
		snprintf(buf, cap, "--target %s --settings target.tsv", target);
	else if (strncmp(method, "planner ", 8) == 0)
		snprintf(buf, cap, "--plan %.*s", (int)strcspn(method + 8, " "),
		    method + 8);
	else if (strncmp(method, "lead ", 5) == 0 && (n = strspn(method + 5,
	    "0123456789")) > 0 && (method[5 + n] == 'm' || method[5 + n] ==
	    'h'))
		snprintf(buf, cap, "--lead %.*s", (int)strcspn(method + 5, " ,"),
		    method + 5);
	else
		return -1;
	if ((s = strstr(method, ", min run ")) != NULL)
		snprintf(buf + strlen(buf), cap - strlen(buf), " --min-run "
		    "%.*s%%", (int)strcspn(s + 10, "%"), s + 10);
	if (strstr(method, ", low") != NULL)
		snprintf(buf + strlen(buf), cap - strlen(buf), " --low");
	if (strstr(method, ", handover") != NULL)
		snprintf(buf + strlen(buf), cap - strlen(buf), " --handover");
	return 0;
}

/* the figures of one policy at one share, draw by draw */
enum { V_BH, V_BS, V_WM, V_WP, V_SV, V_JB, V_LS, V_N };

struct vals {
	double *v;
	size_t n;
};

static int
put(struct vals *a, double v)
{
	double *w;

	if (isnan(v))
		return 0;
	if ((w = realloc(a->v, (a->n + 1) * sizeof(*w))) == NULL)
		return -1;
	a->v = w;
	a->v[a->n++] = v;
	return 0;
}

/* the median, or NAN of none */
static double
med(const struct vals *a)
{
	return mg_quantile(a->v, a->n, 0.5);
}

/* x up by how many percent of y (0 without a y) */
static double
pct(double x, double y)
{
	return y > 0 ? 100 * (x / y - 1) : 0;
}

static const char *
kept(double x, char *buf, size_t cap)
{
	if (isnan(x))
		return "none";
	snprintf(buf, cap, "%.1f%%", 100 * x);
	return buf;
}

/* the reactive row of draw seed at share before row i, or NULL */
static const struct row *
reactive(const struct mg_policy *p, size_t i, const char *share,
    const char *seed)
{
	while (i-- > 0)
		if (strcmp(p->r[i].method, "reactive") == 0 &&
		    strcmp(p->r[i].share, share) == 0 &&
		    strcmp(p->r[i].seed, seed) == 0)
			return &p->r[i];
	return NULL;
}

/* the figures of the policy named method at share into v[V_N] */
static int
figures(const struct mg_policy *p, const char *share, const char *method,
    struct vals *v)
{
	const struct row *r, *z;
	size_t i;
	int rv = 0;

	for (i = 0; i < p->n; i++) {
		r = &p->r[i];
		if (strcmp(r->share, share) != 0 || strcmp(r->method, method))
			continue;
		z = reactive(p, i, share, r->seed);
		rv |= put(&v[V_BH], pct(r->v[F_BWM], z ? z->v[F_BWM] : 0));
		rv |= put(&v[V_BS], r->v[F_BNI]);
		rv |= put(&v[V_WM], pct(r->v[F_WM], z ? z->v[F_WM] : 0));
		rv |= put(&v[V_WP], pct(r->v[F_WP], z ? z->v[F_WP] : 0));
		rv |= put(&v[V_SV], r->v[F_SNI]);
		rv |= put(&v[V_JB], r->v[F_JOBS]);
		rv |= put(&v[V_LS], r->v[F_SUCC] > 0 ? r->v[F_LEASE] /
		    r->v[F_SUCC] : 0);
	}
	return rv;
}

static void
release(struct vals *v, int n)
{
	while (n-- > 0) {
		free(v[n].v);
		v[n].v = NULL;
		v[n].n = 0;
	}
}

/* whether row i is the first of its share (same: of its share and
 * method; of its share and seed) */
static int
first(const struct mg_policy *p, size_t i, int method, int seed)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (strcmp(p->r[j].share, p->r[i].share) == 0 && (!method ||
		    strcmp(p->r[j].method, p->r[i].method) == 0) && (!seed ||
		    strcmp(p->r[j].seed, p->r[i].seed) == 0))
			return 0;
	return 1;
}

/* one share's line: the policy chosen among the non-reactive methods
 * whose first rows are at s[0..ns) */
static int
share_line(const struct mg_policy *p, const char *share, const size_t *s,
    size_t ns, int draws, double harm, const char *harm_text,
    const char *target, FILE *fp)
{
	struct vals v[V_N], s0 = { NULL, 0 };
	char dep[256], k1[32], k2[32], over[64] = "";
	double h, b, hl = 0, bb = 0, sv;
	size_t k, best = SIZE_MAX, least = SIZE_MAX, nc = 0, i;
	int rv = 0;

	memset(v, 0, sizeof(v));
	for (k = 0; k < ns; k++) {
		if (mg_policy_deploy(p->r[s[k]].method, target, dep,
		    sizeof(dep)) != 0) {
			nc++;
			continue;
		}
		if (figures(p, share, p->r[s[k]].method, v) != 0)
			rv = -1;
		h = med(&v[V_BH]);
		b = med(&v[V_BS]);
		release(v, V_N);
		if (isnan(h))
			continue;
		if (least == SIZE_MAX || h < hl) {
			least = k;
			hl = h;
		}
		if (h <= harm && !isnan(b) && (best == SIZE_MAX || b > bb)) {
			best = k;
			bb = b;
		}
	}
	if (least == SIZE_MAX)
		return rv;
	k = best != SIZE_MAX ? best : least;
	if (figures(p, share, p->r[s[k]].method, v) != 0)
		rv = -1;
	for (i = 0; i < p->n; i++)
		if (strcmp(p->r[i].share, share) == 0 &&
		    strcmp(p->r[i].method, "reactive") == 0)
			rv |= put(&s0, p->r[i].v[F_SNI]);
	mg_policy_deploy(p->r[s[k]].method, target, dep, sizeof(dep));
	if (draws > 1)
		snprintf(over, sizeof(over), ", medians over %d draws of "
		    "services", draws);
	if (best != SIZE_MAX)
		fprintf(fp, "at %s%%, recommended: %s (mirage-advise %s), of the "
		    "%zu policies mirage-advise can deploy the one that kept the "
		    "most links without interruption there (%s) with the "
		    "others' mean wait up by at most %s%% (%+.1f%%) in the span "
		    "before%s;", share, p->r[s[k]].method, dep, ns - nc,
		    kept(med(&v[V_BS]), k1, sizeof(k1)), harm_text,
		    med(&v[V_BH]), over);
	else
		fprintf(fp, "at %s%%, no policy mirage-advise can deploy kept "
		    "the others' mean wait within +%s%% in the span before%s; "
		    "the least harm: %s (mirage-advise %s, %+.1f%%), which kept "
		    "%s of links without interruption there;", share,
		    harm_text, over, p->r[s[k]].method, dep, med(&v[V_BH]),
		    kept(med(&v[V_BS]), k1, sizeof(k1)));
	sv = med(&v[V_SV]);
	fprintf(fp, " in the span evaluated, the others' mean wait %+.1f%% "
	    "(90th percentile %+.1f%%) against the same services reactive, ",
	    isnan(h = med(&v[V_WM])) ? 0 : h, isnan(b = med(&v[V_WP])) ? 0 :
	    b);
	if (isnan(sv))
		fprintf(fp, "no service job ended in it");
	else
		fprintf(fp, "the services %s of links without interruption "
		    "(reactive %s)", kept(sv, k1, sizeof(k1)), kept(med(&s0),
		    k2, sizeof(k2)));
	h = med(&v[V_JB]);
	b = med(&v[V_LS]);
	fprintf(fp, ", %.0f jobs per 1,000 hours, %.1f h of each job's limit "
	    "given up\n", isnan(h) ? 0 : h, isnan(b) ? 0 : b);
	release(v, V_N);
	free(s0.v);
	return rv;
}

int
mg_policy_write(const struct mg_policy *p, double harm,
    const char *harm_text, const char *target, FILE *fp, struct mg_diag *d)
{
	size_t i, j, ns, *s;
	int draws, rv = 0;

	if ((s = malloc((p->n ? p->n : 1) * sizeof(*s))) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	for (i = 0; i < p->n && rv == 0; i++) {
		if (!first(p, i, 0, 0))
			continue;	/* a share once, in order */
		for (j = i, ns = 0, draws = 0; j < p->n; j++) {
			if (strcmp(p->r[j].share, p->r[i].share) != 0)
				continue;
			draws += first(p, j, 0, 1);
			if (strcmp(p->r[j].method, "reactive") != 0 &&
			    first(p, j, 1, 0))
				s[ns++] = j;
		}
		rv = share_line(p, p->r[i].share, s, ns, draws, harm,
		    harm_text, target, fp);
	}
	free(s);
	if (rv != 0)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	if (ferror(fp))
		return mg_diag_set(d, MG_EIO, "write error");
	return MG_OK;
}

void
mg_policy_free(struct mg_policy *p)
{
	if (p == NULL)
		return;
	free(p->r);
	free(p);
}
