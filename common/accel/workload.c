/*
 * workload.c: the networks' layers and their costs; see workload.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/workload.h"
#include "base/mem.h"

const char *const mg_net_names[MG_NNETS] = { "resnet50", "mobilenetv2",
	"vgg16", "bert", "lstm" };

/* Illustrative constants (workload.h): utilisation of the PEs by layer
 * kind, and how many times weights and activations cross DRAM */
static const double util[MG_DF_N][MG_L_NKIND] = {
	/* conv  dw    fc    gemm  rnn */
	{ 0.85, 0.06, 0.60, 0.80, 0.20 },	/* WS */
	{ 0.65, 0.55, 0.35, 0.45, 0.35 },	/* RS */
};
static const double fw[MG_DF_N][MG_L_NKIND] = {
	{ 1.0, 1.0, 1.0, 1.0, 6.0 },
	{ 1.5, 1.0, 1.2, 1.5, 4.0 },
};
static const double fa[MG_DF_N][MG_L_NKIND] = {
	{ 1.5, 2.0, 1.0, 1.2, 1.0 },
	{ 1.0, 1.0, 1.0, 1.0, 1.0 },
};
static const double e_mac[MG_DF_N] = { 0.5e-12, 0.6e-12 };	/* J */
static const double e_dram = 100e-12;				/* J/byte */

struct build {
	struct mg_net *net;
	size_t cap;
	int err;
};

static void
add(struct build *b, int kind, double macs, double w, double ain,
    double aout)
{
	struct mg_layer *l;

	if (b->err || mg_grow((void **)&b->net->l, &b->cap, b->net->n + 1,
	    sizeof(*b->net->l))) {
		b->err = 1;
		return;
	}
	l = &b->net->l[b->net->n++];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->macs = macs;
	l->wbytes = w;
	l->ain = ain;
	l->aout = aout;
}

/* a convolution of k x k, groups g, to an h x h output (stride s) */
static void
conv(struct build *b, int cin, int cout, int k, int h, int s, int g)
{
	double hw = (double)h * h;

	add(b, g > 1 ? MG_L_DW : MG_L_CONV, hw * cout * (cin / g) * k * k,
	    (double)cout * (cin / g) * k * k, hw * s * s * cin, hw * cout);
}

static void
fc(struct build *b, int in, int out)
{
	add(b, MG_L_FC, (double)in * out, (double)in * out, in, out);
}

/* an m x k by k x n product, weights (k x n) when w */
static void
gemm(struct build *b, int m, int k, int n, int w)
{
	add(b, MG_L_GEMM, (double)m * k * n, w ? (double)k * n : 0,
	    (double)m * k + (w ? 0 : (double)k * n), (double)m * n);
}

static void
resnet50(struct build *b)
{
	static const int blocks[4] = { 3, 4, 6, 3 }, mid[4] = { 64, 128, 256,
	    512 }, hw[4] = { 56, 28, 14, 7 };
	int st, i, cin = 64;

	conv(b, 3, 64, 7, 112, 2, 1);
	for (st = 0; st < 4; st++)
		for (i = 0; i < blocks[st]; i++) {
			int s = i == 0 && st > 0 ? 2 : 1, out = mid[st] * 4;

			conv(b, cin, mid[st], 1, hw[st], 1, 1);
			conv(b, mid[st], mid[st], 3, hw[st], s, 1);
			conv(b, mid[st], out, 1, hw[st], 1, 1);
			if (i == 0)	/* the projection */
				conv(b, cin, out, 1, hw[st], s, 1);
			cin = out;
		}
	fc(b, 2048, 1000);
}

static void
mobilenetv2(struct build *b)
{
	static const int t[7] = { 1, 6, 6, 6, 6, 6, 6 }, c[7] = { 16, 24, 32,
	    64, 96, 160, 320 }, n[7] = { 1, 2, 3, 4, 3, 3, 1 }, s[7] = { 1, 2,
	    2, 2, 1, 2, 1 };
	int st, i, cin = 32, h = 112;

	conv(b, 3, 32, 3, 112, 2, 1);
	for (st = 0; st < 7; st++)
		for (i = 0; i < n[st]; i++) {
			int stride = i == 0 ? s[st] : 1, e = cin * t[st];
			int ho = h / stride;

			if (t[st] != 1)
				conv(b, cin, e, 1, h, 1, 1);
			conv(b, e, e, 3, ho, stride, e);
			conv(b, e, c[st], 1, ho, 1, 1);
			cin = c[st];
			h = ho;
		}
	conv(b, 320, 1280, 1, 7, 1, 1);
	fc(b, 1280, 1000);
}

static void
vgg16(struct build *b)
{
	static const int c[13] = { 64, 64, 128, 128, 256, 256, 256, 512, 512,
	    512, 512, 512, 512 }, h[13] = { 224, 224, 112, 112, 56, 56, 56,
	    28, 28, 28, 14, 14, 14 };
	int i, cin = 3;

	for (i = 0; i < 13; i++) {
		conv(b, cin, c[i], 3, h[i], 1, 1);
		cin = c[i];
	}
	fc(b, 25088, 4096);
	fc(b, 4096, 4096);
	fc(b, 4096, 1000);
}

static void
bert(struct build *b)
{
	int i;

	for (i = 0; i < 12; i++) {
		gemm(b, 128, 768, 2304, 1);	/* Q, K, V */
		gemm(b, 128, 64 * 12, 128, 0);	/* scores, 12 heads */
		gemm(b, 128, 128 * 12, 64, 0);	/* weighted values */
		gemm(b, 128, 768, 768, 1);	/* output projection */
		gemm(b, 128, 768, 3072, 1);	/* feed-forward */
		gemm(b, 128, 3072, 768, 1);
	}
}

