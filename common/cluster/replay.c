/*
 * replay.c: a replay's fidelity, figures, hours and attributes
 * (replay.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "cluster/replay.h"
#include "cluster/simconf_int.h"
#include "cluster/dlattr.h"
#include "cluster/elastic.h"
#include "base/stats.h"

static int mg_replay_write_el(FILE *fp, const struct mg_clusterdef *def,
    const struct mg_trace *t, const struct mg_writer_opts *wo,
    struct mg_diag *d);

#define NGROUP 12
#define NPLAIN 10	/* the last two: with classes only */

static const char *const group_name[NGROUP] = {
	"all", "nodes=1", "nodes=2-4", "nodes=5-16", "nodes>=17",
	"limit<=1h", "limit<=6h", "limit<=24h", "limit<=48h", "limit>48h",
	"class=urgent", "class=best-effort",
};
#define GRP 3		/* groups a job is in, besides all */

static int
size_group(int32_t n)
{
	return n <= 1 ? 1 : n <= 4 ? 2 : n <= 16 ? 3 : 4;
}

static int
limit_group(int64_t s)
{
	return s <= 3600 ? 5 : s <= 6 * 3600 ? 6 : s <= 24 * 3600 ? 7 :
	    s <= 48 * 3600 ? 8 : 9;
}

/* one summary row over the jobs whose group mask has g */
static int
row(FILE *out, int g, const unsigned char *grp, const double *real,
    const double *sim, size_t n)
{
	double *r = malloc(n * sizeof(*r)), *s = malloc(n * sizeof(*s));
	double *e = malloc(n * sizeof(*e));
	double sr = 0, ss = 0, sae = 0, sb = 0, w10 = 0, w60 = 0;
	size_t i, k = 0;

	if (r == NULL || s == NULL || e == NULL) {
		free(r);
		free(s);
		free(e);
		return MG_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (g != 0 && grp[GRP * i] != g && grp[GRP * i + 1] != g &&
		    grp[GRP * i + 2] != g)
			continue;
		r[k] = real[i];
		s[k] = sim[i];
		e[k] = fabs(sim[i] - real[i]);
		sr += real[i];
		ss += sim[i];
		sae += e[k];
		sb += sim[i] - real[i];
		w10 += e[k] <= 600;
		w60 += e[k] <= 3600;
		k++;
	}
	if (k == 0)
		fprintf(out, "%s\t0\t\t\t\t\t\t\t\t\n", group_name[g]);
	else
		fprintf(out, "%s\t%zu\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t"
		    "%.3f\t%.3f\n", group_name[g], k, sr / k / 3600,
		    ss / k / 3600, sae / k / 3600,
		    mg_quantile(e, k, 0.5) / 3600, sb / k / 3600, mg_spearman(r, s, k), w10 / k, w60 / k);
	free(r);
	free(s);
	free(e);
	return MG_OK;
}

/*
 * mg_replay_write_fidelity: the fidelity table (mirage-eval(1)): per
 * group of jobs (all, by size, by limit, and with classes by urgent and
 * best-effort), the real and simulated mean waits, their errors, bias,
 * rank correlation and the shares within 10 minutes and an hour.
 * classes needs r->life.
 */
static int
mg_replay_write_fidelity(FILE *fp, const struct mg_trace *t,
    const struct mg_replay *rp, int classes, struct mg_diag *d)
{
	size_t i, n = t->n ? t->n : 1;
	double *real = malloc(n * sizeof(*real));
	double *simw = malloc(n * sizeof(*simw));
	unsigned char *grp = malloc(GRP * n);
	int g, rv = MG_OK;

	if (real == NULL || simw == NULL || grp == NULL)
		rv = MG_ENOMEM;
	/* the simulator keeps the trace's window order: index = trace */
	for (i = 0; rv == 0 && i < t->n; i++) {
		/*
		 * Reference-mode starts fall on whole minutes, so a job that
		 * starts in its submission minute has a wait of up to -59 s;
		 * it is kept signed, as the original's figures were computed.
		 */
		real[i] = (double)(t->job[i].start - t->job[i].submit);
		simw[i] = (double)(rp->start[i] - t->job[i].submit);
		grp[GRP * i] = (unsigned char)size_group(t->job[i].nodes);
		grp[GRP * i + 1] = (unsigned char)limit_group(t->job[i].limit);
		grp[GRP * i + 2] = classes ? (rp->life[i].urgent ? NPLAIN :
		    NPLAIN + 1) : 0xFF;
	}
	if (rv == 0)
		fprintf(fp, "group\tjobs\treal_mean_wait_h\tsim_mean_wait_h\t"
		    "wait_mae_h\twait_median_abs_err_h\twait_bias_h\tspearman\t"
		    "share_within_10min\tshare_within_1h\n");
	for (g = 0; rv == 0 && g < (classes ? NGROUP : NPLAIN); g++)
		rv = row(fp, g, grp, real, simw, t->n);
	free(real);
	free(simw);
	free(grp);
	return rv != 0 ? mg_diag_set(d, rv, "out of memory") : MG_OK;
}

