/*
 * drivepick.c: a run's decision by the settings chosen for a target,
 * a model or the planner (drive_int.h).
 */
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "live/drive_int.h"

/*
 * The capacity over the planner's history: from the events dump, else
 * live from sacctmgr show event (of the partition's nodes, as sinfo
 * lists them).  A bad dump stops the run; live trouble is said, and the
 * capacity now holds (c->n 0).
 */
static int
capacity(const struct mg_drive *o, int32_t nodes, struct mg_capacity *c,
    struct mg_diag *diag)
{
	char note[MG_DIAG_MAX + 256];
	int rv;

	memset(c, 0, sizeof(*c));
	if (o->events != NULL) {
		/* the partition's nodes, if the configuration names them */
		const char *only = *o->part_hosts ? o->part_hosts : NULL;

		if (o->partition != NULL && only == NULL)
			mg_drivebase_say(o, 0, "--events: the nodes of partition '%s' are "
			    "not known (PartitionName=%s Nodes=... in -c): the "
			    "events of every node in the dump are counted",
			    o->partition, o->partition);
		/* said even when quiet, as live: another partition's
		 * drained nodes would count as this one's */
		if (o->partition == NULL)
			mg_drivebase_say(o, 1, "--events without -p: the events of every "
			    "node in the dump are counted, whatever its "
			    "partition; give -p the chain's partition");
		if ((rv = mg_events_read(o->events, o->sl.tz, nodes, only,
		    o->now - PLAN_HISTORY, o->now, c, diag)) != 0)
			return rv == MG_EINVAL ? MG_EFORMAT : rv;
		return MG_OK;
	}
	if (o->queue != NULL)	/* dumps, not a live cluster */
		return MG_OK;
	/* said even when quiet: another partition's drained nodes would
	 * count as this one's */
	if (o->partition == NULL)
		mg_drivebase_say(o, 1, "no -p: the events of every node of the cluster are "
		    "counted, whatever its partition; give -p the chain's "
		    "partition");
	if ((rv = mg_slurm_capacity(&o->sl, nodes, o->now - PLAN_HISTORY,
	    o->now, c, note, sizeof(note))) == MG_ENOMEM)
		return mg_drivebase_nomem(diag);
	if (rv != 0)
		mg_drivebase_say(o, 0, "no history of the nodes: %s", note);
	return MG_OK;
}

/* the model's decision, its misfits said first; 0, 1 when it cannot
 * decide (a->note says why), or a status */
static int
by_model(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_diag *diag)
{
	char msg[4][512];
	struct mg_advise q;
	int k, n, rv;

	mg_drive_question(o, r->p_id, nodes, &q);
	n = o->quiet ? 0 : mg_advise_misfit(&q, r->m, msg, 4);
	for (k = 0; k < n; k++)
		mg_drivebase_say(o, 0, "%s", msg[k]);
	if ((rv = mg_advise_model(&q, r->m, &r->l, &r->a)) == MG_ENOMEM)
		return mg_drivebase_nomem(diag);
	return rv != 0;
}

/* what a setting promises, and how old it is, said: a promise short of
 * the target changes what a decision means, and is said even when
 * quiet, with its ceiling.  Old is a week past the freshest table a
 * nightly run makes, whose last outcome is known about a week before
 * its dump ends (an episode's outcome takes 5 days). */
static void
promised(const struct mg_drive *o, struct run *r,
    const struct mg_drive_chosen *c)
{
	if (c->row.history_end > 0 && o->now - c->row.history_end > 14 * MG_DAY)
		mg_drivebase_say(o, 1, "the settings were chosen on a history that ended "
		    "%.1f days ago: the cluster may have changed; choose them "
		    "again (nightly-retrain.sh -T does each night)",
		    (double)(o->now - c->row.history_end) / MG_DAY);
	if (c->row.promise < 0)
		return;
	r->a.promise = c->row.promise;
	r->a.confidence = c->row.confidence;
	r->a.bound = c->row.bound;
	r->a.certified = c->row.certified;
	if (c->row.certified)
		mg_drivebase_say(o, 0, "the settings promise %g%% of %d-node links without "
		    "an interruption at %g%% confidence (%ld chosen on)",
		    100 * c->row.promise, (int)c->row.nodes, 100 * c->row.confidence,
		    c->row.links);
	else
		mg_drivebase_say(o, 1, "the settings promise %.1f%% of %d-node links at "
		    "%g%% confidence, not the target: %s (at most %.1f%% could "
		    "start in time)", 100 * c->row.promise, (int)c->row.nodes,
		    100 * c->row.confidence, c->row.bound < 1 ? "some waited "
		    "longer than a whole limit however early submitted" :
		    "the links chosen on certify no more", 100 * c->row.bound);
}

