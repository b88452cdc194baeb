/*
 * accel.c: the multi-accelerator system and its dispatchers; see accel.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/accel.h"
#include "base/parse.h"
#include "base/rand.h"
#include "base/stats.h"

static const char *const pnames[MG_AP_N] = { "fcfs", "edf", "fedf", "llf",
	"sjf", "minlat", "static", "random", "fsjf", "place", "strict", "fit" };

const char *const mg_afeat_names[MG_AFEAT] = { "laxity", "to_deadline",
	"left", "slowdown_here", "layer_size", "bw_here", "moves",
	"dataflow_rs", "bw_used", "waiting", "idle", "rank" };

const char *
mg_apolicy_name(enum mg_apolicy p)
{
	return (unsigned)p < MG_AP_N ? pnames[p] : "?";
}

void
mg_accel_config_default(struct mg_accel_config *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->nsa = 4;
	for (i = 0; i < 4; i++)
		c->df[i] = i < 2 ? MG_DF_WS : MG_DF_RS;
	c->pes = 1024;
	c->bw = 64e9;
	c->xfer_bw = 32e9;
	c->static_w = 0.5;
	c->preempt_s = 1e-6;
}

int
mg_accel_requests(const struct mg_accel_config *c, const struct mg_net *nets,
    size_t nnets, size_t n, double load, double q, double burst,
    uint64_t seed, struct mg_accel_request **out)
{
	uint64_t rng = seed ^ 0xA0761D6478BD642FULL;
	double mean = 0, rate, t = 0, on_end = INFINITY;
	size_t i;

	*out = NULL;
	if (nnets == 0 || c->nsa <= 0 || !(load > 0) || !(q > 0) ||
	    !(burst >= 1))
		return MG_EINVAL;
	for (i = 0; i < nnets; i++)
		mean += nets[i].best / (double)nnets;
	/* requests per second that keep load x the sub-accelerators busy */
	rate = load * (double)c->nsa / mean;
	if ((*out = calloc(n ? n : 1, sizeof(**out))) == NULL)
		return MG_ENOMEM;
	if (burst > 1) {
		rate *= burst;
		on_end = -log(1 - mg_rand_unif(&rng)) * MG_ACCEL_BURST_ON * mean;
	}
	for (i = 0; i < n; i++) {
		struct mg_accel_request *r = &(*out)[i];

		t += -log(1 - mg_rand_unif(&rng)) / rate;
		while (t > on_end) {	/* memoryless: on again after a pause */
			t = on_end - log(1 - mg_rand_unif(&rng)) *
			    MG_ACCEL_BURST_ON * mean * (burst - 1);
			on_end = t - log(1 - mg_rand_unif(&rng)) *
			    MG_ACCEL_BURST_ON * mean;
			t += -log(1 - mg_rand_unif(&rng)) / rate;
		}
		r->net = (int)(mg_rand64(&rng) % nnets);
		r->arrival = t;
		r->deadline = t + q * nets[r->net].best;
		r->end = -1;
	}
	return 0;
}

/* the run's state */
struct run {
	const struct mg_accel_config *c;
	const struct mg_net *nets;
	struct mg_accel_request *req;
	size_t n;
	/* each request: its next layer, the sub-accelerator of its last,
	 * whether one runs; the isolated latency of its layers left */
	size_t *next;
	int *last, *running;
	double **left;		/* per network: suffix sums, best dataflow */
	size_t *wait, nwait;	/* waiting, in arrival order */
	/* each sub-accelerator: its request (-1: idle), the full-rate
	 * seconds left of its layer, the bandwidth it asks */
	long sa_req[MG_ACCEL_MAXSA];
	double sa_rem[MG_ACCEL_MAXSA], sa_bw[MG_ACCEL_MAXSA];
	/* with preemption: each request's share of its next layer left and
	 * the partial output an interruption saved (bytes); each
	 * sub-accelerator's full-rate seconds when its layer started, of
	 * them the moves and saves before the layer's own work, and the
	 * whole layer's seconds there */
	double *frac, *saved;
	double sa_len[MG_ACCEL_MAXSA], sa_ovh[MG_ACCEL_MAXSA];
	double sa_full[MG_ACCEL_MAXSA];
	uint64_t preemptions;
	double now;
	uint64_t rng, decisions;
	const struct mg_accel_hook *hook;	/* the learned dispatcher, or NULL */
	int arriving;		/* requests arrive later */
	double mean_best;	/* the networks' mean isolated latency */
	double *feat, *score;	/* its candidates */
	size_t *cand_w;
	int *cand_s;
	int err;
};

/* the isolated latency of request i's layers left */
static double
left_of(const struct run *r, size_t i)
{
	const double *l = r->left[r->req[i].net];
	size_t k = r->next[i];

	return l[k + 1] + r->frac[i] * (l[k] - l[k + 1]);
}

