#!/usr/bin/env bash
# calibrate.sh: the cluster model's capacity chosen on a history so that
# its replay waits as long as the real jobs did.  The node count (-n)
# whose replay (mirage-eval --replay) gives the mean wait of all jobs
# nearest the real one is found by bisection; then, by job size, the
# real and simulated mean and 90th percentile of the wait, each within
# 20% of the real or not.  Capacity is one knob: where the sizes cannot
# all be matched by it, the table says which are off, and by how much.
#
# Usage: pipelines/calibrate.sh [-l nodes] [-u nodes] [jobs-stream]
#            [-- cluster-model options, -n aside (-m faithful, -s k=v)]
#   -l, -u  the node counts searched (default: the largest job's, and
#           four times that); the jobs stream defaults to the LS6 trace
# Environment: B, the build directory with the tools (build/default).
set -euo pipefail

usage() { # usage [status]: -h on stdout, exit 0; a misuse on stderr, 2
	if [ "${1:-2}" = 0 ]; then
		sed -n '/^# Usage:/,/^# Environment:/p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
	fi
	sed -n '/^# Usage:/,/^# Environment:/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

lo= hi=
while getopts l:u:h opt; do
	case $opt in
	l) lo=$OPTARG ;;
	u) hi=$OPTARG ;;
	h) usage 0 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
jobs=
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	jobs=$1
	shift
fi
[ "${1:-}" = -- ] && shift
model=("$@")
for a in "${model[@]}"; do
	case $a in -n | --nodes | -n* | --nodes=*)
		echo "calibrate.sh: -n is what is chosen; give the range with -l and -u" >&2
		exit 2 ;;
	esac
done
for v in "$lo" "$hi"; do
	[ -z "$v" ] || [[ $v =~ ^[1-9][0-9]*$ ]] || usage
done

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${B:-build/default}
case $bin in /*) ;; *) bin=$root/$bin ;; esac
PATH=$bin:$PATH
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "$jobs" ]; then
	jobs=$tmp/ls6.jobs
	mirage-parse -q -z UTC "$root/data/ls6-a100.log.gz" -o "$jobs"
elif [ ! -r "$jobs" ]; then
	echo "calibrate.sh: cannot read '$jobs'" >&2
	exit 1
fi

# the largest job: the replay needs at least its nodes
big=$(mirage-cat "$jobs" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["nnodes"] > m { m = $c["nnodes"] } END { print m + 0 }')
[ "$big" -gt 0 ] || { echo "calibrate.sh: '$jobs' holds no job" >&2; exit 1; }
lo=${lo:-$big} hi=${hi:-$((4 * big))}
if [ "$lo" -lt "$big" ] || [ "$hi" -le "$lo" ]; then
	echo "calibrate.sh: search from at least $big nodes (the largest job's) to more than that" >&2
	exit 2
fi

# mean N: the replay's mean wait of all jobs at N nodes, and the real's
mean() {
	mirage-eval --replay -q "${model[@]}" -n "$1" -o "$tmp/r.tsv" "$jobs"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $1 == "all" { print $c["sim_mean_wait_h"], $c["real_mean_wait_h"] }' "$tmp/r.tsv"
}

# more nodes, shorter waits: the last count whose replay waits at least
# as long as the real jobs did, and the next
read -r slo real < <(mean "$lo")
read -r shi _ < <(mean "$hi")
if awk -v a="$slo" -v r="$real" 'BEGIN { exit !(a < r) }'; then
	n=$lo sn=$slo
	echo "calibrate.sh: at $lo nodes the replay already waits less than the real jobs ($slo h against $real h): the model cannot be slowed by capacity alone" >&2
elif awk -v b="$shi" -v r="$real" 'BEGIN { exit !(b > r) }'; then
	n=$hi sn=$shi
	echo "calibrate.sh: at $hi nodes the replay still waits longer than the real jobs ($shi h against $real h): raise -u" >&2
else
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		read -r s _ < <(mean "$mid")
		if awk -v s="$s" -v r="$real" 'BEGIN { exit !(s >= r) }'; then
			lo=$mid slo=$s
		else
			hi=$mid shi=$s
		fi
	done
	# the nearer of the two
	if awk -v a="$slo" -v b="$shi" -v r="$real" 'BEGIN { exit !(a - r <= r - b) }'; then
		n=$lo sn=$slo
	else
		n=$hi sn=$shi
	fi
	printf 'capacity: %d nodes (the replay waits %.2f h on mean, the real jobs %.2f h; %d nodes: %.2f h, %d: %.2f h)\n' \
	    "$n" "$sn" "$real" "$lo" "$slo" "$hi" "$shi"
fi

# by size: mean and 90th percentile of the real and simulated waits
mirage-eval --replay -q "${model[@]}" -n "$n" -j "$tmp/j.tsv" -o /dev/null "$jobs"
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { k = $c["nodes"] + 0
      g = k == 1 ? "1" : k <= 4 ? "2-4" : k <= 16 ? "5-16" : ">=17"
      print g, "real", $c["real_wait_s"] / 3600; print g, "sim", $c["sim_wait_s"] / 3600
      print "all", "real", $c["real_wait_s"] / 3600; print "all", "sim", $c["sim_wait_s"] / 3600 }' "$tmp/j.tsv" |
    sort -t "$(printf '\t')" -k1,1 -k2,2 -k3,3g > "$tmp/w.tsv"
printf '%-8s %6s %11s %10s %-12s %10s %9s %s\n' nodes jobs real_mean_h sim_mean_h "" real_p90_h sim_p90_h ""
awk -F'\t' '
	{ n[$1 SUBSEP $2]++; s[$1 SUBSEP $2] += $3; g[$1] = 1 }
	END { for (k in g) print k, n[k SUBSEP "real"] }' "$tmp/w.tsv" > "$tmp/n.txt"
awk -F'\t' -v cnt="$tmp/n.txt" '
	function verdict(r, x) {
		if (r <= 0) return "-"
		return (x - r) / r <= 0.2 && (r - x) / r <= 0.2 ? "within 20%" : sprintf("off by %+.0f%%", 100 * (x - r) / r)
	}
	BEGIN { while ((getline line < cnt) > 0) { split(line, f, " "); total[f[1]] = f[2] } }
	{ k = $1 SUBSEP $2; i[k]++; sum[k] += $3
	  if (i[k] == int(0.9 * total[$1] + 0.999999)) p90[k] = $3 }
	END {
		split("1 2-4 5-16 >=17 all", order, " ")
		for (o = 1; o <= 5; o++) {
			gname = order[o]
			if (!(gname in total)) continue
			r = sum[gname SUBSEP "real"] / total[gname]; x = sum[gname SUBSEP "sim"] / total[gname]
			rp = p90[gname SUBSEP "real"]; xp = p90[gname SUBSEP "sim"]
			printf "%-8s %6d %11.2f %10.2f %-12s %10.2f %9.2f %s\n", gname, total[gname], r, x, verdict(r, x), rp, xp, verdict(rp, xp)
		}
	}' "$tmp/w.tsv"
