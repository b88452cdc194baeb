/*
 * input.c: line input through libarchive; see input.h.
 *
 * Not archive_read_support_format_all(): its mtree reader claims plain
 * text and then fails on it.  tar, cpio, zip, raw and empty cover what
 * sacct dumps come in.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/input.h"

#define BLOCK (1 << 20)

struct mg_input {
	struct archive *a;
	char *path;
	char *name;
	const char *blk;
	size_t blen, bpos;
	char *carry;
	size_t clen, ccap;
	int carry_out;		/* carry was returned; reset on next call */
	int entry_done;
	uint64_t lineno;
	char filters[128];
};

static int
input_new(const char *path, struct mg_input **out, struct mg_diag *d)
{
	struct mg_input *in;

	*out = NULL;
	if ((in = calloc(1, sizeof(*in))) == NULL ||
	    (in->path = strdup(path)) == NULL ||
	    (in->a = archive_read_new()) == NULL) {
		mg_input_free(in);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	archive_read_support_filter_all(in->a);
	archive_read_support_format_tar(in->a);
	archive_read_support_format_cpio(in->a);
	archive_read_support_format_zip(in->a);
	archive_read_support_format_raw(in->a);
	archive_read_support_format_empty(in->a);
	*out = in;
	return 0;
}

static int
opened(struct mg_input **in, int r, struct mg_diag *d)
{
	int e;

	if (r == ARCHIVE_OK)
		return 0;
	e = archive_errno((*in)->a);
	mg_diag_set(d, MG_EIO, "%s", e > 0 ? strerror(e) :
	    archive_error_string((*in)->a));
	mg_input_free(*in);
	*in = NULL;
	return MG_EIO;
}

int
mg_input_open(const char *path, struct mg_input **out, struct mg_diag *d)
{
	int rv;

	if ((rv = input_new(path, out, d)) != 0)
		return rv;
	if (strcmp(path, "-") == 0)
		rv = archive_read_open_fd((*out)->a, 0, BLOCK);
	else
		rv = archive_read_open_filename((*out)->a, path, BLOCK);
	return opened(out, rv, d);
}

int
mg_input_open_mem(const void *buf, size_t len, const char *name,
    struct mg_input **out, struct mg_diag *d)
{
	int rv;

	if ((rv = input_new(name, out, d)) != 0)
		return rv;
	/* libarchive takes a non-const pointer but only reads it */
	return opened(out, archive_read_open_memory((*out)->a, (void *)(uintptr_t)buf, len), d);
}

static const char *
display(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

int
mg_input_next_entry(struct mg_input *in, const char **name,
    struct mg_diag *d)
{
	struct archive_entry *e;
	const char *p;
	size_t n;
	int r, i;

	for (;;) {
		r = archive_read_next_header(in->a, &e);
		if (r == ARCHIVE_EOF)
			return 0;
		if (r < ARCHIVE_WARN)
			return mg_diag_set(d, MG_EFORMAT, "%s",
			    archive_error_string(in->a));
		if (archive_format(in->a) == ARCHIVE_FORMAT_RAW ||
		    archive_entry_filetype(e) == AE_IFREG)
			break;
		archive_read_data_skip(in->a);
	}
	free(in->name);
	if (archive_format(in->a) == ARCHIVE_FORMAT_RAW) {
		in->name = strdup(display(in->path));
	} else {
		p = archive_entry_pathname(e);
		n = strlen(display(in->path)) + strlen(p ? p : "?") + 2;
		if ((in->name = malloc(n)) != NULL)
			snprintf(in->name, n, "%s:%s", display(in->path),
			    p ? p : "?");
	}
	if (in->name == NULL)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	in->filters[0] = '\0';
	for (i = 0; i < archive_filter_count(in->a) - 1; i++) {
		size_t k = strlen(in->filters);

		snprintf(in->filters + k, sizeof(in->filters) - k, "%s%s",
		    k ? "," : "", archive_filter_name(in->a, i));
	}
	in->blk = NULL;
	in->blen = in->bpos = 0;
	in->clen = 0;
	in->carry_out = 0;
	in->entry_done = 0;
	in->lineno = 0;
	*name = in->name;
	return 1;
}

static int
carry_add(struct mg_input *in, const char *p, size_t n)
{
	if (in->clen + n + 1 > in->ccap) {
		size_t cap = in->ccap ? in->ccap : 4096;
		char *c;

		while (cap < in->clen + n + 1)
			cap *= 2;
		if ((c = realloc(in->carry, cap)) == NULL)
			return MG_ENOMEM;
		in->carry = c;
		in->ccap = cap;
	}
	memcpy(in->carry + in->clen, p, n);
	in->clen += n;
	return 0;
}

static int
give(struct mg_input *in, const char *p, size_t n, const char **line,
    size_t *len)
{
	if (n > 0 && p[n - 1] == '\r')
		n--;
	*line = p;
	*len = n;
	in->lineno++;
	return 1;
}

int
mg_input_getline(struct mg_input *in, const char **line, size_t *len,
    struct mg_diag *d)
{
	const void *buf;
	const char *p, *nl;
	size_t size;
	la_int64_t off;
	int r;

	if (in->carry_out) {
		in->clen = 0;
		in->carry_out = 0;
	}
	for (;;) {
		if (in->bpos < in->blen) {
			p = in->blk + in->bpos;
			nl = memchr(p, '\n', in->blen - in->bpos);
			if (nl != NULL) {
				in->bpos = (size_t)(nl - in->blk) + 1;
				if (in->clen == 0)
					return give(in, p, (size_t)(nl - p),
					    line, len);
				if (carry_add(in, p, (size_t)(nl - p)) != 0)
					goto nomem;
				in->carry_out = 1;
				return give(in, in->carry, in->clen, line, len);
			}
			if (carry_add(in, p, in->blen - in->bpos) != 0)
				goto nomem;
			in->bpos = in->blen;
		}
		if (in->entry_done)
			return 0;
		r = archive_read_data_block(in->a, &buf, &size, &off);
		if (r == ARCHIVE_EOF) {
			in->entry_done = 1;
			in->blen = in->bpos = 0;
			if (in->clen == 0)
				return 0;
			in->carry_out = 1;
			return give(in, in->carry, in->clen, line, len);
		}
		if (r < ARCHIVE_WARN)
			return mg_diag_set(d, MG_EFORMAT, "after line %llu: %s",
			    (unsigned long long)in->lineno,
			    archive_error_string(in->a));
		in->blk = buf;
		in->blen = size;
		in->bpos = 0;
	}
nomem:
	return mg_diag_set(d, MG_ENOMEM, "out of memory");
}

uint64_t
mg_input_lineno(const struct mg_input *in)
{
	return in->lineno;
}

const char *
mg_input_filters(struct mg_input *in)
{
	return in->filters[0] ? in->filters : "none";
}

void
mg_input_free(struct mg_input *in)
{
	if (in == NULL)
		return;
	if (in->a)
		archive_read_free(in->a);
	free(in->path);
	free(in->name);
	free(in->carry);
	free(in);
}