/* whether request i's next layer on s moves its input there */
static int
moves(const struct run *r, size_t i, int s)
{
	return r->last[i] >= 0 && r->last[i] != s && r->next[i] > 0;
}

/* the seconds request i's next layer takes on s (what is left of it),
 * its moves included */
static double
layer_time(const struct run *r, size_t i, int s)
{
	const struct mg_net *net = &r->nets[r->req[i].net];
	double t = r->frac[i] * net->l[r->next[i]].cost[r->c->df[s]].time;

	if (moves(r, i, s))
		t += net->l[r->next[i] - 1].aout / r->c->xfer_bw;
	return t + r->saved[i] / r->c->xfer_bw;
}

/* whether request i can no longer meet its deadline */
static int
hopeless(const struct run *r, size_t i)
{
	return r->req[i].deadline - r->now - left_of(r, i) < 0;
}

/* start request i's next layer on sub-accelerator s, after extra
 * seconds of saving the layer it interrupted */
static void
launch(struct run *r, size_t i, int s, double extra)
{
	const struct mg_net *net = &r->nets[r->req[i].net];
	const struct mg_layer *l = &net->l[r->next[i]];
	int df = r->c->df[s];
	double t = layer_time(r, i, s);

	r->sa_req[s] = (long)i;
	r->sa_rem[s] = r->sa_len[s] = t + extra;
	r->sa_ovh[s] = t + extra - r->frac[i] * l->cost[df].time;
	r->sa_full[s] = l->cost[df].time;
	r->sa_bw[s] = l->cost[df].bw;
	r->req[i].energy += r->frac[i] * l->cost[df].energy;
	r->saved[i] = 0;
	r->last[i] = s;
	r->running[i] = 1;
	r->decisions++;
}

/* the policy's key of waiting request i: the least goes first */
static double
key(const struct run *r, enum mg_apolicy p, size_t i)
{
	const struct mg_accel_request *q = &r->req[i];

	switch (p) {
	case MG_AP_EDF:
		return q->deadline;
	case MG_AP_FEDF:	/* the late ones after all others */
		return !hopeless(r, i) ? q->deadline : q->deadline + 1e12;
	case MG_AP_LLF:
		return q->deadline - r->now - left_of(r, i);
	case MG_AP_SJF:
		return left_of(r, i);
	case MG_AP_FSJF:
		return !hopeless(r, i) ? left_of(r, i) : q->deadline + 1e12;
	default:
		return q->arrival;
	}
}

/* the bandwidth candidate i's layer asks on its sub-accelerator */
static double
bw_of(const struct run *r, size_t i)
{
	size_t q = r->wait[r->cand_w[i]];
	const struct mg_net *net = &r->nets[r->req[q].net];

	return net->l[r->next[q]].cost[r->c->df[r->cand_s[i]]].bw;
}

/*
 * the time request i's next layer takes on its network's best dataflow,
 * or, if the system has none of that, on the fastest one it has
 */
static double
best_time(const struct run *r, size_t i)
{
	const struct mg_net *net = &r->nets[r->req[i].net];
	const struct mg_layer *l = &net->l[r->next[i]];
	double tref = INFINITY;
	int d;

	for (d = 0; d < r->c->nsa; d++) {
		if (r->c->df[d] == net->best_df)
			return r->frac[i] * l->cost[net->best_df].time;
		if (l->cost[r->c->df[d]].time < tref)
			tref = l->cost[r->c->df[d]].time;
	}
	return r->frac[i] * tref;
}

/* how much slower request i's next layer runs on s (its move included)
 * than in its best time tref */
static double
slowdown(const struct run *r, size_t i, int s, double tref)
{
	return tref > 0 ? layer_time(r, i, s) / tref : 1;
}

/* whether an idle sub-accelerator runs request i's next layer within
 * lim x its best time */
static int
runs_within(const struct run *r, size_t i, double lim)
{
	double tref = best_time(r, i);
	int s;

	for (s = 0; s < r->c->nsa; s++)
		if (r->sa_req[s] < 0 && slowdown(r, i, s, tref) <= lim)
			return 1;
	return 0;
}

/*
 * whether s ends request i's next layer within lim x the earliest any
 * sub-accelerator could: an idle one now, a busy one after its layer,
 * the running layers at the bandwidth share rate
 */
static int
ends_within(const struct run *r, size_t i, int s, double rate, double lim)
{
	double first = INFINITY, e;
	int k;

	for (k = 0; k < r->c->nsa; k++) {
		e = layer_time(r, i, k);
		if (r->sa_req[k] >= 0)
			e += r->sa_rem[k] / rate;
		if (e < first)
			first = e;
	}
	return layer_time(r, i, s) <= lim * first;
}

/* keep candidate i as candidate w */
static void
keep_candidate(struct run *r, size_t i, size_t w)
{
	memmove(r->feat + w * MG_AFEAT, r->feat + i * MG_AFEAT,
	    MG_AFEAT * sizeof(*r->feat));
	r->cand_w[w] = r->cand_w[i];
	r->cand_s[w] = r->cand_s[i];
}

