/*
 * adopt.c: many chains at once; see adopt.h.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/parse.h"
#include "base/rand.h"
#include "base/stats.h"
#include "episode/adopt.h"


/* a service: its jobs are links, each the successor of the last */
struct svc {
	int32_t nodes, user;
	int64_t limit, t0, end;	/* it serves over [t0, end) */
	int32_t cur;		/* the link that runs or waits */
	int32_t next;		/* its successor once submitted, or -1 */
	int done;		/* its last link is submitted */
	int32_t nlinks;		/* links so far: the planner's stream */
	struct mg_plancost last;	/* its last plan (n 0: none) */
	int64_t ps;		/* at a tick: cur's start, or -1 */
	int says;		/* at a tick: the method submits (1), waits
				 * (0), or failed (< 0) */
	int early;		/* next was submitted before cur's end */
};

/* a tick's decisions, shared out among threads */
struct ticker {
	const struct mg_cluster *c;
	const struct mg_plan *pl;
	const struct mg_adoptconf *a;
	struct svc *sv;
	size_t *ask, nask, next;
	int64_t now;
	pthread_mutex_t mu;
};

/* a link: a service's job and its predecessor (-1 for the first) */
struct link {
	int32_t j, pred, nodes, svc;
	int64_t limit;
};

void
mg_adoptconf_init(struct mg_adoptconf *a)
{
	memset(a, 0, sizeof(*a));
	a->long_limit = MG_DAY;
	a->span = 30 * MG_DAY;
	a->seed = 1;
	a->method = MG_ADOPT_REACTIVE;
	a->tick = 600;
	a->threads = 1;
	a->from = INT64_MIN;
	a->until = INT64_MAX;
	a->before = INT64_MIN;
	a->alone = -1;
	a->replicas = 1;
}

const char *
mg_adopt_class_name(int k)
{
	static const char *const name[MG_ADOPT_CLASSES] = { "all", "nodes=1",
	    "nodes=2-4", "nodes=5-16", "nodes>=17" };

	return k >= 0 && k < MG_ADOPT_CLASSES ? name[k] : "?";
}

static int
size_class(int32_t nodes)
{
	return nodes <= 1 ? 1 : nodes <= 4 ? 2 : nodes <= 16 ? 3 : 4;
}

/*
 * the services and the jobs they replace: long jobs in an order drawn
 * from the seed, each the seed of a service or paying for one
 */
static int
pick(const struct mg_trace *t, const struct mg_adoptconf *a, int64_t last,
    unsigned char *gone, struct svc **out, size_t *nout,
    struct mg_adoptres *r)
{
	size_t *order = malloc((t->n ? t->n : 1) * sizeof(*order));
	struct svc *sv = NULL;
	size_t nl = 0, i, k, n = 0, cap = 0;
	double target, paid = 0;
	uint64_t rs = a->seed ^ 0x9E3779B97F4A7C15ULL;