static int
pick(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_drive_chosen *c, struct mg_diag *diag)
{
	const struct mg_live_job *p = mg_live_find(&r->l, r->p_id);
	int32_t n = o->s_nodes > 0 ? o->s_nodes : p != NULL && p->nodes > 0 ?
	    p->nodes : 1;
	int32_t sizes[MG_DRIVE_MAXCHOSEN];
	int k;

	for (k = 0; k < o->rule.nchosen; k++)
		sizes[k] = o->rule.chosen[k].row.nodes;
	if ((k = mg_table_size(sizes, o->rule.nchosen, n)) < 0)
		return mg_diag_set(diag, MG_EINVAL, "the settings hold nothing "
		    "for %d-node chains or fewer: choose it with mirage-eval "
		    "--target -k %d", (int)n, (int)n);
	*c = o->rule.chosen[k];
	if (c->row.cluster_nodes > 0 && nodes > 0 &&
	    c->row.cluster_nodes != nodes)
		return mg_diag_set(diag, MG_EINVAL, "the settings were chosen "
		    "for a cluster of %d nodes, and this one has %d: choose "
		    "them again with mirage-eval --target -n %d",
		    (int)c->row.cluster_nodes, (int)nodes, (int)nodes);
	if (c->row.nodes != n)	/* it changes what the promise means */
		mg_drivebase_say(o, 1, "the settings hold nothing for %d-node chains: the "
		    "%d-node chains' row decides (choose one with mirage-eval "
		    "--target -k %d)", (int)n, (int)c->row.nodes, (int)n);
	promised(o, r, c);
	r->promise = c->row.promise > 0 ? c->row.promise : 0;
	return MG_OK;
}

/* the setting chosen for the chain's size (o->rule.chosen) into *c; a size
 * with none, or settings chosen for a cluster of other than nodes, are
 * errors: the chain is not advised on a guess (1: one under way goes on
 * by the reactive rule) */
static int
chosen(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_drive_chosen *c, struct mg_diag *diag)
{
	int rv = pick(o, r, nodes, c, diag);

	/* a chain under way is not stopped by them: the reactive rule
	 * decides, said even when quiet (a new chain stops) */
	if (rv != MG_EINVAL || !r->have_state)
		return rv;
	mg_drivebase_say(o, 1, "%s; the chain goes on by the reactive rule "
	    "(its successor at its predecessor's end)", diag->msg);
	snprintf(r->a.note, sizeof(r->a.note), "the settings cannot be used");
	return 1;
}

/*
 * the hours row's lead or margin falls short by: the longest this
 * chain's successors took to be ready, beyond the handover the row was
 * chosen for (a link is kept only if its successor is ready by its
 * predecessor's end); said, even under -q, since it moves the rule
 */
static double
ready_extra(const struct mg_drive *o, const struct run *r,
    const struct mg_table_row *row)
{
	int64_t over;

	if (!o->handover || !r->have_state || row->handover <= 0 ||
	    (over = r->st.ready_max - row->handover) <= 0)
		return 0;
	mg_drivebase_say(o, 1, "this chain's successors took up to %.0f min "
	    "from their start to ready, %.0f min more than the handover the "
	    "settings were chosen for: the %s is raised by that much",
	    (double)r->st.ready_max / 60, (double)over / 60,
	    row->kind == MG_SETTING_LEAD ? "lead" : "margin");
	return (double)over / 3600;
}

/* a rule chosen for a target that needs no model: a fixed lead, or the
 * scheduler estimate's margin */
