#!/usr/bin/env bash
# queries.sh BUILD [JOBS]: what one cron run of a chain costs Slurm, on the
# loopback Slurm (slurm-lab.sh up first; SLURM_CONF set) with JOBS held
# jobs in the queue (20000 by default): the commands each kind of run
# makes, how many, and their wall time, measured through wrappers that
# log every call.  Prints a table; needs root (the lab's user).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=$PWD/${1:-build/default}
want=${2:-20000}
: "${SLURM_CONF:?start the lab (tests/slurm/slurm-lab.sh up) and set SLURM_CONF}"
work=$(mktemp -d /tmp/mirage-queries.XXXXXX)
trap 'scancel -n mirage-q-load >/dev/null 2>&1 || true; scancel -n mirage-q-chain >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
cd "$work"

# the queue: held jobs that never start, submitted in parallel
have=$(squeue -h -n mirage-q-load -o %i | wc -l)
if [ "$have" -lt "$want" ]; then
	n=$(( (want - have + 7) / 8 ))
	for k in 1 2 3 4 5 6 7 8; do
		( for _ in $(seq 1 "$n"); do
			sbatch -Q --hold -p batch -J mirage-q-load -o /dev/null --wrap true >/dev/null
		done ) &
	done
	wait
fi
queued=$(squeue -h -o %i | wc -l)

# every Slurm command through a wrapper that logs its name and time
for c in squeue sacct sinfo sacctmgr sbatch scancel; do
	real=$(command -v "$c")
	printf '#!/bin/bash\nt0=$(date +%%s.%%N)\n"%s" "$@"\nrc=$?\necho "%s $t0 $(date +%%s.%%N)" >> %s/calls\nexit $rc\n' \
	    "$real" "$c" "$work" > "$c"
	chmod +x "$c"
done
W=(--squeue ./squeue --sacct ./sacct --sinfo ./sinfo --sacctmgr ./sacctmgr --sbatch ./sbatch --scancel ./scancel)

# a chain: its job runs on a GPU node, its successor waits
printf '#!/bin/bash\n#SBATCH -J mirage-q-chain\n#SBATCH -p gpu\n#SBATCH -t 10\n#SBATCH -o /dev/null\nsleep 600\n' > link.sbatch
p=$(sbatch --parsable link.sbatch)
for _ in $(seq 1 60); do
	[ "$(squeue -h -j "$p" -o %t)" = R ] && break
	sleep 1
done
"$bin/mirage-parse" -q "$root/data/ls6-a100.log.gz" -o ls6.jobs
"$bin/mirage-features" -q -f 2022-12-01 -N 40 -k 1 -w 2 -o tr.mrs ls6.jobs
"$bin/mirage-train" -q -a gbt -o m.mrm tr.mrs

# measure RUN NAME ARGS...: one run of mirage-advise, its calls tallied
measure() {
	local name=$1
	shift
	: > calls
	local t0 t1
	t0=$(date +%s.%N)
	"$bin/mirage-advise" -q "${W[@]}" "$@" > /dev/null 2>&1 || true
	t1=$(date +%s.%N)
	awk -v name="$name" -v all="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" '
		{ n[$1]++; t[$1] += $3 - $2; calls++ }
		END {
			s = ""
			for (c in n) s = s sprintf("%s %d (%.2f s) ", c, n[c], t[c])
			printf "%-34s %3d calls  %6.2f s  %s\n", name, calls, all, s
		}' calls
}

echo "queue: $queued jobs (squeue -h | wc -l); a chain's job $p runs on gpu"
measure "model, no successor yet" -j "$p" -m m.mrm -p gpu -n 2 -T -100 --submit link.sbatch -s a.chain
measure "model, successor pending" -m m.mrm -p gpu -n 2 -T 100 --submit link.sbatch -s a.chain
measure "model, successor pending again" -m m.mrm -p gpu -n 2 -T 100 --submit link.sbatch -s a.chain
measure "planner, first run (4 weeks)" -j "$p" --plan 8 -p gpu -n 2 -T -100 --submit link.sbatch -s b.chain
measure "planner, cached history" --plan 8 -p gpu -n 2 -T -100 --submit link.sbatch -s b.chain
measure "handing over, successor pending" -m m.mrm -p gpu -n 2 -T 100 --handover --submit link.sbatch -s a.chain
