/*
 * fuzz_simconf.c: libFuzzer target for the cluster model's config file
 * (mirage-eval(1) CONFIGURATION): each line is a setting, as
 * mg_simconf_load() applies them, then the partitions are matched to a
 * trace's (batch, gpu, long), which expands the hostlists into pools.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/simconf_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char p0[] = "batch", p1[] = "gpu", p2[] = "long";
	char *names[] = { p0, p1, p2 };
	struct mg_simconf c;
	struct mg_diag d;
	char *b, *line, *save = NULL;

	if (size > 4096 || (b = malloc(size + 1)) == NULL)
		return 0;
	memcpy(b, data, size);
	b[size] = '\0';
	mg_simconf_init(&c);
	for (line = strtok_r(b, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#' && line[0] != '\0' &&
		    mg_simconf_set(&c, line, &d) != 0)
			break;
	(void)mg_simconf_partitions(&c, names, 3, &d);
	free(b);
	return 0;
}
