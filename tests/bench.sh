#!/usr/bin/env bash
# bench.sh: mirage-parse's throughput and memory on a large sacct dump,
# next to peers measured in the same run on the same file: `wc -l` (the
# memory-bandwidth bound) and an awk field split.  The dump is the LS6
# trace repeated to about SIZE_MB (default 250) with renumbered JobIDs.
# Prints best-of-3 wall times, MB/s, ratios and peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${B:-build/default}
size_mb=${SIZE_MB:-250}
dir=build/bench
mkdir -p "$dir"
export LC_ALL=C

big=$dir/ls6x.txt
small=$dir/ls6x-small.txt
# copies N: the LS6 dump repeated N times, JobIDs renumbered
copies() {
	[ -s "$dir/ls6.txt" ] || zcat data/ls6-a100.log.gz > "$dir/ls6.txt"
	head -3 "$dir/ls6.txt"
	awk -F'\t' -v OFS='\t' -v reps="$1" '
		NR > 3 { row[++n] = $0 }
		END {
			for (r = 0; r < reps; r++)
				for (i = 1; i <= n; i++) {
					split(row[i], f, "\t")
					f[1] += r * 1000000
					line = f[1]
					for (k = 2; k <= length(f); k++) line = line OFS f[k]
					print line
				}
		}' "$dir/ls6.txt"
}
if [ ! -s "$big" ] || [ "$(( $(stat -c %s "$big") / 1000000 ))" -lt "$((size_mb - 5))" ]; then
	zcat data/ls6-a100.log.gz > "$dir/ls6.txt"
	reps=$(( size_mb * 1000000 / $(stat -c %s "$dir/ls6.txt") + 1 ))
	echo "making a ${size_mb} MB dump ($reps copies of LS6)..." >&2
	copies "$reps" > "$big"
	head -c $(( $(stat -c %s "$big") / 10 )) "$big" | sed '$d' > "$small"
fi
bytes=$(stat -c %s "$big")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')

best() { # best CMD...: the best of 3 wall-clock times in seconds
	local t b=""
	for _ in 1 2 3; do
		/usr/bin/time -f %e -o "$dir/time" "$@" > /dev/null 2>&1
		t=$(tail -1 "$dir/time")
		if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
	done
	echo "$b"
}
rss() { # rss CMD...: peak resident set in MB
	/usr/bin/time -f %M -o "$dir/time" "$@" > /dev/null 2>&1
	awk '{ v = $1 } END { printf "%.1f", v / 1024 }' "$dir/time"
}

