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

#include "cluster/sim.h"
#include "cluster/slurmsim.h"
#include "cluster/loan.h"
#include "base/status.h"

#define MG_SIMCONF_MAXRESV	64

enum mg_simmode {
	MG_MODE_REFERENCE,
	MG_MODE_FAITHFUL
};

struct mg_simconf {
	enum mg_simmode mode;
	int64_t dep_gap;		/* DependencyFromTrace, seconds; 0: off */
	int64_t cap_window;		/* CapacityFromTrace, seconds; 0: off */
	int32_t cap_slack;		/* CapacitySlack, nodes */
	int gpus_per_node;		/* GpusPerNode; 0: not given */
	struct mg_simcfg ref;		/* reference mode */
	struct mg_slurmcfg slurm;	/* faithful mode */
	/*
	 * PartitionName= lines, matched to a trace's partitions later:
	 * `part_nodes` nodes; named by the hostlist part_hosts, or a count
	 * of their own if it is empty
	 */
	int nparts;
	char part_name[MG_SLURM_MAXPART][64];
	int32_t part_nodes[MG_SLURM_MAXPART];
	char part_hosts[MG_SLURM_MAXPART][256];
	double part_prio[MG_SLURM_MAXPART];	/* PriorityJobFactor */
	int part_tier[MG_SLURM_MAXPART];	/* PriorityTier */
	char node_names[4096];		/* NodeName= hostlists, by commas */
	/* ReservationName= lines: `resv_nodes` nodes out of [start, end) */
	int nresv;
	int64_t resv_start[MG_SIMCONF_MAXRESV], resv_end[MG_SIMCONF_MAXRESV];
	int32_t resv_nodes[MG_SIMCONF_MAXRESV];
	/* QOSName= lines, matched to a trace's QOS later */
	int nqos;
	char qos_name[MG_SLURM_MAXQOS][64];
	double qos_prio[MG_SLURM_MAXQOS];
	int qos_jobs[MG_SLURM_MAXQOS], qos_nodes[MG_SLURM_MAXQOS];
	char qos_preempt[MG_SLURM_MAXQOS][256];	/* Preempt=, by commas */
	char urgent_qos[64];	/* UrgentQOS: the urgent jobs' QOS; "" */
	/* preemption: the attributes drawn for the trace's jobs (dlattr.h)
	 * with this seed, those of a dlattrs stream taking precedence */
	uint64_t dl_seed;
	char dl_file[512];		/* DLAttrFile; "" if none */
	/* loaning: the inference pool's demand (loan.h), drawn or read
	 * from inf_file (requests per second when inf_capacity > 0);
	 * base, amp and noise < 0: their defaults for the pool's size */
	struct mg_loangen loangen;
	char inf_file[512];
	double inf_capacity;
	/* elastic jobs: the share of the trace's jobs, their speedup */
	double el_share, el_alpha;
	char el_file[512];		/* ElasticFile; "" if none */
	struct mg_eprofile el_prof;	/* ElasticProfile, read; n 0: none */
};

/*
 * mg_simconf_partitions: give the faithful model the configured
 * partitions in the order of the trace's names, and the pools of nodes
 * they share.  Returns 0, or MG_EINVAL with d naming a trace partition
 * that is not configured, or MG_ENOMEM.
 */
int mg_simconf_partitions(struct mg_simconf *c, char *const *names,
    size_t n, struct mg_diag *d);

/*
 * mg_simconf_qos: give the faithful model the configured QOS in the
 * order of the trace's names.  Returns 0, or MG_EINVAL.
 */
int mg_simconf_qos(struct mg_simconf *c, char *const *names, size_t n,
    struct mg_diag *d);

/* mg_simconf_init: reference mode on 88 nodes, Slurm's defaults. */
void mg_simconf_init(struct mg_simconf *c);

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

#endif /* MG_SIMCONF_H */