static void
lstm(struct build *b)
{
	int i;

	for (i = 0; i < 4; i++)	/* 25 steps of 4 gates, 1024 units */
		add(b, MG_L_RNN, 25.0 * 4 * 1024 * 2048, 4.0 * 1024 * 2048,
		    25.0 * 2048, 25.0 * 1024);
}

/* the costs of net's layers on each dataflow, and its best one */
static void
net_cost(struct mg_net *net, int pes)
{
	double tot[MG_DF_N] = { 0, 0 };
	size_t i;
	int df;

	for (i = 0; i < net->n; i++) {
		struct mg_layer *l = &net->l[i];

		for (df = 0; df < MG_DF_N; df++) {
			double t = l->macs / ((double)pes * 1e9 *
			    util[df][l->kind]);
			double tr = l->wbytes * fw[df][l->kind] + (l->ain +
			    l->aout) * fa[df][l->kind];

			l->cost[df].time = t;
			l->cost[df].bw = t > 0 ? tr / t : 0;
			l->cost[df].energy = l->macs * e_mac[df] + tr * e_dram;
			tot[df] += t;
		}
	}
	net->best_df = tot[MG_DF_RS] < tot[MG_DF_WS] ? MG_DF_RS : MG_DF_WS;
	net->best = tot[net->best_df];
}

int
mg_net_build(const char *name, int pes, struct mg_net *out)
{
	struct build b;

	memset(out, 0, sizeof(*out));
	b.net = out;
	b.cap = 0;
	b.err = 0;
	if (strcmp(name, "resnet50") == 0)
		resnet50(&b);
	else if (strcmp(name, "mobilenetv2") == 0)
		mobilenetv2(&b);
	else if (strcmp(name, "vgg16") == 0)
		vgg16(&b);
	else if (strcmp(name, "bert") == 0)
		bert(&b);
	else if (strcmp(name, "lstm") == 0)
		lstm(&b);
	else
		return MG_EINVAL;
	if (b.err) {
		mg_net_free(out);
		return MG_ENOMEM;
	}
	snprintf(out->name, sizeof(out->name), "%s", name);
	net_cost(out, pes);
	return 0;
}

/* a cost table's bounds: lines, and what a layer can cost */
#define COST_MAXLINES	100000
#define COST_MAXTIME	3600.0		/* seconds a layer takes */
#define COST_MAXBYTES	1e15
#define COST_MAXJOULES	1e6

/* one line of fp into buf: 1, 0 at the end, -1 if longer than cap - 1,
 * -2 if it holds a NUL byte (not text) */
static int
cost_line(FILE *fp, char *buf, size_t cap)
{
	size_t n = 0;
	int c;

	while ((c = getc(fp)) != EOF) {
		if (c == '\0')
			return -2;
		if (n + 1 >= cap)
			return -1;
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	buf[n] = '\0';
	return n > 0 ? 1 : 0;
}

int
mg_net_read_costs(struct mg_net *net, const char *path, struct mg_diag *d)
{
	FILE *fp = fopen(path, "r");
	char line[512], df[8];
	size_t lineno = 0, i;
	double tot[MG_DF_N] = { 0, 0 };
	int rv = 0, got;

	if (fp == NULL)
		return mg_diag_set(d, MG_EIO, "cannot open '%s': %s", path,
		    strerror(errno));
	while (rv == 0 && (got = cost_line(fp, line, sizeof(line))) != 0) {
		char *h;
		unsigned long k;
		double t, by, e;
		int f, used = 0;

		lineno++;
		if (got < 0 || lineno > COST_MAXLINES) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s': line %zu: %s: "
			    "not a cost table", path, lineno, got == -2 ?
			    "a NUL byte" : got == -1 ? "longer than 511 "
			    "bytes" : "more lines than any table has");
			break;
		}
		h = strchr(line, '#');
		if (h != NULL)
			*h = '\0';
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (sscanf(line, " %lu , %7[a-z] , %lf , %lf , %lf %n", &k, df,
		    &t, &by, &e, &used) != 5 || line[used] != '\0' ||
		    k >= net->n || (f = strcmp(df, "ws") == 0 ? MG_DF_WS :
		    strcmp(df, "rs") == 0 ? MG_DF_RS : -1) < 0) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s': line %zu: not "
			    "\"layer,ws|rs,seconds,bytes,joules\" of one of "
			    "%s's %zu layers", path, lineno, net->name, net->n);
			break;
		}
		/* finite, and what a layer can cost (inf or 1e308 seconds
		 * would make every time and energy infinite or NaN) */
		if (!(t > 0 && t <= COST_MAXTIME) || !(by >= 0 &&
		    by <= COST_MAXBYTES) || !(e >= 0 && e <= COST_MAXJOULES)) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s': line %zu: a "
			    "layer takes more than 0 and at most %g seconds, "
			    "at most %g bytes and %g joules", path, lineno,
			    COST_MAXTIME, COST_MAXBYTES, COST_MAXJOULES);
			break;
		}
		net->l[k].cost[f].time = t;
		net->l[k].cost[f].bw = by / t;
		net->l[k].cost[f].energy = e;
	}
	fclose(fp);
	if (rv != 0)
		return rv;
	for (i = 0; i < net->n; i++) {
		tot[MG_DF_WS] += net->l[i].cost[MG_DF_WS].time;
		tot[MG_DF_RS] += net->l[i].cost[MG_DF_RS].time;
	}
	net->best_df = tot[MG_DF_RS] < tot[MG_DF_WS] ? MG_DF_RS : MG_DF_WS;
	net->best = tot[net->best_df];
	return 0;
}

void
mg_net_free(struct mg_net *net)
{
	free(net->l);
	net->l = NULL;
	net->n = 0;
}