/*
 * the learned dispatcher's pick among the pairs of the topk most urgent
 * waiting requests and the idle sub-accelerators (accel.h)
 */
static int
hook_pick(struct run *r, size_t *bw_out, int *bs_out)
{
	const struct mg_accel_hook *h = r->hook;
	size_t k = h->topk ? h->topk : 6, top[64], nt = 0, w, i, nc = 0;
	double used = 0, mb = r->mean_best, tk[64];
	enum mg_apolicy kp = h->feasible ? MG_AP_FEDF : MG_AP_EDF;
	int s, nidle = 0;

	if (k > 64)
		k = 64;
	for (s = 0; s < r->c->nsa; s++) {
		if (r->sa_req[s] >= 0)
			used += r->sa_bw[s];
		else
			nidle++;
	}
	/* the most urgent waiting requests, by deadline (the feasible
	 * ones first) */
	for (w = 0; w < r->nwait; w++) {
		double dl = key(r, kp, r->wait[w]);

		/* strict, while requests arrive: one that can no longer
		 * meet its deadline runs only where its layer runs within
		 * strict x its best time, and only while all sub-accelerators
		 * but one are idle (the lulls serve the given-up, and one is
		 * left for what arrives) */
		if (h->strict > 0 && r->arriving && hopeless(r, r->wait[w]) &&
		    (nidle < r->c->nsa - 1 || !runs_within(r, r->wait[w],
		    h->strict)))
			continue;
		if (nt == k && dl >= tk[nt - 1])
			continue;
		for (i = nt < k ? nt : k - 1; i > 0 && tk[i - 1] > dl; i--) {
			top[i] = top[i - 1];
			tk[i] = tk[i - 1];
		}
		top[i] = w;
		tk[i] = dl;
		if (nt < k)
			nt++;
	}
	for (i = 0; i < nt; i++) {
		size_t q = r->wait[top[i]];
		const struct mg_accel_request *rq = &r->req[q];
		const struct mg_net *net = &r->nets[rq->net];
		const struct mg_layer *l = &net->l[r->next[q]];
		double left = left_of(r, q);
		double tb = r->frac[q] * l->cost[net->best_df].time;

		for (s = 0; s < r->c->nsa; s++) {
			double *f = r->feat + nc * MG_AFEAT, t;
			int mv;

			if (r->sa_req[s] >= 0)
				continue;
			mv = moves(r, q, s);
			t = layer_time(r, q, s);
			f[0] = (rq->deadline - r->now - left) / mb;
			f[1] = (rq->deadline - r->now) / mb;
			f[2] = left / mb;
			f[3] = tb > 0 ? t / tb : 1;
			f[4] = log10(t / 1e-4 + 1e-12);
			f[5] = h->no_bw ? 0 : l->cost[r->c->df[s]].bw / r->c->bw;
			f[6] = mv;
			f[7] = r->c->df[s] == MG_DF_RS;
			f[8] = h->no_bw ? 0 : used / r->c->bw;
			f[9] = (double)r->nwait / 16;
			f[10] = (double)nidle / (double)r->c->nsa;
			f[11] = (double)i / (double)k;
			r->cand_w[nc] = top[i];
			r->cand_s[nc] = s;
			nc++;
		}
	}
	if (nc == 0)
		return -1;
	if (h->budget) {
		/* decoded under the bandwidth budget: the pairs that fit in
		 * what the running layers leave of B, if any does */
		size_t nf = 0;

		for (i = 0; i < nc; i++)
			nf += used + bw_of(r, i) <= r->c->bw;
		for (i = w = 0; nf > 0 && i < nc; i++)
			if (used + bw_of(r, i) <= r->c->bw)
				keep_candidate(r, i, w++);
		if (nf > 0)
			nc = nf;
	}
	if (h->strict > 0) {
		/* only where the layer runs within strict x its best time
		 * (with fit, also where it ends soon enough while a few
		 * are idle); none: the sub-accelerators wait for the next
		 * arrival (the last arrived, they run what waits) */
		double rate = used > r->c->bw ? r->c->bw / used : 1;
		int fit = h->fit > 0 && nidle >= MG_ACCEL_FIT_IDLE;

		for (i = w = 0; i < nc; i++) {
			size_t q = r->wait[r->cand_w[i]];

			if (slowdown(r, q, r->cand_s[i], best_time(r, q)) <=
			    h->strict || (fit && ends_within(r, q,
			    r->cand_s[i], rate, h->fit)))
				keep_candidate(r, i, w++);
		}
		if (w == 0 && r->arriving)
			return -1;
		if (w > 0)
			nc = w;
	}
	if ((r->err = h->score(h->ctx, r->feat, nc, r->score)) != 0)
		return -1;
	if (h->pick != NULL)
		i = h->pick(h->ctx, r->feat, r->score, nc);
	else
		for (i = 0, w = 1; w < nc; w++)
			if (r->score[w] > r->score[i])
				i = w;
	if (i >= nc)
		i = 0;
	*bw_out = r->cand_w[i];
	*bs_out = r->cand_s[i];
	if (h->taken != NULL)
		h->taken(h->ctx, r->wait[r->cand_w[i]]);
	return 0;
}

