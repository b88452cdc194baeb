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

static double
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
	int64_t *x;		/* nd + 1 outcomes, MG_X_UNKNOWN until probed */
	size_t *k;		/* each one's index in the outcome */
	size_t ep;		/* the outcome's */
};

/* the reward of submitting at decision j, probing x on first use */
static int
reward(const struct mg_rlenv *env, struct view *v, size_t j, double *r)
{
	int rv;

	if (v->x[j] == MG_X_UNKNOWN) {
		if (env->probe == NULL)
			return MG_EINVAL;
		if ((rv = env->probe(env->probe_ctx, v->ep, v->k[j],
		    &v->x[j])) != 0)
			return rv;
	}
	*r = mg_rl_reward(env, v->x[j]);
	return 0;
}

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
		v[e].ep = e;
		if ((v[e].x = malloc(nt * sizeof(*v[e].x))) == NULL ||
		    (v[e].k = malloc(nt * sizeof(*v[e].k))) == NULL)
			goto bad;
		for (k = j = 0; k < o->n; k++)
			if (o->tick[k]) {
				v[e].k[j] = k;
				v[e].x[j++] = o->x[k];
			}
	}
	*out = v;
	return 0;
bad:
	for (j = 0; j <= e && j < env->nep; j++) {
		free(v[j].x);
		free(v[j].k);
	}
	free(v);
	return MG_EINVAL;
}