	*out = NULL;
	*nout = 0;
	if (order == NULL)
		return MG_ENOMEM;
	for (i = 0; i < t->n; i++)
		if (t->job[i].limit >= a->long_limit) {
			order[nl++] = i;
			r->long_nh += (double)t->job[i].nodes *
			    (double)t->job[i].dur / 3600;
		}
	for (i = nl; i > 1; i--) {	/* Fisher-Yates */
		size_t s = (size_t)(mg_rand64(&rs) % i), x = order[i - 1];

		order[i - 1] = order[s];
		order[s] = x;
	}
	target = a->share * r->long_nh;
	for (k = 0; k < nl && r->service_nh < target; ) {
		const struct mg_trace_job *j = &t->job[order[k++]];
		int64_t end = j->submit + a->span < last ? j->submit +
		    a->span : last;
		struct svc *s;
		int rep;

		if (a->max_nodes > 0 && j->nodes > a->max_nodes)
			continue;	/* no service: it may pay for one */
		if (mg_grow((void **)&sv, &cap, n + (size_t)a->replicas,
		    sizeof(*sv)) != 0) {
			free(order);
			free(sv);
			return MG_ENOMEM;
		}
		for (rep = 0; rep < a->replicas; rep++) {
			s = &sv[n++];
			memset(s, 0, sizeof(*s));
			s->nodes = j->nodes;
			s->user = j->user;
			s->limit = j->limit;
			s->t0 = j->submit + rep * j->limit / a->replicas;
			s->end = end;
			if (s->end < s->t0 + s->limit)	/* one link at least */
				s->end = s->t0 + s->limit;
			s->cur = s->next = -1;
			r->service_nh += (double)s->nodes * (double)(s->end -
			    s->t0) / 3600;
			r->service_h += (double)(s->end - s->t0) / 3600;
		}
		gone[order[k - 1]] = 1;
		paid += (double)j->nodes * (double)j->dur / 3600;
		r->removed++;
		/* further long jobs leave until the service is paid for */
		while (paid < r->service_nh && k < nl) {
			const struct mg_trace_job *x = &t->job[order[k]];

			gone[order[k++]] = 1;
			paid += (double)x->nodes * (double)x->dur / 3600;
			r->removed++;
		}
	}
	r->removed_nh = paid;
	free(order);
	*out = sv;
	*nout = n;
	return 0;
}

/* the trace without the jobs gone, its names borrowed */
static int
keep(const struct mg_trace *t, const unsigned char *gone, struct mg_trace *k)
{
	int32_t *map = malloc((t->n ? t->n : 1) * sizeof(*map));
	size_t i;

	*k = *t;
	k->n = 0;
	if (map == NULL || (k->job = malloc((t->n ? t->n : 1) *
	    sizeof(*k->job))) == NULL) {
		free(map);
		k->job = NULL;
		return MG_ENOMEM;
	}
	for (i = 0; i < t->n; i++)	/* first every job's new place */
		map[i] = gone[i] ? -1 : (int32_t)k->n++;
	for (i = k->n = 0; i < t->n; i++) {
		if (gone[i])
			continue;
		k->job[k->n] = t->job[i];
		/* a dependency on a job gone counts as met (it may be on a
		 * job submitted later) */
		if (k->job[k->n].after >= 0)
			k->job[k->n].after = map[k->job[k->n].after];
		k->n++;
	}
	free(map);
	return 0;
}

int
mg_adopt_view(const struct mg_cluster *c, int32_t p, int32_t chain_nodes,
    int64_t recent, struct mg_view *v)
{
	size_t i;

	if (mg_cluster_view(c, chain_nodes, recent, v) != 0)
		return MG_ENOMEM;
	for (i = 0; i < v->nrun; i++)
		v->run[i].chain = v->run[i].job == p;
	for (i = 0; i < v->npend; i++)
		v->pend[i].chain = 0;
	for (i = 0; i < v->nrecent; i++)
		v->recent[i].chain = v->recent[i].job == p;
	for (i = 0; i < v->nended; i++)
		v->ended[i].chain = 0;
	return 0;
}

/*
 * the planner's call for service s at now, its link running since ps:
 * 1 to submit, 0 to wait, or a negative status
 */
static int
plan_says(const struct mg_cluster *c, const struct mg_plan *pl,
    const struct mg_adoptconf *a, struct svc *s, size_t id, int64_t now,
    int64_t ps, struct mg_view *v)
{
	struct mg_planchain ch;
	struct mg_plancost pc;
	int rv;

	if (s->last.n == 0 || mg_plan_reuse(pl, &s->last, now, &pc) != 1) {
		if ((rv = mg_adopt_view(c, s->cur, s->nodes, 0, v)) != 0)
			return rv;
		memset(&ch, 0, sizeof(ch));
		ch.p_start = ps;
		ch.p_end = ps + s->limit;
		ch.p_dur = ch.p_limit = ch.s_limit = ch.s_dur = s->limit;
		ch.p_nodes = ch.nodes = s->nodes;
		ch.world_end = INT64_MAX;
		if ((rv = mg_plan_costs(pl, v, &ch, now, (uint64_t)id << 20 ^
		    (uint64_t)s->nlinks, &pc)) != 0)
			return rv;
		s->last = pc;
	}
	if (pc.n == 0)
		return 0;	/* P ends beyond the planner's window */
	return mg_plan_submit(&pc, MG_PLAN_RISK, a->lambda, a->handover);
}