/* give idle sub-accelerators the next layers of waiting requests */
static void
dispatch(struct run *r, enum mg_apolicy p)
{
	int s;
	size_t w;

	for (;;) {
		int idle = -1, best_s = -1;
		size_t best_w = r->nwait;
		double bk = 0;

		for (s = 0; s < r->c->nsa && idle < 0; s++)
			if (r->sa_req[s] < 0)
				idle = s;
		if (idle < 0 || r->nwait == 0)
			return;
		if (r->hook != NULL) {
			if (hook_pick(r, &best_w, &best_s) != 0)
				return;
		} else if (p == MG_AP_MINLAT || p == MG_AP_STATIC) {
			int has[MG_DF_N] = { 0, 0 };

			for (s = 0; s < r->c->nsa; s++)
				has[r->c->df[s]] = 1;
			/* arrival order; the fastest idle one, or its own
			 * dataflow's */
			for (w = 0; w < r->nwait && best_s < 0; w++) {
				size_t i = r->wait[w];
				const struct mg_net *net = &r->nets[r->req[i].net];

				for (s = 0; s < r->c->nsa; s++) {
					double t;

					/* static: its best dataflow, if the
					 * system has one of it */
					if (r->sa_req[s] >= 0 || (p ==
					    MG_AP_STATIC && has[net->best_df] &&
					    r->c->df[s] != net->best_df))
						continue;
					t = layer_time(r, i, s);
					if (best_s < 0 || t < bk) {
						bk = t;
						best_s = s;
						best_w = w;
					}
				}
			}
			if (best_s < 0)
				return;	/* none may run on what is idle */
		} else {
			best_s = idle;
			if (p == MG_AP_RANDOM)
				best_w = (size_t)(mg_rand64(&r->rng) %
				    r->nwait);
			else
				for (w = 0; w < r->nwait; w++) {
					double k = key(r, p, r->wait[w]);

					if (best_w == r->nwait || k < bk) {
						bk = k;
						best_w = w;
					}
				}
		}
		launch(r, r->wait[best_w], best_s, 0);
		memmove(r->wait + best_w, r->wait + best_w + 1, (r->nwait -
		    best_w - 1) * sizeof(*r->wait));
		r->nwait--;
	}
}

/* request i waits again, in arrival order (then index) */
static void
enwait(struct run *r, size_t i)
{
	size_t w = r->nwait;

	while (w > 0 && (r->req[r->wait[w - 1]].arrival > r->req[i].arrival ||
	    (r->req[r->wait[w - 1]].arrival == r->req[i].arrival &&
	    r->wait[w - 1] > i))) {
		r->wait[w] = r->wait[w - 1];
		w--;
	}
	r->wait[w] = i;
	r->nwait++;
}

/*
 * each running layer's rate now (rt), with want the bandwidth they ask:
 * in proportion, all slowed alike while they ask more than there is;
 * by deadline, each in turn of its request's urgency (MG_AP_FEDF's
 * order) gets what it asks of what is left
 */
static void
rates(const struct run *r, double want, double *rt)
{
	double left = r->c->bw, kb, k;
	int s, b, done[MG_ACCEL_MAXSA] = { 0 };

	for (s = 0; s < r->c->nsa; s++)
		rt[s] = want > r->c->bw ? r->c->bw / want : 1;
	if (!r->c->bw_deadline || want <= r->c->bw)
		return;
	for (;;) {
		for (b = -1, kb = 0, s = 0; s < r->c->nsa; s++) {
			if (r->sa_req[s] < 0 || done[s])
				continue;
			k = key(r, MG_AP_FEDF, (size_t)r->sa_req[s]);
			if (b < 0 || k < kb) {
				b = s;
				kb = k;
			}
		}
		if (b < 0)
			return;
		done[b] = 1;
		rt[b] = r->sa_bw[b] <= left ? 1 : left / r->sa_bw[b];
		left -= r->sa_bw[b] * rt[b];
	}
}

/*
 * interrupt the layer running on s: its request waits again with the
 * share of its layer left and its partial output saved; the seconds
 * the save takes
 */
static double
interrupt(struct run *r, int s)
{
	size_t v = (size_t)r->sa_req[s];
	const struct mg_layer *l = &r->nets[r->req[v].net].l[r->next[v]];
	double work = r->sa_len[s] - r->sa_rem[s] - r->sa_ovh[s], left;

	left = r->frac[v] - (work > 0 ? work / r->sa_full[s] : 0);
	if (left < 0)
		left = 0;
	/* the energy of the work not done */
	r->req[v].energy -= left * l->cost[r->c->df[s]].energy;
	r->frac[v] = left;
	r->saved[v] = l->aout * (1 - left);
	r->running[v] = 0;
	r->sa_req[s] = -1;
	r->preemptions++;
	enwait(r, v);
	return r->saved[v] / r->c->xfer_bw + r->c->preempt_s;
}

