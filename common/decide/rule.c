/*
 * rule.c: the ways of deciding, in one place; see rule.h.
 */
#include <stdlib.h>
#include <string.h>

#include "decide/rule.h"
#include "episode/feature.h"

const char *
mg_rule_setting_name(enum mg_setting kind)
{
	switch (kind) {
	case MG_SETTING_MARGIN:
		return "margin_h";
	case MG_SETTING_RISK:
		return "risk";
	case MG_SETTING_PRICE:
		return "price";
	case MG_SETTING_LEAD:
		return "lead_h";
	default:
		return "-";
	}
}

int
mg_rule_setting_kind(const char *name, enum mg_setting *kind_out)
{
	static const enum mg_setting all[] = { MG_SETTING_NONE,
	    MG_SETTING_MARGIN, MG_SETTING_RISK, MG_SETTING_PRICE,
	    MG_SETTING_LEAD };
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(name, mg_rule_setting_name(all[i])) == 0) {
			*kind_out = all[i];
			return 0;
		}
	return -1;
}

int
mg_rule_plain(const char *method, enum mg_setting kind)
{
	return (strcmp(method, "lead") == 0 && kind == MG_SETTING_LEAD) ||
	    (strcmp(method, "scheduler-estimate") == 0 &&
	    kind == MG_SETTING_MARGIN);
}

size_t
mg_rule_estimate_col(void)
{
	size_t col;

	for (col = 0; col < MG_OWN; col++)
		if (strcmp(mg_own_names[col], "plan_gap_h") == 0)
			break;
	return col;
}

int
mg_rule_lead(double left_h, double lead_h)
{
	return left_h <= lead_h;
}

int
mg_rule_estimate(double gap_h, double margin_h)
{
	return gap_h >= -margin_h;
}

int
mg_rule_submits(const struct mg_model *m, double *score, double thr,
    double left_h)
{
	if (m->classifier)
		return *score >= thr;
	if (left_h >= 0 && *score < -left_h)
		*score = -left_h;
	return *score >= -thr;
}

void
mg_rule_ticks(const struct mg_model *m, const struct mg_outcome *o,
    double *score)
{
	size_t k, j = 0;

	if (m->classifier)
		return;
	for (k = 0; k < o->n; k++) {
		if (!o->tick[k])
			continue;
		if (o->t[k] >= o->p_end)
			break;
		(void)mg_rule_submits(m, &score[j++], 0,
		    (double)(o->p_end - o->t[k]) / 3600);
	}
}

int
mg_rule_model_now(const struct mg_model *m, struct mg_diag *d)
{
	if (mg_model_kind(m->kind) & MG_KIND_POLICY)
		return mg_diag_set(d, MG_ETYPE, "a %s model submits by the "
		    "chance it has submitted since the predecessor's first "
		    "tick, which a decision at one tick cannot know: train "
		    "gbt, rf, clf, svr or dqn to decide now", m->kind);
	return MG_OK;
}

int
mg_rule_bind(struct mg_rule_model *b, struct mg_model *m, int64_t period,
    struct mg_diag *d)
{
	struct mg_epconf e;
	char **names = NULL;
	size_t nn = 0;
	int rv;

	memset(b, 0, sizeof(*b));
	memset(&e, 0, sizeof(e));
	e.window = (int)m->window;
	e.period = period;
	b->m = m;
	if (mg_episode_feature_names(&e, &names, &nn) != 0 ||
	    (b->col = calloc(m->nfeat ? m->nfeat : 1, sizeof(*b->col))) ==
	    NULL || (b->feat = calloc(nn ? nn : 1, sizeof(*b->feat))) ==
	    NULL || (b->X = calloc(m->nfeat ? m->nfeat : 1,
	    sizeof(*b->X))) == NULL) {
		mg_names_free(names, nn);
		mg_rule_unbind(b);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	rv = mg_model_bind(m, names, nn, b->col, d);
	mg_names_free(names, nn);
	if (rv != 0)
		mg_rule_unbind(b);
	return rv;
}

int
mg_rule_score(struct mg_rule_model *b, double *score, struct mg_diag *d)
{
	size_t i;

	for (i = 0; i < b->m->nfeat; i++)
		b->X[i] = (float)b->feat[b->col[i]];
	return mg_model_predict(b->m, b->X, 1, score, d);
}

void
mg_rule_unbind(struct mg_rule_model *b)
{
	free(b->col);
	free(b->feat);
	free(b->X);
	b->col = NULL;
	b->feat = NULL;
	b->X = NULL;
}
