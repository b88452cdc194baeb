#!/usr/bin/env bash
# compare-sim.sh BUILD: run a mixed workload of 60 jobs on the loopback
# Slurm (4 exclusive nodes; sizes 1-4 nodes, limits 1-3 minutes, run
# times 2-150 s, some running to their limit), then replay its sacct
# record in the simulator with the same scheduler settings and print how
# the simulated start times agree with Slurm's (mirage-eval --replay:
# per-job start differences and the rank correlation of start order).
# Needs root.  Slow: about 10 minutes.  Not part of make check.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$PWD/${1:-build/default}
lab=tests/slurm/slurm-lab.sh
export MIRAGE_LAB=${MIRAGE_LAB:-/var/tmp/mirage-slurm-lab}
export SLURM_CONF=$MIRAGE_LAB/etc/slurm.conf
out=${OUT:-build/compare-sim}
mkdir -p "$out"
"$lab" up >&2
trap '"$lab" down >/dev/null 2>&1' EXIT

tag=cmp$(date +%s)
seed=12345
rnd() { seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); echo $(( seed % $1 )); }
for i in $(seq 1 60); do
	nodes=$(( 1 + $(rnd 4) ))
	limit=$(( 1 + $(rnd 3) ))
	run=$(( 2 + $(rnd 100) ))
	[ "$(rnd 10)" -eq 0 ] && run=$(( limit * 60 + 30 ))	# hits the limit
	sbatch --parsable -p batch -J "${tag}_$i" -N "$nodes" -t "$limit" \
	    -D /tmp -o /dev/null --wrap "sleep $run" >/dev/null
	sleep 0.$(rnd 10)
done
echo "submitted 60 jobs tagged $tag" >&2
"$lab" wait 1800 >&2

sacct -a -X -P -S now-3hours -E now --name="$(seq -f "${tag}_%g" 1 60 | paste -sd, -)" \
    -o JobID,JobName,UID,Partition,State,Submit,Eligible,Start,End,Timelimit,NNodes,Priority \
    > "$out/sacct.txt"
"$bin/mirage-parse" -q "$out/sacct.txt" -o "$out/jobs.mrs"
cat > "$out/lab.conf" <<-'CONF'
	# tests/slurm/slurm-lab.sh's scheduler, in the model's keys
	Mode=faithful
	Nodes=4
	PriorityWeightAge=1000
	PriorityMaxAge=1-0
	PriorityWeightJobSize=1000
	SchedulerParameters=bf_interval=5,sched_interval=10,bf_resolution=60,bf_window=1440
CONF
"$bin/mirage-eval" --replay -q -c "$out/lab.conf" -j "$out/faithful-jobs.tsv" \
    -o "$out/faithful.tsv" "$out/jobs.mrs"
"$bin/mirage-eval" --replay -q -m reference -n 4 -j "$out/reference-jobs.tsv" \
    -o "$out/reference.tsv" "$out/jobs.mrs"
for m in faithful reference; do
	echo "== $m mode against Slurm 22.05 (60 jobs, 4 nodes)"
	head -2 "$out/$m.tsv"
	# start order: rank correlation of simulated and real start times
	awk -F'\t' 'NR > 1 { print $4 + $5, $4 + $6 }' "$out/$m-jobs.tsv" |
	    sort -n -k1,1 | awk '{ print NR, $2 }' | sort -n -k2,2 |
	    awk '{ r[NR] = $1 } END { n = NR; for (i = 1; i <= n; i++) d += (r[i] - i) ^ 2;
	        printf "start-order Spearman %.3f over %d jobs\n", 1 - 6 * d / (n * (n * n - 1)), n }'
	awk -F'\t' 'NR > 1 { e = $6 - $5; if (e < 0) e = -e; s += e; n++; if (e <= 10) k++ }
	    END { printf "mean |start difference| %.1f s; within 10 s: %d of %d\n", s / n, k, n }' "$out/$m-jobs.tsv"
done
