/*
 * targetmodel.c: a model's threshold chosen for a reliability target,
 * and the target's keys stamped into the model (target.h).
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/parse.h"
#include "base/stats.h"
#include "eval/target.h"
#include "episode/episode.h"
#include "episode/protocol.h"

/* params without the target's keys (those of an earlier choice) */
static void
strip_target(char *params)
{
	char *p = params, *q;

	while ((p = strstr(p, "target")) != NULL) {
		if (p != params && p[-1] != ' ') {
			p++;
			continue;
		}
		q = strchr(p, ' ');
		memmove(p, q != NULL ? q + 1 : p + strlen(p), strlen(q != NULL ?
		    q + 1 : p + strlen(p)) + 1);
	}
	for (q = params + strlen(params); q > params && q[-1] == ' '; q--)
		q[-1] = '\0';
}

/*
 * mg_target_stamp: m's threshold set to what method (a model's index in
 * c) was chosen for in ch (a block of mg_target_choose()'s), the most
 * cautious of the sizes' (the one that submits earliest), and m's
 * params given the target's keys (target, target_handover_s,
 * target_folds, target_episodes, target_from, target_to,
 * target_worst_share, target_reached, target_folds_<N>n with each fold's
 * share, target_promise and target_confidence: the least of the sizes'),
 * an earlier target's replaced.  *worst, *reached and *promise for the
 * caller's words.  MG_EINVAL if no threshold was chosen, MG_ENOMEM.
 */
static int
mg_target_stamp(struct mg_model *m, const struct mg_compare *c,
    int method, const struct mg_choice *ch, const struct mg_target_span *sp,
    double *worst, int *reached, double *promise, struct mg_diag *d)
{
	int nm = mg_compare_nmethods(c), nt = mg_compare_ntables(c), i, f;
	int point = -1, at = -1;
	struct mg_compare_view v;
	double conf = 0;
	char a[32], b[32], *params;
	size_t len;

	*worst = 1;
	*reached = 1;
	*promise = 1;
	for (i = 0; i < nt; i++) {
		const struct mg_choice *h = &ch[i * nm + method];

		if (h->point > point) {	/* the later point submits earlier */
			point = h->point;
			at = i;
		}
	}
	if (at < 0)
		return mg_diag_set(d, MG_EINVAL, "no threshold to choose from");
	m->threshold = ch[at * nm + method].setting;
	mg_format_time(sp->from, a, sizeof(a));
	mg_format_time(sp->to, b, sizeof(b));
	len = strlen(m->params ? m->params : "") + 320 + (size_t)(16 * nt *
	    (sp->folds + 2));
	if ((params = malloc(len)) == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	snprintf(params, len, "%s", m->params ? m->params : "");
	strip_target(params);
	/* every size's folds at the threshold kept */
	for (i = 0; i < nt; i++) {
		double share[MG_TARGET_MAXFOLDS];

		mg_compare_view(c, i, method, &v);
		*reached &= mg_target_folds(&v, point, sp->folds, sp->target,
		    share);
		snprintf(params + strlen(params), len - strlen(params),
		    "%starget_folds_%dn=", *params ? " " : "", (int)v.nodes);
		for (f = 0; f < sp->folds; f++) {
			snprintf(params + strlen(params), len - strlen(params),
			    "%s%.4f", f ? "," : "", share[f]);
			if (share[f] < *worst)
				*worst = share[f];
		}
		*promise = fmin(*promise, ch[i * nm + method].promise);
		conf = ch[i * nm + method].confidence;
	}
	snprintf(params + strlen(params), len - strlen(params), " target=%g "
	    "target_handover_s=%lld target_folds=%d target_episodes=%zu "
	    "target_from=%s target_to=%s target_worst_share=%.4f "
	    "target_reached=%d target_promise=%.4f target_confidence=%g",
	    sp->target, (long long)sp->handover, sp->folds, sp->episodes, a, b,
	    *worst, *reached, *promise, conf);
	free(m->params);
	m->params = params;
	return MG_OK;
}

int
mg_target_threshold(struct mg_model *m, const char *model,
    const struct mg_clusterdef *def, const struct mg_epsel *sel,
    const char *trace, const struct mg_target_span *sp, double conf,
    int threads, struct mg_target_size *each, double *worst, int *reached,
    double *promise, struct mg_diag *d)
{
	struct mg_compareconf cc;
	struct mg_compare *cmp;
	struct mg_compare_view v;
	struct mg_choice *ch = NULL;
	char **fnames;
	size_t nfn;
	int rv, bad, i, nm;

	/* a threshold chosen on the model's own training would promise
	 * what it learnt, not what it will do */
	if (mg_target_insample(m->to, sel->from - sel->e.workload)) {
		char last[32], from[32];

		mg_format_time(m->to, last, sizeof(last));
		mg_format_time(m->to + sel->e.workload, from, sizeof(from));
		return mg_diag_set(d, MG_EINVAL, "--target: '%s' was trained "
		    "on episodes up to %s: its threshold would be chosen on "
		    "its own training; choose it on episodes from %s on (-f), "
		    "or train it on earlier weeks", model, last, from);
	}
	memset(&cc, 0, sizeof(cc));
	cc.model[0] = m;
	cc.name[0] = m->kind;
	cc.nmodels = 1;
	cc.handover = sp->handover;
	if ((rv = mg_compare_new(&cc, &cmp, d)) != 0)
		return rv;
	if (mg_episode_feature_names(&sel->e, &fnames, &nfn) != 0) {
		mg_compare_free(cmp);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	rv = mg_compare_begin(cmp, sel, fnames, nfn, &bad, d);
	mg_names_free(fnames, nfn);
	if (rv != 0) {
		mg_diag_prefix(d, "'%s'", model);
		goto out;
	}
	if ((rv = mg_compare_run(cmp, def, sel, (int)sel->e.window, NULL,
	    threads, NULL, NULL, d)) != 0) {
		mg_diag_prefix(d, "'%s'", trace);
		if (rv != MG_ENOMEM)
			rv = MG_EINVAL;
		goto out;
	}
	nm = mg_compare_nmethods(cmp);
	if ((rv = mg_target_choose_all(cmp, &sp->target, 1, sp->folds, conf,
	    INT64_MAX, &ch, d)) != 0) {
		mg_diag_prefix(d, "--target");
		goto out;
	}
	/* the model's row: the first after the baselines */
	for (i = 0; i < mg_compare_ntables(cmp); i++) {
		const struct mg_choice *h = &ch[i * nm + MG_COMPARE_NBASE];

		mg_compare_view(cmp, i, MG_COMPARE_NBASE, &v);
		each[i].nodes = v.nodes;
		each[i].setting = h->setting;
		each[i].worst = h->worst;
		each[i].cost = h->cost;
		each[i].reached = h->reached;
	}
	if ((rv = mg_target_stamp(m, cmp, MG_COMPARE_NBASE, ch, sp, worst,
	    reached, promise, d)) != 0)
		mg_diag_prefix(d, "--target");
out:
	free(ch);
	mg_compare_free(cmp);
	return rv;
}
