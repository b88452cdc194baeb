/*
 * model.c: models of when to submit and their file format; see model.h
 * and mirage-model(5).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "learn/model.h"
#include "learn/gbt.h"
#include "learn/nn.h"
#include "learn/rl.h"
#include "learn/pairnet.h"
#include "base/mem.h"
#include "base/parse.h"
#include "base/stats.h"
#include "learn/svr.h"
#include "episode/episode.h"

static const unsigned char magic[8] = { 0x89, 'M', 'R', 'M', '\r', '\n',
	0x1a, '\n' };

void
mg_trainopts_init(struct mg_trainopts *o)
{
	memset(o, 0, sizeof(*o));
	o->rounds = 200;
	o->depth = 6;
	o->eta = 0.1;
	o->trees = 100;
	o->subsample = 0.8;
	o->colsample = 0.5;
	o->C = 10;
	o->epsilon = 0.1;
	o->gamma = 0;
	o->threads = 1;
	o->seed = 1;
}

/* the kinds of model: which backend holds one, what it is, what its
 * score means (out), its threshold by default */
enum backend { B_TREES, B_SVR, B_MLP, B_PAIRNET };
enum out { O_X, O_PROB, O_QDIFF, O_RAW };

static const struct kind {
	const char *name;
	enum backend backend;
	unsigned flags;		/* MG_KIND_* */
	enum out out;
	double threshold;
} kinds[] = {
	{ "gbt", B_TREES, MG_KIND_WHEN, O_X, 0.5 },
	{ "rf", B_TREES, MG_KIND_WHEN, O_X, 0.5 },
	{ "clf", B_TREES, MG_KIND_WHEN | MG_KIND_CLASSIFIER, O_PROB, 0.5 },
	{ "svr", B_SVR, MG_KIND_WHEN | MG_KIND_SMALL, O_X, 0.5 },
	{ "dqn", B_MLP, MG_KIND_WHEN | MG_KIND_EPISODES | MG_KIND_CLASSIFIER,
	    O_QDIFF, 0 },
	{ "pg", B_MLP, MG_KIND_WHEN | MG_KIND_EPISODES | MG_KIND_CLASSIFIER |
	    MG_KIND_POLICY, O_PROB, 0.5 },
	{ "relmas", B_PAIRNET, MG_KIND_EPISODES | MG_KIND_CLASSIFIER, O_RAW,
	    0.5 }
};

static const struct kind *
kind_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].name, name) == 0)
			return &kinds[i];
	return NULL;
}

unsigned
mg_model_kind(const char *name)
{
	const struct kind *k = kind_of(name);

	return k != NULL ? k->flags | MG_KIND_KNOWN : 0;
}

/* a known kind's backend (every model made or read has one) */
static enum backend
backend_of(const struct mg_model *m)
{
	return kind_of(m->kind)->backend;
}

int
mg_model_new(const char *kind, char *const *names, size_t n,
    struct mg_model **out, struct mg_diag *d)
{
	const struct kind *k;
	struct mg_model *m;
	size_t i;

	*out = NULL;
	if ((k = kind_of(kind)) == NULL)
		return mg_diag_set(d, MG_EINVAL, "unknown model kind '%s' (want "
		    "gbt, rf, clf, svr, dqn, pg or relmas)", kind);
	if (n == 0)
		return mg_diag_set(d, MG_EINVAL, "a model needs features");
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return MG_ENOMEM;
	snprintf(m->kind, sizeof(m->kind), "%s", kind);
	m->classifier = (k->flags & MG_KIND_CLASSIFIER) != 0;
	m->threshold = k->threshold;
	m->features_version = MG_FEATURES_VERSION;
	m->nfeat = n;
	m->names = calloc(n, sizeof(*m->names));
	m->mean = calloc(n, sizeof(*m->mean));
	m->scale = calloc(n, sizeof(*m->scale));
	if (m->names == NULL || m->mean == NULL || m->scale == NULL)
		goto nomem;
	for (i = 0; i < n; i++) {
		if ((m->names[i] = strdup(names[i])) == NULL)
			goto nomem;
		m->scale[i] = 1;
	}
	*out = m;
	return 0;
nomem:
	mg_model_free(m);
	return MG_ENOMEM;
}

void
mg_model_free(struct mg_model *m)
{
	size_t i;

	if (m == NULL)
		return;
	if (m->impl && backend_of(m) == B_TREES)
		mg_gbt_free(m->impl);
	else if (m->impl && backend_of(m) == B_PAIRNET) {
		mg_pairnet_free(m->impl);
		free(m->impl);
	} else if (m->impl && backend_of(m) == B_MLP)
		mg_mlp_free(m->impl);
	else if (m->impl)
		mg_svr_free(m->impl);
	for (i = 0; m->names && i < m->nfeat; i++)
		free(m->names[i]);
	free(m->names);
	free(m->mean);
	free(m->scale);
	free(m->params);
	free(m->producer);
	free(m->args);
	free(m->cal_x);
	free(m->cal_y);
	free(m->cluster);
	free(m->payload);
	free(m);
}

/*
 * A twin of m trained on the first 80 % of the samples (they are in time
 * order): its predictions for the last 20 % into *p, from sample *cut.
 * Their number, 0 if there are too few samples; or a negative status.
 */
static int64_t
twin_predict(const struct mg_model *m, const float *X, const float *y,
    size_t n, const struct mg_trainopts *to, size_t *cut, double **p,
    struct mg_diag *d)
{
	struct mg_model *twin;
	size_t nt;
	int rv;

