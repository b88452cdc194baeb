#!/usr/bin/env bash
# fidelity.sh: how well each version of the cluster model reproduces the
# real waits of a trace, adding one thing the reference model lacks at a
# time.  Prints a TSV table (one row per model) of the all-jobs and
# 48-hour-limit rows of mirage-eval --replay.
# Usage: pipelines/fidelity.sh [jobs-stream]   (default: the LS6 trace)
# Environment: B, the build directory with the tools (build/default).
set -euo pipefail
case ${1:-} in
-h | --help)
	sed -n '/^# Usage:/,/^# Environment:/p' "$0" | sed 's/^# \{0,1\}//'
	exit 0 ;;
-*)
	echo "usage: $(sed -n 's/^# Usage: //p' "$0")" >&2
	exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${B:-build/default}
case $bin in /*) ;; *) bin=$root/$bin ;; esac
PATH=$bin:$PATH
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

jobs=${1:-}
if [ -z "$jobs" ]; then
	jobs=$tmp/ls6.jobs
	mirage-parse -q -z UTC "$root/data/ls6-a100.log.gz" -o "$jobs"
fi

# name|options
models=(
	"reference, 88 nodes (the original)|-m reference -n 88"
	"faithful, 88 nodes, Slurm defaults|-m faithful -n 88"
	"faithful, 84 nodes (LS6's A100 nodes)|-m faithful -n 84"
	"+ MaxJobsPerUser=8 (no user ever ran 9)|-m faithful -n 84 -s MaxJobsPerUser=8"
	"+ dependencies inferred (120 s)|-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120"
	"+ fair-share (weight 1000, half-life 7 days)|-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120 -s PriorityWeightFairshare=1000"
	"+ fair-share, and capacity from the trace (1 h, +4 nodes)|-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120 -s PriorityWeightFairshare=1000 -s CapacityFromTrace=3600 -s CapacitySlack=4"
	"dependencies, recorded priorities instead of age and size|-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120 -s PriorityWeightTrace=1 -s PriorityWeightAge=0 -s PriorityWeightJobSize=0"
	"+ capacity from the trace (1 h windows, +4 nodes)|-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120 -s CapacityFromTrace=3600 -s CapacitySlack=4"
	"+ capacity from the trace (1 h windows, +0 nodes)|-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120 -s CapacityFromTrace=3600"
)
printf 'model\tgroup\tjobs\treal_mean_wait_h\tsim_mean_wait_h\twait_mae_h\twait_bias_h\tspearman\tshare_within_1h\n'
for m in "${models[@]}"; do
	name=${m%%|*}
	# shellcheck disable=SC2086
	mirage-eval --replay -q ${m#*|} -o "$tmp/s.tsv" "$jobs"
	awk -F'\t' -v name="$name" -v OFS='\t' '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "all" || $1 == "limit<=48h" {
			print name, $1, $c["jobs"], $c["real_mean_wait_h"],
			    $c["sim_mean_wait_h"], $c["wait_mae_h"],
			    $c["wait_bias_h"], $c["spearman"], $c["share_within_1h"]
		}' "$tmp/s.tsv"
done
