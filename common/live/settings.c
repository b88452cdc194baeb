/*
 * settings.c: the table of settings chosen for a reliability target
 * (mirage-eval --target -F tsv) read into a chain's run; see
 * settings.h.
 */
#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "live/settings.h"


/* the column named name of a TSV header (tab-separated, no newline),
 * or -1 */
static int
column(const char *header, const char *name)
{
	const char *p = header;
	size_t n = strlen(name);
	int k;

	for (k = 0; p != NULL; k++) {
		if (strncmp(p, name, n) == 0 && (p[n] == '\t' || p[n] == '\0'))
			return k;
		if ((p = strchr(p, '\t')) != NULL)
			p++;
	}
	return -1;
}

/* the tab-separated field k of line, into b */
static const char *
field(const char *line, int k, char *b, size_t len)
{
	size_t n;

	while (k-- > 0 && line != NULL)
		if ((line = strchr(line, '\t')) != NULL)
			line++;
	if (line == NULL)
		return NULL;
	n = strcspn(line, "\t");
	snprintf(b, len, "%.*s", (int)(n < len ? n : len - 1), line);
	return b;
}

/* the number in the tab-separated field k of line: 0, or -1 */
static int
number(const char *line, int k, double *v)
{
	char b[64];

	if (field(line, k, b, sizeof(b)) == NULL)
		return -1;
	return mg_parse_f64(b, strlen(b), v);
}

/* the promise's columns, where the table has them */
struct pcols {
	int promise, conf, bound, cert, links, cnodes, hend;
};

/* the number in column k of line into *v if the table has it (k >= 0),
 * within lo..hi: 0, else -1 */
static int
optional(const char *line, int k, double lo, double hi, double *v)
{
	if (k < 0)
		return 0;
	return number(line, k, v) != 0 || !(*v >= lo && *v <= hi) ? -1 : 0;
}

/* a row's promise and where it was chosen into c: 0, or -1 on a bad
 * number */
static int
promise(const char *line, const struct pcols *pc, struct mg_drive_chosen *c)
{
	double p = -1, cf = 0, b = 1, ce = 0, n = 0, cn = 0, he = 0;

	if (optional(line, pc->promise, 0, 1, &p) != 0 ||
	    optional(line, pc->conf, 0, 1, &cf) != 0 ||
	    optional(line, pc->bound, 0, 1, &b) != 0 ||
	    optional(line, pc->cert, 0, 1, &ce) != 0 ||
	    optional(line, pc->links, 0, 1e9, &n) != 0 ||
	    optional(line, pc->cnodes, 0, 1e6, &cn) != 0 ||
	    optional(line, pc->hend, 0, 1e11, &he) != 0)
		return -1;
	c->promise = pc->promise >= 0 && pc->conf >= 0 ? p : -1;
	c->confidence = cf;
	c->bound = b;
	c->certified = ce == 1;
	c->links = (long)n;
	c->cluster_nodes = (int32_t)cn;
	c->history_end = (int64_t)he;
	return 0;
}

/* a setting of the table for a chain size into dr: 0 or a status */
static int
add_chosen(struct mg_drive *dr, const char *path, int lineno, double nodes,
    const char *method, enum mg_drive_setting kind, double v, double reached,
    double target, const char *line, const struct pcols *pc,
    struct mg_diag *d)
{
	struct mg_drive_chosen *c;
	char msg[512];

