/*
 * chain.c: the chain state file; see chain.h and mirage-chain(5).
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "live/chain.h"
#include "base/cli.h"
#include "base/parse.h"

/* the file's text up to its crc32 line */
static size_t
format(const struct mg_chainstate *s, char *buf, size_t cap)
{
	char when[32];
	int n;

	mg_format_time(s->updated, when, sizeof(when));
	n = snprintf(buf, cap, "%s %d.%d\n"
	    "current\t%s\nsuccessor\t%s\ntoken\t%s\ntoken_time\t%lld\n"
	    "submitted\t%lld\nscript\t%s\nfailures\t%lld\nfailed\t%s\n"
	    "retry_after\t%lld\nhanded\t%s\nhandover_time\t%lld\n"
	    "taking\t%s\ntake_began\t%lld\ntake_until\t%lld\n"
	    "signalled\t%lld\ncancelled\t%lld\ntake_host\t%s\n"
	    "seen\t%lld\nseen_host\t%s\ntake_due\t%lld\np_start\t%s\n"
	    "workdir\t%s\nheld_until\t%lld\nnice\t%lld\nhanded_start\t%s\n"
	    "current_start\t%lld\nready_max\t%lld\nupdated\t%s\n",
	    MG_CHAIN_MAGIC, MG_CHAIN_MAJOR, MG_CHAIN_MINOR,
	    *s->current ? s->current : "-",
	    *s->successor ? s->successor : "-", *s->token ? s->token : "-",
	    (long long)s->token_time, (long long)s->submitted,
	    *s->script ? s->script : "-", (long long)s->failures,
	    *s->failed ? s->failed : "-", (long long)s->retry_after,
	    *s->handed ? s->handed : "-", (long long)s->handover_time,
	    *s->take.job ? s->take.job : "-", (long long)s->take.began,
	    (long long)s->take.until, (long long)s->take.signalled,
	    (long long)s->take.cancelled, *s->take.host ? s->take.host : "-",
	    (long long)s->take.seen, *s->take.seen_host ? s->take.seen_host :
	    "-", (long long)s->take.due, *s->take.p_start ? s->take.p_start :
	    "-", *s->workdir ? s->workdir : "-", (long long)s->held_until,
	    (long long)s->nice, *s->handed_start ? s->handed_start : "-",
	    (long long)s->current_start, (long long)s->ready_max, when);
	return n < 0 ? 0 : (size_t)n;
}

/* a value the file can hold: no tab, newline or other control byte
 * (a script name with one would forge or break a field) */
static int
plain(const char *v)
{
	for (; *v; v++)
		if ((unsigned char)*v < 0x20 || *v == 0x7f)
			return 0;
	return 1;
}

int
mg_chain_write(const char *path, const struct mg_chainstate *s,
    struct mg_diag *d)
{
	char buf[4096];
	size_t n = format(s, buf, sizeof(buf));
	struct mg_out o;

	if (!plain(s->current) || !plain(s->successor) || !plain(s->token) ||
	    !plain(s->script) || !plain(s->failed) || !plain(s->handed) ||
	    !plain(s->take.job) || !plain(s->take.host) ||
	    !plain(s->take.seen_host) || !plain(s->take.p_start) ||
	    !plain(s->workdir))
		return mg_diag_set(d, MG_EINVAL, "'%s': a value with a tab, "
		    "newline or control character cannot be kept", path);
	if (n == 0 || n + 20 >= sizeof(buf))
		return mg_diag_set(d, MG_EINVAL, "'%s': state too long", path);
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "crc32\t%08lx\n",
	    crc32(0, (const Bytef *)buf, (uInt)n));
	/* whole or not at all: a temporary file beside it, renamed */
	if (mg_out_open(&o, path, d) != 0)
		return MG_EIO;
	if (fwrite(buf, 1, n, o.fp) != n) {
		mg_diag_set(d, MG_EIO, "'%s': %s", path, strerror(errno));
		mg_out_abort(&o);
		return MG_EIO;
	}
	return mg_out_commit(&o, d) != 0 ? MG_EIO : 0;
}

