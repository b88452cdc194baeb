/* t_stream.c: the record stream codec, byte by byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "mirage.h"
#include "tap.h"

static const struct mg_field fields[] = {
	{ "n", MG_T_I64 }, { "x", MG_T_F64 }, { "s", MG_T_STR },
};
static const struct mg_schema schema = { "test", 3, fields };
static const struct mg_field other_fields[] = {
	{ "n", MG_T_I64 }, { "x", MG_T_F64 },
};
static const struct mg_schema other = { "test", 2, other_fields };

/* the value of record i, field k */
static void
make(int64_t i, struct mg_value *v, char *sbuf)
{
	static const int64_t special[] = { 0, -1, 1, INT64_MIN, INT64_MAX,
	    127, 128, -129 };

	memset(v, 0, 3 * sizeof(*v));
	v[0].i = i < 8 ? special[i] : i * 7919 - 100000;
	v[1].f = (double)i / 3.0 - 5;
	v[0].null = i % 11 == 5;
	v[1].null = i % 13 == 6;
	snprintf(sbuf, 64, "r%lld\t\n\\%c", (long long)i, (char)(i % 256));
	v[2].s = sbuf;
	v[2].len = (size_t)(i % 17 == 3 ? 0 : strlen(sbuf) + 1);
}

static int
same(const struct mg_value *a, const struct mg_value *b)
{
	if (a[0].null != b[0].null || (!a[0].null && a[0].i != b[0].i))
		return 0;
	if (a[1].null != b[1].null || (!a[1].null &&
	    memcmp(&a[1].f, &b[1].f, 8) != 0))
		return 0;
	return a[2].len == b[2].len && memcmp(a[2].s, b[2].s, a[2].len) == 0;
}

static int wthreads = 1;	/* the writers' threads option */

/* write n records of sch with a small block size; caller frees *buf */
static size_t
write_stream(const struct mg_schema *sch, int n, char **buf, int major)
{
	struct mg_writer_opts o;
	struct mg_writer *w;
	struct mg_value v[3];
	char sbuf[64];
	size_t len;
	FILE *fp = open_memstream(buf, &len);
	int i;

	mg_writer_opts_init(&o);
	o.block_size = 200;
	o.threads = wthreads;
	o.seed = 42;
	o.args = "-x 1";
	if (mg_writer_open(fp, sch, &o, &w, NULL) != 0)
		abort();
	for (i = 0; i < n; i++) {
		make(i, v, sbuf);
		if (mg_writer_put(w, v, NULL) != 0)
			abort();
	}
	if (mg_writer_close(w, NULL) != 0)
		abort();
	fclose(fp);
	if (major) {
		/* rewrite the major version and fix the header CRC */
		unsigned char *p = (unsigned char *)*buf;
		uint32_t hlen = p[12] | p[13] << 8 | p[14] << 16 |
		    (uint32_t)p[15] << 24, crc;

		p[8] = (unsigned char)major;
		crc = (uint32_t)crc32(0, p, 16 + hlen - 4);
		memcpy(p + 16 + hlen - 4, (unsigned char[4]){ (unsigned char)crc,
		    (unsigned char)(crc >> 8), (unsigned char)(crc >> 16),
		    (unsigned char)(crc >> 24) }, 4);
	}
	return len;
}

/* read everything; the status, and the records compared with make() */
static int
read_all(const char *buf, size_t len, const char *type, int *nrec,
    int *allsame, struct mg_diag *d)
{
	struct mg_reader *r;
	const struct mg_value *v;
	struct mg_value want[3];
	char sbuf[64];
	FILE *fp = fmemopen((void *)buf, len ? len : 1, "rb");
	int rv, i = 0;

	*allsame = 1;
	if (len == 0) {
		/* fmemopen cannot open an empty buffer */
		fclose(fp);
		fp = fopen("/dev/null", "rb");
	}
	rv = mg_reader_open(fp, "mem", type, &r, d);
	if (rv == 0) {
		while ((rv = mg_reader_next(r, &v, d)) == 1) {
			make(i % 1000, want, sbuf);
			if (!same(v, want))
				*allsame = 0;
			i++;
		}
		mg_reader_free(r);
	}
	fclose(fp);
	*nrec = i;
	return rv;
}