void
mg_replay_write_jobs(FILE *fp, const struct mg_trace *t,
    const struct mg_replay *rp, int lives)
{
	size_t i;

	fprintf(fp, "jobid\tnodes\tlimit_h\tsubmit\treal_wait_s\t"
	    "sim_wait_s%s\n", lives ? "\tclass\tpreemptions\tlost_node_h\t"
	    "sim_end" : "");
	for (i = 0; i < t->n; i++) {
		const struct mg_trace_job *j = &t->job[i];

		fprintf(fp, "%s\t%d\t%.4f\t%lld\t%.0f\t%.0f", j->id, j->nodes,
		    (double)j->limit / 3600, (long long)j->submit,
		    (double)(j->start - j->submit),
		    (double)(rp->start[i] - j->submit));
		if (lives)
			fprintf(fp, "\t%s\t%d\t%.4f\t%lld",
			    rp->life[i].urgent ? "urgent" : "best-effort",
			    rp->life[i].npreempt, rp->life[i].lost / 3600,
			    (long long)rp->life[i].end);
		fputc('\n', fp);
	}
}

/* mg_replay_stats: s from a replay with lives of t on def */
static int
mg_replay_stats(const struct mg_clusterdef *def, const struct mg_trace *t,
    const struct mg_replay *rp, struct mg_replaystats *s)
{
	const struct mg_joblife *pj = rp->life;
	double *w = malloc((t->n ? t->n : 1) * sizeof(*w)), jct = 0;
	int64_t first = INT64_MAX, last = INT64_MIN;
	size_t i, k;
	int c;

	memset(s, 0, sizeof(*s));
	if (w == NULL)
		return MG_ENOMEM;
	for (i = 0; i < t->n; i++) {
		if (t->job[i].submit < first)
			first = t->job[i].submit;
		if (pj[i].end > last)
			last = pj[i].end;
		s->preemptions += (size_t)pj[i].npreempt;
		s->lost_h += pj[i].lost * (def->conf->gpus_per_node > 0 ?
		    def->conf->gpus_per_node : 1);
		jct += (double)(pj[i].end - t->job[i].submit) / 3600;
	}
	s->lost_h /= 3600;
	s->makespan_h = (double)(last - first) / 3600;
	s->jct_mean_h = t->n ? jct / (double)t->n : 0;
	for (c = 0; c < 3; c++) {
		double sum = 0;

		for (i = k = 0; i < t->n; i++)
			if (c == 2 || pj[i].urgent == (c == 0)) {
				w[k] = (double)(rp->start[i] -
				    t->job[i].submit) / 3600;
				sum += w[k++];
			}
		s->wait[c].n = k;
		s->wait[c].mean_h = k ? sum / (double)k : 0;
		s->wait[c].median_h = mg_quantile(w, k, 0.5);
		s->wait[c].p95_h = mg_quantile(w, k, 0.95);
	}
	free(w);
	return MG_OK;
}

/* mg_replay_write_hours: with MG_REPLAY_HOURS, the inference pool hour
 * by hour, as TSV: its demand, the nodes lent and those used */
static void
mg_replay_write_hours(FILE *fp, const struct mg_clusterdef *def,
    const struct mg_replay *hr)
{
	size_t k, q = 0;

	fprintf(fp, "time\tdemand_nodes\tlent_nodes\tlent_used_nodes\n");
	for (k = 0; k < hr->nhours; k++) {
		int64_t t = hr->hour0 + (int64_t)k * 3600;

		while (q < def->conf->slurm.dem_n &&
		    def->conf->slurm.dem_time[q] <= t)
			q++;
		fprintf(fp, "%lld\t%d\t%.2f\t%.2f\n", (long long)t,
		    q > 0 ? def->conf->slurm.dem_nodes[q - 1] : 0,
		    hr->lent[k] / 3600, hr->used[k] / 3600);
	}
}

/* a side stream of t's jobs: schema's records, one for each job that
 * fill makes one of */
