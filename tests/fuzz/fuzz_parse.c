/*
 * fuzz_parse.c: libFuzzer target for the text input path: libarchive
 * unwrapping, layout detection, sacct/LS6/SWF/JSON rows, job records.
 */
#include <stddef.h>
#include <stdint.h>

#include "mirage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
job(void *ctx, const struct mg_value *v, uint64_t line)
{
	size_t *n = ctx;
	int i;

	(void)line;
	/* touch every string so ASan sees a bad slice */
	for (i = 0; i < MG_JOB_NFIELDS; i++)
		if (!v[i].null && mg_job_schema()->fields[i].type == MG_T_STR &&
		    v[i].len)
			*n += (unsigned char)v[i].s[0] + (unsigned char)
			    v[i].s[v[i].len - 1];
	return 0;
}

static int
warn(void *ctx, uint64_t line, int bad, const char *msg)
{
	(void)ctx;
	(void)line;
	(void)bad;
	(void)msg;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mg_sacct_opts o;
	struct mg_slurmfmt_sink s = { 0 };
	struct mg_input *in;
	struct mg_diag d;
	const char *name;
	size_t n = 0;

	mg_sacct_opts_init(&o);
	s.ctx = &n;
	s.job = job;
	s.warn = warn;
	if (mg_input_open_mem(data, size, "fuzz", &in, &d) != 0)
		return 0;
	while (mg_input_next_entry(in, &name, &d) == 1)
		if (mg_sacct_parse(in, &o, &s, &d) != 0)
			break;
	mg_input_free(in);
	return 0;
}
