#!/usr/bin/env bash
# plan-folds.sh: choose the planner's price of overlap (lambda) on
# time-blocked folds of a training period, never on the episodes it is
# then judged on.  The period's episodes are cut into F consecutive
# blocks; on each, mirage-eval --plan traces the planner's curve; a
# block's choice is the lambda with the least mean overlap among those
# that bring the target share of chains through without interruption;
# the choice is the median of the blocks' (the largest lambda, the least
# overlap, if no lambda reaches the target in a block).  With
# --handover among the options, the cost is the mean lease given up,
# and a block that no lambda brings to the target chooses the smallest
# (the most chains through).
#
# Usage: plan-folds.sh [-f from] [-N count] [-e every] [-F folds] [-K futures]
#            [-k sizes] [-T target] [-- cluster-model options] jobs
# Example (the LS6 training period of the demo, every 12 hours):
#   plan-folds.sh -f 2022-11-01 -N 228 -e 12h -F 4 -- -m reference -n 76 ls6.jobs
#   plan-folds.sh -T 0.99 -f 2022-11-01 -N 228 -e 12h -F 4 -- -m reference -n 76 --handover 10m ls6.jobs
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# installed copies find the tools where make install put them (cron's
# PATH has no /usr/local/bin); a build directory, if any, comes first
installed_bin=
[ -n "$installed_bin" ] && PATH=$installed_bin:$PATH
bin=${B:-$root/build/default}
case $bin in /*) ;; *) bin=$root/$bin ;; esac
[ -x "$bin/mirage-eval" ] && PATH=$bin:$PATH
export LC_ALL=C

usage() {
	sed -n '/^# Usage:/,/^# Example/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit "${1:-2}"
}

from=2022-11-01 count=228 every=12h folds=4 k=8 sizes=1,8 target=0.9
while getopts f:N:e:F:K:k:T:h opt; do
	case $opt in
	f) from=$OPTARG ;;
	N) count=$OPTARG ;;
	e) every=$OPTARG ;;
	F) folds=$OPTARG ;;
	K) k=$OPTARG ;;
	k) sizes=$OPTARG ;;
	T) target=$OPTARG ;;
	h) usage 0 ;;
	*) usage >&2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage >&2
[ "${1:-}" != -- ] || shift
cmodel=("${@:1:$#-1}")
jobs=${!#}
[[ $count =~ ^[1-9][0-9]*$ && $folds =~ ^[1-9][0-9]*$ && $folds -le $count ]] || usage >&2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
per=$((count / folds))
for ((i = 0; i < folds; i++)); do
	# block i: episodes i*per .. of the period, in time order
	n=$per
	[ $i -eq $((folds - 1)) ] && n=$((count - i * per))
	start=$(date -u -d "$from" +%s)
	step=$(awk -v e="$every" 'BEGIN { u = substr(e, length(e)); v = substr(e, 1, length(e) - 1);
	    print v * (u == "d" ? 86400 : u == "h" ? 3600 : u == "m" ? 60 : 1) }')
	f0=$((start + i * per * step))
	echo "plan-folds: block $((i + 1))/$folds: $n episodes from $(date -u -d @$f0 +%FT%T)" >&2
	mirage-eval -q "${cmodel[@]}" -f $f0 -N "$n" -e "$every" -k "$sizes" --plan "$k" \
	    -C "$tmp/curve$i.tsv" -o /dev/null "$jobs"
done
# each block's choice per chain size, then the median over the blocks
for ((i = 0; i < folds; i++)); do
	awk -F'\t' -v b=$((i + 1)) -v t="$target" '
	    NR == 1 { cost = 6; for (j = 1; j <= NF; j++) if ($j == "lease_given_h") cost = j; next }
	    $1 == "planner" {
		if (!($2 in best)) { best[$2] = "-"; ovl[$2] = 1e9; top[$2] = $3 }
		if (cost == 6 ? $3 > top[$2] : $3 < top[$2]) top[$2] = $3
		if ($4 >= t && $cost < ovl[$2]) { best[$2] = $3; ovl[$2] = $cost } }
	    END { for (n in best) printf "%s\t%d\t%s\n", b, n, (best[n] == "-" ? top[n] : best[n]) }' \
	    "$tmp/curve$i.tsv"
done | sort -k2,2n -k1,1n > "$tmp/choice.tsv"
printf "block\tnodes\tlambda\n"
cat "$tmp/choice.tsv"
sort -k2,2n -k3,3g "$tmp/choice.tsv" | awk -F'\t' '
	{ v[$2, ++n[$2]] = $3; if (!($2 in seen)) { seen[$2] = 1; k[++m] = $2 } }
	END { for (i = 1; i <= m; i++) { c = n[k[i]]; med = v[k[i], int((c + 1) / 2)]
		printf "median\t%d\t%s\n", k[i], med; all[i] = med }
	    }'
