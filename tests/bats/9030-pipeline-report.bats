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

chrome() { # chrome ARGS...: Debian's Chromium, headless
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	    --user-data-dir="$PWD/.chromium" "$@" 2>/dev/null
}

# render DIR: DIR/index.html in Chromium at 1280 px: nothing wider than
# the window, text on the page, and every plot drawn (coloured lines, not
# only axes), each SVG rendered alone
render() {
	local d=$1 f stat
	sed 's|</body>|<script>document.body.dataset.width = document.documentElement.scrollWidth</script></body>|' \
	    "$d/index.html" > "$d/probe.html"
	chrome --window-size=1280,1000 --virtual-time-budget=5000 --dump-dom "file://$PWD/$d/probe.html" > dom.html
	rm "$d/probe.html"
	grep -q 'data-width="[0-9]*"' dom.html
	[ "$(sed -n 's/.*data-width="\([0-9]*\)".*/\1/p' dom.html)" -le 1280 ]
	chrome --window-size=1280,1400 --screenshot="$PWD/page.png" "file://$PWD/$d/index.html" >/dev/null
	read -r -a stat < <(python3 "$ROOT/tests/pngstat.py" page.png)
	[ "${stat[0]}" -eq 1280 ] && [ "${stat[2]}" -gt 20000 ]
	for f in "$d"/*.svg; do
		chrome --window-size=900,420 --screenshot="$PWD/plot.png" "file://$PWD/$f" >/dev/null
		read -r -a stat < <(python3 "$ROOT/tests/pngstat.py" plot.png)
		[ "${stat[3]}" -gt 1000 ] || { echo "$f: no plotted line (${stat[*]})"; return 1; }
	done
}

@test "report: one page with plots and tables that agree with the jobs" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r -t "LS6 <A100>" -n 84 -N 6 -k 1 -- -n 84 ls6.jobs
	[[ "$stderr" == *"wrote r/index.html"* ]]
	for f in index.html load.svg waits.svg curve-1.svg load.tsv waits.tsv eval.tsv curve.tsv; do [ -s r/$f ]; done
	# the plots are SVG documents with drawn lines
	for f in load.svg waits.svg curve-1.svg; do
		python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.tag.endswith("svg")' r/$f
		grep -q '<path' r/$f
	done
	# the page: a bottom line first, title escaped, both images, the tables
	grep -q '^<p class="bottom"><strong>Bottom line.</strong>$' r/index.html
	grep -Eq "^For 1-node chains, (submit the next job with <b>[a-z() -]+</b>: [0-9]+% of them ran without an interruption at a mean overlap of at most 1 h, against [0-9]+% with Slurm's afterany dependency|no method did better than Slurm's afterany dependency within 1 h of mean overlap: it ran [0-9]+% of them without an interruption)\.$" r/index.html
	[ "$(grep -n 'class="bottom"' r/index.html | cut -d: -f1)" -lt "$(grep -n '<table>' r/index.html | head -n 1 | cut -d: -f1)" ]
	grep -q '<title>LS6 &lt;A100&gt;</title>' r/index.html
	grep -q '<img src="load.svg"' r/index.html
	grep -q '<img src="waits.svg"' r/index.html
	grep -q '<img src="curve-1.svg"' r/index.html
	grep -q '<td>1 node</td><td>19708</td>' r/index.html
	# the evaluation as a table: a row per method, shares in per cent
	grep -q '^<tr><td>reactive</td><td>1</td><td>6</td><td>[0-9.]*%</td>' r/index.html
	[ "$(grep -c '^<tr><td>[a-z-]*</td><td>1</td><td>6</td>' r/index.html)" -eq 5 ]
	grep -q '^<tr><td>planner</td><td>1</td><td>6</td>' r/index.html
	# legends in words
	grep -q '>1 node<' r/waits.svg
	! grep -q '1_node' r/waits.svg
	grep -q '>bound: knowing the future<' r/curve-1.svg
	grep -q '>90% of chains<' r/curve-1.svg
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
	# the evaluation: the baselines and the planner, 6 episodes
	[ "$(awk -F'\t' 'NR > 1 { print $1 }' r/eval.tsv | paste -sd' ')" = "reactive average-wait scheduler-estimate oracle planner" ]
	[ "$(awk -F'\t' 'NR == 2 { print $3 }' r/eval.tsv)" = 6 ]
	# the page as a person sees it, 1280 pixels wide
	render r
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

@test "report: handing over at a target, settings chosen on the episodes before the evaluated ones" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r -n 76 -N 6 -k 1,8 -P 0 -T 99% -- -n 76 ls6.jobs
	[[ "$stderr" == *"handing over at 99%: settings chosen on the 6 episodes before "* ]]
	[ -s r/target.tsv ]
	# the table of mirage-eval --target: the baselines, the estimate, the lead
	[ "$(awk -F'\t' 'NR > 1 { print $1 }' r/target.tsv | sort -u | paste -sd' ')" = "average-wait lead reactive scheduler-estimate" ]
	[ "$(awk -F'\t' 'NR > 1 && $19 != 0.99' r/target.tsv | wc -l)" -eq 0 ]
	grep -q '^<h2>Handing over at a target</h2>$' r/index.html
	[ "$(grep -Ec '^<tr><td>[a-z-]+( \(recommended\))?</td><td>[18]</td><td>(&ndash;|[a-z_]+ [0-9.e-]+)</td>' r/index.html)" -eq 8 ]
	# the bottom line: a sentence per size for handing over too
	[ "$(grep -Ec '^Handing over in 10 minutes(, no setting brought 99% of the [18]-node chains through| at 99%, for [18]-node chains use <b>[a-z-]+</b>)' r/index.html)" -eq 2 ]
	# walked forward: the table month by month, a plot per size, and in
	# the bottom line what following the recommendation kept and promised
	[[ "$stderr" == *"handing over at 99%, walked forward a week at a time"* ]]
	[ "$(awk -F'\t' '$1 == "recommended" && $3 == "all" && $4 == 6' r/walk.tsv | wc -l)" -eq 2 ]
	[ -s r/walk-1.svg ] && [ -s r/walk-8.svg ]
	grep -q '<img src="walk-8.svg"' r/index.html
	[ "$(grep -Ec '^Walked forward, each week on the weeks before it, following the recommendation kept [0-9.]+% of 6 [18]-node links \(95% confidence: at least [0-9.]+%\), and promised [0-9.]+%' r/index.html)" -eq 2 ]
	[ "$(grep -Ec '^<tr><td>(recommended|reactive|average-wait|scheduler-estimate|lead)</td><td>[18]</td><td>[0-9.]+%</td>' r/index.html)" -eq 10 ]
	render r
	# a target the accounting cannot choose on: the page says why, exit 1
	run -1 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r2 -n 76 -f 2022-10-25 -N 6 -k 1 -P 0 -T 99% -- -n 76 ls6.jobs
	grep -q '<p>The settings for 99% could not be chosen:</p>' r2/index.html
	[[ "$stderr" == *"the page lacks the target"* ]]
	run -2 "$ROOT/pipelines/cluster-report.sh" -o r3 -T 99%,90% ls6.jobs
}

@test "report: an evaluation that cannot run still gives the page, which says why" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	# a 6-node cluster cannot replay the trace's larger jobs
	run -1 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r -n 6 -N 2 -- -n 6 ls6.jobs
	[[ "$stderr" == *"wrote r/index.html"* ]]
	[[ "$stderr" == *"the evaluation failed"* ]]
	grep -q 'class="failed"' r/index.html
	grep -q "mirage-eval: 'ls6.jobs': job 537673 needs 32 nodes, the cluster has 6" r/index.html
	# the message names the input, not a temporary copy gone by now
	! grep -q '\.work\.' r/index.html
	[ ! -e r/eval.tsv ]
	for f in load.svg waits.svg load.tsv waits.tsv; do [ -s r/$f ]; done
	render r
	# a dump shorter than an episode's window
	mirage-parse -q -S 2023-03-30 "$ROOT/data/ls6-a100.log.gz" -o short.jobs
	run -1 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o s -n 84 -N 2 -k 1 short.jobs
	grep -q 'class="failed"' s/index.html
	grep -q "an episode from 2023-03-31 needs 5 days of it" s/index.html
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

@test "report: with loaning in the cluster model, a plot of the inference pool's demand and the nodes it lent" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r -n 84 -N 2 -k 1 -- -m faithful -n 84 -s InferenceNodes=40 ls6.jobs
	for f in loan.svg loan.tsv loan-days.tsv; do [ -s r/$f ]; done
	grep -q '<img src="loan.svg"' r/index.html
	grep -q '>lent to the cluster<' r/loan.svg
	# the hourly file adds up to what the replay says it lent
	lent=$(mirage-eval --replay -m faithful -n 84 -s InferenceNodes=40 -o /dev/null ls6.jobs 2>&1 | sed -n 's/.*: \([0-9]*\) node-hours lent.*/\1/p')
	awk -F'\t' -v want="$lent" 'NR > 1 { s += $3 } END { d = s - want; if (d < 0) d = -d; exit !(d <= 1) }' r/loan.tsv
	render r
	# without loaning, no such section; a bad demand file is said on the page
	"$ROOT/pipelines/cluster-report.sh" -o p -n 84 -N 2 -k 1 -- -m faithful -n 84 ls6.jobs 2>/dev/null
	! grep -q 'Loaning' p/index.html
	[ ! -e p/loan.svg ]
	echo 'nonsense' > bad.txt
	run -1 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o q -n 84 -N 2 -k 1 -- -m faithful -n 84 -s InferenceNodes=40 -s InferenceDemand=bad.txt ls6.jobs
	grep -q "The replay with loaning could not run" q/index.html
	grep -q "line 1: not &quot;TIME VALUE&quot;\|line 1: not \"TIME VALUE\"" q/index.html
}

