/*
 * hcache.h: the history cache of a chain's planner.  A live --plan run
 * needs four weeks of sacct; asking slurmdbd for them every 5 minutes
 * per chain loads the site.  The cache keeps the sacct -P text of the
 * last run beside the chain's state (mirage-chain(5)): a run asks sacct
 * only for what changed since, merges it (a job's newer row replaces its
 * older one) and drops the jobs that ended before the window.  The file
 * is checksummed and replaced whole; a damaged one is rebuilt.
 *
 *   mirage-history 1.0
 *   covers	FROM	TO		(epoch seconds)
 *   JobID|...			(sacct -P's header, then its rows)
 *   crc32	XXXXXXXX		(of every byte before this line)
 */
#ifndef MG_HCACHE_H
#define MG_HCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "base/parse.h"
#include "base/status.h"

#define MG_HCACHE_MAGIC	"mirage-history"

struct mg_hcache {
	char *text;		/* sacct -P text: a header, then rows */
	size_t len;
	int64_t from, to;	/* the span it holds */
};

/*
 * mg_hcache_read: the cache at path.  Returns 1 and fills c, 0 if there
 * is none, or MG_ECORRUPT, MG_ECHECKSUM, MG_ETRUNC, MG_EVERSION, MG_EIO
 * with d naming the file (the caller rebuilds it).
 */
int mg_hcache_read(const char *path, struct mg_hcache *c, struct mg_diag *d);

/*
 * mg_hcache_merge: old's rows (if any) and then the rows of sacct's new
 * text (a header line, then rows) into c: one row a JobID (the last
 * seen), without the jobs that ended before keep_from (End read in zone
 * tz); c's header is new's.  c->from and c->to are left for the caller.
 * Returns 0, MG_EFORMAT (new has no header with JobID and End) or
 * MG_ENOMEM.
 */
int mg_hcache_merge(const struct mg_hcache *old, const char *new_text,
    size_t new_len, int64_t keep_from, enum mg_tz tz, struct mg_hcache *c,
    struct mg_diag *d);

/* mg_hcache_write: c into path, atomically.  0 or MG_EIO. */
int mg_hcache_write(const char *path, const struct mg_hcache *c,
    struct mg_diag *d);

void mg_hcache_release(struct mg_hcache *c);

#endif /* MG_HCACHE_H */
