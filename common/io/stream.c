/*
 * stream.c: the mirage record stream codec; see mirage-stream(5).
 *
 * All integers on the wire are little-endian and written byte by byte;
 * doubles are their IEEE 754 bit pattern as a little-endian u64.  Inside a
 * block, a record is a null bitmap followed by its non-null values:
 * zigzag LEB128 for i64, 8 bytes for f64, LEB128 length and bytes for str.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "io/stream.h"

static const unsigned char magic[8] = { 0x89, 'M', 'R', 'G', '\r', '\n',
    0x1a, '\n' };

#define KIND_BLOCK	'B'
#define KIND_END	'E'
#define BLOCK_HDR	17	/* kind, nrec, raw_len, comp_len, crc */
#define END_LEN		17	/* kind, records u64, blocks u32, crc */
#define MAX_HEADER	(1u << 20)
#define FLAGS_RESERVED	0xffff0000u

/* ---- byte helpers ---------------------------------------------------- */

static void
put_le(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t
get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static int
buf_reserve(struct buf *b, size_t more)
{
	size_t cap;
	unsigned char *p;

	if (b->len + more <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more)
		cap *= 2;
	if ((p = realloc(b->p, cap)) == NULL)
		return MG_ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

static void
put_varint(struct buf *b, uint64_t v)
{
	while (v >= 0x80) {
		b->p[b->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b->p[b->len++] = (unsigned char)v;
}

static int
put_bytes(struct buf *b, const void *p, size_t n)
{
	if (buf_reserve(b, n) != 0)
		return MG_ENOMEM;
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

/* ---- schema ---------------------------------------------------------- */

const char *
mg_type_name(enum mg_type t)
{
	switch (t) {
	case MG_T_I64:	return "i64";
	case MG_T_F64:	return "f64";
	case MG_T_STR:	return "str";
	}
	return "?";
}

int
mg_schema_field(const struct mg_schema *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nfields; i++)
		if (strcmp(s->fields[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
mg_schema_equal(const struct mg_schema *a, const struct mg_schema *b)
{
	size_t i;

	if (strcmp(a->type, b->type) != 0 || a->nfields != b->nfields)
		return 0;
	for (i = 0; i < a->nfields; i++)
		if (a->fields[i].type != b->fields[i].type ||
		    strcmp(a->fields[i].name, b->fields[i].name) != 0)
			return 0;
	return 1;
}

static int
valid_name(const char *s, size_t maxlen)
{
	size_t n = strlen(s);

	return n > 0 && n <= maxlen;
}

/* ---- writer ---------------------------------------------------------- */

struct mg_writer {
	FILE *fp;
	size_t nfields;
	enum mg_type *types;
	struct buf *cols;	/* values of each field in the block */
	struct buf *nulls;	/* null bitmap of each field */
	int64_t *prev;		/* last i64 of each field, for deltas */
	size_t rawlen;		/* bytes in cols and nulls */
	struct buf head, comp;
	uint32_t nrec;		/* in the current block */
	uint64_t total;
	uint32_t blocks;
	size_t block_size;
	/* libdeflate: the format's zlib blocks, faster than zlib's own */
	struct libdeflate_compressor *lc;
	struct buf raw;		/* a block's raw bytes, whole */
	/*
	 * with a second thread, the caller fills cols and nulls while the
	 * thread deflates and writes the block before, in wcols and
	 * wnulls (the two sets swap at each block); head, comp, z, fp and
	 * blocks are then the thread's
	 */
	int threaded;
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int busy, quit;		/* a block handed over; stop */
	struct buf *wcols, *wnulls;
	uint32_t wnrec;
	size_t wrawlen;
	int werr;		/* the thread's first error, and its text */
	struct mg_diag wdiag;
};

void
mg_writer_opts_init(struct mg_writer_opts *o)
{
	o->producer = "mirage";
	o->args = "";
	o->tz = NULL;
	o->cluster = NULL;
	o->seed = 0;
	o->level = 1;
	o->block_size = 256 * 1024;
	o->threads = 0;
}

static int
write_all(FILE *fp, const void *p, size_t n, struct mg_diag *d)
{
	if (n && fwrite(p, 1, n, fp) != n)
		return mg_diag_set(d, MG_EIO, "write error: %s",
		    strerror(errno ? errno : EIO));
	return 0;
}

static int
put_str(struct buf *b, const char *s, int lenbytes)
{
	size_t n = strlen(s);

	if (buf_reserve(b, (size_t)lenbytes) != 0)
		return MG_ENOMEM;
	put_le(b->p + b->len, n, lenbytes);
	b->len += (size_t)lenbytes;
	return put_bytes(b, s, n);
}

static void *compressor(void *);

int
mg_writer_open(FILE *fp, const struct mg_schema *schema,
    const struct mg_writer_opts *o, struct mg_writer **out,
    struct mg_diag *d)
{
	struct mg_writer_opts defaults;
	struct mg_writer *w;
	struct buf h = { 0 };
	size_t i;
	int rv;

	*out = NULL;
	if (o == NULL) {
		mg_writer_opts_init(&defaults);
		o = &defaults;
	}
	if (schema->nfields == 0 || schema->nfields > MG_STREAM_MAX_FIELDS ||
	    !valid_name(schema->type, 255) || strlen(o->producer) > 65535 ||
	    strlen(o->args) > 65535 || o->level < 0 || o->level > 9)
		return mg_diag_set(d, MG_EINVAL, "invalid stream schema or options");
	for (i = 0; i < schema->nfields; i++)
		if (!valid_name(schema->fields[i].name, 255) ||
		    schema->fields[i].type < MG_T_I64 ||
		    schema->fields[i].type > MG_T_STR)
			return mg_diag_set(d, MG_EINVAL, "invalid field %zu", i);

	if ((o->tz != NULL && strlen(o->tz) > 255) || (o->cluster != NULL &&
	    strlen(o->cluster) > 4096))
		return mg_diag_set(d, MG_EINVAL, "time zone or cluster too "
		    "long");
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (w->types = calloc(schema->nfields, sizeof(*w->types))) == NULL ||
	    (w->cols = calloc(schema->nfields, sizeof(*w->cols))) == NULL ||
	    (w->nulls = calloc(schema->nfields, sizeof(*w->nulls))) == NULL ||
	    (w->prev = calloc(schema->nfields, sizeof(*w->prev))) == NULL) {
		if (w)
			w->nfields = schema->nfields;
		mg_writer_free(w);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	w->fp = fp;
	w->nfields = schema->nfields;
	w->block_size = o->block_size ? o->block_size : 256 * 1024;
	if (w->block_size > MG_STREAM_MAX_BLOCK / 2)
		w->block_size = MG_STREAM_MAX_BLOCK / 2;
	for (i = 0; i < schema->nfields; i++)
		w->types[i] = schema->fields[i].type;
	if ((w->lc = libdeflate_alloc_compressor(o->level < 0 ? 0 :
	    o->level > 9 ? 9 : o->level)) == NULL) {
		mg_writer_free(w);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}

	rv = put_bytes(&h, magic, sizeof(magic));
	if (rv == 0)
		rv = buf_reserve(&h, 20);
	if (rv == 0) {
		put_le(h.p + 8, MG_STREAM_MAJOR, 2);
		put_le(h.p + 10, MG_STREAM_MINOR, 2);
		put_le(h.p + 12, 0, 4);		/* header_len, below */
		put_le(h.p + 16, 0, 4);		/* flags */
		h.len = 20;
		rv = buf_reserve(&h, 8);
	}
	if (rv == 0) {
		put_le(h.p + h.len, o->seed, 8);
		h.len += 8;
		rv = put_str(&h, schema->type, 1);
	}
	if (rv == 0)
		rv = put_str(&h, o->producer, 2);
	if (rv == 0)
		rv = put_str(&h, o->args, 2);
	if (rv == 0 && (rv = buf_reserve(&h, 2)) == 0) {
		put_le(h.p + h.len, schema->nfields, 2);
		h.len += 2;
	}
	for (i = 0; rv == 0 && i < schema->nfields; i++) {
		if ((rv = buf_reserve(&h, 1)) != 0)
			break;
		h.p[h.len++] = (unsigned char)schema->fields[i].type;
		rv = put_str(&h, schema->fields[i].name, 1);
	}
	/* 1.1: the zone the records' wall-clock times were read in */
	if (rv == 0)
		rv = put_str(&h, o->tz ? o->tz : "", 1);
	/* 1.1: the cluster the records come from */
	if (rv == 0)
		rv = put_str(&h, o->cluster ? o->cluster : "", 2);
	if (rv == 0 && (rv = buf_reserve(&h, 4)) == 0) {
		put_le(h.p + 12, h.len + 4 - 16, 4);
		put_le(h.p + h.len, crc32(0, h.p, (uInt)h.len), 4);
		h.len += 4;
	}
	if (rv != 0) {
		free(h.p);
		mg_writer_free(w);
		return mg_diag_set(d, rv, "out of memory");
	}
	rv = write_all(fp, h.p, h.len, d);
	free(h.p);
	if (rv != 0) {
		mg_writer_free(w);
		return rv;
	}
	/* a thread of its own to deflate, when asked or when it can help */
	if (o->threads > 1 || (o->threads == 0 && o->level > 0 &&
	    sysconf(_SC_NPROCESSORS_ONLN) > 1)) {
		if ((w->wcols = calloc(w->nfields, sizeof(*w->wcols))) == NULL ||
		    (w->wnulls = calloc(w->nfields,
		    sizeof(*w->wnulls))) == NULL) {
			mg_writer_free(w);
			return mg_diag_set(d, MG_ENOMEM, "out of memory");
		}
		if (pthread_mutex_init(&w->mu, NULL) == 0) {
			if (pthread_cond_init(&w->cv, NULL) == 0) {
				if (pthread_create(&w->tid, NULL, compressor,
				    w) == 0)
					w->threaded = 1;
				else
					pthread_cond_destroy(&w->cv);
			}
			if (!w->threaded)
				pthread_mutex_destroy(&w->mu);
		}
		/* without a thread, the block is deflated inline */
	}
	*out = w;
	return 0;
}

/*
 * A block's raw bytes are columnar: varint field count, varint byte
 * length of each column, then the columns.  A column is a null bitmap of
 * ceil(nrec/8) bytes followed by its non-null values: i64 as zigzag
 * LEB128 of the difference from the previous value of the column (0
 * before the first), f64 as 8 bytes, str as LEB128 length and bytes.
 * Sorted times and ids shrink to a byte or two, and zlib runs faster on
 * the result.
 */
/* one more piece of the block's raw bytes */
static int
gather(struct buf *b, const unsigned char *p, size_t n)
{
	if (n == 0)
		return 0;
	if (buf_reserve(b, n) != 0)
		return MG_ENOMEM;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

/* deflate and write a block of nrec records held in cols and nulls */
static int
write_block(struct mg_writer *w, struct buf *cols, struct buf *nulls,
    uint32_t nrec, size_t rawlen, struct mg_diag *d)
{
	unsigned char hdr[BLOCK_HDR];
	size_t i, nb = (nrec + 7) / 8;
	size_t bound;
	uint32_t crc;
	int rv;

	w->head.len = 0;
	if (buf_reserve(&w->head, 10 * (w->nfields + 1)) != 0)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	put_varint(&w->head, w->nfields);
	for (i = 0; i < w->nfields; i++) {
		nulls[i].len = nb;	/* the last byte may be partial */
		put_varint(&w->head, nb + cols[i].len);
	}
	w->raw.len = 0;
	if (buf_reserve(&w->raw, w->head.len + rawlen + nb * w->nfields))
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	rv = gather(&w->raw, w->head.p, w->head.len);
	for (i = 0; i < w->nfields && rv == 0; i++)
		if ((rv = gather(&w->raw, nulls[i].p, nulls[i].len)) == 0)
			rv = gather(&w->raw, cols[i].p, cols[i].len);
	bound = libdeflate_zlib_compress_bound(w->lc, w->raw.len);
	w->comp.len = 0;
	if (rv != 0 || buf_reserve(&w->comp, bound) != 0)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	if ((w->comp.len = libdeflate_zlib_compress(w->lc, w->raw.p,
	    w->raw.len, w->comp.p, bound)) == 0)
		return mg_diag_set(d, MG_EIO, "deflate failed");

	hdr[0] = KIND_BLOCK;
	put_le(hdr + 1, nrec, 4);
	put_le(hdr + 5, w->raw.len, 4);
	put_le(hdr + 9, w->comp.len, 4);
	crc = (uint32_t)crc32(0, hdr, 13);
	crc = (uint32_t)crc32(crc, w->comp.p, (uInt)w->comp.len);
	put_le(hdr + 13, crc, 4);
	if ((rv = write_all(w->fp, hdr, sizeof(hdr), d)) != 0 ||
	    (rv = write_all(w->fp, w->comp.p, w->comp.len, d)) != 0)
		return rv;
	w->blocks++;
	return 0;
}

/* the second thread: each block handed over, deflated and written */
static void *
compressor(void *arg)
{
	struct mg_writer *w = arg;
	int rv;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->busy && !w->quit)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->busy)
			break;
		pthread_mutex_unlock(&w->mu);
		rv = w->werr ? 0 : write_block(w, w->wcols, w->wnulls,
		    w->wnrec, w->wrawlen, &w->wdiag);
		pthread_mutex_lock(&w->mu);
		if (rv != 0 && w->werr == 0)
			w->werr = rv;
		w->busy = 0;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* wait for the thread to finish its block; its error, if any */
static int
drain(struct mg_writer *w, struct mg_diag *d)
{
	int rv;

	if (!w->threaded)
		return 0;
	pthread_mutex_lock(&w->mu);
	while (w->busy)
		pthread_cond_wait(&w->cv, &w->mu);
	rv = w->werr;
	pthread_mutex_unlock(&w->mu);
	if (rv != 0 && d != NULL)
		*d = w->wdiag;
	return rv;
}

static int
flush_block(struct mg_writer *w, struct mg_diag *d)
{
	struct buf *t;
	size_t i;
	int rv;

	if (w->nrec == 0)
		return 0;
	if (!w->threaded) {
		if ((rv = write_block(w, w->cols, w->nulls, w->nrec, w->rawlen,
		    d)) != 0)
			return rv;
	} else {
		/* hand the block over, and fill the thread's last one */
		if ((rv = drain(w, d)) != 0)
			return rv;
		pthread_mutex_lock(&w->mu);
		t = w->wcols;
		w->wcols = w->cols;
		w->cols = t;
		t = w->wnulls;
		w->wnulls = w->nulls;
		w->nulls = t;
		w->wnrec = w->nrec;
		w->wrawlen = w->rawlen;
		w->busy = 1;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
	}
	w->nrec = 0;
	w->rawlen = 0;
	for (i = 0; i < w->nfields; i++) {
		w->cols[i].len = 0;
		w->nulls[i].len = 0;
		w->prev[i] = 0;
	}
	return 0;
}

/* append one encoded record (null bitmap, then values) to b */
static int
encode(struct buf *b, const enum mg_type *types, size_t nfields,
    const struct mg_value *vals)
{
	size_t i, need, nb = (nfields + 7) / 8;
	unsigned char *bits;
	uint64_t u, zz;

	need = nb;
	for (i = 0; i < nfields; i++)
		need += (types[i] == MG_T_STR ? vals[i].len : 0) + 10;
	if (need > MG_STREAM_MAX_BLOCK / 2)
		return MG_EINVAL;
	if (buf_reserve(b, need) != 0)
		return MG_ENOMEM;
	bits = b->p + b->len;
	memset(bits, 0, nb);
	b->len += nb;
	for (i = 0; i < nfields; i++) {
		if (vals[i].null) {
			bits[i / 8] |= (unsigned char)(1u << (i % 8));
			continue;
		}
		switch (types[i]) {
		case MG_T_I64:
			u = (uint64_t)vals[i].i;
			zz = (u << 1) ^ (vals[i].i < 0 ? UINT64_MAX : 0);
			put_varint(b, zz);
			break;
		case MG_T_F64:
			memcpy(&u, &vals[i].f, 8);
			put_le(b->p + b->len, u, 8);
			b->len += 8;
			break;
		case MG_T_STR:
			put_varint(b, vals[i].len);
			if (vals[i].len)
				memcpy(b->p + b->len, vals[i].s, vals[i].len);
			b->len += vals[i].len;
			break;
		}
	}
	return 0;
}

int
mg_writer_put(struct mg_writer *w, const struct mg_value *vals,
    struct mg_diag *d)
{
	size_t i, before;
	struct buf *c;
	uint64_t u;

	for (i = 0; i < w->nfields; i++) {
		if (w->types[i] == MG_T_STR && vals[i].len >
		    MG_STREAM_MAX_BLOCK / 4)
			return mg_diag_set(d, MG_EINVAL, "record too large");
		if (w->nrec % 8 == 0 && buf_reserve(&w->nulls[i], 1) != 0)
			goto nomem;
		if (w->nrec % 8 == 0)
			w->nulls[i].p[w->nulls[i].len++] = 0;
		if (vals[i].null) {
			w->nulls[i].p[w->nrec / 8] |=
			    (unsigned char)(1u << (w->nrec % 8));
			continue;
		}
		c = &w->cols[i];
		before = c->len;
		if (buf_reserve(c, 10 + (w->types[i] == MG_T_STR ?
		    vals[i].len : 0)) != 0)
			goto nomem;
		switch (w->types[i]) {
		case MG_T_I64:
			u = (uint64_t)vals[i].i - (uint64_t)w->prev[i];
			w->prev[i] = vals[i].i;
			put_varint(c, (u << 1) ^ ((int64_t)u < 0 ? UINT64_MAX :
			    0));
			break;
		case MG_T_F64:
			memcpy(&u, &vals[i].f, 8);
			put_le(c->p + c->len, u, 8);
			c->len += 8;
			break;
		case MG_T_STR:
			put_varint(c, vals[i].len);
			if (vals[i].len)
				memcpy(c->p + c->len, vals[i].s, vals[i].len);
			c->len += vals[i].len;
			break;
		}
		w->rawlen += c->len - before;
	}
	w->nrec++;
	w->total++;
	if (w->rawlen + (w->nrec / 8 + 1) * w->nfields >= w->block_size ||
	    w->nrec == UINT32_MAX)
		return flush_block(w, d);
	return 0;
nomem:
	return mg_diag_set(d, MG_ENOMEM, "out of memory");
}

int
mg_writer_close(struct mg_writer *w, struct mg_diag *d)
{
	unsigned char end[END_LEN];
	int rv;

	if ((rv = flush_block(w, d)) == 0 && (rv = drain(w, d)) == 0) {
		end[0] = KIND_END;
		put_le(end + 1, w->total, 8);
		put_le(end + 9, w->blocks, 4);
		put_le(end + 13, crc32(0, end, 13), 4);
		rv = write_all(w->fp, end, sizeof(end), d);
	}
	if (rv == 0 && fflush(w->fp) != 0)
		rv = mg_diag_set(d, MG_EIO, "write error: %s", strerror(errno));
	mg_writer_free(w);
	return rv;
}

void
mg_writer_free(struct mg_writer *w)
{
	size_t i;

	if (w == NULL)
		return;
	if (w->threaded) {
		pthread_mutex_lock(&w->mu);
		w->quit = 1;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->tid, NULL);
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
	}
	libdeflate_free_compressor(w->lc);
	free(w->raw.p);
	for (i = 0; w->cols && i < w->nfields; i++)
		free(w->cols[i].p);
	for (i = 0; w->nulls && i < w->nfields; i++)
		free(w->nulls[i].p);
	for (i = 0; w->wcols && i < w->nfields; i++)
		free(w->wcols[i].p);
	for (i = 0; w->wnulls && i < w->nfields; i++)
		free(w->wnulls[i].p);
	free(w->cols);
	free(w->nulls);
	free(w->wcols);
	free(w->wnulls);
	free(w->prev);
	free(w->head.p);
	free(w->comp.p);
	free(w->types);
	free(w);
}

uint64_t
mg_writer_count(const struct mg_writer *w)
{
	return w->total;
}

/* ---- reader ---------------------------------------------------------- */

struct column {
	const unsigned char *bits;	/* null bitmap */
	const unsigned char *p, *end;	/* values */
	uint64_t prev;			/* last i64, for deltas */
};

struct mg_reader {
	FILE *fp;
	char *name;
	char *want_type;
	struct mg_stream_info info;
	struct mg_field *fields;	/* owned copies */
	unsigned char *hdr;		/* owned header bytes (strings) */
	struct mg_value *vals;
	struct buf raw, comp;
	struct column *col;		/* one cursor per field */
	uint32_t nrec, rec;		/* records in the block, next one */
	uint64_t seg_records, total;
	uint32_t seg_blocks, block_no;
	uint64_t offset;		/* bytes consumed, for messages */
	struct libdeflate_decompressor *ld;
	int done;
};

/* read exactly n bytes; 0, or MG_ETRUNC / MG_EIO */
static int
read_exact(struct mg_reader *r, void *p, size_t n, size_t *got)
{
	size_t k = n ? fread(p, 1, n, r->fp) : 0;

	if (got)
		*got = k;
	r->offset += k;
	if (k == n)
		return 0;
	return ferror(r->fp) ? MG_EIO : MG_ETRUNC;
}

struct cursor {
	const unsigned char *p, *end;
};

static int
cur_le(struct cursor *c, int n, uint64_t *v)
{
	if (c->end - c->p < n)
		return -1;
	*v = get_le(c->p, n);
	c->p += n;
	return 0;
}

/* a length-prefixed string, NUL-terminated in place by moving it back */
static int
cur_str(struct cursor *c, int lenbytes, char **out, unsigned char **store)
{
	uint64_t n;

	if (cur_le(c, lenbytes, &n) != 0 || (uint64_t)(c->end - c->p) < n)
		return -1;
	memcpy(*store, c->p, n);
	(*store)[n] = '\0';
	*out = (char *)*store;
	*store += n + 1;
	c->p += n;
	return 0;
}

/*
 * Read one header; the first 8 bytes (magic) are already in hb.  Fills
 * info/fields into fresh allocations owned by the caller on success.
 */
static int
read_header(struct mg_reader *r, const unsigned char *first8,
    struct mg_stream_info *info, struct mg_field **fieldsp,
    unsigned char **hdrp, struct mg_diag *d)
{
	unsigned char fixed[20], *all = NULL, *store = NULL, *sp;
	struct mg_field *fields = NULL;
	struct cursor c;
	uint64_t hlen, flags, v, nf, i;
	char *s;
	int rv;

	memcpy(fixed, first8, 8);
	if ((rv = read_exact(r, fixed + 8, 12, NULL)) != 0)
		goto io;
	info->major = (unsigned)get_le(fixed + 8, 2);
	info->minor = (unsigned)get_le(fixed + 10, 2);
	hlen = get_le(fixed + 12, 4);
	flags = get_le(fixed + 16, 4);
	if (hlen < 4 + 8 + 1 + 2 + 2 + 2 + 4 || hlen > MAX_HEADER)
		return mg_diag_set(d, MG_ECORRUPT, "bad header length %llu",
		    (unsigned long long)hlen);
	if ((all = malloc(16 + hlen)) == NULL ||
	    (store = malloc(hlen * 2 + 16)) == NULL) {
		rv = MG_ENOMEM;
		goto fail;
	}
	memcpy(all, fixed, 20);
	if ((rv = read_exact(r, all + 20, hlen - 4, NULL)) != 0)
		goto io;
	if ((uint32_t)crc32(0, all, (uInt)(16 + hlen - 4)) !=
	    (uint32_t)get_le(all + 16 + hlen - 4, 4)) {
		rv = mg_diag_set(d, MG_ECHECKSUM, "header CRC32 mismatch");
		goto fail;
	}
	/* the first 20 bytes and the closing CRC are the same in every
	 * version, so a damaged byte is told apart from a newer version */
	if (info->major != MG_STREAM_MAJOR) {
		rv = mg_diag_set(d, MG_EVERSION, "stream version %u.%u is not "
		    "supported (this reader reads %u.x)", info->major,
		    info->minor, MG_STREAM_MAJOR);
		goto fail;
	}
	if (flags & FLAGS_RESERVED) {
		rv = mg_diag_set(d, MG_EVERSION,
		    "header uses reserved flags 0x%08llx",
		    (unsigned long long)flags);
		goto fail;
	}
	c.p = all + 20;
	c.end = all + 16 + hlen - 4;
	sp = store;
	if (cur_le(&c, 8, &info->seed) != 0 ||
	    cur_str(&c, 1, &s, &sp) != 0)
		goto bad;
	info->schema.type = s;
	if (cur_str(&c, 2, &s, &sp) != 0)
		goto bad;
	info->producer = s;
	if (cur_str(&c, 2, &s, &sp) != 0)
		goto bad;
	info->args = s;
	if (cur_le(&c, 2, &nf) != 0 || nf == 0 || nf > MG_STREAM_MAX_FIELDS)
		goto bad;
	if ((fields = calloc(nf, sizeof(*fields))) == NULL) {
		rv = MG_ENOMEM;
		goto fail;
	}
	for (i = 0; i < nf; i++) {
		if (cur_le(&c, 1, &v) != 0 || v < MG_T_I64 || v > MG_T_STR ||
		    cur_str(&c, 1, &s, &sp) != 0 || *s == '\0')
			goto bad;
		fields[i].type = (enum mg_type)v;
		fields[i].name = s;
	}
	/* 1.1: the zone; anything after belongs to a newer minor version */
	info->tz = info->cluster = "";
	if (info->minor >= 1 && c.p < c.end) {
		if (cur_str(&c, 1, &s, &sp) != 0)
			goto bad;
		info->tz = s;
		if (cur_str(&c, 2, &s, &sp) != 0)
			goto bad;
		info->cluster = s;
	}
	info->schema.nfields = nf;
	info->schema.fields = fields;
	free(all);
	*fieldsp = fields;
	*hdrp = store;
	return 0;
bad:
	rv = mg_diag_set(d, MG_ECORRUPT, "malformed header");
	goto fail;
io:
	if (rv == MG_ETRUNC)
		mg_diag_set(d, rv, "stream ends inside its header");
	else
		mg_diag_set(d, rv, "read error: %s", strerror(errno));
fail:
	if (rv == MG_ENOMEM)
		mg_diag_set(d, rv, "out of memory");
	free(all);
	free(store);
	free(fields);
	return rv;
}

static int
check_magic(const unsigned char *b, size_t got, struct mg_diag *d)
{
	if (got >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return mg_diag_set(d, MG_ECORRUPT, "not a mirage stream "
		    "(gzip data: decompress it first)");
	if (got == sizeof(magic) && memcmp(b, magic, sizeof(magic)) == 0)
		return 0;
	if (got < sizeof(magic) && memcmp(b, magic, got) == 0)
		return mg_diag_set(d, MG_ETRUNC, "stream ends inside its "
		    "magic number");
	if (got >= 4 && memcmp(b, magic, 4) == 0)
		return mg_diag_set(d, MG_ECORRUPT, "mangled stream magic "
		    "(converted line endings?)");
	return mg_diag_set(d, MG_ECORRUPT, "not a mirage stream (bad magic)");
}

int
mg_reader_open(FILE *fp, const char *name, const char *type,
    struct mg_reader **out, struct mg_diag *d)
{
	struct mg_reader *r;
	unsigned char m[8];
	size_t got;
	int rv;

	*out = NULL;
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (r->name = strdup(name)) == NULL ||
	    (type && (r->want_type = strdup(type)) == NULL)) {
		mg_reader_free(r);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	r->fp = fp;
	rv = read_exact(r, m, sizeof(m), &got);
	if (rv == MG_EIO) {
		mg_diag_set(d, rv, "read error: %s", strerror(errno));
		goto fail;
	}
	if (got == 0) {
		rv = mg_diag_set(d, MG_ETRUNC, "empty input, not a stream");
		goto fail;
	}
	if ((rv = check_magic(m, got, d)) != 0)
		goto fail;
	if ((rv = read_header(r, m, &r->info, &r->fields, &r->hdr, d)) != 0)
		goto fail;
	if (type && strcmp(type, r->info.schema.type) != 0) {
		rv = mg_diag_set(d, MG_ETYPE, "stream holds '%s' records, "
		    "not '%s'", r->info.schema.type, type);
		goto fail;
	}
	if ((r->vals = calloc(r->info.schema.nfields, sizeof(*r->vals))) ==
	    NULL || (r->col = calloc(r->info.schema.nfields,
	    sizeof(*r->col))) == NULL || (r->ld =
	    libdeflate_alloc_decompressor()) == NULL) {
		rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
		goto fail;
	}
	*out = r;
	return 0;
fail:
	mg_reader_free(r);
	return rv;
}

const struct mg_stream_info *
mg_reader_info(const struct mg_reader *r)
{
	return &r->info;
}

uint64_t
mg_reader_count(const struct mg_reader *r)
{
	return r->total;
}

/* after a trailer: EOF ends the input, anything else must be a header */
static int
next_segment(struct mg_reader *r, struct mg_diag *d)
{
	struct mg_stream_info info;
	struct mg_field *fields = NULL;
	unsigned char m[8], *hdr = NULL;
	size_t got;
	int rv;

	rv = read_exact(r, m, sizeof(m), &got);
	if (got == 0 && rv == MG_ETRUNC) {
		r->done = 1;
		return 0;
	}
	if (rv == MG_EIO)
		return mg_diag_set(d, rv, "read error: %s", strerror(errno));
	if ((rv = check_magic(m, got, d)) != 0) {
		mg_diag_prefix(d, "after the trailer at byte %llu",
		    (unsigned long long)(r->offset - got));
		return rv;
	}
	if ((rv = read_header(r, m, &info, &fields, &hdr, d)) != 0) {
		mg_diag_prefix(d, "concatenated stream");
		return rv;
	}
	if (!mg_schema_equal(&info.schema, &r->info.schema)) {
		rv = mg_diag_set(d, MG_ETYPE, "concatenated stream has another "
		    "schema ('%s', %zu fields) than the first ('%s', %zu "
		    "fields)", info.schema.type, info.schema.nfields,
		    r->info.schema.type, r->info.schema.nfields);
		free(fields);
		free(hdr);
		return rv;
	}
	free(fields);
	free(hdr);
	r->seg_records = 0;
	r->seg_blocks = 0;
	return 1;
}

static int
get_varint(struct cursor *c, uint64_t *v)
{
	uint64_t x = 0;
	int shift;

	for (shift = 0; shift < 64; shift += 7) {
		if (c->p >= c->end)
			return -1;
		x |= (uint64_t)(*c->p & 0x7f) << shift;
		if ((*c->p++ & 0x80) == 0) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

/* point the column cursors into a freshly inflated block */
static int
set_columns(struct mg_reader *r)
{
	struct cursor c = { r->raw.p, r->raw.p + r->raw.len };
	size_t i, n = r->info.schema.nfields, nb = (r->nrec + 7) / 8;
	const unsigned char *at;
	uint64_t v, len;

	if (get_varint(&c, &v) != 0 || v != n)
		return -1;
	/* lengths first, then the columns in the same order */
	for (i = 0; i < n; i++) {
		if (get_varint(&c, &len) != 0 || len < nb)
			return -1;
		r->col[i].end = (const unsigned char *)(uintptr_t)len;
	}
	at = c.p;
	for (i = 0; i < n; i++) {
		len = (uint64_t)(uintptr_t)r->col[i].end;
		if ((uint64_t)(c.end - at) < len)
			return -1;
		r->col[i].bits = at;
		r->col[i].p = at + nb;
		r->col[i].end = at + len;
		r->col[i].prev = 0;
		at += len;
	}
	return at == c.end ? 0 : -1;
}

static int
read_block(struct mg_reader *r, struct mg_diag *d)
{
	unsigned char h[END_LEN];
	uint64_t nrec, raw_len, comp_len;
	uint32_t crc;
	int rv;

	for (;;) {
		if ((rv = read_exact(r, h, 1, NULL)) != 0)
			goto io;
		if (h[0] == KIND_END) {
			if ((rv = read_exact(r, h + 1, END_LEN - 1, NULL)) != 0)
				goto io;
			if ((uint32_t)crc32(0, h, 13) !=
			    (uint32_t)get_le(h + 13, 4))
				return mg_diag_set(d, MG_ECHECKSUM,
				    "trailer CRC32 mismatch");
			if (get_le(h + 1, 8) != r->seg_records ||
			    get_le(h + 9, 4) != r->seg_blocks)
				return mg_diag_set(d, MG_ECORRUPT, "trailer "
				    "counts %llu records in %llu blocks, "
				    "stream had %llu in %u",
				    (unsigned long long)get_le(h + 1, 8),
				    (unsigned long long)get_le(h + 9, 4),
				    (unsigned long long)r->seg_records,
				    r->seg_blocks);
			if ((rv = next_segment(r, d)) <= 0)
				return rv;
			continue;
		}
		if (h[0] != KIND_BLOCK)
			return mg_diag_set(d, MG_ECORRUPT, "block %u: bad "
			    "block marker 0x%02x", r->block_no + 1, h[0]);
		if ((rv = read_exact(r, h + 1, BLOCK_HDR - 1, NULL)) != 0)
			goto io;
		r->block_no++;
		nrec = get_le(h + 1, 4);
		raw_len = get_le(h + 5, 4);
		comp_len = get_le(h + 9, 4);
		if (comp_len > MG_STREAM_MAX_BLOCK || raw_len >
		    MG_STREAM_MAX_BLOCK)
			return mg_diag_set(d, MG_ECORRUPT, "block %u: "
			    "impossible length", r->block_no);
		r->comp.len = 0;
		if (buf_reserve(&r->comp, comp_len) != 0 ||
		    buf_reserve(&r->raw, raw_len + 1) != 0)
			return mg_diag_set(d, MG_ENOMEM, "out of memory");
		if ((rv = read_exact(r, r->comp.p, comp_len, NULL)) != 0)
			goto io;
		crc = (uint32_t)crc32(0, h, 13);
		crc = (uint32_t)crc32(crc, r->comp.p, (uInt)comp_len);
		if (crc != (uint32_t)get_le(h + 13, 4))
			return mg_diag_set(d, MG_ECHECKSUM, "block %u: CRC32 "
			    "mismatch", r->block_no);
		{
			/* exactly raw_len bytes from exactly comp_len */
			size_t in = 0, got = 0;

			if (libdeflate_zlib_decompress_ex(r->ld, r->comp.p,
			    comp_len, r->raw.p, raw_len, &in, &got) !=
			    LIBDEFLATE_SUCCESS || got != raw_len ||
			    in != comp_len)
				return mg_diag_set(d, MG_ECORRUPT, "block %u: "
				    "bad compressed data", r->block_no);
		}
		r->raw.len = raw_len;
		r->nrec = (uint32_t)nrec;
		r->rec = 0;
		r->seg_blocks++;
		if (nrec == 0)
			return mg_diag_set(d, MG_ECORRUPT, "block %u: no "
			    "records", r->block_no);
		if (set_columns(r) != 0)
			return mg_diag_set(d, MG_ECORRUPT, "block %u: bad "
			    "column table", r->block_no);
		return 1;
	}
io:
	if (rv == MG_ETRUNC)
		return mg_diag_set(d, rv, "stream cut short after %llu records"
		    " (no trailer; did the producer die?)",
		    (unsigned long long)r->total);
	return mg_diag_set(d, rv, "read error: %s", strerror(errno));
}


/* decode one record at c into v; 0 or -1 if malformed */
static int
decode(struct cursor *c, const struct mg_field *f, size_t n,
    struct mg_value *v)
{
	size_t i, nb = (n + 7) / 8;
	const unsigned char *bits;
	uint64_t u;

	if ((size_t)(c->end - c->p) < nb)
		return -1;
	bits = c->p;
	c->p += nb;
	for (i = 0; i < n; i++) {
		v[i].null = (bits[i / 8] >> (i % 8)) & 1;
		if (v[i].null)
			continue;
		switch (f[i].type) {
		case MG_T_I64:
			if (get_varint(c, &u) != 0)
				return -1;
			v[i].i = (int64_t)((u >> 1) ^ (0 - (u & 1)));
			break;
		case MG_T_F64:
			if (cur_le(c, 8, &u) != 0)
				return -1;
			memcpy(&v[i].f, &u, 8);
			break;
		case MG_T_STR:
			if (get_varint(c, &u) != 0 ||
			    (uint64_t)(c->end - c->p) < u)
				return -1;
			v[i].s = (const char *)c->p;
			v[i].len = (size_t)u;
			c->p += u;
			break;
		}
	}
	return 0;
}

int
mg_reader_next(struct mg_reader *r, const struct mg_value **vals,
    struct mg_diag *d)
{
	const struct mg_field *f = r->info.schema.fields;
	size_t i, n = r->info.schema.nfields;
	struct mg_value *v = r->vals;
	struct column *col;
	struct cursor c;
	uint64_t u;
	int rv;

	if (r->done)
		return 0;
	if (r->rec == r->nrec) {
		for (i = 0; i < n && r->nrec > 0; i++)
			if (r->col[i].p != r->col[i].end)
				return mg_diag_set(d, MG_ECORRUPT, "block %u: "
				    "column '%s' has bytes after the last "
				    "record", r->block_no, f[i].name);
		if ((rv = read_block(r, d)) <= 0)
			return rv;
	}
	for (i = 0; i < n; i++) {
		col = &r->col[i];
		v[i].null = (col->bits[r->rec / 8] >> (r->rec % 8)) & 1;
		if (v[i].null)
			continue;
		c.p = col->p;
		c.end = col->end;
		switch (f[i].type) {
		case MG_T_I64:
			if (get_varint(&c, &u) != 0)
				goto bad;
			col->prev += (u >> 1) ^ (0 - (u & 1));
			v[i].i = (int64_t)col->prev;
			break;
		case MG_T_F64:
			if (cur_le(&c, 8, &u) != 0)
				goto bad;
			memcpy(&v[i].f, &u, 8);
			break;
		case MG_T_STR:
			if (get_varint(&c, &u) != 0 ||
			    (uint64_t)(c.end - c.p) < u)
				goto bad;
			v[i].s = (const char *)c.p;
			v[i].len = (size_t)u;
			c.p += u;
			break;
		}
		col->p = c.p;
	}
	r->rec++;
	r->seg_records++;
	r->total++;
	*vals = v;
	return 1;
bad:
	return mg_diag_set(d, MG_ECORRUPT, "block %u: record %llu, field '%s'"
	    " is malformed", r->block_no, (unsigned long long)r->total + 1,
	    f[i].name);
}

void
mg_reader_free(struct mg_reader *r)
{
	if (r == NULL)
		return;
	libdeflate_free_decompressor(r->ld);
	free(r->name);
	free(r->want_type);
	free(r->fields);
	free(r->hdr);
	free(r->vals);
	free(r->col);
	free(r->raw.p);
	free(r->comp.p);
	free(r);
}

/* ---- records kept in memory ------------------------------------------ */

/*
 * Records are kept as a varint length and the encoded record, in data
 * (in memory), or with a spill file in data as a write buffer whose
 * first byte is at file offset spilled; off[i] is record i's offset.
 * Reading a spilled file goes through win, a window of it at file
 * offset win_at that slides forward as the records are read in order.
 */
#define SPILL_BUF	(1u << 20)

struct mg_recbuf {
	const struct mg_schema *schema;
	enum mg_type *types;
	struct buf data, rec, win;
	uint64_t *off;
	size_t n, cap;
	struct mg_value *vals;
	int fd;			/* the spill file, or -1 */
	uint64_t spilled;	/* bytes written to it */
	uint64_t win_at;
};

int
mg_recbuf_new(const struct mg_schema *schema, struct mg_recbuf **out)
{
	struct mg_recbuf *rb;
	size_t i;

	*out = NULL;
	if ((rb = calloc(1, sizeof(*rb))) == NULL ||
	    (rb->types = calloc(schema->nfields, sizeof(*rb->types))) ==
	    NULL || (rb->vals = calloc(schema->nfields, sizeof(*rb->vals))) ==
	    NULL) {
		mg_recbuf_free(rb);
		return MG_ENOMEM;
	}
	rb->schema = schema;
	rb->fd = -1;
	for (i = 0; i < schema->nfields; i++)
		rb->types[i] = schema->fields[i].type;
	*out = rb;
	return 0;
}

int
mg_recbuf_spill(struct mg_recbuf *rb, int fd)
{
	if (rb->n > 0 || rb->fd >= 0 || fd < 0)
		return MG_EINVAL;
	rb->fd = fd;
	return 0;
}

/* write the buffer out to the spill file */
static int
spill(struct mg_recbuf *rb)
{
	size_t done = 0;
	ssize_t k;

	while (done < rb->data.len) {
		k = pwrite(rb->fd, rb->data.p + done, rb->data.len - done,
		    (off_t)(rb->spilled + done));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return MG_EIO;
		done += (size_t)k;
	}
	rb->spilled += done;
	rb->data.len = 0;
	return 0;
}

static int
recbuf_store(struct mg_recbuf *rb, size_t idx, const struct mg_value *vals)
{
	int rv;

	rb->rec.len = 0;
	if ((rv = encode(&rb->rec, rb->types, rb->schema->nfields, vals)))
		return rv;
	if (rb->fd >= 0 && rb->data.len > 0 && rb->data.len + rb->rec.len +
	    10 > SPILL_BUF && (rv = spill(rb)) != 0)
		return rv;
	if (buf_reserve(&rb->data, rb->rec.len + 10) != 0)
		return MG_ENOMEM;
	rb->off[idx] = rb->spilled + rb->data.len;
	put_varint(&rb->data, rb->rec.len);
	memcpy(rb->data.p + rb->data.len, rb->rec.p, rb->rec.len);
	rb->data.len += rb->rec.len;
	return 0;
}

int64_t
mg_recbuf_add(struct mg_recbuf *rb, const struct mg_value *vals)
{
	int rv;

	if (rb->n == rb->cap) {
		size_t cap = rb->cap ? rb->cap * 2 : 1024;
		uint64_t *o = realloc(rb->off, cap * sizeof(*o));

		if (o == NULL)
			return MG_ENOMEM;
		rb->off = o;
		rb->cap = cap;
	}
	if ((rv = recbuf_store(rb, rb->n, vals)) != 0)
		return rv;
	return (int64_t)rb->n++;
}

int
mg_recbuf_replace(struct mg_recbuf *rb, size_t idx,
    const struct mg_value *vals)
{
	if (idx >= rb->n)
		return MG_EINVAL;
	return recbuf_store(rb, idx, vals);
}

size_t
mg_recbuf_count(const struct mg_recbuf *rb)
{
	return rb->n;
}

/* read len bytes of the spill file at off into b (b->len = len) */
static int
spill_read(struct mg_recbuf *rb, uint64_t off, size_t len, struct buf *b)
{
	size_t done = 0;
	ssize_t k;

	b->len = 0;
	if (buf_reserve(b, len) != 0)
		return MG_ENOMEM;
	while (done < len) {
		k = pread(rb->fd, b->p + done, len - done, (off_t)(off + done));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return MG_EIO;
		if (k == 0)
			break;
		done += (size_t)k;
	}
	b->len = done;
	return 0;
}

int
mg_recbuf_get(struct mg_recbuf *rb, size_t idx, const struct mg_value **vals)
{
	struct cursor c;
	uint64_t at, len;
	int rv;

	if (idx >= rb->n)
		return MG_EINVAL;
	at = rb->off[idx];
	if (at >= rb->spilled) {		/* in memory */
		c.p = rb->data.p + (at - rb->spilled);
		c.end = rb->data.p + rb->data.len;
	} else if (at >= rb->win_at && at + 10 <= rb->win_at + rb->win.len) {
		c.p = rb->win.p + (at - rb->win_at);
		c.end = rb->win.p + rb->win.len;
	} else if (at >= rb->win_at + rb->win.len && at < rb->win_at +
	    rb->win.len + SPILL_BUF) {
		/* the next records in file order: slide the window on */
		if ((rv = spill_read(rb, at, SPILL_BUF, &rb->win)) != 0)
			return rv;
		rb->win_at = at;
		c.p = rb->win.p;
		c.end = rb->win.p + rb->win.len;
	} else {
		/* far away: the record alone */
		if ((rv = spill_read(rb, at, 10, &rb->rec)) != 0)
			return rv;
		c.p = rb->rec.p;
		c.end = rb->rec.p + rb->rec.len;
		if (get_varint(&c, &len) != 0 || len > MG_STREAM_MAX_BLOCK ||
		    (rv = spill_read(rb, at + (uint64_t)(c.p - rb->rec.p),
		    (size_t)len, &rb->rec)) != 0)
			return rv ? rv : MG_ECORRUPT;
		c.p = rb->rec.p;
		c.end = rb->rec.p + rb->rec.len;
		goto record;
	}
	if (get_varint(&c, &len) != 0)
		return MG_ECORRUPT;
	if ((uint64_t)(c.end - c.p) < len) {
		/* cut by the window's end: read it whole */
		if (at < rb->spilled && (rv = spill_read(rb, at, (size_t)len +
		    10, &rb->win)) == 0) {
			rb->win_at = at;
			c.p = rb->win.p;
			c.end = rb->win.p + rb->win.len;
			if (get_varint(&c, &len) != 0 ||
			    (uint64_t)(c.end - c.p) < len)
				return MG_ECORRUPT;
		} else
			return rv ? rv : MG_ECORRUPT;
	}
	c.end = c.p + len;
record:
	if (decode(&c, rb->schema->fields, rb->schema->nfields, rb->vals))
		return MG_ECORRUPT;
	*vals = rb->vals;
	return 0;
}

void
mg_recbuf_free(struct mg_recbuf *rb)
{
	if (rb == NULL)
		return;
	free(rb->types);
	free(rb->data.p);
	free(rb->rec.p);
	free(rb->win.p);
	free(rb->off);
	free(rb->vals);
	free(rb);
}
