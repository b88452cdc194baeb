/*
 * cluster.c: one interface over the reference and faithful models; see
 * cluster.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "cluster/cluster.h"
#include "cluster/simconf_int.h"
#include "cluster/dlattr.h"
#include "io/stream.h"

struct mg_cluster {
	enum mg_simmode mode;
	struct mg_sim *ref;
	struct mg_slurmsim *fs;
	int future;		/* a planner's future (mg_futuredef) */
	double chain_prio;	/* a future's chain jobs', faithful mode */
};

static int
time_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The reserved nodes over time, from the config's reservations, as
 * change points: the schedulers see them coming.
 */
static int
reservations(struct mg_clusterdef *def, const struct mg_simconf *c)
{
	size_t n = 0, i, m = 0;
	int64_t *tt = malloc((2 * (size_t)c->nresv + 1) * sizeof(*tt));
	int32_t *rr = malloc((2 * (size_t)c->nresv + 1) * sizeof(*rr));
	int r;

	if (tt == NULL || rr == NULL) {
		free(tt);
		free(rr);
		return MG_ENOMEM;
	}
	for (r = 0; r < c->nresv; r++) {
		tt[n++] = c->resv_start[r];
		tt[n++] = c->resv_end[r];
	}
	qsort(tt, n, sizeof(*tt), time_cmp);
	for (i = 0; i < n; i++) {
		int32_t held = 0;

		if (i > 0 && tt[i] == tt[i - 1])
			continue;
		for (r = 0; r < c->nresv; r++)
			if (c->resv_start[r] <= tt[i] && tt[i] < c->resv_end[r])
				held += c->resv_nodes[r];
		if (held == (m > 0 ? rr[m - 1] : 0))
			continue;
		tt[m] = tt[i];
		rr[m++] = held;
	}
	def->resv_time = tt;
	def->resv_nodes = rr;
	def->conf->slurm.resv_time = tt;
	def->conf->slurm.resv_nodes = rr;
	def->conf->slurm.resv_n = m;
	return 0;
}

struct byid {
	const char *id;
	size_t i;
};

static int
id_cmp(const void *a, const void *b)
{
	return strcmp(((const struct byid *)a)->id,
	    ((const struct byid *)b)->id);
}

/*
 * a side stream keyed by JobID (schema sch, its first field the id):
 * each record is read by from (0, or -1 with *bad naming the field) and
 * given by put to each trace job of its id (0, or a status with d
 * naming the record); a job it names that the trace lacks is ignored.
 * Returns 0, or a status with d naming the file (as key) and record.
 */
static int
read_byid(struct mg_clusterdef *def, const char *key, const char *path,
    const struct mg_schema *sch,
    int (*from)(const struct mg_value *, void *, const char **),
    int (*put)(struct mg_clusterdef *, size_t, const void *, size_t,
    struct mg_diag *), void *scratch, struct mg_diag *d)
{
	const struct mg_trace *t = def->trace;
	const struct mg_value *v;
	struct mg_reader *r = NULL;
	struct byid *by = malloc((t->n ? t->n : 1) * sizeof(*by));
	uint64_t *seen = calloc(t->n ? t->n : 1, sizeof(*seen));
	size_t i, lo, hi;
	FILE *fp = fopen(path, "rb");
	const char *bad;
	char id[sizeof(t->job[0].id)];
	int rv;