static int
copy(char *dst, size_t cap, const char *v)
{
	if (strcmp(v, "-") == 0)
		v = "";
	if (strlen(v) >= cap)
		return -1;
	strcpy(dst, v);
	return 0;
}

static int
count_lines(const char *a, const char *b)
{
	int n = 0;

	for (; a < b; a++)
		n += *a == '\n';
	return n;
}

int
mg_chain_parse(const char *text, size_t n, const char *path,
    struct mg_chainstate *s, struct mg_diag *d)
{
	char buf[4096], *line, *next, *tab;
	unsigned major, minor;
	int lineno = 0, have_crc = 0;
	size_t k;
	const struct {
		const char *key;
		int64_t *v;
	} num[] = {
		{ "token_time", &s->token_time },
		{ "submitted", &s->submitted },
		{ "failures", &s->failures },
		{ "retry_after", &s->retry_after },
		{ "handover_time", &s->handover_time },
		{ "take_began", &s->take.began },
		{ "take_until", &s->take.until },
		{ "signalled", &s->take.signalled },
		{ "cancelled", &s->take.cancelled },
		{ "seen", &s->take.seen },
		{ "take_due", &s->take.due },
		{ "held_until", &s->held_until },
		{ "nice", &s->nice },
		{ "current_start", &s->current_start },
		{ "ready_max", &s->ready_max },
	};

	memset(s, 0, sizeof(*s));
	if (n >= sizeof(buf))
		return mg_diag_set(d, MG_ECORRUPT, "'%s': too long for a chain "
		    "state", path);
	memcpy(buf, text, n);
	buf[n] = '\0';
	if (strlen(buf) != n)
		return mg_diag_set(d, MG_ECORRUPT, "'%s': a NUL byte: not a "
		    "chain state", path);
	if (sscanf(buf, MG_CHAIN_MAGIC " %u.%u\n", &major, &minor) != 2)
		return mg_diag_set(d, MG_ECORRUPT, "'%s': line 1: not a mirage "
		    "chain state", path);
	if (major != MG_CHAIN_MAJOR)
		return mg_diag_set(d, MG_EVERSION, "'%s': version %u.%u; this "
		    "mirage-advise reads %d.x", path, major, minor,
		    MG_CHAIN_MAJOR);
	{
		/* the checksum covers the text before its line */
		char *c = strstr(buf, "\ncrc32\t");

		if (c != NULL && crc32(0, (const Bytef *)buf,
		    (uInt)(c + 1 - buf)) != strtoul(c + 7, NULL, 16))
			return mg_diag_set(d, MG_ECHECKSUM, "'%s': line %d: "
			    "CRC32 mismatch", path, 1 + count_lines(buf, c + 1));
	}
	for (line = buf; *line; line = next) {
		lineno++;
		if ((next = strchr(line, '\n')) == NULL)
			return mg_diag_set(d, MG_ETRUNC, "'%s': line %d: cut "
			    "short", path, lineno);
		*next++ = '\0';
		if (lineno == 1)
			continue;
		if ((tab = strchr(line, '\t')) == NULL)
			return mg_diag_set(d, MG_ECORRUPT, "'%s': line %d: no "
			    "tab", path, lineno);
		*tab++ = '\0';
		if (strcmp(line, "crc32") == 0) {
			have_crc = 1;
			break;
		}
		if ((strcmp(line, "current") == 0 && copy(s->current,
		    sizeof(s->current), tab)) ||
		    (strcmp(line, "successor") == 0 && copy(s->successor,
		    sizeof(s->successor), tab)) ||
		    (strcmp(line, "token") == 0 && copy(s->token,
		    sizeof(s->token), tab)) ||
		    (strcmp(line, "script") == 0 && copy(s->script,
		    sizeof(s->script), tab)) ||
		    (strcmp(line, "failed") == 0 && copy(s->failed,
		    sizeof(s->failed), tab)) ||
		    (strcmp(line, "handed") == 0 && copy(s->handed,
		    sizeof(s->handed), tab)) ||
		    (strcmp(line, "taking") == 0 && copy(s->take.job,
		    sizeof(s->take.job), tab)) ||
		    (strcmp(line, "take_host") == 0 && copy(s->take.host,
		    sizeof(s->take.host), tab)) ||
		    (strcmp(line, "seen_host") == 0 && copy(s->take.seen_host,
		    sizeof(s->take.seen_host), tab)) ||
		    (strcmp(line, "p_start") == 0 && copy(s->take.p_start,
		    sizeof(s->take.p_start), tab)) ||
		    (strcmp(line, "workdir") == 0 && copy(s->workdir,
		    sizeof(s->workdir), tab)) ||
		    (strcmp(line, "handed_start") == 0 && copy(s->handed_start,
		    sizeof(s->handed_start), tab)))
			return mg_diag_set(d, MG_ECORRUPT, "'%s': line %d: "
			    "value too long", path, lineno);
		/* when it was written: what tells an old record from one
		 * under way (a date that does not read is left at 0) */
		if (strcmp(line, "updated") == 0 &&
		    mg_parse_date(tab, MG_TZ_UTC, &s->updated) != 0)
			s->updated = 0;
		for (k = 0; k < sizeof(num) / sizeof(num[0]); k++)
			if (strcmp(line, num[k].key) == 0 &&
			    mg_parse_i64(tab, strlen(tab), 0, INT64_MAX,
			    num[k].v) != 0)
				return mg_diag_set(d, MG_ECORRUPT, "'%s': line "
				    "%d: bad %s", path, lineno, num[k].key);
		/* other keys: a newer minor version's, ignored */
	}
	if (!have_crc)
		return mg_diag_set(d, MG_ETRUNC, "'%s': no crc32 line (cut "
		    "short)", path);
	if (*next != '\0')
		return mg_diag_set(d, MG_ECORRUPT, "'%s': text after the crc32 "
		    "line", path);
	if (s->current[0] == '\0')
		return mg_diag_set(d, MG_ECORRUPT, "'%s': no current job",
		    path);
	return 1;
}