int
main(void)
{
	struct mg_diag d;
	char *a, *b, *cat, *v2;
	size_t la, lb, lv, cut, k;
	int n, same_all, rv, bad;
	struct mg_reader *r;
	FILE *fp;

	la = write_stream(&schema, 1000, &a, 0);
	rv = read_all(a, la, "test", &n, &same_all, &d);
	ok(rv == 0 && n == 1000 && same_all, "round trip of 1000 records "
	    "over many blocks (rv %d, n %d)", rv, n);

	fp = fmemopen(a, la, "rb");
	rv = mg_reader_open(fp, "mem", NULL, &r, &d);
	ok(rv == 0 && mg_reader_info(r)->seed == 42 &&
	    strcmp(mg_reader_info(r)->args, "-x 1") == 0 &&
	    mg_reader_info(r)->schema.nfields == 3 &&
	    strcmp(mg_reader_info(r)->schema.fields[2].name, "s") == 0,
	    "header keeps seed, arguments and schema");
	mg_reader_free(r);
	fclose(fp);

	lb = write_stream(&schema, 1000, &b, 0);
	cat = malloc(la + lb);
	memcpy(cat, a, la);
	memcpy(cat + la, b, lb);
	rv = read_all(cat, la + lb, "test", &n, &same_all, &d);
	ok(rv == 0 && n == 2000 && same_all, "concatenated streams read as "
	    "one (n %d)", n);

	bad = 0;
	for (cut = 0; cut < la; cut++) {
		rv = read_all(a, cut, "test", &n, &same_all, &d);
		if (rv != MG_ETRUNC)
			bad++;
	}
	ok(bad == 0, "cut at each of %zu bytes: truncated every time (%d "
	    "misses)", la, bad);
	rv = read_all(cat, la + 10, "test", &n, &same_all, &d);
	ok(rv == MG_ETRUNC, "second stream cut inside its header: truncated");

	bad = 0;
	for (k = 0; k < la; k++) {
		a[k] ^= 0x10;
		rv = read_all(a, la, "test", &n, &same_all, &d);
		if (rv >= 0 && (n != 1000 || !same_all))
			bad++;
		if (rv >= 0)
			bad++;
		a[k] ^= 0x10;
	}
	ok(bad == 0, "flip one bit in each of %zu bytes: always an error "
	    "(%d misses)", la, bad);
	a[30] ^= 1;
	rv = read_all(a, la, "test", &n, &same_all, &d);
	ok(rv == MG_ECHECKSUM, "flipped header byte: checksum error (%d %s)",
	    rv, d.msg);
	a[30] ^= 1;
	a[la - 30] ^= 1;
	rv = read_all(a, la, "test", &n, &same_all, &d);
	ok(rv == MG_ECHECKSUM && strstr(d.msg, "block") != NULL,
	    "flipped block byte: checksum error naming the block (%s)", d.msg);
	a[la - 30] ^= 1;
	a[0] = 'x';
	rv = read_all(a, la, "test", &n, &same_all, &d);
	ok(rv == MG_ECORRUPT && strstr(d.msg, "magic"), "bad magic (%s)",
	    d.msg);
	a[0] = (char)0x89;

	lv = write_stream(&schema, 10, &v2, 2);
	rv = read_all(v2, lv, "test", &n, &same_all, &d);
	ok(rv == MG_EVERSION && mg_exit_status(rv) == 3,
	    "newer major version: rejected with exit 3 (%s)", d.msg);
	free(v2);

	rv = read_all(a, la, "jobs", &n, &same_all, &d);
	ok(rv == MG_ETYPE && mg_exit_status(rv) == 6,
	    "wrong record type: rejected (%s)", d.msg);

	lv = write_stream(&other, 10, &v2, 0);
	memcpy(cat + la, v2, lv);
	rv = read_all(cat, la + lv, "test", &n, &same_all, &d);
	ok(rv == MG_ETYPE, "concatenated stream of another schema (%s)",
	    d.msg);
	free(v2);

	rv = read_all(a, 0, NULL, &n, &same_all, &d);
	ok(rv == MG_ETRUNC, "empty input is a truncated stream");

	memcpy(cat, a, la);
	memcpy(cat + la, "garbage!", 8);
	rv = read_all(cat, la + 8, "test", &n, &same_all, &d);
	ok(rv == MG_ECORRUPT, "garbage after a complete stream (%s)", d.msg);

	{
		struct mg_recbuf *rb;
		const struct mg_value *v;
		struct mg_value want[3];
		char sbuf[64];
		int i, good = 1;

		ok(mg_recbuf_new(&schema, &rb) == 0, "recbuf created");
		for (i = 0; i < 500; i++) {
			make(i, want, sbuf);
			if (mg_recbuf_add(rb, want) != i)
				good = 0;
		}
		make(499, want, sbuf);
		mg_recbuf_replace(rb, 7, want);
		for (i = 0; i < 500; i++) {
			make(i == 7 ? 499 : i, want, sbuf);
			if (mg_recbuf_get(rb, (size_t)i, &v) != 0 ||
			    !same(v, want))
				good = 0;
		}
		ok(good && mg_recbuf_count(rb) == 500, "recbuf keeps, "
		    "replaces and returns records");
		mg_recbuf_free(rb);
	}
	{
		/* the spill file: more than its 1 MiB buffer, records
		 * replaced, read in order and out of it */
		struct mg_recbuf *rb;
		const struct mg_value *v;
		struct mg_value want[3];
		char sbuf[64];
		FILE *tf = tmpfile();
		int i, good = 1;

		ok(tf != NULL && mg_recbuf_new(&schema, &rb) == 0 &&
		    mg_recbuf_spill(rb, fileno(tf)) == 0, "recbuf spills");
		for (i = 0; i < 60000; i++) {
			make(i, want, sbuf);
			if (mg_recbuf_add(rb, want) != i)
				good = 0;
			/* a later record replaces an early one now and then */
			if (i % 997 == 996) {
				make(i + 1000000, want, sbuf);
				if (mg_recbuf_replace(rb, (size_t)(i / 2),
				    want) != 0)
					good = 0;
			}
		}
		for (i = 0; i < 60000; i++) {
			int src = i, q;

			for (q = 996; q < 60000; q += 997)
				if (q / 2 == i)
					src = q + 1000000;
			make(src, want, sbuf);
			if (mg_recbuf_get(rb, (size_t)i, &v) != 0 ||
			    !same(v, want))
				good = 0;
		}
		for (i = 59999; i >= 0; i -= 7919) {
			make(i, want, sbuf);
			if (i % 997 != 498 && (mg_recbuf_get(rb, (size_t)i,
			    &v) != 0 || !same(v, want)))
				good = 0;
		}
		ok(good, "spilled records come back, in order and out of it, "
		    "replaced ones as replaced");
		mg_recbuf_free(rb);
		fclose(tf);
	}
	{
		/* a second thread deflates: the same bytes; its write error
		 * is the caller's */
		char *t1, *t2;
		size_t l1, l2;
		struct mg_writer_opts o;
		struct mg_writer *w;
		struct mg_value v[3];
		struct mg_diag dd = { 0 };
		char sbuf[64];
		FILE *full = fopen("/dev/full", "w");
		int i, st = 0;

		wthreads = 1;
		l1 = write_stream(&schema, 3000, &t1, 0);
		wthreads = 2;
		l2 = write_stream(&schema, 3000, &t2, 0);
		wthreads = 1;
		ok(l1 == l2 && memcmp(t1, t2, l1) == 0, "deflating on a second "
		    "thread writes the same %zu bytes (%zu)", l1, l2);
		free(t1);
		free(t2);
		mg_writer_opts_init(&o);
		o.block_size = 200;
		o.threads = 2;
		if (full != NULL && mg_writer_open(full, &schema, &o, &w,
		    &dd) == 0) {
			for (i = 0; i < 20000 && st == 0; i++) {
				make(i, v, sbuf);
				st = mg_writer_put(w, v, &dd);
			}
			if (st == 0)
				st = mg_writer_close(w, &dd);
			else
				mg_writer_free(w);
		}
		ok(full != NULL && st == MG_EIO && strstr(dd.msg, "write "
		    "error") != NULL, "a write error on the thread is "
		    "returned (%s)", dd.msg);
		if (full != NULL)
			fclose(full);
	}
	free(a);
	free(b);
	free(cat);
	return tap_done();
}