/*
 * the caller's rule for service s at now: its view with the day before
 * and its chain; 1 to submit, 0 to wait, or a negative status
 */
static int
ask_rule(const struct mg_cluster *c, const struct mg_adoptconf *a,
    const struct svc *s, int64_t now, struct mg_view *v)
{
	struct mg_chainnow cn;
	int rv;

	if ((rv = mg_adopt_view(c, s->cur, s->nodes, MG_DAY, v)) != 0)
		return rv;
	memset(&cn, 0, sizeof(cn));
	cn.t = now;
	cn.p_submit = mg_cluster_job_submit(c, s->cur);
	cn.p_start = s->ps;
	cn.p_elapsed = now - s->ps;
	cn.p_limit = cn.s_limit = s->limit;
	cn.p_nodes = cn.s_nodes = s->nodes;
	return a->ask(a->ask_arg, v, &cn);
}

static void *
tick_worker(void *arg)
{
	struct ticker *t = arg;
	struct mg_view v;
	size_t i;

	memset(&v, 0, sizeof(v));
	for (;;) {
		pthread_mutex_lock(&t->mu);
		i = t->next++;
		pthread_mutex_unlock(&t->mu);
		if (i >= t->nask)
			break;
		t->sv[t->ask[i]].says = plan_says(t->c, t->pl, t->a,
		    &t->sv[t->ask[i]], t->ask[i], t->now, t->sv[t->ask[i]].ps,
		    &v);
	}
	mg_view_release(&v);
	return NULL;
}

/*
 * the planner's calls at now for the services in ask, each on the model
 * as the tick found it, in threads; into their says
 */
static void
ask_planner(const struct mg_cluster *c, const struct mg_plan *pl,
    const struct mg_adoptconf *a, struct svc *sv, size_t *ask, size_t n,
    int64_t now)
{
	struct ticker t = { c, pl, a, sv, ask, n, 0, now,
	    PTHREAD_MUTEX_INITIALIZER };
	pthread_t tid[16];
	int k, nt = a->threads < 1 ? 1 : a->threads > 16 ? 16 : a->threads;

	if ((size_t)nt > n)
		nt = (int)n;
	for (k = 1; k < nt; k++)
		if (pthread_create(&tid[k], NULL, tick_worker, &t) != 0)
			break;
	nt = k;
	tick_worker(&t);
	for (k = 1; k < nt; k++)
		pthread_join(tid[k], NULL);
}

/*
 * a job of service s (number id) submitted at at, the successor of pred
 * (-1: none), taking over in handover seconds (0: not), into the links;
 * its reference, or a negative status
 */
static int32_t
add_link(struct mg_cluster *c, const struct svc *s, size_t id, int64_t at,
    int32_t pred, int64_t handover, struct link **lk, size_t *nl,
    size_t *cap)
{
	char name[32];
	int32_t j;

	snprintf(name, sizeof(name), "~svc%zu", id);
	if ((j = mg_cluster_add_job(c, name, s->nodes, s->limit, s->limit,
	    at, pred)) < 0)
		return j;
	if (mg_cluster_set_user(c, j, s->user) != 0 || (handover > 0 &&
	    mg_cluster_set_handover(c, j, handover) != 0))
		return MG_EINVAL;	/* not expected: it was just added */
	if (mg_grow((void **)lk, cap, *nl + 1, sizeof(**lk)) != 0)
		return MG_ENOMEM;
	(*lk)[(*nl)++] = (struct link){ j, pred, s->nodes, (int32_t)id,
	    s->limit };
	return j;
}