static int
write_side(FILE *fp, const struct mg_schema *schema,
    const struct mg_clusterdef *def, const struct mg_trace *t,
    const struct mg_writer_opts *wo, struct mg_diag *d,
    int (*fill)(const struct mg_clusterdef *, const struct mg_trace *,
    size_t, struct mg_value *))
{
	struct mg_value v[16];
	struct mg_writer *w;
	size_t i;
	int rv;

	if ((rv = mg_writer_open(fp, schema, wo, &w, d)) != 0)
		return rv;
	for (i = 0; i < t->n; i++)
		if (fill(def, t, i, v) && (rv = mg_writer_put(w, v, d)) != 0) {
			mg_writer_free(w);
			return rv;
		}
	return mg_writer_close(w, d);
}

static int
fill_dl(const struct mg_clusterdef *def, const struct mg_trace *t, size_t i,
    struct mg_value *v)
{
	mg_dlattr_to_record(&def->dl[i], t->job[i].id, strlen(t->job[i].id),
	    v);
	return 1;
}

static int
fill_el(const struct mg_clusterdef *def, const struct mg_trace *t, size_t i,
    struct mg_value *v)
{
	if (!def->el[i].elastic)
		return 0;
	mg_elastic_attr_to_record(&def->el[i], t->job[i].id,
	    strlen(t->job[i].id), v);
	return 1;
}

/*
 * mg_replay_write_dl, mg_replay_write_el: the deep-learning attributes
 * def drew for t's jobs (preemption), or its elastic jobs' (a dlattrs or
 * an elastic stream, mirage-stream(5)); MG_EINVAL if def has none
 */
static int
mg_replay_write_dl(FILE *fp, const struct mg_clusterdef *def,
    const struct mg_trace *t, const struct mg_writer_opts *wo,
    struct mg_diag *d)
{
	if (def->dl == NULL)
		return mg_diag_set(d, MG_EINVAL, "no preemption, no "
		    "deep-learning attributes");
	return write_side(fp, mg_dlattr_schema(), def, t, wo, d, fill_dl);
}

static int
mg_replay_write_el(FILE *fp, const struct mg_clusterdef *def,
    const struct mg_trace *t, const struct mg_writer_opts *wo,
    struct mg_diag *d)
{
	if (def->el == NULL)
		return mg_diag_set(d, MG_EINVAL, "no elastic jobs");
	return write_side(fp, mg_elastic_attr_schema(), def, t, wo, d,
	    fill_el);
}

/* what preemption did: waits by class (mean, median, p95), the
 * makespan, preemptions and what they cost */
static void
preempt_summary(FILE *fp, const char *prefix, const struct mg_simconf *conf,
    const struct mg_replaystats *s)
{
	const char *mode, *victims;
	int c;

	(void)mg_simconf_preempts(conf, &mode, &victims);
	fprintf(fp, "%spreemption (PreemptMode=%s, VictimPolicy=%s): %zu "
	    "preemptions, %.1f %s-hours lost, makespan %.1f h\n", prefix,
	    mode, victims, s->preemptions, s->lost_h,
	    mg_simconf_gpus_per_node(conf) > 0 ? "GPU" : "node",
	    s->makespan_h);
	for (c = 0; c < 3; c++)
		if (s->wait[c].n > 0)
			fprintf(fp, "%s  %-11s %6zu jobs, wait mean %.2f h, "
			    "median %.2f h, p95 %.2f h\n", prefix, c == 0 ?
			    "urgent" : c == 1 ? "best-effort" : "all",
			    s->wait[c].n, s->wait[c].mean_h,
			    s->wait[c].median_h, s->wait[c].p95_h);
}

/* what loaning did: usage, reclaims, SLO, waits, JCT */
static void
loan_summary(FILE *fp, const char *prefix, const struct mg_simconf *conf,
    const struct mg_loanstats *ls, const struct mg_replaystats *s)
{
	const char *reclaim;
	int32_t inf = mg_simconf_loans(conf, &reclaim);

	fprintf(fp, "%sloaning (InferenceNodes=%d, ReclaimPolicy=%s): %.0f "
	    "node-hours lent (%.1f nodes on average); usage %.1f%% of the "
	    "cluster and its loans, %.1f%% of the lent nodes; %lld reclaims "
	    "preempting %lld jobs and shrinking %lld; %lld SLO violations "
	    "(%.2f node-hours short)\n", prefix, inf, reclaim,
	    ls->lent_ns / 3600, ls->span_s > 0 ? ls->lent_ns / ls->span_s : 0,
	    ls->cap_ns > 0 ? 100 * ls->busy_ns / ls->cap_ns : 0,
	    ls->lent_ns > 0 ? 100 * ls->lent_busy_ns / ls->lent_ns : 0,
	    (long long)ls->reclaims, (long long)ls->reclaim_jobs,
	    (long long)ls->reclaim_shrinks, (long long)ls->slo_violations,
	    ls->slo_short_ns / 3600);
	fprintf(fp, "%s  all %7zu jobs, wait mean %.2f h, p95 %.2f h; "
	    "completion time mean %.2f h\n", prefix, s->wait[2].n,
	    s->wait[2].mean_h, s->wait[2].p95_h, s->jct_mean_h);
}

