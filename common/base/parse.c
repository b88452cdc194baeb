/* parse.c: strict number, time and duration parsing; see parse.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/parse.h"

int
mg_parse_i64(const char *s, size_t n, int64_t min, int64_t max, int64_t *out)
{
	uint64_t v = 0, lim;
	size_t i = 0;
	int neg = 0;

	if (n > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == n)
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		unsigned dgt = (unsigned char)s[i] - '0';

		if (dgt > 9 || v > (lim - dgt) / 10)
			return -1;
		v = v * 10 + dgt;
	}
	{
		int64_t x = neg ? (int64_t)(0 - v) : (int64_t)v;

		if (x < min || x > max)
			return -1;
		*out = x;
	}
	return 0;
}

int
mg_parse_f64(const char *s, size_t n, double *out)
{
	char buf[64], *end;
	double v;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	/* decimal only: strtod would read 0x10 as 16 */
	if (buf[0] == ' ' || buf[0] == '\t' || buf[0] == '\n' ||
	    strpbrk(buf, "xX") != NULL)
		return -1;
	errno = 0;
	v = strtod(buf, &end);
	if (*end != '\0' || errno == ERANGE || v != v)
		return -1;
	*out = v;
	return 0;
}

static int
is_word(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

static int
missing_word(const char *s, size_t n)
{
	return n == 0 || is_word(s, n, "Unknown") || is_word(s, n, "None") ||
	    is_word(s, n, "NONE") ||
	    is_word(s, n, "INVALID") || is_word(s, n, "N/A");
}

/* mg_days_from_civil: days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t
mg_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int
digits(const char *s, int n, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < n; i++) {
		unsigned dgt = (unsigned char)s[i] - '0';

		if (dgt > 9)
			return -1;
		v = v * 10 + dgt;
	}
	*out = v;
	return 0;
}

static const unsigned char mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31,
    30, 31, 30, 31 };

/*
 * The zone's generation (mg_tz_use()), and the local hours read, each
 * thread its own: a table by the hour's wall-clock number (its time as
 * if it were UTC, in hours), of that hour's start
 */
#define HOURS	4096
static unsigned tz_gen = 1;
static _Thread_local struct {
	unsigned gen;
	int64_t hour, base;
} hours[HOURS];

int
mg_parse_time(const char *s, size_t n, enum mg_tz tz, int64_t *out)
{
	unsigned Y, M, D, h, m, sec;
	struct tm tm;
	time_t t;

	if (missing_word(s, n))
		return MG_PARSE_MISSING;
	if (n != 19) {
		/* epoch seconds, as printed with SLURM_TIME_FORMAT=%s */
		if (n >= 1 && n <= 12 && s[0] != '-' && s[0] != '+' &&
		    mg_parse_i64(s, n, 0, INT64_MAX, out) == 0)
			return 0;
		return MG_PARSE_BAD;
	}
	if (s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') ||
	    s[13] != ':' || s[16] != ':' || digits(s, 4, &Y) ||
	    digits(s + 5, 2, &M) || digits(s + 8, 2, &D) ||
	    digits(s + 11, 2, &h) || digits(s + 14, 2, &m) ||
	    digits(s + 17, 2, &sec))
		return MG_PARSE_BAD;
	if (M < 1 || M > 12 || D < 1 || D > mdays[M - 1] || h > 23 ||
	    m > 59 || sec > 60 || (M == 2 && D == 29 &&
	    !(Y % 4 == 0 && (Y % 100 != 0 || Y % 400 == 0))))
		return MG_PARSE_BAD;
	if (tz == MG_TZ_UTC) {
		*out = mg_days_from_civil(Y, M, D) * 86400 + h * 3600 +
		    m * 60 + sec;
		return 0;
	}
	/*
	 * mktime() looks the zone up again on every call (a stat of its
	 * file): a local hour's start is kept, and a time within it is an
	 * offset from it (zones change their offset on the hour)
	 */
	{
		int64_t hour = mg_days_from_civil(Y, M, D) * 24 + h;
		size_t k = (size_t)((uint64_t)hour % HOURS);

		if (hours[k].gen != tz_gen || hours[k].hour != hour) {
			memset(&tm, 0, sizeof(tm));
			tm.tm_year = (int)Y - 1900;
			tm.tm_mon = (int)M - 1;
			tm.tm_mday = (int)D;
			tm.tm_hour = (int)h;
			tm.tm_isdst = -1;
			if ((t = mktime(&tm)) == (time_t)-1)
				return MG_PARSE_BAD;
			hours[k].gen = tz_gen;
			hours[k].hour = hour;
			hours[k].base = (int64_t)t;
		}
		*out = hours[k].base + m * 60 + sec;
	}
	return 0;
}

static int
limit_word(const char *s, size_t n, int64_t *out)
{
	if (is_word(s, n, "UNLIMITED") || is_word(s, n, "INFINITE")) {
		*out = -1;
		return 0;
	}
	/* "Partition+" is Partition_Limit cut by a fixed-width column */
	if (n == 0 || is_word(s, n, "Partition_Limit") ||
	    is_word(s, n, "Partition+") ||
	    is_word(s, n, "Unknown") || is_word(s, n, "None"))
		return MG_PARSE_MISSING;
	return MG_PARSE_BAD;
}

int
mg_parse_duration(const char *s, size_t n, int64_t *out)
{
	int64_t part[4], days = 0;
	const char *dash, *p, *end = s + n;
	int np = 0, rv;

	if ((rv = limit_word(s, n, out)) != MG_PARSE_BAD)
		return rv;
	if ((dash = memchr(s, '-', n)) != NULL) {
		if (mg_parse_i64(s, (size_t)(dash - s), 0, 1000000, &days) != 0)
			return MG_PARSE_BAD;
		s = dash + 1;
	}
	for (p = s; np < 4; np++) {
		const char *c = memchr(p, ':', (size_t)(end - p));
		const char *e = c ? c : end;

		if (mg_parse_i64(p, (size_t)(e - p), 0, 1000000000, &part[np]))
			return MG_PARSE_BAD;
		if (c == NULL) {
			np++;
			break;
		}
		p = c + 1;
	}
	if (p < end && memchr(p, ':', (size_t)(end - p)) != NULL)
		return MG_PARSE_BAD;
	if (dash) {
		/* D-HH, D-HH:MM, D-HH:MM:SS */
		if (np > 3)
			return MG_PARSE_BAD;
		*out = days * 86400 + part[0] * 3600 +
		    (np > 1 ? part[1] * 60 : 0) + (np > 2 ? part[2] : 0);
		return 0;
	}
	switch (np) {
	case 1:		/* MM */
		*out = part[0] * 60;
		return 0;
	case 2:		/* MM:SS */
		*out = part[0] * 60 + part[1];
		return 0;
	case 3:		/* HH:MM:SS */
		*out = part[0] * 3600 + part[1] * 60 + part[2];
		return 0;
	}
	return MG_PARSE_BAD;
}

int
mg_parse_limit_minutes(const char *s, size_t n, int64_t *out)
{
	int64_t v;
	int rv;

	if ((rv = limit_word(s, n, out)) != MG_PARSE_BAD)
		return rv;
	if (mg_parse_i64(s, n, 0, INT64_MAX / 60, &v) != 0)
		return MG_PARSE_BAD;
	*out = v * 60;
	return 0;
}

void
mg_format_time(int64_t t, char *buf, size_t cap)
{
	int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
	int64_t secs = t - days * 86400, z, era, doe, yoe, y, doy, mp;
	unsigned d, m;

	/* civil_from_days, the inverse of mg_days_from_civil */
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
	m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	y += m <= 2;
	snprintf(buf, cap, "%04lld-%02u-%02uT%02d:%02d:%02d", (long long)y, m,
	    d, (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
}

int
mg_parse_share(const char *s, double *out)
{
	size_t n = strlen(s);
	int pct = n > 1 && s[n - 1] == '%';
	double v;

	if (mg_parse_f64(s, n - (size_t)pct, &v) != 0)
		return MG_PARSE_BAD;
	if (pct)
		v /= 100;
	if (!(v > 0 && v < 1))
		return MG_PARSE_BAD;
	*out = v;
	return 0;
}

int
mg_parse_span(const char *s, int64_t *out)
{
	static const struct {
		char unit;
		int64_t sec;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	size_t n = strlen(s), k;
	int64_t v;

	for (k = 0; n > 1 && k < sizeof(units) / sizeof(units[0]); k++)
		if (s[n - 1] == units[k].unit) {
			if (mg_parse_i64(s, n - 1, 0, INT64_MAX / 86400, &v) != 0)
				return MG_PARSE_BAD;
			*out = v * units[k].sec;
			return 0;
		}
	if (mg_parse_duration(s, n, &v) != 0 || v < 0)
		return MG_PARSE_BAD;
	*out = v;
	return 0;
}

int
mg_parse_date(const char *s, enum mg_tz tz, int64_t *out)
{
	char buf[32];
	size_t n = strlen(s);

	/* a date alone is its midnight; ten digits are epoch seconds */
	if (n == 10 && s[4] == '-' && s[7] == '-') {
		snprintf(buf, sizeof(buf), "%sT00:00:00", s);
		s = buf;
		n = strlen(buf);
	}
	return mg_parse_time(s, n, tz, out) == 0 ? 0 : MG_PARSE_BAD;
}

/* a zone name the tz database holds: a TZif file under TZDIR */
static int
tz_known(const char *zone)
{
	const char *dir = getenv("TZDIR");
	char path[4096], magic[4];
	FILE *fp;
	size_t got;

	if (*zone == '\0' || *zone == '/' || strstr(zone, "..") != NULL)
		return 0;
	if (snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir :
	    "/usr/share/zoneinfo", zone) >= (int)sizeof(path))
		return 0;
	if ((fp = fopen(path, "rb")) == NULL)
		return 0;
	got = fread(magic, 1, sizeof(magic), fp);
	fclose(fp);
	return got == sizeof(magic) && memcmp(magic, "TZif", 4) == 0;
}

void
mg_tz_name(enum mg_tz tz, char *buf, size_t cap)
{
	const char *e = getenv("TZ"), *z;
	char link[4096];
	ssize_t n;

	if (tz == MG_TZ_UTC) {
		snprintf(buf, cap, "UTC");
		return;
	}
	if (e != NULL && *e != '\0') {
		snprintf(buf, cap, "%s", *e == ':' ? e + 1 : e);
		return;
	}
	n = readlink("/etc/localtime", link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		if ((z = strstr(link, "zoneinfo/")) != NULL) {
			snprintf(buf, cap, "%s", z + 9);
			return;
		}
	}
	snprintf(buf, cap, "localtime");
}

int
mg_tz_use(const char *zone, enum mg_tz *tz)
{
	tz_gen++;	/* the hours kept by mg_parse_time() are another zone's */
	if (strcmp(zone, "UTC") == 0) {
		*tz = MG_TZ_UTC;
		return 0;
	}
	if (strcmp(zone, "local") == 0) {
		tzset();
		*tz = MG_TZ_LOCAL;
		return 0;
	}
	if (*zone == ':')
		zone++;
	if (!tz_known(zone))
		return MG_PARSE_BAD;
	if (setenv("TZ", zone, 1) != 0)
		return MG_PARSE_BAD;
	tzset();
	*tz = MG_TZ_LOCAL;
	return 0;
}

int
mg_month_of(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	return (tm.tm_year + 1900) * 12 + tm.tm_mon;
}
