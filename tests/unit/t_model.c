/*
 * t_model.c: models: each kind learns a known function; a model file
 * round-trips with the same predictions; corruption, truncation, a newer
 * version, another features version and another feature schema are
 * refused with the right status; a classifier's calibration maps its
 * probabilities and is kept in the file.
 */
#include <sys/resource.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "mirage.h"
#include "decide/rule.h"
#include "learn/model.h"
#include "tap.h"

#define N	1200
#define NF	3

static float X[N * NF], y[N], yc[N];
static char na[] = "f_a", nb[] = "f_b", nc[] = "f_c", nx[] = "f_x";
static char *names[NF] = { na, nb, nc };
static char *other[NF] = { na, nx, nc };

/* y = 2 a - b + noise-free step in c; the label of clf: y > 0 */
static void
data(void)
{
	unsigned s = 12345;
	size_t i, k;

	for (i = 0; i < N; i++) {
		for (k = 0; k < NF; k++) {
			s = s * 1103515245u + 12345u;
			X[i * NF + k] = (float)((s >> 8) % 2000) / 1000.0f - 1;
		}
		y[i] = 2 * X[i * NF] - X[i * NF + 1] + (X[i * NF + 2] > 0 ?
		    0.5f : -0.5f);
		yc[i] = y[i] > 0;
	}
}

static double
rmse(struct mg_model *m, const float *target)
{
	double *p = malloc(N * sizeof(*p)), e = 0;
	size_t i;

	if (p == NULL || mg_model_predict(m, X, N, p, NULL) != 0)
		return 1e9;
	for (i = 0; i < N; i++)
		e += (p[i] - target[i]) * (p[i] - target[i]);
	free(p);
	return sqrt(e / N);
}

/* the model's file in memory */
static unsigned char *
save(const struct mg_model *m, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	if (fp == NULL || mg_model_write(fp, m, NULL) != 0)
		return NULL;
	fclose(fp);
	return (unsigned char *)buf;
}

static int
load(const unsigned char *b, size_t len, struct mg_model **m,
    struct mg_diag *d)
{
	FILE *fp = fmemopen((void *)b, len ? len : 1, "rb");
	int rv;

	if (len == 0) {
		fclose(fp);
		fp = fopen("/dev/null", "rb");
	}
	rv = mg_model_read(fp, "mem", m, d);
	fclose(fp);
	return rv;
}

/* rewrite the trailing CRC32 after an edit */
static void
recrc(unsigned char *b, size_t len)
{
	uLong c = crc32(crc32(0L, Z_NULL, 0), b, (uInt)(len - 4));
	int i;

	for (i = 0; i < 4; i++)
		b[len - 4 + (size_t)i] = (unsigned char)(c >> (8 * i));
}

static void
kinds(void)
{
	static const char *kind[] = { "gbt", "rf", "svr", "clf" };
	struct mg_trainopts o;
	struct mg_model *m, *m2;
	unsigned char *b;
	size_t len, i, k;
	double p1[N], p2[N];

	mg_trainopts_init(&o);
	for (k = 0; k < 4; k++) {
		int clf = strcmp(kind[k], "clf") == 0;
		double e;

		if (mg_model_new(kind[k], names, NF, &m, NULL) != 0 ||
		    mg_model_train(m, X, clf ? yc : y, N, &o, NULL) != 0) {
			ok(0, "%s trains", kind[k]);
			continue;
		}
		e = rmse(m, clf ? yc : y);
		/* the target's spread is about 1.3 */
		ok(e < (clf ? 0.3 : 0.35), "%s learns the function (RMSE %.3f)",
		    kind[k], e);
		b = save(m, &len);
		ok(b != NULL && load(b, len, &m2, NULL) == 0, "%s: file round "
		    "trip", kind[k]);
		if (b == NULL)
			continue;
		mg_model_predict(m, X, N, p1, NULL);
		mg_model_predict(m2, X, N, p2, NULL);
		for (i = 0; i < N; i++)
			if (fabs(p1[i] - p2[i]) > (k == 2 ? 1e-5 : 0))
				break;
		ok(i == N, "%s: same predictions after the round trip", kind[k]);
		ok(strcmp(m2->kind, kind[k]) == 0 && m2->nfeat == NF &&
		    strcmp(m2->names[2], "f_c") == 0 && m2->classifier == clf,
		    "%s: header round trip", kind[k]);
		mg_model_free(m2);
		free(b);
		mg_model_free(m);
	}
}