@test "report: many chains at once, the other jobs' waits against the share of services, drawn and tabled" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r -n 76 -f 2023-03-01 -N 6 -k 1 -P 0 -A 0,30 -- -n 76 ls6.jobs
	[[ "$stderr" == *"many chains at once: 0,30% of the long jobs' work as services"* ]]
	for f in adoption.tsv adoption.svg; do [ -s r/$f ]; done
	# the rows: 0% reactive; 30% reactive and handing over on the same services
	[ "$(awk -F'\t' 'NR > 1 { print $1 "/" $2 }' r/adoption.tsv | paste -sd'|')" = "0/reactive|30/reactive|30/lead 6h, handover|30/lead 6h, handover, cap 4|30/lead 6h, handover, cap 1|30/lead 24h, handover, min run 50%, cap 1|30/lead 6h, handover, low|30/lead 48h, handover, min run 50%, low" ]
	[ "$(awk -F'\t' 'NR > 1 && $1 == 30 { print $4 }' r/adoption.tsv | sort -u | wc -l)" -eq 1 ]
	grep -q '^<h2>Many chains at once</h2>$' r/index.html
	grep -q '<img src="adoption.svg"' r/index.html
	grep -q '>mean, services handing over<' r/adoption.svg
	grep -q '^<tr><td>30</td><td>lead 6h, handover</td>' r/index.html
	render r
	# a share the tool refuses: said on the page, exit 1
	run -1 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o q -n 76 -N 6 -k 1 -P 0 -A 95 -- -n 76 ls6.jobs
	grep -q "The replay with services could not run" q/index.html
	[[ "$stderr" == *"the page lacks many chains"* ]]
	run -2 "$ROOT/pipelines/cluster-report.sh" -o q2 -A 10,x ls6.jobs
}

