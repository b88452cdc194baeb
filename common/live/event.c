/*
 * event.c: the capacity over the past from sacctmgr's node events; see
 * event.h.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/mem.h"
#include "io/slurmfmt.h"
#include "io/input.h"
#include "live/event.h"

#define MAXCOL	32
#define MAXNODE	64	/* a node's name, as slurm.conf's NodeName */

struct ev {
	char node[MAXNODE];
	int64_t start, end;	/* end INT64_MAX: still */
	int32_t id;
};

struct edge {
	int64_t t;
	int32_t id;
	int32_t delta;		/* +1 out of service, -1 back */
};

static int
by_node(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	return strcmp(x->node, y->node);
}

static int
by_time(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->delta > y->delta) - (x->delta < y->delta);
}

/* split line[0..n) at '|' into f[], their lengths into fl[]; the count */
static int
split(const char *line, size_t n, const char **f, size_t *fl)
{
	int k = 0;
	size_t i, from = 0;

	for (i = 0; i <= n && k < MAXCOL; i++)
		if (i == n || line[i] == '|') {
			f[k] = line + from;
			fl[k++] = i - from;
			from = i + 1;
		}
	return k;
}

static int
is(const char *f, size_t n, const char *name)
{
	return strlen(name) == n && strncasecmp(f, name, n) == 0;
}

static int
push_point(struct mg_capacity *c, size_t *cap, int64_t t, int32_t nodes)
{
	if (c->n > 0 && c->nodes[c->n - 1] == nodes)
		return 0;
	if (c->n > 0 && c->time[c->n - 1] == t) {
		c->nodes[c->n - 1] = nodes;
		return 0;
	}
	if (mg_grow((void **)&c->time, &cap[0], c->n + 1, sizeof(*c->time))
	    != 0 || mg_grow((void **)&c->nodes, &cap[1], c->n + 1,
	    sizeof(*c->nodes)) != 0)
		return MG_ENOMEM;
	c->time[c->n] = t;
	c->nodes[c->n++] = nodes;
	return 0;
}

/*
 * The events of in's entries (the input shown as shown, each entry as
 * its name) into c: the lines read, then the capacity swept from their
 * edges.
 */
static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
events(struct mg_input *in, const char *shown, enum mg_tz tz, int32_t nodes,
    const char *only, int64_t since, int64_t now, struct mg_capacity *c,
    struct mg_diag *d)
{
	char **keep = NULL;
	size_t nkeep = 0, kcap = 0;
	struct ev *ev = NULL;
	struct edge *e = NULL;
	int32_t *depth = NULL, down = 0, nid = 0;
	size_t nev = 0, evcap = 0, i, ne, ccap[2] = { 0, 0 };
	int cnode = 0, cstart = 1, cend = 2, need = 3, header = 0, rv = 0;
	int entry = 0;
	const char *name = shown, *l;
	size_t n;