	if (by == NULL || seen == NULL || fp == NULL) {
		free(by);
		free(seen);
		if (fp != NULL)
			fclose(fp);
		return by == NULL || seen == NULL ? mg_diag_set(d, MG_ENOMEM,
		    "out of memory") :
		    mg_diag_set(d, MG_EIO, "cannot open '%s': %s", path,
		    strerror(errno));
	}
	for (i = 0; i < t->n; i++) {
		by[i].id = t->job[i].id;
		by[i].i = i;
	}
	qsort(by, t->n, sizeof(*by), id_cmp);
	if ((rv = mg_reader_open(fp, path, sch->type, &r, d)) == 0 &&
	    !mg_schema_equal(&mg_reader_info(r)->schema, sch))
		rv = mg_diag_set(d, MG_ETYPE, "not the %s fields of this "
		    "version (mirage-stream(5))", sch->type);
	while (rv == 0 && (rv = mg_reader_next(r, &v, d)) == 1) {
		rv = 0;
		if (from(v, scratch, &bad) != 0) {
			rv = mg_diag_set(d, MG_EFORMAT, "record %llu: bad %s",
			    (unsigned long long)mg_reader_count(r), bad);
			break;
		}
		if (v[0].len >= sizeof(id))
			continue;	/* longer than any trace id */
		memcpy(id, v[0].s, v[0].len);
		id[v[0].len] = '\0';
		for (lo = 0, hi = t->n; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(by[mid].id, id) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; rv == 0 && lo < t->n && strcmp(by[lo].id, id) == 0;
		    lo++) {
			/* one record a job: a second would silently win */
			if (seen[by[lo].i] != 0) {
				rv = mg_diag_set(d, MG_EFORMAT, "record %llu: "
				    "job %s again (record %llu gave it)",
				    (unsigned long long)mg_reader_count(r), id,
				    (unsigned long long)seen[by[lo].i]);
				break;
			}
			seen[by[lo].i] = mg_reader_count(r);
			rv = put(def, by[lo].i, scratch,
			    (size_t)mg_reader_count(r), d);
		}
	}
	mg_reader_free(r);
	fclose(fp);
	free(by);
	free(seen);
	if (rv != 0)
		mg_diag_prefix(d, "%s '%s'", key, path);
	return rv;
}

static int
dl_from(const struct mg_value *v, void *x, const char **bad)
{
	return mg_dlattr_from_record(v, x, bad);
}

static int
dl_put(struct mg_clusterdef *def, size_t i, const void *x, size_t rec,
    struct mg_diag *d)
{
	(void)rec;
	(void)d;
	def->dl[i] = *(const struct mg_dlattr *)x;
	return 0;
}

/* a dlattrs stream: its jobs' attributes over the drawn ones */
static int
read_dl(struct mg_clusterdef *def, const char *path, struct mg_diag *d)
{
	struct mg_dlattr a;

	return read_byid(def, "DLAttrFile", path, mg_dlattr_schema(), dl_from,
	    dl_put, &a, d);
}

static int
el_from(const struct mg_value *v, void *x, const char **bad)
{
	return mg_elastic_attr_from_record(v, x, bad);
}

static int
el_put(struct mg_clusterdef *def, size_t i, const void *x, size_t rec,
    struct mg_diag *d)
{
	const struct mg_elastic_attr *a = x;
	int32_t n = def->trace->job[i].nodes;

	if (a->min > n || a->max < n || a->max > def->conf->slurm.nodes)
		return mg_diag_set(d, MG_EFORMAT, "record %zu: job %s of %d "
		    "nodes cannot run on %d to %d of the cluster's %d", rec,
		    def->trace->job[i].id, n, a->min, a->max,
		    def->conf->slurm.nodes);
	def->el[i] = *a;
	return 0;
}

/* an elastic stream: its jobs are elastic, the others rigid */
static int
read_el(struct mg_clusterdef *def, const char *path, struct mg_diag *d)
{
	struct mg_elastic_attr a;
	size_t i;

	for (i = 0; i < def->trace->n; i++) {
		def->el[i].elastic = 0;
		def->el[i].min = def->el[i].max = def->trace->job[i].nodes;
		def->el[i].alpha = 1;
	}
	return read_byid(def, "ElasticFile", path, mg_elastic_attr_schema(),
	    el_from, el_put, &a, d);
}

/*
 * the inference pool's demand from the trace's first submission to two
 * weeks after its last, drawn or read
 */
static int
loaning(struct mg_clusterdef *def, const struct mg_simconf *conf,
    const struct mg_trace *t, struct mg_diag *d)
{
	struct mg_loangen g = conf->loangen;
	int64_t from = INT64_MAX, to = INT64_MIN;
	int32_t I = conf->slurm.inf_nodes;
	size_t i;
	int rv;

	if (conf->mode != MG_MODE_FAITHFUL)
		return mg_diag_set(d, MG_EINVAL, "loaning needs Mode=faithful");
	if (conf->inf_file[0] != '\0') {
		rv = mg_demand_read(conf->inf_file, conf->inf_capacity,
		    &def->dem_time, &def->dem_nodes,
		    &def->conf->slurm.dem_n, d);
	} else {
		for (i = 0; i < t->n; i++) {
			if (t->job[i].submit < from)
				from = t->job[i].submit;
			if (t->job[i].submit > to)
				to = t->job[i].submit;
		}
		if (t->n == 0)
			from = to = 0;
		from -= from % conf->slurm.loan_interval;
		g.nodes = I;
		if (g.base < 0)
			g.base = 0.25 * I;
		if (g.amp < 0)
			g.amp = 0.6 * I;
		if (g.noise < 0)
			g.noise = 0.05 * I;
		rv = mg_demand_diurnal(&g, from, to + 14 * 86400,
		    conf->slurm.loan_interval, &def->dem_time,
		    &def->dem_nodes, &def->conf->slurm.dem_n);
		if (rv != 0)
			rv = mg_diag_set(d, rv, "the inference demand: %s",
			    mg_strerror(rv));
	}
	def->conf->slurm.dem_time = def->dem_time;
	def->conf->slurm.dem_nodes = def->dem_nodes;
	return rv;
}