# recommended TSV SHARE HARM: the policy of most links kept in the span
# before with the others' mean wait up by at most HARM% there
recommended() {
	awk -F'\t' -v a="$2" -v h="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $1 != a { next }
	    $2 == "reactive" { b0 = $c["before_wait_mean_h"]; next }
	    $2 ~ /, cap [0-9]/ { next }
	    100 * ($c["before_wait_mean_h"] / b0 - 1) <= h && $c["before_no_interruption"] + 0 > best {
		best = $c["before_no_interruption"] + 0; name = $2 }
	    END { print name }' "$1"
}

@test "report: per share, the site policy chosen on the span before, and what it did in the span evaluated" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r -n 76 -f 2023-03-01 -N 60 -k 1 -P 0 -A 10,30 -- -n 76 ls6.jobs
	for a in 10 30; do
		[ "$(awk -F'\t' -v a=$a '$1 == a && $2 != "reactive"' r/adoption.tsv | wc -l)" -eq 6 ]
		name=$(recommended r/adoption.tsv $a 5)
		[ -n "$name" ]
		# only what mirage-advise can deploy: not a cap, said how
		[[ "$stderr" == *"at $a%, recommended: $name (mirage-advise --lead "*"), of the 3 policies mirage-advise can deploy"* ]]
		grep -q "<li>at $a%, recommended: $name (mirage-advise --lead [^)]*), of the 3 policies mirage-advise can deploy" r/index.html
		# what it did is read off the evaluated span's columns
		said=$(awk -F'\t' -v a=$a -v m="$name" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		    $1 == a && $2 == "reactive" { w0 = $c["wait_mean_h_all"] }
		    $1 == a && $2 == m { printf "the others\047 mean wait %+.1f%%", 100 * ($c["wait_mean_h_all"] / w0 - 1)
			printf " (90th percentile"; exit }' r/adoption.tsv)
		[[ "$stderr" == *"at $a%, recommended: $name (mirage-advise --lead "*"), "*"in the span evaluated, $said"* ]]
	done
	# another draw of services (-S): other services, the same rule
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r3 -n 76 -f 2023-03-01 -N 60 -k 1 -P 0 -A 30 -S 2 -- -n 76 ls6.jobs
	mirage-eval --adoption 30 -q -o s2.tsv --adopt-method lead:6h --adopt-seed 2 --handover 10m -n 76 -f 2023-03-01 -u 2023-03-11 ls6.jobs
	react() { awk -F'\t' '$1 == 30 && $2 == "reactive"' "$1"; }
	[ -n "$(react s2.tsv)" ] && [ "$(react r3/adoption.tsv)" = "$(react s2.tsv)" ]
	[ "$(react r3/adoption.tsv)" != "$(react r/adoption.tsv)" ]
	[[ "$stderr" == *"at 30%, recommended: $(recommended r3/adoption.tsv 30 5) (mirage-advise "* ]]
	run -2 "$ROOT/pipelines/cluster-report.sh" -o q -A 30 -S 0 ls6.jobs
	run -2 "$ROOT/pipelines/cluster-report.sh" -o q -A 30 -S 3-1 ls6.jobs
	run -2 "$ROOT/pipelines/cluster-report.sh" -o q -A 30 -S 1-200 ls6.jobs
	# two draws (-S 1-2): each draw's rows, its seed first, and the policy
	# chosen on the mean of the two (their median) in the span before
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r4 -n 76 -f 2023-03-01 -N 60 -k 1 -P 0 -A 30 -S 1-2 -- -n 76 ls6.jobs
	[ "$(cut -f1 r4/adoption-draws.tsv | sort | uniq -c | awk '{ print $1 "x" $2 }' | paste -sd' ')" = "7x1 7x2 1xseed" ]
	[ "$(awk -F'\t' '$1 == 2 && $3 == "reactive"' r4/adoption-draws.tsv | cut -f2-)" = "$(react s2.tsv)" ]
	name=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["method"] == "reactive" { b0[$1] = $c["before_wait_mean_h"]; next }
	    { h[$c["method"]] += 50 * ($c["before_wait_mean_h"] / b0[$1] - 1); s[$c["method"]] += $c["before_no_interruption"] / 2 }
	    END { for (m in h) if (m !~ /, cap [0-9]/ && h[m] <= 5 && s[m] > best) { best = s[m]; name = m }; print name }' r4/adoption-draws.tsv)
	[ -n "$name" ]
	[[ "$stderr" == *"at 30%, recommended: $name (mirage-advise --lead "*"), of the 3 policies mirage-advise can deploy"*"in the span before, medians over 2 draws of services;"* ]]
	grep -q 'medians over 2 draws of services' r4/index.html
	grep -q '<a href="adoption-draws.tsv">' r4/index.html
	[ "$(awk -F'\t' 'NR > 1' r4/adoption.tsv | wc -l)" -eq 7 ]
	# a harm no bound: the most links kept before, whatever the others' wait
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o r2 -n 76 -f 2023-03-01 -N 60 -k 1 -P 0 -A 30 -H 1000 -- -n 76 ls6.jobs
	[[ "$stderr" == *"at 30%, recommended: $(recommended r2/adoption.tsv 30 1000) (mirage-advise "* ]]
	render r
	run -2 "$ROOT/pipelines/cluster-report.sh" -o q -A 30 -H x ls6.jobs
}

