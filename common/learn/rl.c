/*
 * rl.c: DQN and REINFORCE on replayed episodes; see rl.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rand.h"
#include "learn/rl.h"
#include "base/status.h"

void
mg_rlopts_init(struct mg_rlopts *o)
{
	memset(o, 0, sizeof(*o));
	o->episodes = 3000;
	o->hidden = 64;
	o->lr = 1e-3;
	o->gamma = 1;
	o->batch = 64;
	o->replay = 100000;
	o->target_every = 250;
	o->train_every = 16;
	o->eps_end = 0.05;
	o->entropy = 0.01;
	o->seed = 1;
}

double
mg_rl_reward(const struct mg_rlenv *env, int64_t x)
{
	double h = (double)x / 3600;

	return -(h > 0 ? env->w_int * h : -env->w_ovl * h);
}

/* an episode as the agent sees it: ticks 0..nd-1 decide, nd is forced */
struct view {
	size_t nd;
	const float *feat;	/* rows of the outcome's features, by tick */
	size_t stride;
	int64_t *x;		/* nd + 1 outcomes */
};

static int
views(const struct mg_rlenv *env, struct view **out)
{
	struct view *v = calloc(env->nep ? env->nep : 1, sizeof(*v));
	size_t e, k, j;

	if (v == NULL)
		return MG_ENOMEM;
	for (e = 0; e < env->nep; e++) {
		const struct mg_outcome *o = &env->ep[e];
		size_t nt = 0;

		for (k = 0; k < o->n; k++)
			nt += o->tick[k];
		if (nt == 0 || o->feat == NULL || o->nfeat < env->nfeat)
			goto bad;
		v[e].nd = nt - 1;
		v[e].feat = o->feat;
		v[e].stride = o->nfeat;
		if ((v[e].x = malloc(nt * sizeof(*v[e].x))) == NULL)
			goto bad;
		for (k = j = 0; k < o->n; k++)
			if (o->tick[k])
				v[e].x[j++] = o->x[k];
	}
	*out = v;
	return 0;
bad:
	for (j = 0; j <= e && j < env->nep; j++)
		free(v[j].x);
	free(v);
	return MG_EINVAL;
}

static void
views_free(struct view *v, size_t n)
{
	size_t e;

	for (e = 0; e < n; e++)
		free(v[e].x);
	free(v);
}

static void
state(const struct mg_rlenv *env, const struct view *v, size_t j, double *s)
{
	size_t i;

	for (i = 0; i < env->nfeat; i++)
		s[i] = ((double)v->feat[j * v->stride + i] - env->mean[i]) /
		    env->scale[i];
}

static double
huber_grad(double d)
{
	return d > 1 ? 1 : d < -1 ? -1 : d;
}

int
mg_rl_dqn(const struct mg_rlenv *env, const struct mg_rlopts *o,
    struct mg_mlp **qout)
{
	int sizes[4] = { (int)env->nfeat, o->hidden, o->hidden, 2 };
	size_t nf = env->nfeat, cap = (size_t)o->replay, nbuf = 0, head = 0;
	size_t B = (size_t)o->batch;
	struct mg_mlp *q = NULL, *tq = NULL;
	struct view *v = NULL;
	double *S = NULL, *S2 = NULL, *R = NULL, *s = NULL, *in = NULL;
	double *in2 = NULL, *qo = NULL, *q2 = NULL, *qt = NULL, *dq = NULL;
	unsigned char *A = NULL, *D = NULL;
	double *gs = NULL, *gq = NULL;
	size_t capg = 0;
	uint64_t rs = o->seed;
	long ep, steps = 0, updates = 0, tenth = o->episodes / 10 + 1;
	double rsum = 0;
	int rv;

