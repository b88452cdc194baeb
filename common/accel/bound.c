/*
 * bound.c: the offline bound on deadlines met; see bound.h.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glpk.h>

#include "accel/bound.h"
#include "base/dynload.h"

/* GLPK, loaded when first used (see base/dynload.h) */
#ifndef MG_GLPK_SONAME
#define MG_GLPK_SONAME "libglpk.so.40"
#endif
#define GLP_FUNCS(X) X(create_prob) X(delete_prob) X(set_obj_dir) \
	X(add_rows) X(add_cols) X(set_row_bnds) X(set_col_bnds) \
	X(set_obj_coef) X(set_col_kind) X(load_matrix) X(init_smcp) \
	X(simplex) X(get_status) X(get_obj_val) X(init_iocp) X(intopt) \
	X(mip_status) X(mip_obj_val) X(term_out)
#define FIELD(f) __typeof__(glp_##f) *f;
#define NAME(f) "glp_" #f,
static struct {
	GLP_FUNCS(FIELD)
} glp;
static const char *const glp_names[] = { GLP_FUNCS(NAME) };
static struct mg_dynlib glp_lib = { MG_GLPK_SONAME, "libglpk40", glp_names,
	sizeof(glp_names) / sizeof(glp_names[0]), &glp, 0, "" };

#define MAXGRP 64		/* a network's groups at most */
#define BLOCK 200		/* a problem's requests at most */
#define EXACT_MS 20000		/* a block's branch and cut at most */

/* a network's layers of one kind and one ratio between the dataflows */
struct grp {
	double t[MG_DF_N];	/* their seconds on each, in mean units */
	double rho[MG_DF_N];	/* the fewest bytes per second, over B */
};

struct netg {
	struct grp g[MAXGRP];
	int n;
};

/* the state of one bound */
struct bnd {
	const struct mg_accel_request *req;
	struct netg *ng;
	int count[MG_DF_N];	/* sub-accelerators of each dataflow */
	double unit;		/* the networks' mean isolated latency */
	/* a block's scratch */
	double *ev;
	size_t *lo, *hi;
	int *ia, *ja;
	double *ar;
};

/* network k's layers grouped (bound.h); MG_EINVAL if there are more
 * groups than MAXGRP */
