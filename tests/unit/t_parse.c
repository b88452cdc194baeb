/* t_parse.c: numbers, times, durations, JobIDs and TRES strings. */
#include <stdlib.h>
#include <string.h>

#include "mirage.h"
#include "tap.h"

static int
t(const char *s, int64_t *v)
{
	return mg_parse_time(s, strlen(s), MG_TZ_UTC, v);
}

static int
dur(const char *s, int64_t *v)
{
	return mg_parse_duration(s, strlen(s), v);
}

int
main(void)
{
	int64_t v = 0, b, task, het;
	char buf[32];
	int step, r;

	ok(mg_parse_i64("-42", 3, -100, 100, &v) == 0 && v == -42, "i64 -42");
	ok(mg_parse_i64("9223372036854775807", 19, INT64_MIN, INT64_MAX, &v)
	    == 0 && v == INT64_MAX, "i64 max");
	ok(mg_parse_i64("9223372036854775808", 19, INT64_MIN, INT64_MAX, &v)
	    == -1, "i64 overflow rejected");
	ok(mg_parse_i64("-9223372036854775808", 20, INT64_MIN, INT64_MAX, &v)
	    == 0 && v == INT64_MIN, "i64 min");
	ok(mg_parse_i64("12x", 3, 0, 100, &v) == -1, "trailing junk rejected");
	ok(mg_parse_i64("", 0, 0, 100, &v) == -1, "empty rejected");
	ok(mg_parse_i64("-", 1, -10, 100, &v) == -1, "lone sign rejected");
	ok(mg_parse_i64("101", 3, 0, 100, &v) == -1, "range enforced");

	ok(t("1970-01-01T00:00:00", &v) == 0 && v == 0, "epoch start");
	ok(t("2022-11-01T15:34:14", &v) == 0 && v == 1667316854,
	    "LS6 time (checked with date -u)");
	ok(t("2024-02-29T23:59:59", &v) == 0 && v == 1709251199, "leap day");
	ok(t("2023-02-29T00:00:00", &v) == MG_PARSE_BAD, "no Feb 29 in 2023");
	ok(t("2022-13-01T00:00:00", &v) == MG_PARSE_BAD, "month 13");
	ok(t("2022-11-01 15:34:14", &v) == 0 && v == 1667316854,
	    "space for T");
	ok(t("1795325497", &v) == 0 && v == 1795325497, "epoch seconds");
	ok(t("Unknown", &v) == MG_PARSE_MISSING && t("None", &v) ==
	    MG_PARSE_MISSING && t("", &v) == MG_PARSE_MISSING,
	    "Unknown, None and empty are missing");
	ok(t("2022-11-01T15:34", &v) == MG_PARSE_BAD, "short time is bad");
	ok(t("yesterday", &v) == MG_PARSE_BAD, "words are bad");
	mg_format_time(1667316854, buf, sizeof(buf));
	ok(strcmp(buf, "2022-11-01T15:34:14") == 0, "format_time %s", buf);
	mg_format_time(-1, buf, sizeof(buf));
	ok(strcmp(buf, "1969-12-31T23:59:59") == 0, "format_time before 1970");

	ok(dur("2-00:00:00", &v) == 0 && v == 172800, "2-00:00:00");
	ok(dur("00:02:00", &v) == 0 && v == 120, "00:02:00");
	ok(dur("1-12", &v) == 0 && v == 129600, "D-HH");
	ok(dur("1-12:30", &v) == 0 && v == 131400, "D-HH:MM");
	ok(dur("90", &v) == 0 && v == 5400, "MM");
	ok(dur("5:30", &v) == 0 && v == 330, "MM:SS");
	ok(dur("UNLIMITED", &v) == 0 && v == -1, "UNLIMITED is -1");
	ok(dur("Partition_Limit", &v) == MG_PARSE_MISSING,
	    "Partition_Limit is missing");
	ok(dur("1:2:3:4", &v) == MG_PARSE_BAD, "four parts are bad");
	ok(dur("1-", &v) == MG_PARSE_BAD, "D- alone is bad");
	r = mg_parse_limit_minutes("2880", 4, &v);
	ok(r == 0 && v == 172800, "TimelimitRaw minutes");
	ok(mg_parse_limit_minutes("Partition+", 10, &v) == MG_PARSE_MISSING,
	    "fixed-width Partition+ is missing");

	ok(mg_slurmfmt_jobid("123", 3, &b, &task, &het, &step) == 0 && b == 123
	    && task == -1 && het == -1 && !step, "plain job");
	ok(mg_slurmfmt_jobid("28_4", 4, &b, &task, &het, &step) == 0 && b == 28
	    && task == 4, "array task");
	ok(mg_slurmfmt_jobid("28_[1-6%2]", 10, &b, &task, &het, &step) == 0 &&
	    task == -2, "pending array remainder");
	ok(mg_slurmfmt_jobid("30+1", 4, &b, &task, &het, &step) == 0 && b == 30
	    && het == 1, "het component");
	ok(mg_slurmfmt_jobid("30+1.batch", 10, &b, &task, &het, &step) == 0 &&
	    step, "het step");
	ok(mg_slurmfmt_jobid("1.extern", 8, &b, &task, &het, &step) == 0 && step,
	    "extern step");
	ok(mg_slurmfmt_jobid("abc", 3, &b, &task, &het, &step) == -1, "not a "
	    "JobID");
	ok(mg_slurmfmt_jobid("12_", 3, &b, &task, &het, &step) == -1, "12_ is "
	    "not a JobID");

	ok(mg_slurmfmt_gpus("billing=8,cpu=8,gres/gpu=2,node=1", 33, &v) == 0 &&
	    v == 2, "gres/gpu=2");
	ok(mg_slurmfmt_gpus("gres/gpu:a100=3,gres/gpu=3", 26, &v) == 0 && v == 3,
	    "typed and untyped counted once");
	ok(mg_slurmfmt_gpus("gres/gpu:a100=2,gres/gpu:v100=1", 31, &v) == 0 &&
	    v == 3, "typed only: summed");
	ok(mg_slurmfmt_gpus("billing=1,cpu=1,node=1", 22, &v) == 0 && v == 0,
	    "no GPU: 0");
	ok(mg_slurmfmt_gpus("", 0, &v) == MG_PARSE_MISSING, "empty: missing");
	/* fixed-width sacct cuts long fields with a "+": unknown, not 0 */
	ok(mg_slurmfmt_gpus("billing=8+", 10, &v) == MG_PARSE_MISSING,
	    "a cut field without the GPUs: missing");
	ok(mg_slurmfmt_gpus("billing=8,cpu=8,gres/gp+", 24, &v) ==
	    MG_PARSE_MISSING, "a cut gres/gpu entry: missing");
	ok(mg_slurmfmt_gpus("billing=8,gres/gpu=2,no+", 24, &v) == 0 && v == 2,
	    "the GPUs before the cut: known (2)");
	ok(mg_slurmfmt_gpus("gres/gpu=x", 10, &v) == MG_PARSE_BAD, "bad count");
	return tap_done();
}