/*
 * service id's method, a's or reactive if another service is alone, and
 * its lead: a's, or with lead_of the one for its size now, which makes
 * the caller's rule a fixed lead (alt_lead_of's for a second replica)
 */
static enum mg_adopt_method
method_of(const struct mg_adoptconf *a, size_t id, const struct svc *s,
    int64_t now, int64_t *lead)
{
	enum mg_adopt_method m = a->alone < 0 || (size_t)a->alone == id ?
	    a->method : MG_ADOPT_REACTIVE;

	*lead = a->lead;
	if (m == MG_ADOPT_ASK && a->alt_lead_of != NULL && a->replicas > 1 &&
	    id % (size_t)a->replicas % 2 == 1 &&
	    (*lead = a->alt_lead_of(a->ask_arg, s->nodes, now)) > 0)
		return MG_ADOPT_LEAD;
	if (m == MG_ADOPT_ASK && a->lead_of != NULL &&
	    (*lead = a->lead_of(a->ask_arg, s->nodes, now)) > 0)
		m = MG_ADOPT_LEAD;
	return m;
}

/* whether method m decides at each tick (the planner, the caller's rule) */
static int
at_ticks(enum mg_adopt_method m)
{
	return m == MG_ADOPT_PLAN || m == MG_ADOPT_ASK;
}

/*
 * service s submits its successor to link cur, which started at ps:
 * when its method said at this tick (s->says), or at a time that is
 * known now (reactive, a lead); by cur's end at the latest
 */
static int
submit_next(struct mg_cluster *c, const struct mg_adoptconf *a,
    struct svc *s, size_t id, int64_t now, int64_t ps, size_t *waiting,
    struct link **lk, size_t *nl, size_t *cap)
{
	int64_t end = ps + s->limit, at, lead;
	enum mg_adopt_method m = method_of(a, id, s, now, &lead);
	int32_t j;

	at = m == MG_ADOPT_LEAD ? end - lead : end;
	if (at_ticks(m) && now + a->tick <= end) {
		if (s->says < 0)
			return s->says;
		if (s->says == 0)
			return 0;	/* wait: ask again at the next tick */
		at = now;
	}
	if (at < now)
		at = now;
	/* a minimum run: not before the predecessor has run its share */
	if (at < ps + (int64_t)llround(a->min_run * (double)s->limit))
		at = ps + (int64_t)llround(a->min_run * (double)s->limit);
	/* a cap on early successors waiting: one is submitted when it is
	 * due (within a tick) and a place is free, else at its
	 * predecessor's end */
	s->early = at < end;
	if (a->early_cap > 0 && s->early && (at > now + a->tick ||
	    *waiting >= (size_t)a->early_cap))
		return 0;
	*waiting += a->early_cap > 0 && s->early;
	if ((j = add_link(c, s, id, m == MG_ADOPT_LEAD && a->hold ? now : at,
	    s->cur, m != MG_ADOPT_REACTIVE ? a->handover : 0, lk, nl,
	    cap)) < 0)
		return j;
	if ((m == MG_ADOPT_LEAD && a->hold && at > now &&
	    mg_cluster_set_begin(c, j, at) != 0) || (a->low && s->early &&
	    mg_cluster_set_low(c, j, end) != 0))
		return MG_EINVAL;	/* not expected: checked, just added */
	s->next = j;
	s->nlinks++;
	s->last.n = 0;
	return 0;
}

/* the waits of the others submitted in [lo, hi), by size class (nc
 * classes: 1, all of them only), from their submissions as the model
 * keeps them (the reference model's minutes) */
