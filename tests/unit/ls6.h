/*
 * ls6.h: for the C unit tests: load a sacct dump (the bundled LS6 trace)
 * into a struct mg_trace through the parser and a stream, as the tools
 * do, and read a UTC time.
 */
#ifndef LS6_H
#define LS6_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mirage.h"
#include "io/trace.h"

static int
on_job(void *ctx, const struct mg_value *job, uint64_t line)
{
	(void)line;
	return mg_writer_put(ctx, job, NULL);
}

static int
on_warn(void *ctx, uint64_t line, int bad, const char *msg)
{
	(void)ctx;
	(void)line;
	(void)bad;
	(void)msg;
	return 0;
}

static int
load_trace(const char *path, struct mg_trace *t)
{
	struct mg_sacct_opts o;
	struct mg_slurmfmt_sink sink = { 0 };
	struct mg_writer *w;
	struct mg_reader *r;
	struct mg_input *in;
	const char *name;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int rv;

	mg_sacct_opts_init(&o);
	if (mg_writer_open(fp, mg_job_schema(), NULL, &w, NULL) != 0 ||
	    mg_input_open(path, &in, NULL) != 0)
		return -1;
	sink.ctx = w;
	sink.job = on_job;
	sink.warn = on_warn;
	while (mg_input_next_entry(in, &name, NULL) == 1)
		if (mg_sacct_parse(in, &o, &sink, NULL) != 0)
			return -1;
	mg_input_free(in);
	if (mg_writer_close(w, NULL) != 0)
		return -1;
	fclose(fp);
	fp = fmemopen(buf, len, "rb");
	if (mg_reader_open(fp, "mem", "jobs", &r, NULL) != 0)
		return -1;
	rv = mg_trace_load(r, t, NULL);
	mg_reader_free(r);
	fclose(fp);
	free(buf);
	return rv;
}

static int64_t
when(const char *s)
{
	int64_t t;

	if (mg_parse_time(s, strlen(s), MG_TZ_UTC, &t) != 0)
		abort();
	return t;
}

#endif /* LS6_H */