t_wc=$(best wc -l "$big")
t_awk=$(best awk -F'\t' '{ n += NF } END { print n }' "$big")
awkname=$(readlink -f "$(command -v awk)")
awkname=${awkname##*/}
t_mawk=0
if command -v mawk >/dev/null && [ "$awkname" != mawk ]; then
	t_mawk=$(best mawk -F'\t' '{ n += NF } END { print n }' "$big")
fi
t_l0=$(best "$bin/mirage-parse" -q -l 0 --duplicates keep "$big")
t_keep=$(best "$bin/mirage-parse" -q --duplicates keep "$big")
t_last=$(best "$bin/mirage-parse" -q "$big")
r_keep=$(rss "$bin/mirage-parse" -q --duplicates keep "$big")
r_keep_small=$(rss "$bin/mirage-parse" -q --duplicates keep "$small")
r_last=$(rss "$bin/mirage-parse" -q "$big")
r_last_small=$(rss "$bin/mirage-parse" -q "$small")

awk -v mb="$mb" -v wc="$t_wc" -v aw="$t_awk" -v an="$awkname" -v mw="$t_mawk" -v l0="$t_l0" -v k="$t_keep" -v l="$t_last" \
    -v rk="$r_keep" -v rks="$r_keep_small" -v rl="$r_last" -v rls="$r_last_small" '
function rate(t) { return t > 0 ? mb / t : 0 }
BEGIN {
	printf "mirage-parse benchmark: %s MB of LS6-layout sacct text, best of 3 (parsing on one core, deflate on a second)\n", mb
	printf "%-40s %8s %10s\n", "command", "seconds", "MB/s"
	printf "%-40s %8.2f %10.0f\n", "wc -l", wc, rate(wc)
	printf "%-40s %8.2f %10.0f\n", "awk -F\\t (field split; awk is " an ")", aw, rate(aw)
	if (mw > 0) printf "%-40s %8.2f %10.0f\n", "mawk -F\\t (field split)", mw, rate(mw)
	printf "%-40s %8.2f %10.0f\n", "mirage-parse --duplicates keep", k, rate(k)
	printf "%-40s %8.2f %10.0f\n", "mirage-parse -l 0 --duplicates keep", l0, rate(l0)
	printf "%-40s %8.2f %10.0f\n", "mirage-parse (default: last wins)", l, rate(l)
	printf "ratios (higher is faster): keep %.2fx awk, %.2fx wc -l; -l 0 keep %.2fx awk; default %.2fx awk\n",
	    aw / k, wc / k, aw / l0, aw / l
	if (mw > 0) printf "against mawk: keep %.2fx, -l 0 keep %.2fx\n", mw / k, mw / l0
	printf "peak RSS, keep: %s MB on %s MB input, %s MB on a tenth of it\n", rk, mb, rks
	printf "peak RSS, last: %s MB on %s MB input, %s MB on a tenth of it (the JobID index)\n", rl, mb, rls
}'

# sacct --json, streamed: a 150 MB document (the lab's 03-final dump,
# its jobs repeated with new ids), against Python's json.load of the
# same file (a reader that builds the whole tree) in the same run.
bigj=$dir/big.json
if [ ! -s "$bigj" ]; then
	python3 -c '
import copy, json, sys
d = json.load(open("tests/fixtures/slurm-22.05/03-final/sacct_json.json"))
jobs, out = d["jobs"], []
per = sum(len(json.dumps(j, indent=2)) for j in jobs)
for r in range(150_000_000 // per + 1):
    for j in jobs:
        k = copy.copy(j)
        k["job_id"] = j["job_id"] + (r + 1) * 100000
        out.append(k)
d["jobs"] = out
json.dump(d, open(sys.argv[1], "w"), indent=2)
' "$bigj"
fi
jmb=$(awk -v b="$(stat -c %s "$bigj")" 'BEGIN { printf "%.1f", b / 1e6 }')
t_js=$(best "$bin/mirage-parse" -q --duplicates keep "$bigj")
r_js=$(rss "$bin/mirage-parse" -q --duplicates keep "$bigj")
t_py=$(best python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$bigj")
r_py=$(rss python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$bigj")
awk -v mb="$jmb" -v t="$t_js" -v r="$r_js" -v tp="$t_py" -v rp="$r_py" 'BEGIN {
	printf "\nsacct --json, %s MB, streamed (one job in memory at a time), best of 3\n", mb
	printf "  mirage-parse --duplicates keep: %6.2f s  %6.0f MB/s  peak RSS %6.1f MB\n", t, mb / t, r
	printf "  python3 json.load (whole tree): %6.2f s  %6.0f MB/s  peak RSS %6.1f MB\n", tp, mb / tp, rp
	printf "  ratios: time %.2fx, memory %.3fx of the tree reader\n", t / tp, r / rp
}'

# The cluster simulator, reference mode, on the bundled trace.  The
# original Python simulator is not on this machine; its figures (about
# 70 s of CPU for the whole trace, about 8 s per validation episode) are
# from the specification.
"$bin/mirage-parse" -q -z UTC data/ls6-a100.log.gz -o "$dir/ls6.jobs"
t_replay=$(best "$bin/mirage-eval" --replay -q "$dir/ls6.jobs")
t_eps=$(best "$bin/tests/t_sim_reference")
t_faith=$(best "$bin/mirage-eval" --replay -q -m faithful -n 84 -s MaxJobsPerUser=8 "$dir/ls6.jobs")
awk -v r="$t_replay" -v e="$t_eps" -v f="$t_faith" 'BEGIN {
	printf "\nsimulator, reference mode, 88 nodes, one core, best of 3\n"
	printf "  whole LS6 trace replay (24777 jobs):        %6.2f s   (original: ~70 s)\n", r
	printf "  the same, faithful mode, 84 nodes, limits:  %6.2f s\n", f
	printf "  156 validation episodes, 3 runs each, with\n"
	printf "  the trace parse and golden checks:          %6.2f s   = %.1f ms per episode (original: ~8 s)\n", e, e * 1000 / 156
}'

# An overloaded cluster: ten copies of LS6 (JobIDs renumbered) submitted
# at the same times to the same nodes, tens of thousands of jobs pending
# for months.  The peer is ten times one copy's replay: a ratio near 1
# is a cost linear in jobs.  The reference mode keeps the original's
# semantics (bf_max_job_test=3000 bounds a backfill pass); the faithful
# one Slurm's (priorities set every PriorityCalcPeriod and on
# submission, default_queue_depth, bf_max_job_test).
[ -s "$dir/ls6x10.jobs" ] || copies 10 | "$bin/mirage-parse" -q -o "$dir/ls6x10.jobs"
t_r1=$(best "$bin/mirage-eval" --replay -q -n 84 "$dir/ls6.jobs")
t_r10=$(best "$bin/mirage-eval" --replay -q -n 84 "$dir/ls6x10.jobs")
t_f1=$(best "$bin/mirage-eval" --replay -q -m faithful -n 84 "$dir/ls6.jobs")
t_f10=$(best "$bin/mirage-eval" --replay -q -m faithful -n 84 "$dir/ls6x10.jobs")
t_fb=$(best "$bin/mirage-eval" --replay -q -m faithful -n 84 -s MaxJobsPerUser=8 \
    -s DependencyFromTrace=120 -s PriorityWeightFairshare=1000 \
    -s CapacityFromTrace=3600 -s CapacitySlack=4 "$dir/ls6.jobs")
awk -v r1="$t_r1" -v r10="$t_r10" -v f1="$t_f1" -v f10="$t_f10" -v fb="$t_fb" 'BEGIN {
	printf "\nan overloaded cluster: 10 copies of LS6 (247770 jobs) on 84 nodes, best of 3\n"
	printf "  reference: one copy %6.2f s, ten %6.2f s   (ratio to 10 x one: %.1f)\n", r1, r10, r10 / (10 * r1)
	printf "  faithful:  one copy %6.2f s, ten %6.2f s   (ratio to 10 x one: %.1f)\n", f1, f10, f10 / (10 * f1)
	printf "  faithful, the best settings (fair-share, limits), one copy: %.2f s   (target: under 0.2 s; ratio %.2f)\n", fb, fb / 0.2
}'

# The fidelity of the best faithful model against the real LS6 waits
# (the targets: wait MAE <= 2 h, Spearman >= 0.6, also for the
# 48-hour jobs), next to the reference model's (the original's figures).
"$bin/mirage-eval" --replay -q -m faithful -n 84 -s MaxJobsPerUser=8 \
    -s DependencyFromTrace=120 -s PriorityWeightFairshare=1000 \
    -s CapacityFromTrace=3600 -s CapacitySlack=4 -o "$dir/fid-f.tsv" "$dir/ls6.jobs"
"$bin/mirage-eval" --replay -q -o "$dir/fid-r.tsv" "$dir/ls6.jobs"
awk -F'\t' 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; k++; next }
	$1 == "all" || $1 == "limit<=48h" {
		m[k, $1] = $c["wait_mae_h"]; r[k, $1] = $c["spearman"] }
	END {
		printf "\nfidelity on the whole LS6 trace (wait MAE h, Spearman; targets <= 2 h, >= 0.6)\n"
		printf "  reference, 88 nodes (the original):  all %5.2f h %5.2f   48-hour jobs %5.2f h %5.2f\n",
		    m[2, "all"], r[2, "all"], m[2, "limit<=48h"], r[2, "limit<=48h"]
		printf "  faithful, best settings:             all %5.2f h %5.2f   48-hour jobs %5.2f h %5.2f\n",
		    m[1, "all"], r[1, "all"], m[1, "limit<=48h"], r[1, "limit<=48h"]
	}' "$dir/fid-f.tsv" "$dir/fid-r.tsv"

# Episodes, features and labels: the paper's LS6 protocol (684 training
# episodes from 2022-11-01 and 156 validation episodes from 2023-03-01,
# 1- and 8-node chains, 7 probes each, the 144-snapshot window), with one
# episode thread per core and with one (the peer: the speed-up is the
# ratio; the stream is written by the main thread in both, overlapped).  The
# original needs 1.3-1.8 s for a pre-simulation and 2.3-3.4 s per probe
# (spec section 13), about 20 s per episode; that figure is quoted, not
# measured here.
paper() { # paper THREADS [MODEL OPTIONS]: the protocol's command line
	local t=$1
	shift
	echo "$bin/mirage-features -q -t $t $* -f 2022-11-01 -N 684 -k 1,8 -o $dir/train.mrs $dir/ls6.jobs &&" \
	    "$bin/mirage-features -q -t $t $* -f 2023-03-01 -N 156 -k 1,8 -o $dir/valid.mrs $dir/ls6.jobs"
}
ncpu=$(nproc)
t_all=$(best sh -c "$(paper "$ncpu")")
t_one=$(best sh -c "$(paper 1)")
samples=$(( $("$bin/mirage-cat" "$dir/train.mrs" | wc -l) + $("$bin/mirage-cat" "$dir/valid.mrs" | wc -l) - 2 ))
t_fall=$(best sh -c "$(paper "$ncpu" -m faithful -n 84)")
t_fone=$(best sh -c "$(paper 1 -m faithful -n 84)")
awk -v a="$t_all" -v o="$t_one" -v n="$ncpu" -v s="$samples" -v fa="$t_fall" -v fo="$t_fone" 'BEGIN {
	printf "\nmirage-features, the paper protocol: 2 x (684 + 156) episodes, 7 probes, %d samples, best of 3\n", s
	printf "  reference mode, -t %d:  %6.2f s   (target: under 30 s)\n", n, a
	printf "  reference mode, -t 1:  %6.2f s   speed-up %.2fx\n", o, o / a
	printf "  faithful mode,  -t %d:  %6.2f s\n", n, fa
	printf "  faithful mode,  -t 1:  %6.2f s   speed-up %.2fx\n", fo, fo / fa
	printf "  per episode (reference, %d threads): %.1f ms   (original: ~20 s of CPU)\n", n, a * 1000 / 1680
}'

