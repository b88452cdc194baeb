/*
 * dedup.c: the last record of each job wins; see dedup.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "io/dedup.h"
#include "io/job.h"

struct mg_dedup {
	struct mg_recbuf *rb;	/* the later records */
	uint32_t (*rep)[2];	/* (record, its later record in rb) */
	size_t nrep, caprep;
	/* JobIDs that are plain numbers, in increasing order as sacct
	 * writes them: the number's halves and the record */
	uint32_t (*seq)[3];
	size_t nseq, capseq;
	/* the other JobIDs, open addressing: the hash's halves, the
	 * record + 1 (0: a free slot) and the id's place in ids */
	uint32_t (*slot)[4];
	size_t hcap, hn;
	char *ids;		/* 2-byte length and bytes, each */
	size_t nids, capids;
};

int
mg_dedup_new(int spill_fd, struct mg_dedup **out)
{
	struct mg_dedup *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (c == NULL || mg_recbuf_new(mg_job_schema(), &c->rb) != 0) {
		free(c);
		return MG_ENOMEM;
	}
	if (spill_fd >= 0 && mg_recbuf_spill(c->rb, spill_fd) != 0) {
		mg_dedup_free(c);
		return MG_EIO;
	}
	*out = c;
	return 0;
}

void
mg_dedup_free(struct mg_dedup *c)
{
	if (c == NULL)
		return;
	mg_recbuf_free(c->rb);
	free(c->rep);
	free(c->seq);
	free(c->slot);
	free(c->ids);
	free(c);
}

static uint64_t
hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static int
grow(struct mg_dedup *c)
{
	size_t i, j, cap = c->hcap ? c->hcap * 2 : 4096;
	uint32_t (*k)[4] = calloc(cap, sizeof(*k));

	if (k == NULL)
		return MG_ENOMEM;
	for (i = 0; i < c->hcap; i++) {
		if (c->slot[i][2] == 0)
			continue;
		for (j = c->slot[i][0] & (cap - 1); k[j][2]; j = (j + 1) &
		    (cap - 1))
			;
		memcpy(k[j], c->slot[i], sizeof(k[j]));
	}
	free(c->slot);
	c->slot = k;
	c->hcap = cap;
	return 0;
}

/* record rec's JobID came again: keep job to take its place */
static int
replace(struct mg_dedup *c, uint32_t rec, const struct mg_value *job)
{
	int64_t idx;

	if (mg_grow((void **)&c->rep, &c->caprep, c->nrep + 1,
	    sizeof(*c->rep)))
		return MG_ENOMEM;
	if ((idx = mg_recbuf_add(c->rb, job)) < 0)
		return (int)idx;
	if (idx >= UINT32_MAX)
		return MG_ENOMEM;
	c->rep[c->nrep][0] = rec;
	c->rep[c->nrep++][1] = (uint32_t)idx;
	return 1;
}

