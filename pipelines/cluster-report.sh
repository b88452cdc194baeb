#!/usr/bin/env bash
# cluster-report.sh: one HTML page about a cluster from its accounting:
# load over time, wait-time distributions by job size and time limit,
# and the evaluation table of the chain methods (the baselines and any
# models), with SVG plots made by gnuplot.  See mirage-pipelines(7).
#
# Usage: cluster-report.sh [-o outdir] [-t title] [-n nodes] [-M model]...
#            [-f from] [-N count] [-k sizes] [-z zone] [-- cluster-model options] input
#   input: a jobs stream, or any dump mirage-parse reads (sacct, the LS6 trace);
#   - for standard input; a dump's times are read in zone (default: local, as
#   sacct prints them)
# Example crontab line (Mondays at 06:00, last 30 days):
#   0 6 * * 1 sacct -a -X -P -S now-30days -o JobID,Submit,Start,End,Timelimit,NNodes,State | /opt/mirage/pipelines/cluster-report.sh -o /srv/www/ls6 -n 84 -M /var/lib/mirage/current.mrm -- -n 84 -
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
zone=local
while getopts o:t:n:M:f:N:k:z:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	t) title=$OPTARG ;;
	n) nodes=$OPTARG ;;
	M) models+=(-M "$OPTARG") ;;
	f) from=$OPTARG ;;
	N) count=$OPTARG ;;
	k) sizes=$OPTARG ;;
	z) zone=$OPTARG ;;
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
trap 'rm -rf "$tmp"' EXIT
say() { printf '%s cluster-report: %s\n' "$(date -u +%FT%TZ)" "$*" >&2; }
say "start: $input -> $out"

# the jobs: a jobs stream or a dump, from a file or standard input
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

# load over time: per UTC day, node-hours used (split across days), the
# share of the cluster that is (with -n), jobs submitted and their mean wait
awk -F'\t' -v nodes="$nodes" '
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
	for (d in day) printf "%s\t%.1f\t%s\t%d\t%s\n", strftime("%Y-%m-%d", d * 86400, 1),
	    used[d], nodes ? sprintf("%.1f", 100 * used[d] / (nodes * 24)) : "",
	    subm[d], wn[d] ? sprintf("%.2f", wsum[d] / wn[d]) : ""
}' "$tmp/jobs.tsv" | { read -r h; echo "$h"; sort; } > "$out/load.tsv"

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
function flush() { if (n) printf "%s\t%d\t%.2f\t%.3f\t%.2f\t%.2f\t%.2f\t%.1f\n", g, n, sum / n, q(0.25), q(0.5), q(0.75), q(0.9), v[n] }
$1 != g { flush(); g = $1; n = 0; sum = 0 }
{ v[++n] = $2; sum += $2 }
END { flush() }' "$tmp/waits" | awk -F'\t' 'BEGIN {
	print "group\tjobs\twait_mean_h\twait_p25_h\twait_p50_h\twait_p75_h\twait_p90_h\twait_max_h"
	split("all|1 node|2-4 nodes|5-16 nodes|17+ nodes|limit <=1h|limit <=6h|limit <=24h|limit <=48h|limit >48h", o, "|")
	for (i in o) rank[o[i]] = i }
{ r[rank[$1]] = $0 } END { for (i = 1; i <= 10; i++) if (i in r) print r[i] }' > "$out/waits.tsv"

# the cumulative distribution of waits per size class, for the plot
awk -F'\t' '$1 ~ /node/ { n[$1]++; w[$1, n[$1]] = $2 }
END { for (g in n) { f = g; gsub(/[^0-9a-z+-]/, "_", f); last = -1
	# at most ~500 steps a line: a point where the share moved 0.002
	for (i = 1; i <= n[g]; i++) if (i == n[g] || (w[g, i] != w[g, i + 1] && i / n[g] - last >= 0.002)) {
		printf "%s\t%g\t%g\n", f, (w[g, i] < 0.01 ? 0.01 : w[g, i]), i / n[g]; last = i / n[g] } } }' "$tmp/waits" |
	sort -k1,1 -k2,2g > "$tmp/cdf"

# the evaluation table: baselines and models on the same episodes
if [ -z "$from" ]; then
	# the last episodes the trace covers: count x 4 h before its end, 5-day windows
	last=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["submit"] > m { m = $c["submit"] } END { print m }' "$tmp/jobs.tsv")
	from=$(( (last - 5 * 86400 - count * 4 * 3600) / 86400 * 86400 ))
