/*
 * replay.c: run a libFuzzer target over every file of a corpus directory
 * with a plain compiler, one TAP line per file, so `make check` replays
 * the corpus on every run.  A crash ends the runner (and fails the run).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(int argc, char *argv[])
{
	struct dirent *e;
	char **names = NULL, path[4096];
	size_t n = 0, i, len;
	unsigned char *buf;
	DIR *dir;
	FILE *fp;

	if (argc != 2 || (dir = opendir(argv[1])) == NULL) {
		fprintf(stderr, "usage: replay corpus-dir\n");
		return 2;
	}
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (names == NULL || (names[n++] = strdup(e->d_name)) == NULL)
			return 1;
	}
	closedir(dir);
	qsort(names, n, sizeof(*names), cmp);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", argv[1], names[i]);
		if ((fp = fopen(path, "rb")) == NULL) {
			printf("not ok %zu - cannot open %s\n", i + 1, path);
			continue;
		}
		fseek(fp, 0, SEEK_END);
		len = (size_t)ftell(fp);
		rewind(fp);
		buf = malloc(len ? len : 1);
		if (buf == NULL || fread(buf, 1, len, fp) != len) {
			printf("not ok %zu - cannot read %s\n", i + 1, path);
			fclose(fp);
			free(buf);
			continue;
		}
		fclose(fp);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		printf("ok %zu - %s\n", i + 1, names[i]);
		fflush(stdout);
		free(names[i]);
	}
	free(names);
	printf("1..%zu\n", n);
	return 0;
}
