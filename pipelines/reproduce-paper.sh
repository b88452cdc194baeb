#!/usr/bin/env bash
# reproduce-paper.sh: the main job on the bundled LS6 A100 trace.
#
# It parses the trace into a jobs stream and prints what the trace holds
# (the statistics the Mirage paper's simulator starts from), measures the
# cluster model against the real waits, then runs the paper's protocol
# in the loaded setting (reference mode at 76 nodes): episodes, features
# and labels, training of every model, and the evaluation table against
# the baselines, the oracle and the planner, without and with handing
# over; it ends with a bottom line in words.  With --all, the protocol
# runs in all three settings (reference at 88 and 76 nodes, faithful),
# with preemption and inside the node.
# Usage: pipelines/reproduce-paper.sh [--all] [OUTDIR]   (MIRAGE_QUICK=1:
#   small; MIRAGE_REUSE=1: print again the summary of the results in OUTDIR)
# Environment: B, the build directory with the tools (build/default).
set -euo pipefail
all=0
case ${1:-} in
-h | --help)
	sed -n '/^# Usage:/,/^# Environment:/p' "$0" | sed 's/^# \{0,1\}//'
	exit 0 ;;
-a | --all)
	all=1
	shift ;;
esac
case ${1:-} in
-*)
	echo "usage: $(sed -n 's/^# Usage: //p' "$0")" >&2
	exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${B:-build/default}