static int
clusterdef_init(struct mg_clusterdef *def, const struct mg_simconf *conf,
    struct mg_trace *t, struct mg_diag *d)
{
	int faithful = conf->mode == MG_MODE_FAITHFUL;
	size_t i;
	int rv;

	def->trace = t;
	def->nodes = faithful ? conf->slurm.nodes : conf->ref.nodes;
	if (faithful && ((rv = mg_simconf_partitions(def->conf,
	    t->part_name, t->nparts, d)) != 0 || (rv = mg_simconf_qos(
	    def->conf, t->qos_name, t->nqos, d)) != 0))
		return rv;
	if (faithful)
		def->nodes = def->conf->slurm.nodes;	/* partitions add up */
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *j = &t->job[i];

		if (faithful && def->conf->slurm.nparts > 0 && j->part >= 0 &&
		    j->nodes > def->conf->slurm.part_nodes[j->part])
			return mg_diag_set(d, MG_EINVAL, "job %s needs %d "
			    "nodes, partition '%s' has %d", j->id, j->nodes,
			    t->part_name[j->part],
			    def->conf->slurm.part_nodes[j->part]);
		if (j->nodes > def->nodes && (!faithful ||
		    def->conf->nparts == 0))
			return mg_diag_set(d, MG_EINVAL, "job %s needs %d "
			    "nodes, the cluster has %d", j->id, j->nodes,
			    def->nodes);
	}
	if (faithful && conf->dep_gap > 0)
		def->ndeps = mg_trace_infer_deps(t, conf->dep_gap, 600,
		    conf->slurm.max_jobs_per_user);
	if (faithful && conf->cap_window > 0) {
		if (mg_trace_capacity(t, conf->slurm.nodes, conf->cap_window,
		    conf->cap_slack, &def->cap_time, &def->cap_nodes,
		    &def->conf->slurm.cap_n) != 0)
			return mg_diag_set(d, MG_ENOMEM, "out of memory");
		def->conf->slurm.cap_time = def->cap_time;
		def->conf->slurm.cap_nodes = def->cap_nodes;
	}
	if (conf->nresv > 0 && !faithful)
		return mg_diag_set(d, MG_EINVAL, "reservations need "
		    "Mode=faithful");
	if ((conf->nresv > 0 || def->conf->slurm.cap_n > 0) &&
	    (def->conf->slurm.npools > 1 || (def->conf->slurm.npools == 0 &&
	    def->conf->slurm.nparts > 1)))
		return mg_diag_set(d, MG_EINVAL, "%s need%s a cluster of one "
		    "partition (or partitions of the same nodes)",
		    conf->nresv > 0 ? "reservations" : "CapacityFromTrace",
		    conf->nresv > 0 ? "" : "s");
	if (conf->nresv > 0 && reservations(def, conf) != 0)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	if (conf->slurm.inf_nodes > 0 && (rv = loaning(def, conf, t, d)) != 0)
		return rv;
	if (mg_slurmsim_params_preempts(&conf->slurm) || conf->slurm.inf_nodes > 0 ||
	    conf->el_share > 0 || conf->el_file[0] != '\0') {
		const char *what = mg_slurmsim_params_preempts(&conf->slurm) ?
		    "preemption" : conf->slurm.inf_nodes > 0 ? "loaning" :
		    "elasticity";

		if (!faithful)
			return mg_diag_set(d, MG_EINVAL, "%s needs "
			    "Mode=faithful", what);
		if (def->conf->slurm.npools > 1 || (def->conf->slurm.npools ==
		    0 && def->conf->slurm.nparts > 1))
			return mg_diag_set(d, MG_EINVAL, "%s needs a "
			    "cluster of one partition (or partitions of the "
			    "same nodes)", what);
		if ((def->dl = malloc((t->n ? t->n : 1) *
		    sizeof(*def->dl))) == NULL)
			return mg_diag_set(d, MG_ENOMEM, "out of memory");
		for (i = 0; i < t->n; i++)
			mg_dlattr_draw(&conf->slurm.dlgen, conf->dl_seed,
			    t->job[i].id, strlen(t->job[i].id), &def->dl[i]);
		def->conf->slurm.dl = def->dl;
		if (conf->el_share > 0 || conf->el_file[0] != '\0') {
			if ((def->el = malloc((t->n ? t->n : 1) *
			    sizeof(*def->el))) == NULL)
				return mg_diag_set(d, MG_ENOMEM, "out of "
				    "memory");
			for (i = 0; i < t->n; i++)
				mg_elastic_attr_draw(conf->el_share,
				    conf->el_alpha,
				    conf->dl_seed, t->job[i].id,
				    strlen(t->job[i].id), t->job[i].nodes,
				    def->conf->slurm.nodes, &def->el[i]);
			def->conf->slurm.el = def->el;
			def->conf->slurm.el_prof = def->conf->el_prof.n > 0 ?
			    &def->conf->el_prof : NULL;
			if (conf->el_file[0] != '\0' &&
			    (rv = read_el(def, conf->el_file, d)) != 0)
				return rv;
		}
		if (conf->dl_file[0] != '\0')
			return read_dl(def, conf->dl_file, d);
	}
	return 0;
}

