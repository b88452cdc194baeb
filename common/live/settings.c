/*
 * settings.c: the table of settings chosen for a reliability target
 * (mirage-eval --target -F tsv) read into a chain's run; see
 * settings.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/table.h"
#include "learn/model.h"
#include "live/settings.h"

/* row r (of the table at path) as the setting for its chain size into
 * dr: 0 or a status */
static int
add_chosen(struct mg_drive *dr, const char *path,
    const struct mg_table_row *r, int other, double target,
    struct mg_diag *d)
{
	struct mg_drive_chosen *c;
	char msg[512];

	if (dr->rule.nchosen == MG_DRIVE_MAXCHOSEN)
		return mg_diag_set(d, MG_EFORMAT, "--settings: '%s': more than "
		    "%d chain sizes", path, MG_DRIVE_MAXCHOSEN);
	/* chosen for another cluster: its waits are not this one's */
	if (r->cluster_nodes > 0 && dr->nodes > 0 && r->cluster_nodes !=
	    dr->nodes)
		return mg_diag_set(d, MG_EINVAL, "--settings: '%s', line %d: "
		    "chosen for a cluster of %d nodes, not the %d of -n: choose "
		    "again with mirage-eval --target -n %d", path, r->line,
		    (int)r->cluster_nodes, (int)dr->nodes, (int)dr->nodes);
	c = &dr->rule.chosen[dr->rule.nchosen++];
	c->row = *r;
	c->other = other;
	if (!other && !r->reached && dr->sl.warn != NULL) {
		snprintf(msg, sizeof(msg), "--settings: '%s', line %d: the "
		    "setting for %d-node chains fell short of %g%% on the "
		    "history it was chosen on", path, r->line, (int)r->nodes,
		    100 * target);
		dr->sl.warn(dr->sl.arg, 0, msg);
	}
	return MG_OK;
}

/*
 * mg_settings_read: see settings.h.  The table must be whole (every row
 * its header's fields), for this target and handover framing.
 */
int
mg_settings_read(struct mg_drive *dr, const char *path, double target,
    struct mg_diag *d)
{
	struct mg_table_row *rows, *r;
	int seen[MG_DRIVE_MAXCHOSEN];	/* the line of each size's setting */
	double other = -1;
	size_t n, i;
	int k, rv;

	if ((rv = mg_table_read(path, &rows, &n, d)) != 0) {
		char msg[sizeof(d->msg)];

		snprintf(msg, sizeof(msg), "%s", d->msg);
		return mg_diag_set(d, rv, "--settings: %s", msg);
	}
	for (i = 0; i < n; i++) {
		r = &rows[i];
		if (r->period != 0) {
			rv = mg_diag_set(d, MG_EFORMAT, "--settings: '%s', line "
			    "%d: a walk's choices, a day's each; give the table "
			    "of mirage-eval --target -F tsv", path, r->line);
			goto out;
		}
		if (fabs(r->target - target) > 1e-9) {
			other = r->target;
			continue;	/* another target's */
		}
		if ((r->handover > 0) != (dr->handover != 0)) {
			rv = mg_diag_set(d, MG_EINVAL, "--settings: '%s', line "
			    "%d: chosen %s handing over; run mirage-eval "
			    "--target %s --handover", path, r->line,
			    r->handover > 0 ? "for" : "without", r->handover >
			    0 ? "without" : "with");
			goto out;
		}
		/* with --plan the planner's price; without, the rule
		 * recommended: the scheduler estimate's margin or a fixed
		 * lead (a model, the planner: said if the chain is this
		 * size) */
		if (dr->rule.plan && !(strcmp(r->method, "planner") == 0 &&
		    r->kind == MG_SETTING_PRICE && r->setting > 0))
			continue;
		if (!dr->rule.plan && (dr->rule.settings_lead ?
		    !(strcmp(r->method, "lead") == 0 && r->kind ==
		    MG_SETTING_LEAD && r->setting > 0) : !r->recommended))
			continue;
		/* one setting a size: a second is a table pieced together */
		for (k = 0; k < dr->rule.nchosen; k++)
			if (dr->rule.chosen[k].row.nodes == r->nodes) {
				rv = mg_diag_set(d, MG_EFORMAT, "--settings: '%s', "
				    "line %d: a second setting for %d-node chains "
				    "(line %d); write the table again with "
				    "mirage-eval --target", path, r->line,
				    (int)r->nodes, seen[k]);
				goto out;
			}
		if (dr->rule.nchosen < MG_DRIVE_MAXCHOSEN)
			seen[dr->rule.nchosen] = r->line;
		if ((rv = add_chosen(dr, path, r, !dr->rule.plan &&
		    !mg_rule_plain(r->method, r->kind), target, d)) != 0)
			goto out;
	}
	if (dr->rule.nchosen == 0 && other >= 0)
		rv = mg_diag_set(d, MG_EINVAL, "--settings: '%s': chosen for "
		    "%g%%, not the --target %g%%", path, 100 * other,
		    100 * target);
	else if (dr->rule.nchosen == 0)
		rv = mg_diag_set(d, MG_EFORMAT, "--settings: '%s': %s", path,
		    dr->rule.plan ? "no planner row; run mirage-eval --target with "
		    "--plan" : "no method reached the target on its training "
		    "period");
out:
	free(rows);
	return rv;
}