	*qout = NULL;
	if (env->nep == 0)
		return MG_EINVAL;
	if ((rv = views(env, &v)) != 0)
		return rv;
	rv = MG_ENOMEM;
	if (mg_mlp_new(sizes, 4, o->seed, &q) || mg_mlp_new(sizes, 4, o->seed,
	    &tq))
		goto out;
	S = malloc(cap * nf * sizeof(*S));
	S2 = malloc(cap * nf * sizeof(*S2));
	R = malloc(cap * sizeof(*R));
	A = malloc(cap);
	D = malloc(cap);
	s = malloc(nf * sizeof(*s));
	in = malloc(B * nf * sizeof(*in));
	in2 = malloc(B * nf * sizeof(*in2));
	qo = malloc(B * 2 * sizeof(*qo));
	q2 = malloc(B * 2 * sizeof(*q2));
	qt = malloc(B * 2 * sizeof(*qt));
	dq = malloc(B * 2 * sizeof(*dq));
	if (!S || !S2 || !R || !A || !D || !s || !in || !in2 || !qo || !q2 ||
	    !qt || !dq)
		goto out;
	for (ep = 0; ep < o->episodes; ep++) {
		const struct view *e = &v[mg_rand64(&rs) % env->nep];
		double eps = 1 - (1 - o->eps_end) * (double)ep /
		    (0.5 * (double)o->episodes);
		int explore;
		size_t j, stop;

		if (eps < o->eps_end)
			eps = o->eps_end;
		explore = mg_rand_unif(&rs) < eps;
		/* exploring, the agent stops at a uniformly random tick */
		stop = (size_t)(mg_rand64(&rs) % (e->nd + 1));
		/*
		 * Greedy, it acts on the network as it is at the episode's
		 * start: one batched pass over all its states
		 */
		if (!explore) {
			if (e->nd + 1 > capg) {
				capg = e->nd + 1;
				free(gs);
				free(gq);
				gs = malloc(capg * nf * sizeof(*gs));
				gq = malloc(capg * 2 * sizeof(*gq));
				if (gs == NULL || gq == NULL)
					goto out;
			}
			for (j = 0; j < e->nd; j++)
				state(env, e, j, gs + j * nf);
			if (e->nd > 0 && mg_mlp_forward(q, gs, e->nd, gq))
				goto out;
		}
		for (j = 0; j <= e->nd; j++) {
			double r = 0;
			int a, done;
			size_t at = head;

			state(env, e, j, s);
			if (j == e->nd)
				a = 1;
			else if (explore)
				a = j == stop;
			else
				a = gq[2 * j + 1] >= gq[2 * j];
			done = a || j + 1 == e->nd;
			if (a)
				r = mg_rl_reward(env, e->x[j]);
			else if (j + 1 == e->nd)
				r = mg_rl_reward(env, e->x[e->nd]);
			if (j == e->nd) {
				rsum += r;
				break;	/* forced: not a decision */
			}
			memcpy(S + at * nf, s, nf * sizeof(*s));
			if (!done)
				state(env, e, j + 1, S2 + at * nf);
			else
				memcpy(S2 + at * nf, s, nf * sizeof(*s));
			R[at] = r;
			A[at] = (unsigned char)a;
			D[at] = (unsigned char)done;
			head = (head + 1) % cap;
			if (nbuf < cap)
				nbuf++;
			steps++;
			if (steps % o->train_every == 0 && nbuf >= B) {
				size_t b, i;

				for (b = 0; b < B; b++) {
					i = (size_t)(mg_rand64(&rs) % nbuf);
					memcpy(in + b * nf, S + i * nf, nf *
					    sizeof(*in));
					memcpy(in2 + b * nf, S2 + i * nf, nf *
					    sizeof(*in2));
					dq[2 * b] = R[i];
					dq[2 * b + 1] = (double)(A[i] | D[i] << 1);
				}
				/* double DQN: the online net picks, the target
				 * net values */
				if (mg_mlp_forward(q, in2, B, q2) ||
				    mg_mlp_forward(tq, in2, B, qt) ||
				    mg_mlp_forward(q, in, B, qo))
					goto out;
				mg_mlp_zero_grad(q);
				for (b = 0; b < B; b++) {
					int ab = (int)dq[2 * b + 1] & 1;
					int db = (int)dq[2 * b + 1] >> 1;
					int best = q2[2 * b + 1] >= q2[2 * b];
					double y = dq[2 * b] + (db ? 0 :
					    o->gamma * qt[2 * b + best]);

					dq[2 * b] = dq[2 * b + 1] = 0;
					dq[2 * b + ab] = huber_grad(qo[2 * b +
					    ab] - y) / (double)B;
				}
				mg_mlp_backward(q, dq);
				mg_mlp_adam(q, o->lr, 10);
				if (++updates % o->target_every == 0)
					mg_mlp_copy_params(tq, q);
			}
			if (done) {
				rsum += r;
				break;
			}
		}
		if (o->progress && (ep + 1) % tenth == 0) {
			o->progress(o->ctx, ep + 1, o->episodes, rsum /
			    (double)tenth);
			rsum = 0;
		}
	}
	*qout = q;
	q = NULL;
	rv = 0;
out:
	mg_mlp_free(q);
	mg_mlp_free(tq);
	views_free(v, env->nep);
	free(S);
	free(S2);
	free(R);
	free(A);
	free(D);
	free(s);
	free(in);
	free(in2);
	free(qo);
	free(q2);
	free(qt);
	free(dq);
	free(gs);
	free(gq);
	return rv;
}