void
mg_clusterdef_describe(const struct mg_clusterdef *def, char *buf,
    size_t cap)
{
	const struct mg_trace *t = def->trace;
	char parts[256] = "", a[32] = "-", b[32] = "-";
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t i, n = 0;

	for (i = 0; t != NULL && i < t->nparts; i++) {
		int k = snprintf(parts + n, sizeof(parts) - n, "%s%s",
		    i ? "," : "", t->part_name[i]);

		if (k < 0 || (size_t)k >= sizeof(parts) - n)
			break;
		n += (size_t)k;
	}
	for (i = 0; t != NULL && i < t->n; i++) {
		if (t->job[i].submit < lo)
			lo = t->job[i].submit;
		if (t->job[i].start + t->job[i].dur > hi)
			hi = t->job[i].start + t->job[i].dur;
	}
	if (lo <= hi) {
		mg_format_time(lo, a, sizeof(a));
		mg_format_time(hi, b, sizeof(b));
		a[10] = b[10] = '\0';
	}
	snprintf(buf, cap, "mode=%s nodes=%d partitions=%s trace_from=%s "
	    "trace_to=%s jobs=%zu", def->conf->mode == MG_MODE_FAITHFUL ?
	    "faithful" : "reference", (int)def->nodes, *parts ? parts : "-",
	    a, b, t ? t->n : 0);
}

int
mg_clusterdef_init(struct mg_clusterdef *def, const struct mg_simconf *conf,
    struct mg_trace *t, struct mg_diag *d)
{
	int rv;

	memset(def, 0, sizeof(*def));
	if ((def->conf = mg_simconf_dup(conf)) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	if ((rv = clusterdef_init(def, conf, t, d)) != 0)
		mg_clusterdef_release(def);
	return rv;
}

size_t
mg_clusterdef_capacity(const struct mg_clusterdef *def, const int64_t **time,
    const int32_t **nodes)
{
	*time = def->conf->slurm.cap_time;
	*nodes = def->conf->slurm.cap_nodes;
	return def->conf->slurm.cap_n;
}

void
mg_clusterdef_release(struct mg_clusterdef *def)
{
	mg_simconf_free(def->conf);
	def->conf = NULL;
	free(def->cap_time);
	free(def->cap_nodes);
	free(def->resv_time);
	free(def->resv_nodes);
	free(def->dl);
	free(def->dem_time);
	free(def->dem_nodes);
	free(def->el);
	def->el = NULL;
	def->dem_time = NULL;
	def->dem_nodes = NULL;
	def->dl = NULL;
	def->cap_time = NULL;
	def->cap_nodes = NULL;
	def->resv_time = NULL;
	def->resv_nodes = NULL;
}

int
mg_cluster_new(const struct mg_clusterdef *def, int64_t t0, int64_t to,
    struct mg_cluster **out)
{
	struct mg_cluster *c = calloc(1, sizeof(*c));
	int rv;