case $bin in /*) ;; *) bin=$root/$bin ;; esac
PATH=$bin:$PATH
out=${1:-$root/build/results}
mkdir -p "$out"
export LC_ALL=C
# each stage on standard error, with the time since the start
stage() { printf '== %d:%02d %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }

stage "mirage-parse: data/ls6-a100.log.gz -> $out/ls6.jobs"
# the trace's times are read as UTC, as the reference simulator reads
# them (no daylight-saving shifts): results do not depend on TZ
mirage-parse -z UTC "$root/data/ls6-a100.log.gz" -o "$out/ls6.jobs"

# ymd(D): the UTC date of day D since the epoch (POSIX awk has no
# strftime): the civil calendar from a day count (H. Hinnant,
# "chrono-compatible low-level date algorithms"), D >= 0
ymd='function ymd(z,   e, y, p, m) { z += 719468; e = z % 146097
	y = int((e - int(e / 1460) + int(e / 36524) - int(e / 146096)) / 365)
	e -= 365 * y + int(y / 4) - int(y / 100); p = int((5 * e + 2) / 153); m = p < 10 ? p + 3 : p - 9
	return sprintf("%04d-%02d-%02d", y + int(z / 146097) * 400 + (m <= 2), m, e - int((153 * p + 2) / 5) + 1) }
'
mirage-cat "$out/ls6.jobs" | awk -F'\t' "$ymd"'
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	n++
	sub_ = $c["submit"]; st = $c["start"]; en = $c["end"]
	nodes = $c["nnodes"]; lim = $c["timelimit"]
	users[$c["uid"]] = 1
	if (n == 1 || sub_ < s0) s0 = sub_
	if (n == 1 || sub_ > s1) s1 = sub_
	if (st != "") { w = (st - sub_) / 3600; wait[++nw] = w; wsum += w }
	if (st != "" && en != "") { r = (en - st) / 3600; rsum += r; nr++
		nodeh += r * nodes }
	bysize[nodes <= 1 ? "1" : nodes <= 4 ? "2-4" : nodes <= 16 ? "5-16" : "17+"]++
	lh = lim / 3600
	bylim[lh <= 1 ? "<=1h" : lh <= 6 ? "<=6h" : lh <= 24 ? "<=24h" : lh <= 48 ? "<=48h" : ">48h"]++
}
function pct(p,   k) { k = int(p / 100 * (nw - 1)) + 1; return wait[k] }
function day(t) { return sprintf("%s %02d:%02d", ymd(int(t / 86400)), int(t % 86400 / 3600), int(t % 3600 / 60)) }
END {
	asort_(wait, nw)
	printf "LS6 A100 trace (CC BY 4.0, Mirage SC23 authors)\n"
	printf "  jobs                %d\n", n
	printf "  users               %d\n", length(users)
	printf "  submitted           %s .. %s (UTC wall clock)\n", day(s0), day(s1)
	printf "  used node-hours     %.0f\n", nodeh
	printf "  mean run time       %.2f h\n", rsum / nr
	printf "  wait (start-submit) mean %.2f h; p25 %.2f p50 %.3f p75 %.2f p90 %.1f p99 %.1f max %.1f h\n",
	    wsum / nw, pct(25), pct(50), pct(75), pct(90), pct(99), wait[nw]
	printf "  jobs by nodes      "
	split("1 2-4 5-16 17+", ks, " ")
	for (i = 1; i <= 4; i++) printf " %s: %d", ks[i], bysize[ks[i]]
	printf "\n  jobs by time limit "
	split("<=1h <=6h <=24h <=48h >48h", ks, " ")
	for (i = 1; i <= 5; i++) printf " %s: %d", ks[i], bylim[ks[i]]
	printf "\n"
}
# a merge sort, since POSIX awk has no asort
function asort_(a, n,   w, i) { msort(a, 1, n); return n }
function msort(a, lo, hi,   mid, i, j, k, t) {
	if (hi <= lo) return
	mid = int((lo + hi) / 2)
	msort(a, lo, mid); msort(a, mid + 1, hi)
	i = lo; j = mid + 1; k = 0
	while (i <= mid || j <= hi)
		if (j > hi || (i <= mid && a[i] <= a[j])) t[++k] = a[i++]
		else t[++k] = a[j++]
	for (i = 1; i <= k; i++) a[lo + i - 1] = t[i]
}' | tee "$out/ls6-summary.txt"
# the cluster model against the trace's real waits
stage "mirage-eval --replay: the cluster models against the real waits"
{
	echo
	printf 'cluster model replaying the trace      sim mean wait   wait MAE   Spearman\n'
	for m in "reference, 88 nodes (the original)|-m reference -n 88" \
	    "faithful, 84 nodes, user limit 8, ...|-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120 -s PriorityWeightFairshare=1000 -s CapacityFromTrace=3600 -s CapacitySlack=4"; do
		# shellcheck disable=SC2086
		mirage-eval --replay -q ${m#*|} "$out/ls6.jobs" |
		    awk -F'\t' -v name="${m%%|*}" '$1 == "all" {
			printf "  %-36s %8.2f h %9.2f h %9.2f\n", name, $4, $5, $8 }'
	done
	# the reference model's capacity calibrated on the trace
	echo
	echo "the reference model calibrated on the trace (pipelines/calibrate.sh -- -m reference):"
	B=$bin "$root/pipelines/calibrate.sh" "$out/ls6.jobs" -- -m reference | sed 's/^/  /'
} | tee -a "$out/ls6-summary.txt"

# The paper's protocol, in three settings: the episodes of the training
# period (684 from 2022-11-01) give samples (features at 7 probe times
# and every 30 minutes, and the outcome x of submitting then) for the
# supervised models and the environment of the RL agents; the 156
# validation episodes from 2023-03-01 evaluate every model against the
# baselines and the oracle, for 1- and 8-node chains.
# MIRAGE_QUICK=1 (the tests) runs a small version of every stage.
faithful="-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120 -s PriorityWeightFairshare=1000 -s CapacityFromTrace=3600 -s CapacitySlack=4"
ntrain=684 nvalid=156 play=3000 futures=8 rplay=400 rreq=5000 nchoose=138
# the walk forward: December (from the 5th, four weeks after the trace's
# first) to March, a day at a time, each on the 28 days before it
wfrom=2022-12-05 wuntil=2023-03-31 whistory=28d
if [ "${MIRAGE_QUICK:-0}" = 1 ]; then
	ntrain=24 nvalid=12 play=200 futures=2 rplay=20 rreq=1000 nchoose=8
	wfrom=2023-02-06 wuntil=2023-02-19 whistory=14d
fi
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
protocol() { # protocol NAME MODEL-OPTIONS...
	local name=$1 dir=$out/$1
	shift
	mkdir -p "$dir"
	# MIRAGE_REUSE=1: print the summary of an earlier run's results
	if [ "${MIRAGE_REUSE:-0}" = 1 ] && [ -s "$dir/table.tsv" ] && [ -s "$dir/curve.tsv" ] &&
	    [ -s "$dir/handover.tsv" ] && [ -s "$dir/handover-curve.tsv" ]; then
		summary "$name" "$dir" | tee -a "$out/ls6-summary.txt"
		return
	fi
	stage "$name: mirage-features, mirage-train (gbt rf clf svr dqn pg)"
	# (progress on a terminal only; a log gets the summaries)
	mirage-features "$@" -f 2022-11-01 -N $ntrain -k 1,8 -w 1 -p 7 --probe-every 30m \
	    -o "$dir/train.mrs" "$out/ls6.jobs"
	for a in gbt rf clf svr; do
		mirage-train -q -a $a -t 2 -o "$dir/$a.mrm" "$dir/train.mrs"
	done
	for a in dqn pg; do
		mirage-train -a $a "$@" -f 2022-11-01 -N $ntrain -k 1,8 --play $play \
		    -o "$dir/$a.mrm" "$out/ls6.jobs"
	done
	models=(-M "$dir/gbt.mrm" -M "$dir/rf.mrm" -M "$dir/clf.mrm" -M "$dir/svr.mrm"
	    -M "$dir/dqn.mrm" -M "$dir/pg.mrm")
	stage "$name: mirage-eval, $nvalid episodes x 2 sizes"
	mirage-eval "$@" -f 2023-03-01 -N $nvalid -k 1,8 "${models[@]}" --plan $futures \
	    -F tsv -o "$dir/table.tsv" -C "$dir/curve.tsv" -E "$dir/episodes.mrs" "$out/ls6.jobs"
	# the chain hands over in 10 minutes: decisions from P's start,
	# priced by the lease given up, beside the fixed leads
	stage "$name: mirage-eval --handover 10m, $nvalid episodes x 2 sizes"
	mirage-eval "$@" -f 2023-03-01 -N $nvalid -k 1,8 "${models[@]}" --plan $futures --handover 10m \
	    -F tsv -o "$dir/handover.tsv" -C "$dir/handover-curve.tsv" -E "$dir/handover.mrs" "$out/ls6.jobs"
	summary "$name" "$dir" | tee -a "$out/ls6-summary.txt"
}
summary() { # summary NAME DIR: the table and the curves' readings
	local name=$1 dir=$2
	echo
	echo "$name: $nvalid validation episodes from 2023-03-01 (trained on $ntrain from 2022-11-01)"
	awk -F'\t' 'NR == 1 { printf "  %-19s %5s %10s %9s %9s %9s %10s\n", "method", "nodes",
	    "no-int %", "int mean", "int p90", "ovl mean", "oracle gap"; next }
	    # the share from the count of chains, rounded once (145 of 156 is 92.9%)
	    { printf "  %-19s %5d %9.1f%% %7.2f h %7.2f h %7.2f h %8.2f h\n", $1, $2, 100 * int($4 * $3 + 0.5) / $3, $6, $8, $9, $10 }' \
	    "$dir/table.tsv"
	# the chain hands over in 10 minutes: P checkpoints and leaves when
	# S starts, so an early start costs GPU time held twice (at most 10
	# minutes a link) and the lease given up, not the overlap
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
		printf "  handing over in 10 minutes (mirage-eval --handover 10m):\n"
		printf "  %-19s %5s %10s %12s %12s %12s %23s\n", "method", "nodes", "no-int %", "held twice",
		    "lease given", "99% at lease", "30 days: down / wasted"; next }
	    $1 != "average-wait" && $1 != "scheduler-estimate" {
		r = $c["reach_99_lease_h"]
		printf "  %-19s %5d %9.1f%% %9.2f nh %10.2f h %12s %7.1f h / %6.1f nh\n", $1, $2,
		100 * int($4 * $3 + 0.5) / $3, $c["held_twice_nh"], $c["lease_given_h"],
		(r < 0 ? "never" : sprintf("%.2f h", r)), $c["down_h_30d"], $c["handover_wasted_nh_30d"] }' \
	    "$dir/handover.tsv"
	# what a method that knew the future could reach (mirage-eval(1))
	awk -F'\t' '$1 != "oracle-bound" { next }
	    !($2 in at1) { k[++n] = $2; at1[$2] = "-"; b90[$2] = "> 8" }
	    $3 == 1 { at1[$2] = sprintf("%.1f%%", 100 * $4) }
	    $4 >= 0.9 && b90[$2] == "> 8" { b90[$2] = $3 }
	    END { for (i = 1; i <= n; i++)
		printf "  bound (knowing the future), %d-node chains: %s without interruption at 1 h mean overlap; 90%% at %s h\n",
		    k[i], at1[k[i]], b90[k[i]] }' \
	    "$dir/curve.tsv"
	# each method's least mean overlap with 90% without interruption,
	# and its most chains without interruption within 1 h of overlap
	awk -F'\t' 'NR == 1 || $1 == "oracle-bound" { next }
	    !(($2, $1) in best) { if (!($2 in seen)) { seen[$2] = 1; k[++n] = $2 }
		m[$2, ++nm[$2]] = $1; best[$2, $1] = "-"; in1[$2, $1] = "-" }
	    $4 >= 0.9 && (best[$2, $1] == "-" || $6 < best[$2, $1]) { best[$2, $1] = $6 }
	    $6 <= 1 && (in1[$2, $1] == "-" || $4 > in1[$2, $1]) { in1[$2, $1] = $4 }
	    END { for (i = 1; i <= n; i++) {
		printf "  90%% without interruption, %d-node chains, at a mean overlap of (h):\n   ", k[i]
		for (j = 1; j <= nm[k[i]]; j++) {
			b = best[k[i], m[k[i], j]]
			printf " %s %s", m[k[i], j], (b == "-" ? "-" : sprintf("%.2f", b))
		}
		printf "\n  without interruption at a mean overlap of at most 1 h, %d-node chains (%%):\n   ", k[i]
		for (j = 1; j <= nm[k[i]]; j++) {
			b = in1[k[i], m[k[i], j]]
			printf " %s %s", m[k[i], j], (b == "-" ? "-" : sprintf("%.1f", 100 * b))
		}
		printf "\n" } }' "$dir/curve.tsv"
}
# The reliability target: what a user who asks for 99% (and 99.9%) of
# the links without an interruption, handing over in 10 minutes, gets.
# Every method's setting is chosen on February's 138 episodes (4
# time-blocked folds), never on the validation month's; the models are
# trained on the training period's episodes up to 2023-01-25, so that
# February is new to them too.  The planner takes part with --all
# (make reproduce).
target() { # target NAME MODEL-OPTIONS...
	local name=$1 dir=$out/$1/target a
	local plan=()
	shift
	[ $all = 1 ] && plan=(--plan $futures)
	mkdir -p "$dir"
	if ! { [ "${MIRAGE_REUSE:-0}" = 1 ] && [ -s "$out/$name/target.tsv" ]; }; then
		stage "$name: mirage-train on the episodes up to 2023-01-25; mirage-eval --target 99%,99.9% --handover 10m"
		mirage-split -q -d 2023-01-25 -t "$dir/train.mrs" -v "$dir/after.mrs" "$out/$name/train.mrs"
		for a in gbt rf clf svr; do
			mirage-train -q -a $a -t 2 -o "$dir/$a.mrm" "$dir/train.mrs"
		done
		mirage-eval -q "$@" -f 2023-03-01 -N $nvalid -k 1,8 -M "$dir/gbt.mrm" -M "$dir/rf.mrm" \
		    -M "$dir/clf.mrm" -M "$dir/svr.mrm" "${plan[@]}" --handover 10m --target 99%,99.9% \
		    --train-from 2023-02-01 --train-count $nchoose -F tsv -o "$out/$name/target.tsv" "$out/ls6.jobs"
	fi
	{
		echo
		echo "$name: a reliability target, handing over in 10 minutes (mirage-eval --target 99%,99.9%):"
		echo "  settings chosen on $nchoose episodes from 2023-02-01 (4 time-blocked folds), then run on the $nvalid validation episodes"
		awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
			printf "  %-6s %-19s %5s %-10s %12s %10s %18s %12s %11s\n", "target", "method", "nodes", "setting",
			    "train worst", "no-int %", "(95% interval)", "lease given", "held twice"; next }
		    # 99.9%: the method recommended and the fixed lead only
		    $c["target"] != 0.99 && $c["recommended"] != 1 && $1 != "lead" { next }
		    { s = $c["setting"] == "-" ? "-" : $c["setting_kind"] == "lead_h" || $c["setting_kind"] == "margin_h" ? $c["setting"] " h" : $c["setting"]
		      printf "  %5.1f%% %-19s %5d %-10s %11.1f%%%s %9.1f%% %8.1f-%5.1f%% %10.2f h %8.2f nh\n", 100 * $c["target"], $1, $2, s,
			100 * $c["train_worst_share"], ($c["recommended"] == 1 ? "*" : $c["reached"] == 1 ? " " : "!"),
			100 * $c["no_interruption_share"], 100 * $c["share_lo"], 100 * $c["share_hi"],
			$c["lease_given_h"], $c["held_twice_nh"] }' "$out/$name/target.tsv"
		echo "  (* recommended: of the settings that reached the target in every fold, one on the queue now, then the cheapest;"
		echo "   ! short of it in a fold; 99.9%: the method recommended and the fixed lead)"
	} | tee -a "$out/ls6-summary.txt"
}
# The promise as it is deployed: from December to March, every day's
# settings chosen only on the 28 days before it (the window the nightly
# run has, nightly-retrain.sh -T), then run on that day, with the rules
# a settings table carries (Slurm's estimate with a margin, a fixed
# lead) and the baselines.
walk() { # walk NAME MODEL-OPTIONS...
	local name=$1
	shift
	if ! { [ "${MIRAGE_REUSE:-0}" = 1 ] && [ -s "$out/$name/walk.tsv" ] && [ -s "$out/$name/walk.txt" ] && [ -s "$out/$name/real.txt" ] && [ -s "$out/$name/real-ahead2.txt" ]; }; then
		stage "$name: mirage-eval --target 99% --walk-forward 1d, $wfrom to $wuntil"
		local run=(-q "$@" -f $wfrom -u $wuntil -k 1,8 --handover 10m --target 99%
		    --walk-forward 1d --history $whistory)
		mirage-eval "${run[@]}" -F tsv --table "$out/$name/walk-choices.tsv" -o "$out/$name/walk.tsv" \
		    --text "$out/$name/walk.txt" "$out/ls6.jobs"
		# the same walk judged by the trace's real jobs, not the model
		mirage-eval "${run[@]}" --real -F tsv --table "$out/$name/real-tests.tsv" -o "$out/$name/real.tsv" \
		    "$out/ls6.jobs"
		mirage-eval "${run[@]}" --real -o "$out/$name/real.txt" "$out/ls6.jobs"
		# and with the successor's successor queued too: a lead of up
		# to two limits
		mirage-eval "${run[@]}" --real --ahead 2 -o "$out/$name/real-ahead2.txt" "$out/ls6.jobs"
	fi
	{
		echo
		echo "$name: 99% handing over in 10 minutes, walked forward (mirage-eval --target 99% --walk-forward 1d):"
		echo "  each day's settings chosen on the $whistory before it only, $wfrom to $wuntil; the share kept each month"
		sed 's/^./  &/' "$out/$name/walk.txt"
		echo "  and by the real jobs like successors (--real):"
		sed 's/^./  &/' "$out/$name/real.txt"
		echo "  and with the successor's successor queued too (--real --ahead 2), in all:"
		sed -n '/^ *[0-9]*-node [a-z-]* *all /s/^./  &/p' "$out/$name/real-ahead2.txt"
	} | tee -a "$out/ls6-summary.txt"
}
# Preemption: the same faithful cluster where 10% of the
# trace's jobs are urgent and preempt best-effort ones (PickyMan's
# victims, deep-learning overheads drawn with seed 1): the reactive
# successor, and the reactive successor submitted as an urgent job, with
# what its preemptions cost the other jobs.
preempt() {
	local dir=$out/preempt-84
	mkdir -p "$dir"
	if ! { [ "${MIRAGE_REUSE:-0}" = 1 ] && [ -s "$dir/table.tsv" ] && [ -s "$dir/cost.txt" ]; }; then
		stage "preemption: mirage-eval, the baselines and reactive-preempt"
		# shellcheck disable=SC2086
		mirage-eval $faithful -s PreemptMode=REQUEUE -s VictimPolicy=pickyman \
		    -s DLAttrSeed=1 -f 2023-03-01 -N $nvalid -k 1,8 -F tsv \
		    -o "$dir/table.tsv" "$out/ls6.jobs" 2> "$dir/cost.txt"
	fi
	{
		echo
		echo "preemption: faithful-84 with 10% of the jobs urgent (REQUEUE, PickyMan's victims), $nvalid validation episodes"
		awk -F'\t' 'NR == 1 { printf "  %-19s %5s %10s %9s %9s %9s\n", "method", "nodes",
		    "no-int %", "int mean", "int p90", "ovl mean"; next }
		    $1 == "reactive" || $1 == "reactive-preempt" {
			printf "  %-19s %5d %9.1f%% %7.2f h %7.2f h %7.2f h\n", $1, $2,
			    100 * int($4 * $3 + 0.5) / $3, $6, $8, $9 }' "$dir/table.tsv"
		sed -n 's/^mirage-eval: reactive-preempt, /  reactive-preempt, /p' "$dir/cost.txt"
	} | tee -a "$out/ls6-summary.txt"
}
# Inside the node: DNN inference on a multi-accelerator
# system (2 WS + 2 RS sub-accelerators, 40 GB/s of DRAM) under
# contention, the heuristic dispatchers against RELMAS, the learned one,
# trained here on the accelerator model (held-out arrivals: seed 101).
inside() {
	local dir=$out/accel
	mkdir -p "$dir"
	if ! { [ "${MIRAGE_REUSE:-0}" = 1 ] && [ -s "$dir/relmas.mrm" ]; }; then
		stage "inside the node: mirage-accel train"
		mirage-accel train -q -s Bandwidth=40 --play "$rplay" -o "$dir/relmas.mrm"
	fi
	mirage-accel eval -q -s Bandwidth=40 -s Load=0.45 -s ArrivalSeed=101 \
	    -s Requests="$rreq" -M "$dir/relmas.mrm" -o "$dir/table.tsv"
	{
		echo
		echo "inside the node: DNN inference on 2 WS + 2 RS sub-accelerators, 40 GB/s, load 0.45, $rreq requests"
		awk -F'\t' 'NR == 1 { printf "  %-9s %12s %16s %14s\n", "policy", "deadlines met", "latency mean", "energy vs EDF"; next }
		    { printf "  %-9s %11.1f%% %13.1f ms %14.3f\n", $1, 100 * $3, $4, $7 }' "$dir/table.tsv"
	} | tee -a "$out/ls6-summary.txt"
}
# The bottom line, in words: in each setting and chain size, the method
# a user can run (not the oracle, the bound or the perfect- readings)
# that brings the most chains through without interruption at a mean
# overlap of at most 1 h, next to Slurm's afterany dependency (the
# reactive rule).
bottom_line() { # bottom_line SETTING...
	local s
	echo
	echo "bottom line: which method to use, and what it brings over Slurm's afterany dependency"
	for s in "$@"; do
		[ -s "$out/$s/curve.tsv" ] || continue
		awk -F'\t' -v s="$s" '
		    FNR == 1 { f++; next }
		    f == 1 && $1 == "reactive" { r[$2] = $4 }
		    f == 2 && $1 != "oracle-bound" && $1 != "oracle" && $1 !~ /^perfect-/ && $1 != "reactive" &&
			$6 <= 1 && (!($2 in b) || $4 > b[$2]) { b[$2] = $4; m[$2] = $1 }
		    f == 2 && !($2 in seen) { seen[$2] = 1; k[++n] = $2 }
		    END { for (i = 1; i <= n; i++) { z = k[i]
			if ((z in b) && b[z] > r[z])
				printf "  %s, %d-node chains: use %s: %.1f%% run without interruption at a mean overlap of at most 1 h, against %.1f%% with afterany\n",
				    s, z, (m[z] == "planner" ? "the planner (mirage-advise --plan)" : m[z]), 100 * b[z], 100 * r[z]
			else
				printf "  %s, %d-node chains: use afterany (the reactive rule): %.1f%% run without interruption, no method does better within 1 h of mean overlap\n", s, z, 100 * r[z] } }' \
		    "$out/$s/table.tsv" "$out/$s/curve.tsv"
		# handing over at a target, walked forward: what following the
		# recommendation kept from December to March, each day's
		# settings chosen on the weeks before it, and the command
		[ -s "$out/$s/walk.tsv" ] || continue
		awk -F'\t' -v s="$s" '
		    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		    !($2 in seen) { seen[$2] = 1; k[++n] = $2 }
		    $c["month"] == "all" { sh[$1, $2] = $c["no_interruption_share"]; lo[$1, $2] = $c["share_lower"]
			le[$1, $2] = $c["lease_given_h"]; pr[$1, $2] = $c["promise"]; ep[$1, $2] = $c["episodes"]; t = $c["target"] }
		    $c["month"] != "all" && $1 == "recommended" && (!(($2) in wm) || $c["no_interruption_share"] < wm[$2]) {
			wm[$2] = $c["no_interruption_share"]; wn[$2] = $c["month"] }
		    END { for (i = 1; i <= n; i++) { z = k[i]
			printf "  %s, %d-node chains, %g%% handing over in 10 min, walked forward a day at a time (mirage-advise --handover --target %g%% --settings target.tsv, re-chosen nightly): %.1f%% of %d links without interruption (95%%: from %.1f%%), the worst month %s at %.1f%%, promised %.1f%%; %.2f h of lease given up a link; the fixed lead chosen the same way %.1f%% at %.2f h; afterany %.1f%%\n",
			    s, z, 100 * t, 100 * t, 100 * sh["recommended", z], ep["recommended", z], 100 * lo["recommended", z], wn[z], 100 * wm[z],
			    100 * pr["recommended", z], le["recommended", z], 100 * sh["lead", z], le["lead", z], 100 * sh["reactive", z] } }' \
		    "$out/$s/walk.tsv"
		[ -s "$out/$s/real.tsv" ] || continue
		awk -F'\t' -v s="$s" '
		    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		    $c["rule"] == "estimate" && $c["month"] == "all" && $c["judged"] > 0 {
			printf "  %s, %s-node chains, judged by what really happened (the same walk, --real): the estimate kept %.1f%% of %d real jobs like successors (95%%: from %.1f%%) at %.2f h given up; no rule could keep more than %.1f%%\n",
			    s, $c["nodes"], 100 * $c["share"], $c["judged"], 100 * $c["lower"], $c["given_up_mean_h"], 100 * $c["bound_share"] }' \
		    "$out/$s/real.tsv"
	done
}
if [ $all = 1 ]; then
	protocol "reference-88" -m reference -n 88
	target "reference-88" -m reference -n 88
	walk "reference-88" -m reference -n 88
	protocol "reference-76" -m reference -n 76
	target "reference-76" -m reference -n 76
	walk "reference-76" -m reference -n 76
	# shellcheck disable=SC2086
	protocol "faithful-84" $faithful
	# shellcheck disable=SC2086
	target "faithful-84" $faithful
	# shellcheck disable=SC2086
	walk "faithful-84" $faithful
	preempt
	inside
	bottom_line reference-88 reference-76 faithful-84 | tee -a "$out/ls6-summary.txt"
else
	protocol "reference-76" -m reference -n 76
	target "reference-76" -m reference -n 76
	walk "reference-76" -m reference -n 76
	bottom_line reference-76 | tee -a "$out/ls6-summary.txt"
fi
# the run's wall time, for make bench (not for a summary printed again)
[ "${MIRAGE_REUSE:-0}" = 1 ] || echo "$SECONDS" > "$out/$([ $all = 1 ] && echo reproduce || echo demo)-seconds"
stage "done"
echo "(summary also in $out/ls6-summary.txt; tables, curves and models in $out/*/; look at any stage with mirage-cat)" >&2
[ $all = 1 ] || echo "(make reproduce runs the protocol in all three settings, with preemption and inside the node)" >&2
