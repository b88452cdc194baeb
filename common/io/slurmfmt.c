/*
 * slurmfmt.c: Slurm's field formats shared by its layouts; see slurmfmt.h.
 */
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "io/slurmfmt.h"

#define MAXNAMES	1000000		/* nodes a hostlist may name */

int
mg_slurmfmt_jobid(const char *s, size_t n, int64_t *base, int64_t *task,
    int64_t *het, int *step)
{
	size_t i = 0, j;

	*task = -1;
	*het = -1;
	*step = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (mg_parse_i64(s, i, 0, INT64_MAX, base) != 0)
		return -1;
	if (i < n && s[i] == '_') {
		j = ++i;
		if (i < n && s[i] == '[') {
			while (i < n && s[i] != ']')
				i++;
			if (i == n || i == j + 1)
				return -1;
			i++;
			*task = -2;
		} else {
			while (i < n && s[i] >= '0' && s[i] <= '9')
				i++;
			if (mg_parse_i64(s + j, i - j, 0, INT64_MAX, task))
				return -1;
		}
	} else if (i < n && s[i] == '+') {
		j = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (mg_parse_i64(s + j, i - j, 0, INT64_MAX, het) != 0)
			return -1;
	}
	if (i < n && s[i] == '.') {
		if (i + 1 == n)
			return -1;
		*step = 1;
		return 0;
	}
	return i == n ? 0 : -1;
}

int
mg_slurmfmt_gpus(const char *s, size_t n, int64_t *out)
{
	const char *p = s, *end, *comma, *eq;
	int64_t v, plain = -1, typed = -1;
	int truncated = 0;

	if (n == 0)
		return MG_PARSE_MISSING;
	/* fixed-width sacct cuts a long field and marks it with a "+": what
	 * was cut is unknown, not zero */
	if (s[n - 1] == '+') {
		truncated = 1;
		n--;
	}
	end = s + n;
	for (; p <= end; p = comma + 1) {
		size_t fl, kl, vl;

		if ((comma = memchr(p, ',', (size_t)(end - p))) == NULL)
			comma = end;
		if (truncated && comma == end)
			break;		/* the cut entry */
		fl = (size_t)(comma - p);
		if ((eq = memchr(p, '=', fl)) == NULL)
			return MG_PARSE_BAD;
		kl = (size_t)(eq - p);
		vl = fl - kl - 1;
		if (kl >= 8 && memcmp(p, "gres/gpu", 8) == 0 &&
		    (kl == 8 || p[8] == ':')) {
			if (mg_parse_i64(eq + 1, vl, 0, INT64_MAX / 2, &v))
				return MG_PARSE_BAD;
			if (kl == 8)
				plain = v;
			else
				typed = (typed < 0 ? 0 : typed) + v;
		}
	}
	/* Slurm lists gres/gpu and gres/gpu:TYPE for the same GPUs */
	if (truncated && plain < 0)
		return MG_PARSE_MISSING;
	*out = plain >= 0 ? plain : typed >= 0 ? typed : 0;
	return 0;
}

/* ---- hostlists ---------------------------------------------------- */

static int
push_name(char ***names, size_t *count, size_t *cap, const char *s,
    size_t n, struct mg_diag *d)
{
	char *x;

	if (*count >= MAXNAMES)
		return mg_diag_set(d, MG_EINVAL, "a hostlist of more than %d "
		    "nodes", MAXNAMES);
	if (mg_grow((void **)names, cap, *count + 1, sizeof(**names)) ||
	    (x = malloc(n + 1)) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	memcpy(x, s, n);
	x[n] = '\0';
	(*names)[(*count)++] = x;
	return 0;
}

/* one hostlist item s[0..n): pre is what its brackets so far gave */
static int
expand(const char *pre, size_t np, const char *s, size_t n, char ***names,
    size_t *count, size_t *cap, struct mg_diag *d)
{
	const char *lb = memchr(s, '[', n), *rb, *p, *e;
	char buf[256];
	int rv;

	if (lb == NULL) {
		if (np + n >= sizeof(buf) || np + n == 0)
			return mg_diag_set(d, MG_EINVAL, "bad node name");
		memcpy(buf, pre, np);
		memcpy(buf + np, s, n);
		return push_name(names, count, cap, buf, np + n, d);
	}
	if ((rb = memchr(lb, ']', n - (size_t)(lb - s))) == NULL ||
	    np + (size_t)(lb - s) + 24 >= sizeof(buf))
		return mg_diag_set(d, MG_EINVAL, "bad hostlist '%.*s'",
		    (int)n, s);
	memcpy(buf, pre, np);
	memcpy(buf + np, s, (size_t)(lb - s));
	np += (size_t)(lb - s);
	/* ranges a or a-b, zero-padded to a's digits, by commas */
	for (p = lb + 1; p < rb; p = e + 1) {
		const char *dash, *q;
		int64_t lo, hi, v;
		int width;

		for (e = p; e < rb && *e != ','; e++)
			;
		for (dash = p; dash < e && *dash != '-'; dash++)
			;
		for (q = p; q < e; q++)
			if ((*q < '0' || *q > '9') && q != dash)
				break;
		width = (int)(dash - p);
		if (q != e || width == 0 || width > 18 ||
		    mg_parse_i64(p, (size_t)width, 0, INT64_MAX / 2, &lo))
			return mg_diag_set(d, MG_EINVAL, "bad range '%.*s' in "
			    "hostlist", (int)(e - p), p);
		hi = lo;
		if (dash < e && (e - dash - 1 == 0 || e - dash - 1 > 18 ||
		    mg_parse_i64(dash + 1, (size_t)(e - dash - 1), lo,
		    INT64_MAX / 2, &hi)))
			return mg_diag_set(d, MG_EINVAL, "bad range '%.*s' in "
			    "hostlist", (int)(e - p), p);
		if (hi - lo >= MAXNAMES)
			return mg_diag_set(d, MG_EINVAL, "a hostlist of more "
			    "than %d nodes", MAXNAMES);
		for (v = lo; v <= hi; v++) {
			int k = snprintf(buf + np, sizeof(buf) - np, "%0*lld",
			    width, (long long)v);

			if ((rv = expand(buf, np + (size_t)k, rb + 1,
			    n - (size_t)(rb + 1 - s), names, count, cap,
			    d)) != 0)
				return rv;
		}
	}
	return 0;
}

int
mg_hostlist(const char *s, size_t n, char ***names, size_t *count,
    size_t *cap, struct mg_diag *d)
{
	size_t i, b = 0;
	int depth = 0, rv;

	/* items by commas outside brackets */
	for (i = 0; i <= n; i++) {
		if (i < n && s[i] == '[')
			depth++;
		else if (i < n && s[i] == ']')
			depth--;
		if (depth < 0 || depth > 1)
			return mg_diag_set(d, MG_EINVAL, "bad hostlist '%.*s'",
			    (int)n, s);
		if (i < n && (s[i] != ',' || depth > 0))
			continue;
		if (i == b || (rv = expand("", 0, s + b, i - b, names, count,
		    cap, d)) != 0)
			return i == b ? mg_diag_set(d, MG_EINVAL, "bad "
			    "hostlist '%.*s'", (int)n, s) : rv;
		b = i + 1;
	}
	return depth ? mg_diag_set(d, MG_EINVAL, "bad hostlist '%.*s'",
	    (int)n, s) : 0;
}