# The whole protocol in one setting (reference mode at 76 nodes, the
# loaded one): samples of the 684 training episodes (7 probes and every
# 30 minutes), training of the six models, and the evaluation of all of
# them with the baselines and the oracle on 2 x 156 validation episodes.
# The target: under 5 minutes on a busy 2-core machine.  Timed once (it
# takes minutes) on the machine as it is, then again beside two
# processes that keep both cores busy (load about 4).
once() { # once CMD...: wall-clock seconds of one run
	/usr/bin/time -f %e -o "$dir/time" "$@" > /dev/null 2>&1
	tail -1 "$dir/time"
}
export OMP_WAIT_POLICY=passive OPENBLAS_NUM_THREADS=1
m76="-m reference -n 76"
protocol() { # protocol TITLE: the protocol's steps timed, and the total
	local t_f t_e tt a samples
	# shellcheck disable=SC2086
	{
		t_f=$(once "$bin/mirage-features" -q $m76 -f 2022-11-01 -N 684 -k 1,8 -w 1 -p 7 --probe-every 30m -o "$dir/tr76.mrs" "$dir/ls6.jobs")
		tt=""
		for a in gbt rf clf svr; do
			tt="$tt $a $(once "$bin/mirage-train" -q -a $a -t 2 -o "$dir/$a.mrm" "$dir/tr76.mrs")"
		done
		for a in dqn pg; do
			tt="$tt $a $(once "$bin/mirage-train" -q -a $a $m76 -f 2022-11-01 -N 684 -k 1,8 -o "$dir/$a.mrm" "$dir/ls6.jobs")"
		done
		t_e=$(once "$bin/mirage-eval" -q $m76 -f 2023-03-01 -N 156 -k 1,8 -M "$dir/gbt.mrm" -M "$dir/rf.mrm" \
		    -M "$dir/clf.mrm" -M "$dir/svr.mrm" -M "$dir/dqn.mrm" -M "$dir/pg.mrm" -o "$dir/t76.txt" "$dir/ls6.jobs")
	}
	# the models' evaluation on the idle machine, for the planner's below
	[ -n "${t_models:-}" ] || t_models=$t_e
	samples=$(( $("$bin/mirage-cat" "$dir/tr76.mrs" | wc -l) - 1 ))
	echo "$tt" | awk -v f="$t_f" -v e="$t_e" -v s="$samples" -v title="$1" '{
		printf "\nthe protocol, reference mode at 76 nodes, both chain sizes, %s, timed once\n", title
		printf "  mirage-features, 1368 training episodes (%d samples): %7.1f s\n", s, f
		total = f + e
		for (i = 1; i < NF; i += 2) { printf "  mirage-train -a %-4s %35s %7.1f s\n", $i, "", $(i + 1); total += $(i + 1) }
		printf "  mirage-eval, 6 models + 4 baselines, 312 episodes:   %7.1f s\n", e
		printf "  total:                                               %7.1f s   (target: under 300 s; ratio %.2f)\n", total, total / 300
	}'
}
protocol "the machine as it is"
# two busy loops for the length of the second run
sha256sum /dev/zero & b1=$!
sha256sum /dev/zero & b2=$!
trap 'kill "$b1" "$b2" 2>/dev/null' EXIT
protocol "both cores kept busy by two other processes"
kill "$b1" "$b2" 2>/dev/null
wait "$b1" "$b2" 2>/dev/null || true
trap - EXIT

# Preemption: LS6 on 84 nodes, 10% urgent jobs, PreemptMode=
# REQUEUE, ten attribute seeds, with overheads that vary widely (epochs
# log-uniform over 1-60 min) and with equal ones (the sanity check: the
# gain should shrink).  For each policy the median over seeds of the
# urgent jobs' mean wait, the node-hours lost and the makespan, and
# PickyMan's ratios to Slurm's lowest-priority and youngest-first
# victims; "pickyman+10%" chooses on overheads predicted with a 10%
# error (the paper's predictor is within it).  The target: urgent wait at least 10% below both, no more
# node-hours lost, makespan within +1%.
pre() { # pre SEED EQUAL POLICY [MODE]: "urgent-wait-s lost-node-h makespan-h"
	local err=0
	[ "$3" = pickyman+10% ] && err=0.1
	"$bin/mirage-eval" --replay -q -m faithful -n 84 -s PreemptMode="${4:-REQUEUE}" \
	    -s DLAttrSeed="$1" -s DLEqualOverheads="$2" -s VictimPolicy="${3%+*}" \
	    -s PreemptPredictError=$err -o /dev/null -j "$dir/pre.tsv" "$dir/ls6.jobs"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ if (first == "" || $c["submit"] < first) first = $c["submit"]
		  if ($c["sim_end"] > last) last = $c["sim_end"]
		  lost += $c["lost_node_h"] }
		$c["class"] == "urgent" { n++; w += $c["sim_wait_s"] }
		END { printf "%.1f %.2f %.1f\n", w / n, lost, (last - first) / 3600 }' "$dir/pre.tsv"
}
t0=$(date +%s.%N)
for eq in 0 1; do
	for seed in 1 2 3 4 5 6 7 8 9 10; do
		for pol in prio youngest pickyman pickyman+10%; do
			echo "$eq $pol $(pre "$seed" "$eq" "$pol")"
		done
	done
