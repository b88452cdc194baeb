/* fuzz_stream.c: libFuzzer target for the record stream reader. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mirage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct mg_stream_info *si;
	const struct mg_value *v;
	struct mg_reader *r;
	struct mg_diag d;
	size_t i, sum = 0;
	FILE *fp;

	if (size == 0)
		return 0;
	if ((fp = fmemopen((void *)(uintptr_t)data, size, "rb")) == NULL)
		return 0;
	if (mg_reader_open(fp, "fuzz", NULL, &r, &d) == 0) {
		si = mg_reader_info(r);
		while (mg_reader_next(r, &v, &d) == 1)
			for (i = 0; i < si->schema.nfields; i++)
				if (!v[i].null && si->schema.fields[i].type ==
				    MG_T_STR && v[i].len)
					sum += (unsigned char)v[i].s[v[i].len -
					    1];
		mg_reader_free(r);
	}
	fclose(fp);
	return (int)(sum & 0);
}
