/*
 * stream.h: reading and writing mirage record streams.
 *
 * A stream is a header (magic, version, record type, schema, producer,
 * arguments, seed), then zlib-compressed blocks of records, each with its
 * length and a CRC32, then a trailer with the record and block counts.
 * Streams of the same record type and schema may be concatenated; a
 * reader sees one sequence of records.  The byte layout is specified in
 * mirage-stream(5).  A reader or writer is not thread-safe; use one per
 * thread.
 */
#ifndef MG_STREAM_H
#define MG_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/status.h"

/*
 * Version policy: bump MAJOR only for a change old readers cannot skip
 * (they reject it with MG_EVERSION); bump MINOR for header fields appended
 * before the header CRC, which older readers skip.
 */
#define MG_STREAM_MAJOR	1
#define MG_STREAM_MINOR	1	/* 1.1: the time zone */

#define MG_STREAM_MAX_FIELDS	8192
#define MG_STREAM_MAX_BLOCK	(64u << 20)	/* raw or compressed bytes */

enum mg_type {
	MG_T_I64 = 1,		/* signed 64-bit integer */
	MG_T_F64 = 2,		/* IEEE 754 double */
	MG_T_STR = 3		/* byte string, may hold any byte */
};

struct mg_field {
	const char *name;
	enum mg_type type;
};

/* A record type and its fields, in order. */
struct mg_schema {
	const char *type;		/* "jobs", "samples", ... */
	size_t nfields;
	const struct mg_field *fields;
};

/*
 * One field value.  null means missing (sacct's Unknown, None, empty).
 * For MG_T_STR, s points to len bytes that are not NUL-terminated.
 */
struct mg_value {
	int null;
	int64_t i;
	double f;
	const char *s;
	size_t len;
};

/* What a stream header says, as read.  Strings are NUL-terminated. */
struct mg_stream_info {
	unsigned major, minor;
	uint64_t seed;
	const char *producer;
	const char *args;
	struct mg_schema schema;
	const char *tz;		/* the zone wall-clock times were read in,
				 * "" if none (1.0, or no such times) */
	const char *cluster;	/* the cluster the records come from,
				 * "key=value ...", "" if none */
};

struct mg_writer;
struct mg_reader;

/* Tunables of a writer; mg_writer_opts_init() sets the defaults. */
struct mg_writer_opts {
	const char *producer;	/* program name and version */
	const char *args;	/* its arguments, for provenance */
	uint64_t seed;		/* 0 if the producer uses none */
	const char *tz;		/* the zone of the times read, or NULL */
	const char *cluster;	/* the cluster the records come from (as
				 * mg_clusterdef_describe() says), or NULL */
	int level;		/* zlib level 0-9, default 1 */
	size_t block_size;	/* raw bytes per block, default 256 KiB */
	int threads;		/* 1: deflate inline; 2: on a second thread
				 * while the caller fills the next block;
				 * 0 (the default): 2 when level > 0 and
				 * more than one CPU is online.  The bytes
				 * written are the same. */
};

void mg_writer_opts_init(struct mg_writer_opts *o);

/*
 * mg_writer_open: start a stream on fp (not closed by us) and write its
 * header.  schema and the strings in o are copied.  Returns 0 and sets
 * *out (free with mg_writer_close() or mg_writer_free()), or MG_EINVAL,
 * MG_ENOMEM, MG_EIO.
 */
int mg_writer_open(FILE *fp, const struct mg_schema *schema,
    const struct mg_writer_opts *o, struct mg_writer **out,
    struct mg_diag *d);

/*
 * mg_writer_put: append one record of schema->nfields values.  A value's
 * type must match its field (MG_EINVAL otherwise).  Returns 0 or MG_EIO,
 * MG_ENOMEM, MG_EINVAL.
 */
int mg_writer_put(struct mg_writer *w, const struct mg_value *vals,
    struct mg_diag *d);

