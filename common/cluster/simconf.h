/*
 * simconf.h: the cluster model's configuration file: slurm.conf's own
 * keys and units, one Key=Value per line, '#' comments.  Known keys:
 *
 *   Mode=reference|faithful        which model (ours)
 *   Nodes=N                        whole nodes (ours; slurm.conf counts
 *                                  them from NodeName lines)
 *   GpusPerNode=G                  GPUs of a node (slurm.conf's Gres=gpu:G),
 *                                  to turn GPU requests into whole nodes
 *   PriorityWeightAge=, PriorityWeightJobSize=
 *   PriorityMaxAge=D-HH or minutes
 *   PriorityWeightFairshare=, PriorityDecayHalfLife=D-HH or minutes
 *                                  faithful: classic fair-share, equal
 *                                  shares per user
 *   FairshareBy=user|account|tree  faithful: equal shares per user (the
 *                                  default) or per account, charged
 *                                  with all its jobs, or Slurm's Fair
 *                                  Tree over accounts and their users
 *                                  (ours)
 *   PriorityWeightTrace=W          faithful: add W x the priority recorded
 *                                  in the trace (ours)
 *   MaxJobsPerUser=N               faithful: running jobs per user (a QOS
 *                                  or association limit in Slurm)
 *   MaxNodesPerUser=N              faithful: nodes per user's running
 *                                  jobs (MaxTRESPerUser=node=N)
 *   DependencyFromTrace=S          faithful: infer a dependency where a
 *                                  job that waited started within S
 *                                  seconds of the end of its user's
 *                                  previous job (ours; 0: off)
 *   CapacityFromTrace=S            faithful: in each window of S seconds
 *                                  that a job waited through, limit the
 *                                  nodes to what the real jobs held
 *                                  (ours; 0: off)
 *   CapacitySlack=N                ... plus N nodes (ours; default 0)
 *   PriorityWeightQOS=W            faithful: W x the job's QOS priority
 *                                  over the largest QOS priority
 *   QOSName=NAME Priority=P MaxJobsPerUser=N MaxNodesPerUser=N
 *                                  faithful: a QOS as sacctmgr shows it
 *                                  (MaxTRESPerUser=node=N is also read);
 *                                  the trace's QOS column names it; a QOS
 *                                  not configured has priority 0, no
 *                                  limits (ours: sacctmgr's, in a file)
 *   NodeName=HOSTLIST              faithful: nodes by name, in slurm.conf's
 *                                  order (a hostlist such as gpu[001-084],
 *                                  other keys of the line are ignored)
 *   PartitionName=NAME Nodes=N     faithful: a partition of N nodes of
 *                                  its own
 *   PartitionName=NAME Nodes=HOSTLIST|ALL
 *                                  faithful: a partition of these nodes,
 *                                  which other partitions may share;
 *                                  PriorityJobFactor=N (or Priority=N)
 *                                  gives its priority; other keys of the
 *                                  line are ignored
 *   PriorityWeightPartition=W      faithful: W x the job's partition's
 *                                  PriorityJobFactor over the largest
 *   ReservationName=NAME StartTime=T EndTime=T|Duration=D
 *       NodeCnt=N|Nodes=HOSTLIST|ALL
 *                                  faithful: N nodes out of service from
 *                                  T (as the trace's times) for D
 *                                  (maintenance; scontrol's syntax, the
 *                                  line scontrol show reservation prints
 *                                  works; other keys are ignored); on a
 *                                  cluster of one pool of nodes
 *   SchedulerParameters=bf_interval=S,bf_resolution=S,bf_window=MIN,
 *                       bf_max_job_test=N,sched_interval=S,
 *                       default_queue_depth=N
 *
 * Keys of slurm.conf that the model does not use are ignored; unknown
 * keys are errors, so a typo is not silently dropped.
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
