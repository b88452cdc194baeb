/*
 * slurm.c: a live cluster through Slurm's commands (slurm.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "live/slurm.h"
#include "live/hcache.h"
#include "base/clock.h"
#include "base/proc.h"

/* a warning through s->warn */
static void say(const struct mg_slurm *s, int loud, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
say(const struct mg_slurm *s, int loud, const char *fmt, ...)
{
	char msg[MG_DIAG_MAX + 256];
	va_list ap;

	if (s->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->warn(s->arg, loud, msg);
}

void
mg_slurm_time(int64_t t, enum mg_tz tz, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (tz == MG_TZ_UTC || localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		mg_format_time(t, buf, cap);
}

void
mg_slurm_when(int64_t t, char *buf, size_t cap)
{
	snprintf(buf, cap, "uts%lld", (long long)t);
}

char *
mg_slurm_run(const struct mg_slurm *s, const char *const argv[], size_t *len,
    char *note, size_t cap)
{
	return mg_slurm_ask(s, argv, NULL, len, note, cap);
}

char *
mg_slurm_ask(const struct mg_slurm *s, const char *const argv[],
    const char *final, size_t *len, char *note, size_t cap)
{
	struct mg_diag d = { "" };
	struct mg_proc p;
	char *out;
	int k;

	/*
	 * A failure with an exit status (a controller that did not answer
	 * in time, "Socket timed out") is often transient: tried again,
	 * after 1 s, 2 s, ...  A program that cannot run, or that ran out
	 * of its time, is not.
	 */
	if (mg_proc_run_tries(argv, s->timeout, s->tries, final, &p, &k,
	    &d) != 0) {
		snprintf(note, cap, "%s", d.msg);
		return NULL;
	}
	if (p.status != 0) {
		if (p.timedout)
			snprintf(note, cap, "%s timed out (killed after %d s): "
			    "%.200s", argv[0], s->timeout, *p.err ? p.err :
			    "no message");
		else
			snprintf(note, cap, "%s failed (exit %d, %d %s): "
			    "%.200s", argv[0], p.status, k, k > 1 ? "tries" :
			    "try", *p.err ? p.err : "no message");
		mg_proc_release(&p);
		return NULL;
	}
	out = p.out;
	*len = p.outlen;
	p.out = NULL;
	mg_proc_release(&p);
	return out;
}

int
mg_slurm_update(const struct mg_slurm *s, const char *id, const char *what,
    char *note, size_t cap)
{
	char job[64];
	const char *argv[] = { s->scontrol, "update", job, what, NULL };
	size_t len = 0;
	char *out;

	snprintf(job, sizeof(job), "JobId=%s", id);
	if ((out = mg_slurm_run(s, argv, &len, note, cap)) == NULL)
		return -1;
	free(out);
	return 0;
}

/* mg_slurm_read: the jobs argv's output lists, into l (what names the
 * output in messages); 0, or -1 with note set */
static int
mg_slurm_read(const struct mg_slurm *s, struct mg_live *l,
    const char *const argv[], const char *what, char *note, size_t cap)
{
	struct mg_diag d = { "" };
	size_t len = 0;
	char *out = mg_slurm_run(s, argv, &len, note, cap);
	int rv;

	if (out == NULL)
		return -1;
	rv = mg_live_read_mem(l, out, len, what, NULL, &d);
	free(out);
	if (rv != 0) {
		snprintf(note, cap, "%s", d.msg);
		return -1;
	}
	return 0;
}

int
mg_slurm_queue(const struct mg_slurm *s, struct mg_live *l, char *note,
    size_t cap)
{
	char part[256];
	const char *sq[] = { s->squeue, "-a", "-o", MG_SLURM_SQUEUE_FMT,
	    NULL, NULL };

	if (s->partition) {
		snprintf(part, sizeof(part), "--partition=%s", s->partition);
		sq[4] = part;
	}
	return mg_slurm_read(s, l, sq, "squeue", note, cap);
}

/* sacct's command for the jobs from since, of the partition */
#define SACCT(s, since, part) { (s)->sacct, "-a", "-X", "-P", "-S", since, \
	"-o", MG_SLURM_SACCT_FIELDS, (s)->partition ? part : NULL, NULL }

int
mg_slurm_jobs(const struct mg_slurm *s, struct mg_live *l, int64_t from,
    char *note, size_t cap)
{
	char since[32], part[256];
	const char *sa[] = SACCT(s, since, part);

	snprintf(part, sizeof(part), "--partition=%s", s->partition ?
	    s->partition : "");
	mg_slurm_time(from, s->tz, since, sizeof(since));
	return mg_slurm_read(s, l, sa, "sacct", note, cap);
}

int
mg_slurm_job(const struct mg_slurm *s, struct mg_live *l, const char *id,
    char *note, size_t cap)
{
	const char *sj[] = { s->sacct, "-a", "-X", "-P", "-j", id, "-o",
	    MG_SLURM_SACCT_FIELDS, NULL };

	return mg_slurm_read(s, l, sj, "sacct", note, cap);
}

int
mg_slurm_undelivered(const char *why)
{
	/*
	 * Slurm's words (src/common/slurm_errno.c, 22.05 to 24.x) for a
	 * request the controller never acted on: no connection was made,
	 * a backup in standby, a rate limit that refused it.  A send,
	 * receive or shutdown failure ("Unable to contact slurm
	 * controller (receive failure)"), a timeout on an open
	 * connection, may come after the controller acted: not these.
	 */
	static const char *const never[] = {
		"(connect failure)",			/* SLURMCTLD_..._CONNECTION_ERROR */
		"Communication connection failure",	/* SLURM_..._CONNECTION_ERROR */
		"Connection timed out establishing",	/* ..._CONNECT_TIMEOUT */
		"in standby mode",			/* ESLURM_IN_STANDBY_MODE */
		"Rate limit exceeded",			/* ..._BACKOFF, ..._HARD_DROP */
		NULL
	};
	size_t k;

	for (k = 0; never[k] != NULL; k++)
		if (strstr(why, never[k]) != NULL)
			return 1;
	return 0;
}

int
mg_slurm_one(const struct mg_slurm *s, struct mg_live *l, const char *id,
    char *note, size_t cap)
{
	const char *sq[] = { s->squeue, "-a", "-j", id, "-o",
	    MG_SLURM_SQUEUE_FMT, NULL };
	struct mg_diag d = { "" };
	size_t len = 0;
	char *out;
	int rv;

	/* "Invalid job id" is the controller's answer, not a failure */
	if ((out = mg_slurm_ask(s, sq, "Invalid job id", &len, note,
	    cap)) == NULL)
		return -1;
	rv = mg_live_read_mem(l, out, len, "squeue", NULL, &d);
	free(out);
	if (rv != 0) {
		snprintf(note, cap, "%s", d.msg);
		return -1;
	}
	return 0;
}

int
mg_slurm_history(const struct mg_slurm *s, const char *cache, int keep,
    int64_t now, int64_t window, int64_t overlap, struct mg_live *l,
    char *note, size_t ncap)
{
	struct mg_diag d = { "" };
	struct mg_hcache old, c;
	char at[32], since[32], part[256];
	const char *sa[] = SACCT(s, since, part);
	int64_t win = now - window, from;
	size_t len = 0;
	char *out;
	int have = 0, rv;

	memset(&old, 0, sizeof(old));
	memset(&c, 0, sizeof(c));
	if ((have = mg_hcache_read(cache, &old, &d)) < 0) {
		say(s, 0, "%s: the history cache is rebuilt", d.msg);
		have = 0;
	}
	if (have && (old.from > win + overlap || old.to < win ||
	    old.to > now)) {
		mg_hcache_release(&old);
		have = 0;
	}
	from = have ? old.to - overlap : win;
	snprintf(part, sizeof(part), "--partition=%s", s->partition ?
	    s->partition : "");
	mg_slurm_time(from, s->tz, since, sizeof(since));
	if ((out = mg_slurm_run(s, sa, &len, note, ncap)) == NULL) {
		if (!have)
			return -1;
		/* sacct down: what the cache holds is still the window */
		mg_slurm_time(old.to, s->tz, at, sizeof(at));
		say(s, 1, "no new history (%s): the history cached up to %s "
		    "is used", note, at);
		rv = mg_live_read_mem(l, old.text, old.len, cache, NULL, &d);
		mg_hcache_release(&old);
		if (rv != 0)
			snprintf(note, ncap, "%s", d.msg);
		return rv != 0 ? -1 : 0;
	}
	if ((rv = mg_hcache_merge(have ? &old : NULL, out, len, win, s->tz,
	    &c, &d)) != 0) {
		/* sacct's own answer, without the cache */
		rv = mg_live_read_mem(l, out, len, "sacct", NULL, &d);
	} else {
		c.from = have && old.from > win ? old.from : win;
		c.to = now;
		rv = mg_live_read_mem(l, c.text, c.len, "sacct", NULL, &d);
		if (rv == 0 && !keep && mg_hcache_write(cache, &c, &d) != 0)
			say(s, 0, "%s: the history is not cached", d.msg);
	}
	free(out);
	mg_hcache_release(&old);
	mg_hcache_release(&c);
	if (rv != 0) {
		snprintf(note, ncap, "%s", d.msg);
		return -1;
	}
	return 0;
}

int32_t
mg_slurm_nodes(const struct mg_slurm *s, char *note, size_t cap)
{
	const char *si[] = { s->sinfo, "-h", "-o", "%D", NULL, NULL };
	char part[256], *out, *q;
	size_t len = 0;
	int32_t nodes = 0;

	if (s->partition) {
		snprintf(part, sizeof(part), "-p%s", s->partition);
		si[4] = part;
	}
	if ((out = mg_slurm_run(s, si, &len, note, cap)) == NULL)
		return 0;
	/* one count a line (a line a node state) */
	for (q = out; *q >= '0' && *q <= '9'; ) {
		nodes += (int32_t)strtol(q, &q, 10);
		while (*q == '\n' || *q == ' ')
			q++;
	}
	free(out);
	return nodes;
}

/* the line of out[] that holds token (its first field in id), and
 * whether one starts with job p (the chain's current job) */
static void
scan_token(char *out, char sep, const char *token, const char *p,
    char *id, size_t cap, int *has_p, char *p_state, size_t scap)
{
	char *line, *next;
	size_t np = strlen(p);

	for (line = out; line && *line; line = next) {
		char *sp;

		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if ((sp = strchr(line, sep)) == NULL)
			continue;
		if ((size_t)(sp - line) == np && strncmp(line, p, np) == 0) {
			*has_p = 1;
			if (p_state != NULL) {
				size_t k = strcspn(sp + 1, "|");

				snprintf(p_state, scap, "%.*s", (int)k, sp + 1);
			}
		}
		if (*id == '\0' && strstr(sp + 1, token)) {
			*sp = '\0';
			snprintf(id, cap, "%s", line);
		}
	}
}

/* does the controller show job p ended (a final state, or "Invalid job
 * id": it holds every job that has not ended)? */
static int
controller_ended(const struct mg_slurm *s, const char *p)
{
	const char *sq[] = { s->squeue, "-h", "-j", p, "-o", "%T", NULL };
	char why[512] = "", *out;
	size_t len = 0;
	int ended;

	if ((out = mg_slurm_ask(s, sq, "Invalid job id", &len, why,
	    sizeof(why))) == NULL)
		return strstr(why, "Invalid job id") != NULL;
	out[strcspn(out, " \n")] = '\0';
	ended = *out && strcmp(out, "PENDING") != 0 && strcmp(out,
	    "RUNNING") != 0 && strcmp(out, "COMPLETING") != 0 &&
	    strcmp(out, "CONFIGURING") != 0 && strcmp(out, "SUSPENDED") != 0 &&
	    strncmp(out, "REQUEUE", 7) != 0;
	free(out);
	return ended;
}

/* a submission not in any dump is lost only after this long, unless
 * sacct shows a job submitted after it */
#define SETTLE_LOST	(6 * 3600)

/* does out ("id|state|comment|submit[|line]" rows) hold a job submitted
 * at or after since? */
static int
recorded_after(const char *out, int64_t since, enum mg_tz tz)
{
	const char *line, *f;
	int64_t t;
	int k;
	size_t n;

	for (line = out; *line; line += strcspn(line, "\n") + (line[strcspn(
	    line, "\n")] != '\0')) {
		for (f = line, k = 0; k < 3 && (f = strchr(f, '|')) != NULL;
		    k++)
			f++;
		if (f == NULL || k < 3)
			continue;
		n = strcspn(f, "|\n");
		if (mg_parse_time(f, n, tz, &t) == 0 && t >= since)
			return 1;
	}
	return 0;
}

int
mg_slurm_settle(const struct mg_slurm *s, const char *token, int64_t since,
    int64_t now, const char *p, char *id, size_t cap, char *note, size_t ncap)
{
	char from[32], pst[32] = "";
	int later;
	const char *sq[] = { s->squeue, "-a", "-h", "-o", "%i %k", NULL };
	/* slurmdbd records the submission line at once, the comment only
	 * when the job starts (and only with job_comment); a Slurm before
	 * 22.05 has no SubmitLine */
	const char *sa[] = { s->sacct, "-a", "-X", "-n", "-P", "-S", from,
	    "-o", "JobIDRaw,State,Comment,Submit,SubmitLine", NULL };
	size_t len = 0;
	char *out;
	int q_has_p = 0, a_has_p = 0, q_empty, no_line = 0;

	*id = '\0';
	if ((out = mg_slurm_run(s, sq, &len, note, ncap)) == NULL)
		return -1;
	q_empty = strspn(out, " \n") == len;
	scan_token(out, ' ', token, p, id, cap, &q_has_p, NULL, 0);
	free(out);
	if (*id)
		return 1;
	mg_slurm_time(since - 600, s->tz, from, sizeof(from));
	if ((out = mg_slurm_run(s, sa, &len, note, ncap)) == NULL &&
	    strstr(note, "SubmitLine") != NULL) {
		sa[8] = "JobIDRaw,State,Comment,Submit";
		out = mg_slurm_run(s, sa, &len, note, ncap);
		no_line = 1;
	}
	if (out == NULL)
		return -1;
	later = recorded_after(out, since, s->tz);
	scan_token(out, '|', token, p, id, cap, &a_has_p, pst, sizeof(pst));
	free(out);
	if (*id)
		return 1;
	if (!q_has_p && (!a_has_p || strcmp(pst, "RUNNING") == 0 ||
	    strcmp(pst, "PENDING") == 0 || *pst == '\0') &&
	    !controller_ended(s, p)) {
		snprintf(note, ncap, "squeue answers a queue without job %s, "
		    "which neither sacct nor the controller shows ended", p);
		return -1;
	}
	/*
	 * An empty queue may be a controller's answer in trouble, and
	 * sacct may not show a pending job's token (no SubmitLine before
	 * Slurm 22.05; a slurmdbd that lags): the submission is taken for
	 * lost only when sacct shows submission lines and has recorded a
	 * job submitted after it, or after SETTLE_LOST seconds.
	 */
	if (q_empty && (no_line || (!later && now - since < SETTLE_LOST))) {
		snprintf(note, ncap, "squeue answers an empty queue, and sacct "
		    "%s", no_line ? "shows no submission lines (Slurm before "
		    "22.05)" : "has recorded no job submitted after it yet "
		    "(slurmdbd may lag)");
		return -1;
	}
	return 0;
}

/* the partition's nodes as one hostlist ("Nodes=a[1-4],b2"), or NULL
 * with note set */
static char *
partition_nodes(const struct mg_slurm *s, char *note, size_t cap)
{
	const char *si[] = { s->sinfo, "-h", "-o", "%N", NULL, NULL };
	char part[256], *out, *q, *list;
	size_t n = 0;

	snprintf(part, sizeof(part), "-p%s", s->partition);
	si[4] = part;
	if ((out = mg_slurm_run(s, si, &n, note, cap)) == NULL)
		return NULL;
	for (q = out; *q; q++)
		if (*q == '\n' || *q == ' ')
			*q = ',';
	while (q > out && q[-1] == ',')
		*--q = '\0';
	if (*out == '\0') {
		snprintf(note, cap, "sinfo lists no node in partition '%s'",
		    s->partition);
		free(out);
		return NULL;
	}
	if ((list = malloc(strlen(out) + 7)) != NULL)
		sprintf(list, "Nodes=%s", out);
	else
		snprintf(note, cap, "out of memory");
	free(out);
	return list;
}

int
mg_slurm_capacity(const struct mg_slurm *s, int32_t nodes, int64_t from,
    int64_t to, struct mg_capacity *c, char *note, size_t cap)
{
	struct mg_diag d = { "" };
	char since[32], end[32], ss[48], es[48], *buf, *nodelist = NULL;
	const char *ev[] = { s->sacctmgr, "-n", "-P", "show", "event",
	    "Event=Node", ss, es, "format=NodeName,TimeStart,TimeEnd,State",
	    NULL, NULL };
	size_t len = 0;
	int rv;

	memset(c, 0, sizeof(*c));
	mg_slurm_time(from, s->tz, since, sizeof(since));
	mg_slurm_time(to, s->tz, end, sizeof(end));
	snprintf(ss, sizeof(ss), "Start=%s", since);
	snprintf(es, sizeof(es), "End=%s", end);
	if (s->partition != NULL) {
		/* the partition's nodes, as hostlists */
		if ((nodelist = partition_nodes(s, note, cap)) == NULL)
			return -1;
		ev[9] = nodelist;
	}
	if ((buf = mg_slurm_run(s, ev, &len, note, cap)) == NULL) {
		free(nodelist);
		return -1;
	}
	rv = mg_events_parse(buf, len, s->sacctmgr, s->tz, nodes,
	    nodelist ? nodelist + 6 : NULL, from, to, c, &d);
	free(buf);
	free(nodelist);
	if (rv == MG_ENOMEM)
		return rv;
	if (rv != 0) {
		snprintf(note, cap, "%s", d.msg);
		return -1;
	}
	return 0;
}

int
mg_slurm_submit(const struct mg_slurm *s, const struct mg_sbatch *b,
    char *id, size_t icap, char *note, size_t ncap)
{
	struct mg_diag d = { "" };
	struct mg_proc p;
	char comment[64], dep[64], begin[48], nice[40], script[4096];
	char pred[64], state[4200], bin[4200], cwd[2048] = "";
	char wdir[1100];
	const char *env[4] = { pred, NULL, NULL, NULL };
	const char **argv;
	const char *st = b->state;
	int n = 0, i, rv, ne = 1;
	int64_t job;
	size_t k;

	snprintf(comment, sizeof(comment), "--comment=mirage-advise:%s",
	    b->token);
	snprintf(dep, sizeof(dep), "--dependency=afterany:%s", b->after);
	memcpy(begin, "--begin=", 9);
	mg_slurm_when(b->begin, begin + 8, sizeof(begin) - 8);
	snprintf(nice, sizeof(nice), "--nice=%lld", (long long)b->nice);
	if ((argv = calloc((size_t)b->nargs + 12, sizeof(*argv))) == NULL) {
		snprintf(note, ncap, "out of memory");
		return MG_ENOMEM;
	}
	argv[n++] = s->sbatch;
	argv[n++] = "--parsable";
	argv[n++] = comment;
	/*
	 * S's take-over finds P and the chain's state in its environment,
	 * and its batch script the tools that submitted it (a copy not
	 * installed, a PATH of Slurm's or cron's that lacks them): set in
	 * sbatch's environment and exported whole (--export=ALL, which a
	 * script's #SBATCH --export does not override), so that a path
	 * with a comma reaches it whole too.
	 */
	snprintf(pred, sizeof(pred), "MIRAGE_PREDECESSOR=%s", b->after);
	if (st != NULL && *st != '/' && getcwd(cwd, sizeof(cwd)) == NULL)
		*cwd = '\0';
	if (st != NULL && (*st == '/' || *cwd)) {
		snprintf(state, sizeof(state), "MIRAGE_CHAIN_STATE=%s%s%s",
		    *st == '/' ? "" : cwd, *st == '/' ? "" : "/", st);
		env[ne++] = state;
	}
	if (s->bin != NULL) {
		snprintf(bin, sizeof(bin), "MIRAGE_BIN=%s", s->bin);
		env[ne++] = bin;
	}
	argv[n++] = "--export=ALL";
	if (b->dependency)
		argv[n++] = dep;
	if (b->begin > 0)
		argv[n++] = begin;
	if (b->nice > 0)
		argv[n++] = nice;
	if (b->workdir != NULL) {
		snprintf(wdir, sizeof(wdir), "--chdir=%s", b->workdir);
		argv[n++] = wdir;
	}
	/* a script named like an option reaches sbatch as a path */
	snprintf(script, sizeof(script), "%s%s", *b->script == '-' ? "./" :
	    "", b->script);
	argv[n++] = script;
	for (i = 0; i < b->nargs; i++)
		argv[n++] = b->args[i];
	rv = mg_proc_runf(argv, env, s->timeout, 0, &p, &d);
	free((void *)argv);
	if (rv != 0 || p.status != 0) {
		/*
		 * sbatch failed, was killed or timed out.  Even a failure
		 * with a message may have queued the job ("Socket timed out
		 * on send/recv").
		 */
		int killed = rv == 0 && (p.timedout || p.status > 128);

		snprintf(note, ncap, "sbatch of '%s' %s: %s", b->script, rv ?
		    "could not run" : killed ? "was killed" : "failed", rv ?
		    d.msg : *p.err ? p.err : "no message");
		if (rv == 0)
			mg_proc_release(&p);
		return MG_EIO;
	}
	k = strcspn(p.out, ";\n");
	if (mg_parse_i64(p.out, k, 1, INT64_MAX, &job) != 0) {
		snprintf(note, ncap, "sbatch printed '%.40s', not a job id",
		    p.out);
		mg_proc_release(&p);
		return MG_EFORMAT;
	}
	snprintf(id, icap, "%lld", (long long)job);
	mg_proc_release(&p);
	return MG_OK;
}

int
mg_slurm_script_request(const char *path, int32_t *nodes, int64_t *limit,
    int *setsdir)
{
	FILE *fp = fopen(path, "r");
	char line[1024];
	int first = 1;

	if (fp == NULL)
		return MG_EIO;
	*setsdir = 0;
	while (fgets(line, sizeof(line), fp)) {
		char *p = line, *v = NULL, *e;
		int isn = 0, ist = 0;

		if (first && strncmp(line, "#!", 2) == 0) {
			first = 0;
			continue;
		}
		first = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' || *p == '\0')
			continue;
		if (*p != '#')
			break;		/* sbatch stops at the first command */
		if (strncmp(p, "#SBATCH", 7) != 0)
			continue;
		p += 7;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "--nodes", 7) == 0 && (p[7] == '=' ||
		    p[7] == ' '))
			isn = 1, v = p + 8;
		else if (strncmp(p, "-N", 2) == 0)
			isn = 1, v = p + 2;
		else if (strncmp(p, "--time", 6) == 0 && (p[6] == '=' ||
		    p[6] == ' '))
			ist = 1, v = p + 7;
		else if (strncmp(p, "-t", 2) == 0)
			ist = 1, v = p + 2;
		if (strncmp(p, "-D", 2) == 0 || (strncmp(p, "--chdir", 7) == 0
		    && (p[7] == '=' || p[7] == ' ' || p[7] == '\t')))
			*setsdir = 1;
		if (v == NULL)
			continue;
		while (*v == ' ' || *v == '\t' || *v == '=')
			v++;
		for (e = v; *e && *e != ' ' && *e != '\t' && *e != '\n' &&
		    *e != '#'; e++)
			;
		if (isn && *nodes == 0) {
			int64_t n;
			const char *dash = memchr(v, '-', (size_t)(e - v));

			if (mg_parse_i64(v, (size_t)((dash ? dash : e) - v), 1,
			    1000000, &n) == 0)
				*nodes = (int32_t)n;
		}
		if (ist && *limit == 0) {
			int64_t t;

			if (mg_parse_duration(v, (size_t)(e - v), &t) == 0 &&
			    t > 0)
				*limit = t;
		}
	}
	fclose(fp);
	return MG_OK;
}