done > "$dir/pre-all.txt"
t1=$(date +%s.%N)
awk -v secs="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" '
function med(s,   n, a, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ k = $1 SUBSEP $2; w[k] = w[k] " " $3; l[k] = l[k] " " $4; m[k] = m[k] " " $5 }
END {
	printf "\npreemption, LS6 on 84 nodes, 10%% urgent, REQUEUE, median over 10 seeds (%d replays in %.0f s)\n", NR, secs
	for (eq = 0; eq < 2; eq++) {
		printf "  %s overheads:\n", eq ? "equal" : "varied (CV 1.1)"
		for (p = 1; p <= 4; p++) {
			pol = p == 1 ? "prio" : p == 2 ? "youngest" : p == 3 ? "pickyman" : "pickyman+10%"
			k = eq SUBSEP pol
			W[pol] = med(w[k]); L[pol] = med(l[k]); M[pol] = med(m[k])
			printf "    %-13s urgent wait %7.1f s   lost %8.2f node-h   makespan %.1f h\n", pol, W[pol], L[pol], M[pol]
		}
		printf "    pickyman / prio: wait %.2f, lost %.2f, makespan %.4f; / youngest: wait %.2f, lost %.2f, makespan %.4f\n",
		    W["pickyman"] / W["prio"], L["pickyman"] / L["prio"], M["pickyman"] / M["prio"],
		    W["pickyman"] / W["youngest"], L["pickyman"] / L["youngest"], M["pickyman"] / M["youngest"]
	}
}' "$dir/pre-all.txt"

# The same with PreemptMode=SUSPEND,GANG: no release delay, no resume
# loss; what a victim costs is its nodes the preemptor does not use,
# held idle while it is suspended ("lost"), which PickyMan's cost (each
# suspended node stopped for the preemptor's limit) keeps small.
for seed in 1 2 3 4 5 6 7 8 9 10; do
	for pol in prio youngest pickyman; do
		echo "$pol $(pre "$seed" 0 "$pol" SUSPEND,GANG)"
	done
done | awk '
function med(s,   n, a, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ w[$1] = w[$1] " " $2; l[$1] = l[$1] " " $3 }
END {
	printf "  SUSPEND,GANG, varied overheads (median over 10 seeds):\n"
	for (p = 1; p <= 3; p++) {
		pol = p == 1 ? "prio" : p == 2 ? "youngest" : "pickyman"
		printf "    %-13s urgent wait %7.1f s   idle %8.2f node-h\n", pol, med(w[pol]), med(l[pol])
	}
}'

# Loaning and elastic jobs: LS6 on 84 training nodes beside a
# 40-node inference pool under a diurnal demand (noise seeds 1-10), 40%
# of the jobs elastic (their half to twice their size, speedup n^0.8):
# no loaning (the pool with nothing to spare, whose replay must be the
# plain one), loaning only, elasticity only, Aryl (both, the knapsack,
# the fewest-jobs reclaim) and its ablations (random or last-in-first-out
# reclaim, greedy allocation).  The medians over seeds of the mean and
# p95 wait, the mean completion time, the usage of the cluster and its
# loans and of the lent nodes, the jobs reclaims preempt, the SLO
# violations; and the sanity check: Aryl's pool with nothing to spare is
# elasticity alone.
loanrun() { # loanrun SEED [OPTIONS]: "wait-mean-h wait-p95-h jct-h usage% lent-used% preempted slo"
	local seed=$1
	shift
	"$bin/mirage-eval" --replay -m faithful -n 84 -s InferenceNodes=40 -s InferenceSeed="$seed" \
	    -s DLAttrSeed="$seed" "$@" -o /dev/null -j "$dir/loan.tsv" "$dir/ls6.jobs" 2> "$dir/loan.err"
	# the mean wait, its p95 (POSIX awk has no sort: sort(1) does it)
	# and the mean completion time
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["sim_wait_s"] / 3600 "\t" ($c["sim_end"] - $c["submit"]) / 3600 }' "$dir/loan.tsv" |
	    sort -g | awk -F'\t' '{ w[++n] = $1; s += $1; j += $2 }
		END { printf "%.3f %.3f %.2f", s / n, w[int(0.95 * n + 0.5)], j / n }'
	sed -n 's/.*usage \([0-9.]*\)% of the cluster and its loans, \([0-9.]*\)% of the lent nodes; [0-9]* reclaims preempting \([0-9]*\) jobs and shrinking [0-9]*; \([0-9]*\) SLO.*/ \1 \2 \3 \4/p' "$dir/loan.err"
}
spare0=(-s InferenceBase=40 -s InferenceAmplitude=0 -s InferenceNoise=0)
el=(-s ElasticShare=0.4)
t0=$(date +%s.%N)
for seed in 1 2 3 4 5 6 7 8 9 10; do
	echo "none $(loanrun "$seed" "${spare0[@]}")"
	echo "loan $(loanrun "$seed")"
	echo "elastic $(loanrun "$seed" "${spare0[@]}" "${el[@]}")"
	echo "aryl $(loanrun "$seed" "${el[@]}")"
	echo "aryl-sjf $(loanrun "$seed" "${el[@]}" -s JobOrder=sjf)"
	echo "aryl-random $(loanrun "$seed" "${el[@]}" -s ReclaimPolicy=random)"
	echo "aryl-lifo $(loanrun "$seed" "${el[@]}" -s ReclaimPolicy=youngest)"
	echo "aryl-greedy $(loanrun "$seed" "${el[@]}" -s ElasticAlloc=greedy)"
	echo "loan-random $(loanrun "$seed" -s ReclaimPolicy=random)"
	echo "loan-lifo $(loanrun "$seed" -s ReclaimPolicy=youngest)"
done > "$dir/loan-all.txt"
t1=$(date +%s.%N)
"$bin/mirage-eval" --replay -q -m faithful -n 84 -o "$dir/plain.tsv" "$dir/ls6.jobs"
"$bin/mirage-eval" --replay -q -m faithful -n 84 -s InferenceNodes=40 "${spare0[@]}" -o "$dir/spare0.tsv" "$dir/ls6.jobs"
same=no
cmp -s "$dir/plain.tsv" "$dir/spare0.tsv" && same=yes
awk -v secs="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" -v same="$same" '
function med(s,   n, a, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ for (k = 2; k <= 8; k++) v[$1, k] = v[$1, k] " " $k }
END {
	printf "\nloaning and elastic jobs, LS6 on 84 nodes + a 40-node inference pool (diurnal), 40%% elastic, median over 10 seeds (%d replays in %.0f s, %.2f s each)\n", NR, secs, secs / NR
	printf "  %-12s %9s %9s %9s %7s %10s %10s %4s\n", "policy", "wait mean", "wait p95", "JCT mean", "usage", "lent used", "preempted", "SLO"
	split("none loan elastic aryl aryl-sjf aryl-random aryl-lifo aryl-greedy loan-random loan-lifo", P, " ")
	for (p = 1; p <= 10; p++) {
		for (k = 2; k <= 8; k++) m[P[p], k] = med(v[P[p], k])
		printf "  %-12s %7.3f h %7.3f h %7.2f h %6.1f%% %9.1f%% %10s %4s\n", P[p], m[P[p], 2], m[P[p], 3], m[P[p], 4], m[P[p], 5], m[P[p], 6], m[P[p], 7], m[P[p], 8]
	}
	printf "  none / aryl: wait %.2fx (target >= 1.2x; the paper 1.53x), JCT %.2fx; none / loan: wait %.2fx; none / elastic: wait %.2fx\n",
	    m["none", 2] / m["aryl", 2], m["none", 4] / m["aryl", 4], m["none", 2] / m["loan", 2], m["none", 2] / m["elastic", 2]
	printf "  nothing to spare: the plain replay to the byte: %s\n", same
}' "$dir/loan-all.txt"

