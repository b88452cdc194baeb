/*
 * fuzz_model.c: libFuzzer target for the model file's container (magic,
 * version, lengths, header, checksum).  The input's last four bytes are
 * replaced by its CRC32, so that the fuzzer reaches the header's parser
 * behind the checksum (the checksum's own rejection is the unit test
 * t_model's).  The backends' loaders are the libraries' own and are not
 * fuzzed here: xgboost 1.7.4's crashes on crafted tree JSON (see
 * mirage-model(5), SECURITY).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "mirage.h"
#include "learn/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mg_model *m;
	struct mg_diag d;
	unsigned char *b;
	uLong c;
	FILE *fp;
	int i;

	if (size < 12 || (b = malloc(size)) == NULL)
		return 0;
	memcpy(b, data, size);
	c = crc32(crc32(0L, Z_NULL, 0), b, (uInt)(size - 4));
	for (i = 0; i < 4; i++)
		b[size - 4 + (size_t)i] = (unsigned char)(c >> (8 * i));
	if ((fp = fmemopen(b, size, "rb")) != NULL) {
		if (mg_model_read_container(fp, "fuzz", &m, &d) == 0)
			mg_model_free(m);
		fclose(fp);
	}
	free(b);
	return 0;
}