	*out = NULL;
	if (c == NULL)
		return MG_ENOMEM;
	c->mode = def->conf->mode;
	if (c->mode == MG_MODE_REFERENCE)
		rv = mg_sim_new(&def->conf->ref, def->trace, t0, t0, to,
		    &c->ref);
	else
		rv = mg_slurmsim_new_warm(&def->conf->slurm, def->trace, t0,
		    to, &c->fs);
	if (rv != 0) {
		free(c);
		return rv;
	}
	*out = c;
	return 0;
}

int
mg_cluster_new_future(const struct mg_futuredef *fd, const struct mg_trace *t,
    int64_t t0, int64_t to, struct mg_cluster **out)
{
	struct mg_cluster *c = calloc(1, sizeof(*c));
	struct mg_sim_params rc;
	struct mg_slurmsim_params fc;
	size_t i;
	int rv;

	*out = NULL;
	if (c == NULL)
		return MG_ENOMEM;
	c->mode = fd->mode;
	c->future = 1;
	c->chain_prio = fd->chain_prio;
	if (fd->mode == MG_MODE_REFERENCE) {
		mg_sim_params_reference(&rc, fd->nodes);
		if ((rv = mg_sim_new_warm(&rc, t, t0, to, &c->ref)) != 0)
			goto fail;
		mg_sim_set_bf_next(c->ref, fd->bf_next);
		for (i = 0; i < t->n; i++)
			if (t->job[i].submit < t0 && t->job[i].start >= t0)
				mg_sim_set_prio(c->ref, (mg_jobref)i,
				    (double)t->job[i].prio / fd->prio_scale);
	} else {
		mg_slurmsim_params_default(&fc, fd->nodes);
		fc.w_age = 0;
		fc.w_size = 0;
		fc.w_trace = 1.0 / fd->prio_scale;
		fc.bf_interval = fd->bf_interval;
		fc.max_jobs_per_user = fd->max_jobs_pu;
		fc.max_nodes_per_user = fd->max_nodes_pu;
		if (fd->cap_n > 1) {
			/* nodes enough for the most the capacity reaches */
			fc.cap_time = fd->cap_time;
			fc.cap_nodes = fd->cap_nodes;
			fc.cap_n = fd->cap_n;
			for (i = 0; i < fd->cap_n; i++)
				if (fc.nodes < fd->cap_nodes[i])
					fc.nodes = fd->cap_nodes[i];
		}
		if ((rv = mg_slurmsim_new_warm(&fc, t, t0, to, &c->fs)) != 0)
			goto fail;
	}
	*out = c;
	return 0;
fail:
	free(c);
	return rv;
}

struct mg_cluster *
mg_cluster_copy(const struct mg_cluster *c)
{
	struct mg_cluster *d = calloc(1, sizeof(*d));

	if (d == NULL)
		return NULL;
	d->mode = c->mode;
	d->future = c->future;
	d->chain_prio = c->chain_prio;
	if (c->ref && (d->ref = mg_sim_copy(c->ref)) == NULL)
		goto fail;
	if (c->fs && (d->fs = mg_slurmsim_copy(c->fs)) == NULL)
		goto fail;
	return d;
fail:
	mg_cluster_free(d);
	return NULL;
}

void
mg_cluster_free(struct mg_cluster *c)
{
	if (c == NULL)
		return;
	mg_sim_free(c->ref);
	mg_slurmsim_free(c->fs);
	free(c);
}

int
mg_cluster_run(struct mg_cluster *c, int64_t t)
{
	if (c->ref) {
		/* a future: to the minute that holds t */
		while (mg_sim_time(c->ref) + (c->future ? 60 : 1) <= t)
			mg_sim_step(c->ref);
		return 0;
	}
	return mg_slurmsim_run(c->fs, t - 1);
}

int64_t
mg_cluster_time(const struct mg_cluster *c)
{
	if (c->ref)
		return mg_sim_time(c->ref);
	return mg_slurmsim_time(c->fs) + 1;
}

int32_t
mg_cluster_add_job(struct mg_cluster *c, const char *id, int32_t nodes,
    int64_t limit, int64_t dur, int64_t submit, int32_t pred)
{
	int32_t j;
	int rv;

	if (c->ref)
		return mg_sim_add_chain_job(c->ref, id, nodes, limit, dur,
		    submit, pred, !c->future && submit > mg_sim_time(c->ref));
	j = mg_slurmsim_add_job(c->fs, nodes, limit, dur, submit, pred, -1);
	if (j >= 0 && c->future && (rv = mg_slurmsim_set_prio(c->fs, j,
	    c->chain_prio)) != 0)
		return rv;
	return j;
}

int
mg_cluster_run_until_start(struct mg_cluster *c, int32_t j, int64_t limit)
{
	int rv;

	if (c->ref)
		return mg_sim_run_until_start(c->ref, j, limit);
	rv = mg_slurmsim_run_until_start(c->fs, j, limit - 1);
	if (rv == 0 && mg_slurmsim_run(c->fs, limit - 1) != 0)
		return MG_ENOMEM;
	return rv;
}

int64_t
mg_cluster_job_start(const struct mg_cluster *c, int32_t j)
{
	if (c->ref)
		return mg_sim_job_start(c->ref, j);
	return mg_slurmsim_job_start(c->fs, (size_t)j);
}

int64_t
mg_cluster_job_end(const struct mg_cluster *c, int32_t j)
{
	if (c->ref)
		return mg_sim_job_end(c->ref, j);
	return mg_slurmsim_job_end(c->fs, (size_t)j);
}

size_t
mg_cluster_pending(const struct mg_cluster *c)
{
	if (c->ref)
		return mg_sim_pending(c->ref);
	return mg_slurmsim_pending(c->fs);
}

int
mg_cluster_set_user(struct mg_cluster *c, int32_t j, int32_t user)
{
	if (c->ref)
		return 0;	/* the reference model has no users */
	return mg_slurmsim_set_user(c->fs, j, user);
}

int
mg_cluster_set_handover(struct mg_cluster *c, int32_t j, int64_t secs)
{
	if (c->ref)
		return mg_sim_set_handover(c->ref, j, secs);
	return mg_slurmsim_set_handover(c->fs, j, secs);
}

int
mg_cluster_set_begin(struct mg_cluster *c, int32_t j, int64_t t)
{
	if (c->ref)
		return MG_EINVAL;
	return mg_slurmsim_set_begin(c->fs, j, t);
}

int
mg_cluster_set_low(struct mg_cluster *c, int32_t j, int64_t until)
{
	if (c->ref)
		return mg_sim_set_low(c->ref, j, until);
	return mg_slurmsim_set_low(c->fs, j, until);
}

int64_t
mg_cluster_job_submit(const struct mg_cluster *c, int32_t j)
{
	if (c->ref)
		return mg_sim_job_submit(c->ref, j);
	return mg_slurmsim_job_submit(c->fs, (size_t)j);
}

int64_t
mg_cluster_gap(const struct mg_cluster *c, int32_t j, int *ok)
{
	if (c->ref)
		return mg_sim_chain_gap(c->ref, j, ok);
	return mg_slurmsim_chain_gap(c->fs, j, ok);
}

int
mg_clusterdef_preempts(const struct mg_clusterdef *def)
{
	return def->conf->mode == MG_MODE_FAITHFUL && def->conf->slurm.dl !=
	    NULL && mg_slurmsim_params_preempts(&def->conf->slurm);
}

int
mg_cluster_set_urgent(struct mg_cluster *c, int32_t j)
{
	return c->ref ? MG_EINVAL : mg_slurmsim_set_urgent(c->fs, j);
}

double
mg_cluster_victims_lost(const struct mg_cluster *c, int32_t j)
{
	struct mg_joblife p;

	if (c->ref || j < 0 || (size_t)j >= mg_slurmsim_njobs(c->fs))
		return 0;
	mg_slurmsim_job_preempt(c->fs, (size_t)j, &p);
	return p.caused;
}

int
mg_cluster_avg_wait(const struct mg_cluster *c, int64_t *sec)
{
	int64_t m;
	size_t q;

	if (c->ref) {
		if (mg_sim_stats_after_start(c->ref, &m, &q) != 0)
			return MG_ENOMEM;
		*sec = m * 60;
		return 0;
	}
	if ((m = mg_slurmsim_avg_wait(c->fs, 100)) < 0)
		return MG_ENOMEM;
	*sec = m;
	return 0;
}

int
mg_cluster_view(const struct mg_cluster *c, int32_t s_nodes, int64_t recent,
    struct mg_view *v)
{
	int rv;