static int
waits(const struct mg_cluster *cl, const struct mg_trace *k,
    const int64_t *start, int64_t lo, int64_t hi, int nc, size_t *others,
    double *mean, double *p90)
{
	double *w[MG_ADOPT_CLASSES];
	size_t i;
	int c, rv = 0;

	for (c = 0; c < nc; c++)
		w[c] = malloc((k->n ? k->n : 1) * sizeof(double));
	for (c = 0; c < nc; c++)
		if (w[c] == NULL)
			rv = MG_ENOMEM;
	for (i = 0; rv == 0 && i < k->n; i++) {
		const struct mg_trace_job *j = &k->job[i];
		double h = (double)(start[i] - mg_cluster_job_submit(cl,
		    (int32_t)i)) / 3600;
		int sc = size_class(j->nodes);

		if (j->submit < lo || j->submit >= hi)
			continue;
		w[0][others[0]++] = h;
		if (sc < nc)
			w[sc][others[sc]++] = h;
	}
	for (c = 0; rv == 0 && c < nc; c++) {
		double sum = 0;

		for (i = 0; i < others[c]; i++)
			sum += w[c][i];
		mean[c] = others[c] ? sum / (double)others[c] : NAN;
		p90[c] = mg_quantile(w[c], others[c], 0.9);
	}
	for (c = 0; c < nc; c++)
		free(w[c]);
	return rv;
}

/* what the services' links did */
static void
links(const struct mg_cluster *c, const struct mg_adoptconf *a,
    const struct link *lk, size_t nl, struct mg_adoptres *r)
{
	size_t i;

	r->links = nl;
	for (i = 0; i < nl; i++) {
		int64_t ss, pe, ps;

		struct mg_adoptsvc *v = &r->svc[lk[i].svc];

		if (lk[i].pred < 0)
			continue;
		v->successors++;
		ss = mg_cluster_job_start(c, lk[i].j);
		ps = mg_cluster_job_start(c, lk[i].pred);
		pe = mg_cluster_job_end(c, lk[i].pred);
		if (a->alone < 0 || (size_t)a->alone == (size_t)lk[i].svc) {
			if (pe >= a->from && pe < a->until) {
				r->span_successors++;
				r->span_interrupted += ss > pe;
			} else if (a->before != INT64_MIN && pe >= a->before &&
			    pe < a->from) {
				r->pre.successors++;
				r->pre.interrupted += ss > pe;
			}
		}
		if (ss > pe) {
			v->interrupted++;
			v->down_h += (double)(ss - pe) / 3600;
		} else
			v->twice_nh += (double)lk[i].nodes *
			    (double)(pe - ss) / 3600;
		if (ps + lk[i].limit > pe)
			v->lease_h += (double)(ps + lk[i].limit - pe) / 3600;
	}
	/* the services that used the method: all, or the one alone */
	for (i = 0; i < r->services; i++) {
		const struct mg_adoptsvc *v = &r->svc[i];

		if (a->alone >= 0 && (size_t)a->alone != i)
			continue;
		r->successors += v->successors;
		r->interrupted += v->interrupted;
		r->down_h += v->down_h;
		r->lease_h += v->lease_h;
		r->twice_nh += v->twice_nh;
	}
}

/* a time a replica went down (+1) or came up (-1) */
struct updown {
	int64_t t;
	int d;
};

static int
by_time(const void *x, const void *y)
{
	const struct updown *a = x, *b = y;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->d - b->d;	/* up before down at the same time */
}

/*
 * group g's replicas (services g * n to g * n + n - 1) over the span all
 * of them served within [a->from, a->until), into r's groups: a replica
 * is down from a link's end until its successor is ready, the handover's
 * time after its start (a successor that starts later than that before
 * the end is late too)
 */
static void
group_span(const struct mg_cluster *c, const struct mg_adoptconf *a,
    const struct link *lk, size_t nl, size_t g, struct updown *e,
    struct mg_adoptres *r)
{
	size_t n = (size_t)a->replicas, i, ne = 0;
	int64_t w0 = INT64_MIN, w1 = INT64_MAX, lo, hi, prev, run = 0;
	int cnt = 0;

