/*
 * slurmprio.c: Slurm's multifactor priorities in the faithful model:
 * fair-share (classic and Fair Tree) with its usage and decay, a job's
 * priority, PriorityCalcPeriod's recalculation, and the pending list in
 * priority order.  See slurmsim_int.h.
 */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/slurmsim_int.h"
#include "base/mem.h"
#include "base/status.h"

/* the pending order: priority, then submission, then trace order */
static int
pent_cmp(const struct pent *x, const struct pent *y)
{
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->trace < y->trace ? -1 : x->trace > y->trace;
}

int
mg_slurmprio_qcmp(const void *a, const void *b)
{
	return pent_cmp(a, b);
}

/* jobs idx[0..n) in arrival order: submission, then trace order */

/* Fair Tree over associations, or over users if the trace has none */
static int
by_assoc(const struct mg_slurmsim *s)
{
	return s->c.fs_by == MG_FS_TREE && s->t->nassoc > 0;
}

/* the fair-share holder of a job of this user, account and association */
int32_t
mg_slurmprio_holder_of(const struct mg_slurmsim *s, int32_t user,
    int32_t account, int32_t assoc)
{
	return s->c.fs_by == MG_FS_ACCOUNT ? account : by_assoc(s) ? assoc :
	    user;
}

/* holders of fair-share usage: users, accounts or associations (at
 * least one) */
size_t
mg_slurmprio_holders(const struct mg_slurmsim *s)
{
	size_t n = s->c.fs_by == MG_FS_ACCOUNT ? s->t->naccts : by_assoc(s) ?
	    s->t->nassoc : s->t->nusers;

	return n ? n : 1;
}

/* the holders known now: those that have submitted a job by now (at
 * least one), so that nothing submitted later changes a factor */
static size_t
known(const struct mg_slurmsim *s)
{
	size_t lo = 0, hi = mg_slurmprio_holders(s);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->hsorted[mid] <= s->now)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo : 1;
}

static int
time_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* each holder's first submission in the whole trace (hfirst, hsorted) */
int
mg_slurmprio_first_submits(struct mg_slurmsim *s)
{
	const struct mg_trace *t = s->t;
	size_t n = mg_slurmprio_holders(s), i;

	if ((s->hfirst = malloc(n * sizeof(*s->hfirst))) == NULL ||
	    (s->hsorted = malloc(n * sizeof(*s->hsorted))) == NULL)
		return MG_ENOMEM;
	for (i = 0; i < n; i++)
		s->hfirst[i] = INT64_MAX;
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *tj = &t->job[i];
		int32_t a = tj->account >= 0 && (size_t)tj->account <
		    t->naccts ? tj->account : -1;
		int32_t h = mg_slurmprio_holder_of(s, tj->user, a,
		    tj->assoc >= 0 && (size_t)tj->assoc < t->nassoc ?
		    tj->assoc : -1);

		if (h >= 0 && (size_t)h < n && tj->submit < s->hfirst[h])
			s->hfirst[h] = tj->submit;
	}
	memcpy(s->hsorted, s->hfirst, n * sizeof(*s->hsorted));
	qsort(s->hsorted, n, sizeof(*s->hsorted), time_cmp);
	return 0;
}


/* Slurm's QOS factor: the QOS's priority over the largest one's */
static double
qos_factor(const struct mg_slurmsim *s, int32_t q)
{
	return s->qos_top > 0 ? s->c.qos_prio[q] / s->qos_top : 0;
}


/* ---- priority ------------------------------------------------------- */

/*
 * Fair-share usage: node-seconds, as Slurm's decay thread keeps it: at
 * each PriorityCalcPeriod's start every holder's usage is halved every
 * PriorityDecayHalfLife (decay(), with the running jobs' node-seconds
 * since the last one added after it), and a holder's usage is charged
 * when the nodes it holds change (a job's start or end; Slurm charges a
 * job's last part at its end).  Between two periods the fair-share
 * factors stay those of the last one.
 */
static double fs_factor(struct mg_slurmsim *, int32_t);