# Inside the node: the inference dispatchers of mirage-accel on one system
# (2 WS + 2 RS sub-accelerators, 40 GB/s of DRAM) at loads 0.3 to 0.8, on
# held-out arrival seeds (101-105; training draws its own from its seed;
# the defaults were chosen on seeds 201-205), every heuristic and RELMAS,
# the learned dispatcher, trained here (timed), with what each of its
# parts brings: trained without the rule as its prior, without strict's
# pairs (it cannot wait), with neither, with strict's pairs alone and
# place's prior (no fit), crediting a decision with
# its own request's end, on the loads 0.2-0.6, without bandwidth
# features, without the bandwidth penalty, without the attention encoder,
# decoded under the bandwidth budget, its candidates by deadline alone.
# Per load and policy: the median over seeds of the share of deadlines
# met, with the lowest and the highest, the mean latency and the energy
# against EDF; and a layer's dispatch, the network's scoring included.
sys=(-s Bandwidth=40)
t0=$(date +%s.%N)
"$bin/mirage-accel" train -q "${sys[@]}" -o "$dir/relmas.mrm"
t1=$(date +%s.%N)
abl="noprior:--prior=0 nostrict:--strict=0 neither:--prior=0,--strict=0 nofit:--fit=0 own:--credit=own light:--loads=0.2-0.6 nobwf:--no-bw-features nobwp:--no-bw-penalty noenc:--context=0 budget:--budget deadline:--window=deadline"
for a in $abl; do
	# shellcheck disable=SC2046
	"$bin/mirage-accel" train -q "${sys[@]}" $(echo "${a#*:}" | tr ',' ' ') -o "$dir/relmas-${a%%:*}.mrm"
done
for load in 0.3 0.45 0.6 0.8; do
	for seed in 101 102 103 104 105; do
		ms="-M $dir/relmas.mrm"
		for a in $abl; do ms="$ms -M $dir/relmas-${a%%:*}.mrm"; done
		# shellcheck disable=SC2086
		"$bin/mirage-accel" eval "${sys[@]}" -s Load=$load -s ArrivalSeed=$seed \
		    $ms -o "$dir/accel.tsv" 2> "$dir/accel.err"
		us=$(sed -n "s|.*eval: $dir/relmas.mrm: \([0-9.]*\) us per layer.*|\1|p" "$dir/accel.err")
		awk -F'\t' -v l="$load" -v us="$us" -v d="$dir/" 'NR > 1 { n = $1; sub(d, "", n); sub(/\.mrm$/, "", n); print l, n, $3, $4, $7, us }' "$dir/accel.tsv"
	done