static void
damage(void)
{
	struct mg_trainopts o;
	struct mg_model *m, *m2;
	struct mg_diag d;
	unsigned char *b, *c;
	size_t len, col[NF];

	mg_trainopts_init(&o);
	o.rounds = 5;
	if (mg_model_new("gbt", names, NF, &m, NULL) != 0 ||
	    mg_model_train(m, X, y, N, &o, NULL) != 0 ||
	    (b = save(m, &len)) == NULL || (c = malloc(len)) == NULL) {
		ok(0, "a model to damage");
		return;
	}
	memcpy(c, b, len);
	c[len / 2] ^= 0x10;
	ok(load(c, len, &m2, &d) == MG_ECHECKSUM && strstr(d.msg, "CRC32"),
	    "a flipped bit: checksum error (%s)", d.msg);
	ok(load(b, len - 7, &m2, &d) == MG_ETRUNC || load(b, len - 7, &m2,
	    &d) == MG_ECHECKSUM, "cut short: refused (%s)", d.msg);
	ok(load(b, 20, &m2, &d) == MG_ETRUNC, "cut in the header: truncated");
	ok(load(b, 0, &m2, &d) == MG_ETRUNC, "empty: truncated");
	memcpy(c, b, len);
	c[0] = 'x';
	ok(load(c, len, &m2, &d) == MG_ECORRUPT && strstr(d.msg, "magic"),
	    "not a model: bad magic");
	memcpy(c, b, len);
	c[8] = 2;		/* major version 2 */
	recrc(c, len);
	ok(load(c, len, &m2, &d) == MG_EVERSION, "a newer version: refused "
	    "(%s)", d.msg);
	memcpy(c, b, len);
	c[10] = 9;		/* minor version 9 */
	recrc(c, len);
	ok(load(c, len, &m2, &d) == 0, "a newer minor version: read");
	if (m2)
		mg_model_free(m2);
	m->features_version = MG_FEATURES_VERSION + 1;
	free(b);
	b = save(m, &len);
	ok(b && load(b, len, &m2, &d) == MG_ETYPE && strstr(d.msg,
	    "features version"), "another features version: refused (%s)",
	    d.msg);
	ok(mg_model_bind(m, names, NF, col, NULL) == 0 && col[2] == 2,
	    "bound to the features it was trained on");
	ok(mg_model_bind(m, other, NF, col, &d) == MG_ETYPE &&
	    strstr(d.msg, "'f_b'") && strstr(d.msg, "another feature schema"),
	    "another feature schema: refused (%s)", d.msg);
	ok(mg_model_new("xgb", names, NF, &m2, &d) == MG_EINVAL,
	    "an unknown kind is refused");
	{
		/* a network's declared sizes are checked against its payload
		 * before anything is allocated: 20000 x 20000 in 24 bytes */
		static unsigned char net[] = { 3, 0, 0, 0, 0x20, 0x4e, 0, 0,
		    0x20, 0x4e, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
		unsigned char *pb = m->payload;
		size_t pn = m->npayload;
		struct rusage r0, r1;
		int rv;

		m->features_version = MG_FEATURES_VERSION;
		snprintf(m->kind, sizeof(m->kind), "dqn");
		m->payload = net;
		m->npayload = sizeof(net);
		free(b);
		b = save(m, &len);
		m->payload = pb;
		m->npayload = pn;
		snprintf(m->kind, sizeof(m->kind), "gbt");
		getrusage(RUSAGE_SELF, &r0);
		rv = b ? load(b, len, &m2, &d) : -1;
		getrusage(RUSAGE_SELF, &r1);
		ok(rv == MG_ECORRUPT, "a network of 20000 x 20000 declared in "
		    "24 bytes: refused (%s)", d.msg);
		ok(r1.ru_maxrss - r0.ru_maxrss < 64 * 1024, "... before it "
		    "is allocated (%ld KB more)", r1.ru_maxrss - r0.ru_maxrss);
	}
	free(b);
	free(c);
	mg_model_free(m);
}

/*
 * --quantile: on y = 2a - b + uniform noise of width 2, the 0.9 quantile
 * model leaves about 90 % of the labels at or below its predictions and
 * sits above the mean model by about 0.8 (the noise's 0.9 quantile)
 */
static void
quantile(void)
{
	static float yn[N];
	struct mg_trainopts o;
	struct mg_model *mq = NULL, *mm = NULL;
	double pq[N], pm[N], up = 0, gap = 0;
	unsigned s = 777;
	size_t i, below = 0;

	for (i = 0; i < N; i++) {
		s = s * 1103515245u + 12345u;
		yn[i] = 2 * X[i * NF] - X[i * NF + 1] +
		    (float)((s >> 8) % 2000) / 1000.0f - 1;
	}
	mg_trainopts_init(&o);
	o.depth = 3;
	if (mg_model_new("gbt", names, NF, &mm, NULL) != 0 ||
	    mg_model_train(mm, X, yn, N, &o, NULL) != 0) {
		ok(0, "a mean model");
		return;
	}
	o.quantile = 0.9;
	o.rounds = 400;
	if (mg_model_new("gbt", names, NF, &mq, NULL) != 0 ||
	    mg_model_train(mq, X, yn, N, &o, NULL) != 0) {
		ok(0, "a 0.9 quantile model");
		mg_model_free(mm);
		return;
	}
	mg_model_predict(mq, X, N, pq, NULL);
	mg_model_predict(mm, X, N, pm, NULL);
	for (i = 0; i < N; i++) {
		below += yn[i] <= pq[i];
		gap += pq[i] - pm[i];
	}
	up = (double)below / N;
	gap /= N;
	ok(up > 0.85 && up < 0.95, "quantile 0.9: %.3f of the labels at or "
	    "below the predictions", up);
	ok(gap > 0.4 && gap < 1.0, "quantile 0.9: %.2f above the mean model "
	    "(the noise's 0.9 quantile is 0.8; less in-sample)", gap);
	ok(strstr(mq->params, "quantile=0.9") != NULL, "quantile in the "
	    "parameters: %s", mq->params);
	mg_model_free(mq);
	mg_model_free(mm);
}

/* a calibration of two knots: p -> 0.1 + 0.8 p */
static void
calibration(void)
{
	struct mg_trainopts o;
	struct mg_model *m, *m2 = NULL;
	struct mg_diag d = { "" };
	unsigned char *b;
	size_t len, i;
	double raw[N], cal[N], back[N];
	static double kx[2] = { 0, 1 }, ky[2] = { 0.1, 0.9 };

	mg_trainopts_init(&o);
	if (mg_model_new("clf", names, NF, &m, NULL) != 0 ||
	    mg_model_train(m, X, yc, N, &o, NULL) != 0) {
		ok(0, "a classifier to calibrate");
		return;
	}
	mg_model_predict(m, X, N, raw, NULL);
	m->ncal = 2;
	m->cal_x = malloc(sizeof(kx));
	m->cal_y = malloc(sizeof(ky));
	memcpy(m->cal_x, kx, sizeof(kx));
	memcpy(m->cal_y, ky, sizeof(ky));
	mg_model_predict(m, X, N, cal, NULL);
	for (i = 0; i < N; i++)
		if (fabs(cal[i] - (0.1 + 0.8 * raw[i])) > 1e-12)
			break;
	ok(i == N, "calibrated: each probability mapped through the knots");
	b = save(m, &len);
	ok(b && load(b, len, &m2, NULL) == 0 && m2->ncal == 2 &&
	    m2->cal_y[1] == 0.9, "the knots round-trip");
	if (m2) {
		mg_model_predict(m2, X, N, back, NULL);
		ok(memcmp(cal, back, sizeof(cal)) == 0, "same calibrated "
		    "predictions after the round trip");
		mg_model_free(m2);
	}
	free(b);
	/* knots out of order, or a frequency above 1: a corrupt file */
	m->cal_x[1] = -1;
	b = save(m, &len);
	ok(b && load(b, len, &m2, &d) == MG_ECORRUPT, "knots out of order: "
	    "refused (%s)", d.msg);
	free(b);
	m->cal_x[1] = 1;
	m->cal_y[1] = 1.5;
	b = save(m, &len);
	ok(b && load(b, len, &m2, &d) == MG_ECORRUPT, "a frequency above 1: "
	    "refused");
	free(b);
	mg_model_free(m);
}

/* fields out of bounds under a valid CRC are refused, not used: a
 * window of 0xFFFFFFFF once overflowed the features' names */
static void
bounds(void)
{
	static const char *what[] = { "window 0xFFFFFFFF", "window 201",
	    "a NaN threshold", "an infinite threshold", "scale 0",
	    "a NaN mean", "decision rule 7 (neither regressor nor "
	    "classifier)" };
	struct mg_trainopts o;
	struct mg_model *m, *m2;
	struct mg_diag d;
	size_t len, k;
	unsigned char *b;

	mg_trainopts_init(&o);
	o.rounds = 5;
	if (mg_model_new("gbt", names, NF, &m, NULL) != 0 ||
	    mg_model_train(m, X, y, N, &o, NULL) != 0) {
		ok(0, "gbt trains");
		return;
	}
	m->window = 200;
	b = save(m, &len);
	ok(b != NULL && load(b, len, &m2, &d) == 0, "window 200 is read");
	if (b != NULL && m2 != NULL)
		mg_model_free(m2);
	free(b);
	for (k = 0; k < sizeof(what) / sizeof(what[0]); k++) {
		uint32_t window = m->window;
		double thr = m->threshold, scale = m->scale[0],
		    mean = m->mean[0];
		int clf = m->classifier;
		int rv;

		switch (k) {
		case 0: m->window = 0xFFFFFFFFu; break;
		case 1: m->window = 201; break;
		case 2: m->threshold = NAN; break;
		case 3: m->threshold = INFINITY; break;
		case 4: m->scale[0] = 0; break;
		case 5: m->mean[0] = NAN; break;
		case 6: m->classifier = 7; break;
		}
		b = save(m, &len);
		m2 = NULL;
		rv = b ? load(b, len, &m2, &d) : 0;
		ok(b != NULL && rv == MG_ECORRUPT && m2 == NULL &&
		    strstr(d.msg, "header is malformed") != NULL,
		    "%s is refused as corrupt", what[k]);
		free(b);
		m->window = window;
		m->threshold = thr;
		m->scale[0] = scale;
		m->mean[0] = mean;
		m->classifier = clf;
	}
	mg_model_free(m);
}

/* the threshold rule: a classifier's chance, a regressor's hours
 * raised to minus the time P has left */
static void
submits(void)
{
	char f_a[] = "f_a", *one[] = { f_a };
	struct mg_model *clf, *reg;
	double sc;

	if (mg_model_new("clf", one, 1, &clf, NULL) != 0 ||
	    mg_model_new("gbt", one, 1, &reg, NULL) != 0)
		return;
	sc = 0.5;
	ok(mg_rule_submits(clf, &sc, 0.5, 3) == 1, "a chance at the "
	    "threshold submits");
	sc = 0.49;
	ok(mg_rule_submits(clf, &sc, 0.5, 3) == 0 && sc == 0.49,
	    "below it waits, the score as it was");
	sc = -5;
	ok(mg_rule_submits(reg, &sc, 1, 2) == 0 && sc == -2,
	    "5 h of overlap predicted with 2 h left: 2 h, above 1 h: wait");
	sc = -5;
	ok(mg_rule_submits(reg, &sc, 2, 2) == 1 && sc == -2,
	    "the same at 2 h accepted: submit");
	sc = -5;
	ok(mg_rule_submits(reg, &sc, 1, -1) == 0 && sc == -5,
	    "P past its limit: the prediction as it is");
	mg_model_free(clf);
	mg_model_free(reg);
}

/*
 * A regressor's spread by the prediction's size: the errors of a wait
 * predicted a day out are wider than those of one an hour out, and a
 * size no held-out prediction had gives none; a model without bands
 * gives its spread over all.
 */
static void
bands(void)
{
	static float Xb[N], yb[N];
	static char *one[1] = { na };
	unsigned s = 777;
	struct mg_trainopts o;
	struct mg_model *m;
	double a10, a90, b10, b90, c10, c90;
	char *keep;
	size_t i;

	/* y = x from -40 to 40 h, with noise of a tenth of |x| */
	for (i = 0; i < N; i++) {
		double u, v;

		s = s * 1103515245u + 12345u;
		u = (double)((s >> 8) % 8000) / 100.0 - 40;
		s = s * 1103515245u + 12345u;
		v = (double)((s >> 8) % 2000) / 1000.0 - 1;
		Xb[i] = (float)u;
		yb[i] = (float)(u + 0.2 * fabs(u) * v);
	}
	mg_trainopts_init(&o);
	if (mg_model_new("gbt", one, 1, &m, NULL) != 0 ||
	    mg_model_train(m, Xb, yb, N, &o, NULL) != 0 ||
	    mg_model_calibrate(m, Xb, yb, N, &o, NULL) != 0) {
		ok(0, "a regressor trains and calibrates");
		return;
	}
	ok(strstr(m->params, "resid_p10_b1=") != NULL &&
	    strstr(m->params, "resid_p90_b3=") != NULL, "the spread by band "
	    "is kept: %s", m->params);
	ok(mg_model_band(0.5) == 0 && mg_model_band(-5) == 1 &&
	    mg_model_band(12) == 2 && mg_model_band(-35) == 3, "the bands: "
	    "under 2, 8, 24 h and above, either sign");
	ok(mg_model_spread_at(m, 5, &a10, &a90) == 0 &&
	    mg_model_spread_at(m, -35, &b10, &b90) == 0 &&
	    b90 - b10 > 4 * (a90 - a10), "a day out is wider than hours "
	    "out (%.2f against %.2f h)", b90 - b10, a90 - a10);
	/* a model without bands: its spread over all, whatever the size */
	keep = m->params;
	m->params = (char *)"resid_p10=-0.400 resid_p90=0.300";
	ok(mg_model_spread_at(m, -35, &c10, &c90) == 0 && c10 == -0.4 &&
	    c90 == 0.3, "without bands, the spread over all");
	/* a band with no held-out prediction: no spread, not another's */
	m->params = (char *)"resid_p10=-0.400 resid_p90=0.300 "
	    "resid_p10_b0=-0.1 resid_p90_b0=0.1";
	ok(mg_model_spread_at(m, -35, &c10, &c90) == -1 && isnan(c10) &&
	    mg_model_spread_at(m, 0.5, &c10, &c90) == 0 && c90 == 0.1,
	    "a band not measured gives no spread");
	m->params = keep;
	mg_model_free(m);
}

int
main(void)
{
	data();
	bands();
	kinds();
	damage();
	quantile();
	calibration();
	bounds();
	submits();
	return tap_done();
}