int
mg_replay_write_summary(FILE *fp, const char *prefix,
    const struct mg_clusterdef *def, const struct mg_trace *t,
    const struct mg_replay *r)
{
	int preempt = mg_simconf_preempts(def->conf, NULL, NULL);
	int loan = mg_simconf_loans(def->conf, NULL) > 0;
	struct mg_replaystats s;

	fprintf(fp, "%sreplayed %zu jobs (%zu skipped: never ran) on %d "
	    "nodes, %s mode, %zu dependencies inferred\n", prefix, t->n,
	    t->skipped, def->nodes, mg_simconf_mode(def->conf) ==
	    MG_MODE_REFERENCE ? "reference" : "faithful", def->ndeps);
	memset(&s, 0, sizeof(s));
	if ((preempt || loan) && mg_replay_stats(def, t, r, &s) != 0)
		return MG_ENOMEM;
	if (preempt)
		preempt_summary(fp, prefix, def->conf, &s);
	if (loan)
		loan_summary(fp, prefix, def->conf, &r->loan, &s);
	if (mg_simconf_mode(def->conf) == MG_MODE_FAITHFUL && def->el != NULL)
		fprintf(fp, "%selastic jobs grew %lld times and shrank %lld\n",
		    prefix, (long long)r->loan.grows,
		    (long long)r->loan.shrinks);
	return 0;
}

int
mg_replay_write_files(const struct mg_clusterdef *def,
    const struct mg_trace *t, const struct mg_replay *r, const char *out,
    const char *jobs, const char *hours, int classes, int lives,
    struct mg_diag *d)
{
	struct mg_out o, jo;
	int rv;

	if (jobs != NULL) {
		if ((rv = mg_out_open(&jo, jobs, d)) != 0)
			return rv;
		mg_replay_write_jobs(jo.fp, t, r, lives);
	}
	if ((rv = mg_out_open(&o, out, d)) != 0 ||
	    (rv = mg_replay_write_fidelity(o.fp, t, r, classes, d)) != 0) {
		mg_out_abort(&o);	/* none, if it could not open */
		if (jobs != NULL)
			mg_out_abort(&jo);
		return rv;
	}
	if (jobs != NULL && (rv = mg_out_commit(&jo, d)) != 0) {
		mg_out_abort(&o);
		return rv;
	}
	if ((rv = mg_out_commit(&o, d)) != 0 || hours == NULL)
		return rv;
	if ((rv = mg_out_open(&o, hours, d)) != 0)
		return rv;
	mg_replay_write_hours(o.fp, def, r);
	return mg_out_commit(&o, d);
}

/* a stream of def's attributes to path by write, whole or not at all */
static int
attrs(const char *path, const struct mg_clusterdef *def,
    const struct mg_trace *t, const struct mg_writer_opts *wo,
    int (*write)(FILE *, const struct mg_clusterdef *,
    const struct mg_trace *, const struct mg_writer_opts *,
    struct mg_diag *), struct mg_diag *d)
{
	struct mg_diag w = { "" };
	struct mg_out o;
	int rv;

	if ((rv = mg_out_open(&o, path, d)) != 0)
		return rv;
	if ((rv = write(o.fp, def, t, wo, &w)) != 0 ||
	    (rv = mg_out_commit(&o, &w)) != 0) {
		mg_out_abort(&o);
		return mg_diag_set(d, rv, "'%s': %s", path, w.msg);
	}
	return 0;
}

int
mg_replay_write_attrs(const struct mg_clusterdef *def,
    const struct mg_trace *t, const char *dl, const char *el,
    const char *producer, struct mg_diag *d)
{
	struct mg_writer_opts wo;
	int rv;

	mg_writer_opts_init(&wo);
	wo.producer = producer;
	wo.seed = mg_simconf_dl_seed(def->conf);
	if (dl != NULL && def->dl == NULL)
		return mg_diag_set(d, MG_EINVAL, "--dl-out needs preemption (-s "
		    "PreemptMode=REQUEUE or CANCEL, Mode=faithful)");
	if (dl != NULL && (rv = attrs(dl, def, t, &wo, mg_replay_write_dl,
	    d)) != 0)
		return rv;
	if (el != NULL && def->el == NULL)
		return mg_diag_set(d, MG_EINVAL, "--el-out needs elastic jobs "
		    "(-s ElasticShare=s or ElasticFile=f, Mode=faithful)");
	if (el != NULL)
		return attrs(el, def, t, &wo, mg_replay_write_el, d);
	return 0;
}