void
mg_slurmprio_charge(struct mg_slurmsim *s, int32_t h)
{
	if (h < 0 || s->c.w_fairshare <= 0 || s->now <= s->charged[h])
		return;
	(void)fs_factor(s, h);	/* the period's, before usage moves */
	s->usage[h] += (double)s->hnodes[h] * (double)(s->now -
	    s->charged[h]);
	s->charged[h] = s->now;
}

static void
decay(struct mg_slurmsim *s)
{
	double k, total = 0;
	size_t u;

	if (s->c.w_fairshare <= 0)
		return;
	k = s->now > s->calc_at ? exp2(-(double)(s->now - s->calc_at) /
	    (double)s->c.decay_half_life) : 1;
	for (u = 0; u < mg_slurmprio_holders(s); u++) {
		s->usage[u] *= k;
		if (s->now > s->charged[u]) {
			s->usage[u] += (double)s->hnodes[u] *
			    (double)(s->now - s->charged[u]);
			s->charged[u] = s->now;
		}
		total += s->usage[u];
	}
	s->fs_total = total;	/* for the factors of this period */
}


/* an association's account (the trace's, or one for all) and usage */
struct fsa {
	int32_t acct, a;
	double level;		/* its LevelFS within its account */
	double acct_level;	/* its account's LevelFS */
};

static int
fsa_cmp(const void *x, const void *y)
{
	const struct fsa *p = x, *q = y;

	/* accounts by LevelFS, highest first; within one, or within
	 * accounts of the same LevelFS (merged, as Slurm merges them),
	 * users by LevelFS */
	if (p->acct_level != q->acct_level)
		return p->acct_level > q->acct_level ? -1 : 1;
	if (p->level != q->level)
		return p->level > q->level ? -1 : 1;
	return (p->a > q->a) - (p->a < q->a);
}

/*
 * Slurm's Fair Tree with equal shares: LevelFS = share among siblings /
 * usage share among siblings (infinite without usage); a depth-first
 * walk, accounts then their users in descending LevelFS (the users of
 * accounts that tie sorted together), ranks users from n down to 1
 * (ties share a rank); the factor is rank / n, n the holders known now.
 */
static int
fair_tree(const struct mg_slurmsim *s, double *f)
{
	size_t nh = mg_slurmprio_holders(s), na = s->naccts + 1, n = 0, i, k;
	struct fsa *e = malloc(nh * sizeof(*e));
	double *au = calloc(na, sizeof(*au)), total = 0;
	size_t *cnt = calloc(na, sizeof(*cnt)), accounts = 0;

	if (e == NULL || au == NULL || cnt == NULL) {
		free(e);
		free(au);
		free(cnt);
		return MG_ENOMEM;
	}
	/* only the holders known now take part; one not yet seen ranks at
	 * the top when it comes, as one without usage does */
	for (i = 0; i < nh; i++) {
		int32_t acct = by_assoc(s) ? s->t->assoc_acct[i] : -1;

		f[i] = 1;
		if (s->hfirst[i] > s->now)
			continue;
		e[n].acct = acct >= 0 && (size_t)acct < s->naccts ? acct :
		    (int32_t)s->naccts;
		e[n].a = (int32_t)i;
		au[e[n].acct] += s->usage[i];
		accounts += cnt[e[n].acct]++ == 0;
		total += s->usage[i];
		n++;
	}
	for (i = 0; i < n; i++) {
		double u = s->usage[e[i].a], ua = au[e[i].acct];

		e[i].acct_level = ua > 0 ? (1.0 / (double)accounts) /
		    (ua / total) : INFINITY;
		e[i].level = u > 0 ? (1.0 / (double)cnt[e[i].acct]) /
		    (u / ua) : INFINITY;
	}
	qsort(e, n, sizeof(*e), fsa_cmp);
	for (i = k = 0; i < n; i++) {
		if (i == 0 || e[i].acct_level != e[i - 1].acct_level ||
		    e[i].level != e[i - 1].level)
			k = i;		/* a new rank; ties keep the first's */
		f[e[i].a] = (double)(n - k) / (double)n;
	}
	free(e);
	free(au);
	free(cnt);
	return 0;
}

static double
total_usage(const struct mg_slurmsim *s)
{
	double total = 0;
	size_t i;

	if (s->c.w_fairshare > 0)
		for (i = 0; i < mg_slurmprio_holders(s); i++)
			total += s->usage[i];
	return total;
}

