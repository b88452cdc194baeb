/*
 * protocol.c: decisions and metrics of the evaluation; see protocol.h.
 */
#include <stdlib.h>
#include <string.h>

#include "episode/protocol.h"
#include "base/stats.h"
#include "base/status.h"

size_t
mg_protocol_choose_first(const struct mg_outcome *o, const double *score,
    double threshold)
{
	size_t k, j = 0, fallback = o->n - 1;

	for (k = 0; k < o->n; k++) {
		if (!o->tick[k])
			continue;
		if (o->t[k] >= o->p_end) {
			fallback = k;
			break;
		}
		if (score[j++] >= threshold && o->t[k] >= o->t_first)
			return k;
	}
	return fallback;
}

void
mg_perfect_score(const struct mg_outcome *o, size_t ahead, double *score)
{
	size_t k, a, j = 0, seen;

	for (k = 0; k < o->n; k++) {
		if (!o->tick[k])
			continue;
		if (o->t[k] >= o->p_end)
			break;
		score[j] = (double)o->x[k] / 3600;
		for (a = k + 1, seen = 0; a < o->n && seen < ahead; a++)
			if (o->tick[a]) {
				seen++;
				if ((double)o->x[a] / 3600 > score[j])
					score[j] = (double)o->x[a] / 3600;
			}
		j++;
	}
}

static int64_t
abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

size_t
mg_choose_oracle(const struct mg_outcome *o)
{
	size_t k, best = 0;

	while (best + 1 < o->n && o->t[best] < o->t_first)
		best++;
	for (k = best + 1; k < o->n; k++) {
		int64_t a = abs64(o->x[k]), b = abs64(o->x[best]);

		if (a < b || (a == b && o->x[k] <= 0 && o->x[best] > 0))
			best = k;
	}
	return best;
}

void
mg_oracle_bound(const struct mg_outcome *o, int64_t *ovl, int64_t *intr)
{
	size_t k;

	*ovl = *intr = -1;
	for (k = 0; k < o->n; k++) {
		if (o->t[k] < o->t_first)
			continue;
		if (o->x[k] <= 0 && (*ovl < 0 || -o->x[k] < *ovl))
			*ovl = -o->x[k];
		if (o->x[k] >= 0 && (*intr < 0 || o->x[k] < *intr))
			*intr = o->x[k];
	}
}

/* an episode's cheapest overlap and interruption */
struct bound { int64_t ovl, intr; };

static int
cmp_bound(const void *a, const void *b)
{
	const struct bound *x = a, *y = b;

	return (x->ovl > y->ovl) - (x->ovl < y->ovl);
}

int
mg_protocol_frontier(const int64_t *ovl, const int64_t *intr, size_t n,
    double budget, struct mg_summary *s)
{
	struct bound *e = malloc((n ? n : 1) * sizeof(*e));
	double left = budget * (double)n, spent = 0, lost = 0;
	size_t i, m = 0;

	memset(s, 0, sizeof(*s));
	if (e == NULL)
		return MG_ENOMEM;
	s->n = n;
	for (i = 0; i < n; i++) {
		if (intr[i] < 0) {
			/* no time free of overlap: it must take its overlap */
			spent += (double)ovl[i];
			s->no_interruption++;
		} else if (ovl[i] < 0)
			lost += (double)intr[i];	/* never without one */
		else {
			e[m].ovl = ovl[i];
			e[m++].intr = intr[i];
		}
	}
	left -= spent;
	/* the cheapest overlaps come through, the others are interrupted
	 * as little as they can be */
	qsort(e, m, sizeof(*e), cmp_bound);
	for (i = 0; i < m; i++)
		if ((double)e[i].ovl <= left) {
			left -= (double)e[i].ovl;
			spent += (double)e[i].ovl;
			s->no_interruption++;
		} else
			lost += (double)e[i].intr;
	free(e);
	if (n > 0) {
		s->no_interruption /= (double)n;
		s->ovl_mean_h = spent / (double)n / 3600;
		s->int_mean_h = lost / (double)n / 3600;
	}
	return 0;
}

enum mg_load
mg_load_class(int64_t x)
{
	return x <= 2 * 3600 ? MG_LOAD_LOW : x <= 12 * 3600 ? MG_LOAD_MEDIUM :
	    MG_LOAD_HEAVY;
}

const char *
mg_load_name(enum mg_load l)
{
	static const char *const name[] = { "low", "medium", "heavy" };

	return name[l];
}

int
mg_protocol_summarize(const int64_t *x, const int64_t *x_oracle,
    const int64_t *x_reactive, size_t n, struct mg_summary *s)
{
	double *in = malloc((n ? n : 1) * sizeof(*in));
	size_t i, ok[3] = { 0, 0, 0 };
	int l;

	memset(s, 0, sizeof(*s));
	if (in == NULL)
		return MG_ENOMEM;
	s->n = n;
	for (i = 0; i < n; i++) {
		l = mg_load_class(x_reactive[i]);
		s->n_load[l]++;
		in[i] = x[i] > 0 ? (double)x[i] / 3600 : 0;
		s->no_interruption += x[i] <= 0;
		s->seamless += x[i] == 0;
		ok[l] += x[i] <= 0;
		s->int_mean_h += in[i];
		s->ovl_mean_h += x[i] < 0 ? (double)-x[i] / 3600 : 0;
		s->oracle_gap_h += (double)(abs64(x[i]) - abs64(x_oracle[i])) /
		    3600;
	}
	if (n > 0) {
		s->no_interruption /= (double)n;
		s->seamless /= (double)n;
		s->int_mean_h /= (double)n;
		s->ovl_mean_h /= (double)n;
		s->oracle_gap_h /= (double)n;
		s->int_median_h = mg_quantile(in, n, 0.5);
		s->int_p90_h = mg_quantile(in, n, 0.9);
	}
	for (l = 0; l < 3; l++)
		s->no_int_load[l] = s->n_load[l] ? (double)ok[l] /
		    (double)s->n_load[l] : 0;
	free(in);
	return 0;
}

void
mg_handover_costs(const int64_t *x, size_t n, int32_t nodes, int64_t c,
    double *held, double *lease)
{
	double h = 0, l = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t early = x[i] < 0 ? -x[i] : 0;

		h += (double)(early < c ? early : c);
		l += (double)(early > c ? early - c : 0);
	}
	*held = n ? h * (double)nodes / 3600 / (double)n : 0;
	*lease = n ? l / 3600 / (double)n : 0;
}

void
mg_renewal(const int64_t *x, size_t n, int32_t nodes, int64_t dur,
    int64_t c, struct mg_renewal *s)
{
	double cycle = 0, down = 0, ovl = 0, held = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		int64_t early = x[i] < 0 ? -x[i] : 0;

		cycle += (double)(dur + x[i]);
		down += x[i] > 0 ? (double)x[i] : 0;
		ovl += (double)early;
		held += (double)(early < c ? early : c);
	}
	if (n == 0 || cycle <= 0)
		return;
	/* per cycle of a link (one job), in the long run */
	s->down_h = 30 * 86400 * down / cycle / 3600;
	s->waste_nh = 30 * 86400 * ovl / cycle / 3600 * nodes;
	s->handover_waste_nh = 30 * 86400 * held / cycle / 3600 * nodes;
	s->jobs_per_kh = cycle - down > 0 ?
	    1000 * 3600 * (double)n / (cycle - down) : 0;
}