static void
views_free(struct view *v, size_t n)
{
	size_t e;

	for (e = 0; v != NULL && e < n; e++) {
		free(v[e].x);
		free(v[e].k);
	}
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

/* DQN's memory: the replay buffer and one minibatch's arrays */
struct replay {
	size_t nf, cap, n, head, B;
	double *S, *S2, *R;	/* states, next states, rewards */
	unsigned char *A, *D;	/* actions, episode ended */
	double *in, *in2, *qo, *q2, *qt, *dq;
};

static void
replay_free(struct replay *m)
{
	free(m->S);
	free(m->S2);
	free(m->R);
	free(m->A);
	free(m->D);
	free(m->in);
	free(m->in2);
	free(m->qo);
	free(m->q2);
	free(m->qt);
	free(m->dq);
}

static int
replay_new(struct replay *m, size_t nf, size_t cap, size_t B)
{
	memset(m, 0, sizeof(*m));
	m->nf = nf;
	m->cap = cap;
	m->B = B;
	m->S = malloc(cap * nf * sizeof(*m->S));
	m->S2 = malloc(cap * nf * sizeof(*m->S2));
	m->R = malloc(cap * sizeof(*m->R));
	m->A = malloc(cap);
	m->D = malloc(cap);
	m->in = malloc(B * nf * sizeof(*m->in));
	m->in2 = malloc(B * nf * sizeof(*m->in2));
	m->qo = malloc(B * 2 * sizeof(*m->qo));
	m->q2 = malloc(B * 2 * sizeof(*m->q2));
	m->qt = malloc(B * 2 * sizeof(*m->qt));
	m->dq = malloc(B * 2 * sizeof(*m->dq));
	if (!m->S || !m->S2 || !m->R || !m->A || !m->D || !m->in ||
	    !m->in2 || !m->qo || !m->q2 || !m->qt || !m->dq) {
		replay_free(m);
		return MG_ENOMEM;
	}
	return 0;
}

/* one minibatch from the buffer: a double-DQN step of q (the online
 * net picks the next action, the target net tq values it) */
static int
replay_learn(struct replay *m, struct mg_mlp *q, struct mg_mlp *tq,
    const struct mg_rlopts *o, uint64_t *rs)
{
	size_t b, i, nf = m->nf, B = m->B;

	for (b = 0; b < B; b++) {
		i = (size_t)(mg_rand64(rs) % m->n);
		memcpy(m->in + b * nf, m->S + i * nf, nf * sizeof(*m->in));
		memcpy(m->in2 + b * nf, m->S2 + i * nf, nf * sizeof(*m->in2));
		m->dq[2 * b] = m->R[i];
		m->dq[2 * b + 1] = (double)(m->A[i] | m->D[i] << 1);
	}
	if (mg_mlp_forward(q, m->in2, B, m->q2) ||
	    mg_mlp_forward(tq, m->in2, B, m->qt) ||
	    mg_mlp_forward(q, m->in, B, m->qo))
		return MG_ENOMEM;
	mg_mlp_zero_grad(q);
	for (b = 0; b < B; b++) {
		int ab = (int)m->dq[2 * b + 1] & 1;
		int db = (int)m->dq[2 * b + 1] >> 1;
		int best = m->q2[2 * b + 1] >= m->q2[2 * b];
		double y = m->dq[2 * b] + (db ? 0 : o->gamma * m->qt[2 * b +
		    best]);

		m->dq[2 * b] = m->dq[2 * b + 1] = 0;
		m->dq[2 * b + ab] = huber_grad(m->qo[2 * b + ab] - y) /
		    (double)B;
	}
	mg_mlp_backward(q, m->dq);
	mg_mlp_adam(q, o->lr, 10);
	return 0;
}

/*
 * The greedy agent acts on the network as it is at the episode's start:
 * one batched pass over all the episode's states into gq (two values a
 * state), its arrays grown as needed.
 */
static int
greedy_pass(const struct mg_rlenv *env, const struct view *e,
    struct mg_mlp *q, double **gs, double **gq, size_t *capg)
{
	size_t j, nf = env->nfeat;

	if (e->nd + 1 > *capg) {
		*capg = e->nd + 1;
		free(*gs);
		free(*gq);
		*gs = malloc(*capg * nf * sizeof(**gs));
		*gq = malloc(*capg * 2 * sizeof(**gq));
		if (*gs == NULL || *gq == NULL)
			return MG_ENOMEM;
	}
	for (j = 0; j < e->nd; j++)
		state(env, e, j, *gs + j * nf);
	if (e->nd > 0 && mg_mlp_forward(q, *gs, e->nd, *gq))
		return MG_ENOMEM;
	return 0;
}

int
mg_rl_dqn(const struct mg_rlenv *env, const struct mg_rlopts *o,
    struct mg_mlp **qout)
{
	int sizes[4] = { (int)env->nfeat, o->hidden, o->hidden, 2 };
	size_t nf = env->nfeat, capg = 0;
	struct mg_mlp *q = NULL, *tq = NULL;
	struct view *v = NULL;
	struct replay m;
	double *s = NULL, *gs = NULL, *gq = NULL;
	uint64_t rs = o->seed;
	long ep, steps = 0, updates = 0, tenth = o->episodes / 10 + 1;
	double rsum = 0;
	int rv, pr;

	*qout = NULL;
	if (env->nep == 0)
		return MG_EINVAL;
	if ((rv = views(env, &v)) != 0)
		return rv;
	if ((rv = replay_new(&m, nf, (size_t)o->replay, (size_t)o->batch)) !=
	    0) {
		views_free(v, env->nep);
		return rv;
	}
	rv = MG_ENOMEM;
	if (mg_mlp_new(sizes, 4, o->seed, &q) || mg_mlp_new(sizes, 4, o->seed,
	    &tq) || (s = malloc(nf * sizeof(*s))) == NULL)
		goto out;
	for (ep = 0; ep < o->episodes; ep++) {
		struct view *e = &v[mg_rand64(&rs) % env->nep];
		double eps = 1 - (1 - o->eps_end) * (double)ep /
		    (0.5 * (double)o->episodes);
		int explore;
		size_t j, stop;

		if (eps < o->eps_end)
			eps = o->eps_end;
		explore = mg_rand_unif(&rs) < eps;
		/* exploring, the agent stops at a uniformly random tick */
		stop = (size_t)(mg_rand64(&rs) % (e->nd + 1));
		if (!explore && greedy_pass(env, e, q, &gs, &gq, &capg) != 0)
			goto out;
		for (j = 0; j <= e->nd; j++) {
			double r = 0;
			int a, done;
			size_t at = m.head;

			state(env, e, j, s);
			if (j == e->nd)
				a = 1;
			else if (explore)
				a = j == stop;
			else
				a = gq[2 * j + 1] >= gq[2 * j];
			done = a || j + 1 == e->nd;
			if ((a || j + 1 == e->nd) && (pr = reward(env, e, a ? j :
			    e->nd, &r)) != 0) {
				rv = pr;
				goto out;
			}
			if (j == e->nd) {
				rsum += r;
				break;	/* forced: not a decision */
			}
			memcpy(m.S + at * nf, s, nf * sizeof(*s));
			if (!done)
				state(env, e, j + 1, m.S2 + at * nf);
			else
				memcpy(m.S2 + at * nf, s, nf * sizeof(*s));
			m.R[at] = r;
			m.A[at] = (unsigned char)a;
			m.D[at] = (unsigned char)done;
			m.head = (m.head + 1) % m.cap;
			if (m.n < m.cap)
				m.n++;
			steps++;
			if (steps % o->train_every == 0 && m.n >= m.B) {
				if (replay_learn(&m, q, tq, o, &rs) != 0)
					goto out;
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
	replay_free(&m);
	free(s);
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
	int rv, pr, nb;

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
			struct view *e = &v[mg_rand64(&rs) % env->nep];
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
			if ((pr = reward(env, e, j, &r)) != 0) {
				rv = pr;
				goto out;
			}
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

/* an episode's outcome where the agent first submits at it */
static int
probe(void *ctx, size_t e, size_t k, int64_t *x)
{
	struct mg_rlplay *p = ctx;
	struct mg_epconf ec = p->e;

	ec.nodes = p->nodes[e];
	ec.window = 1;
	return mg_episode_outcome_at(p->def, &ec, p->o[e].s0, k, x, &p->pd);
}

int
mg_rlplay_open(struct mg_rlplay *p, const struct mg_clusterdef *def,
    const struct mg_epsel *sel, size_t nfeat, int threads,
    struct mg_diag *d)
{
	size_t all = sel->n * (size_t)sel->nsizes, i, n;
	int rv;

	memset(p, 0, sizeof(*p));
	p->def = def;
	p->e = sel->e;
	mg_clusterdef_describe(def, p->cluster, sizeof(p->cluster));
	if ((p->o = calloc(all ? all : 1, sizeof(*p->o))) == NULL ||
	    (p->nodes = calloc(all ? all : 1, sizeof(*p->nodes))) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	/* the features of every tick; outcomes where the agent submits */
	if ((rv = mg_outcomes_run(def, sel, 1, 0, all, threads, NULL, 0, p->o,
	    d)) != 0) {
		p->env.nep = all;
		return rv;
	}
	for (i = n = 0; i < all; i++)	/* skipped: empty windows */
		if (p->o[i].n > 0) {
			p->nodes[n] = sel->sizes[i / sel->n];
			p->o[n++] = p->o[i];
		}
	p->env.ep = p->o;
	p->env.nep = n;
	p->env.nfeat = nfeat;
	p->env.probe = probe;
	p->env.probe_ctx = p;
	p->from = INT64_MAX;
	p->to = INT64_MIN;
	for (i = 0; i < n; i++) {
		if (p->o[i].s0 < p->from)
			p->from = p->o[i].s0;
		if (p->o[i].s0 > p->to)
			p->to = p->o[i].s0;
	}
	return MG_OK;
}

void
mg_rlplay_close(struct mg_rlplay *p)
{
	size_t i;

	for (i = 0; p->o != NULL && i < p->env.nep; i++)
		mg_outcome_release(&p->o[i]);
	free(p->o);
	free(p->nodes);
	memset(p, 0, sizeof(*p));
}