/* the fair-share of a pass: 0, or MG_ENOMEM; release with
 * mg_slurmprio_fs_done() */
int
mg_slurmprio_fs_prepare(const struct mg_slurmsim *s, struct fsnow *fs)
{
	fs->total = total_usage(s);
	fs->tree = fs->own = NULL;
	if (s->c.w_fairshare <= 0 || s->c.fs_by != MG_FS_TREE)
		return 0;
	if (s->fst_at >= 0) {
		fs->tree = s->fst;
		return 0;
	}
	/* a view before any pass */
	if ((fs->own = malloc(mg_slurmprio_holders(s) *
	    sizeof(*fs->own))) == NULL)
		return MG_ENOMEM;
	fs->tree = fs->own;
	return fair_tree(s, fs->own);
}

void
mg_slurmprio_fs_done(struct fsnow *fs)
{
	free(fs->own);
	fs->tree = fs->own = NULL;
}

/*
 * The fair-share factor of holder who: Fair Tree's, or Slurm's classic
 * factor with equal shares, 2^(-U/S), U the holder's share of all usage,
 * S = 1 / the holders known now.
 */
static double
fairshare(const struct mg_slurmsim *s, int32_t who, const struct fsnow *fs)
{
	if (who < 0)
		return 1;
	if (fs->tree != NULL)
		return fs->tree[who];
	if (fs->total <= 0)
		return 1;
	return exp2(-(s->usage[who] / fs->total) * (double)known(s));
}

/* not yet: a job whose age does not count (MaxJobsAccrue) */
#define NOT_YET	(INT64_MAX / 2)

/* whether MaxJobsAccrue holds some jobs' ages back */
static int
capped(const struct mg_slurmsim *s)
{
	return s->c.max_accrue > 0 && !s->c.accrue_always;
}

/* when j's age starts: at its eligible time (a --begin time), or with
 * PriorityFlags=ACCRUE_ALWAYS at its submission; with MaxJobsAccrue,
 * when it was admitted among its user's accruing jobs (NOT_YET) */
static int64_t
accrue_from(const struct mg_slurmsim *s, const struct fjob *j)
{
	int64_t from;

	if (capped(s))
		from = j->accrue >= 0 ? j->accrue : NOT_YET;
	else
		from = j->eligible > j->submit && !s->c.accrue_always ?
		    j->eligible : j->submit;
	/* a low job: as if submitted when it rises */
	return from != NOT_YET && j->low_until > from ? j->low_until : from;
}

/*
 * MaxJobsAccrue: job j, arriving or waiting, begins to accrue if it is
 * eligible and its user has room (a job of no user always does): from
 * its eligible time as it arrives, else from now.  1 if it did.
 */
static int
admit(struct mg_slurmsim *s, struct fjob *j, int arriving)
{
	int64_t from = j->eligible > j->submit ? j->eligible : j->submit;

	if (j->accrue >= 0 || j->eligible > s->now || (j->user >= 0 &&
	    s->uacc[j->user] >= s->c.max_accrue))
		return 0;
	j->accrue = arriving ? from : s->now;
	if (j->user >= 0)
		s->uacc[j->user]++;
	return 1;
}

/* Slurm's multifactor priority at time now: age capped at
 * PriorityMaxAge, size, fair-share (its factor fsf given), partition,
 * QOS, recorded priority */
static double
prio_of(const struct mg_slurmsim *s, const struct fjob *j, double fsf,
    int64_t now)
{
	int64_t age = now - accrue_from(s, j);
	double p;

	if (age < 0)
		age = 0;
	if (age > s->c.max_age)
		age = s->c.max_age;
	p = s->c.w_age * (double)age / (double)s->c.max_age +
	    s->c.w_size * (double)j->nodes / (double)s->c.nodes +
	    s->c.w_trace * j->tprio;
	if (s->c.w_fairshare > 0)
		p += s->c.w_fairshare * fsf;
	if (s->c.w_qos > 0 && j->qos >= 0)
		p += s->c.w_qos * qos_factor(s, j->qos);
	if (s->c.w_part > 0 && s->part_top > 0 && s->c.nparts > 0)
		p += s->c.w_part * s->c.part_prio[j->part] / s->part_top;
	if (j->urgent)
		p += s->c.w_urgent;
	if (j->low_until > now)
		p -= MG_VIEW_LOW;	/* behind every job that is not low */
	if (s->c.sjf)		/* shortest first, before any other factor */
		p += 1e8 * (1 - (double)(j->limit < 2592000 ? j->limit :
		    2592000) / 2592000);
	return p;
}

