/*
 * preempt.c: victims for a waiting urgent job; see preempt.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/preempt.h"
#include "base/rand.h"

static const char *names[] = { "prio", "youngest", "random", "las",
    "pickyman", "greedy", "exact", "fewest" };

int
mg_victim_policy_parse(const char *s, enum mg_victim_policy *p)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*p = (enum mg_victim_policy)i;
			return 0;
		}
	return -1;
}

const char *
mg_victim_policy_name(enum mg_victim_policy p)
{
	return (size_t)p < sizeof(names) / sizeof(names[0]) ? names[p] : "?";
}

double
mg_victim_cost(const struct mg_pcand *c, const size_t *idx, size_t k,
    int32_t w, double alpha)
{
	double rel = 0, lost = 0;
	size_t i;

	for (i = 0; i < k; i++) {
		const struct mg_pcand *x = &c[idx[i]];

		if (x->rel > rel)
			rel = x->rel;
		lost += (double)x->nodes * x->res;
	}
	return (double)w * rel + alpha * lost;
}

/* a sort key: a, then b, then the index (a total order) */
struct key {
	double a, b;
	size_t i;
};

static int
key_cmp(const void *x, const void *y)
{
	const struct key *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return (p->i > q->i) - (p->i < q->i);
}

/* the first of order[0..m) until need is covered: their count, or 0 */
static size_t
cover(const struct mg_pcand *c, const struct key *order, size_t m,
    int32_t need, size_t *out)
{
	int64_t got = 0;
	size_t k = 0;

	while (k < m && got < need) {
		out[k] = order[k].i;
		got += c[order[k].i].nodes;
		k++;
	}
	return got >= need ? k : 0;
}

/*
 * a cover without the victims it does not need: the costliest (n * res)
 * dropped first while the rest still cover need
 */
static size_t
trim(const struct mg_pcand *c, size_t *v, size_t k, int32_t need)
{
	int64_t got = 0;
	size_t i, drop;

	for (i = 0; i < k; i++)
		got += c[v[i]].nodes;
	for (;;) {
		double most = -1;

		drop = k;
		for (i = 0; i < k; i++)
			if (got - c[v[i]].nodes >= need &&
			    (double)c[v[i]].nodes * c[v[i]].res > most) {
				most = (double)c[v[i]].nodes * c[v[i]].res;
				drop = i;
			}
		if (drop == k)
			return k;
		got -= c[v[drop]].nodes;
		v[drop] = v[--k];
	}
}

/*
 * the fewest jobs that cover need: while no one job covers what is
 * left, the widest; then the one that covers it losing the least (n *
 * res), the fewest nodes on a tie.  Taking the widest is what makes the
 * count the least.
 */
static size_t
fewest(const struct mg_pcand *c, struct key *f, size_t m, int32_t need,
    size_t *out)
{
	size_t k = 0, i, best;

	while (need > 0 && m > 0) {
		best = m;
		for (i = 0; i < m; i++) {
			const struct mg_pcand *x = &c[f[i].i], *y;

			if (x->nodes < need)
				continue;
			y = best < m ? &c[f[best].i] : NULL;
			if (y == NULL || (double)x->nodes * x->res <
			    (double)y->nodes * y->res ||
			    ((double)x->nodes * x->res == (double)y->nodes *
			    y->res && x->nodes < y->nodes))
				best = i;
		}
		if (best == m)		/* none covers: the widest */
			for (i = best = 0; i < m; i++)
				if (c[f[i].i].nodes > c[f[best].i].nodes)
					best = i;
		out[k++] = f[best].i;
		need -= c[f[best].i].nodes;
		f[best] = f[--m];
	}
	return need <= 0 ? k : 0;
}