	if (dr->nchosen == MG_DRIVE_MAXCHOSEN)
		return mg_diag_set(d, MG_EFORMAT, "--settings: '%s': more than "
		    "%d chain sizes", path, MG_DRIVE_MAXCHOSEN);
	c = &dr->chosen[dr->nchosen];
	memset(c, 0, sizeof(*c));
	if (promise(line, pc, c) != 0)
		return mg_diag_set(d, MG_EFORMAT, "--settings: '%s', line %d: "
		    "not a row of mirage-eval --target (a promise, a node count "
		    "or a date out of its range); write it again with "
		    "mirage-eval --target -F tsv", path, lineno);
	/* chosen for another cluster: its waits are not this one's */
	if (c->cluster_nodes > 0 && dr->nodes > 0 && c->cluster_nodes !=
	    dr->nodes)
		return mg_diag_set(d, MG_EINVAL, "--settings: '%s', line %d: "
		    "chosen for a cluster of %d nodes, not the %d of -n: choose "
		    "again with mirage-eval --target -n %d", path, lineno,
		    (int)c->cluster_nodes, (int)dr->nodes, (int)dr->nodes);
	dr->nchosen++;
	c->nodes = (int32_t)nodes;
	c->kind = kind;
	c->value = v;
	snprintf(c->method, sizeof(c->method), "%s", method);
	if (kind != MG_DRIVE_OTHER && !reached && dr->sl.warn != NULL) {
		snprintf(msg, sizeof(msg), "--settings: '%s', line %d: the "
		    "setting for %d-node chains fell short of %g%% in a fold "
		    "of its training period", path, lineno, c->nodes,
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
	char line[2048], b[64], m[64], *end;
	int cm, cn, ck, cs, ct, ch, cr, cb, nf, lineno = 1, k, rv = MG_OK;
	int seen[MG_DRIVE_MAXCHOSEN];	/* the line of each size's setting */
	struct pcols pc;
	double other = -1;
	struct stat sb;
	size_t len;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL)
		return mg_diag_set(d, MG_EIO, "--settings: cannot open '%s': %s",
		    path, strerror(errno));
	if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		rv = mg_diag_set(d, MG_EINVAL, "--settings: '%s' is a directory; "
		    "give the table mirage-eval --target -F tsv wrote", path);
		goto out;
	}
	if (fgets(line, sizeof(line), fp) == NULL) {
		rv = mg_diag_set(d, MG_EFORMAT, "--settings: '%s': empty; write "
		    "it with mirage-eval --target -F tsv", path);
		goto out;
	}
	if (line[strlen(line) - 1] != '\n') {
		rv = mg_diag_set(d, MG_ETRUNC, "--settings: '%s', line 1: "
		    "truncated (no newline); write it again with mirage-eval "
		    "--target -F tsv", path);
		goto out;
	}
	line[strcspn(line, "\n")] = '\0';
	cm = column(line, "method");
	cn = column(line, "nodes");
	ck = column(line, "setting_kind");
	cs = column(line, "setting");
	ct = column(line, "target");
	ch = column(line, "handover_s");
	cr = column(line, "reached");
	cb = column(line, "recommended");
	pc.promise = column(line, "promise");
	pc.conf = column(line, "confidence");
	pc.bound = column(line, "train_bound_share");
	pc.cert = column(line, "certified");
	pc.links = column(line, "train_episodes");
	pc.cnodes = column(line, "cluster_nodes");
	pc.hend = column(line, "history_end");
	if (cm < 0 || cn < 0 || ck < 0 || cs < 0 || ct < 0 || ch < 0 ||
	    cr < 0 || cb < 0) {
		rv = mg_diag_set(d, MG_ETYPE, "--settings: '%s', line 1: not a "
		    "table of mirage-eval --target -F tsv", path);
		goto out;
	}
	for (nf = 1, end = line; (end = strchr(end, '\t')) != NULL; end++)
		nf++;
	while (fgets(line, sizeof(line), fp) != NULL) {
		enum mg_drive_setting kind;
		double v = 0, t, h, reached, nodes, best;
		int n = 1;

		lineno++;
		if ((len = strlen(line)) == 0) {
			rv = mg_diag_set(d, MG_EFORMAT, "--settings: '%s', line "
			    "%d: a NUL byte: not a table of mirage-eval "
			    "--target", path, lineno);
			goto out;
		}
		if (line[len - 1] != '\n') {
			rv = mg_diag_set(d, MG_ETRUNC, "--settings: '%s', line "
			    "%d: truncated (no newline); write it again with "
			    "mirage-eval --target -F tsv", path, lineno);
			goto out;
		}
		line[strcspn(line, "\n")] = '\0';
		for (end = line; (end = strchr(end, '\t')) != NULL; end++)
			n++;
		if (n != nf) {
			rv = mg_diag_set(d, MG_EFORMAT, "--settings: '%s', line "
			    "%d: %d fields, the header has %d", path, lineno, n,
			    nf);
			goto out;
		}
		field(line, cm, m, sizeof(m));
		field(line, cs, b, sizeof(b));
		/* every number finite and in its range: a nan target would
		 * match any, an infinite margin submit at once */
		if (number(line, ct, &t) != 0 || !(t > 0 && t < 1) ||
		    number(line, ch, &h) != 0 || !(h >= 0 && h <= 86400) ||
		    number(line, cr, &reached) != 0 || !(reached == 0 ||
		    reached == 1) || number(line, cb, &best) != 0 ||
		    !(best == 0 || best == 1) || number(line, cn, &nodes) != 0 ||
		    !(nodes >= 1 && nodes <= 1e6 && nodes == floor(nodes)) ||
		    (strcmp(b, "-") != 0 && (number(line, cs, &v) != 0 ||
		    !(v >= 0 && v <= 1e6)))) {
			rv = mg_diag_set(d, MG_EFORMAT, "--settings: '%s', line "
			    "%d: not a row of mirage-eval --target (a number "
			    "missing, not finite or out of its range); write it "
			    "again with mirage-eval --target -F tsv", path,
			    lineno);
			goto out;
		}
		if (fabs(t - target) > 1e-9) {
			other = t;
			continue;	/* another target's */
		}
		if ((h > 0) != (dr->handover != 0)) {
			rv = mg_diag_set(d, MG_EINVAL, "--settings: '%s', line "
			    "%d: chosen %s handing over; run mirage-eval "
			    "--target %s --handover", path, lineno, h > 0 ?
			    "for" : "without", h > 0 ? "without" : "with");
			goto out;
		}
		field(line, ck, b, sizeof(b));
		/* with --plan the planner's price; without, the rule
		 * recommended (a model, the planner: said if the chain is
		 * this size) */
		if (dr->plan && strcmp(m, "planner") == 0 &&
		    strcmp(b, "price") == 0 && v > 0)
			kind = MG_DRIVE_PRICE;
		else if (dr->plan || best != 1)
			continue;
		else if (strcmp(m, "lead") == 0 && strcmp(b, "lead_h") == 0)
			kind = MG_DRIVE_LEAD;
		else if (strcmp(m, "scheduler-estimate") == 0 &&
		    strcmp(b, "margin_h") == 0)
			kind = MG_DRIVE_MARGIN;
		else
			kind = MG_DRIVE_OTHER;
		/* one setting a size: a second is a table pieced together */
		for (k = 0; k < dr->nchosen; k++)
			if (dr->chosen[k].nodes == (int32_t)nodes) {
				rv = mg_diag_set(d, MG_EFORMAT, "--settings: '%s', "
				    "line %d: a second setting for %d-node chains "
				    "(line %d); write the table again with "
				    "mirage-eval --target", path, lineno,
				    (int)nodes, seen[k]);
				goto out;
			}
		if (dr->nchosen < MG_DRIVE_MAXCHOSEN)
			seen[dr->nchosen] = lineno;
		if ((rv = add_chosen(dr, path, lineno, nodes, m, kind, v,
		    reached, target, line, &pc, d)) != 0)
			goto out;
	}
	if (ferror(fp))
		rv = mg_diag_set(d, MG_EIO, "--settings: '%s': %s", path,
		    strerror(errno));
	else if (dr->nchosen == 0 && other >= 0)
		rv = mg_diag_set(d, MG_EINVAL, "--settings: '%s': chosen for "
		    "%g%%, not the --target %g%%", path, 100 * other,
		    100 * target);
	else if (dr->nchosen == 0)
		rv = mg_diag_set(d, MG_EFORMAT, "--settings: '%s': %s", path,
		    dr->plan ? "no planner row; run mirage-eval --target with "
		    "--plan" : "no method reached the target on its training "
		    "period");
out:
	fclose(fp);
	return rv;
}