static int
group(const struct mg_net *net, double unit, double bw, struct netg *ng)
{
	size_t l;
	int g, d;
	double kr[MAXGRP];
	int kk[MAXGRP];

	memset(ng, 0, sizeof(*ng));
	for (l = 0; l < net->n; l++) {
		const struct mg_layer *y = &net->l[l];
		double r = y->cost[MG_DF_RS].time > 0 ?
		    y->cost[MG_DF_WS].time / y->cost[MG_DF_RS].time : 0;

		for (g = 0; g < ng->n; g++)
			if (kk[g] == y->kind && fabs(kr[g] - r) <= 1e-9 * r)
				break;
		if (g == ng->n) {
			if (ng->n == MAXGRP)
				return MG_EINVAL;
			kk[g] = y->kind;
			kr[g] = r;
			for (d = 0; d < MG_DF_N; d++)
				ng->g[g].rho[d] = INFINITY;
			ng->n++;
		}
		for (d = 0; d < MG_DF_N; d++) {
			ng->g[g].t[d] += y->cost[d].time / unit;
			if (y->cost[d].bw / bw < ng->g[g].rho[d])
				ng->g[g].rho[d] = y->cost[d].bw / bw;
		}
	}
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the index of t in ev[0..m) (present) */
static size_t
find(const double *ev, size_t m, double t)
{
	size_t a = 0, b = m;

	while (b - a > 1) {
		size_t h = a + (b - a) / 2;

		if (ev[h] <= t)
			a = h;
		else
			b = h;
	}
	return a;
}

/* an entry of the matrix */
static void
put(struct bnd *b, size_t *nz, size_t row, int col, double v)
{
	if (v == 0)
		return;
	++*nz;
	b->ia[*nz] = (int)row + 1;
	b->ja[*nz] = col;
	b->ar[*nz] = v;
}

/*
 * requests [i0, i1) as one problem: their bound into *met, whether it
 * was exact into *exact, the variables into *cols
 */
static int
block(struct bnd *b, size_t i0, size_t i1, int want_exact, double *met,
    int *exact, size_t *cols, struct mg_diag *d)
{
	size_t nb = i1 - i0, m = 0, j, k, nrow = 0, ncol, nz = 0, capb, bwb;
	size_t *grow, *jrow;
	glp_prob *lp;
	glp_smcp sp;
	glp_iocp ip;
	int g, f, rv = 0, col;

	for (j = 0; j < nb; j++) {
		b->ev[m++] = b->req[i0 + j].arrival / b->unit;
		b->ev[m++] = b->req[i0 + j].deadline / b->unit;
	}
	qsort(b->ev, m, sizeof(*b->ev), cmp_double);
	for (j = k = 0; j < m; j++)
		if (k == 0 || b->ev[j] > b->ev[k - 1])
			b->ev[k++] = b->ev[j];
	m = k;
	/* the rows: each request's groups, each request's intervals, each
	 * interval's dataflows and its bandwidth; the columns: y, then x */
	grow = malloc((2 * nb + 1) * sizeof(*grow));
	if (grow == NULL)
		return MG_ENOMEM;
	jrow = grow + nb;
	ncol = nb;
	for (j = 0; j < nb; j++) {
		const struct netg *ng = &b->ng[b->req[i0 + j].net];
		size_t span;

		b->lo[j] = find(b->ev, m, b->req[i0 + j].arrival / b->unit);
		b->hi[j] = find(b->ev, m, b->req[i0 + j].deadline / b->unit);
		span = b->hi[j] - b->lo[j];
		grow[j] = nrow;
		nrow += (size_t)ng->n;
		for (g = 0; g < ng->n; g++)
			for (f = 0; f < MG_DF_N; f++)
				if (b->count[f] > 0 && ng->g[g].t[f] > 0) {
					ncol += span;
					nz += 4 * span;
				}
		nz += (size_t)ng->n;
	}
	for (j = 0; j < nb; j++) {
		jrow[j] = nrow;
		nrow += b->hi[j] - b->lo[j];
	}
	capb = nrow;
	nrow += (m - 1) * MG_DF_N;
	bwb = nrow;
	nrow += m - 1;
	free(b->ia);
	free(b->ja);
	free(b->ar);
	b->ia = malloc((nz + 1) * sizeof(*b->ia));
	b->ja = malloc((nz + 1) * sizeof(*b->ja));
	b->ar = malloc((nz + 1) * sizeof(*b->ar));
	if (b->ia == NULL || b->ja == NULL || b->ar == NULL || nrow > INT_MAX ||
	    ncol > INT_MAX || nz > INT_MAX) {
		free(grow);
		return MG_ENOMEM;
	}
	lp = glp.create_prob();
	glp.set_obj_dir(lp, GLP_MAX);
	glp.add_rows(lp, (int)nrow);
	glp.add_cols(lp, (int)ncol);
	for (k = 0; k + 1 < m; k++) {
		double len = b->ev[k + 1] - b->ev[k];

		for (f = 0; f < MG_DF_N; f++)
			glp.set_row_bnds(lp, (int)(capb + k * MG_DF_N +
			    (size_t)f) + 1, GLP_UP, 0, b->count[f] * len);
		glp.set_row_bnds(lp, (int)(bwb + k) + 1, GLP_UP, 0, len);
	}
	nz = 0;
	col = (int)nb;
	for (j = 0; j < nb; j++) {
		const struct netg *ng = &b->ng[b->req[i0 + j].net];

		glp.set_col_bnds(lp, (int)j + 1, GLP_DB, 0, 1);
		glp.set_obj_coef(lp, (int)j + 1, 1);
		for (k = b->lo[j]; k < b->hi[j]; k++)
			glp.set_row_bnds(lp, (int)(jrow[j] + k - b->lo[j]) + 1,
			    GLP_UP, 0, b->ev[k + 1] - b->ev[k]);
		for (g = 0; g < ng->n; g++) {
			const struct grp *gp = &ng->g[g];
			size_t gr = grow[j] + (size_t)g;

			glp.set_row_bnds(lp, (int)gr + 1, GLP_LO, 0, 0);
			put(b, &nz, gr, (int)j + 1, -1);
			for (f = 0; f < MG_DF_N; f++) {
				if (b->count[f] == 0 || !(gp->t[f] > 0))
					continue;
				for (k = b->lo[j]; k < b->hi[j]; k++) {
					glp.set_col_bnds(lp, ++col, GLP_LO, 0,
					    0);
					put(b, &nz, gr, col, 1 / gp->t[f]);
					put(b, &nz, jrow[j] + k - b->lo[j], col,
					    1);
					put(b, &nz, capb + k * MG_DF_N +
					    (size_t)f, col, 1);
					put(b, &nz, bwb + k, col, gp->rho[f]);
				}
			}
		}
	}
	free(grow);
	glp.load_matrix(lp, (int)nz, b->ia, b->ja, b->ar);
	glp.init_smcp(&sp);
	sp.msg_lev = GLP_MSG_OFF;
	*exact = 0;
	*cols = ncol;
	if (glp.simplex(lp, &sp) != 0 || glp.get_status(lp) != GLP_OPT) {
		rv = mg_diag_set(d, MG_EIO, "GLPK found no optimum for a "
		    "block of %zu requests", nb);
		goto out;
	}
	*met = floor(glp.get_obj_val(lp) + 1e-6);
	if (!want_exact)
		goto out;
	for (j = 0; j < nb; j++)
		glp.set_col_kind(lp, (int)j + 1, GLP_BV);
	glp.init_iocp(&ip);
	ip.msg_lev = GLP_MSG_OFF;
	ip.tm_lim = EXACT_MS;
	if (glp.intopt(lp, &ip) == 0 && glp.mip_status(lp) == GLP_OPT) {
		*met = floor(glp.mip_obj_val(lp) + 1e-6);
		*exact = 1;
	}
out:
	glp.delete_prob(lp);
	return rv;
}

int
mg_accel_bound(const struct mg_accel_config *c, const struct mg_net *nets,
    size_t nnets, const struct mg_accel_request *req, size_t n,
    size_t exact_max, struct mg_abound *out, struct mg_diag *d)
{
	struct bnd b;
	size_t i, j, k;
	double end;
	int rv = 0, s;

	memset(out, 0, sizeof(*out));
	if (c->nsa <= 0 || c->nsa > MG_ACCEL_MAXSA || !(c->bw > 0) ||
	    nnets == 0)
		return MG_EINVAL;
	for (i = 0; i < n; i++)
		if (req[i].net < 0 || (size_t)req[i].net >= nnets ||
		    (i > 0 && req[i].arrival < req[i - 1].arrival) ||
		    !(req[i].deadline >= req[i].arrival))
			return MG_EINVAL;
	if ((rv = mg_dynload(&glp_lib, d)) != 0)
		return rv;
	glp.term_out(GLP_OFF);
	memset(&b, 0, sizeof(b));
	b.req = req;
	for (s = 0; s < c->nsa; s++)
		b.count[c->df[s]]++;
	for (k = 0; k < nnets; k++)
		b.unit += nets[k].best / (double)nnets;
	if (!(b.unit > 0))
		return MG_EINVAL;
	b.ng = calloc(nnets, sizeof(*b.ng));
	b.ev = malloc((2 * n + 1) * sizeof(*b.ev));
	b.lo = malloc((n + 1) * sizeof(*b.lo));
	b.hi = malloc((n + 1) * sizeof(*b.hi));
	if (b.ng == NULL || b.ev == NULL || b.lo == NULL || b.hi == NULL) {
		rv = MG_ENOMEM;
		goto out;
	}
	for (k = 0; k < nnets; k++)
		if (group(&nets[k], b.unit, c->bw, &b.ng[k]) != 0) {
			rv = mg_diag_set(d, MG_EINVAL, "network '%s' has more "
			    "than %d kinds of layer", nets[k].name, MAXGRP);
			goto out;
		}
	for (i = 0; i < n; i = j) {
		double met = 0;
		int ex;
		size_t cols;

		end = req[i].deadline;
		/* a longer block is cut: each part alone has all the
		 * system for itself, which only raises the bound */
		for (j = i + 1; j < n && req[j].arrival < end && j - i < BLOCK;
		    j++)
			if (req[j].deadline > end)
				end = req[j].deadline;
		if ((rv = block(&b, i, j, j - i <= exact_max, &met, &ex, &cols,
		    d)) != 0)
			goto out;
		out->met += met;
		out->blocks++;
		out->exact += (size_t)ex;
		out->cols += cols;
		if (j - i > out->largest)
			out->largest = j - i;
	}
out:
	free(b.ng);
	free(b.ev);
	free(b.lo);
	free(b.hi);
	free(b.ia);
	free(b.ja);
	free(b.ar);
	return rv;
}
