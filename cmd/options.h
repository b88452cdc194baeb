/*
 * options.h: the option groups the tools share, in getopt_long's terms,
 * and their dispatch to the library's settings, which take names: the
 * cluster model (-c -m -n -s; mirage-cluster(5)) and the episodes (-f -N
 * -u -e -k -g -w and long-only ones; mirage-features(1)).
 */
#ifndef MIRAGE_OPTIONS_H
#define MIRAGE_OPTIONS_H

#include <getopt.h>

#include "mirage.h"
#include "cluster/cluster.h"
#include "cluster/simconf.h"
#include "episode/episode.h"
#include "plan/plan.h"
#include "base/cli.h"

#define CLUSTER_SHORTOPTS "c:m:n:s:"
#define CLUSTER_LONGOPTS \
	{ "config", required_argument, NULL, 'c' }, \
	{ "mode", required_argument, NULL, 'm' }, \
	{ "nodes", required_argument, NULL, 'n' }, \
	{ "set", required_argument, NULL, 's' }

enum {
	OPT_CHAIN = 300, OPT_WORKLOAD, OPT_WARMUP, OPT_LIMIT, OPT_PRUN,
	OPT_SHARD
};

#define EPISODE_SHORTOPTS "f:N:u:e:k:g:w:"
#define EPISODE_LONGOPTS \
	{ "from", required_argument, NULL, 'f' }, \
	{ "count", required_argument, NULL, 'N' }, \
	{ "until", required_argument, NULL, 'u' }, \
	{ "every", required_argument, NULL, 'e' }, \
	{ "sizes", required_argument, NULL, 'k' }, \
	{ "gpus", required_argument, NULL, 'g' }, \
	{ "window", required_argument, NULL, 'w' }, \
	{ "chain", required_argument, NULL, OPT_CHAIN }, \
	{ "workload", required_argument, NULL, OPT_WORKLOAD }, \
	{ "warmup", required_argument, NULL, OPT_WARMUP }, \
	{ "limit", required_argument, NULL, OPT_LIMIT }, \
	{ "p-runtime", required_argument, NULL, OPT_PRUN }, \
	{ "shard", required_argument, NULL, OPT_SHARD }

/* cluster_new: the cluster model's settings at their defaults (exits
 * when out of memory); mg_simconf_free() frees them */
struct mg_simconf *cluster_new(void);

enum {
	OPT_PLAN = 350, OPT_LAMBDA, OPT_PSEED, OPT_PMODEL, OPT_PLIMITS,
	OPT_PARR, OPT_PRT, OPT_PCAP, OPT_PFOL, OPT_PEVERY, OPT_PCAL, OPT_PCOST,
	OPT_PDRAWS, OPT_PTRUTH, OPT_PWINDOW
};

/* the planner (mirage-planner(7)): the options every tool that plans
 * takes, and all of them */
#define PLAN_LONGOPTS_RUN \
	{ "plan", required_argument, NULL, OPT_PLAN }, \
	{ "lambda", required_argument, NULL, OPT_LAMBDA }, \
	{ "plan-seed", required_argument, NULL, OPT_PSEED }
#define PLAN_LONGOPTS PLAN_LONGOPTS_RUN, \
	{ "plan-model", required_argument, NULL, OPT_PMODEL }, \
	{ "plan-limits", required_argument, NULL, OPT_PLIMITS }, \
	{ "plan-arrivals", required_argument, NULL, OPT_PARR }, \
	{ "plan-runtimes", required_argument, NULL, OPT_PRT }, \
	{ "plan-capacity", required_argument, NULL, OPT_PCAP }, \
	{ "plan-followers", required_argument, NULL, OPT_PFOL }, \
	{ "plan-every", required_argument, NULL, OPT_PEVERY }, \
	{ "plan-calibration", required_argument, NULL, OPT_PCAL }, \
	{ "plan-cost", required_argument, NULL, OPT_PCOST }, \
	{ "plan-draws", required_argument, NULL, OPT_PDRAWS }, \
	{ "plan-truth", required_argument, NULL, OPT_PTRUTH }, \
	{ "plan-window", required_argument, NULL, OPT_PWINDOW }

/*
 * plan_option: ch with its argument into pc (the price into *lambda):
 * the option's name if it is the planner's (a bad value exits with a
 * usage error that names it), NULL if not.
 */
const char *plan_option(struct mg_planconf *pc, double *lambda, int ch,
    const char *arg);

/*
 * cluster_option, episode_option: ch, as getopt_long returned it, with
 * its argument: 1 if it is of the group (applied; a bad value exits with
 * a usage error that names it), 0 if not.
 */
int cluster_option(struct mg_simconf *c, int ch, const char *arg);
int episode_option(struct mg_epsel *s, int ch, const char *arg);

/*
 * A tool's options whose value is stored as given, in a table: what
 * getopt_long returns for it, how its argument is read, where the value
 * goes and what a usage error calls it.  The options that check more
 * stay in the tool's own switch.
 */
enum optkind {
	OPT_STR,	/* const char *: the argument itself, not empty if
			 * min > 0 */
	OPT_SPAN,	/* int64_t: a length of time, span_arg() (max: its
			 * most, seconds; 0 none) */
	OPT_HOURS,	/* double: the same, in hours */
	OPT_COUNT,	/* int32_t: a whole number from min to max */
	OPT_NUMBER,	/* double: a number from min to max */
	OPT_FLAG	/* int: set to 1, no argument */
};

struct optstore {
	int ch;
	enum optkind kind;
	void *to;
	const char *what;
	double min, max;
};

/* opt_store: ch, as getopt_long returned it, with its argument into its
 * entry of t[0..n): 1 if it has one (a bad value exits with a usage
 * error that names it), 0 if not */
int opt_store(const struct optstore *t, size_t n, int ch, const char *arg);

/* number_arg: arg as a number from min to max, or a usage error that
 * names what it is */
double number_arg(const char *what, const char *arg, double min,
    double max);

/* span_arg: a length of time (mg_parse_span()), more than 0 and at
 * most most seconds (a day; 0: no bound), or a usage error naming what */
int64_t span_arg(const char *what, const char *s, int64_t most);

/* target_arg: a --target, "99%" or "0.99", as a share (0 to 1,
 * exclusive), or a usage error */
double target_arg(const char *arg);

/* confidence_arg: a --confidence, "95%" or "0.95", as target_arg() reads
 * a share */
double confidence_arg(const char *arg);

/*
 * trace_open: the trace at path (- standard input) and the cluster model
 * conf makes of it, with sel (if not NULL) resolved on it, or an exit
 * saying why; returns the trace's name in messages
 */
const char *trace_open(const char *path, const struct mg_simconf *conf,
    struct mg_trace *t, struct mg_clusterdef *def, struct mg_epsel *sel);

/*
 * out_begin, out_end: a file written whole or not at all (mg_out):
 * out_begin opens path (- or NULL: standard output); out_end commits it
 * if rv, the writer's status, is 0, else discards it; either failure
 * exits with d's message, after "'what': " unless what is NULL.
 */
FILE *out_begin(struct mg_out *out, const char *path);
void out_end(struct mg_out *out, int rv, struct mg_diag *d,
    const char *what);

/*
 * progress_line: "prog: done/all what" on standard error, rewritten in
 * place on a terminal (pr MG_PROGRESS_TTY) until all are done, else a
 * line each; nothing when pr is MG_PROGRESS_OFF
 */
void progress_line(enum mg_progress pr, const char *prog, size_t done,
    size_t all, const char *what);

#endif /* MIRAGE_OPTIONS_H */