fi
say "evaluating $count episodes per size from $(date -u -d @"$from" +%F 2>/dev/null || echo "$from")"
mirage-eval -q "${cmodel[@]}" -f "$from" -N "$count" -k "$sizes" "${models[@]}" -o "$out/eval.txt" "$tmp/jobs.mrs"
mirage-eval -q "${cmodel[@]}" -f "$from" -N "$count" -k "$sizes" "${models[@]}" -F tsv -o "$out/eval.tsv" "$tmp/jobs.mrs"

# plots
tail -n +2 "$out/load.tsv" > "$tmp/load"
gnuplot <<EOF
set terminal svg size 900,380 dynamic font "sans,11" background "white"
set datafile separator "\t"
set termoption noenhanced
set xdata time; set timefmt "%Y-%m-%d"; set format x "%b %d"
set grid ytics; set key top left
set output "$out/load.svg"
set title "Load over time"
$(if [ -n "$nodes" ]; then
	echo 'set ylabel "nodes busy, % of '"$nodes"'"; set yrange [0:*]; set y2label "jobs submitted per day"; set y2tics; set ytics nomirror'
	echo "plot '$tmp/load' using 1:3 with lines lw 2 title 'utilisation (%)', '' using 1:4 axes x1y2 with impulses title 'jobs submitted'"
else
	echo 'set ylabel "node-hours used per day"; set y2label "jobs submitted per day"; set y2tics; set ytics nomirror'
	echo "plot '$tmp/load' using 1:2 with lines lw 2 title 'node-hours', '' using 1:4 axes x1y2 with impulses title 'jobs submitted'"
fi)
set output "$out/waits.svg"
unset xdata; unset y2tics; unset y2label; set ytics mirror; set format x "%g"
set title "Wait until start, by job size (cumulative share of jobs)"
set logscale x; set xlabel "wait (hours, log scale; under 0.01 h shown at 0.01)"; set ylabel "share of jobs"
set yrange [0:1]; set key bottom right
plot for [g in "$(for g in 1_node 2-4_nodes 5-16_nodes 17+_nodes; do grep -q "^$g	" "$tmp/cdf" && printf '%s ' $g; done)"] '$tmp/cdf' using (strcol(1) eq g ? \$2 : NaN):3 with steps lw 2 title g
EOF

# the page
html_table() { # html_table TSV: a table with the header row as th
	awk -F'\t' 'NR == 1 { printf "<table>\n<tr>"; for (i = 1; i <= NF; i++) printf "<th>%s</th>", $i; print "</tr>"; next }
	{ printf "<tr>"; for (i = 1; i <= NF; i++) printf "<td>%s</td>", $i; print "</tr>" }
	END { print "</table>" }' "$1"
}
esc() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'; }
jobs=$(($(wc -l < "$tmp/jobs.tsv") - 1))
span=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["submit"] != "" { s = $c["submit"]; if (lo == "" || s < lo) lo = s; if (s > hi) hi = s }
    END { print strftime("%Y-%m-%d", lo, 1) " to " strftime("%Y-%m-%d", hi, 1) }' "$tmp/jobs.tsv")
{
	cat <<EOF
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>$(echo "$title" | esc)</title>
<style>body{font-family:sans-serif;max-width:960px;margin:2em auto;color:#222}
table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
th{background:#eee}td:first-child{text-align:left}pre{background:#f6f6f6;padding:1em;overflow-x:auto}</style>
</head><body>
<h1>$(echo "$title" | esc)</h1>
<p>$jobs jobs submitted $span${nodes:+, on $nodes nodes}. Made by mirage's
<code>pipelines/cluster-report.sh</code> on $(date -u +%F) UTC.</p>
<h2>Load</h2>
<img src="load.svg" alt="load over time">
<p>Per day: <a href="load.tsv">load.tsv</a>.</p>
<h2>Waits</h2>
<img src="waits.svg" alt="wait distributions by job size">
EOF
	html_table "$out/waits.tsv"
	cat <<EOF
<h2>When to submit the next job of a chain</h2>
<p>$count episodes per chain size starting $(date -u -d @"$from" +%F 2>/dev/null || echo "$from"), every 4 h:
share of chains without interruption, interruption and overlap per method
(<a href="eval.tsv">eval.tsv</a>; see mirage-eval(1)).</p>
<pre>
$(esc < "$out/eval.txt")
</pre>
</body></html>
EOF
} > "$tmp/index.html"
mv "$tmp/index.html" "$out/index.html"
say "wrote $out/index.html"