/*
 * with preemption, while no sub-accelerator is idle: the most urgent
 * waiting request that can still meet its deadline, but not after
 * waiting for the first layer running to end, interrupts the layer of
 * a request with a later deadline that still meets its own after the
 * wait (or can no longer meet it), the one with the most time to
 * spare, unless that layer ends within twice what the interruption
 * costs
 */
static void
preempt(struct run *r)
{
	double want = 0, rt[MG_ACCEL_MAXSA], end[MG_ACCEL_MAXSA];
	double first = INFINITY;
	size_t w, q, v;
	int s, bs;

	for (s = 0; s < r->c->nsa; s++) {
		if (r->sa_req[s] < 0)
			return;
		want += r->sa_bw[s];
	}
	/* when each layer running ends at the rates now */
	rates(r, want, rt);
	for (s = 0; s < r->c->nsa; s++) {
		end[s] = rt[s] > 0 ? r->sa_rem[s] / rt[s] : INFINITY;
		if (end[s] < first)
			first = end[s];
	}
	for (w = 0; w < r->nwait; w++) {
		double lax, bk = -INFINITY, bx = 0;

		q = r->wait[w];
		lax = r->req[q].deadline - r->now - left_of(r, q);
		if (lax < 0 || lax >= first)
			continue;
		for (bs = -1, s = 0; s < r->c->nsa; s++) {
			const struct mg_layer *l;
			double cost, tw, spare;

			v = (size_t)r->sa_req[s];
			if (r->req[v].deadline <= r->req[q].deadline)
				continue;
			l = &r->nets[r->req[v].net].l[r->next[v]];
			cost = l->aout / r->c->xfer_bw + r->c->preempt_s;
			tw = layer_time(r, q, s) + cost;
			/* the urgent one's layer here, and its cost, must
			 * still let it meet its deadline */
			if (end[s] <= 2 * cost || lax < tw -
			    best_time(r, q))
				continue;
			spare = hopeless(r, v) ? INFINITY : r->req[v].deadline -
			    r->now - left_of(r, v) - tw - cost;
			if (spare < 0)
				continue;
			if (bs < 0 || spare - tw > bk) {
				bk = spare - tw;
				bs = s;
			}
		}
		if (bs < 0)
			continue;
		bx = interrupt(r, bs);
		/* the interrupted request now waits too, after or before w */
		for (w = 0; r->wait[w] != q; w++)
			;
		launch(r, q, bs, bx);
		memmove(r->wait + w, r->wait + w + 1, (r->nwait - w - 1) *
		    sizeof(*r->wait));
		r->nwait--;
		return;
	}
}

/*
 * with drop, the waiting requests that can no longer meet their
 * deadlines end unserved; how many
 */
static size_t
drop_hopeless(struct run *r)
{
	const struct mg_accel_hook *h = r->hook;
	size_t w, k = 0, q;

	for (w = 0; w < r->nwait; w++) {
		q = r->wait[w];
		if (!hopeless(r, q)) {
			r->wait[k++] = q;
			continue;
		}
		if (h != NULL && h->reward != NULL)
			h->reward(h->ctx, -1);
		if (h != NULL && h->ended != NULL)
			h->ended(h->ctx, q, 0);
	}
	w = r->nwait - k;
	r->nwait = k;
	return w;
}