int
mg_settings_model(struct mg_drive *dr, double target, struct mg_diag *d)
{
	struct mg_model *m;
	double t, h, p, c;
	char msg[512];
	FILE *fp;
	int rv;

	if ((fp = fopen(dr->rule.model, "rb")) == NULL)
		return mg_diag_set(d, MG_EIO, "cannot open '%s': %s",
		    dr->rule.model, strerror(errno));
	rv = mg_model_read_container(fp, dr->rule.model, &m, d);
	fclose(fp);
	if (rv != 0)
		return rv;
	if ((rv = mg_table_model(m, &t, &h, &p, &c, d)) != 0 &&
	    mg_model_param(m, "target", &t) == 0 && t > 0 && t < 1) {
		snprintf(msg, sizeof(msg), "%s", d->msg);
		rv = mg_diag_set(d, MG_EIO, "'%s': its target has %s; choose "
		    "it again with mirage-train --target", dr->rule.model, msg);
	} else if (rv != 0 || fabs(t - target) > 1e-9)
		rv = mg_diag_set(d, MG_EINVAL, "'%s': its threshold was not "
		    "chosen for %g%%; choose it with mirage-train --target %g%% "
		    "-M '%s' on the cluster's history", dr->rule.model, 100 * target,
		    100 * target, dr->rule.model);
	else if ((h > 0) != (dr->handover != 0))
		rv = mg_diag_set(d, MG_EINVAL, "'%s': its threshold was chosen "
		    "%s handing over; choose it again with mirage-train "
		    "--target%s", dr->rule.model, h > 0 ? "for" : "without",
		    dr->handover ? " --handover 10m" : "");
	if (rv == 0 && mg_model_param(m, "target_reached", &h) == 0 && h == 0 &&
	    dr->sl.warn != NULL) {
		/* as a table's row that fell short (add_chosen) */
		snprintf(msg, sizeof(msg), "'%s': its threshold fell short of "
		    "%g%% in a fold of its training period", dr->rule.model,
		    100 * t);
		dr->sl.warn(dr->sl.arg, 1, msg);
	}
	if (rv == 0) {
		dr->rule.promise = p > 0 ? p : 0;
		if (p >= 0 && p < t && !dr->quiet && dr->sl.warn != NULL) {
			snprintf(msg, sizeof(msg), "'%s' promises %.1f%% of the "
			    "links at %g%% confidence, not %g%%: the history its "
			    "threshold was chosen on certifies no more",
			    dr->rule.model, 100 * p, 100 * c, 100 * t);
			dr->sl.warn(dr->sl.arg, 0, msg);
		}
	}
	mg_model_free(m);
	return rv;
}