int
mg_dedup_add(struct mg_dedup *c, const struct mg_value *job, uint64_t rec)
{
	const struct mg_value *id = &job[MG_JOB_JOBID];
	uint64_t h, num = 0;
	uint32_t lo, hi;
	size_t j, a, b;
	int rv, plain = id->len > 0 && id->len < 20 && (id->s[0] != '0' ||
	    id->len == 1);

	if (rec >= UINT32_MAX || id->len > 65535)
		return MG_ENOMEM;
	/* a plain number above every one before: new */
	for (j = 0; plain && j < id->len; j++) {
		if (id->s[j] < '0' || id->s[j] > '9')
			plain = 0;
		num = num * 10 + (uint64_t)(id->s[j] - '0');
	}
	if (plain && (c->nseq == 0 || num > ((uint64_t)c->seq[c->nseq -
	    1][1] << 32 | c->seq[c->nseq - 1][0]))) {
		if (mg_grow((void **)&c->seq, &c->capseq, c->nseq + 1,
		    sizeof(*c->seq)))
			return MG_ENOMEM;
		c->seq[c->nseq][0] = (uint32_t)num;
		c->seq[c->nseq][1] = (uint32_t)(num >> 32);
		c->seq[c->nseq++][2] = (uint32_t)rec;
		return 0;
	}
	/* a plain number seen in order before */
	for (a = 0, b = c->nseq; plain && a < b; ) {
		uint64_t k;

		j = a + (b - a) / 2;
		k = (uint64_t)c->seq[j][1] << 32 | c->seq[j][0];
		if (k == num)
			return replace(c, c->seq[j][2], job);
		if (k < num)
			a = j + 1;
		else
			b = j;
	}
	/* any other: the table */
	h = hash(id->s, id->len);
	lo = (uint32_t)h;
	hi = (uint32_t)(h >> 32);
	if ((c->hn + 1) * 10 > c->hcap * 7 && (rv = grow(c)) != 0)
		return rv;
	for (j = lo & (c->hcap - 1); c->slot[j][2]; j = (j + 1) &
	    (c->hcap - 1)) {
		const unsigned char *q = (const unsigned char *)c->ids +
		    c->slot[j][3];

		if (c->slot[j][0] == lo && c->slot[j][1] == hi &&
		    (size_t)(q[0] | q[1] << 8) == id->len &&
		    memcmp(q + 2, id->s, id->len) == 0)
			return replace(c, c->slot[j][2] - 1, job);
	}
	if (c->nids + id->len + 2 > UINT32_MAX ||
	    mg_grow((void **)&c->ids, &c->capids, c->nids + id->len + 2, 1))
		return MG_ENOMEM;
	c->slot[j][0] = lo;
	c->slot[j][1] = hi;
	c->slot[j][2] = (uint32_t)rec + 1;
	c->slot[j][3] = (uint32_t)c->nids;
	c->ids[c->nids] = (char)(id->len & 0xff);
	c->ids[c->nids + 1] = (char)(id->len >> 8);
	memcpy(c->ids + c->nids + 2, id->s, id->len);
	c->nids += id->len + 2;
	c->hn++;
	return 0;
}

static int
rep_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

int
mg_dedup_copy(struct mg_dedup *c, FILE *in, FILE *fp,
    const struct mg_writer_opts *wo, struct mg_diag *d)
{
	struct mg_reader *r = NULL;
	struct mg_writer *w = NULL;
	const struct mg_value *v;
	char buf[1 << 16];
	uint64_t rec;
	size_t n, k = 0;
	int rv;

	if (c->nrep == 0) {		/* nothing came again: as it is */
		rv = 0;
		while (rv == 0 && (n = fread(buf, 1, sizeof(buf), in)) > 0)
			if (fwrite(buf, 1, n, fp) != n)
				rv = mg_diag_set(d, MG_EIO, "write "
				    "error: %s", strerror(errno));
		if (rv == 0 && ferror(in))
			rv = mg_diag_set(d, MG_EIO, "the temporary "
			    "stream: read error");
		if (rv == 0 && fflush(fp) != 0)
			rv = mg_diag_set(d, MG_EIO, "write error: %s",
			    strerror(errno));
		goto out;
	}
	qsort(c->rep, c->nrep, sizeof(*c->rep), rep_cmp);
	if ((rv = mg_reader_open(in, "the temporary stream", "jobs", &r,
	    d)) != 0 || (rv = mg_writer_open(fp, mg_job_schema(), wo,
	    &w, d)) != 0)
		goto out;
	for (rec = 0; (rv = mg_reader_next(r, &v, d)) == 1; rec++) {
		while (k < c->nrep && c->rep[k][0] < rec)
			k++;
		/* its last record: the last of its replacements */
		for (; k < c->nrep && c->rep[k][0] == rec; k++)
			if ((k + 1 == c->nrep || c->rep[k + 1][0] != rec) &&
			    (rv = mg_recbuf_get(c->rb, c->rep[k][1], &v)) != 0) {
				mg_diag_set(d, rv, "the temporary "
				    "records: %s", mg_strerror(rv));
				goto out;
			}
		if ((rv = mg_writer_put(w, v, d)) != 0)
			goto out;
	}
	if (rv == 0) {
		rv = mg_writer_close(w, d);
		w = NULL;
	}
out:
	mg_reader_free(r);
	mg_writer_free(w);
	return rv;
}

