/*
 * replay.c: run a libFuzzer target over every file of a corpus directory
 * with a plain compiler, so `make check` replays the corpus on every run.
 * One TAP line for the whole corpus; a crash (or a sanitizer report)
 * ends the runner before it, which fails the run; with REPLAY_VERBOSE set
 * in the environment, the last input named on stderr is the culprit.
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
	size_t n = 0, i, len, bad = 0;
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
			fprintf(stderr, "replay: cannot open %s\n", path);
			bad++;
			continue;
		}
		fseek(fp, 0, SEEK_END);
		len = (size_t)ftell(fp);
		rewind(fp);
		buf = malloc(len ? len : 1);
		if (buf == NULL || fread(buf, 1, len, fp) != len) {
			fprintf(stderr, "replay: cannot read %s\n", path);
			bad++;
			fclose(fp);
			free(buf);
			continue;
		}
		fclose(fp);
		if (getenv("REPLAY_VERBOSE"))
			fprintf(stderr, "%s\n", names[i]);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		free(names[i]);
	}
	free(names);
	printf("%sok 1 - %zu inputs of %s replayed without a crash\n1..1\n",
	    bad || n == 0 ? "not " : "", n, argv[1]);
	return bad || n == 0;
}