	/* the span: the last replica's first start, the first one's last end */
	for (i = 0; i < n; i++) {
		size_t k;

		lo = INT64_MAX;
		hi = INT64_MIN;
		for (k = 0; k < nl; k++) {
			if ((size_t)lk[k].svc != g * n + i)
				continue;
			if (mg_cluster_job_start(c, lk[k].j) < lo)
				lo = mg_cluster_job_start(c, lk[k].j);
			if (mg_cluster_job_end(c, lk[k].j) > hi)
				hi = mg_cluster_job_end(c, lk[k].j);
		}
		w0 = lo > w0 ? lo : w0;
		w1 = hi < w1 ? hi : w1;
	}
	w0 = a->from > w0 ? a->from : w0;
	w1 = a->until < w1 ? a->until : w1;
	if (w1 <= w0)
		return;
	for (i = 0; i < nl; i++) {
		int64_t pe, ss;

		if ((size_t)lk[i].svc / n != g || lk[i].pred < 0)
			continue;
		/* up once ready: the handover's time after its start */
		pe = mg_cluster_job_end(c, lk[i].pred);
		ss = mg_cluster_job_start(c, lk[i].j) + a->handover;
		pe = pe > w0 ? pe : w0;
		ss = ss < w1 ? ss : w1;
		if (ss <= pe)
			continue;
		e[ne++] = (struct updown){ pe, 1 };
		e[ne++] = (struct updown){ ss, -1 };
	}
	qsort(e, ne, sizeof(*e), by_time);
	r->groups++;
	r->group_h += (double)(w1 - w0) / 3600;
	for (i = 0, prev = w0; i < ne; i++) {
		if (cnt > 0)
			r->some_down_h += (double)(e[i].t - prev) / 3600;
		if (cnt == (int)n) {
			r->none_up_h += (double)(e[i].t - prev) / 3600;
			run += e[i].t - prev;
		}
		cnt += e[i].d;
		if (cnt < (int)n && run > 0) {
			if ((double)run / 3600 > r->worst_h)
				r->worst_h = (double)run / 3600;
			run = 0;
		}
		prev = e[i].t;
	}
}

/* the groups' spans, into r (nsv services) */
static int
availability(const struct mg_cluster *c, const struct mg_adoptconf *a,
    const struct link *lk, size_t nl, size_t nsv, struct mg_adoptres *r)
{
	struct updown *e = malloc((2 * nl + 1) * sizeof(*e));
	size_t g;

	if (e == NULL)
		return MG_ENOMEM;
	for (g = 0; g < nsv / (size_t)a->replicas; g++)
		group_span(c, a, lk, nl, g, e, r);
	free(e);
	return 0;
}

static int
all_started(const struct mg_cluster *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (mg_cluster_job_start(c, (int32_t)i) < 0)
			return 0;
	return 1;
}

int
mg_adopt_run(const struct mg_clusterdef *def, const struct mg_adoptconf *a,
    struct mg_adoptres *r, struct mg_diag *d)
{
	const struct mg_trace *t = def->trace;
	struct mg_clusterdef kd;
	struct mg_cluster *c = NULL;
	struct svc *sv = NULL;
	struct link *lk = NULL;
	unsigned char *gone = NULL;
	struct mg_plan *pl = NULL;
	struct mg_view view;
	size_t nsv = 0, nl = 0, capl = 0, i, nq = 0, busy, nask, *ask = NULL;
	int64_t first, last, now, stop, lead;
	size_t waiting;
	double q = 0;
	int rv;

