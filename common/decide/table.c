/*
 * table.c: the table of settings read back, a size's row, a model's
 * target keys; see table.h.
 */
#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/parse.h"
#include "decide/table.h"

#define MAX_HOURS	8760	/* a margin or a lead read back: a year */

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

/* the number in field k of line within lo..hi: 0, or -1 */
static int
number(const char *line, int k, double lo, double hi, double *v)
{
	char b[64];

	if (field(line, k, b, sizeof(b)) == NULL ||
	    mg_parse_f64(b, strlen(b), v) != 0)
		return -1;
	return *v >= lo && *v <= hi ? 0 : -1;
}

/* the columns read, the required ones first */
enum { C_METHOD, C_NODES, C_KIND, C_SETTING, C_TARGET, C_HANDOVER,
    C_REACHED, C_RECOMMENDED, C_REQUIRED, C_PROMISE = C_REQUIRED, C_CONF,
    C_BOUND, C_CERT, C_LINKS, C_CNODES, C_HEND, C_PERIOD, C_ALL };
static const char *const cname[C_ALL] = { "method", "nodes",
	"setting_kind", "setting", "target", "handover_s", "reached",
	"recommended", "promise", "confidence", "train_bound_share",
	"certified", "train_episodes", "cluster_nodes", "history_end",
	"period_start" };

/* the number of column c of line into *v if the table has it (col[c] >=
 * 0, else def), within lo..hi: 0, else -1 */
static int
optional(const char *line, const int *col, int c, double lo, double hi,
    double def, double *v)
{
	*v = def;
	return col[c] < 0 ? 0 : number(line, col[c], lo, hi, v);
}

/* line (NUL-terminated, no newline) into r: 0, -1 for a bad number, 1
 * for a bad promise or provenance */
static int
read_row(const char *line, const int *col, struct mg_table_row *r)
{
	double nodes, h, reached, best, p, cf, b, ce, n, cn, he, ps;
	char kind[32], set[64];

	field(line, col[C_METHOD], r->method, sizeof(r->method));
	field(line, col[C_SETTING], set, sizeof(set));
	field(line, col[C_KIND], kind, sizeof(kind));
	/* every number finite and in its range: a nan target would match
	 * any, an infinite margin submit at once */
	r->setting = 0;
	if (number(line, col[C_TARGET], 0, 1, &r->target) != 0 ||
	    !(r->target > 0 && r->target < 1) ||
	    number(line, col[C_HANDOVER], 0, 86400, &h) != 0 ||
	    number(line, col[C_REACHED], 0, 1, &reached) != 0 ||
	    !(reached == 0 || reached == 1) ||
	    number(line, col[C_RECOMMENDED], 0, 1, &best) != 0 ||
	    !(best == 0 || best == 1) ||
	    number(line, col[C_NODES], 1, 1e6, &nodes) != 0 ||
	    nodes != floor(nodes) ||
	    (strcmp(set, "-") != 0 && number(line, col[C_SETTING], 0, 1e6,
	    &r->setting) != 0) || mg_rule_setting_kind(kind,
	    &r->kind) != 0 ||
	    /* a margin or a lead in hours: at most a year */
	    ((r->kind == MG_SETTING_MARGIN || r->kind == MG_SETTING_LEAD) &&
	    r->setting > MAX_HOURS))
		return -1;
	r->nodes = (int32_t)nodes;
	r->handover = (int64_t)h;
	r->reached = reached == 1;
	r->recommended = best == 1;
	if (optional(line, col, C_PROMISE, 0, 1, -1, &p) != 0 ||
	    optional(line, col, C_CONF, 0, 1, 0, &cf) != 0 ||
	    optional(line, col, C_BOUND, 0, 1, 1, &b) != 0 ||
	    optional(line, col, C_CERT, 0, 1, 0, &ce) != 0 ||
	    optional(line, col, C_LINKS, 0, 1e9, 0, &n) != 0 ||
	    optional(line, col, C_CNODES, 0, 1e6, 0, &cn) != 0 ||
	    cn != floor(cn) || n != floor(n) ||
	    /* no later than 2100-01-01 */
	    optional(line, col, C_HEND, 0, 4102444800.0, 0, &he) != 0 ||
	    optional(line, col, C_PERIOD, 0, 4102444800.0, 0, &ps) != 0)
		return 1;
	r->promise = col[C_PROMISE] >= 0 && col[C_CONF] >= 0 ? p : -1;
	r->confidence = cf;
	r->bound = b;
	r->certified = ce == 1;
	r->links = (long)n;
	r->cluster_nodes = (int32_t)cn;
	r->history_end = (int64_t)he;
	r->period = (int64_t)ps;
	return 0;
}

