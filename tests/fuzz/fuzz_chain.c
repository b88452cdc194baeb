/*
 * fuzz_chain.c: libFuzzer target for mirage-advise's chain state file
 * (mirage-chain(5)).  The input's last line is replaced by the right
 * crc32 line when it starts with "crc32\t", so that the fuzzer reaches
 * the key parser behind the checksum as well as the checksum itself.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "live/chain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mg_chainstate s;
	struct mg_diag d;
	char *b, *c;
	size_t n;

	if ((b = malloc(size + 32)) == NULL)
		return 0;
	memcpy(b, data, size);
	b[size] = '\0';
	n = size;
	if (memchr(b, '\0', size) == NULL && (c = strstr(b, "\ncrc32\t")) !=
	    NULL && strchr(c + 1, '\n') == b + size - 1)
		n = (size_t)(c + 1 - b) + (size_t)snprintf(c + 1, 32,
		    "crc32\t%08lx\n", crc32(0, (const Bytef *)b,
		    (uInt)(c + 1 - b)));
	(void)mg_chain_parse(b, n, "fuzz", &s, &d);
	free(b);
	return 0;
}
