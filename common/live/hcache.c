/*
 * hcache.c: the history cache of a chain's planner; see hcache.h.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/cli.h"
#include "live/hcache.h"

#define MAXFILE	(1u << 30)	/* larger is not a cache of ours */

struct row {
	const char *p;		/* the row, without its newline */
	size_t n;
	const char *id;		/* its first field */
	size_t idn;
	size_t order;
	int keep;
};

static int
by_id(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	size_t n = x->idn < y->idn ? x->idn : y->idn;
	int c = memcmp(x->id, y->id, n);

	if (c != 0)
		return c;
	if (x->idn != y->idn)
		return x->idn < y->idn ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int
by_order(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/* field k of line[0..n) split at '|' */
static int
field(const char *line, size_t n, int k, const char **f, size_t *fn)
{
	const char *p = line, *end = line + n, *q;

	for (; k > 0; k--) {
		if ((q = memchr(p, '|', (size_t)(end - p))) == NULL)
			return -1;
		p = q + 1;
	}
	q = memchr(p, '|', (size_t)(end - p));
	*f = p;
	*fn = (size_t)((q ? q : end) - p);
	return 0;
}

/* where name is among header[0..n)'s fields, or -1 */
static int
column(const char *header, size_t n, const char *name)
{
	const char *f;
	size_t fn;
	int k;

	for (k = 0; field(header, n, k, &f, &fn) == 0; k++)
		if (fn == strlen(name) && memcmp(f, name, fn) == 0)
			return k;
	return -1;
}

/* the rows of text[0..len) after its header line into *rows */
static int
add_rows(const char *text, size_t len, struct row **rows, size_t *n,
    size_t *cap)
{
	const char *p = memchr(text, '\n', len), *end = text + len;

	for (p = p ? p + 1 : end; p < end; ) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t rn = (size_t)((nl ? nl : end) - p);
		struct row *r;

		if (rn > 0) {
			if (*n == *cap) {
				size_t c = *cap ? 2 * *cap : 4096;

				if ((r = realloc(*rows, c * sizeof(*r))) ==
				    NULL)
					return MG_ENOMEM;
				*rows = r;
				*cap = c;
			}
			r = &(*rows)[*n];
			r->p = p;
			r->n = rn;
			r->id = p;
			r->idn = strcspn(p, "|\n");
			if (r->idn > rn)
				r->idn = rn;
			r->order = (*n)++;
			r->keep = 1;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int
mg_hcache_merge(const struct mg_hcache *old, const char *new_text,
    size_t new_len, int64_t keep_from, enum mg_tz tz, struct mg_hcache *c,
    struct mg_diag *d)
{
	const char *nl = memchr(new_text, '\n', new_len);
	size_t hn = nl ? (size_t)(nl - new_text) : new_len, n = 0, cap = 0, i;
	size_t olen = 0, out = 0;
	struct row *rows = NULL;
	int kend = column(new_text, hn, "End"), rv;

	memset(c, 0, sizeof(*c));
	if (column(new_text, hn, "JobID") != 0 || kend < 0)
		return mg_diag_set(d, MG_EFORMAT, "sacct's answer has no "
		    "header with JobID first and End");
	/* the old rows count only under the same header */
	if (old != NULL && old->len > hn && memcmp(old->text, new_text, hn) ==
	    0 && old->text[hn] == '\n') {
		if ((rv = add_rows(old->text, old->len, &rows, &n, &cap)) != 0)
			goto nomem;
		olen = old->len;
	}
	if ((rv = add_rows(new_text, new_len, &rows, &n, &cap)) != 0)
		goto nomem;
	/* a job's last row wins */
	if (n > 1)
		qsort(rows, n, sizeof(*rows), by_id);
	for (i = 0; i + 1 < n; i++)
		if (rows[i].idn == rows[i + 1].idn && memcmp(rows[i].id,
		    rows[i + 1].id, rows[i].idn) == 0)
			rows[i].keep = 0;
	if (n > 1)
		qsort(rows, n, sizeof(*rows), by_order);
	/* jobs that ended before the window are of no use */
	for (i = 0; i < n; i++) {
		const char *f;
		size_t fn;
		int64_t t;

		if (rows[i].keep && field(rows[i].p, rows[i].n, kend, &f,
		    &fn) == 0 && mg_parse_time(f, fn, tz, &t) == 0 &&
		    t < keep_from)
			rows[i].keep = 0;
	}
	if ((c->text = malloc(hn + 1 + olen + new_len + 1)) == NULL)
		goto nomem;
	memcpy(c->text, new_text, hn);
	c->text[hn] = '\n';
	out = hn + 1;
	for (i = 0; i < n; i++)
		if (rows[i].keep) {
			memcpy(c->text + out, rows[i].p, rows[i].n);
			out += rows[i].n;
			c->text[out++] = '\n';
		}
	c->text[out] = '\0';
	c->len = out;
	free(rows);
	return 0;
nomem:
	free(rows);
	mg_hcache_release(c);
	return mg_diag_set(d, MG_ENOMEM, "out of memory");
}

int
mg_hcache_read(const char *path, struct mg_hcache *c, struct mg_diag *d)
{
	struct stat st;
	char *buf, *body, *crc;
	unsigned major, minor;
	long long from, to;
	size_t n;
	int fd;

	memset(c, 0, sizeof(*c));
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : mg_diag_set(d, MG_EIO, "'%s': %s",
		    path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > (off_t)MAXFILE) {
		close(fd);
		return mg_diag_set(d, MG_ECORRUPT, "'%s': not a history "
		    "cache", path);
	}
	n = (size_t)st.st_size;
	if ((buf = malloc(n + 1)) == NULL) {
		close(fd);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	if (read(fd, buf, n) != (ssize_t)n) {
		close(fd);
		free(buf);
		return mg_diag_set(d, MG_EIO, "'%s': a short read", path);
	}
	close(fd);
	buf[n] = '\0';
	if (strlen(buf) != n || sscanf(buf, MG_HCACHE_MAGIC " %u.%u\n",
	    &major, &minor) != 2) {
		free(buf);
		return mg_diag_set(d, MG_ECORRUPT, "'%s': line 1: not a "
		    "history cache", path);
	}
	if (major != 1) {
		free(buf);
		return mg_diag_set(d, MG_EVERSION, "'%s': version %u.%u",
		    path, major, minor);
	}
	/* the last line: the CRC of every byte before it */
	if (n < 2 || buf[n - 1] != '\n' || (crc = strstr(buf, "\ncrc32\t")) ==
	    NULL || strchr(crc + 1, '\n') != buf + n - 1) {
		free(buf);
		return mg_diag_set(d, MG_ETRUNC, "'%s': no crc32 line at the "
		    "end (cut short)", path);
	}
	if (crc32(0, (const Bytef *)buf, (uInt)(crc + 1 - buf)) !=
	    strtoul(crc + 7, NULL, 16)) {
		free(buf);
		return mg_diag_set(d, MG_ECHECKSUM, "'%s': CRC32 mismatch",
		    path);
	}
	if ((body = strchr(buf, '\n')) == NULL || sscanf(body + 1,
	    "covers\t%lld\t%lld\n", &from, &to) != 2 || from > to ||
	    (body = strchr(body + 1, '\n')) == NULL || body > crc) {
		free(buf);
		return mg_diag_set(d, MG_ECORRUPT, "'%s': line 2: no span",
		    path);
	}
	body++;
	c->len = (size_t)(crc + 1 - body);
	if ((c->text = malloc(c->len + 1)) == NULL) {
		free(buf);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	memcpy(c->text, body, c->len);
	c->text[c->len] = '\0';
	c->from = from;
	c->to = to;
	free(buf);
	return 1;
}

int
mg_hcache_write(const char *path, const struct mg_hcache *c,
    struct mg_diag *d)
{
	char head[128], tail[32];
	struct mg_out o;
	uLong crc;
	int hn;

	hn = snprintf(head, sizeof(head), MG_HCACHE_MAGIC " 1.0\ncovers\t%lld"
	    "\t%lld\n", (long long)c->from, (long long)c->to);
	crc = crc32(0, (const Bytef *)head, (uInt)hn);
	crc = crc32(crc, (const Bytef *)c->text, (uInt)c->len);
	snprintf(tail, sizeof(tail), "crc32\t%08lx\n", crc);
	/*
	 * whole or not at all: a temporary file beside it, renamed; every
	 * user's jobs, so readable by its owner only
	 */
	if (mg_out_open_mode(&o, path, 0600, d) != 0)
		return MG_EIO;
	if (fwrite(head, 1, (size_t)hn, o.fp) != (size_t)hn ||
	    fwrite(c->text, 1, c->len, o.fp) != c->len ||
	    fputs(tail, o.fp) == EOF) {
		mg_diag_set(d, MG_EIO, "'%s': %s", path, strerror(errno));
		mg_out_abort(&o);
		return MG_EIO;
	}
	return mg_out_commit(&o, d) != 0 ? MG_EIO : 0;
}

void
mg_hcache_release(struct mg_hcache *c)
{
	free(c->text);
	c->text = NULL;
	c->len = 0;
}
