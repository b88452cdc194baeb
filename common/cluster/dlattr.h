/*
 * dlattr.h: what preempting a deep-learning job costs, per job.
 *
 * sacct knows nothing of a job's epochs or checkpoints, so a seeded
 * generator draws them as a side stream keyed by JobID (record type
 * "dlattrs", mirage-stream(5)); a site with real values writes the same
 * stream.  The trace itself is never changed.
 *
 * A job's attributes: its epoch time at its size, the checkpoint it
 * writes when preempted, the model and the data cache it reloads when it
 * resumes, a fixed start-up time, and its class (urgent or best-effort).
 * The generator draws a model family from a table of published profiles
 * (sizes of ResNet-50, BERT-large, GPT-2 XL and a small CIFAR network:
 * parameters x 4 bytes, checkpoints with Adam's two moments, typical
 * data sets), and the epoch time log-uniformly over [epoch_min,
 * epoch_max] (1 to 60 minutes: a coefficient of variation of about 1.1)
 * or, with equal overheads, the geometric mean for every job.  The class
 * is urgent with probability urgent_share.  The constants are
 * illustrative, not measured on LS6.
 *
 * The overheads (PickyMan's model, other-seeds.md 3.2), for a job that
 * has run `ran` seconds since it last (re)started and has `left` seconds
 * of work left:
 *   release = min(left, (1 - phi) * epoch + ckpt / bw_store),
 *             phi = the share of the current epoch done;
 *   resume  = model / bw_store + data / bw_net + init.
 */
#ifndef MG_DLATTR_H
#define MG_DLATTR_H

#include <stddef.h>
#include <stdint.h>

#include "io/stream.h"

struct mg_dlattr {
	double epoch_s;		/* one epoch, seconds */
	double ckpt_mb;		/* written on preemption */
	double model_mb;	/* reloaded on resume */
	double data_mb;		/* data cache reloaded on resume */
	double init_s;		/* start-up, seconds */
	int urgent;		/* 1: urgent, 0: best-effort */
};

struct mg_dlgen {
	double epoch_min, epoch_max;	/* seconds: 60, 3600 */
	int equal;		/* every job the same epoch time and family */
	double urgent_share;	/* 0.1 */
	double bw_store;	/* MB/s to and from shared storage: 1000 */
	double bw_net;		/* MB/s for the data cache: 2000 */
};

/* mg_dlgen_default: the defaults above. */
void mg_dlgen_default(struct mg_dlgen *g);

/*
 * mg_dlattr_draw: job id's attributes, a function of (seed, id) alone:
 * the same job gets the same attributes whatever else the trace holds.
 */
void mg_dlattr_draw(const struct mg_dlgen *g, uint64_t seed, const char *id,
    size_t idlen, struct mg_dlattr *a);

/* mg_dlattr_release_time, mg_dlattr_resume_time: the overheads above,
 * seconds */
double mg_dlattr_release_time(const struct mg_dlattr *a,
    const struct mg_dlgen *g, double ran, double left);
double mg_dlattr_resume_time(const struct mg_dlattr *a,
    const struct mg_dlgen *g);

/* the fields of a dlattrs record */
enum mg_dlattr_field {
	MG_DL_JOBID,		/* str */
	MG_DL_CLASS,		/* str: "urgent" or "best-effort" */
	MG_DL_EPOCH_S,		/* f64 */
	MG_DL_CKPT_MB,		/* f64 */
	MG_DL_MODEL_MB,		/* f64 */
	MG_DL_DATA_MB,		/* f64 */
	MG_DL_INIT_S,		/* f64 */
	MG_DL_NFIELDS
};

/* mg_dlattr_schema: the schema of a dlattrs stream. */
const struct mg_schema *mg_dlattr_schema(void);

/*
 * mg_dlattr_to_record, mg_dlattr_from_record: one record, its job id
 * borrowed.  from_record returns 0, or -1 for a record whose class is
 * neither, whose numbers are null, negative or not finite, or whose
 * epoch is 0 (msg, if not NULL, says which field).
 */
void mg_dlattr_to_record(const struct mg_dlattr *a, const char *id,
    size_t idlen, struct mg_value *rec);
int mg_dlattr_from_record(const struct mg_value *rec, struct mg_dlattr *a,
    const char **msg);

#endif /* MG_DLATTR_H */
