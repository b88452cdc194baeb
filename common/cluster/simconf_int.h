/*
 * simconf_int.h: the cluster model's settings as cluster/ reads them
 * (simconf.h is what the rest of the library and the tools see).
 */
#ifndef MG_SIMCONF_INT_H
#define MG_SIMCONF_INT_H

#include "cluster/simconf.h"
#include "cluster/sim.h"
#include "cluster/slurmsim.h"
#include "cluster/loan.h"

#define MG_SIMCONF_MAXRESV	64

struct mg_simconf {
	enum mg_simmode mode;
	int64_t dep_gap;		/* DependencyFromTrace, seconds; 0: off */
	int64_t cap_window;		/* CapacityFromTrace, seconds; 0: off */
	int32_t cap_slack;		/* CapacitySlack, nodes */
	int gpus_per_node;		/* GpusPerNode; 0: not given */
	struct mg_sim_params ref;		/* reference mode */
	struct mg_slurmsim_params slurm;	/* faithful mode */
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

/* mg_simconf_init: reference mode on 88 nodes, Slurm's defaults. */
void mg_simconf_init(struct mg_simconf *c);

/* mg_simconf_dup: a copy of c on the heap, or NULL */
struct mg_simconf *mg_simconf_dup(const struct mg_simconf *c);

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

#endif /* MG_SIMCONF_INT_H */