int
mg_chain_read(const char *path, struct mg_chainstate *s, struct mg_diag *d)
{
	char buf[4096];
	size_t n;
	struct stat st;
	FILE *fp;
	int fd;

	memset(s, 0, sizeof(*s));
	/* never block on a FIFO or a device while holding the lock */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return 0;
		return mg_diag_set(d, MG_EIO, "'%s': %s", path,
		    strerror(errno));
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return mg_diag_set(d, MG_EIO, "'%s': not a regular file",
		    path);
	}
	if ((fp = fdopen(fd, "r")) == NULL) {
		close(fd);
		return mg_diag_set(d, MG_EIO, "'%s': %s", path,
		    strerror(errno));
	}
	n = fread(buf, 1, sizeof(buf), fp);
	if (ferror(fp)) {
		fclose(fp);
		return mg_diag_set(d, MG_EIO, "'%s': %s", path,
		    strerror(errno));
	}
	fclose(fp);
	return mg_chain_parse(buf, n, path, s, d);
}

int
mg_chain_lock(const char *path, int wait, struct mg_diag *d)
{
	char lk[4096];
	time_t until = time(NULL) + wait;
	int fd;

	snprintf(lk, sizeof(lk), "%s.lock", path);
	if ((fd = open(lk, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
		return mg_diag_set(d, MG_EIO, "'%s': %s", lk, strerror(errno));
	while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = errno;

			close(fd);
			return mg_diag_set(d, MG_EIO, "'%s': %s", lk,
			    strerror(e));
		}
		if (time(NULL) >= until) {
			close(fd);
			return mg_diag_set(d, MG_EIO, "'%s': held by another "
			    "run for %d s", lk, wait);
		}
		usleep(100000);
	}
	return fd;
}

void
mg_chain_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

int64_t
mg_chain_backoff(int64_t n)
{
	return (int64_t)MG_CHAIN_BACKOFF << (n < 1 ? 0 : n > 10 ? 9 : n - 1);
}

/* a failure state: the job did not do its work (TIMEOUT is a chain's
 * ordinary end, CANCELLED a person's choice unless before the start) */
static int
failure_state(const struct mg_live_job *j)
{
	static const char *const bad[] = { "FAILED", "NODE_FAIL",
	    "BOOT_FAIL", "OUT_OF_MEMORY", "DEADLINE", NULL };
	int i;

	if (j->start < 0 && j->end >= 0)
		return 1;	/* ended before it started */
	for (i = 0; bad[i]; i++)
		if (strcmp(j->state, bad[i]) == 0)
			return 1;
	return 0;
}

/* job j failed: counted once, and the back-off set */
static void
failed(struct mg_chainstate *st, const struct mg_live_job *j, int64_t now,
    char *fate, size_t cap)
{
	if (strcmp(st->failed, j->jobid) == 0)
		return;
	snprintf(st->failed, sizeof(st->failed), "%s", j->jobid);
	st->failures++;
	st->retry_after = (j->end > 0 ? j->end : now) +
	    mg_chain_backoff(st->failures);
	snprintf(fate, cap, "job %s %s (%s)", j->jobid, j->start < 0 ?
	    "ended before it started" : "failed", *j->state ? j->state :
	    "no state");
}

enum mg_chain_step
mg_chain_step(struct mg_chainstate *st, const struct mg_live_job *s,
    int64_t now, char *old, size_t oldcap, char *fate, size_t fatecap)
{
	if (s != NULL && s->start >= 0 && s->start <= now) {
		snprintf(old, oldcap, "%s", st->current);
		snprintf(st->current, sizeof(st->current), "%s",
		    st->successor);
		st->successor[0] = '\0';
		st->current_start = s->start;
		return MG_CHAIN_STARTED;
	}
	if (s != NULL && s->start < 0 && s->end >= 0 && s->end <= now) {
		/* cancelled (or failed) before it started: counted once,
		 * and the chain goes on from its job */
		failed(st, s, now, fate, fatecap);
		st->successor[0] = '\0';
		return MG_CHAIN_LOST;
	}
	return MG_CHAIN_SAME;
}

void
mg_chain_job(struct mg_chainstate *st, const struct mg_live_job *p, int ended,
    int64_t now, char *fate, size_t fatecap)
{
	/* the last failure: the count is cleared only by a job that
	 * started after it (a P that ran on while its successors were
	 * cancelled says nothing of them) */
	int64_t last = st->retry_after - mg_chain_backoff(st->failures);

	if (!ended && p->start > 0)
		st->current_start = p->start;
	if (ended && failure_state(p))
		failed(st, p, now, fate, fatecap);
	else if (st->failures > 0 && p->start >= last && (ended ||
	    now - p->start >= MG_CHAIN_SETTLED)) {
		st->failures = 0;
		st->retry_after = 0;
	}
}

void
mg_chain_revert(struct mg_chainstate *st, const char *p,
    const struct mg_live_job *s, int64_t now, char *fate, size_t fatecap)
{
	/* counted as a failure whatever its state: it did not serve */
	failed(st, s, now, fate, fatecap);
	snprintf(st->current, sizeof(st->current), "%s", p);
	st->successor[0] = '\0';
	st->current_start = 0;	/* seen again at the next run */
	memset(&st->take, 0, sizeof(st->take));
	/* the chain's job again, not one handed over (a requeued P is not
	 * cancelled as one) */
	if (strcmp(st->handed, p) == 0) {
		st->handed[0] = '\0';
		st->handed_start[0] = '\0';
		st->handover_time = 0;
	}
}

void
mg_chain_rewind(struct mg_chainstate *st, const char *p)
{
	char s[sizeof(st->current)];

	memcpy(s, st->current, sizeof(s));
	snprintf(st->current, sizeof(st->current), "%s", p);
	memcpy(st->successor, s, sizeof(st->successor));
	st->current_start = 0;
	memset(&st->take, 0, sizeof(st->take));
	st->handed[0] = '\0';
	st->handed_start[0] = '\0';
	st->handover_time = 0;
}

void
mg_chain_token(char *buf, size_t cap)
{
	unsigned char r[8];
	int fd = open("/dev/urandom", O_RDONLY), i;
	uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	if (fd < 0 || read(fd, r, sizeof(r)) != (ssize_t)sizeof(r))
		memcpy(r, &x, sizeof(r));
	if (fd >= 0)
		close(fd);
	for (i = 0; i < 8 && (size_t)(2 * i + 2) < cap; i++)
		snprintf(buf + 2 * i, 3, "%02x", r[i]);
}

/* ---- the links ---------------------------------------------------- */

static const char links_schema[] =
    "pred\tsucc\tsubmitted\theld\trule\tpromise\thandover\tcrc32";

int
mg_chain_link_add(const char *path, const struct mg_chainlink *k,
    struct mg_diag *d)
{
	char buf[512], promise[32];
	struct stat st;
	int fd, n = 0, m;
	ssize_t w;

	if (!plain(k->pred) || !plain(k->succ) || !plain(k->rule) ||
	    *k->pred == '\0' || *k->succ == '\0')
		return mg_diag_set(d, MG_EINVAL, "'%s': a link that cannot be "
		    "kept", path);
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
	    0644)) < 0 || fstat(fd, &st) != 0) {
		mg_diag_set(d, MG_EIO, "'%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return MG_EIO;
	}
	if (st.st_size == 0)
		n = snprintf(buf, sizeof(buf), "%s %d.%d\n%s\n",
		    MG_CHAIN_LINKS_MAGIC, MG_CHAIN_LINKS_MAJOR,
		    MG_CHAIN_LINKS_MINOR, links_schema);
	if (k->promise > 0)
		snprintf(promise, sizeof(promise), "%.4f", k->promise);
	else
		snprintf(promise, sizeof(promise), "-");
	m = snprintf(buf + n, sizeof(buf) - (size_t)n, "%s\t%s\t%lld\t%lld\t"
	    "%s\t%s\t%d", k->pred, k->succ, (long long)k->submitted,
	    (long long)k->held, *k->rule ? k->rule : "-", promise,
	    k->handover != 0);
	m += snprintf(buf + n + m, sizeof(buf) - (size_t)(n + m), "\t%08lx\n",
	    crc32(0, (const Bytef *)buf + n, (uInt)m));
	/* one write, appended whole: a reader never sees half a line but
	 * for a crash, which the line's checksum finds */
	w = write(fd, buf, (size_t)(n + m));
	if (w != n + m || fsync(fd) != 0) {
		mg_diag_set(d, MG_EIO, "'%s': %s", path, w < 0 ||
		    w == n + m ? strerror(errno) : "a short write");
		close(fd);
		return MG_EIO;
	}
	if (close(fd) != 0)
		return mg_diag_set(d, MG_EIO, "'%s': %s", path,
		    strerror(errno));
	return MG_OK;
}