	memset(r, 0, sizeof(*r));
	memset(&view, 0, sizeof(view));
	if (a->method == MG_ADOPT_PLAN && a->pc == NULL)
		return mg_diag_set(d, MG_EINVAL, "many chains at once: the "
		    "planner without its settings");
	if (a->method == MG_ADOPT_ASK && a->ask == NULL)
		return mg_diag_set(d, MG_EINVAL, "many chains at once: a rule "
		    "without its function");
	if (def->dl != NULL || def->el != NULL || def->dem_time != NULL)
		return mg_diag_set(d, MG_EINVAL, "many chains at once: not "
		    "with preemption, elastic jobs or loaning");
	if (a->share < 0 || a->share > 0.9 || a->tick < 60 || a->span < MG_DAY ||
	    (a->method == MG_ADOPT_LEAD && a->lead <= 0) || a->handover < 0 ||
	    a->replicas < 1 || a->replicas > MG_ADOPT_MAXREPLICAS)
		return mg_diag_set(d, MG_EINVAL, "many chains at once: a share "
		    "in [0, 90%%], a tick of a minute or more, a span of a "
		    "day or more, a lead above 0, 1 to %d replicas",
		    MG_ADOPT_MAXREPLICAS);
	if (a->hold && (a->method != MG_ADOPT_LEAD ||
	    mg_simconf_mode(def->conf) != MG_MODE_FAITHFUL))
		return mg_diag_set(d, MG_EINVAL, "many chains at once: a "
		    "successor is held with a lead, in the faithful model");
	if (t->n == 0)
		return mg_diag_set(d, MG_EINVAL, "an empty trace");
	mg_trace_span(t, &first, &last);
	rv = MG_ENOMEM;
	if ((gone = calloc(t->n, 1)) == NULL ||
	    (rv = pick(t, a, last, gone, &sv, &nsv, r)) != 0 ||
	    (rv = keep(t, gone, &r->kept)) != 0)
		goto out;
	kd = *def;
	kd.trace = &r->kept;
	if (r->kept.n == 0) {
		rv = mg_diag_set(d, MG_EINVAL, "many chains at once: no job "
		    "is left");
		goto out;
	}
	mg_trace_span(&r->kept, &first, &last);
	if ((rv = mg_cluster_new(&kd, first, last, &c)) != 0 ||
	    (rv = (ask = malloc((nsv ? nsv : 1) * sizeof(*ask))) == NULL ?
	    MG_ENOMEM : 0) != 0)
		goto out;
	if (a->method == MG_ADOPT_PLAN &&
	    (rv = mg_plan_new(a->pc, &r->kept, &pl)) != 0) {
		if (rv == MG_EINVAL)
			rv = mg_diag_set(d, rv, "invalid planner settings");
		goto out;
	}
	/* each service's first link, at its seed's submission */
	for (i = 0; i < nsv; i++) {
		int32_t j;

		if (sv[i].t0 < first)
			sv[i].t0 = first;
		if ((j = add_link(c, &sv[i], i, sv[i].t0, -1, 0, &lk, &nl,
		    &capl)) < 0) {
			rv = j;
			goto out;
		}
		sv[i].cur = j;
	}
	/* tick by tick until every job has run (a replay's bound at most) */
	stop = last;
	for (i = 0; i < r->kept.n; i++)
		stop += r->kept.job[i].limit + 60;
	for (i = 0; i < nsv; i++)	/* and each service's own */
		stop += sv[i].end - sv[i].t0 + 2 * sv[i].limit;
	for (now = first; now < stop; ) {
		now += a->tick;
		if ((rv = mg_cluster_run(c, now)) != 0)
			goto out;
		busy = mg_cluster_pending(c);
		if (now >= a->from && now < a->until) {
			q += (double)busy;
			nq++;
		}
		/* who decides now: a service whose job runs and has no
		 * successor yet, if this is not its last link */
		for (i = nask = 0; i < nsv; i++) {
			struct svc *s = &sv[i];

			if (s->next >= 0 &&
			    mg_cluster_job_start(c, s->next) >= 0) {
				s->cur = s->next;	/* it runs: the next */
				s->next = -1;
			}
			s->ps = -1;
			if (s->done || s->next >= 0 ||
			    (s->ps = mg_cluster_job_start(c, s->cur)) < 0)
				continue;
			if (s->ps + s->limit >= s->end) {
				s->done = 1;	/* it ends with this link */
				continue;
			}
			s->says = 0;
			if (at_ticks(method_of(a, i, s, now, &lead)) &&
			    now + a->tick <= s->ps + s->limit)
				ask[nask++] = i;
		}
		/* every decision on the model as the tick found it, then
		 * the submissions in the services' order */
		if (nask > 0 && a->method == MG_ADOPT_PLAN)
			ask_planner(c, pl, a, sv, ask, nask, now);
		for (i = 0; i < nask && a->method == MG_ADOPT_ASK; i++)
			sv[ask[i]].says = ask_rule(c, a, &sv[ask[i]], now,
			    &view);
		/* the early successors submitted and not started */
		for (i = waiting = 0; i < nsv; i++)
			waiting += sv[i].next >= 0 && sv[i].early &&
			    mg_cluster_job_start(c, sv[i].next) < 0;
		for (i = 0; i < nsv; i++)
			if (sv[i].ps >= 0 && !sv[i].done && (rv =
			    submit_next(c, a, &sv[i], i, now, sv[i].ps, &waiting,
			    &lk, &nl, &capl)) != 0)
				goto out;
		busy += nsv;
		for (i = 0; i < nsv; i++)
			busy -= sv[i].done && sv[i].next < 0 &&
			    mg_cluster_job_end(c, sv[i].cur) >= 0;
		if (now > last && busy == 0 && all_started(c, r->kept.n))
			break;
	}
	if ((r->start = malloc(r->kept.n * sizeof(*r->start))) == NULL) {
		rv = MG_ENOMEM;
		goto out;
	}
	for (i = 0; i < r->kept.n; i++)
		if ((r->start[i] = mg_cluster_job_start(c, (int32_t)i)) < 0) {
			rv = mg_diag_set(d, MG_EINVAL, "job %s (%d nodes) never "
			    "starts in this model", r->kept.job[i].id,
			    r->kept.job[i].nodes);
			goto out;
		}
	for (i = 0; i < nl; i++)
		if (mg_cluster_job_end(c, lk[i].j) < 0) {
			rv = mg_diag_set(d, MG_EINVAL, "a service's job (%d "
			    "nodes) never ends in this model", lk[i].nodes);
			goto out;
		}
	r->services = nsv;
	r->replicas = a->replicas;
	r->queue_mean = nq ? q / (double)nq : NAN;
	if ((r->svc = calloc(nsv ? nsv : 1, sizeof(*r->svc))) == NULL) {
		rv = MG_ENOMEM;
		goto out;
	}
	links(c, a, lk, nl, r);
	if ((rv = availability(c, a, lk, nl, nsv, r)) == 0 &&
	    (rv = waits(c, &r->kept, r->start, a->from, a->until,
	    MG_ADOPT_CLASSES, r->others, r->wait_mean_h, r->wait_p90_h)) == 0)
		rv = waits(c, &r->kept, r->start, a->before == INT64_MIN ?
		    a->from : a->before, a->from, 1, &r->pre.others,
		    &r->pre.wait_mean_h, &r->pre.wait_p90_h);
out:
	if (rv == MG_ENOMEM)
		rv = mg_diag_set(d, rv, "out of memory");
	else if (rv < 0 && d != NULL && d->msg[0] == '\0')
		rv = mg_diag_set(d, rv, "many chains at once: a service's job: "
		    "%s", mg_strerror(rv));
	mg_cluster_free(c);
	mg_plan_free(pl);
	mg_view_release(&view);
	free(ask);
	free(gone);
	free(sv);
	free(lk);
	if (rv != 0)
		mg_adopt_release(r);
	return rv;
}

void
mg_adopt_release(struct mg_adoptres *r)
{
	free(r->kept.job);
	free(r->start);
	free(r->svc);
	memset(r, 0, sizeof(*r));
}
