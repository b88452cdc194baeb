/*
 * report.c: how a live chain fared; see report.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live/report.h"
#include "live/live.h"

static void mg_chain_report_free(struct mg_chainrep *r);

/* the ids of the links' jobs, comma-separated, for one sacct -j */
static char *
job_list(const struct mg_chainlink *k, size_t n)
{
	size_t cap = 2 * n * 33 + 1, i;
	char *s = malloc(cap), *p;

	if (s == NULL)
		return NULL;
	p = s;
	*p = '\0';
	for (i = 0; i < n; i++)
		p += snprintf(p, cap - (size_t)(p - s), "%s%s,%s", i ? "," : "",
		    k[i].pred, k[i].succ);
	return s;
}

/* one link judged on the jobs in l at now */
static void
judge(struct mg_live *l, int64_t now, struct mg_linkrep *x)
{
	const struct mg_live_job *p = mg_live_find(l, x->k.pred);
	const struct mg_live_job *s = mg_live_find(l, x->k.succ);

	x->p_start = x->p_end = x->p_limit_end = x->s_start = -1;
	x->outcome = MG_LINK_UNKNOWN;
	if (p == NULL || s == NULL)
		return;
	x->s_start = s->start >= 0 && s->start <= now ? s->start : -1;
	x->p_start = p->start;
	x->p_end = p->end >= 0 && p->end <= now ? p->end : -1;
	if (p->start >= 0 && p->limit > 0)
		x->p_limit_end = p->start + p->limit;
	if (x->s_start >= 0) {
		if (x->p_end < 0 || x->s_start <= x->p_end) {
			x->outcome = MG_LINK_KEPT;
			x->overlap = (x->p_end < 0 ? now : x->p_end) -
			    x->s_start;
			if (x->p_end >= 0 && x->p_limit_end > x->p_end)
				x->lease = x->p_limit_end - x->p_end;
		} else {
			x->outcome = MG_LINK_GAP;
			x->gap = x->s_start - x->p_end;
		}
		return;
	}
	/* S has not started: ended before it could, or still waits */
	if (!s->pending && s->end >= 0)
		return;
	if (x->p_end < 0) {
		x->outcome = p->start >= 0 ? MG_LINK_OPEN : MG_LINK_UNKNOWN;
		return;
	}
	x->outcome = MG_LINK_DOWN;
	x->gap = now - x->p_end;
}