static int
run_all(const struct mg_accel_config *c, const struct mg_net *nets,
    size_t nnets, struct mg_accel_request *req, size_t n, enum mg_apolicy p, uint64_t seed,
    const struct mg_accel_hook *hook, struct mg_arun *out)
{
	struct run r;
	size_t i, k, arr = 0, done = 0;
	double *lat = NULL, dyn = 0, start;
	int s, rv = 0;

	memset(out, 0, sizeof(*out));
	if (c->nsa <= 0 || c->nsa > MG_ACCEL_MAXSA || !(c->bw > 0) ||
	    !(c->xfer_bw > 0) || (unsigned)p >= MG_AP_N)
		return MG_EINVAL;
	for (i = 0; i < n; i++)
		if (req[i].net < 0 || (size_t)req[i].net >= nnets ||
		    nets[req[i].net].n == 0 || (i > 0 && req[i].arrival <
		    req[i - 1].arrival))
			return MG_EINVAL;
	memset(&r, 0, sizeof(r));
	r.c = c;
	r.nets = nets;
	r.req = req;
	r.n = n;
	r.rng = seed ^ 0x2545F4914F6CDD1DULL;
	r.hook = hook;
	for (k = 0; k < nnets; k++)
		r.mean_best += nets[k].best / (double)nnets;
	if (hook != NULL) {
		r.feat = malloc(64 * MG_ACCEL_MAXSA * MG_AFEAT *
		    sizeof(*r.feat));
		r.score = malloc(64 * MG_ACCEL_MAXSA * sizeof(*r.score));
		r.cand_w = malloc(64 * MG_ACCEL_MAXSA * sizeof(*r.cand_w));
		r.cand_s = malloc(64 * MG_ACCEL_MAXSA * sizeof(*r.cand_s));
		if (r.feat == NULL || r.score == NULL || r.cand_w == NULL ||
		    r.cand_s == NULL) {
			rv = MG_ENOMEM;
			goto out;
		}
	}
	r.next = calloc(n ? n : 1, sizeof(*r.next));
	r.last = malloc((n ? n : 1) * sizeof(*r.last));
	r.running = calloc(n ? n : 1, sizeof(*r.running));
	r.frac = malloc((n ? n : 1) * sizeof(*r.frac));
	r.saved = calloc(n ? n : 1, sizeof(*r.saved));
	r.wait = malloc((n ? n : 1) * sizeof(*r.wait));
	r.left = calloc(nnets, sizeof(*r.left));
	lat = malloc((n ? n : 1) * sizeof(*lat));
	if (r.next == NULL || r.last == NULL || r.running == NULL ||
	    r.frac == NULL || r.saved == NULL ||
	    r.wait == NULL || r.left == NULL || lat == NULL) {
		rv = MG_ENOMEM;
		goto out;
	}
	for (k = 0; k < nnets; k++) {
		if ((r.left[k] = malloc((nets[k].n + 1) *
		    sizeof(**r.left))) == NULL) {
			rv = MG_ENOMEM;
			goto out;
		}
		r.left[k][nets[k].n] = 0;
		for (i = nets[k].n; i > 0; i--)
			r.left[k][i - 1] = r.left[k][i] +
			    nets[k].l[i - 1].cost[nets[k].best_df].time;
	}
	for (i = 0; i < n; i++) {
		r.last[i] = -1;
		r.frac[i] = 1;
		req[i].end = -1;
		req[i].energy = 0;
	}
	for (s = 0; s < c->nsa; s++)
		r.sa_req[s] = -1;
	start = r.now = n > 0 ? req[0].arrival : 0;
	while (done < n) {
		double want = 0, rt[MG_ACCEL_MAXSA], tc = INFINITY, t;
		int busy = 0;

		while (arr < n && req[arr].arrival <= r.now)
			enwait(&r, arr++);
		r.arriving = arr < n;
		if (c->drop) {
			k = drop_hopeless(&r);
			out->dropped += k;
			if ((done += k) == n)
				break;
		}
		dispatch(&r, p);
		if (r.err != 0) {
			rv = r.err;
			goto out;
		}
		if (c->preempt)
			preempt(&r);
		for (s = 0; s < c->nsa; s++)
			if (r.sa_req[s] >= 0) {
				want += r.sa_bw[s];
				busy++;
			}
		rates(&r, want, rt);
		for (s = 0; s < c->nsa; s++)
			if (r.sa_req[s] >= 0 && rt[s] > 0 && r.sa_rem[s] /
			    rt[s] < tc)
				tc = r.sa_rem[s] / rt[s];
		t = r.now + tc;
		if (arr < n && req[arr].arrival < t)
			t = req[arr].arrival;
		if (!isfinite(t)) {
			rv = MG_EINVAL;	/* nothing can run what waits */
			goto out;
		}
		for (s = 0; s < c->nsa; s++)
			if (r.sa_req[s] >= 0)
				r.sa_rem[s] -= (t - r.now) * rt[s];
		out->busy += (double)busy * (t - r.now);
		if (want > c->bw) {
			out->oversub += t - r.now;
			if (hook != NULL && hook->reward != NULL &&
			    hook->beta > 0)
				hook->reward(hook->ctx, -hook->beta * (t -
				    r.now) / r.mean_best);
		}
		r.now = t;
		for (s = 0; s < c->nsa; s++) {
			size_t q;

			if (r.sa_req[s] < 0 || r.sa_rem[s] > 1e-12 * (1 +
			    fabs(r.now)))
				continue;
			q = (size_t)r.sa_req[s];
			r.sa_req[s] = -1;
			r.running[q] = 0;
			r.frac[q] = 1;
			if (++r.next[q] == nets[req[q].net].n) {
				req[q].end = r.now;
				done++;
				if (hook != NULL && hook->reward != NULL)
					hook->reward(hook->ctx, r.now <=
					    req[q].deadline + 1e-12 ? 1 : -1);
				if (hook != NULL && hook->ended != NULL)
					hook->ended(hook->ctx, q, r.now <=
					    req[q].deadline + 1e-12);
			} else {
				enwait(&r, q);
			}
		}
	}
	for (i = k = 0; i < n; i++) {
		dyn += req[i].energy;
		if (req[i].end < 0)
			continue;	/* dropped */
		lat[k] = req[i].end - req[i].arrival;
		out->met += req[i].end <= req[i].deadline + 1e-12;
		k++;
	}
	for (i = 0; i < k; i++)
		out->lat_mean += lat[i] / (double)k;
	out->requests = n;
	out->lat_p95 = k > 0 ? mg_quantile(lat, k, 0.95) : 0;
	out->makespan = r.now - start;
	out->energy = dyn + c->static_w * (double)c->nsa * out->makespan;
	out->decisions = r.decisions;
	out->preemptions = r.preemptions;
out:
	for (k = 0; r.left != NULL && k < nnets; k++)
		free(r.left[k]);
	free(r.left);
	free(r.next);
	free(r.last);
	free(r.running);
	free(r.frac);
	free(r.saved);
	free(r.wait);
	free(r.feat);
	free(r.score);
	free(r.cand_w);
	free(r.cand_s);
	free(lat);
	return rv;
}

