#!/usr/bin/env bash
# cluster-report.sh: one HTML page about a cluster from its accounting:
# load over time, wait-time distributions by job size and time limit,
# and the evaluation of the chain methods (the baselines, the planner
# and any models: a table and their curves), with SVG plots made by
# gnuplot.  A part
# that fails is said on the page (exit 1).  See mirage-pipelines(7).
#
# Usage: cluster-report.sh [-o outdir] [-t title] [-n nodes] [-M model]...
#            [-P futures] [-f from] [-N count] [-k sizes] [-z zone] [-T target]
#            [-A shares [-H harm] [-S seeds]] [-- cluster-model options] input
#   -P: the planner's futures (8; 0: no planner)
#   -A: many chains at once: these shares of the long jobs' work (e.g.
#       0,10,30,50) as services handing over in 10 minutes with the planner
#       (with -P 0: submitting 6 h before their ends; with -T, by the rule
#       its table recommends), against the same services reactive: the
#       other jobs' waits (mirage-eval --adoption); and the same with the
#       site's policies for early successors: at most 4 or 1 of them
#       waiting at once (a cap the scheduler would keep); a lead of 24 h
#       with at most 1 and a minimum run of half the limit; waiting behind
#       every other job until the predecessor's end (mirage-advise --low),
#       submitted by the rule or once the job has run half its limit
#       (--lead 48h --min-run 50%); the one recommended, of those mirage-advise
#       can deploy (no cap), kept the most links
#       without interruption with the others' mean wait up by at most
#       harm percent (5) in the span as long before the evaluated one,
#       medians over the draws of services -S gives: n, n-m or a list of
#       them (mirage-eval --adopt-seed; 1), the page's table and plot the
#       first draw's
#   -T: handing over in 10 minutes, each method's setting for this share of
#       links without an interruption (99%), chosen on the count episodes
#       before the evaluated ones (mirage-eval --target); and walked forward,
#       each week's settings chosen on the count episodes before it, the
#       promise and what was kept month by month (--walk-forward 7d)
#   input: a jobs stream, or any dump mirage-parse reads (sacct, the LS6 trace);
#   - for standard input; a dump's times are read in zone (default: local, as
#   sacct prints them)
# Example crontab line (Mondays at 06:00, last 30 days):
#   0 6 * * 1 sacct -a -X -P -S now-30days -o JobID,JobIDRaw,Partition,State,Submit,Start,End,Timelimit,NNodes,User | /usr/local/share/mirage/pipelines/cluster-report.sh -o /srv/www/ls6 -n 84 -M /var/lib/mirage/current.mrm -- -n 84 -
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# installed copies find the tools where make install put them (cron's
# PATH has no /usr/local/bin); a build directory, if any, comes first
installed_bin=
[ -n "$installed_bin" ] && PATH=$installed_bin:$PATH
bin=${B:-$root/build/default}
case $bin in /*) ;; *) bin=$root/$bin ;; esac
[ -x "$bin/mirage-parse" ] && PATH=$bin:$PATH
export LC_ALL=C OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

usage() { # usage [status]: -h on stdout, exit 0; a misuse on stderr, 2
	if [ "${1:-2}" = 0 ]; then
		sed -n '/^# Usage:/,/^# Example/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
	fi
	sed -n '/^# Usage:/,/^# Example/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}

out=report title="Cluster report" nodes= from= count=60 sizes=1,8 models=()
zone=local futures=8 target= adopt= harm=5 aseed=1
while getopts o:t:n:M:P:f:N:k:z:T:A:H:S:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	t) title=$OPTARG ;;
	n) nodes=$OPTARG ;;
	# a model by its own name, not its link's (current.mrm -> model-DATE.mrm)
	M) models+=(-M "$(readlink -f "$OPTARG" || echo "$OPTARG")") ;;
	P) futures=$OPTARG ;;
	f) from=$OPTARG ;;
	N) count=$OPTARG ;;
	k) sizes=$OPTARG ;;
	z) zone=$OPTARG ;;
	T) target=$OPTARG ;;
	A) adopt=$OPTARG ;;
	H) harm=${OPTARG%\%} ;;
	S) aseed=$OPTARG ;;
	h) usage 0 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
cmodel=()
while [ $# -gt 1 ]; do cmodel+=("$1"); shift; done
[ $# -eq 1 ] || usage
[ "${cmodel[0]:-}" != -- ] || cmodel=("${cmodel[@]:1}")
input=$1
[[ -z $nodes || $nodes =~ ^[1-9][0-9]*$ ]] || usage
[[ $futures =~ ^[0-9]+$ ]] || usage
[[ $target != *,* ]] || usage
[[ -z $adopt || $adopt =~ ^[0-9]+%?(,[0-9]+%?)*$ ]] || usage
[[ $harm =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage
# -S: draws of services, as n, n-m or a list of them (at most 100)
[[ $aseed =~ ^[1-9][0-9]*(-[1-9][0-9]*)?(,[1-9][0-9]*(-[1-9][0-9]*)?)*$ ]] || usage
seeds=()
IFS=, read -ra parts <<< "$aseed"
for p in "${parts[@]}"; do
	lo=${p%-*} hi=${p#*-}
	[ "$lo" -le "$hi" ] && [ $((${#seeds[@]} + hi - lo)) -lt 100 ] || usage
	for ((s = lo; s <= hi; s++)); do seeds+=("$s"); done
done
# -f: a date or epoch seconds, as mirage-eval takes it
if [ -n "$from" ] && ! [[ $from =~ ^[0-9]+$ ]]; then
	from=$(date -u -d "$from" +%s 2>/dev/null) || usage
fi
plan=()
[ "$futures" -eq 0 ] || plan=(--plan "$futures")
command -v gnuplot >/dev/null || { echo "cluster-report: gnuplot is needed (apt-get install gnuplot-nox)" >&2; exit 1; }

mkdir -p "$out"
# one report into a directory at a time
exec 9>"$out/.lock"
if ! flock -n 9; then
	echo "cluster-report: another run holds $out/.lock; not starting" >&2
	exit 75
fi
exec 2> >(tee -a "$out/report.log" >&2)
tmp=$(mktemp -d "$out/.work.XXXX")
# stopped: the replays running beside it stop too, and nothing is left
trap 'left=$(jobs -rp); [ -z "$left" ] || { kill $left; wait $left; } 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
# the new report is made whole in $site, then published (see the end)
site=$tmp/site
mkdir "$site"
say() { printf '%s cluster-report: %s\n' "$(date -u +%FT%TZ)" "$*" >&2; }
say "start: $input -> $out"

# the jobs: a jobs stream or a dump, from a file or standard input
input_name=$input
[ "$input" = - ] && input_name="<stdin>"
if [ "$input" = - ]; then
	cat > "$tmp/input"
	input=$tmp/input
fi
if [ "$(head -c 4 "$input" | od -An -tx1 | tr -d ' ')" = 894d5247 ]; then
	cp "$input" "$tmp/jobs.mrs"
else
	mirage-parse -q -z "$zone" "$input" -o "$tmp/jobs.mrs"
fi
mirage-cat "$tmp/jobs.mrs" > "$tmp/jobs.tsv"
if [ "$(wc -l < "$tmp/jobs.tsv")" -le 1 ]; then
	echo "cluster-report: '$input' holds no job: no report" >&2
	exit 1
fi

# ymd(D): the UTC date of day D since the epoch, for the awk programs
# below (POSIX awk has no strftime): the civil calendar from a day count
# (H. Hinnant, "chrono-compatible low-level date algorithms"), D >= 0
ymd='function ymd(z,   e, y, p, m) { z += 719468; e = z % 146097
	y = int((e - int(e / 1460) + int(e / 36524) - int(e / 146096)) / 365)
	e -= 365 * y + int(y / 4) - int(y / 100); p = int((5 * e + 2) / 153); m = p < 10 ? p + 3 : p - 9
	return sprintf("%04d-%02d-%02d", y + int(z / 146097) * 400 + (m <= 2), m, e - int((153 * p + 2) / 5) + 1) }
'

# load over time: per UTC day, node-hours used (split across days), the
# share of the cluster that is (with -n), jobs submitted and their mean wait
awk -F'\t' -v nodes="$nodes" "$ymd"'
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	sub_ = $c["submit"]; st = $c["start"]; en = $c["end"]; n = $c["nnodes"]
	if (sub_ != "") { d = int(sub_ / 86400); subm[d]++; day[d] = 1
		if (st != "") { wsum[d] += (st - sub_) / 3600; wn[d]++ } }
	if (st == "" || en == "" || n == "" || en <= st) next
	for (t = st; t < en; t = e) {
		d = int(t / 86400); e = (d + 1) * 86400; if (e > en) e = en
		used[d] += n * (e - t) / 3600; day[d] = 1
	}
}
END {
	print "day\tnode_hours\tutilisation_pct\tsubmitted\twait_mean_h"
	for (d in day) printf "%s\t%.1f\t%s\t%d\t%s\n", ymd(d),
	    used[d], nodes ? sprintf("%.1f", 100 * used[d] / (nodes * 24)) : "",
	    subm[d], wn[d] ? sprintf("%.2f", wsum[d] / wn[d]) : ""
}' "$tmp/jobs.tsv" | { read -r h; echo "$h"; sort; } > "$site/load.tsv"

# waits by job size and by time limit: count and quantiles, hours
awk -F'\t' '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["start"] != "" && $c["submit"] != "" {
	w = ($c["start"] - $c["submit"]) / 3600; n = $c["nnodes"]; l = $c["timelimit"] / 3600
	s = n <= 1 ? "1 node" : n <= 4 ? "2-4 nodes" : n <= 16 ? "5-16 nodes" : "17+ nodes"
	t = l <= 1 ? "limit <=1h" : l <= 6 ? "limit <=6h" : l <= 24 ? "limit <=24h" : l <= 48 ? "limit <=48h" : "limit >48h"
	print "all\t" w; print s "\t" w; print t "\t" w
}' "$tmp/jobs.tsv" | sort -t$'\t' -k1,1 -k2,2g > "$tmp/waits"
awk -F'\t' '
function q(p,  k) { k = int(p * (n - 1)) + 1; return v[k] }
function flush() { if (n) printf "%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", g, n, sum / n, q(0.25), q(0.5), q(0.75), q(0.9), v[n] }
$1 != g { flush(); g = $1; n = 0; sum = 0 }
{ v[++n] = $2; sum += $2 }
END { flush() }' "$tmp/waits" | awk -F'\t' 'BEGIN {
	print "group\tjobs\twait_mean_h\twait_p25_h\twait_p50_h\twait_p75_h\twait_p90_h\twait_max_h"
	split("all|1 node|2-4 nodes|5-16 nodes|17+ nodes|limit <=1h|limit <=6h|limit <=24h|limit <=48h|limit >48h", o, "|")
	for (i in o) rank[o[i]] = i }
{ r[rank[$1]] = $0 } END { for (i = 1; i <= 10; i++) if (i in r) print r[i] }' > "$site/waits.tsv"

# the cumulative distribution of waits per size class, for the plot
awk -F'\t' '$1 ~ /node/ { n[$1]++; w[$1, n[$1]] = $2 }
END { for (g in n) { f = g; last = -1
	# at most ~500 steps a line: a point where the share moved 0.002
	for (i = 1; i <= n[g]; i++) if (i == n[g] || (w[g, i] != w[g, i + 1] && i / n[g] - last >= 0.002)) {
		printf "%s\t%g\t%g\n", f, (w[g, i] < 0.01 ? 0.01 : w[g, i]), i / n[g]; last = i / n[g] } } }' "$tmp/waits" |
	sort -t"$(printf '\t')" -k1,1 -k2,2g > "$tmp/cdf"

# the evaluation: the baselines and the models on the same episodes, and
# their curves.  It may fail (too few nodes for a chain size, a dump
# shorter than an episode): the page then says why, with the rest.
read -r first last < <(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["submit"] != "" { s = $c["submit"]; if (lo == "" || s < lo) lo = s; if (s > hi) hi = s }
    END { print lo, hi }' "$tmp/jobs.tsv")
if [ -z "$from" ]; then
	# the last episodes the trace covers: count x 4 h before its end, 5-day windows
	from=$(( (last - 5 * 86400 - count * 4 * 3600) / 86400 * 86400 ))
	[ "$from" -ge "$first" ] || from=$(( (first + 86399) / 86400 * 86400 ))
fi
fromday=$(date -u -d @"$from" +%F 2>/dev/null || echo "$from")
eval_error=
if [ $((from + 5 * 86400)) -gt "$last" ]; then
	# an episode is 2 days of warm-up and 3 of workload (mirage-eval(1))
	eval_error="the accounting covers $(( (last - first) / 3600 )) hours from $(date -u -d @"$first" +%FT%TZ) to $(date -u -d @"$last" +%FT%TZ); an episode from $fromday needs 5 days of it"
	say "no evaluation: $eval_error"
elif say "evaluating $count episodes per size from $fromday" && ! mirage-eval -q "${cmodel[@]}" -f "$from" -N "$count" -k "$sizes" "${models[@]}" "${plan[@]}" \
    -F tsv -o "$tmp/eval.tsv" -C "$tmp/curve.tsv" "$tmp/jobs.mrs" 2> "$tmp/eval.err"; then
	# mirage-eval's own words, naming the input rather than our copy of it
	eval_error=$(sed "s|$tmp/jobs.mrs|$input_name|g" "$tmp/eval.err" | tail -n 3)
	[ -n "$eval_error" ] || eval_error="mirage-eval stopped without a message (killed?)"
	say "the evaluation failed: $eval_error"
else
	mv "$tmp/eval.tsv" "$site/eval.tsv"
	mv "$tmp/curve.tsv" "$site/curve.tsv"
fi

# handing over at a target (-T): every method's setting chosen on the
# episodes before the evaluated ones, then run on those
target_error=
if [ -n "$target" ] && [ -z "$eval_error" ]; then
	if say "handing over at $target: settings chosen on the $count episodes before $fromday" &&
	    ! mirage-eval -q "${cmodel[@]}" -f "$from" -N "$count" -k "$sizes" "${models[@]}" "${plan[@]}" \
	    --handover 10m --target "$target" -F tsv -o "$tmp/target.tsv" "$tmp/jobs.mrs" 2> "$tmp/target.err"; then
		target_error=$(sed "s|$tmp/jobs.mrs|$input_name|g" "$tmp/target.err" | tail -n 3)
		[ -n "$target_error" ] || target_error="mirage-eval stopped without a message (killed?)"
		say "the target's evaluation failed: $target_error"
	else
		mv "$tmp/target.tsv" "$site/target.tsv"
	fi
	# walked forward: each week's settings on the history before it
	if [ -z "$target_error" ] && say "handing over at $target, walked forward a week at a time" &&
	    ! mirage-eval -q "${cmodel[@]}" -f "$from" -N "$count" -k "$sizes" --handover 10m \
	    --target "$target" --walk-forward 7d --history $((count * 4 + 120))h -F tsv \
	    -o "$tmp/walk.tsv" "$tmp/jobs.mrs" 2> "$tmp/walk.err"; then
		target_error=$(sed "s|$tmp/jobs.mrs|$input_name|g" "$tmp/walk.err" | tail -n 3)
		[ -n "$target_error" ] || target_error="mirage-eval stopped without a message (killed?)"
		say "the walk forward failed: $target_error"
	elif [ -z "$target_error" ]; then
		mv "$tmp/walk.tsv" "$site/walk.tsv"
	fi
fi

adopt_recommend() { # per share, the policy chosen on the span before and what it did after, in words: medians over the draws (mirage-policy(1))
	mirage-policy -H "$harm" ${target:+-T "$target"} "$tmp/draws.tsv"
}

# many chains at once (-A): the other jobs' waits when a share of the
# long jobs' work is services that hand over, against the same services
# reactive, over the evaluated span
adopt_error=
# the replays of a draw run side by side, one per core (each is one
# thread); their rows are put together in a fixed order
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
adopt_draw() { # adopt_draw SEED: the method's and the policies' rows of one draw of services
	local p pargs=() seed=(--adopt-seed "$1")
	# the method, then the site's policies, each a replay of its own
	for p in method cap4 cap1 lead low leadlow; do
		case $p in
		method) pargs=("${amethod[@]}") ;;
		cap4) pargs=("${amethod[@]}" --adopt-cap 4) ;;
		cap1) pargs=("${amethod[@]}" --adopt-cap 1) ;;
		lead) pargs=(--adopt-method lead:24h --adopt-cap 1 --adopt-min-run 0.5) ;;
		low) pargs=("${amethod[@]}" --adopt-low) ;;
		leadlow) pargs=(--adopt-method lead:48h --adopt-min-run 0.5 --adopt-low) ;;
		esac
		while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n $(jobs -rp) || :; done
		rm -f "$tmp/pol-$p.rc"
		{ mirage-eval -q --adoption "$adopt" "${pargs[@]}" "${seed[@]}" --handover 10m \
		    "${cmodel[@]}" -f "$from" -u "$until_" -o "$tmp/pol-$p.tsv" \
		    "$tmp/jobs.mrs" 2> "$tmp/pol-$p.err"; echo $? > "$tmp/pol-$p.rc"; } &
	done
	p=$(jobs -rp)
	[ -z "$p" ] || wait $p || :
	# the method's rows, then the policies' rows but the reactive ones,
	# share by share
	for p in method cap4 cap1 lead low leadlow; do
		if [ "$(cat "$tmp/pol-$p.rc" 2>/dev/null)" != 0 ]; then
			cp "$tmp/pol-$p.err" "$tmp/adopt.err"
			adopt_failed
			return 1
		fi
		if [ $p = method ]; then cp "$tmp/pol-$p.tsv" "$tmp/draw.tsv"
		else awk -F'\t' 'NR > 1 && $2 != "reactive"' "$tmp/pol-$p.tsv" >> "$tmp/draw.tsv"
		fi
	done
	# the first draw is the page's table and plot; every draw, its seed
	# first, is what the recommendation reads
	[ -s "$tmp/adoption.tsv" ] || cp "$tmp/draw.tsv" "$tmp/adoption.tsv"
	[ -s "$tmp/draws.tsv" ] || awk 'NR == 1 { print "seed\t" $0 }' "$tmp/draw.tsv" > "$tmp/draws.tsv"
	awk -v s="$1" 'NR > 1 { print s "\t" $0 }' "$tmp/draw.tsv" >> "$tmp/draws.tsv"
}
adopt_failed() { # mirage-eval's last words on a replay that failed, for the page
	adopt_error=$(sed "s|$tmp/jobs.mrs|$input_name|g" "$tmp/adopt.err" | tail -n 3)
	[ -n "$adopt_error" ] || adopt_error="mirage-eval stopped without a message (killed?)"
	say "many chains at once failed: $adopt_error"
}
if [ -n "$adopt" ]; then
	amethod=(--adopt-method plan --plan "$futures")
	[ "$futures" -gt 0 ] || amethod=(--adopt-method lead:6h)
	# with -T, the rule the target's table recommends, where many chains
	# can run it (a fixed lead, or Slurm's estimate with a margin)
	if [ -s "$site/target.tsv" ] && mirage-eval -q --adoption 0 --handover 10m \
	    --adopt-method "target:$site/target.tsv" "${cmodel[@]}" -o /dev/null \
	    "$tmp/jobs.mrs" 2> /dev/null; then
		amethod=(--adopt-method "target:$site/target.tsv")
	elif [ -s "$site/target.tsv" ]; then
		# not the rule the page tells users to run: said
		say "many chains at once: the target's table recommends a rule many chains cannot replay; the services decide with ${amethod[1]}${amethod[3]:+ (${amethod[3]} futures)} instead"
	fi
	until_=$((from + count * 4 * 3600))
	say "many chains at once: $adopt% of the long jobs' work as services${seeds[1]:+, ${#seeds[@]} draws of them}"
	k=0
	for s in "${seeds[@]}"; do
		k=$((k + 1))
		[ "${#seeds[@]}" -eq 1 ] || say "many chains at once: draw $k of ${#seeds[@]} (seed $s)"
		adopt_draw "$s" || break
	done
	if [ -z "$adopt_error" ]; then
		{ head -n 1 "$tmp/adoption.tsv"; tail -n +2 "$tmp/adoption.tsv" | sort -s -t "$(printf '\t')" -k1,1g; } > "$site/adoption.tsv"
		[ "${#seeds[@]}" -eq 1 ] || cp "$tmp/draws.tsv" "$site/adoption-draws.tsv"
		adopt_recommend > "$tmp/adopt-rec.txt"
		while IFS= read -r line; do say "$line"; done < "$tmp/adopt-rec.txt"
	fi
fi

# loaning (cluster-model options with InferenceNodes=): the inference
# pool's demand, the nodes it lent and the part of them jobs used, per
# day, from a replay of the jobs in that model
loan_error='' loaning=''
for o in "${cmodel[@]}"; do
	case $o in *InferenceNodes=*) loaning=1 ;; esac
done
if [ -n "$loaning" ]; then
	say "replaying with loaning"
	if mirage-eval --replay "${cmodel[@]}" --loan-out "$tmp/loan.tsv" -o /dev/null "$tmp/jobs.mrs" 2> "$tmp/loan.err"; then
		mv "$tmp/loan.tsv" "$site/loan.tsv"
		loan_summary=$(sed -n 's/^mirage-eval: loaning [^:]*: //p' "$tmp/loan.err")
		awk -F'\t' "$ymd"'NR > 1 { d = int($1 / 86400); dem[d] += $2; lent[d] += $3; used[d] += $4; n[d]++ }
			END { print "day\tdemand_nodes\tlent_nodes\tlent_used_nodes"
			for (d in n) printf "%s\t%.2f\t%.2f\t%.2f\n", ymd(d), dem[d] / n[d], lent[d] / n[d], used[d] / n[d] }' \
		    "$site/loan.tsv" | { read -r h; echo "$h"; sort; } > "$site/loan-days.tsv"
	else
		loan_error=$(sed "s|$tmp/jobs.mrs|$input_name|g" "$tmp/loan.err" | tail -n 3)
		say "the replay with loaning failed: $loan_error"
	fi
fi

# plots
tail -n +2 "$site/load.tsv" > "$tmp/load"
# the wait distributions, one data file per size class, titled in words
cdfplot=
for g in "1 node" "2-4 nodes" "5-16 nodes" "17+ nodes"; do
	f=$tmp/cdf-${g%% *}
	awk -F'\t' -v g="$g" '$1 == g { print $2 "\t" $3 }' "$tmp/cdf" > "$f"
	if [ -s "$f" ]; then
		cdfplot="$cdfplot${cdfplot:+, }'$f' using 1:2 with steps lw 2 title '$g'"
	fi
done
# what the plots by day share
daily='set terminal svg size 900,380 dynamic font "sans,11" background "white"
set datafile separator "\t"
set termoption noenhanced
set xdata time; set timefmt "%Y-%m-%d"; set format x "%b %d"
set grid ytics; set key top left'
gnuplot <<GP
$daily
set output "$site/load.svg"
set title "Load over time"
# the dump's span: the days of its submissions, not the jobs that ran
# before or after them
set xrange ["$(date -u -d @"$first" +%F)":"$(date -u -d @"$last" +%F)"]
$(if [ -n "$nodes" ]; then
	echo 'set ylabel "nodes busy, % of '"$nodes"'"; set yrange [0:*]; set y2label "jobs submitted per day"; set y2tics; set ytics nomirror'
	echo "plot '$tmp/load' using 1:3 with lines lw 2 title 'utilisation (%)', '' using 1:4 axes x1y2 with impulses title 'jobs submitted'"
else
	echo 'set ylabel "node-hours used per day"; set y2label "jobs submitted per day"; set y2tics; set ytics nomirror'
	echo "plot '$tmp/load' using 1:2 with lines lw 2 title 'node-hours', '' using 1:4 axes x1y2 with impulses title 'jobs submitted'"
fi)
set output "$site/waits.svg"
unset xdata; unset y2tics; unset y2label; set ytics mirror; set format x "%g"
set autoscale x
set title "Wait until start, by job size (cumulative share of jobs)"
set logscale x; set xlabel "wait (hours, log scale; under 0.01 h shown at 0.01)"; set ylabel "share of jobs"
set yrange [0:1]; set key bottom right
plot $cdfplot
GP
if [ -s "$site/loan-days.tsv" ]; then
	tail -n +2 "$site/loan-days.tsv" > "$tmp/loan"
	gnuplot <<GP
$daily
set output "$site/loan.svg"
set title "Loaning: the inference pool's demand and the nodes it lent (daily means)"
set ylabel "nodes"; set yrange [0:*]
plot '$tmp/loan' using 1:2 with lines lw 2 title 'inference demand', '' using 1:3 with lines lw 2 title 'lent to the cluster', '' using 1:4 with lines lw 2 title 'lent and used by jobs'
GP
fi

if [ -s "$site/adoption.tsv" ]; then
	# the others' mean and 90th percentile waits against the share
	awk -F'\t' -v d="$tmp/ad" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    { f = ($c["method"] == "reactive") ? d "-r" : d "-m"
	      if (f == d "-m" && first == "") first = $c["method"]
	      if (f == d "-m" && $c["method"] != first) next
	      print $c["adoption_pct"] "\t" $c["wait_mean_h_all"] "\t" $c["wait_p90_h_all"] > f }' "$site/adoption.tsv"
	# a share of 0 has no services: both lines start from its row
	if [ -s "$tmp/ad-r" ]; then
		{ awk -F'\t' '$1 == 0' "$tmp/ad-r"; cat "$tmp/ad-m" 2>/dev/null; } | sort -g > "$tmp/ad-m2"
		gnuplot <<GP
set terminal svg size 900,380 dynamic font "sans,11" background "white"
set datafile separator "\t"
set termoption noenhanced
set output "$site/adoption.svg"
set title "The other jobs' waits when a share of the long jobs' work hands over"
set xlabel "share of the long jobs' node-hours run as services (%)"
set ylabel "wait of the other jobs (hours)"
set yrange [0:*]; set grid; set key top right
plot '$tmp/ad-r' using 1:2 with linespoints lw 2 pt 7 title 'mean, services reactive', \
     '$tmp/ad-m2' using 1:2 with linespoints lw 2 pt 7 title 'mean, services handing over', \
     '$tmp/ad-r' using 1:3 with linespoints lw 2 dt 2 pt 6 title '90th percentile, reactive', \
     '$tmp/ad-m2' using 1:3 with linespoints lw 2 dt 2 pt 6 title '90th percentile, handing over'
GP
	fi
fi

# the promise walked forward: per size and month, what following the
# recommendation kept against what its history promised, the fixed lead
# chosen the same way, and the bound
walk_sizes=
if [ -s "$site/walk.tsv" ]; then
	walk_sizes=$(awk -F'\t' 'NR > 1 { print $2 }' "$site/walk.tsv" | sort -un | paste -sd' ')
	for k in $walk_sizes; do
		awk -F'\t' -v k="$k" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		    $2 == k && $c["month"] != "all" && $1 == "recommended" { m[++n] = $c["month"]; kept[n] = 100 * $c["no_interruption_share"]
			pr[n] = 100 * $c["promise"]; b[n] = 100 * $c["bound_share"] }
		    $2 == k && $c["month"] != "all" && $1 == "lead" { lead[$c["month"]] = 100 * $c["no_interruption_share"] }
		    END { for (i = 1; i <= n; i++) print i "\t" m[i] "\t" kept[i] "\t" pr[i] "\t" (m[i] in lead ? lead[m[i]] : "NaN") "\t" b[i] }' \
		    "$site/walk.tsv" > "$tmp/w$k"
		# the axis from a little under the lowest share shown
		lo=$(awk -F'\t' '{ for (i = 3; i <= 6; i++) if ($i != "NaN" && (m == "" || $i < m)) m = $i }
		    END { m = int(m) - 2; print (m < 0 ? 0 : m) }' "$tmp/w$k")
		gnuplot <<GP
set terminal svg size 900,400 dynamic font "sans,11" background "white"
set datafile separator "\t"
set termoption noenhanced
set output "$site/walk-$k.svg"
set title "$k-node chains: the promise walked forward, month by month"
set ylabel "links without an interruption (%)"
set yrange [$lo:100.5]; set grid ytics; set key outside bottom center horizontal
set xrange [0.5:*]; set style fill solid 0.8 border -1; set boxwidth 0.3
plot '$tmp/w$k' using (\$1 - 0.16):3:xtic(2) with boxes lc rgb "#22aa77" title 'kept, following the recommendation', \
     '$tmp/w$k' using (\$1 + 0.16):5 with boxes lc rgb "#999999" title 'kept, the fixed lead chosen alike', \
     '$tmp/w$k' using 1:4 with linespoints lw 3 pt 7 ps 1.2 lc rgb "#cc5500" title 'promised', \
     '$tmp/w$k' using 1:6 with points pt 2 ps 2 lw 2 lc rgb "#000000" title 'bound (any submission time)'
GP
	done
fi

# the curves: per chain size, each method's share of chains without
# interruption against its mean overlap as its threshold moves (the
# baselines without one as points); the oracle bound is the best any
# method could do
curve_sizes=
if [ -z "$eval_error" ]; then
	curve_sizes=$(awk -F'\t' 'NR > 1 { print $2 }' "$site/eval.tsv" | sort -un | paste -sd' ')
	for k in $curve_sizes; do
		awk -F'\t' -v k="$k" -v d="$tmp/c$k" 'NR > 1 && $2 == k {
			if (!($1 in f)) { f[$1] = d "-" ++n; print $1 > (d ".methods") }
			print $6 "\t" 100 * $4 > f[$1] }' "$site/curve.tsv"
		plot= i=0
		while read -r m; do
			i=$((i + 1))
			case $m in
			oracle-bound) style="with steps lw 3 dt 2 lc rgb '#000000' title 'bound: knowing the future'" ;;
			*) style="with linespoints lw 2 pt 7 ps 0.5 title '$m'" ;;
			esac
			plot="$plot${plot:+, }'$tmp/c$k-$i' using 1:2 $style"
		done < "$tmp/c$k.methods"
		awk -F'\t' -v k="$k" -v d="$tmp/p$k" 'NR > 1 && $2 == k && ($1 == "reactive" || $1 == "average-wait") {
			print $9 "\t" 100 * $4 > (d "-" $1); print $1 > (d ".methods") }' "$site/eval.tsv"
		if [ -s "$tmp/p$k.methods" ]; then
			while read -r m; do
				plot="$plot${plot:+, }'$tmp/p$k-$m' using 1:2 with points pt 5 ps 1.2 title '$m'"
			done < "$tmp/p$k.methods"
		fi
		gnuplot <<GP
set terminal svg size 900,420 dynamic font "sans,11" background "white"
set datafile separator "\t"
set termoption noenhanced
set output "$site/curve-$k.svg"
set title "$k-node chains: chains without interruption against mean overlap (0 to 2 h)"
set xlabel "mean overlap (hours; a method that needs more is off to the right: curve.tsv)"
set ylabel "chains without interruption (%)"
set xrange [0:2]; set yrange [0:105]; set grid; set key bottom right
set arrow 1 from graph 0, first 90 to graph 1, first 90 nohead lw 2 dt 3 lc rgb '#aa0000'
set label 1 "90% of chains" at graph 0.01, first 92 textcolor rgb '#aa0000'
plot $plot
GP
	done
fi

# the page
esc() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'; }
html_table() { # html_table TSV: a table with the header row as th
	esc < "$1" | awk -F'\t' 'NR == 1 { printf "<table>\n<tr>"; for (i = 1; i <= NF; i++) printf "<th>%s</th>", $i; print "</tr>"; next }
	{ printf "<tr>"; for (i = 1; i <= NF; i++) printf "<td>%s</td>", $i; print "</tr>" }
	END { print "</table>" }'
}
eval_table() { # the evaluation's columns that matter, in words and units
	esc < "$site/eval.tsv" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
		print "<table>\n<tr><th>method</th><th>chain nodes</th><th>episodes</th><th>without interruption</th><th>interruption mean (h)</th><th>interruption p90 (h)</th><th>overlap mean (h)</th><th>gap to the oracle (h)</th></tr>"; next }
	{ printf "<tr><td>%s</td><td>%d</td><td>%d</td><td>%.1f%%</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td></tr>\n",
	    $1, $2, $3, 100 * int($c["no_interruption_share"] * $3 + 0.5) / $3, $c["interruption_mean_h"],
	    $c["interruption_p90_h"], $c["overlap_mean_h"], $c["oracle_gap_h"] }
	END { print "</table>" }'
}
# The bottom line, a sentence per chain size: the method a user can run
# that brings the most chains through without interruption at a mean
# overlap of at most 1 h, against Slurm's afterany dependency (reactive)
bottom_line() {
	awk -F'\t' 'FNR == 1 { f++; if (f == 1) for (i = 1; i <= NF; i++) c[$i] = i; next }
	    f == 1 && $1 == "reactive" { r[$2] = $c["no_interruption_share"] }
	    f == 2 && !($2 in seen) { seen[$2] = 1; k[++n] = $2 }
	    f == 2 && $1 != "oracle-bound" && $1 != "oracle" && $1 !~ /^perfect-/ && $1 != "reactive" &&
		$6 <= 1 && (!($2 in b) || $4 > b[$2]) { b[$2] = $4; m[$2] = $1 }
	    END { for (i = 1; i <= n; i++) { z = k[i]
		if ((z in b) && b[z] > r[z])
			printf "For %d-node chains, submit the next job with <b>%s</b>: %.0f%% of them ran without an interruption at a mean overlap of at most 1 h, against %.0f%% with Slurm%ss afterany dependency.\n",
			    z, (m[z] == "planner" ? "the planner (mirage-advise --plan)" : m[z]), 100 * b[z], 100 * r[z], "\047"
		else
			printf "For %d-node chains, no method did better than Slurm%ss afterany dependency within 1 h of mean overlap: it ran %.0f%% of them without an interruption.\n",
			    z, "\047", 100 * r[z] } }' "$site/eval.tsv" "$site/curve.tsv" | esc
}
# handing over: the method the training period recommends per size, and
# what it brought on the evaluated episodes
target_line() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    !($2 in seen) { seen[$2] = 1; k[++n] = $2 }
	    $1 == "reactive" { r[$2] = $c["no_interruption_share"]; t = $c["target"] }
	    $c["recommended"] == 1 { m[$2] = $1; sh[$2] = $c["no_interruption_share"]; le[$2] = $c["lease_given_h"]
		st[$2] = $c["setting_kind"] == "-" ? "" : " (" $c["setting_kind"] " " $c["setting"] ")" }
	    END { for (i = 1; i <= n; i++) { z = k[i]
		if (z in m)
			printf "Handing over in 10 minutes at %g%%, for %d-node chains use <b>%s</b>%s, chosen on the episodes before: %.0f%% ran without an interruption here, giving up %.1f h of lease a link (afterany: %.0f%%).\n",
			    100 * t, z, m[z], st[z], 100 * sh[z], le[z], 100 * r[z]
		else
			printf "Handing over in 10 minutes, no setting brought %g%% of the %d-node chains through in every fold of the episodes before.\n", 100 * t, z } }' "$site/target.tsv" | esc
}
# walked forward: what following the recommendation kept, against what
# it promised, at what confidence
walk_line() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $1 == "recommended" && $c["month"] == "all" {
		printf "Walked forward, each week on the weeks before it, following the recommendation kept %.1f%% of %d %d-node links (%g%% confidence: at least %.1f%%), and promised %.1f%%%s.\n",
		    100 * $c["no_interruption_share"], $c["episodes"], $2, 100 * $c["confidence"], 100 * $c["share_lower"],
		    100 * $c["promise"], ($c["bound_share"] < $c["target"] ? sprintf("; at most %.1f%% could start in time whatever was done", 100 * $c["bound_share"]) : "") }' \
	    "$site/walk.tsv" | esc
}
walk_table() { # per method and size: each month's share kept, pooled
	esc < "$site/walk.tsv" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["month"] != "all" && !($c["month"] in seen) { seen[$c["month"]] = 1; mon[++nm] = $c["month"] }
	    !(($1, $2) in row) { row[$1, $2] = 1; r[++nr] = $1 SUBSEP $2 }
	    { v[$1, $2, $c["month"]] = $c["no_interruption_share"]; p[$1, $2, $c["month"]] = $c["promise"]
	      lo[$1, $2, $c["month"]] = $c["share_lower"]; le[$1, $2, $c["month"]] = $c["lease_given_h"] }
	    END { printf "<table>\n<tr><th>method</th><th>chain nodes</th>"
		for (j = 1; j <= nm; j++) printf "<th>%s</th>", mon[j]
		print "<th>all months</th><th>at least (confidence)</th><th>promised</th><th>lease given up (h)</th></tr>"
		for (i = 1; i <= nr; i++) { split(r[i], a, SUBSEP)
			printf "<tr><td>%s</td><td>%d</td>", a[1], a[2]
			for (j = 1; j <= nm; j++) printf "<td>%.1f%%</td>", 100 * v[a[1], a[2], mon[j]]
			printf "<td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td><td>%.2f</td></tr>\n", 100 * v[a[1], a[2], "all"],
			    100 * lo[a[1], a[2], "all"], 100 * p[a[1], a[2], "all"], le[a[1], a[2], "all"] }
		print "</table>" }'
}
adopt_table() { # the adoption table's columns that matter, in words
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
		print "share of the long work (%)\tservices submit\tservices\twithout interruption (%)\tlease given up (h)\theld twice (node-h)\tothers: mean wait (h)\tothers: 90th percentile (h)"; next }
	{ printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", $c["adoption_pct"], $c["method"], $c["services"],
	    ($c["share_no_interruption"] == "nan" ? "" : sprintf("%.1f", 100 * $c["share_no_interruption"])),
	    $c["lease_given_h"], $c["held_twice_nh"], $c["wait_mean_h_all"], $c["wait_p90_h_all"] }' \
	    "$site/adoption.tsv" > "$tmp/adopt-table.tsv"
	html_table "$tmp/adopt-table.tsv"
}
target_table() {
	esc < "$site/target.tsv" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
		print "<table>\n<tr><th>method</th><th>chain nodes</th><th>setting</th><th>worst fold before</th><th>without interruption</th><th>95% interval</th><th>lease given up (h)</th><th>held twice (node-h)</th></tr>"; next }
	{ printf "<tr><td>%s%s</td><td>%d</td><td>%s</td><td>%.1f%%</td><td>%.1f%%</td><td>%.1f&ndash;%.1f%%</td><td>%.2f</td><td>%.2f</td></tr>\n",
	    $1, ($c["recommended"] == 1 ? " (recommended)" : ""), $2, ($c["setting"] == "-" ? "&ndash;" : $c["setting_kind"] " " $c["setting"]),
	    100 * $c["train_worst_share"], 100 * $c["no_interruption_share"], 100 * $c["share_lo"], 100 * $c["share_hi"],
	    $c["lease_given_h"], $c["held_twice_nh"] }
	END { print "</table>" }'
}
jobs=$(($(wc -l < "$tmp/jobs.tsv") - 1))
span="$(date -u -d @"$first" +%F) to $(date -u -d @"$last" +%F)"
{
	cat <<HTML
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>$(echo "$title" | esc)</title>
<meta name="viewport" content="width=device-width">
<style>body{font-family:sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}
img{max-width:100%;height:auto}
table{border-collapse:collapse;font-size:90%;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
th{background:#eee}td:first-child{text-align:left}
.failed{border-left:4px solid #c00;padding:.5em 1em;background:#fff4f4}
.bottom{border-left:4px solid #2a7;padding:.5em 1em;background:#f3fbf6}</style>
</head><body>
<h1>$(echo "$title" | esc)</h1>
<p>$jobs jobs submitted $span${nodes:+, on $nodes nodes}. Made by mirage's
<code>pipelines/cluster-report.sh</code> on $(date -u +%F) UTC.</p>
HTML
	if [ -z "$eval_error" ] && [ -s "$site/curve.tsv" ]; then
		echo '<p class="bottom"><strong>Bottom line.</strong>'
		bottom_line | sed 's|&lt;b&gt;|<b>|; s|&lt;/b&gt;|</b>|'
		[ ! -s "$site/target.tsv" ] || target_line | sed 's|&lt;b&gt;|<b>|; s|&lt;/b&gt;|</b>|'
		[ ! -s "$site/walk.tsv" ] || walk_line
		echo '</p>'
	fi
	cat <<HTML
<h2>When to submit the next job of a chain</h2>
HTML
	if [ -n "$eval_error" ]; then
		cat <<HTML
<div class="failed"><p>The evaluation of $count episodes per chain size ($(echo "$sizes" | esc) nodes)
from $fromday could not run, so this page has no table of the methods and no curves:</p>
<p><code>$(printf '%s\n' "$eval_error" | esc)</code></p>
<p>Choose chain sizes the cluster can hold (<code>-k</code>), a start the accounting
covers with five days after it (<code>-f</code>), or fewer episodes (<code>-N</code>).</p></div>
HTML
	else
		cat <<HTML
<p>$count episodes per chain size starting $fromday, every 4 h: for each
method, the share of chains whose next job started without an interruption,
and the interruption and the overlap (both jobs running) it cost
(<a href="eval.tsv">eval.tsv</a>, <a href="curve.tsv">curve.tsv</a>; see mirage-eval(1)).</p>
HTML
		eval_table
		for k in $curve_sizes; do
			echo "<img src=\"curve-$k.svg\" alt=\"$k-node chains: share without interruption against mean overlap\">"
		done
		echo "<p>Up and to the left is better. A method with a threshold draws a line as the"
		echo "threshold moves; the oracle bound is what knowing the future would reach.</p>"
	fi
	if [ -s "$site/target.tsv" ]; then
		cat <<HTML
<h2>Handing over at a target</h2>
<p>Each method's setting for $(echo "$target" | esc) of the links without an interruption, handing over
in 10 minutes, chosen on the $count episodes before $fromday (four time-blocked folds: the
cheapest setting that reached it in every fold; recommended, of those, one that decides on the
queue now first), then run on the episodes above
(<a href="target.tsv">target.tsv</a>; see mirage-eval(1)).</p>
HTML
		target_table
		if [ -s "$site/walk.tsv" ]; then
			cat <<HTML
<p>Walked forward, as the tools are run: each week of the episodes above, the settings
chosen only on the $count episodes before it (as <code>nightly-retrain.sh -T</code>
chooses them each night), then run on that week; <em>recommended</em> follows the method each
week's history recommended, and <em>promised</em> is what its history certified at the
confidence (<a href="walk.tsv">walk.tsv</a>; see mirage-eval(1), <code>--walk-forward</code>).</p>
HTML
			walk_table
			for k in $walk_sizes; do
				echo "<img src=\"walk-$k.svg\" alt=\"$k-node chains: kept against promised, month by month\">"
			done
		fi
	elif [ -n "$target_error" ]; then
		cat <<HTML
<h2>Handing over at a target</h2>
<div class="failed"><p>The settings for $(echo "$target" | esc) could not be chosen:</p>
<p><code>$(printf '%s\n' "$target_error" | esc)</code></p>
<p>The accounting must cover the $count episodes before $fromday too (or give fewer, <code>-N</code>).</p></div>
HTML
	fi
	if [ -s "$site/adoption.svg" ]; then
		draws_said=" (one draw of services; <code>-S</code> draws more)"
		[ "${#seeds[@]}" -eq 1 ] || draws_said=", medians over ${#seeds[@]} draws of services
(<a href=\"adoption-draws.tsv\">adoption-draws.tsv</a>; the plot and the table are the first draw's)"
		cat <<HTML
<h2>Many chains at once</h2>
<p>If a share of the long jobs' work (a limit of 24 h or more) were services that
submit their next job early and hand over in 10 minutes, in one replay of the
cluster model from $fromday: the other jobs' waits, against the same services
submitting at each job's end (<a href="adoption.tsv">adoption.tsv</a>; see
mirage-eval(1), MANY CHAINS AT ONCE). The services replace the long jobs
whose work they run, so the waits move with the share itself: compare the
two lines at one share.</p>
<img src="adoption.svg" alt="the other jobs' waits against the share of services">
<p>The site's policies for early successors, each a replay of its own: at most 4 or 1 of them
waiting at once, as a successor QOS's GrpSubmitJobs allows (<code>--adopt-cap</code>);
a lead of 24 hours with at most 1 waiting and a minimum run of half the
limit (<code>--adopt-min-run</code>); and early successors that wait behind every
other job until their predecessor's end, as in a successor QOS of the lowest
priority (<code>--adopt-low</code>), submitted by the rule or once the job has run half
its limit. The policy recommended is one <code>mirage-advise</code> can deploy (as the
line says: the rule, <code>--lead</code>, <code>--min-run</code>, which holds a successor with
<code>sbatch --begin</code>, and <code>--low</code>, which submits it with <code>--nice</code> and lifts it at
its predecessor's end; a user may do both), chosen on the span as long before the
evaluated one, never on the span it is reported on$draws_said. The caps are shown
for comparison only: a cap on early successors waiting at once is the scheduler's
to keep, and a QOS's GrpSubmitJobs counts their running jobs too.</p>
HTML
		[ ! -s "$tmp/adopt-rec.txt" ] || { printf '<ul>\n'; esc < "$tmp/adopt-rec.txt" | sed 's|^\(.*\)$|<li>\1</li>|'; printf '</ul>\n'; }
		adopt_table
	elif [ -n "$adopt_error" ]; then
		cat <<HTML
<h2>Many chains at once</h2>
<div class="failed"><p>The replay with services could not run:</p>
<p><code>$(printf '%s\n' "$adopt_error" | esc)</code></p></div>
HTML
	fi
	if [ -s "$site/loan.svg" ]; then
		cat <<HTML
<h2>Loaning</h2>
<img src="loan.svg" alt="the inference pool's demand and the nodes it lent">
<p>$(printf '%s' "$loan_summary" | esc) (hour by hour: <a href="loan.tsv">loan.tsv</a>; see mirage-eval(1)).</p>
HTML
	elif [ -n "$loan_error" ]; then
		cat <<HTML
<h2>Loaning</h2>
<div class="failed"><p>The replay with loaning could not run:</p>
<p><code>$(printf '%s\n' "$loan_error" | esc)</code></p></div>
HTML
	fi
	cat <<HTML
<h2>Load</h2>
<img src="load.svg" alt="load over time">
<p>Per day: <a href="load.tsv">load.tsv</a>.</p>
<h2>Waits</h2>
<img src="waits.svg" alt="wait distributions by job size">
HTML
	html_table "$site/waits.tsv"
	echo "</body></html>"
} > "$tmp/index.html"
# Publish: the files first (renames within one file system), the page
# last, then the files of an older report that the new page does not
# link.  A run stopped before this leaves the old report whole; one
# stopped inside it leaves the old page, whose files all still exist.
produced=$(cd "$site" && ls)
for f in $produced; do
	mv -f "$site/$f" "$out/$f"
done
mv -f "$tmp/index.html" "$out/index.html"
for f in load.tsv waits.tsv eval.tsv curve.tsv target.tsv walk.tsv loan.tsv loan-days.tsv \
    adoption.tsv adoption-draws.tsv load.svg waits.svg loan.svg adoption.svg "$out"/curve-*.svg "$out"/walk-*.svg; do
	f=${f##*/}
	case " $(echo $produced) " in
	*" $f "*) ;;
	*) rm -f "$out/$f" ;;
	esac
done
say "wrote $out/index.html"
if [ -n "$eval_error" ] || [ -n "$loan_error" ] || [ -n "$target_error" ] || [ -n "$adopt_error" ]; then
	say "the page lacks ${eval_error:+the evaluation }${target_error:+the target }${adopt_error:+many chains }${loan_error:+the loaning }(see above)"
	exit 1
fi