double
mg_slurmprio_priority(const struct mg_slurmsim *s, const struct fjob *j,
    const struct fsnow *fs)
{
	return prio_of(s, j, fairshare(s, j->fsh, fs), s->now);
}

/*
 * holder h's fair-share factor as of the last PriorityCalcPeriod's
 * start, computed when first asked for (Fair Tree's ranks are computed
 * at the period's start)
 */
static double
fs_factor(struct mg_slurmsim *s, int32_t h)
{
	if (h < 0 || s->c.w_fairshare <= 0)
		return 1;
	if (s->fsf_at[h] != s->calcs) {
		if (s->c.fs_by == MG_FS_TREE)
			s->fsf[h] = s->fst[h];
		else if (s->fs_total <= 0)
			s->fsf[h] = 1;
		else
			s->fsf[h] = exp2(-(s->usage[h] / s->fs_total) *
			    (double)s->fs_known);
		s->fsf_at[h] = s->calcs;
	}
	return s->fsf[h];
}

/* the priority Slurm gives j on its submission: fair-share as of the
 * last PriorityCalcPeriod */
static double
prio_submit(struct mg_slurmsim *s, const struct fjob *j)
{
	return prio_of(s, j, fs_factor(s, j->fsh), s->now);
}

/* e's priority as its job's is set now */
static void
pent_set(struct mg_slurmsim *s, struct pent *e)
{
	const struct fjob *j = &s->job[e->j];
	int64_t from = accrue_from(s, j);

	e->prio = prio_submit(s, j);
	/* only age and fair-share change a priority once set: without an
	 * age weight (the planner's model: the view's priorities, fixed),
	 * setting it again gives the same number */
	e->moving = s->c.w_fairshare > 0 || j->low_until > s->now ||
	    (s->c.w_age != 0 && from != NOT_YET && s->now - from <
	    s->c.max_age);
	e->calcs = (uint32_t)s->calcs;
}

/*
 * e's priority as set now: as set on its submission or at the last
 * PriorityCalcPeriod; a moving entry that the last period did not set
 * (without fair-share, one known to keep its place) has the priority of
 * the period's start, computed here as the period would have
 */
static double
value(const struct mg_slurmsim *s, const struct pent *e)
{
	if (!e->moving || e->calcs == (uint32_t)s->calcs)
		return e->prio;
	return prio_of(s, &s->job[e->j], 1, s->calc_at);
}

double
mg_slurmprio_value(const struct mg_slurmsim *s, const struct pent *e)
{
	return value(s, e);
}

void
mg_slurmprio_freeze(struct mg_slurmsim *s)
{
	size_t i;

	for (i = 0; i < s->npend; i++) {
		s->pend[i].prio = value(s, &s->pend[i]);
		s->pend[i].calcs = (uint32_t)s->calcs;
	}
	s->midx_ok = 0;
}

/* the pending order on the priorities as set now */

static int
vcmp(const struct mg_slurmsim *s, const struct pent *x, const struct pent *y)
{
	double a = value(s, x), b = value(s, y);

	if (a != b)
		return a > b ? -1 : 1;
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->trace < y->trace ? -1 : x->trace > y->trace;
}

/* a moving entry's slot: its age factor reaches its cap at cap */
static struct mslot
mslot_of(const struct mg_slurmsim *s, const struct pent *e, size_t pos)
{
	const struct fjob *j = &s->job[e->j];
	struct mslot m;

	m.pos = pos;
	m.j = e->j;
	m.prev = -1;
	m.cap = accrue_from(s, j) + s->c.max_age;
	return m;
}

/*
 * whether moving entries a and b (a before b) keep their order while
 * both move: their priorities rise alike (the age factor's), so they
 * do unless rounding can close the gap between them; or they are
 * computed from the same numbers (twins: the same eligible time, size
 * and other factors), and stay equal
 */