	memset(c, 0, sizeof(*c));
	if (nodes < 1 || since > now)
		return mg_diag_set(d, MG_EINVAL, "no nodes, or a history that "
		    "starts after now");
	if (only != NULL) {
		if ((rv = mg_hostlist(only, strlen(only), &keep, &nkeep,
		    &kcap, d)) != 0)
			goto out;
		if (nkeep > 1)
			qsort(keep, nkeep, sizeof(*keep), cmpstr);
	}
	for (;;) {
		const char *f[MAXCOL];
		size_t fl[MAXCOL];
		uint64_t line;
		int k, r1, r2;
		struct ev x;

		if (!entry && (rv = mg_input_next_entry(in, &name, d)) != 1) {
			if (rv < 0)
				mg_diag_prefix(d, "%s", shown);
			break;
		}
		entry = 1;
		if ((rv = mg_input_getline(in, &l, &n, d)) == 0) {
			entry = 0;	/* the next entry's lines */
			continue;
		}
		if (rv < 0) {
			mg_diag_prefix(d, "%s", name);
			break;
		}
		line = mg_input_lineno(in);
		if (n == 0)
			continue;
		k = split(l, n, f, fl);
		if (!header && nev == 0) {
			int j, a = -1, b = -1, z = -1;

			for (j = 0; j < k; j++) {
				if (is(f[j], fl[j], "NodeName"))
					a = j;
				else if (is(f[j], fl[j], "TimeStart"))
					b = j;
				else if (is(f[j], fl[j], "TimeEnd"))
					z = j;
			}
			if (b >= 0 || a >= 0 || z >= 0) {
				if (a < 0 || b < 0 || z < 0) {
					rv = mg_diag_set(d, MG_EFORMAT, "%s, "
					    "line %llu: a header without "
					    "NodeName, TimeStart and TimeEnd",
					    name, (unsigned long long)line);
					goto out;
				}
				cnode = a, cstart = b, cend = z;
				need = (a > b ? (a > z ? a : z) : (b > z ? b :
				    z)) + 1;
				header = 1;
				continue;
			}
		}
		if (k < need) {
			rv = mg_diag_set(d, MG_EFORMAT, "%s, line %llu: %d "
			    "fields, want at least %d separated by '|' "
			    "(NodeName|TimeStart|TimeEnd|State)", name,
			    (unsigned long long)line, k, need);
			goto out;
		}
		if (fl[cnode] >= MAXNODE) {
			rv = mg_diag_set(d, MG_EFORMAT, "%s, line %llu: a node "
			    "name of %zu bytes (at most %d)", name,
			    (unsigned long long)line, fl[cnode], MAXNODE - 1);
			goto out;
		}
		memcpy(x.node, f[cnode], fl[cnode]);
		x.node[fl[cnode]] = '\0';
		r1 = mg_parse_time(f[cstart], fl[cstart], tz, &x.start);
		r2 = mg_parse_time(f[cend], fl[cend], tz, &x.end);
		if (r1 != 0 || r2 == MG_PARSE_BAD || (r2 == 0 &&
		    x.end < x.start)) {
			rv = mg_diag_set(d, MG_EFORMAT, "%s, line %llu: bad "
			    "TimeStart '%.*s' or TimeEnd '%.*s'", name,
			    (unsigned long long)line, (int)fl[cstart],
			    f[cstart], (int)fl[cend], f[cend]);
			goto out;
		}
		if (r2 == MG_PARSE_MISSING)
			x.end = INT64_MAX;
		c->events++;
		/* cluster events (no node), and what is outside the window */
		if (fl[cnode] == 0 || x.start > now || x.end <= since)
			continue;
		/* another partition's node */
		if (only != NULL) {
			const char *key = x.node;

			if (bsearch(&key, keep, nkeep, sizeof(*keep),
			    cmpstr) == NULL) {
				c->others++;
				continue;
			}
		}
		if (mg_grow((void **)&ev, &evcap, nev + 1, sizeof(*ev)) != 0) {
			rv = MG_ENOMEM;
			goto out;
		}
		ev[nev++] = x;
	}
	if (rv < 0)
		goto out;
	if (nev > 1)
		qsort(ev, nev, sizeof(*ev), by_node);
	for (i = 0; i < nev; i++)
		ev[i].id = i > 0 && by_node(&ev[i - 1], &ev[i]) == 0 ?
		    ev[i - 1].id : nid++;
	if (nid > nodes) {
		rv = mg_diag_set(d, MG_EINVAL, "%s: %d distinct nodes out of "
		    "service, more than the cluster's %d: events of other "
		    "partitions' nodes are counted (give the partition's "
		    "nodes: -p live, PartitionName= Nodes= in -c, or a dump "
		    "of sacctmgr show event Nodes=...)", shown, (int)nid,
		    (int)nodes);
		goto out;
	}
	if ((e = malloc((2 * nev + 1) * sizeof(*e))) == NULL ||
	    (depth = calloc((size_t)nid + 1, sizeof(*depth))) == NULL) {
		rv = MG_ENOMEM;
		goto out;
	}
	for (i = ne = 0; i < nev; i++) {
		e[ne].t = ev[i].start > since ? ev[i].start : since;
		e[ne].id = ev[i].id;
		e[ne++].delta = 1;
		if (ev[i].end <= now) {
			e[ne].t = ev[i].end;
			e[ne].id = ev[i].id;
			e[ne++].delta = -1;
		}
	}
	if (ne > 1)
		qsort(e, ne, sizeof(*e), by_time);
	if ((rv = push_point(c, ccap, since, nodes)) != 0)
		goto out;
	for (i = 0; i < ne; ) {
		int64_t t = e[i].t;

		for (; i < ne && e[i].t == t; i++) {
			int32_t was = depth[e[i].id];

			depth[e[i].id] += e[i].delta;
			down += (was == 0 && depth[e[i].id] > 0) -
			    (was > 0 && depth[e[i].id] == 0);
		}
		if ((rv = push_point(c, ccap, t, nodes - down > 0 ?
		    nodes - down : 0)) != 0)
			goto out;
	}
	c->now = c->nodes[c->n - 1];
out:
	for (i = 0; i < nkeep; i++)
		free(keep[i]);
	free(keep);
	free(ev);
	free(e);
	free(depth);
	if (rv != 0)
		mg_capacity_release(c);
	return rv;
}

int
mg_events_read(const char *path, enum mg_tz tz, int32_t nodes,
    const char *only, int64_t since, int64_t now, struct mg_capacity *c,
    struct mg_diag *d)
{
	struct mg_input *in;
	int rv;
	const char *shown = strcmp(path, "-") ? path : "<stdin>";

	memset(c, 0, sizeof(*c));
	if ((rv = mg_input_open(path, &in, d)) != 0) {
		mg_diag_prefix(d, "%s", shown);
		return rv;
	}
	rv = events(in, shown, tz, nodes, only, since, now, c, d);
	mg_input_free(in);
	return rv;
}

int
mg_events_parse(const char *buf, size_t len, const char *name,
    enum mg_tz tz, int32_t nodes, const char *only, int64_t since,
    int64_t now, struct mg_capacity *c, struct mg_diag *d)
{
	struct mg_input *in;
	int rv;

	memset(c, 0, sizeof(*c));
	if ((rv = mg_input_open_mem(buf, len, name, &in, d)) != 0)
		return rv;
	rv = events(in, name, tz, nodes, only, since, now, c, d);
	mg_input_free(in);
	return rv;
}

void
mg_capacity_release(struct mg_capacity *c)
{
	free(c->time);
	free(c->nodes);
	c->time = NULL;
	c->nodes = NULL;
	c->n = 0;
}