/* one line of the links (no newline) into k */
static int
link_parse(char *line, const char *path, int lineno,
    struct mg_chainlink *k, struct mg_diag *d)
{
	char *f[8], *c = line, *t;
	size_t nf = 0, len;
	int64_t v;

	memset(k, 0, sizeof(*k));
	if ((t = strrchr(line, '\t')) == NULL || strlen(t + 1) != 8 ||
	    crc32(0, (const Bytef *)line, (uInt)(t - line)) !=
	    strtoul(t + 1, NULL, 16))
		return mg_diag_set(d, MG_ECHECKSUM, "'%s': line %d: CRC32 "
		    "mismatch (a line changed or cut short)", path, lineno);
	*t = '\0';
	while (nf < 7) {
		f[nf++] = c;
		if ((c = strchr(c, '\t')) == NULL)
			break;
		*c++ = '\0';
	}
	if (nf != 7 || c != NULL)
		return mg_diag_set(d, MG_ECORRUPT, "'%s': line %d: %zu fields, "
		    "not 7", path, lineno, nf);
	if (copy(k->pred, sizeof(k->pred), f[0]) ||
	    copy(k->succ, sizeof(k->succ), f[1]) ||
	    copy(k->rule, sizeof(k->rule), f[4]))
		return mg_diag_set(d, MG_ECORRUPT, "'%s': line %d: value too "
		    "long", path, lineno);
	len = strlen(f[2]);
	if (mg_parse_i64(f[2], len, 0, INT64_MAX, &k->submitted) != 0 ||
	    mg_parse_i64(f[3], strlen(f[3]), 0, INT64_MAX, &k->held) != 0 ||
	    mg_parse_i64(f[6], strlen(f[6]), 0, 1, &v) != 0)
		return mg_diag_set(d, MG_ECORRUPT, "'%s': line %d: a bad "
		    "number", path, lineno);
	k->handover = (int)v;
	if (strcmp(f[5], "-") != 0 && (mg_parse_f64(f[5], strlen(f[5]),
	    &k->promise) != 0 || !(k->promise > 0 && k->promise <= 1)))
		return mg_diag_set(d, MG_ECORRUPT, "'%s': line %d: a bad "
		    "promise", path, lineno);
	return MG_OK;
}