done > "$dir/accel-all.txt"
awk -v tsecs="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" -v abl="$abl" '
function sortv(s, a,   n, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n
}
function med(s,   n, a) { n = sortv(s, a); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function lo(s,   a) { sortv(s, a); return a[1] }
function hi(s,   n, a) { n = sortv(s, a); return a[n] }
{ m[$1, $2] = m[$1, $2] " " $3; lat[$1, $2] = lat[$1, $2] " " $4; e[$1, $2] = e[$1, $2] " " $5; if ($6 != "") us = us " " $6 }
END {
	printf "\ninside the node: DNN inference on 2 WS + 2 RS sub-accelerators at 40 GB/s, 5000 requests, 5 held-out arrival seeds\n"
	printf "  deadlines met: median [lowest-highest] over the seeds, then the median mean latency (ms) and energy / EDF\n"
	nl = split("0.3 0.45 0.6 0.8", L, " ")
	np = split("fcfs edf fedf llf sjf minlat static random fsjf place strict fit relmas", P, " ")
	printf "  %-8s", "load"
	for (l = 1; l <= nl; l++) printf "  %-33s", L[l]
	printf "\n"
	for (p = 1; p <= np; p++) {
		printf "  %-8s", P[p]
		for (l = 1; l <= nl; l++) {
			k = L[l] SUBSEP P[p]
			printf "  %5.1f%% [%4.1f-%4.1f] %7.1f %6.3f", 100 * med(m[k]), 100 * lo(m[k]), 100 * hi(m[k]), med(lat[k]), med(e[k])
		}
		printf "\n"
	}
	for (l = 1; l <= nl; l++) {
		best = 0; bn = ""; eo = 0; en = ""
		for (p = 1; p < np; p++) {
			v = med(m[L[l], P[p]])
			if (v > best) { best = v; bn = P[p] }
			if (p <= 8 && v > eo) { eo = v; en = P[p] }
		}
		r = med(m[L[l], "relmas"])
		printf "  load %-4s relmas / the best heuristic (%s) %.3f; / the best of the first eight (%s) %.3f; / fcfs %.2f; energy / EDF %.4f\n",
		    L[l], bn, r / best, en, r / eo, r / med(m[L[l], "fcfs"]), med(e[L[l], "relmas"])
	}
	printf "  what each part of relmas brings: deadlines met (median) with it changed, at each load\n"
	na = split(abl, A, " ")
	for (a = 1; a <= na; a++) {
		n = A[a]; sub(/:.*/, "", n); f = A[a]; sub(/^[^:]*:/, "", f); gsub(/,/, " ", f)
		printf "  %-32s", f
		for (l = 1; l <= nl; l++) printf " %5.1f%%", 100 * med(m[L[l], "relmas-" n])
		printf "\n"
	}
	printf "  relmas trained in %.0f s (target: within 120 s on 2 cores); a layer dispatched by it in %.2f us (median, scoring included)\n", tsecs, med(us)
}' "$dir/accel-all.txt"

# ... and on workloads it was not trained on: requests in bursts of twice
# the rate (-s Burst=2), the three vision networks alone, the two
# language ones alone; per load the median over the same seeds of the
# best of the first eight, of strict, of fit and of RELMAS, and RELMAS's
# energy
for wl in Burst=2 Networks=resnet50,mobilenetv2,vgg16 Networks=bert,lstm; do
	for load in 0.3 0.45 0.6 0.8; do
		for seed in 101 102 103 104 105; do
			"$bin/mirage-accel" eval -q "${sys[@]}" -s "$wl" -s Load=$load -s ArrivalSeed=$seed \
			    -M "$dir/relmas.mrm" -o "$dir/accel.tsv"
			awk -F'\t' -v w="$wl" -v l="$load" 'NR > 1 { print w, l, NR - 1, $3, $7 }' "$dir/accel.tsv"
		done
	done
done > "$dir/accel-wl.txt"
awk '
function med(s,   n, a, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ if (!($1 in seen)) { seen[$1] = 1; W[++nw] = $1 } m[$1, $2, $3] = m[$1, $2, $3] " " $4; e[$1, $2, $3] = e[$1, $2, $3] " " $5 }
END {
	printf "  on workloads it was not trained on: deadlines met (median), the best of the first eight / strict / fit / relmas, relmas energy / EDF\n"
	nl = split("0.3 0.45 0.6 0.8", L, " ")
	for (w = 1; w <= nw; w++) {
		printf "  %-37s", W[w]
		for (l = 1; l <= nl; l++) {
			b = 0
			for (p = 1; p <= 8; p++) if (med(m[W[w], L[l], p]) > b) b = med(m[W[w], L[l], p])
			printf "  %s: %4.1f / %4.1f / %4.1f / %4.1f%% %.3f", L[l], 100 * b, 100 * med(m[W[w], L[l], 11]), 100 * med(m[W[w], L[l], 12]), 100 * med(m[W[w], L[l], 13]), med(e[W[w], L[l], 13])
		}
		printf "\n"
	}
}' "$dir/accel-wl.txt"

# ... and against the bound (mirage-accel(1), "The bound"): per load the
# median over the same seeds of the bound's share of the requests, and of
# each dispatcher's deadlines met over the bound's: in the system as it
# is, and with preemption inside a layer and the bandwidth by deadline,
# RELMAS trained again in that system
"$bin/mirage-accel" train -q "${sys[@]}" -s Preempt=1 -s BandwidthShare=deadline -o "$dir/relmas-pd.mrm"
for sy in base pd; do
	ks=""
	[ $sy = pd ] && ks="-s Preempt=1 -s BandwidthShare=deadline"
	m=$dir/relmas.mrm
	[ $sy = pd ] && m=$dir/relmas-pd.mrm
	for load in 0.3 0.45 0.6 0.8; do
		for seed in 101 102 103 104 105; do
			# shellcheck disable=SC2086
			"$bin/mirage-accel" eval -q "${sys[@]}" $ks -s Load=$load -s ArrivalSeed=$seed \
			    --bound -M "$m" -o "$dir/accel.tsv"
			awk -F'\t' -v s=$sy -v l="$load" 'NR > 1 { print s, l, $1, $3, $12 }' "$dir/accel.tsv"
		done
	done
done > "$dir/accel-bound.txt"
awk '
function med(s,   n, a, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ m[$1, $2, $3] = m[$1, $2, $3] " " $4; o[$1, $2, $3] = o[$1, $2, $3] " " $5 }
END {
	printf "  against the bound: the bound'"'"'s share of the requests, then deadlines met over the bound'"'"'s (medians)\n"
	nl = split("0.3 0.45 0.6 0.8", L, " ")
	np = split("fcfs edf fedf llf sjf minlat static random fsjf place strict fit relmas", P, " ")
	ns = split("base pd", S, " ")
	for (s = 1; s <= ns; s++) {
		printf "  %s\n", (S[s] == "base" ? "the system as it is" : "with -s Preempt=1 -s BandwidthShare=deadline (relmas trained so)")
		printf "  %-8s", "bound"
		for (l = 1; l <= nl; l++) printf "  %s: %5.1f%%", L[l], 100 * med(m[S[s], L[l], "bound"])
		printf "\n"
		for (p = 1; p <= np; p++) {
			printf "  %-8s", P[p]
			for (l = 1; l <= nl; l++) printf "  %s: %.3f ", L[l], med(o[S[s], L[l], P[p]])
			printf "\n"
		}
	}
	for (l = 1; l <= nl; l++) {
		f = med(m["base", L[l], "fit"]); g = med(m["pd", L[l], "fit"])
		printf "  load %-4s fit misses %.1f%%, with both %.1f%%: %.0f%% fewer\n", L[l], 100 * (1 - f), 100 * (1 - g), 100 * (1 - (1 - g) / (1 - f))
	}
}' "$dir/accel-bound.txt"

# mirage-advise: one decision, model loading included, against parsing
# the same squeue dump alone (the peer: the least any decision must do)
q=tests/fixtures/slurm-22.05/01-busy/squeue_all_o.txt
loop() { # loop N CMD...: wall-clock seconds of N runs
	local n=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	for _ in $(seq 1 "$n"); do "$@" >/dev/null 2>&1 || true; done
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
ta=$(loop 20 "$bin/mirage-advise" -j 1 -m "$dir/gbt.mrm" -n 6 -Q "$q" --now 2026-11-22T05:32:19)
tp=$(loop 20 "$bin/mirage-parse" -q "$q" -o /dev/null)
awk -v a="$ta" -v p="$tp" 'BEGIN {
	printf "\nmirage-advise, one decision with the gbt model and a 45-job squeue dump, 20 runs\n"
	printf "  mirage-advise:  %6.1f ms per decision   (target: under 100 ms; ratio %.2f)\n", a * 50, a * 50 / 100
	printf "  mirage-parse of the same dump: %6.1f ms   (advise / parse: %.2fx)\n", p * 50, a / p
}'

# The planner: the loaded protocol's 2 x 156 validation episodes with 8
# futures, without handing over (target: under 60 s) and handing over
# in 10 minutes (over the whole of P: under 120 s), each as it runs by
# default (a plan reused for 30 minutes until P's last 6 hours) and
# with every decision planned (--plan-every 0), in the same run; the
# faithful setting handing over (under 4 minutes); and one live
# decision with the planner (the LS6 jobs stream as the dump: 24,777
# jobs of history), against the gbt model's decision on the same dump
# (target: under 20 ms)
# (its summary on standard error says how many decisions it planned)
once_err() { # once_err FILE CMD...: wall-clock seconds of one run, its stderr in FILE
	local e=$1
	shift
	/usr/bin/time -f %e -o "$dir/time" "$@" > /dev/null 2> "$e"
	tail -1 "$dir/time"
}
# decisions FILE: the decisions planned, and of them those with futures
# of their own
decisions() { sed -n 's/^mirage-eval: the planner planned \([0-9]*\) decisions of [0-9]* futures each (\([0-9]*\) with.*/\1 \2/p' "$1"; }
faithful="-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120 -s PriorityWeightFairshare=1000 -s CapacityFromTrace=3600 -s CapacitySlack=4"
pl() { # pl NAME OPTIONS...: seconds of the planner's evaluation
	local name=$1
	shift
	# shellcheck disable=SC2086
	once_err "$dir/$name.err" "$bin/mirage-eval" "$@" -f 2023-03-01 -N 156 -k 1,8 --plan 8 -C "$dir/$name.tsv" -o "$dir/$name.txt" "$dir/ls6.jobs"
}
# shellcheck disable=SC2086
{
	t_p=$(pl p76 $m76)
	t_p0=$(pl p76-each $m76 --plan-every 0)
	t_ph=$(pl p76h $m76 --handover 10m)
	t_ph0=$(pl p76h-each $m76 --handover 10m --plan-every 0)
	t_fh=$(pl p84h $faithful --handover 10m)
}
tl=$(loop 5 "$bin/mirage-advise" -j 554353 -Q "$dir/ls6.jobs" -n 84 --now 2022-11-20T15:00:00 --plan 8)
tg=$(loop 5 "$bin/mirage-advise" -j 554353 -Q "$dir/ls6.jobs" -n 84 --now 2022-11-20T15:00:00 -m "$dir/gbt.mrm")
{
	for f in p76 p76-each p76h p76h-each p84h; do
		echo "$f $(decisions "$dir/$f.err")"
	done
} > "$dir/decisions.txt"
awk -v p="$t_p" -v p0="$t_p0" -v ph="$t_ph" -v ph0="$t_ph0" -v fh="$t_fh" -v e="$t_models" -v l="$tl" -v g="$tg" '
	{ n[$1] = $2; own[$1] = $3 }
	END {
	printf "\nthe planner, 8 futures, reference mode at 76 nodes (2 threads), timed once\n"
	printf "  mirage-eval --plan 8, 312 episodes:                  %7.1f s   (target: under 60 s; ratio %.2f; the 6 models: %.1f s)\n", p, p / 60, e
	printf "    %d decisions, %d with futures of their own: %.2f ms of wall time each\n", n["p76"], own["p76"], own["p76"] ? 1000 * p / own["p76"] : 0
	printf "    every decision planned (--plan-every 0): %7.1f s, %d decisions (%.2fx the time)\n", p0, own["p76-each"], p0 / p
	printf "  mirage-eval --plan 8 --handover 10m, 312 episodes:   %7.1f s   (target: under 120 s; ratio %.2f)\n", ph, ph / 120
	printf "    %d decisions, %d with futures of their own: %.2f ms of wall time each\n", n["p76h"], own["p76h"], own["p76h"] ? 1000 * ph / own["p76h"] : 0
	printf "    every decision planned (--plan-every 0): %7.1f s, %d decisions (%.2fx the time)\n", ph0, own["p76h-each"], ph0 / ph
	printf "  the faithful setting (84 nodes), --plan 8 --handover 10m: %7.1f s   (target: under 240 s; ratio %.2f)\n", fh, fh / 240
	printf "    %d decisions, %d with futures of their own\n", n["p84h"], own["p84h"]
	printf "  mirage-advise --plan 8, one decision on the LS6 stream: %6.0f ms   (target: under 20 ms; ratio %.2f)\n", l * 200, l * 200 / 20
	printf "  mirage-advise -m gbt.mrm, the same dump:               %6.0f ms   (planner / gbt: %.1fx)\n", g * 200, l / g
}' "$dir/decisions.txt"
# the curves of the planner reusing plans against every decision planned
# (share without interruption at each price, and lease given up)
for h in p76 p76h; do
	awk -F'\t' -v name="$h" 'FNR == 1 { f++ } $1 == "planner" { k = $2 " " $3; if (f == 1) { a[k] = $4; b[k] = $7 } else if (k in a) { n++; ds += $4 - a[k]; dl += $7 - b[k] } }
	    END { if (n) printf "  %s: reused against every decision planned, %d prices: share without interruption %+.2f points, lease %+.2f h on average\n", name, n, 100 * ds / n, dl / n }' \
	    "$dir/$h-each.tsv" "$dir/$h.tsv"
done

# Under overload: one live planner decision on a queue of 20,000 pending
# jobs (drawn with a fixed seed: sizes 1-8 nodes, limits 1-48 h, five
# days of submissions) with LS6 as the history (target: under 2 s), and
# LS6 three times over on the same 84 nodes in the faithful model against
# three times one copy, without and with a per-user limit (target: at
# most 5x per job).
python3 - "$dir/q20k.txt" <<'PY'
import datetime, random, sys
random.seed(1)
now = datetime.datetime(2022, 11, 20, 15, 0, 0)
f = lambda t: t.strftime('%Y-%m-%dT%H:%M:%S')
with open(sys.argv[1], 'w') as o:
    o.write('JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|PRIORITY|USER\n')
    o.write('900000|gpu|R|%s|%s|2-00:00:00|1|1000|alice\n' % (
        f(now - datetime.timedelta(hours=46)), f(now - datetime.timedelta(hours=45))))
    for i in range(60):
        s = now - datetime.timedelta(minutes=random.randint(10, 2800))
        o.write('%d|gpu|R|%s|%s|2-00:00:00|1|1000|u%d\n' % (
            910000 + i, f(s - datetime.timedelta(minutes=5)), f(s), i % 30))
    for i in range(20000):
        s = now - datetime.timedelta(minutes=random.randint(1, 5 * 1440))
        lim = random.choice(['2-00:00:00', '1-00:00:00', '12:00:00', '04:00:00', '01:00:00'])
        o.write('%d|gpu|PD|%s|N/A|%s|%d|%d|u%d\n' % (
            920000 + i, f(s), lim, random.choice([1, 1, 1, 2, 4, 8]),
            random.randint(500, 5000), i % 200))
PY
t20=$(best "$bin/mirage-advise" -j 900000 -Q "$dir/q20k.txt" -H "$dir/ls6.jobs" -n 84 --now 2022-11-20T15:00:00 --plan 8)
[ -s "$dir/ls6x3.jobs" ] || copies 3 | "$bin/mirage-parse" -q -z UTC -o "$dir/ls6x3.jobs"
t_f3=$(best "$bin/mirage-eval" --replay -q -m faithful -n 84 "$dir/ls6x3.jobs")
t_f3u=$(best "$bin/mirage-eval" --replay -q -m faithful -n 84 -s MaxJobsPerUser=8 "$dir/ls6x3.jobs")
awk -v q="$t20" -v f1="$t_f1" -v f3="$t_f3" -v u1="$t_faith" -v u3="$t_f3u" 'BEGIN {
	printf "\nunder overload\n"
	printf "  mirage-advise --plan 8, a queue of 20,000 pending jobs: %6.0f ms   (target: under 200 ms; ratio %.2f)\n", q * 1000, q / 0.2
	printf "  faithful replay of LS6 three times over, per job against one copy: %.1fx   (target: at most 5x; %.2f s against %.2f s)\n", f3 / (3 * f1), f3, f1
	printf "  the same with MaxJobsPerUser=8:                                  %.1fx   (target: at most 5x; %.2f s against %.2f s)\n", u3 / (3 * u1), u3, u1
}'
# The promise walked forward: December to March a day at a time, each
# day's settings chosen on the 28 days before it, without the planner
# (target: under 10 minutes per setting), against the one month of
# --target it generalises (chosen on February, run on March) measured in
# the same run; and the nightly re-choice of the settings on the last 4
# weeks (target: under 5 minutes).
walk=(--handover 10m --target 99% -k 1,8 "$dir/ls6.jobs")
t_walk=$(best "$bin/mirage-eval" -q -m reference -n 76 -f 2022-12-05 -u 2023-03-31 --walk-forward 1d -o /dev/null "${walk[@]}")
t_walkf=$(best "$bin/mirage-eval" -q -m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120 \
    -s PriorityWeightFairshare=1000 -s CapacityFromTrace=3600 -s CapacitySlack=4 \
    -f 2022-12-05 -u 2023-03-31 --walk-forward 1d -o /dev/null "${walk[@]}")