/* PickyMan's greedy over the free candidates f[0..m) */
static size_t
greedy(const struct mg_pcand *c, struct key *f, size_t m, int32_t need,
    int32_t w, double alpha, size_t *out, size_t *tmp)
{
	struct key *e = malloc((m ? m : 1) * sizeof(*e));
	double best = INFINITY;
	size_t t, i, ne, k, kbest = 0;

	if (e == NULL)
		return 0;
	for (i = 0; i < m; i++) {	/* by release delay */
		f[i].a = c[f[i].i].rel;
		f[i].b = 0;
	}
	qsort(f, m, sizeof(*f), key_cmp);
	for (t = 0; t < m; t++) {
		int by;

		if (t + 1 < m && f[t + 1].a == f[t].a)
			continue;	/* the last of equal thresholds */
		/*
		 * the jobs released by then, by resume loss per node freed,
		 * and by their whole loss (a wide job may free more than the
		 * need asks), each trimmed of what the cover does not need
		 */
		for (by = 0; by < 2; by++) {
			for (i = ne = 0; i <= t; i++) {
				const struct mg_pcand *x = &c[f[i].i];

				e[ne].a = by ? x->res * (double)x->nodes :
				    x->res;
				e[ne].b = -(double)x->nodes;
				e[ne++].i = f[i].i;
			}
			qsort(e, ne, sizeof(*e), key_cmp);
			if ((k = cover(c, e, ne, need, tmp)) == 0)
				break;
			k = trim(c, tmp, k, need);
			if (mg_victim_cost(c, tmp, k, w, alpha) < best) {
				best = mg_victim_cost(c, tmp, k, w, alpha);
				memcpy(out, tmp, k * sizeof(*out));
				kbest = k;
			}
		}
	}
	free(e);
	return kbest;
}

/*
 * the cheapest cover (least sum of n * res) of need nodes by the jobs
 * e[0..ne): a 0/1 knapsack over the nodes covered, capped at need
 * (d[i][w]: the least cost of covering w with the first i jobs); its
 * jobs into out, their count returned (0: no cover)
 */
static size_t
min_cover(const struct mg_pcand *c, const struct key *e, size_t ne,
    int32_t need, size_t *out)
{
	size_t W = (size_t)need + 1, i, k = 0;
	double *d = malloc((ne + 1) * W * sizeof(*d));
	int32_t w, v;

	if (d == NULL)
		return 0;
	for (w = 0; w <= need; w++)
		d[w] = w == 0 ? 0 : INFINITY;
	for (i = 1; i <= ne; i++) {
		const struct mg_pcand *x = &c[e[i - 1].i];
		double cost = (double)x->nodes * x->res;
		double *p = d + (i - 1) * W, *q = d + i * W;

		memcpy(q, p, W * sizeof(*q));
		for (w = 0; w <= need; w++) {
			v = w + x->nodes < need ? w + x->nodes : need;
			if (p[w] + cost < q[v])
				q[v] = p[w] + cost;
		}
	}
	if (d[ne * W + (size_t)need] == INFINITY) {
		free(d);
		return 0;
	}
	/* back from the whole cover: a job was taken where the cost
	 * changed, from a state whose cost plus its own is exact */
	for (w = need, i = ne; i > 0 && w > 0; i--) {
		const struct mg_pcand *x = &c[e[i - 1].i];
		double cost = (double)x->nodes * x->res;
		const double *p = d + (i - 1) * W, *q = d + i * W;

		if (q[w] == p[w])
			continue;
		for (v = w < need ? w - x->nodes : need - x->nodes;
		    v <= w - (w < need ? x->nodes : 0); v++)
			if (v >= 0 && p[v] + cost == q[w])
				break;
		out[k++] = e[i - 1].i;
		w = v > 0 ? v : 0;
	}
	free(d);
	return k;
}

/*
 * PickyMan's choice, exactly: for each threshold tau among the release
 * delays, the cheapest cover by the jobs released by then; the least J
 */