int
mg_chain_links_read(const char *path, struct mg_chainlink **out, size_t *n,
    struct mg_diag *d)
{
	struct mg_chainlink *v = NULL, *nv;
	char *line = NULL;
	size_t cap = 0, lcap = 0;
	unsigned major, minor;
	ssize_t len;
	int lineno = 0, rv = MG_OK;
	FILE *fp;

	*out = NULL;
	*n = 0;
	if ((fp = fopen(path, "r")) == NULL)
		return errno == ENOENT ? MG_OK : mg_diag_set(d, MG_EIO,
		    "'%s': %s", path, strerror(errno));
	while ((len = getline(&line, &lcap, fp)) >= 0) {
		lineno++;
		if ((size_t)len != strlen(line)) {
			rv = mg_diag_set(d, MG_ECORRUPT, "'%s': line %d: a NUL "
			    "byte", path, lineno);
			break;
		}
		if (len == 0 || line[len - 1] != '\n') {
			rv = mg_diag_set(d, MG_ETRUNC, "'%s': line %d: cut short",
			    path, lineno);
			break;
		}
		line[--len] = '\0';
		if (lineno == 1) {
			if (sscanf(line, MG_CHAIN_LINKS_MAGIC " %u.%u", &major,
			    &minor) != 2) {
				rv = mg_diag_set(d, MG_ECORRUPT, "'%s': line 1: "
				    "not a mirage chain's links", path);
				break;
			}
			if (major != MG_CHAIN_LINKS_MAJOR) {
				rv = mg_diag_set(d, MG_EVERSION, "'%s': version "
				    "%u.%u; this mirage-advise reads %d.x",
				    path, major, minor, MG_CHAIN_LINKS_MAJOR);
				break;
			}
			continue;
		}
		if (lineno == 2) {
			if (strcmp(line, links_schema) != 0) {
				rv = mg_diag_set(d, MG_ECORRUPT, "'%s': line 2: "
				    "not the links' columns", path);
				break;
			}
			continue;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			if ((nv = realloc(v, cap * sizeof(*v))) == NULL) {
				rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
				break;
			}
			v = nv;
		}
		if ((rv = link_parse(line, path, lineno, &v[*n], d)) != 0)
			break;
		(*n)++;
	}
	if (rv == MG_OK && ferror(fp))
		rv = mg_diag_set(d, MG_EIO, "'%s': %s", path, strerror(errno));
	if (rv == MG_OK && lineno == 1)
		rv = mg_diag_set(d, MG_ETRUNC, "'%s': no columns line (cut "
		    "short)", path);
	free(line);
	fclose(fp);
	if (rv != MG_OK) {
		free(v);
		*n = 0;
		return rv;
	}
	*out = v;
	return MG_OK;
}

int
mg_chain_update(const char *path, int wait,
    int (*change)(struct mg_chainstate *, int, void *), void *arg,
    struct mg_diag *d)
{
	struct mg_chainstate st;
	int fd, rv;

	if ((fd = mg_chain_lock(path, wait, d)) < 0)
		return fd;
	if ((rv = mg_chain_read(path, &st, d)) >= 0 &&
	    (rv = change(&st, rv, arg)) == 1 &&
	    mg_chain_write(path, &st, d) != 0)
		rv = MG_EIO;
	mg_chain_unlock(fd);
	return rv;
}
