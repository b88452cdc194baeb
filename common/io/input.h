/*
 * input.h: text input of unknown wrapping, read line by line.
 *
 * A file or standard input may be plain text, compressed (gzip, xz, zstd,
 * bzip2, lz4, ...) or an archive (tar, zip, cpio, possibly compressed);
 * libarchive unwraps it.  An archive yields one entry per regular file;
 * anything else yields one entry.
 */
#ifndef MG_INPUT_H
#define MG_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

struct mg_input;

/*
 * mg_input_open: open path ("-" is standard input).  Returns 0 and sets
 * *out (free with mg_input_free()), or MG_EIO with d set.
 */
int mg_input_open(const char *path, struct mg_input **out,
    struct mg_diag *d);

/*
 * mg_input_open_mem: read buf[0..len) (borrowed: it must outlive in),
 * shown as name in messages.  Returns 0 or MG_EIO / MG_ENOMEM.
 */
int mg_input_open_mem(const void *buf, size_t len, const char *name,
    struct mg_input **out, struct mg_diag *d);

/*
 * mg_input_next_entry: move to the next entry.  Returns 1 and sets *name
 * ("file" for plain or compressed input, "file:member" for an archive
 * member; borrowed until the next call), 0 when there are no more, or
 * MG_EIO / MG_EFORMAT with d set.
 */
int mg_input_next_entry(struct mg_input *in, const char **name,
    struct mg_diag *d);

/*
 * mg_input_getline: the next line of the current entry without its "\n"
 * or "\r\n".  Returns 1 and sets *line and *len (borrowed until the next
 * call), 0 at the end of the entry, or MG_EIO / MG_EFORMAT (for example a
 * truncated gzip) with d set.  A last line without "\n" is returned.
 */
int mg_input_getline(struct mg_input *in, const char **line, size_t *len,
    struct mg_diag *d);

/* mg_input_lineno: the number of the line last returned, from 1. */
uint64_t mg_input_lineno(const struct mg_input *in);

/* mg_input_filters: the decompression chain, e.g. "gzip", or "none". */
const char *mg_input_filters(struct mg_input *in);

void mg_input_free(struct mg_input *in);

#endif /* MG_INPUT_H */