@test "report: with a target, many chains at once run the rule its table recommends, where they can; its policies too, in a directory whose name has a space" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr "$ROOT/pipelines/cluster-report.sh" -o "r t" -n 76 -f 2023-03-01 -N 12 -k 1 -P 0 -T 99% -A 30 -- -n 76 ls6.jobs
	[ -s "r t"/target.tsv ] && [ -s "r t"/adoption.tsv ]
	rec=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["recommended"] == 1 { print $c["method"] }' "r t"/target.tsv)
	method=$(awk -F'\t' 'NR > 1 && $2 != "reactive" { print $2; exit }' "r t"/adoption.tsv)
	case $rec in
	lead|scheduler-estimate) [ "$method" = "target target.tsv, handover" ] ;;
	*) [ "$method" = "lead 6h, handover" ] ;;
	esac
	grep -q "<td>$method</td>" "r t"/index.html
	# the policies replay the same rule with their caps, and low
	[ "$(grep -c "^30	$method, cap [41]	" "r t"/adoption.tsv)" -eq 2 ]
	[ "$(grep -c "^30	$method, low	" "r t"/adoption.tsv)" -eq 1 ]
}

@test "report: published whole or not at all; a run killed mid-evaluation leaves the old page with all its files" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	"$ROOT/pipelines/cluster-report.sh" -o r -n 84 -N 6 -k 1 -- -n 84 ls6.jobs 2>/dev/null
	cp r/index.html old.html
	# a second run, killed while mirage-eval runs: its process group
	# (setsid), not every mirage-eval on the machine
	setsid "$ROOT/pipelines/cluster-report.sh" -o r -n 84 -N 40 -k 1,8 -- -n 84 ls6.jobs 2>/dev/null &
	pid=$!
	for _ in $(seq 1 600); do
		ls r/.work.*/eval.err >/dev/null 2>&1 && break
		sleep 0.1
	done
	ls r/.work.*/eval.err
	kill -9 -- -"$pid"
	wait "$pid" || true
	cmp r/index.html old.html
	# every file the page links is there
	for f in $(sed -n 's/.*\(src\|href\)="\([^":#]*\)".*/\2/p' r/index.html); do
		[ -s "r/$f" ] || { echo "r/index.html links $f, which is gone"; return 1; }
	done
	grep -q 'src="curve-1.svg"' r/index.html
}