int
mg_accel_place_score(void *ctx, const double *feat, size_t n, double *out)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < n; i++)
		out[i] = -feat[i * MG_AFEAT + 11] - 2 * (feat[i * MG_AFEAT +
		    3] - 1);
	return 0;
}

int
mg_accel_fit_score(void *ctx, const double *feat, size_t n, double *out)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < n; i++)
		out[i] = -feat[i * MG_AFEAT + 11];
	return 0;
}

int
mg_accel_run(const struct mg_accel_config *c, const struct mg_net *nets,
    size_t nnets, struct mg_accel_request *req, size_t n, enum mg_apolicy p,
    uint64_t seed, struct mg_arun *out)
{
	struct mg_accel_hook h;

	if (p == MG_AP_PLACE || p == MG_AP_STRICT || p == MG_AP_FIT) {
		memset(&h, 0, sizeof(h));
		h.score = p == MG_AP_FIT ? mg_accel_fit_score :
		    mg_accel_place_score;
		h.feasible = 1;
		h.strict = p == MG_AP_PLACE ? 0 : MG_ACCEL_STRICT;
		h.fit = p == MG_AP_FIT ? MG_ACCEL_STRICT : 0;
		return run_all(c, nets, nnets, req, n, MG_AP_FCFS, seed, &h,
		    out);
	}
	return run_all(c, nets, nnets, req, n, p, seed, NULL, out);
}

int
mg_accel_run_hook(const struct mg_accel_config *c, const struct mg_net *nets,
    size_t nnets, struct mg_accel_request *req, size_t n,
    const struct mg_accel_hook *h, struct mg_arun *out)
{
	if (h == NULL || h->score == NULL)
		return MG_EINVAL;
	return run_all(c, nets, nnets, req, n, MG_AP_FCFS, 0, h, out);
}

void
mg_accel_scenario_default(struct mg_accel_scenario *sc)
{
	mg_accel_config_default(&sc->hw);
	sc->load = 0.5;
	sc->q = 2;
	sc->burst = 1;
	sc->requests = 5000;
	sc->seed = 1;
	snprintf(sc->nets, sizeof(sc->nets), "%s",
	    "resnet50,mobilenetv2,vgg16,bert,lstm");
}

/* the dataflows of nws WS and nrs RS sub-accelerators */
static int
layout(struct mg_accel_config *c, int nws, int nrs)
{
	int i;

	if (nws < 0 || nrs < 0 || nws + nrs < 1 || nws + nrs >
	    MG_ACCEL_MAXSA)
		return -1;
	c->nsa = nws + nrs;
	for (i = 0; i < c->nsa; i++)
		c->df[i] = i < nws ? MG_DF_WS : MG_DF_RS;
	return 0;
}