	*cut = n * 4 / 5;
	nt = n - *cut;
	*p = NULL;
	if (*cut < 2 || nt < 10)
		return 0;
	if ((rv = mg_model_new(m->kind, m->names, m->nfeat, &twin, d)) != 0)
		return rv;
	if ((rv = mg_model_train(twin, X, y, *cut, to, d)) != 0 ||
	    (*p = malloc(nt * sizeof(**p))) == NULL) {
		mg_model_free(twin);
		return rv != 0 ? rv : mg_diag_set(d, MG_ENOMEM, "out of "
		    "memory");
	}
	if ((rv = mg_model_predict(twin, X + *cut * m->nfeat, nt, *p, d)) !=
	    0) {
		free(*p);
		*p = NULL;
	}
	mg_model_free(twin);
	return rv != 0 ? rv : (int64_t)nt;
}

static int
dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define NCAL	64	/* a calibration's bins, at most */

int
mg_model_calibrate(struct mg_model *m, const float *X, const float *y,
    size_t n, const struct mg_trainopts *to, struct mg_diag *d)
{
	double *p, *obs;
	size_t cut, i, len;
	int64_t nt = twin_predict(m, X, y, n, to, &cut, &p, d);
	char *params;

	if (nt <= 0)
		return (int)nt;
	if (!m->classifier) {
		double *band;
		size_t b, k, o;

		/*
		 * the residuals' 10th and 90th percentiles, in hours:
		 * over all, and by the prediction's size (a wait a day
		 * out is known less well than one an hour out)
		 */
		len = strlen(m->params) + 64 + MG_MODEL_BANDS * 64;
		if ((params = malloc(len)) == NULL ||
		    (band = malloc((size_t)nt * sizeof(*band))) == NULL) {
			free(params);
			free(p);
			return mg_diag_set(d, MG_ENOMEM, "out of memory");
		}
		o = (size_t)snprintf(params, len, "%s", m->params);
		for (b = 0; b < MG_MODEL_BANDS; b++) {
			for (i = k = 0; i < (size_t)nt; i++)
				if (mg_model_band(p[i]) == (int)b)
					band[k++] = (double)y[cut + i] - p[i];
			if (k < MG_MODEL_BAND_MIN)
				continue;
			qsort(band, k, sizeof(*band), dcmp);
			o += (size_t)snprintf(params + o, len - o, " "
			    "resid_p10_b%zu=%.3f resid_p90_b%zu=%.3f", b,
			    band[(size_t)(0.1 * (double)(k - 1))], b,
			    band[(size_t)(0.9 * (double)(k - 1))]);
		}
		free(band);
		for (i = 0; i < (size_t)nt; i++)
			p[i] = (double)y[cut + i] - p[i];
		qsort(p, (size_t)nt, sizeof(*p), dcmp);
		snprintf(params + o, len - o, " resid_p10=%.3f resid_p90=%.3f",
		    p[(size_t)(0.1 * (double)(nt - 1))],
		    p[(size_t)(0.9 * (double)(nt - 1))]);
		free(m->params);
		m->params = params;
		free(p);
		return 0;
	}
	/* the probabilities against what happened, isotonic */
	obs = malloc((size_t)nt * sizeof(*obs));
	m->cal_x = malloc(NCAL * sizeof(*m->cal_x));
	m->cal_y = malloc(NCAL * sizeof(*m->cal_y));
	if (obs == NULL || m->cal_x == NULL || m->cal_y == NULL) {
		free(obs);
		free(p);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	for (i = 0; i < (size_t)nt; i++)
		obs[i] = y[cut + i];
	if (mg_isotonic(p, obs, (size_t)nt, NCAL, m->cal_x, m->cal_y,
	    &m->ncal) != 0) {
		free(obs);
		free(p);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	/* a constant fit (one class held out) would say nothing: keep the
	 * raw probability */
	if (m->ncal < 2) {
		free(m->cal_x);
		free(m->cal_y);
		m->cal_x = m->cal_y = NULL;
		m->ncal = 0;
	}
	free(obs);
	free(p);
	return 0;
}

int
mg_model_spread(const struct mg_model *m, double *p10, double *p90)
{
	const char *a, *b;

	*p10 = *p90 = NAN;
	if (m == NULL || m->classifier || m->params == NULL ||
	    (a = strstr(m->params, "resid_p10=")) == NULL ||
	    (b = strstr(m->params, "resid_p90=")) == NULL)
		return -1;
	*p10 = strtod(a + 10, NULL);
	*p90 = strtod(b + 10, NULL);
	return 0;
}

int
mg_model_band(double pred)
{
	static const double edge[MG_MODEL_BANDS - 1] = { 2, 8, 24 };
	double a = fabs(pred);
	int b;

	for (b = 0; b < MG_MODEL_BANDS - 1; b++)
		if (a < edge[b])
			return b;
	return MG_MODEL_BANDS - 1;
}

int
mg_model_spread_at(const struct mg_model *m, double pred, double *p10,
    double *p90)
{
	char k10[24], k90[24];
	int b = mg_model_band(pred);

	*p10 = *p90 = NAN;
	if (m == NULL || m->classifier || m->params == NULL)
		return -1;
	/* a model trained before the bands: its spread over all */
	if (strstr(m->params, "resid_p10_b") == NULL)
		return mg_model_spread(m, p10, p90);
	snprintf(k10, sizeof(k10), "resid_p10_b%d", b);
	snprintf(k90, sizeof(k90), "resid_p90_b%d", b);
	if (mg_model_param(m, k10, p10) != 0 ||
	    mg_model_param(m, k90, p90) != 0) {
		*p10 = *p90 = NAN;
		return -1;
	}
	return 0;
}

int
mg_model_param(const struct mg_model *m, const char *key, double *v)
{
	const char *p = m != NULL ? m->params : NULL;
	size_t n = strlen(key);
	char *end;

	while (p != NULL && (p = strstr(p, key)) != NULL) {
		if ((p == m->params || p[-1] == ' ') && p[n] == '=') {
			*v = strtod(p + n + 1, &end);
			return end > p + n + 1 && (*end == ' ' || *end ==
			    '\0') ? 0 : -1;
		}
		p += n;
	}
	return -1;
}

int
mg_model_bind(const struct mg_model *m, char *const *names, size_t n,
    size_t *col, struct mg_diag *d)
{
	size_t i, j;

	if (!(mg_model_kind(m->kind) & MG_KIND_WHEN))
		return mg_diag_set(d, MG_ETYPE, "a relmas model dispatches DNN "
		    "inference inside a node, it does not decide when to "
		    "submit: give it to mirage-accel eval -M");
	for (i = 0; i < m->nfeat; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(names[j], m->names[i]) == 0)
				break;
		if (j == n)
			return mg_diag_set(d, MG_ETYPE, "the model needs the "
			    "feature '%s', which is not computed here: it "
			    "was trained on another feature schema",
			    m->names[i]);
		col[i] = j;
	}
	return 0;
}

/* X normalised by the model's mean and scale, or NULL */
static float *
normalise(const struct mg_model *m, const float *X, size_t n)
{
	float *Z = malloc((n ? n : 1) * m->nfeat * sizeof(*Z));
	size_t i, k;

	if (Z == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		for (k = 0; k < m->nfeat; k++)
			Z[i * m->nfeat + k] = (float)(((double)X[i * m->nfeat +
			    k] - m->mean[k]) / m->scale[k]);
	return Z;
}

int
mg_model_train(struct mg_model *m, const float *X, const float *y, size_t n,
    const struct mg_trainopts *o, struct mg_diag *d)
{
	char params[640];
	float *Z;
	size_t i, k;
	int rv;

	if (mg_model_kind(m->kind) & MG_KIND_EPISODES)
		return mg_diag_set(d, MG_EINVAL, "%s learns in episodes, not "
		    "from samples", m->kind);
	if (n < 2)
		return mg_diag_set(d, MG_EINVAL, "too few samples to train on "
		    "(%zu)", n);
	if (backend_of(m) == B_SVR) {
		/* standardise: RBF distances need comparable scales */
		for (k = 0; k < m->nfeat; k++) {
			double s = 0, ss = 0;

			for (i = 0; i < n; i++) {
				s += X[i * m->nfeat + k];
				ss += (double)X[i * m->nfeat + k] *
				    X[i * m->nfeat + k];
			}
			m->mean[k] = s / (double)n;
			ss = ss / (double)n - m->mean[k] * m->mean[k];
			m->scale[k] = ss > 1e-12 ? sqrt(ss) : 1;
		}
	}
	if ((Z = normalise(m, X, n)) == NULL)
		return MG_ENOMEM;
	if (backend_of(m) == B_TREES)
		rv = mg_gbt_train(m->kind, Z, y, n, m->nfeat, o, &m->impl,
		    &m->payload, &m->npayload, params, sizeof(params), d);
	else
		rv = mg_svr_train(Z, y, n, m->nfeat, o, &m->impl, &m->payload,
		    &m->npayload, params, sizeof(params), d);
	free(Z);
	if (rv != 0)
		return rv;
	m->seed = o->seed;
	m->nsamples = n;
	free(m->params);
	if ((m->params = strdup(params)) == NULL)
		return MG_ENOMEM;
	return 0;
}

/* dqn: Q(submit) - Q(wait); pg: the probability of submitting */
static int
mlp_predict(struct mg_model *m, const float *Z, size_t n, double *out,
    struct mg_diag *d)
{
	double *in = malloc(n * m->nfeat * sizeof(*in));
	double *o = malloc(n * 2 * sizeof(*o));
	int dqn = kind_of(m->kind)->out == O_QDIFF;
	int raw = kind_of(m->kind)->out == O_RAW;
	size_t i;

	if (in == NULL || o == NULL) {
		free(in);
		free(o);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	for (i = 0; i < n * m->nfeat; i++)
		in[i] = Z[i];
	if (raw) {		/* the rows as one decision's candidates */
		double *buf = NULL;
		size_t cap = 0;

		i = mg_pairnet_score(m->impl, in, n, out, &buf, &cap) != 0;
		free(buf);
		free(in);
		free(o);
		return i ? mg_diag_set(d, MG_ENOMEM, "out of memory") : 0;
	}
	if (mg_mlp_forward(m->impl, in, n, o) != 0) {
		free(in);
		free(o);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++)
		out[i] = dqn ? o[2 * i + 1] - o[2 * i] : raw ? o[i] : 1 /
		    (1 + exp(-o[i]));
	free(in);
	free(o);
	return 0;
}

/* an MLP as bytes: layer count, sizes, parameters (little-endian) */
static int mlp_append(struct mg_mlp *, unsigned char **, size_t *);

static int
mlp_save(struct mg_mlp *n, unsigned char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	return mlp_append(n, buf, len);
}

/* numbers as 8 little-endian bytes each, after *len bytes of *buf */
static int
f64_append(const double *p, size_t np, unsigned char **buf, size_t *len)
{
	unsigned char *nb = realloc(*buf, *len + 8 * np);
	size_t i, at = *len;
	int b;

	if (nb == NULL)
		return MG_ENOMEM;
	*buf = nb;
	for (i = 0; i < np; i++) {
		uint64_t u;

		memcpy(&u, &p[i], sizeof(u));
		for (b = 0; b < 8; b++)
			nb[at++] = (unsigned char)(u >> (8 * b));
	}
	*len = at;
	return 0;
}

static void
f64_read(const unsigned char *buf, size_t np, double *p)
{
	size_t i, at = 0;
	int b;

	for (i = 0; i < np; i++) {
		uint64_t u = 0;

		for (b = 0; b < 8; b++)
			u |= (uint64_t)buf[at++] << (8 * b);
		memcpy(&p[i], &u, sizeof(u));
	}
}

/* relmas: the actor; with an encoder (the actor reads more than the
 * model's features), its embedding and its query after it */
static int
relmas_save(struct mg_pairnet *net, unsigned char **buf, size_t *len)
{
	int rv;

	*buf = NULL;
	*len = 0;
	if ((rv = mlp_append(net->actor, buf, len)) == 0 && net->enc != NULL &&
	    (rv = mlp_append(mg_attn_embedding(net->enc), buf, len)) == 0)
		rv = f64_append(mg_attn_query(net->enc),
		    (size_t)mg_attn_dim(net->enc), buf, len);
	if (rv != 0) {
		free(*buf);
		*buf = NULL;
	}
	return rv;
}

static int
mlp_append(struct mg_mlp *n, unsigned char **buf, size_t *len)
{
	int sizes[MG_MLP_MAXLAYERS + 1], nl = mg_mlp_layers(n, sizes), l, b;
	size_t np = mg_mlp_nparams(n), at = *len;
	unsigned char *nb = realloc(*buf, *len + 4 + 4 * (size_t)nl);

	if (nb == NULL)
		return MG_ENOMEM;
	*buf = nb;
	for (b = 0; b < 4; b++)
		(*buf)[at++] = (unsigned char)((unsigned)nl >> (8 * b));
	for (l = 0; l < nl; l++)
		for (b = 0; b < 4; b++)
			(*buf)[at++] = (unsigned char)((unsigned)sizes[l] >>
			    (8 * b));
	*len = at;
	return f64_append(mg_mlp_params(n), np, buf, len);
}

/* an MLP from the front of buf[0..len): its bytes in *used */
static int
mlp_parse(const unsigned char *buf, size_t len, size_t *used,
    struct mg_mlp **out)
{
	int sizes[MG_MLP_MAXLAYERS + 1], nl, l, b, rv;
	struct mg_mlp *n;
	size_t at = 0, np;

	*out = NULL;
	if (len < 4)
		return MG_ECORRUPT;
	for (nl = 0, b = 0; b < 4; b++)
		nl |= (int)buf[at++] << (8 * b);
	if (nl < 2 || nl > MG_MLP_MAXLAYERS + 1 || len < 4 + 4 * (size_t)nl)
		return MG_ECORRUPT;
	np = 0;
	for (l = 0; l < nl; l++) {
		unsigned v = 0;

		for (b = 0; b < 4; b++)
			v |= (unsigned)buf[at++] << (8 * b);
		if (v == 0 || v > (1u << 20))
			return MG_ECORRUPT;
		sizes[l] = (int)v;
		/* the weights and biases the sizes declare must be in the
		 * payload before anything is allocated for them */
		if (l > 0) {
			np += (size_t)sizes[l - 1] * sizes[l] + (size_t)sizes[l];
			if (np > (len - at) / 8)
				return MG_ECORRUPT;
		}
	}
	if ((rv = mg_mlp_new(sizes, nl, 0, &n)) != 0)
		return rv == MG_EIO ? rv : MG_ECORRUPT;
	np = mg_mlp_nparams(n);
	if (len < at + 8 * np) {
		mg_mlp_free(n);
		return MG_ECORRUPT;
	}
	f64_read(buf + at, np, mg_mlp_params(n));
	*used = at + 8 * np;
	*out = n;
	return 0;
}

static int
mlp_load(const unsigned char *buf, size_t len, void **h, struct mg_diag *d)
{
	struct mg_mlp *n;
	size_t used;
	int rv;

	*h = NULL;
	if ((rv = mg_mlp_blas(0, d)) != 0)
		return rv;
	if (mlp_parse(buf, len, &used, &n) != 0 || used != len) {
		if (n != NULL)
			mg_mlp_free(n);
		return mg_diag_set(d, MG_ECORRUPT, "the network's bytes are "
		    "malformed");
	}
	*h = n;
	return 0;
}

static int
relmas_load(const unsigned char *buf, size_t len, int nf, void **h,
    struct mg_diag *d)
{
	struct mg_pairnet *net = calloc(1, sizeof(*net));
	struct mg_mlp *f = NULL;
	int sizes[MG_MLP_MAXLAYERS + 1], fs[MG_MLP_MAXLAYERS + 1], nl, fl;
	size_t used, at;
	double w[64];

	*h = NULL;
	if (net == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	if (mg_mlp_blas(0, d) != 0) {
		free(net);
		return MG_EIO;
	}
	if (mlp_parse(buf, len, &used, &net->actor) != 0)
		goto bad;
	at = used;
	nl = mg_mlp_layers(net->actor, sizes);
	net->nfeat = (size_t)nf;
	if (sizes[0] < nf || sizes[nl - 1] != 1)
		goto bad;
	if (sizes[0] > nf) {
		/* the encoder: the features in, the context's size out */
		if (mlp_parse(buf + at, len - at, &used, &f) != 0)
			goto bad;
		at += used;
		fl = mg_mlp_layers(f, fs);
		if (fs[0] != nf || fs[fl - 1] != sizes[0] - nf ||
		    fs[fl - 1] > 64 || len - at != 8 * (size_t)fs[fl - 1])
			goto bad;
		f64_read(buf + at, (size_t)fs[fl - 1], w);
		at = len;
		if (mg_attn_from(f, w, &net->enc) != 0)
			goto bad;
		f = NULL;
	}
	if (at != len)
		goto bad;
	*h = net;
	return 0;
bad:
	mg_mlp_free(f);
	mg_pairnet_free(net);
	free(net);
	return mg_diag_set(d, MG_ECORRUPT, "the network's bytes are malformed");
}

int
mg_model_train_rl(struct mg_model *m, struct mg_rlenv *env,
    const struct mg_rlopts *o, struct mg_diag *d)
{
	struct mg_mlp *n = NULL;
	size_t e, j, k, cnt = 0;
	double *ss;
	char params[256];
	int rv;

	if (backend_of(m) != B_MLP || env->nfeat != m->nfeat)
		return mg_diag_set(d, MG_EINVAL, "not a reinforcement-learning "
		    "model of these features");
	if ((rv = mg_mlp_blas(0, d)) != 0)
		return rv;
	if ((ss = calloc(m->nfeat, sizeof(*ss))) == NULL)
		return MG_ENOMEM;
	/* standardise each feature over every tick of every episode */
	memset(m->mean, 0, m->nfeat * sizeof(*m->mean));
	for (e = 0; e < env->nep; e++) {
		const struct mg_outcome *oc = &env->ep[e];
		size_t nt = 0;

		for (k = 0; k < oc->n; k++)
			nt += oc->tick[k];
		for (j = 0; j < nt; j++, cnt++)
			for (k = 0; k < m->nfeat; k++) {
				double x = oc->feat[j * oc->nfeat + k];

				m->mean[k] += x;
				ss[k] += x * x;
			}
	}
	for (k = 0; k < m->nfeat && cnt > 0; k++) {
		double var;

		m->mean[k] /= (double)cnt;
		var = ss[k] / (double)cnt - m->mean[k] * m->mean[k];
		m->scale[k] = var > 1e-12 ? sqrt(var) : 1;
	}
	free(ss);
	env->mean = m->mean;
	env->scale = m->scale;
	rv = kind_of(m->kind)->out == O_QDIFF ? mg_rl_dqn(env, o, &n) :
	    mg_rl_pg(env, o, &n);
	if (rv != 0)
		return mg_diag_set(d, rv, "%s training failed: %s", m->kind,
		    mg_strerror(rv));
	if ((rv = mlp_save(n, &m->payload, &m->npayload)) != 0) {
		mg_mlp_free(n);
		return rv;
	}
	m->impl = n;
	m->seed = o->seed;
	m->nsamples = env->nep;
	snprintf(params, sizeof(params), "episodes=%ld hidden=%d lr=%g "
	    "gamma=%g batch=%d w_int=%g w_ovl=%g%s", o->episodes, o->hidden,
	    o->lr, o->gamma, o->batch, env->w_int, env->w_ovl,
	    kind_of(m->kind)->out == O_QDIFF ? " double-dqn huber"
	    : " reinforce+baseline");
	free(m->params);
	if ((m->params = strdup(params)) == NULL)
		return MG_ENOMEM;
	return 0;
}

int
mg_model_set_pairnet(struct mg_model *m, struct mg_pairnet *net)
{
	int rv;

	if ((rv = relmas_save(net, &m->payload, &m->npayload)) != 0)
		return rv;
	m->impl = net;
	return 0;
}

int
mg_model_predict(struct mg_model *m, const float *X, size_t n, double *out,
    struct mg_diag *d)
{
	float *Z;
	size_t i;
	int rv;

	if (n == 0)
		return 0;
	if ((Z = normalise(m, X, n)) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	if (backend_of(m) == B_TREES)
		rv = mg_gbt_predict(m->impl, Z, n, m->nfeat, out, d);
	else if (backend_of(m) == B_MLP || backend_of(m) == B_PAIRNET)
		rv = mlp_predict(m, Z, n, out, d);
	else
		rv = mg_svr_predict(m->impl, Z, n, m->nfeat, out, d);
	free(Z);
	for (i = 0; rv == 0 && m->ncal > 0 && i < n; i++)
		out[i] = mg_interp(m->cal_x, m->cal_y, m->ncal, out[i]);
	return rv;
}

/* ---- the file format ------------------------------------------------- */

struct buf {
	unsigned char *p;
	size_t n, cap;
	int fail;
};

static void
put(struct buf *b, const void *v, size_t n)
{
	if (b->fail || mg_grow((void **)&b->p, &b->cap, b->n + n, 1)) {
		b->fail = 1;
		return;
	}
	memcpy(b->p + b->n, v, n);
	b->n += n;
}

static void
put_u(struct buf *b, uint64_t v, int bytes)
{
	unsigned char c[8];
	int i;

	for (i = 0; i < bytes; i++)
		c[i] = (unsigned char)(v >> (8 * i));
	put(b, c, (size_t)bytes);
}

static void
put_f64(struct buf *b, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	put_u(b, u, 8);
}

static void
put_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u(b, n, 4);
	put(b, s ? s : "", n);
}

int
mg_model_write(FILE *fp, const struct mg_model *m, struct mg_diag *d)
{
	struct buf b = { NULL, 0, 0, 0 }, h = { NULL, 0, 0, 0 };
	size_t i;
	uLong crc;
	int rv = 0;

	put_str(&h, m->kind);
	put_u(&h, (uint64_t)m->classifier, 1);
	put_f64(&h, m->threshold);
	put_u(&h, m->features_version, 4);
	put_u(&h, m->nfeat, 4);
	for (i = 0; i < m->nfeat; i++) {
		put_str(&h, m->names[i]);
		put_f64(&h, m->mean[i]);
		put_f64(&h, m->scale[i]);
	}
	put_u(&h, m->window, 4);
	put_str(&h, m->params);
	put_u(&h, m->seed, 8);
	put_u(&h, (uint64_t)m->from, 8);
	put_u(&h, (uint64_t)m->to, 8);
	put_u(&h, m->nsamples, 8);
	put_str(&h, m->producer);
	put_str(&h, m->args);
	put_u(&h, m->ncal, 4);
	for (i = 0; i < m->ncal; i++) {
		put_f64(&h, m->cal_x[i]);
		put_f64(&h, m->cal_y[i]);
	}
	put_str(&h, m->cluster);
	put(&b, magic, sizeof(magic));
	put_u(&b, MG_MODEL_MAJOR, 2);
	put_u(&b, MG_MODEL_MINOR, 2);
	put_u(&b, h.n, 4);
	put(&b, h.p, h.n);
	put_u(&b, m->npayload, 8);
	put(&b, m->payload, m->npayload);
	if (b.fail || h.fail) {
		rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
		goto out;
	}
	crc = crc32(0L, Z_NULL, 0);
	for (i = 0; i < b.n; i += 1u << 30)
		crc = crc32(crc, b.p + i, (uInt)(b.n - i < (1u << 30) ?
		    b.n - i : (1u << 30)));
	put_u(&b, (uint64_t)crc, 4);
	if (b.fail)
		rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
	else if (fwrite(b.p, 1, b.n, fp) != b.n || fflush(fp) != 0)
		rv = mg_diag_set(d, MG_EIO, "write error");
out:
	free(b.p);
	free(h.p);
	return rv;
}

struct cur {
	const unsigned char *p;
	size_t n, at;
	int bad;
};

static uint64_t
get_u(struct cur *c, int bytes)
{
	uint64_t v = 0;
	int i;

	if (c->bad || c->n - c->at < (size_t)bytes) {
		c->bad = 1;
		return 0;
	}
	for (i = 0; i < bytes; i++)
		v |= (uint64_t)c->p[c->at + (size_t)i] << (8 * i);
	c->at += (size_t)bytes;
	return v;
}

static double
get_f64(struct cur *c)
{
	uint64_t u = get_u(c, 8);
	double v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

static char *
get_str(struct cur *c)
{
	uint64_t n = get_u(c, 4);
	char *s;

	if (c->bad || n > c->n - c->at) {
		c->bad = 1;
		return NULL;
	}
	if ((s = malloc(n + 1)) == NULL) {
		c->bad = 2;
		return NULL;
	}
	memcpy(s, c->p + c->at, n);
	s[n] = '\0';
	c->at += n;
	return s;
}

static int read_model(FILE *, const char *, int, struct mg_model **,
    struct mg_diag *);

/* the header's values are ones this mirage can use: a window it
 * computes, a finite threshold, finite means and positive scales */
static int
fields_ok(const struct mg_model *m)
{
	size_t i;

	if (m->window > MG_MODEL_MAXWINDOW ||
	    (m->classifier != 0 && m->classifier != 1) ||
	    !isfinite(m->threshold) || fabs(m->threshold) > 1e6)
		return 0;
	for (i = 0; i < m->nfeat; i++)
		if (m->names[i] == NULL || !isfinite(m->mean[i]) ||
		    !isfinite(m->scale[i]) || !(m->scale[i] > 0))
			return 0;
	return 1;
}

int
mg_model_read(FILE *fp, const char *name, struct mg_model **out,
    struct mg_diag *d)
{
	return read_model(fp, name, 1, out, d);
}

int
mg_model_read_container(FILE *fp, const char *name, struct mg_model **out,
    struct mg_diag *d)
{
	return read_model(fp, name, 0, out, d);
}

/* at most this many calibration knots in a file */
#define MAXCAL	4096

/* the whole of fp into *all (free it), n bytes */
static int
slurp(FILE *fp, const char *name, unsigned char **all, size_t *n,
    struct mg_diag *d)
{
	unsigned char tmp[65536];
	size_t cap = 0, r;

	*all = NULL;
	*n = 0;
	while ((r = fread(tmp, 1, sizeof(tmp), fp)) > 0) {
		if (mg_grow((void **)all, &cap, *n + r, 1)) {
			free(*all);
			return mg_diag_set(d, MG_ENOMEM, "out of memory");
		}
		memcpy(*all + *n, tmp, r);
		*n += r;
	}
	if (ferror(fp)) {
		free(*all);
		return mg_diag_set(d, MG_EIO, "'%s': read error", name);
	}
	return 0;
}

/*
 * The frame of a model file all[0..n): magic, version, the header's and
 * the payload's lengths, the CRC32 over both, nothing after.  Sets the
 * header's cursor *h, the payload's offset and length, and the minor
 * version.
 */
static int
frame(const unsigned char *all, size_t n, const char *name, unsigned *minor,
    struct cur *h, size_t *poff, size_t *plen, struct mg_diag *d)
{
	struct cur c;
	size_t hlen, r;
	uint32_t want;
	uLong crc;

	if (n < sizeof(magic) || memcmp(all, magic, sizeof(magic)) != 0)
		return mg_diag_set(d, n == 0 ? MG_ETRUNC : MG_ECORRUPT, "'%s': "
		    "%s", name, n == 0 ? "empty input, not a model" :
		    "not a mirage model (bad magic)");
	c.p = all;
	c.n = n;
	c.at = sizeof(magic);
	c.bad = 0;
	if (get_u(&c, 2) > MG_MODEL_MAJOR)
		return mg_diag_set(d, MG_EVERSION, "'%s': a model of a newer "
		    "version than this mirage reads", name);
	*minor = (unsigned)get_u(&c, 2);
	hlen = (size_t)get_u(&c, 4);
	if (c.bad || hlen > c.n - c.at || c.n - c.at - hlen < 12)
		return mg_diag_set(d, MG_ETRUNC, "'%s': model cut short", name);
	h->p = all + c.at;
	h->n = hlen;
	h->at = 0;
	h->bad = 0;
	c.at += hlen;
	r = (size_t)get_u(&c, 8);
	if (c.bad || r > c.n - c.at || c.n - c.at - r < 4)
		return mg_diag_set(d, MG_ETRUNC, "'%s': model cut short", name);
	*poff = c.at;
	*plen = r;
	c.at += r;
	crc = crc32(crc32(0L, Z_NULL, 0), all, (uInt)c.at);
	want = (uint32_t)get_u(&c, 4);
	if ((uint32_t)crc != want || c.at != c.n)
		return mg_diag_set(d, c.at != c.n ? MG_ECORRUPT : MG_ECHECKSUM,
		    "'%s': %s", name, c.at != c.n ? "bytes after the model's "
		    "end" : "CRC32 mismatch: the model is corrupt");
	return 0;
}

/* the calibration's knots: in order, values within [0, 1] */
static int
header_cal(struct cur *h, struct mg_model *m)
{
	size_t i;

	if ((m->ncal = (size_t)get_u(h, 4)) == 0)
		return 0;
	if (h->bad || m->ncal > MAXCAL)
		return MG_ECORRUPT;
	m->cal_x = malloc(m->ncal * sizeof(*m->cal_x));
	m->cal_y = malloc(m->ncal * sizeof(*m->cal_y));
	if (m->cal_x == NULL || m->cal_y == NULL)
		return MG_ENOMEM;
	for (i = 0; i < m->ncal; i++) {
		m->cal_x[i] = get_f64(h);
		m->cal_y[i] = get_f64(h);
		if ((i > 0 && !(m->cal_x[i] > m->cal_x[i - 1])) ||
		    !(m->cal_y[i] >= 0 && m->cal_y[i] <= 1))
			h->bad = 1;
	}
	return 0;
}

/* the header's fields (intact: the CRC matched) into m; 0, MG_ECORRUPT
 * when a field is out of its bounds, or MG_ENOMEM */
static int
header(struct cur *h, unsigned minor, struct mg_model *m)
{
	char *kind = get_str(h);
	size_t i;
	int rv;

	if (kind == NULL)
		return MG_ENOMEM;
	snprintf(m->kind, sizeof(m->kind), "%s", kind);
	free(kind);
	m->classifier = (int)get_u(h, 1);
	m->threshold = get_f64(h);
	m->features_version = (uint32_t)get_u(h, 4);
	m->nfeat = (size_t)get_u(h, 4);
	if (h->bad || m->nfeat == 0 || m->nfeat > (1u << 20))
		return MG_ECORRUPT;
	m->names = calloc(m->nfeat, sizeof(*m->names));
	m->mean = calloc(m->nfeat, sizeof(*m->mean));
	m->scale = calloc(m->nfeat, sizeof(*m->scale));
	if (m->names == NULL || m->mean == NULL || m->scale == NULL)
		return MG_ENOMEM;
	for (i = 0; i < m->nfeat && !h->bad; i++) {
		m->names[i] = get_str(h);
		m->mean[i] = get_f64(h);
		m->scale[i] = get_f64(h);
	}
	m->window = (uint32_t)get_u(h, 4);
	m->params = get_str(h);
	m->seed = get_u(h, 8);
	m->from = (int64_t)get_u(h, 8);
	m->to = (int64_t)get_u(h, 8);
	m->nsamples = get_u(h, 8);
	m->producer = get_str(h);
	m->args = get_str(h);
	if (minor >= 1 && (rv = header_cal(h, m)) != 0)
		return rv;
	if (minor >= 2 && !h->bad)
		m->cluster = get_str(h);
	/* every field within its bounds, whatever the payload says */
	if (!h->bad && !fields_ok(m))
		h->bad = 1;
	/* a newer minor version may append fields: skipped */
	if (h->bad || (h->at != h->n && minor <= MG_MODEL_MINOR) ||
	    kind_of(m->kind) == NULL)
		return h->bad == 2 ? MG_ENOMEM : MG_ECORRUPT;
	return 0;
}

static int
read_model(FILE *fp, const char *name, int backend, struct mg_model **out,
    struct mg_diag *d)
{
	unsigned char *all;
	size_t n, poff = 0, plen = 0;
	struct cur h;
	struct mg_model *m = NULL;
	unsigned minor = 0;
	int rv;

	*out = NULL;
	if ((rv = slurp(fp, name, &all, &n, d)) != 0)
		return rv;
	if ((rv = frame(all, n, name, &minor, &h, &poff, &plen, d)) != 0) {
		free(all);
		return rv;
	}
	if ((m = calloc(1, sizeof(*m))) == NULL)
		rv = MG_ENOMEM;
	else if ((rv = header(&h, minor, m)) == 0) {
		m->npayload = plen;
		if ((m->payload = malloc(plen ? plen : 1)) == NULL)
			rv = MG_ENOMEM;
		else
			memcpy(m->payload, all + poff, plen);
	}
	free(all);
	if (rv != 0) {
		mg_model_free(m);
		return mg_diag_set(d, rv, "'%s': %s", name, rv == MG_ENOMEM ?
		    "out of memory" : "the model's header is malformed");
	}
	if (m->features_version != MG_FEATURES_VERSION) {
		rv = mg_diag_set(d, MG_ETYPE, "'%s': a model of features "
		    "version %u; this mirage computes version %u", name,
		    m->features_version, MG_FEATURES_VERSION);
		mg_model_free(m);
		return rv;
	}
	if (!backend)
		rv = 0;
	else
		switch (backend_of(m)) {
		case B_TREES:
			rv = mg_gbt_load(m->payload, m->npayload, &m->impl, d);
			break;
		case B_PAIRNET:
			rv = relmas_load(m->payload, m->npayload, (int)m->nfeat,
			    &m->impl, d);
			break;
		case B_MLP:
			rv = mlp_load(m->payload, m->npayload, &m->impl, d);
			break;
		case B_SVR:
			rv = mg_svr_load(m->payload, m->npayload, &m->impl, d);
			break;
		}
	if (rv != 0) {
		mg_diag_prefix(d, "'%s'", name);
		mg_model_free(m);
		return rv;
	}
	*out = m;
	return 0;
}

int
mg_model_check(struct mg_model *m, struct mg_diag *d)
{
	struct mg_epconf e;
	char **names = NULL;
	size_t nn = 0, *col = NULL;
	float *X = NULL;
	double score = NAN;
	int rv = 0, when = (mg_model_kind(m->kind) & MG_KIND_WHEN) != 0;

	if ((X = calloc(m->nfeat, sizeof(*X))) == NULL ||
	    (col = calloc(m->nfeat, sizeof(*col))) == NULL) {
		rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
		goto out;
	}
	if (when) {
		memset(&e, 0, sizeof(e));
		e.window = (int)m->window;
		if (mg_episode_feature_names(&e, &names, &nn) != 0) {
			rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
			goto out;
		}
		if ((rv = mg_model_bind(m, names, nn, col, d)) != 0)
			goto out;
	}
	if (when && (rv = mg_model_predict(m, X, 1, &score, d)) != 0)
		goto out;
	if (when && !isfinite(score))
		rv = mg_diag_set(d, MG_ECORRUPT, "it scores a row of zeros "
		    "as %g", score);
out:
	mg_names_free(names, nn);
	free(col);
	free(X);
	return rv;
}

void
mg_model_write_info(FILE *fp, const char *path, const struct mg_model *m)
{
	char a[32], b[32];
	size_t i;

	mg_format_time(m->from, a, sizeof(a));
	mg_format_time(m->to, b, sizeof(b));
	if (!(mg_model_kind(m->kind) & MG_KIND_WHEN))
		fprintf(fp, "file\t%s\nkind\t%s\nscore\ta (request, "
		    "sub-accelerator) pair's; the highest runs\nfeatures\t%zu\n"
		    "params\t%s\nseed\t%llu\ntrained_on\t%llu episodes of "
		    "the accelerator model\nproducer\t%s\nargs\t%s\n", path,
		    m->kind, m->nfeat, m->params, (unsigned long long)m->seed,
		    (unsigned long long)m->nsamples, m->producer, m->args);
	else
		fprintf(fp, "file\t%s\nkind\t%s\nscore\t%s\nthreshold\t%g\n"
		    "features_version\t%u\nfeatures\t%zu\nwindow\t%u\n"
		    "params\t%s\nseed\t%llu\ntrained_on\t%llu %s, episodes "
		    "starting %s .. %s\nproducer\t%s\nargs\t%s\n", path,
		    m->kind, m->classifier ? "probability of an interruption" :
		    "predicted x, hours", m->threshold, m->features_version,
		    m->nfeat, m->window, m->params, (unsigned long long)m->seed,
		    (unsigned long long)m->nsamples, mg_model_kind(m->kind) &
		    MG_KIND_EPISODES ? "episodes" : "samples", a,
		    b, m->producer, m->args);
	if (mg_model_kind(m->kind) & MG_KIND_WHEN)
		fprintf(fp, "cluster\t%s\n", m->cluster && *m->cluster ?
		    m->cluster : "- (not recorded)");
	for (i = 0; i < m->nfeat; i++)
		fprintf(fp, "feature\t%s\t%g\t%g\n", m->names[i], m->mean[i],
		    m->scale[i]);
	/* a classifier's calibration: raw probability, observed frequency */
	for (i = 0; i < m->ncal; i++)
		fprintf(fp, "calibration\t%g\t%g\n", m->cal_x[i], m->cal_y[i]);
}
