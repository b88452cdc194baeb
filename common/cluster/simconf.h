/*
 * simconf.h: the cluster model's settings: slurm.conf's own keys and
 * units, one Key=Value per line, '#' comments, read from a file or set
 * one by one.  The keys, their bounds, defaults and meaning are one
 * table in simconf.c (mg_simconf_setting() lists it; mirage-cluster(5)
 * describes each, and a test keeps the two the same).  Keys of
 * slurm.conf that the model does not use are ignored; unknown keys are
 * errors, so a typo is not silently dropped.
 */
#ifndef MG_SIMCONF_H
#define MG_SIMCONF_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

enum mg_simmode {
	MG_MODE_REFERENCE,
	MG_MODE_FAITHFUL
};

/* the settings, opaque above cluster/ (simconf_int.h) */
struct mg_simconf;

/*
 * mg_simconf_new: reference mode on 88 nodes, Slurm's defaults, into
 * *out; 0 or MG_ENOMEM.  mg_simconf_free() frees it (NULL is fine).
 */
int mg_simconf_new(struct mg_simconf **out);
void mg_simconf_free(struct mg_simconf *c);

/*
 * mg_simconf_set: apply one "Key=Value" setting (also from a command
 * line).  Returns 0, or MG_EINVAL with d set.
 */
int mg_simconf_set(struct mg_simconf *c, const char *kv, struct mg_diag *d);

/*
 * mg_simconf_load: apply every line of the file at path.  Returns 0, or
 * MG_EIO / MG_EINVAL with d naming the line.
 */
int mg_simconf_load(struct mg_simconf *c, const char *path,
    struct mg_diag *d);

/*
 * mg_simconf_option: the settings every command that runs the model
 * takes, by name: "config" (a file), "mode" (Mode=), "nodes" (Nodes=),
 * "set" (any Key=Value), applied in the order given.  Returns 0, or
 * MG_EINVAL / MG_EIO with d set.
 */
int mg_simconf_option(struct mg_simconf *c, const char *name,
    const char *arg, struct mg_diag *d);

/*
 * mg_simconf_settings, mg_simconf_setting: the settings mg_simconf_set()
 * takes: how many, and the name of the i-th (NULL past the last), its
 * default as it is written (*dflt; NULL when it has none or it depends
 * on the mode) and a line of what it sets (*doc).
 */
size_t mg_simconf_settings(void);
const char *mg_simconf_setting(size_t i, const char **dflt,
    const char **doc);

/* ---- what the tools and layers read of it -------------------------- */

enum mg_simmode mg_simconf_mode(const struct mg_simconf *c);

/* mg_simconf_nodes: the cluster's nodes in its mode */
int32_t mg_simconf_nodes(const struct mg_simconf *c);

/*
 * mg_simconf_partition: the nodes of the configured partition name and
 * its hostlist (into hosts[0..cap), "" when it has none); 0, or -1 if
 * no partition has that name.
 */
int mg_simconf_partition(const struct mg_simconf *c, const char *name,
    int32_t *nodes, char *hosts, size_t cap);

/* mg_simconf_user_limits: the running jobs and nodes a user may hold,
 * as configured (0: no limit); the faithful model keeps them */
void mg_simconf_user_limits(const struct mg_simconf *c, int *jobs,
    int *nodes);

/* mg_simconf_gpus_per_node: GpusPerNode, 0 if not given */
int mg_simconf_gpus_per_node(const struct mg_simconf *c);

/* mg_simconf_preempts: faithful mode with a PreemptMode; with its name
 * and the VictimPolicy's into *mode and *victims (either may be NULL) */
int mg_simconf_preempts(const struct mg_simconf *c, const char **mode,
    const char **victims);

/* mg_simconf_loans: the inference pool's nodes lent from (faithful mode,
 * InferenceNodes; 0: no loaning), its ReclaimPolicy's name into
 * *reclaim (may be NULL) */
int32_t mg_simconf_loans(const struct mg_simconf *c, const char **reclaim);

/* mg_simconf_dl_seed: DLAttrSeed, the seed of the attributes drawn */
uint64_t mg_simconf_dl_seed(const struct mg_simconf *c);

#endif /* MG_SIMCONF_H */