int
mg_accel_scenario_set(struct mg_accel_scenario *sc,
    const char *kv, struct mg_diag *d)
{
	const char *eq = strchr(kv, '='), *v;
	size_t kl;
	double x;
	int64_t i;
	int nws = 0, nrs = 0, k;

	if (eq == NULL)
		return mg_diag_set(d, MG_EINVAL, "'%s' is not key=value", kv);
	kl = (size_t)(eq - kv);
	v = eq + 1;
	for (k = 0; k < sc->hw.nsa; k++)
		sc->hw.df[k] == MG_DF_WS ? nws++ : nrs++;
#define KEY(s) (kl == strlen(s) && strncmp(kv, s, kl) == 0)
	if (KEY("AccelWS") || KEY("AccelRS")) {
		if (mg_parse_i64(v, strlen(v), 0, MG_ACCEL_MAXSA, &i) != 0 ||
		    layout(&sc->hw, KEY("AccelWS") ? (int)i : nws,
		    KEY("AccelRS") ? (int)i : nrs) != 0)
			goto bad;
	} else if (KEY("AccelPEs")) {
		if (mg_parse_i64(v, strlen(v), 1, 1 << 20, &i) != 0)
			goto bad;
		sc->hw.pes = (int)i;
	} else if (KEY("Bandwidth") || KEY("TransferBandwidth") ||
	    KEY("StaticWatts") || KEY("Load") || KEY("Tightness") ||
	    KEY("Burst")) {
		if (mg_parse_f64(v, strlen(v), &x) != 0 || !(x >= 0) ||
		    x > 1e6 || (x == 0 && !KEY("StaticWatts")) ||
		    (x < 1 && KEY("Burst")))
			goto bad;
		if (KEY("Bandwidth"))
			sc->hw.bw = x * 1e9;
		else if (KEY("TransferBandwidth"))
			sc->hw.xfer_bw = x * 1e9;
		else if (KEY("StaticWatts"))
			sc->hw.static_w = x;
		else if (KEY("Load"))
			sc->load = x;
		else if (KEY("Burst"))
			sc->burst = x;
		else
			sc->q = x;
	} else if (KEY("Drop") || KEY("Preempt")) {
		if (mg_parse_i64(v, strlen(v), 0, 1, &i) != 0)
			goto bad;
		*(KEY("Drop") ? &sc->hw.drop : &sc->hw.preempt) = (int)i;
	} else if (KEY("BandwidthShare")) {
		if (strcmp(v, "proportional") != 0 && strcmp(v, "deadline") !=
		    0)
			goto bad;
		sc->hw.bw_deadline = strcmp(v, "deadline") == 0;
	} else if (KEY("PreemptCost")) {
		/* microseconds */
		if (mg_parse_f64(v, strlen(v), &x) != 0 || !(x >= 0) ||
		    x > 1e6)
			goto bad;
		sc->hw.preempt_s = x * 1e-6;
	} else if (KEY("Requests")) {
		if (mg_parse_i64(v, strlen(v), 1, 10000000, &i) != 0)
			goto bad;
		sc->requests = (size_t)i;
	} else if (KEY("ArrivalSeed")) {
		if (mg_parse_i64(v, strlen(v), 0, INT64_MAX, &i) != 0)
			goto bad;
		sc->seed = (uint64_t)i;
	} else if (KEY("Costs")) {
		if (strchr(v, ':') == NULL || strlen(v) >= sizeof(sc->costs[0]) ||
		    sc->ncosts == MG_NNETS)
			goto bad;
		snprintf(sc->costs[sc->ncosts++], sizeof(sc->costs[0]), "%s", v);
	} else if (KEY("Networks")) {
		if (*v == '\0' || strlen(v) >= sizeof(sc->nets))
			goto bad;
		snprintf(sc->nets, sizeof(sc->nets), "%s", v);
	} else {
		return mg_diag_set(d, MG_EINVAL, "unknown key '%.*s' (AccelWS, "
		    "AccelRS, AccelPEs, Bandwidth, TransferBandwidth, "
		    "StaticWatts, Load, Tightness, Burst, Requests, ArrivalSeed, "
		    "Networks, Costs, Drop, Preempt, PreemptCost, "
		    "BandwidthShare)", (int)kl, kv);
	}
#undef KEY
	return 0;
bad:
	return mg_diag_set(d, MG_EINVAL, "bad value '%s' for %.*s", v,
	    (int)kl, kv);
}

int
mg_accel_scenario_nets(const struct mg_accel_scenario *sc, struct mg_net *nets,
    struct mg_diag *d)
{
	char list[256], *tok, *save = NULL;
	int nn = 0, k, i, rv;

	snprintf(list, sizeof(list), "%s", sc->nets);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",",
	    &save)) {
		for (i = 0; i < nn; i++)
			if (strcmp(nets[i].name, tok) == 0)
				break;
		if (i < nn || nn == MG_NNETS ||
		    (rv = mg_net_build(tok, sc->hw.pes, &nets[nn])) != 0) {
			rv = mg_diag_set(d, MG_EINVAL, "-s Networks: '%s' is not "
			    "resnet50, mobilenetv2, vgg16, bert or lstm (each "
			    "once)", tok);
			goto fail;
		}
		nn++;
	}
	for (k = 0; k < sc->ncosts; k++) {
		const char *c = strchr(sc->costs[k], ':');
		size_t n = (size_t)(c - sc->costs[k]);

		for (i = 0; i < nn; i++)
			if (strlen(nets[i].name) == n &&
			    strncmp(nets[i].name, sc->costs[k], n) == 0)
				break;
		if (i == nn) {
			rv = mg_diag_set(d, MG_EINVAL, "-s Costs: '%.*s' is not "
			    "one of the networks", (int)n, sc->costs[k]);
			goto fail;
		}
		if ((rv = mg_net_read_costs(&nets[i], c + 1, d)) != 0)
			goto fail;
	}
	return nn;
fail:
	for (i = 0; i < nn; i++)
		mg_net_free(&nets[i]);
	return rv;
}