static int
keeps_order(const struct mg_slurmsim *s, const struct pent *a,
    const struct pent *b)
{
	const struct fjob *x = &s->job[a->j], *y = &s->job[b->j];
	double pa = value(s, a), pb = value(s, b);

	if (x->low_until > s->now || y->low_until > s->now)
		return 0;	/* one rises at once when its time comes */
	if (pa - pb > 1e-9 * (fabs(pa) + fabs(pb) + 1))
		return 1;
	return pa == pb && accrue_from(s, x) == accrue_from(s, y) &&
	    x->nodes == y->nodes && x->tprio == y->tprio &&
	    x->qos == y->qos && x->part == y->part && x->urgent == y->urgent &&
	    (!s->c.sjf || x->limit == y->limit);
}

/* room for n slots in s->midx */
static int
midx_reserve(struct mg_slurmsim *s, size_t n)
{
	struct mslot *p;

	if (n <= s->capmidx)
		return 0;
	n = n < 2 * s->capmidx ? 2 * s->capmidx : n < 64 ? 64 : n;
	if ((p = realloc(s->midx, n * sizeof(*p))) == NULL)
		return MG_ENOMEM;
	s->midx = p;
	s->capmidx = n;
	return 0;
}

/* the moving entries' slots, from a walk of the list: none known to
 * keep its place */
static int
midx_build(struct mg_slurmsim *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->npend; i++)
		n += s->pend[i].moving != 0;
	if (midx_reserve(s, n) != 0)
		return MG_ENOMEM;
	for (i = 0, n = 0; i < s->npend; i++)
		if (s->pend[i].moving)
			s->midx[n++] = mslot_of(s, &s->pend[i], i);
	s->nmidx = n;
	s->midx_ok = 1;
	return 0;
}

/* an entry (moving or not) entered the list at position lo */
static int
midx_insert(struct mg_slurmsim *s, size_t lo, int moving)
{
	size_t a = 0, b = s->nmidx, mid;

	if (!s->midx_ok)
		return 0;
	if (moving && midx_reserve(s, s->nmidx + 1) != 0)
		return MG_ENOMEM;
	while (a < b) {		/* the first slot at or after lo */
		mid = a + (b - a) / 2;
		if (s->midx[mid].pos < lo)
			a = mid + 1;
		else
			b = mid;
	}
	for (b = a; b < s->nmidx; b++)
		s->midx[b].pos++;
	if (moving) {
		memmove(s->midx + a + 1, s->midx + a, (s->nmidx - a) *
		    sizeof(*s->midx));
		s->midx[a] = mslot_of(s, &s->pend[lo], lo);
		s->nmidx++;
	}
	return 0;
}

void
mg_slurmprio_dropped(struct mg_slurmsim *s, size_t n, size_t w)
{
	size_t a, i, m = 0, rest;

	if (!s->midx_ok || w == 0)
		return;
	/* the first n entries are now the n - w at [0, n - w); the moving
	 * ones among them had the first a slots */
	for (a = 0; a < s->nmidx && s->midx[a].pos < n; a++)
		;
	for (i = 0; i < n - w; i++)
		m += s->pend[i].moving != 0;
	rest = s->nmidx - a;
	if (rest > 0 && m < a)
		memmove(s->midx + m, s->midx + a, rest * sizeof(*s->midx));
	for (i = m; i < m + rest; i++)
		s->midx[i].pos -= w;
	for (i = 0, m = 0; i < n - w; i++)
		if (s->pend[i].moving)
			s->midx[m++] = mslot_of(s, &s->pend[i], i);
	s->nmidx = m + rest;
}

/*
 * the first position in the sorted pend[0..hi] whose entry comes after
 * x, given that pend[hi] does: galloping back from hi (an entry moves
 * up a few places, or past a long run of capped equals), then a binary
 * search
 */
