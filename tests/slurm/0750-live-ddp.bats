#!/usr/bin/env bats
# 0750-live-ddp.bats: a DDP training that hands over, on a live Slurm:
# pipelines/handover-ddp.sbatch on two nodes, a rank a node started by
# srun, a small model trained with DDP and gloo on CPUs (tests/fixtures/handover/
# ddp-train.py, with pipelines/handover_train.py).  Three links: each
# predecessor's ranks agree on a step, checkpoint and exit; every step
# is trained once, by both ranks, across the links.  Run by
# tests/slurm/run-live.sh.

setup() {
	load ../bats/test_helper
	mg_setup
	: "${MIRAGE_TAG:?run through tests/slurm/run-live.sh}"
	mg_gbt 40
	T=${MIRAGE_TAG}_ddp$BATS_TEST_NUMBER
	stepping() { # stepping JOBID SECONDS: its ranks train
		local i
		for i in $(seq 1 "$2"); do
			[ "$(awk -v j="$1" '$3 == j' "$SERVICE_DIR/steps.log" 2>/dev/null | wc -l)" -ge 10 ] && return 0
			sleep 1
		done
		return 1
	}
}

@test "live DDP handover: three links of a two-node DDP training; the ranks agree, every step trained once" {
	/usr/bin/python3 -c 'import torch.distributed' || skip "no python3-torch"
	export SERVICE_DIR=$BATS_TEST_TMPDIR/train MIRAGE_GRACE=60s CKPT_EVERY=7
	export HANDOVER_LIB=$ROOT/pipelines GLOO_SOCKET_IFNAME=lo OMP_NUM_THREADS=1
	# srun starts the ranks (one a node), as Lightning's SLURMEnvironment
	# expects; Debian 12's torchrun (torch 1.13 on Python 3.11) fails at
	# its start, so the template's torchrun line is not the one run here
	export TRAIN_CMD="MASTER_ADDR=127.0.0.1 MASTER_PORT=\$((29000 + SLURM_JOB_ID % 1000)) RANK=\$SLURM_PROCID WORLD_SIZE=\$SLURM_NTASKS /usr/bin/python3 $FIX/handover/ddp-train.py"
	mkdir -p "$SERVICE_DIR"
	chmod 777 "$SERVICE_DIR"
	sed -e "s/^#SBATCH -J train/#SBATCH -J $T\n#SBATCH -p batch\n#SBATCH -o \/dev\/null\n#SBATCH -D \/tmp/" \
	    -e '/--gpus-per-node/d' -e 's/^#SBATCH -t 48:00:00/#SBATCH -t 10/' -e 's/@600/@60/' \
	    "$ROOT/pipelines/handover-ddp.sbatch" > ddp.sbatch
	p=$(sbatch --parsable ddp.sbatch)
	until_state "$p" R 60
	stepping "$p" 90
	jobs=$p
	for k in 1 2; do
		run -0 mirage-advise -p batch -n 4 -m "$M" -T 100 -j "$p" --handover --submit ddp.sbatch
		s=$(sed -n 's/^successor\t//p' ddp.sbatch.chain)
		[ -n "$s" ]
		until_state "$s" R 60
		gone "$p" 90
		stepping "$s" 90
		[ "$(sacct -n -X -P -j "$p" -o State | head -n 1)" = COMPLETED ]
		rm -f ddp.sbatch.chain
		p=$s
		jobs="$jobs $s"
	done
	scancel --signal=USR1 --batch "$p"
	gone "$p" 90
	L=$SERVICE_DIR/steps.log
	# three links, two ranks each
	[ "$(awk '{ print $3 }' "$L" | sort -u | wc -l)" -eq 3 ]
	[ "$(awk '{ print $2 }' "$L" | sort -u | tr '\n' ' ')" = "0 1 " ]
	# rank 0 trained 1..N once each, across the links, in job order
	for r in 0 1; do
		awk -v r=$r '$2 == r { print $1 }' "$L" | sort -n |
		    awk '$1 != NR { print "rank '$r': step " $1 " at " NR; bad = 1 } END { exit bad }'
	done
	# in each link both ranks stopped at the same step
	for j in $jobs; do
		a=$(awk -v j="$j" '$3 == j && $2 == 0 { s = $1 } END { print s }' "$L")
		b=$(awk -v j="$j" '$3 == j && $2 == 1 { s = $1 } END { print s }' "$L")
		[ -n "$a" ] && [ "$a" = "$b" ]
	done
	# the last checkpoint holds the last step
	n=$(awk '$2 == 0' "$L" | wc -l)
	[ "$(HANDOVER_CKPT=$SERVICE_DIR/ckpt.pt /usr/bin/python3 -c "
import sys; sys.path.insert(0, '$ROOT/pipelines')
from handover_train import load_newest; print(load_newest()['step'])")" -eq "$n" ]
}
