/*
 * parse.h: strict parsing of numbers, times and durations from byte
 * slices (not NUL-terminated), as they appear in sacct dumps and on the
 * command line.  Nothing here uses atoi, sscanf or the locale.
 */
#ifndef MG_PARSE_H
#define MG_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* How wall-clock times without a zone are turned into epoch seconds. */
enum mg_tz {
	MG_TZ_UTC = 0,		/* as if UTC: no DST jumps (the default) */
	MG_TZ_LOCAL = 1		/* the process's local zone (TZ), via mktime */
};

/* Results of the time and duration parsers besides 0 (a value). */
#define MG_DAY		86400	/* seconds */

#define MG_PARSE_MISSING 1	/* Unknown, None, empty: no value */
#define MG_PARSE_BAD	(-1)	/* not a valid value */

/*
 * mg_parse_i64: a decimal integer with optional sign in s[0..n), no
 * spaces, no trailing junk, within [min, max].  Returns 0 or -1.
 */
int mg_parse_i64(const char *s, size_t n, int64_t min, int64_t max,
    int64_t *out);

/* mg_parse_f64: a decimal floating-point number (no hexadecimal, no
 * NaN); 0 or -1. */
int mg_parse_f64(const char *s, size_t n, double *out);

/*
 * mg_parse_time: "YYYY-MM-DDTHH:MM:SS" (a space may stand for the T) or
 * epoch seconds (SLURM_TIME_FORMAT=%s).  "Unknown", "None", "NONE", "INVALID" and
 * "" give MG_PARSE_MISSING.  Returns 0, MG_PARSE_MISSING or MG_PARSE_BAD.
 */
int mg_parse_time(const char *s, size_t n, enum mg_tz tz, int64_t *out);

/*
 * mg_parse_duration: sacct's Timelimit: "[D-]HH:MM:SS", "MM:SS", "MM",
 * "D-HH", "D-HH:MM" into seconds.  "UNLIMITED" gives -1; "Partition_Limit"
 * and "" give MG_PARSE_MISSING.  Returns 0, MG_PARSE_MISSING or
 * MG_PARSE_BAD.
 */
int mg_parse_duration(const char *s, size_t n, int64_t *out);

/*
 * mg_parse_limit_minutes: TimelimitRaw, minutes into seconds, with the
 * same special values as mg_parse_duration().
 */
int mg_parse_limit_minutes(const char *s, size_t n, int64_t *out);

/*
 * mg_parse_span: a length of time for a command-line option: a number
 * with a unit s, m, h or d ("90s", "10m", "4h", "5d"), or sacct's
 * "[D-]HH:MM:SS" forms; into seconds.  Returns 0 or MG_PARSE_BAD.
 */
int mg_parse_span(const char *s, int64_t *out);

/* mg_parse_share: a share strictly between 0 and 1, as a percentage
 * ("99%") or a fraction ("0.99").  Returns 0 or MG_PARSE_BAD. */
int mg_parse_share(const char *s, double *out);

/*
 * mg_parse_date: "YYYY-MM-DD" (midnight) or anything mg_parse_time()
 * takes (also epoch seconds), for a command-line option.  Returns 0 or
 * MG_PARSE_BAD.
 */
int mg_parse_date(const char *s, enum mg_tz tz, int64_t *out);

/*
 * mg_tz_use: read wall-clock times in zone from now on: "UTC" (*tz =
 * MG_TZ_UTC), "local" (the process's TZ, or the system's zone), or a
 * name the system's tz database holds ("America/Chicago", sets TZ for
 * the process).  A name it does not hold (glibc would silently take UTC)
 * gives MG_PARSE_BAD and changes nothing.  Returns 0 or MG_PARSE_BAD.
 */
int mg_tz_use(const char *zone, enum mg_tz *tz);

/*
 * mg_tz_name: the name of the zone times are read in: "UTC", the TZ
 * variable's zone, the system's (/etc/localtime's name in the tz
 * database), or "localtime" if none can be told.  buf >= 64.
 */
void mg_tz_name(enum mg_tz tz, char *buf, size_t cap);

/* mg_format_time: epoch seconds as "YYYY-MM-DDTHH:MM:SS" (UTC); buf >= 32. */
void mg_format_time(int64_t t, char *buf, size_t cap);

/* mg_month_of: year * 12 + month (0-based) of epoch seconds t, UTC */
int mg_month_of(int64_t t);

#endif /* MG_PARSE_H */
