/*
 * workload.h: DNN inference requests for the accelerator model: the
 * networks' layers, what each costs on each dataflow, and arrivals.
 *
 * The layers come from the networks' published shapes at batch 1 and
 * 8-bit values (one byte each): ResNet-50, MobileNetV2 and VGG-16 at
 * 224 x 224, BERT-base at 128 tokens, and a GNMT-like LSTM (4 layers of
 * 1024 units, 25 steps).  A layer's cost on a sub-accelerator of
 * dataflow df (weight-stationary, Simba-like; row-stationary,
 * Eyeriss-like), each of PEs MAC units at 1 GHz:
 *     time    = MACs / (PEs x 1e9 x util[df][kind])
 *     traffic = weights x fw[df][kind] + activations x fa[df][kind]
 *     energy  = MACs x e_mac[df] + traffic x e_dram
 * and it asks the shared DRAM for traffic / time bytes per second.  WS
 * reuses weights (good on convolutions with many channels and on
 * matrix products), RS reuses rows of activations (good on depthwise
 * and small convolutions, and streams recurrent weights better).  THE
 * CONSTANTS ARE ILLUSTRATIVE (workload.c), not measured: they give the
 * two dataflows different strengths, as Timeloop finds, and no more.  A
 * measured table can be read instead (mg_net_read_costs).
 */
#ifndef MG_WORKLOAD_H
#define MG_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

enum mg_workload_kind { MG_L_CONV, MG_L_DW, MG_L_FC, MG_L_GEMM, MG_L_RNN,
	MG_L_NKIND };
enum mg_dataflow { MG_DF_WS, MG_DF_RS, MG_DF_N };

/* a layer's cost on one dataflow */
struct mg_lcost {
	double time;		/* seconds, with all the bandwidth it asks */
	double bw;		/* bytes per second of DRAM it asks */
	double energy;		/* joules */
};

struct mg_layer {
	int kind;		/* enum mg_workload_kind */
	double macs;
	double wbytes, ain, aout;	/* weights, input and output bytes */
	struct mg_lcost cost[MG_DF_N];
};

struct mg_net {
	char name[32];
	size_t n;
	struct mg_layer *l;
	double best;		/* its isolated latency on its best
				 * dataflow, seconds */
	int best_df;
};

#define MG_NNETS 5

/* mg_net_names: "resnet50", "mobilenetv2", "vgg16", "bert", "lstm". */
extern const char *const mg_net_names[MG_NNETS];

/*
 * mg_net_build: network name's layers and their costs on sub-
 * accelerators of pes MAC units.  Returns 0, MG_EINVAL (an unknown
 * name) or MG_ENOMEM.
 */
int mg_net_build(const char *name, int pes, struct mg_net *out);

/*
 * mg_net_read_costs: replace the costs by a measured table, CSV lines
 * "layer,dataflow,seconds,bytes,joules" (layer from 0, dataflow ws or
 * rs; '#' comments).  Returns 0, or MG_EIO / MG_EFORMAT with d naming
 * the file and line.
 */
int mg_net_read_costs(struct mg_net *net, const char *path,
    struct mg_diag *d);

void mg_net_free(struct mg_net *net);

#endif /* MG_WORKLOAD_H */