int
mg_table_read(const char *path, struct mg_table_row **rows, size_t *n,
    struct mg_diag *d)
{
	struct mg_table_row *r = NULL;
	char line[2048], *end;
	int col[C_ALL], nf, lineno = 1, k, rv = MG_OK, bad;
	size_t len, cap = 0;
	struct stat sb;
	FILE *fp;

	*rows = NULL;
	*n = 0;
	if ((fp = fopen(path, "r")) == NULL)
		return mg_diag_set(d, MG_EIO, "cannot open '%s': %s", path,
		    strerror(errno));
	if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		rv = mg_diag_set(d, MG_EINVAL, "'%s' is a directory; give the "
		    "table mirage-eval --target -F tsv wrote", path);
		goto out;
	}
	if (fgets(line, sizeof(line), fp) == NULL) {
		rv = mg_diag_set(d, MG_EFORMAT, "'%s': empty; write it with "
		    "mirage-eval --target -F tsv", path);
		goto out;
	}
	if ((len = strlen(line)) == 0) {
		rv = mg_diag_set(d, MG_EFORMAT, "'%s', line 1: a NUL byte: "
		    "not a table of mirage-eval --target", path);
		goto out;
	}
	if (line[len - 1] != '\n') {
		rv = mg_diag_set(d, MG_ETRUNC, "'%s', line 1: truncated (no "
		    "newline); write it again with mirage-eval --target -F "
		    "tsv", path);
		goto out;
	}
	line[strcspn(line, "\r\n")] = '\0';	/* a CRLF table too */
	for (k = 0; k < C_ALL; k++)
		if ((col[k] = column(line, cname[k])) < 0 && k < C_REQUIRED) {
			rv = mg_diag_set(d, MG_ETYPE, "'%s', line 1: not a table "
			    "of mirage-eval --target -F tsv", path);
			goto out;
		}
	for (nf = 1, end = line; (end = strchr(end, '\t')) != NULL; end++)
		nf++;
	while (fgets(line, sizeof(line), fp) != NULL) {
		int nfields = 1;

		lineno++;
		if ((len = strlen(line)) == 0) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s', line %d: a NUL "
			    "byte: not a table of mirage-eval --target", path,
			    lineno);
			goto out;
		}
		if (line[len - 1] != '\n') {
			rv = mg_diag_set(d, MG_ETRUNC, "'%s', line %d: truncated "
			    "(no newline); write it again with mirage-eval "
			    "--target -F tsv", path, lineno);
			goto out;
		}
		line[strcspn(line, "\r\n")] = '\0';
		for (end = line; (end = strchr(end, '\t')) != NULL; end++)
			nfields++;
		if (nfields != nf) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s', line %d: %d "
			    "fields, the header has %d", path, lineno, nfields,
			    nf);
			goto out;
		}
		if (*n == cap && mg_grow((void **)&r, &cap, *n + 1,
		    sizeof(*r)) != 0) {
			rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
			goto out;
		}
		memset(&r[*n], 0, sizeof(r[*n]));
		r[*n].line = lineno;
		if ((bad = read_row(line, col, &r[*n])) != 0) {
			rv = mg_diag_set(d, MG_EFORMAT, "'%s', line %d: not a row "
			    "of mirage-eval --target (%s); write it again with "
			    "mirage-eval --target -F tsv", path, lineno, bad < 0 ?
			    "a number missing, not finite or out of its range" :
			    "a promise, a node count or a date out of its "
			    "range");
			goto out;
		}
		(*n)++;
	}
	if (ferror(fp))
		rv = mg_diag_set(d, MG_EIO, "'%s': %s", path, strerror(errno));
out:
	fclose(fp);
	if (rv != 0) {
		free(r);
		r = NULL;
		*n = 0;
	}
	*rows = r;
	return rv;
}

int
mg_table_size(const int32_t *sizes, int n, int32_t nodes)
{
	int k, below = -1;

	for (k = 0; k < n; k++)
		if (sizes[k] <= nodes && (below < 0 || sizes[k] >
		    sizes[below]))
			below = k;
	return below;
}

int
mg_table_model(const struct mg_model *m, double *target, double *handover,
    double *promise, double *confidence, struct mg_diag *d)
{
	if (mg_model_param(m, "target", target) != 0 || !(*target > 0 &&
	    *target < 1))
		return mg_diag_set(d, MG_EINVAL, "no target");
	if (mg_model_param(m, "target_handover_s", handover) != 0 ||
	    !(*handover >= 0 && *handover <= 86400))
		return mg_diag_set(d, MG_EINVAL, "no valid target_handover_s");
	if (mg_model_param(m, "target_promise", promise) != 0 ||
	    mg_model_param(m, "target_confidence", confidence) != 0 ||
	    !(*promise >= 0 && *promise <= 1) || !(*confidence > 0 &&
	    *confidence < 1))
		*promise = *confidence = -1;
	return MG_OK;
}