int
mg_rl_pg(const struct mg_rlenv *env, const struct mg_rlopts *o,
    struct mg_mlp **pout)
{
	int sizes[3] = { (int)env->nfeat, o->hidden, 1 };
	size_t nf = env->nfeat, cap = 0, n;
	struct mg_mlp *pi = NULL, *vf = NULL;
	struct view *v = NULL;
	double *S = NULL, *G = NULL, *val = NULL, *lg = NULL, *d = NULL;
	double *zs = NULL;
	unsigned char *A = NULL;
	uint64_t rs = o->seed;
	long ep = 0, tenth = o->episodes / 10 + 1, next = tenth;
	double rsum = 0;
	int rv, nb;

	*pout = NULL;
	if (env->nep == 0)
		return MG_EINVAL;
	if ((rv = views(env, &v)) != 0)
		return rv;
	rv = MG_ENOMEM;
	if (mg_mlp_new(sizes, 3, o->seed, &pi) ||
	    mg_mlp_new(sizes, 3, o->seed + 1, &vf))
		goto out;
	/* start by rarely submitting: the decisions are many */
	mg_mlp_params(pi)[mg_mlp_nparams(pi) - 1] = -6;
	while (ep < o->episodes) {
		n = 0;
		for (nb = 0; nb < o->batch && ep < o->episodes; nb++, ep++) {
			const struct view *e = &v[mg_rand64(&rs) % env->nep];
			size_t j, first = n;
			double r;

			/* the episode's states, and the policy on all of them */
			while (n + e->nd + 1 > cap) {
				cap = cap ? 2 * cap : 4096;
				if ((S = realloc(S, cap * nf * sizeof(*S))) ==
				    NULL || (A = realloc(A, cap)) == NULL ||
				    (G = realloc(G, cap * sizeof(*G))) == NULL ||
				    (zs = realloc(zs, cap * sizeof(*zs))) == NULL)
					goto out;
			}
			for (j = 0; j < e->nd; j++)
				state(env, e, j, S + (n + j) * nf);
			if (e->nd > 0 && mg_mlp_forward(pi, S + n * nf, e->nd,
			    zs))
				goto out;
			for (j = 0; j < e->nd; j++) {
				double p = 1 / (1 + exp(-zs[j]));
				int a = mg_rand_unif(&rs) < p;

				A[n++] = (unsigned char)a;
				if (a)
					break;
			}
			r = mg_rl_reward(env, e->x[j]);
			rsum += r;
			for (; first < n; first++)
				G[first] = r * pow(o->gamma, (double)(n - 1 -
				    first));
			if (ep + 1 >= next && o->progress) {
				o->progress(o->ctx, ep + 1, o->episodes, rsum /
				    (double)tenth);
				rsum = 0;
				next += tenth;
			}
		}
		if (n == 0)
			continue;
		free(val);
		free(lg);
		free(d);
		val = malloc(n * sizeof(*val));
		lg = malloc(n * sizeof(*lg));
		d = malloc(n * sizeof(*d));
		if (val == NULL || lg == NULL || d == NULL)
			goto out;
		{
			size_t i;

			/* the baseline: fit V(s) to the returns */
			if (mg_mlp_forward(vf, S, n, val))
				goto out;
			for (i = 0; i < n; i++)
				d[i] = 2 * (val[i] - G[i]) / (double)n;
			mg_mlp_zero_grad(vf);
			mg_mlp_backward(vf, d);
			mg_mlp_adam(vf, o->lr, 10);
			/* the policy: -log pi(a|s) (G - V), minus entropy */
			if (mg_mlp_forward(pi, S, n, lg))
				goto out;
			for (i = 0; i < n; i++) {
				double p = 1 / (1 + exp(-lg[i]));

				d[i] = ((p - A[i]) * (G[i] - val[i]) +
				    o->entropy * p * (1 - p) * lg[i]) /
				    (double)o->batch;
			}
			mg_mlp_zero_grad(pi);
			mg_mlp_backward(pi, d);
			mg_mlp_adam(pi, o->lr, 10);
		}
	}
	*pout = pi;
	pi = NULL;
	rv = 0;
out:
	mg_mlp_free(pi);
	mg_mlp_free(vf);
	views_free(v, env->nep);
	free(S);
	free(G);
	free(A);
	free(val);
	free(lg);
	free(d);
	free(zs);
	return rv;
}
