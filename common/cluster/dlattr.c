/*
 * dlattr.c: deep-learning jobs' preemption overheads; see dlattr.h.
 */
#include <math.h>
#include <string.h>

#include "cluster/dlattr.h"
#include "base/rand.h"

/*
 * Model families: parameters x 4 bytes; a checkpoint holds the weights
 * and Adam's two moments (3x); the data cache a node keeps.  ResNet-50
 * 25.6 M parameters on ImageNet; BERT-large 340 M on a text corpus;
 * GPT-2 XL 1.5 G on OpenWebText; a ResNet-18 on CIFAR-10.
 */
static const struct family {
	double model_mb, data_mb, init_s;
} fam[] = {
	{ 102, 20000, 60 },
	{ 1360, 10000, 90 },
	{ 6200, 40000, 120 },
	{ 45, 180, 30 },
};
#define NFAM (sizeof(fam) / sizeof(fam[0]))

void
mg_dlgen_default(struct mg_dlgen *g)
{
	g->epoch_min = 60;
	g->epoch_max = 3600;
	g->equal = 0;
	g->urgent_share = 0.1;
	g->bw_store = 1000;
	g->bw_net = 2000;
}

void
mg_dlattr_draw(const struct mg_dlgen *g, uint64_t seed, const char *id,
    size_t idlen, struct mg_dlattr *a)
{
	uint64_t s = seed ^ 0x9E3779B97F4A7C15ULL, h = 1469598103934665603ULL;
	const struct family *f;
	size_t i;

	for (i = 0; i < idlen; i++)	/* FNV-1a of the id */
		h = (h ^ (unsigned char)id[i]) * 1099511628211ULL;
	s ^= h;
	(void)mg_rand64(&s);
	f = &fam[g->equal ? 0 : mg_rand64(&s) % NFAM];
	a->epoch_s = g->equal ? sqrt(g->epoch_min * g->epoch_max) :
	    g->epoch_min * pow(g->epoch_max / g->epoch_min,
	    mg_rand_unif(&s));
	a->model_mb = f->model_mb;
	a->ckpt_mb = 3 * f->model_mb;
	a->data_mb = f->data_mb;
	a->init_s = f->init_s;
	a->urgent = mg_rand_unif(&s) < g->urgent_share;
}

double
mg_dlattr_release_time(const struct mg_dlattr *a, const struct mg_dlgen *g,
    double ran, double left)
{
	/* a job without epochs (epoch_s 0) stops at once, then writes */
	double phi = ran > 0 && a->epoch_s > 0 ? fmod(ran, a->epoch_s) /
	    a->epoch_s : 0;
	double r = (1 - phi) * (a->epoch_s > 0 ? a->epoch_s : 0) +
	    a->ckpt_mb / g->bw_store;

	return left < r ? (left > 0 ? left : 0) : r;
}

double
mg_dlattr_resume_time(const struct mg_dlattr *a, const struct mg_dlgen *g)
{
	return a->model_mb / g->bw_store + a->data_mb / g->bw_net + a->init_s;
}

static const struct mg_field fields[] = {
	{ "jobid", MG_T_STR },
	{ "class", MG_T_STR },
	{ "epoch_s", MG_T_F64 },
	{ "ckpt_mb", MG_T_F64 },
	{ "model_mb", MG_T_F64 },
	{ "data_mb", MG_T_F64 },
	{ "init_s", MG_T_F64 },
};
static const struct mg_schema schema = { "dlattrs", MG_DL_NFIELDS, fields };

const struct mg_schema *
mg_dlattr_schema(void)
{
	return &schema;
}

static void
f64(struct mg_value *v, double x)
{
	memset(v, 0, sizeof(*v));
	v->f = x;
}

void
mg_dlattr_to_record(const struct mg_dlattr *a, const char *id, size_t idlen,
    struct mg_value *rec)
{
	static const char urg[] = "urgent", be[] = "best-effort";

	memset(&rec[MG_DL_JOBID], 0, sizeof(rec[0]));
	rec[MG_DL_JOBID].s = id;
	rec[MG_DL_JOBID].len = idlen;
	memset(&rec[MG_DL_CLASS], 0, sizeof(rec[0]));
	rec[MG_DL_CLASS].s = a->urgent ? urg : be;
	rec[MG_DL_CLASS].len = a->urgent ? sizeof(urg) - 1 : sizeof(be) - 1;
	f64(&rec[MG_DL_EPOCH_S], a->epoch_s);
	f64(&rec[MG_DL_CKPT_MB], a->ckpt_mb);
	f64(&rec[MG_DL_MODEL_MB], a->model_mb);
	f64(&rec[MG_DL_DATA_MB], a->data_mb);
	f64(&rec[MG_DL_INIT_S], a->init_s);
}

static int
is(const struct mg_value *v, const char *s)
{
	return !v->null && v->len == strlen(s) && memcmp(v->s, s, v->len) == 0;
}

int
mg_dlattr_from_record(const struct mg_value *rec, struct mg_dlattr *a,
    const char **msg)
{
	static const char *names[] = { "jobid", "class", "epoch_s", "ckpt_mb",
	    "model_mb", "data_mb", "init_s" };
	double *x[] = { &a->epoch_s, &a->ckpt_mb, &a->model_mb, &a->data_mb,
	    &a->init_s };
	int i;

	if (rec[MG_DL_JOBID].null || rec[MG_DL_JOBID].len == 0) {
		if (msg)
			*msg = names[MG_DL_JOBID];
		return -1;
	}
	if (!is(&rec[MG_DL_CLASS], "urgent") &&
	    !is(&rec[MG_DL_CLASS], "best-effort")) {
		if (msg)
			*msg = names[MG_DL_CLASS];
		return -1;
	}
	a->urgent = is(&rec[MG_DL_CLASS], "urgent");
	for (i = MG_DL_EPOCH_S; i < MG_DL_NFIELDS; i++) {
		const struct mg_value *v = &rec[i];

		if (v->null || !isfinite(v->f) || v->f < 0 ||
		    (i == MG_DL_EPOCH_S && v->f <= 0)) {
			if (msg)
				*msg = names[i];
			return -1;
		}
		*x[i - MG_DL_EPOCH_S] = v->f;
	}
	return 0;
}