static size_t
thresholds(const struct mg_pcand *c, struct key *f, size_t m, int32_t need,
    int32_t w, double alpha, size_t *out, size_t *tmp)
{
	double best = INFINITY;
	size_t t, i, k, kbest = 0;

	for (i = 0; i < m; i++) {
		f[i].a = c[f[i].i].rel;
		f[i].b = 0;
	}
	qsort(f, m, sizeof(*f), key_cmp);
	for (t = 0; t < m; t++) {
		if (t + 1 < m && f[t + 1].a == f[t].a)
			continue;
		if ((k = min_cover(c, f, t + 1, need, tmp)) == 0)
			continue;
		if (mg_victim_cost(c, tmp, k, w, alpha) < best) {
			best = mg_victim_cost(c, tmp, k, w, alpha);
			memcpy(out, tmp, k * sizeof(*out));
			kbest = k;
		}
	}
	return kbest;
}

/* every covering subset of f[0..m): the cheapest (then the fewest) */
static size_t
exact(const struct mg_pcand *c, const struct key *f, size_t m,
    int32_t need, int32_t w, double alpha, size_t *out)
{
	double best = INFINITY;
	size_t kbest = 0, k, b;
	uint32_t s;

	for (s = 1; s < (1u << m); s++) {
		size_t idx[MG_VICTIM_EXACT_MAX];
		int64_t got = 0;
		double j;

		for (b = k = 0; b < m; b++)
			if (s >> b & 1) {
				idx[k++] = f[b].i;
				got += c[f[b].i].nodes;
			}
		if (got < need)
			continue;
		j = mg_victim_cost(c, idx, k, w, alpha);
		if (j < best || (j == best && k < kbest)) {
			best = j;
			kbest = k;
			memcpy(out, idx, k * sizeof(*out));
		}
	}
	return kbest;
}

int
mg_victims(enum mg_victim_policy p, const struct mg_pcand *c, size_t n,
    unsigned char *taken, int32_t need, int32_t w, double alpha,
    uint64_t *rng, size_t *out, size_t *k)
{
	struct key *f = malloc((n ? n : 1) * sizeof(*f));
	size_t *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	size_t m = 0, i;

	*k = 0;
	if (f == NULL || tmp == NULL) {
		free(f);
		free(tmp);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!taken[i]) {
			const struct mg_pcand *x = &c[i];

			f[m].i = i;
			switch (p) {
			case MG_VICTIM_PRIO:
				f[m].a = x->prio;
				f[m].b = -(double)x->start;
				break;
			case MG_VICTIM_YOUNGEST:
				f[m].a = -(double)x->start;
				f[m].b = x->prio;
				break;
			case MG_VICTIM_LAS:
				f[m].a = x->attained;
				f[m].b = -(double)x->start;
				break;

			default:
				f[m].a = f[m].b = 0;
				break;
			}
			m++;
		}
	if (need <= 0) {
		free(f);
		free(tmp);
		return 0;
	}
	switch (p) {
	case MG_VICTIM_RANDOM:
		for (i = m; i > 1; i--) {	/* Fisher-Yates */
			size_t r = (size_t)(mg_rand64(rng) % i);
			struct key x = f[i - 1];

			f[i - 1] = f[r];
			f[r] = x;
		}
		*k = cover(c, f, m, need, out);
		break;
	case MG_VICTIM_PICKYMAN:
		*k = thresholds(c, f, m, need, w, alpha, out, tmp);
		break;
	case MG_VICTIM_GREEDY:
		*k = greedy(c, f, m, need, w, alpha, out, tmp);
		break;
	case MG_VICTIM_EXACT:
		*k = m <= MG_VICTIM_EXACT_MAX ? exact(c, f, m, need, w, alpha,
		    out) : 0;
		break;
	case MG_VICTIM_FEWEST:
		*k = fewest(c, f, m, need, out);
		break;
	default:
		qsort(f, m, sizeof(*f), key_cmp);
		*k = cover(c, f, m, need, out);
		break;
	}
	free(f);
	free(tmp);
	if (*k == 0)
		return -1;
	for (i = 0; i < *k; i++)
		taken[out[i]] = 1;
	return 0;
}