static size_t
upper(const struct mg_slurmsim *s, size_t hi, const struct pent *x)
{
	const struct pent *pend = s->pend;
	size_t lo, step = 1, mid;

	for (;;) {
		if (step > hi) {
			lo = 0;
			break;
		}
		if (vcmp(s, &pend[hi - step], x) <= 0) {
			lo = hi - step + 1;
			break;
		}
		hi -= step;
		step *= 2;
	}
	while (lo < hi) {	/* pend[hi] comes after x */
		mid = lo + (hi - lo) / 2;
		if (vcmp(s, &pend[mid], x) > 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return hi;
}

/*
 * Without fair-share only the moving entries can change places, and
 * among them only those that can pass the entry before them: a moving
 * entry after a moving one it is known to stay behind keeps its place
 * (both rise alike) and is not set (value() gives its priority); the
 * others, and those whose age factor reaches its cap now, are set and
 * move up past the entries they now come before, in the list's order,
 * as in a walk of the whole list.  An entry's move shifts only the ones
 * it passed, so the positions of those not yet looked at hold.
 */
static void
resort_moving(struct mg_slurmsim *s)
{
	size_t q, w = 0, a, k, p;

	for (q = 0; q < s->nmidx; q++) {
		struct mslot m = s->midx[q];
		struct pent *e, x;

		p = m.pos;
		if (m.cap > s->now && m.prev >= 0 && w > 0 &&
		    s->midx[w - 1].pos + 1 == p &&
		    s->midx[w - 1].j == m.prev) {
			s->midx[w++] = m;	/* stays behind it */
			continue;
		}
		e = &s->pend[p];
		pent_set(s, e);
		k = p;
		if (p > 0 && vcmp(s, &s->pend[p - 1], e) > 0) {
			x = *e;
			k = upper(s, p - 1, &x);
			memmove(s->pend + k + 1, s->pend + k, (p - k) *
			    sizeof(*s->pend));
			s->pend[k] = x;
		}
		/* the moving entries it passed moved down one */
		for (a = w; a > 0 && s->midx[a - 1].pos >= k; a--)
			s->midx[a - 1].pos++;
		if (s->pend[k].moving) {
			m.pos = k;
			m.prev = a > 0 && s->midx[a - 1].pos + 1 == k &&
			    keeps_order(s, &s->pend[k - 1], &s->pend[k]) ?
			    s->midx[a - 1].j : -1;
			memmove(s->midx + a + 1, s->midx + a, (w - a) *
			    sizeof(*s->midx));
			s->midx[a] = m;
			w++;
		}
	}
	s->nmidx = w;
}

/*
 * Slurm sets the pending jobs' priorities every PriorityCalcPeriod (the
 * multifactor plugin's decay thread) and a job's on its submission;
 * the schedulers use them as set.  This is that thread's run at the
 * last period's start at or before now (usage is exact there: it was
 * last brought up to date at an event before it): usage decays, the
 * fair-share factors and every pending job's priority are set, and the
 * list is sorted again (it is nearly sorted).
 */
int
mg_slurmprio_recalc(struct mg_slurmsim *s)
{
	int64_t now = s->now, cp = s->c.calc_period > 0 ? s->c.calc_period :
	    300;
	size_t i, k;

	s->now = now - ((now % cp) + cp) % cp;
	if (s->now < s->calc_at)
		s->now = now;	/* a warm start inside a period */
	decay(s);
	s->calc_at = s->now;
	s->calcs++;
	if (s->npend > 0)	/* each pending job's priority is set */
		s->upd = now;
	/* MaxJobsAccrue: waiting jobs admitted where room was made, in the
	 * list's order; each keeps its place (its age is 0 now) and rises
	 * from here */
	for (i = 0; capped(s) && i < s->npend; i++)
		if (admit(s, &s->job[s->pend[i].j], 0)) {
			pent_set(s, &s->pend[i]);
			s->midx_ok = 0;
		}
	if (s->c.w_fairshare > 0) {
		if (s->c.fs_by == MG_FS_TREE) {
			if (fair_tree(s, s->fst) != 0) {
				s->now = now;
				return MG_ENOMEM;
			}
			s->fst_at = s->now;
		}
		s->fs_known = known(s);
	}
	/*
	 * A job whose age factor reached its cap keeps its priority (when
	 * fair-share is off), and stays behind every job before it, which
	 * kept or raised theirs; the others rise, a little.  The list stays
	 * nearly in order, and insertion sort is linear on it.
	 */
	if (s->c.w_fairshare <= 0) {
		if (!s->midx_ok && midx_build(s) != 0) {
			s->now = now;
			return MG_ENOMEM;
		}
		resort_moving(s);
		s->next_calc = s->now + cp;
		s->now = now;
		return 0;
	}
	for (i = 0; i < s->npend; i++) {
		struct pent *e = &s->pend[i], x;

		/* set in place: most entries stay where they are */
		if (e->moving)
			pent_set(s, e);
		k = i;
		if (i > 0 && pent_cmp(&s->pend[i - 1], e) > 0) {
			x = *e;
			for (; k > 0 && pent_cmp(&s->pend[k - 1], &x) > 0; k--)
				s->pend[k] = s->pend[k - 1];
			s->pend[k] = x;
		}
	}
	s->next_calc = s->now + cp;
	s->now = now;
	return 0;
}

/* room for n pending jobs from pend[0] */
static int
reserve_pending(struct mg_slurmsim *s, size_t n)
{
	struct pent *p = mg_reserve_head((void **)&s->pbuf, &s->cappend,
	    &s->phead, s->npend, n, sizeof(*s->pbuf));

	if (p == NULL)
		return MG_ENOMEM;
	s->pend = p;
	return 0;
}

/* a job enters the pending list at its priority's place */
int
mg_slurmprio_enqueue(struct mg_slurmsim *s, int32_t jr)
{
	struct pent x;
	size_t lo = 0, hi = s->npend, mid;

	if (reserve_pending(s, s->npend + 1))
		return MG_ENOMEM;
	if (capped(s))
		(void)admit(s, &s->job[jr], 1);
	x.j = jr;
	x.submit = s->job[jr].submit;
	x.trace = s->job[jr].trace;
	pent_set(s, &x);
	s->upd = s->now;
	while (lo < hi) {	/* the first job that comes after it */
		mid = lo + (hi - lo) / 2;
		if (vcmp(s, &s->pend[mid], &x) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(s->pend + lo + 1, s->pend + lo, (s->npend - lo) *
	    sizeof(*s->pend));
	s->pend[lo] = x;
	s->npend++;
	/* the queue stays in its order around the job placed */
	assert(lo == 0 || vcmp(s, &s->pend[lo - 1], &s->pend[lo]) <= 0);
	assert(lo + 1 == s->npend || vcmp(s, &s->pend[lo],
	    &s->pend[lo + 1]) < 0);
	return midx_insert(s, lo, x.moving != 0);
}

/* a batch's entry and its arrival rank (ties keep arrival order) */
struct bent {
	struct pent p;
	size_t rank;
};

static int
bent_cmp(const void *a, const void *b)
{
	const struct bent *x = a, *y = b;
	int c = pent_cmp(&x->p, &y->p);

	return c != 0 ? c : x->rank < y->rank ? -1 : x->rank > y->rank;
}

/*
 * The m jobs jr[] arrive now at once (a warm start's queue: thousands):
 * the same list as m calls of mg_slurmprio_enqueue(), each placed after
 * every entry that does not come after it, in O((n + m) log m) instead
 * of O(n m):
 * the batch sorted (ties in arrival order), then merged, old entries
 * before new ones on ties.
 */
int
mg_slurmprio_enqueue_batch(struct mg_slurmsim *s, const int32_t *jr, size_t m)
{
	struct bent *x = malloc(m * sizeof(*x));
	size_t i, k, w, n = s->npend;

	if (x == NULL || reserve_pending(s, n + m)) {
		free(x);
		return MG_ENOMEM;
	}
	for (k = 0; k < m; k++) {
		if (capped(s))
			(void)admit(s, &s->job[jr[k]], 1);
		x[k].p.j = jr[k];
		x[k].p.submit = s->job[jr[k]].submit;
		x[k].p.trace = s->job[jr[k]].trace;
		pent_set(s, &x[k].p);
		x[k].rank = k;
	}
	qsort(x, m, sizeof(*x), bent_cmp);
	for (i = n, k = m, w = n + m; k > 0; ) {
		if (i > 0 && vcmp(s, &s->pend[i - 1], &x[k - 1].p) > 0)
			s->pend[--w] = s->pend[--i];
		else
			s->pend[--w] = x[--k].p;
	}
	free(x);
	s->npend = n + m;
	s->upd = s->now;
	s->midx_ok = 0;		/* found again by the next walk */
	return 0;
}

