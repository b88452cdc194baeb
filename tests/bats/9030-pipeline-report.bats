#!/usr/bin/env bats
# 9030-pipeline-report.bats: pipelines/cluster-report.sh on the bundled
# trace: an HTML page with the load and wait plots (SVG, by gnuplot),
# the wait table and the evaluation table; numbers checked against the
# jobs themselves.

setup() {
	load test_helper
	mg_setup
	export B=$MIRAGE_BIN
}

@test "report: one page with plots and tables that agree with the jobs" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r -t "LS6 <A100>" -n 84 -N 6 -k 1 -- -n 84 ls6.jobs
	[[ "$stderr" == *"wrote r/index.html"* ]]
	for f in index.html load.svg waits.svg load.tsv waits.tsv eval.txt eval.tsv; do [ -s r/$f ]; done
	# the plots are SVG documents with drawn lines
	for f in load.svg waits.svg; do
		python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.tag.endswith("svg")' r/$f
		grep -q '<path' r/$f
	done
	# the page: title escaped, both images, the tables
	grep -q '<title>LS6 &lt;A100&gt;</title>' r/index.html
	grep -q '<img src="load.svg"' r/index.html
	grep -q '<img src="waits.svg"' r/index.html
	grep -q '<td>1 node</td><td>19708</td>' r/index.html
	grep -q '^24777 jobs submitted 2022-10-05 to ' <(sed -n 's/^<p>//p' r/index.html)
	# the wait table: all jobs, and the size classes add up to them
	[ "$(awk -F'\t' '$1 == "all" { print $2 }' r/waits.tsv)" = 24777 ]
	[ "$(awk -F'\t' '$1 ~ /node/ { s += $2 } END { print s }' r/waits.tsv)" = 24777 ]
	[ "$(awk -F'\t' '$1 ~ /limit/ { s += $2 } END { print s }' r/waits.tsv)" = 24777 ]
	# the mean wait of all jobs is the trace's 4.07 h (mirage-eval --replay says 4.065)
	[ "$(awk -F'\t' '$1 == "all" { print $3 }' r/waits.tsv)" = 4.07 ]
	# load: node-hours per day add up to the jobs' node-hours
	mirage-cat ls6.jobs | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["start"] != "" && $c["end"] > $c["start"] { s += $c["nnodes"] * ($c["end"] - $c["start"]) / 3600 } END { printf "%.0f\n", s }' > want
	awk -F'\t' 'NR > 1 { s += $2 } END { printf "%.0f\n", s }' r/load.tsv > got
	awk 'NR == FNR { w = $1; next } { d = $1 - w; if (d < 0) d = -d; exit !(d <= 200) }' want got
	awk -F'\t' 'NR > 1 && ($3 < 0 || $3 > 100) { exit 1 }' r/load.tsv
	# the evaluation: the baselines, 6 episodes
	[ "$(awk -F'\t' 'NR > 1 { print $1 }' r/eval.tsv | paste -sd' ')" = "reactive average-wait scheduler-estimate oracle" ]
	[ "$(awk -F'\t' 'NR == 2 { print $3 }' r/eval.tsv)" = 6 ]
	# nothing half-written is left; the run is logged
	[ -z "$(ls -A r | grep '^\.work')" ]
	grep -q "cluster-report: wrote r/index.html" r/report.log
	# one run at a time
	exec 8>r/.lock
	flock -n 8
	run -75 "$ROOT/pipelines/cluster-report.sh" -o r ls6.jobs
	[[ "$output" == *"another run holds r/.lock"* ]]
	exec 8>&-
}

@test "report: bad input fails with the tool's message and leaves no page" {
	printf 'hello\nworld\n' > bad.txt
	run -1 "$ROOT/pipelines/cluster-report.sh" -o r bad.txt
	[[ "$output" == *"mirage-parse: 'bad.txt': line 1: layout not recognised"* ]]
	[ ! -e r/index.html ]
	run -2 "$ROOT/pipelines/cluster-report.sh" -o r -n x bad.txt
	[[ "$output" == *"Usage: cluster-report.sh"* ]]
	run -2 "$ROOT/pipelines/cluster-report.sh" -o r -z America/Chicgo bad.txt
	[[ "$output" == *"unknown time zone 'America/Chicgo'"* ]]
	[ ! -e r/index.html ]
	printf 'JobID|Partition|State|Submit|Start|End|Timelimit|NNodes\n' > header.txt
	run -1 "$ROOT/pipelines/cluster-report.sh" -o r header.txt
	[[ "$output" == *"cluster-report: 'header.txt' holds no job: no report"* ]]
	[ ! -e r/index.html ]
}

@test "report: a jobs stream or a dump on standard input; a dump's times in its zone" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r -n 84 -N 1 -k 1 - < ls6.jobs
	grep -q '^24777 jobs submitted 2022-10-05 to ' <(sed -n 's/^<p>//p' r/index.html)
	# the trace's times read as Chicago's (UTC-5 in October): the same
	# waits, the days' load shifted
	gzip -dc "$ROOT/data/ls6-a100.log.gz" |
	    TZ=America/Chicago run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r2 -n 84 -N 1 -k 1 -
	cmp <(cut -f1,2 r/waits.tsv) <(cut -f1,2 r2/waits.tsv)
	run -1 cmp -s r/load.tsv r2/load.tsv
	mirage-parse -q -z America/Chicago "$ROOT/data/ls6-a100.log.gz" -o chi.jobs
	[ "$(mirage-cat chi.jobs | sed -n 2p | cut -f1)" = "$(mirage-cat ls6.jobs | sed -n 2p | cut -f1)" ]
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r3 -z America/Chicago -n 84 -N 1 -k 1 "$ROOT/data/ls6-a100.log.gz"
	cmp r2/load.tsv r3/load.tsv
}