static int
by_rule(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_diag *diag)
{
	struct mg_drive_chosen c;
	struct mg_advise q;
	double extra;
	int rv;

	if ((rv = chosen(o, r, nodes, &c, diag)) != 0)
		return rv;
	mg_drive_question(o, r->p_id, nodes, &q);
	if (strcmp(c.row.method, "reactive") == 0) {
		/* recommended where nothing kept more: P's end, as afterany */
		snprintf(r->a.note, sizeof(r->a.note), "the settings recommend "
		    "the reactive rule for %d-node chains", (int)c.row.nodes);
		return 1;
	}
	if (c.other && !r->have_state)
		return mg_diag_set(diag, MG_EINVAL, "the settings recommend %s "
		    "for %d-node chains: %s", c.row.method, (int)c.row.nodes,
		    strcmp(c.row.method, "planner") == 0 ? "add --plan" : "give "
		    "-m with its threshold chosen by mirage-train --target");
	if (c.other) {
		mg_drivebase_say(o, 1, "the settings recommend %s for %d-node chains, which "
		    "this run cannot apply (%s); the chain goes on by the "
		    "reactive rule (its successor at its predecessor's end)",
		    c.row.method, (int)c.row.nodes, strcmp(c.row.method,
		    "planner") == 0 ? "add --plan" : "give -m with its "
		    "threshold chosen by mirage-train --target");
		snprintf(r->a.note, sizeof(r->a.note), "the settings cannot "
		    "be used");
		return 1;
	}
	if (c.row.kind != MG_SETTING_LEAD && c.row.kind != MG_SETTING_MARGIN)
		return mg_diag_set(diag, MG_EINVAL, "the settings give the "
		    "planner's price for %d-node chains: add --plan",
		    (int)c.row.nodes);
	extra = ready_extra(o, r, &c.row);
	if (c.row.kind == MG_SETTING_LEAD) {
		mg_advise_lead(&q, c.row.setting + extra, &r->l, &r->a);
		return 0;
	}
	if (mg_advise_estimate(&q, c.row.setting + extra, &r->l, &r->a) != 0)
		return mg_drivebase_nomem(diag);
	return 0;
}

/* the planner's decision on the history and the nodes' capacity; 0, 1
 * when it cannot decide (a->note says why), or a status */
static int
by_plan(const struct mg_drive *o, struct run *r, int32_t nodes,
    struct mg_diag *diag)
{
	struct mg_capacity cap = { 0 };
	struct mg_drive_chosen c;
	struct mg_advise q;
	struct mg_trace tr;
	int rv = 1;

	if (mg_live_history(&r->l, o->now, &tr) != 0)
		return mg_drivebase_nomem(diag);
	if (tr.n < PLAN_MIN_JOBS)
		snprintf(r->a.note, sizeof(r->a.note), "the history holds %zu "
		    "ended jobs, the planner needs %d: give -H with the last "
		    "4 weeks of sacct (live, it asks sacct for them)", tr.n,
		    PLAN_MIN_JOBS);
	else if ((rv = capacity(o, nodes, &cap, diag)) == 0) {
		mg_drive_question(o, r->p_id, nodes, &q);
		if (o->rule.nchosen > 0 && (rv = chosen(o, r, nodes, &c,
		    diag)) != 0) {
			mg_trace_release(&tr);
			mg_capacity_release(&cap);
			return rv;
		}
		if (o->rule.nchosen > 0)
			q.lambda = c.row.setting;
		if ((rv = mg_advise_plan(&q, &o->rule.pc, &r->l, &tr, &cap,
		    &r->a)) == MG_ENOMEM)
			rv = mg_drivebase_nomem(diag);
		else
			rv = rv != 0;
	}
	mg_trace_release(&tr);
	mg_capacity_release(&cap);
	return rv;
}

/* the rule that decides, and its decision */
int
mg_drivepick_decide(const struct mg_drive *o, struct run *r,
    struct mg_diag *diag)
{
	struct mg_advise q;
	int32_t nodes = o->nodes;
	int asked = r->m != NULL || o->rule.plan || o->rule.nchosen > 0 ||
	    o->rule.lead > 0;
	int rv = 1;

	mg_drive_question(o, r->p_id, nodes, &q);
	r->dependency = !r->queue_ok;	/* submit with afterany on P */
	if (mg_advise_rule(&q, r->queue_ok, &r->a))
		return MG_OK;
	*r->note = '\0';
	if (nodes == 0 && asked && r->live)
		nodes = mg_slurm_nodes(&o->sl, r->note, sizeof(r->note));
	if (o->s_nodes > 0 && nodes > 0 && o->s_nodes > nodes)
		return mg_diag_set(diag, MG_EINVAL, "the successor asks for %d "
		    "nodes (-N or the script's #SBATCH -N), more than the "
		    "cluster's %d: it could never start", (int)o->s_nodes,
		    (int)nodes);
	q.nodes = nodes;
	if (asked && mg_advise_ready(&q, &r->l, r->note, &r->a)) {
		if (o->rule.plan && nodes > 0)
			rv = by_plan(o, r, nodes, diag);
		else if (r->m != NULL)
			rv = by_model(o, r, nodes, diag);
		else if (o->rule.nchosen > 0)
			rv = by_rule(o, r, nodes, diag);
		else if (o->rule.lead > 0) {
			mg_advise_lead(&q, o->rule.lead, &r->l, &r->a);
			rv = 0;
		}
		if (rv < 0)
			return rv;
		if (rv == 0)
			*r->a.note = '\0';
	}
	mg_advise_reactive(&q, !asked, r->m == NULL && o->rule.model == NULL &&
	    !asked, &r->a);
	return MG_OK;
}
