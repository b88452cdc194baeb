/*
 * slurmfmt.c: Slurm's field formats shared by its layouts; see slurmfmt.h.
 */
#include <string.h>

#include "io/slurmfmt.h"

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