t_month=$(best "$bin/mirage-eval" -q -m reference -n 76 -f 2023-03-01 -N 156 --train-from 2023-02-01 --train-count 138 -o /dev/null "${walk[@]}")
t_night=$(best "$bin/mirage-eval" -q -m reference -n 76 --train-from 2023-02-20 --train-count 168 -f 2023-03-25T20:00:00 -N 6 -o /dev/null "${walk[@]}")
awk -v w="$t_walk" -v f="$t_walkf" -v m="$t_month" -v n="$t_night" 'BEGIN {
	printf "\nthe promise walked forward, December to March (697 links a size; 2 cores)\n"
	printf "  loaded (76 nodes):   %6.1f s   (target: under 600 s; ratio %.3f; %.1fx the one month of --target, %.1f s)\n", w, w / 600, w / m, m
	printf "  faithful (84 nodes): %6.1f s   (target: under 600 s; ratio %.3f)\n", f, f / 600
	printf "  the nightly re-choice on the last 4 weeks: %.1f s   (target: under 300 s; ratio %.3f)\n", n, n / 300
}'
# Many chains at once with the planner: 30% of the long work as services,
# faithful (84 nodes), in the validation month, with 2 threads (target:
# under 2 minutes on 2 cores) against 1, timed once each; the table is the
# same either way.
ad=(-q --adoption 30 --adopt-method plan --plan 8 --handover 10m -m faithful -n 84 -s MaxJobsPerUser=8
    -s DependencyFromTrace=120 -s PriorityWeightFairshare=1000 -s CapacityFromTrace=3600 -s CapacitySlack=4
    -f 2023-03-01 -N 156 "$dir/ls6.jobs")