/*
 * mg_writer_close: write the last block and the trailer, flush fp and
 * free w.  Returns 0 or MG_EIO (the stream is then incomplete).
 */
int mg_writer_close(struct mg_writer *w, struct mg_diag *d);

/* mg_writer_free: abandon w without a trailer; w may be NULL. */
void mg_writer_free(struct mg_writer *w);

/* mg_writer_count: records put so far. */
uint64_t mg_writer_count(const struct mg_writer *w);

/*
 * mg_reader_open: read a stream header from fp (not closed by us).  name
 * is used in messages ("-" for standard input).  If type is not NULL the
 * stream must be of that record type (MG_ETYPE otherwise).  Returns 0 and
 * sets *out (free with mg_reader_free()), or MG_ETRUNC (empty or short
 * input), MG_ECORRUPT (not a stream), MG_ECHECKSUM, MG_EVERSION, MG_ETYPE,
 * MG_EIO, MG_ENOMEM.
 */
int mg_reader_open(FILE *fp, const char *name, const char *type,
    struct mg_reader **out, struct mg_diag *d);

/* mg_reader_info: the header of the first segment; borrowed from r. */
const struct mg_stream_info *mg_reader_info(const struct mg_reader *r);

/*
 * mg_reader_next: read the next record.  Returns 1 and points *vals at
 * nfields values (borrowed: valid until the next call on r), 0 at the
 * clean end of the input, or a negative status with d naming the block or
 * record.  A concatenated segment must have the same type and schema
 * (MG_ETYPE otherwise).
 */
int mg_reader_next(struct mg_reader *r, const struct mg_value **vals,
    struct mg_diag *d);

/* mg_reader_count: records returned so far. */
uint64_t mg_reader_count(const struct mg_reader *r);

void mg_reader_free(struct mg_reader *r);

/* mg_schema_field: index of the field called name, or -1. */
int mg_schema_field(const struct mg_schema *s, const char *name);

/* mg_schema_equal: 1 if a and b have the same type and fields. */
int mg_schema_equal(const struct mg_schema *a, const struct mg_schema *b);

/*
 * A struct mg_recbuf keeps records of one schema in memory in the stream's
 * encoding (a few tens of bytes for a job), for tools that must hold a
 * whole input.  schema is borrowed and must outlive the buffer.
 */
struct mg_recbuf;

/* mg_recbuf_new: 0 and *out (free with mg_recbuf_free()), or MG_ENOMEM. */
int mg_recbuf_new(const struct mg_schema *schema, struct mg_recbuf **out);

/*
 * mg_recbuf_spill: keep the records in the file fd (a temporary file the
 * caller made, and closes after mg_recbuf_free()), not in memory: a
 * buffer of 1 MiB and 8 bytes per record stay.  Reading them in order
 * of index is sequential.  Call it before the first add.  Returns 0 or
 * MG_EINVAL.
 */
int mg_recbuf_spill(struct mg_recbuf *rb, int fd);

/* mg_recbuf_add: copy a record in; its index, or MG_ENOMEM / MG_EINVAL /
 * MG_EIO (a spill file that cannot be written). */
int64_t mg_recbuf_add(struct mg_recbuf *rb, const struct mg_value *vals);

/* mg_recbuf_replace: overwrite record idx; 0 or a negative status. */
int mg_recbuf_replace(struct mg_recbuf *rb, size_t idx,
    const struct mg_value *vals);

size_t mg_recbuf_count(const struct mg_recbuf *rb);

/*
 * mg_recbuf_get: record idx.  *vals is borrowed: valid until the next
 * call on rb.  Returns 0, MG_EINVAL, or MG_EIO / MG_ECORRUPT (a spill
 * file that cannot be read back).
 */
int mg_recbuf_get(struct mg_recbuf *rb, size_t idx,
    const struct mg_value **vals);

void mg_recbuf_free(struct mg_recbuf *rb);

/* mg_type_name: "i64", "f64" or "str". */
const char *mg_type_name(enum mg_type t);

#endif /* MG_STREAM_H */