	if (c->ref)
		return mg_sim_view(c->ref, s_nodes, recent, v);
	rv = mg_slurmsim_view(c->fs, s_nodes, recent, v);
	v->t = mg_cluster_time(c);
	return rv;
}

/* a reference replay: every job fits, so each starts within the limits */
static int
replay_ref(const struct mg_clusterdef *def, int64_t first, int64_t last,
    struct mg_replay *r)
{
	const struct mg_trace *t = def->trace;
	struct mg_sim *s;
	int64_t end = last;
	size_t i;
	int rv;

	if ((rv = mg_sim_new(&def->conf->ref, t, first, first, last, &s)) != 0)
		return rv;
	for (i = 0; i < t->n; i++)
		end += t->job[i].limit + 60;
	while (mg_sim_started(s) < mg_sim_njobs(s) && mg_sim_time(s) < end)
		mg_sim_step(s);
	for (i = 0; i < t->n; i++)
		r->start[i] = mg_sim_job_start(s, (mg_jobref)i);
	mg_sim_free(s);
	return 0;
}

static int
replay_faithful(const struct mg_clusterdef *def, int64_t first,
    int64_t last, int flags, struct mg_replay *r)
{
	const struct mg_trace *t = def->trace;
	struct mg_slurmsim *s;
	struct mg_joblife x;
	const double *a, *b;
	size_t i, n;
	int rv;

	if ((rv = mg_slurmsim_new(&def->conf->slurm, t, first, first, last,
	    &s)) != 0)
		return rv;
	if ((rv = mg_slurmsim_run_all(s)) != 0)
		goto out;
	for (i = 0; i < t->n; i++) {
		mg_slurmsim_job_preempt(s, i, &x);
		r->start[i] = x.first_start;
		if (r->life != NULL)
			r->life[i] = x;
	}
	mg_slurmsim_loan_stats(s, &r->loan);
	if (flags & MG_REPLAY_HOURS) {
		n = mg_slurmsim_loan_hours(s, &r->hour0, &a, &b);
		r->lent = malloc((n ? n : 1) * sizeof(double));
		r->used = malloc((n ? n : 1) * sizeof(double));
		if (r->lent == NULL || r->used == NULL) {
			rv = MG_ENOMEM;
			goto out;
		}
		r->nhours = n;
		if (n > 0) {
			memcpy(r->lent, a, n * sizeof(double));
			memcpy(r->used, b, n * sizeof(double));
		}
	}
out:
	mg_slurmsim_free(s);
	return rv;
}

int
mg_cluster_replay(const struct mg_clusterdef *def, int64_t first,
    int64_t last, int flags, struct mg_replay *r, struct mg_diag *d)
{
	const struct mg_trace *t = def->trace;
	size_t i;
	int rv;

	memset(r, 0, sizeof(*r));
	if ((r->start = malloc((t->n ? t->n : 1) * sizeof(*r->start))) ==
	    NULL || ((flags & MG_REPLAY_LIFE) && def->conf->mode ==
	    MG_MODE_FAITHFUL && (r->life = malloc((t->n ? t->n : 1) *
	    sizeof(*r->life))) == NULL)) {
		rv = MG_ENOMEM;
		goto fail;
	}
	rv = def->conf->mode == MG_MODE_REFERENCE ? replay_ref(def, first, last,
	    r) : replay_faithful(def, first, last, flags, r);
	if (rv != 0)
		goto fail;
	for (i = 0; i < t->n; i++)
		if (r->start[i] < 0) {
			mg_cluster_replay_release(r);
			return mg_diag_set(d, MG_EINVAL, "job %s (%d nodes) "
			    "never starts in this model", t->job[i].id,
			    t->job[i].nodes);
		}
	return 0;
fail:
	mg_cluster_replay_release(r);
	return mg_diag_set(d, rv, "the replay: %s", mg_strerror(rv));
}

void
mg_cluster_replay_release(struct mg_replay *r)
{
	free(r->start);
	free(r->life);
	free(r->lent);
	free(r->used);
	memset(r, 0, sizeof(*r));
}