t_ad1=$(once "$bin/mirage-eval" -t 1 -o "$dir/adopt-t1.tsv" "${ad[@]}")
t_ad2=$(once "$bin/mirage-eval" -t 2 -o "$dir/adopt-t2.tsv" "${ad[@]}")
same="the same table"
cmp -s "$dir/adopt-t1.tsv" "$dir/adopt-t2.tsv" || same="THE TABLES DIFFER"
awk -v a="$t_ad1" -v b="$t_ad2" -v same="$same" 'BEGIN {
	printf "\nmany chains at once, the planner at 30%% (faithful, 84 nodes, the validation month)\n"
	printf "  2 threads: %6.1f s   (target: under 120 s; ratio %.2f; %.2fx the time of 1 thread, %.1f s; %s)\n", b, b / 120, b / a, a, same
}'
# The site's report as mirage-pipelines(7) documents it: cluster-report.sh
# -T 99% -A 30 -S 1-8 on LS6 at 76 nodes (the last 60 episodes per size,
# the target's table and its walk, eight draws of services of six
# replays each, run side by side on the cores).  The target: under 15
# minutes on 2 cores.  The peer, in this run: one of its replays alone
# (the rule the table recommends, one draw of services).
rm -rf "$dir/report"
t_rep=$(B=$bin once pipelines/cluster-report.sh -o "$dir/report" -n 76 -T 99% -A 30 -S 1-8 -- -n 76 "$dir/ls6.jobs")
rep_ok="the page written"
[ -s "$dir/report/index.html" ] && grep -q 'recommended: ' "$dir/report/index.html" || rep_ok="THE PAGE IS MISSING OR HAS NO RECOMMENDATION"
t_one=$(once "$bin/mirage-eval" -q --adoption 30 --adopt-method "target:$dir/report/target.tsv" --adopt-seed 1 \
    --handover 10m -n 76 -f 2023-03-16 -u 2023-03-26 -o "$dir/report-one.tsv" "$dir/ls6.jobs")
awk -v a="$t_rep" -v b="$t_one" -v ok="$rep_ok" 'BEGIN {
	printf "\nthe documented report (cluster-report.sh -T 99%% -A 30 -S 1-8, LS6 at 76 nodes)\n"
	printf "  %6.1f s   (target: under 900 s on 2 cores; ratio %.2f; %.1fx one of its replays alone, %.1f s; %s)\n", a, a / 900, a / b, b, ok
}'
# make demo's wall time (the loaded setting in full), and make
# reproduce's (all three settings), as their last runs recorded them
# (neither is run here: each takes longer than the rest together)
if [ -s build/results/demo-seconds ]; then
	awk '{ printf "\nmake demo, its last run: %.0f s   (target: under 600 s on 2 idle cores; ratio %.2f)\n", $1, $1 / 600 }' \
	    build/results/demo-seconds
else
	printf "\nmake demo: no run recorded (build/results/demo-seconds); run make demo first\n"
fi
if [ -s build/results/reproduce-seconds ]; then
	awk '{ printf "make reproduce, its last run: %.0f s   (no target: the whole protocol in three settings)\n", $1 }' \
	    build/results/reproduce-seconds
fi
# The fail-safe soak at length: 100,000 schedules of the simulated Slurm
# (tests/unit/t_soak.c; make check runs 1,000), in two processes of
# 50,000 seeds each.  Not a speed figure: how many broke an invariant
# (the target: none), and how long it took.
soak_t0=$SECONDS
"$bin/tests/t_soak" 50000 1 > "$dir/soak1.txt" &
"$bin/tests/t_soak" 50000 50001 > "$dir/soak2.txt"
wait
cat "$dir/soak1.txt" "$dir/soak2.txt" | awk -v s=$((SECONDS - soak_t0)) '
	/^# seed/ { if (++shown <= 5) print "  " $0 }
	/^(not )?ok 1 - soak:/ { x = $0; sub(/.* - soak: /, "", x); n += x + 0
		sub(/.*, /, "", x); broke += x + 0 }
	END { printf "\nthe fail-safe soak: %d schedules, %d broke an invariant   (target: 0; %d s on 2 cores)\n", n, broke, s }'