static int
mg_chain_report(const struct mg_slurm *s, const char *state, int64_t now,
    struct mg_chainrep *r, struct mg_diag *d)
{
	struct mg_chainlink *k = NULL;
	struct mg_live l;
	char path[4200], note[MG_DIAG_MAX];
	double lease = 0, ovl = 0;
	char *ids;
	size_t n, i;
	int rv;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s.links", state);
	if ((rv = mg_chain_links_read(path, &k, &n, d)) != 0)
		return rv;
	if (n == 0) {
		free(k);
		return MG_OK;
	}
	if ((r->link = calloc(n, sizeof(*r->link))) == NULL ||
	    (ids = job_list(k, n)) == NULL) {
		free(k);
		mg_chain_report_free(r);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	memset(&l, 0, sizeof(l));
	l.now = now;
	l.tz = s->tz;
	rv = mg_slurm_job(s, &l, ids, note, sizeof(note));
	free(ids);
	if (rv != 0) {
		free(k);
		mg_live_release(&l);
		mg_chain_report_free(r);
		return mg_diag_set(d, MG_EIO, "sacct: %s (no report on what "
		    "cannot be read)", note);
	}
	r->n = n;
	for (i = 0; i < n; i++) {
		struct mg_linkrep *x = &r->link[i];

		x->k = k[i];
		judge(&l, now, x);
		if (x->outcome == MG_LINK_OPEN || x->outcome == MG_LINK_UNKNOWN)
			continue;
		r->judged++;
		r->down += x->gap;
		if (x->gap > r->worst)
			r->worst = x->gap;
		if (x->k.promise > 0 && (r->promise == 0 ||
		    x->k.promise < r->promise))
			r->promise = x->k.promise;
		if (x->outcome == MG_LINK_KEPT) {
			r->kept++;
			lease += (double)x->lease / 3600;
			ovl += (double)x->overlap / 3600;
		}
	}
	if (r->kept > 0) {
		r->lease_h = lease / (double)r->kept;
		r->overlap_h = ovl / (double)r->kept;
	}
	free(k);
	mg_live_release(&l);
	return MG_OK;
}

static const char *const outcome_name[] = { "open", "kept", "gap", "down",
    "not-judged" };

/* a time as the zone shows it, or "-" */
static void
when(int64_t t, enum mg_tz tz, char *buf, size_t cap)
{
	if (t < 0)
		snprintf(buf, cap, "-");
	else
		mg_slurm_time(t, tz, buf, cap);
}

static int
mg_chain_report_write(FILE *fp, const char *chain,
    const struct mg_chainrep *r, int tsv, enum mg_tz tz, int header)
{
	char sub[32], pe[32], le[32], ss[32], pr[16];
	size_t i;

	if (tsv && header)
		fprintf(fp, "chain\tpredecessor\tsuccessor\trule\tpromise\t"
		    "submitted\tp_limit_end\tp_end\ts_start\toutcome\tgap_h\t"
		    "overlap_h\tlease_given_h\n");
	if (!tsv) {
		fprintf(fp, "chain %s: %zu link%s, %zu judged, %zu kept",
		    chain, r->n, r->n == 1 ? "" : "s", r->judged, r->kept);
		if (r->judged > 0)
			fprintf(fp, " (%.1f%%)", 100.0 * (double)r->kept /
			    (double)r->judged);
		if (r->promise > 0)
			fprintf(fp, ", promised %.1f%%%s", 100 * r->promise,
			    r->judged > 0 && (double)r->kept / (double)r->judged
			    < r->promise ? ": below it" : "");
		else
			fprintf(fp, ", no promise stated");
		fprintf(fp, "\n  down %.2f h in all, the longest %.2f h; a kept "
		    "link gave up %.2f h of lease and ran beside its "
		    "predecessor %.2f h\n", (double)r->down / 3600,
		    (double)r->worst / 3600, r->lease_h, r->overlap_h);
		if (r->n > 0)
			fprintf(fp, "  %-10s %-10s %-18s %-19s %-19s %-19s "
			    "%-10s %7s %7s\n", "pred", "succ", "rule",
			    "submitted", "P ended", "S started", "outcome",
			    "gap h", "lease h");
	}
	for (i = 0; i < r->n; i++) {
		const struct mg_linkrep *x = &r->link[i];

		when(x->k.submitted, tz, sub, sizeof(sub));
		when(x->p_end, tz, pe, sizeof(pe));
		when(x->p_limit_end, tz, le, sizeof(le));
		when(x->s_start, tz, ss, sizeof(ss));
		if (x->k.promise > 0)
			snprintf(pr, sizeof(pr), "%.4f", x->k.promise);
		else
			snprintf(pr, sizeof(pr), "-");
		if (tsv)
			fprintf(fp, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t"
			    "%.4f\t%.4f\t%.4f\n", chain, x->k.pred, x->k.succ,
			    *x->k.rule ? x->k.rule : "-", pr, sub, le, pe, ss,
			    outcome_name[x->outcome], (double)x->gap / 3600,
			    (double)x->overlap / 3600, (double)x->lease /
			    3600);
		else
			fprintf(fp, "  %-10s %-10s %-18s %-19s %-19s %-19s "
			    "%-10s %7.2f %7.2f\n", x->k.pred, x->k.succ,
			    *x->k.rule ? x->k.rule : "-", sub, pe, ss,
			    outcome_name[x->outcome], (double)x->gap / 3600,
			    (double)x->lease / 3600);
	}
	return ferror(fp) ? MG_EIO : MG_OK;
}

int
mg_chain_report_files(const struct mg_slurm *s, const char *const *state,
    int n, int64_t now, FILE *fp, int tsv)
{
	struct mg_diag d = { "" };
	struct mg_chainrep r;
	int i, rv, worst = MG_OK, first = 1;

	for (i = 0; i < n; i++) {
		if ((rv = mg_chain_report(s, state[i], now, &r, &d)) != 0) {
			if (s->warn != NULL)
				s->warn(s->arg, 1, d.msg);
			worst = worst != MG_OK ? worst : rv;
			continue;
		}
		if (!tsv && !first)
			fputc('\n', fp);
		if (mg_chain_report_write(fp, state[i], &r, tsv, s->tz,
		    first) != 0)
			worst = MG_EIO;
		first = 0;
		mg_chain_report_free(&r);
	}
	return worst;
}

static void
mg_chain_report_free(struct mg_chainrep *r)
{
	free(r->link);
	r->link = NULL;
	r->n = 0;
}
