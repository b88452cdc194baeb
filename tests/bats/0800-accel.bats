#!/usr/bin/env bats
# 0800-accel.bats: mirage-accel: inside the node, the dispatchers of DNN
# inference on a multi-accelerator system, and RELMAS trained on it.

setup() {
	load test_helper
	mg_setup
}

@test "eval: the inference dispatchers on a multi-accelerator system, a row each, the same for the same seed" {
	run -0 --separate-stderr mirage-accel eval -s Requests=2000 -o a.tsv
	[[ "$stderr" == *"mirage-accel: eval: 2000 requests of 5 networks on 4 sub-accelerators, load 0.50, deadlines at 2.00 x the isolated latency; "*" us of simulation per layer dispatched"* ]]
	[ "$(head -1 a.tsv)" = "$(printf 'policy\trequests\tmet_share\tlatency_mean_ms\tlatency_p95_ms\tenergy_j\tenergy_vs_edf\tbandwidth_oversubscribed\tlayers\tdropped\tpreempted')" ]
	[ "$(cut -f1 a.tsv | sed 1d | paste -sd' ')" = "fcfs edf fedf llf sjf minlat static random fsjf place strict fit" ]
	# every request served by every policy, the same layers dispatched
	[ "$(awk -F'\t' 'NR > 1 { print $2 "-" $9 }' a.tsv | sort -u | wc -l)" -eq 1 ]
	# under load EDF meets more deadlines than FCFS; EDF's energy is 1
	awk -F'\t' '$1 == "fcfs" { f = $3 } $1 == "edf" { e = $3; x = $7 } END { exit !(e > f && x == 1) }' a.tsv
	mirage-accel eval -q -s Requests=2000 -o b.tsv
	cmp a.tsv b.tsv
	mirage-accel eval -q -s Requests=2000 -s ArrivalSeed=2 -o c.tsv
	! cmp -s a.tsv c.tsv
	# more bandwidth, less oversubscription
	mirage-accel eval -q -s Requests=2000 -s Bandwidth=1000 -o d.tsv
	awk -F'\t' 'FNR == 2 { v[FILENAME] = $8 } END { exit !(v["d.tsv"] < v["a.tsv"]) }' a.tsv d.tsv
	# bursts of the same mean rate: the same requests' count, other results
	mirage-accel eval -q -s Requests=2000 -s Burst=4 -o e.tsv
	[ "$(awk -F'\t' 'NR > 1 { print $2 }' e.tsv | sort -u)" = 2000 ]
	! cmp -s a.tsv e.tsv
	run -2 --separate-stderr mirage-accel eval -s Burst=0.5
	[[ "$stderr" == *"bad value '0.5' for Burst"* ]]
	# none dropped by default; with Drop=1 FCFS drops the hopeless and
	# runs fewer layers, and every row counts them
	awk -F'\t' 'NR > 1 && $10 != 0 { exit 1 }' a.tsv
	mirage-accel eval -q -s Requests=2000 -s Drop=1 -o f.tsv
	awk -F'\t' 'NR == FNR && $1 == "fcfs" { l = $9 } NR > FNR && $1 == "fcfs" { d = $10; m = $9 } END { exit !(d > 0 && m < l) }' a.tsv f.tsv
	[ "$(awk -F'\t' 'NR > 1 && $10 ~ /^[0-9]+$/' f.tsv | wc -l)" -eq 12 ]
	run -2 --separate-stderr mirage-accel eval -s Drop=2
	[[ "$stderr" == *"bad value '2' for Drop"* ]]
	run -2 --separate-stderr mirage-accel eval -s Cores=4
	[[ "$stderr" == *"-s: unknown key 'Cores' (AccelWS, AccelRS, "* ]]
	run -2 --separate-stderr mirage-accel eval -s Networks=alexnet
	[[ "$stderr" == *"'alexnet' is not resnet50, mobilenetv2, vgg16, bert or lstm"* ]]
	run -2 --separate-stderr mirage-accel eval ls6.jobs
	[[ "$stderr" == *"eval reads no file: it plays the accelerator model"* ]]
	# a measured table for a network's layers changes its costs
	printf '# layer,dataflow,seconds,bytes,joules\n0,ws,0.002,1e6,0.01\n0,rs,0.002,1e6,0.01\n' > vgg.csv
	mirage-accel eval -q -s Requests=2000 -s Costs=vgg16:vgg.csv -o m.tsv
	! cmp -s a.tsv m.tsv
	printf '0,ws,0.002,1e6,0.01\n99,rs,1,1,1\n' > bad.csv
	run -1 --separate-stderr mirage-accel eval -s Costs=vgg16:bad.csv
	[[ "$stderr" == *"'bad.csv': line 2: not \"layer,ws|rs,seconds,bytes,joules\" of one of vgg16's 16 layers"* ]]
	run -2 --separate-stderr mirage-accel eval -s Costs=alexnet:vgg.csv
	[[ "$stderr" == *"-s Costs: 'alexnet' is not one of the networks"* ]]
}

@test "eval: a cost table of impossible, infinite or binary values, or without end, is refused by file and line" {
	for v in 'inf,1e6,0.01' '1e308,1e6,0.01' '0.002,1e6,inf' '0.002,nan,0.01' '0.002,1e6,-1'; do
		printf '0,ws,0.002,1e6,0.01
0,rs,%s
' "$v" > c.csv
		run -1 --separate-stderr mirage-accel eval -q -s Requests=200 -s Costs=vgg16:c.csv
		[[ "$stderr" == *"'c.csv': line 2: "* ]]
		[[ "$stderr" != *inf* || "$stderr" == *"line 2: a layer takes"* ]]
	done
	head -c 4096 /dev/zero > z.csv
	run -1 --separate-stderr mirage-accel eval -q -s Requests=200 -s Costs=vgg16:z.csv
	[[ "$stderr" == *"'z.csv': line 1: a NUL byte: not a cost table"* ]]
	run -1 --separate-stderr timeout 20 mirage-accel eval -q -s Requests=200 -s Costs=vgg16:/dev/zero
	[[ "$stderr" == *"'/dev/zero': line 1: a NUL byte"* ]]
	yes '# a comment' | head -n 200000 > long.csv
	run -1 --separate-stderr timeout 20 mirage-accel eval -q -s Requests=200 -s Costs=vgg16:long.csv
	[[ "$stderr" == *"'long.csv': line 100001: more lines than any table has"* ]]
}

@test "train: RELMAS, the learned dispatcher, a model file eval -M reads" {
	run -0 --separate-stderr mirage-accel train --play 12 -S 3 -o r.mrm
	[[ "$stderr" == *"mirage-accel: train: 12 episodes of 600 requests on 4 sub-accelerators"* ]]
	[[ "$stderr" == *"mirage-accel: train: relmas (episodes=12 "*" context=8 "*"softmax-actor-critic+attention) in "* ]]
	mirage-train -i r.mrm | grep -q $'^kind\trelmas$'
	mirage-accel train --play 12 -S 3 -q -o r2.mrm
	cmp <(mirage-train -i r.mrm | grep -v -e '^file' -e '^args') <(mirage-train -i r2.mrm | grep -v -e '^file' -e '^args')
	# its row beside the heuristics', on the same requests
	run -0 --separate-stderr mirage-accel eval -s Requests=1000 -M r.mrm -o a.tsv
	[ "$(cut -f1 a.tsv | sed 1d | paste -sd' ')" = "fcfs edf fedf llf sjf minlat static random fsjf place strict fit relmas" ]
	[[ "$stderr" == *"relmas: "*" us per layer dispatched, its network's scoring included"* ]]
	awk -F'\t' '$1 == "relmas" && $2 == 1000 && $3 >= 0 && $3 <= 1 { ok = 1 } END { exit !ok }' a.tsv
	# the ablations are recorded in the model
	mirage-accel train --play 4 --no-bw-features --no-bw-penalty -q -o nb.mrm
	mirage-train -i nb.mrm | grep -q 'beta=0 .*no_bw=1'
	# without the attention encoder: a smaller file, read and run the same way
	mirage-accel train --play 4 --context 0 -q -o ne.mrm
	mirage-train -i ne.mrm | grep -q 'context=0 .*softmax-actor-critic$'
	[ "$(stat -c %s ne.mrm)" -lt "$(stat -c %s nb.mrm)" ]
	mirage-accel eval -s Requests=300 -M ne.mrm -M nb.mrm -o b.tsv 2> /dev/null
	[ "$(cut -f1 b.tsv | sed 1d | tail -2 | paste -sd' ')" = "ne.mrm nb.mrm" ]
	# decoded under the bandwidth budget: recorded, and run so
	mirage-accel train --play 4 --budget -q -o bu.mrm
	mirage-train -i bu.mrm | grep -q 'context=8 budget=1 '
	mirage-accel eval -s Requests=300 -M bu.mrm -o c.tsv 2> /dev/null
	[ "$(tail -1 c.tsv | cut -f1)" = relmas ]
	# its candidates by deadline alone, or the feasible first: recorded,
	# and a different dispatcher on the same requests
	mirage-accel train --play 4 --window deadline -q -o wd.mrm
	mirage-accel train --play 4 --window feasible -q -o wf.mrm
	mirage-train -i wd.mrm | grep -q ' window=deadline '
	mirage-train -i wf.mrm | grep -q ' window=feasible '
	mirage-accel eval -s Requests=1000 -s Load=0.6 -M wd.mrm -M wf.mrm -o w.tsv 2> /dev/null
	[ "$(sed -n '14p;15p' w.tsv | cut -f1 | paste -sd' ')" = "wd.mrm wf.mrm" ]
	[ "$(sed -n 14p w.tsv | cut -f3-6)" != "$(sed -n 15p w.tsv | cut -f3-6)" ]
	# the rule as a prior, the strict and fit pairs, the loads and the
	# credit: recorded, and each a different dispatcher
	mirage-accel train --play 4 -q -o df.mrm
	mirage-train -i df.mrm | grep -q 'load=0.3-0.8 .* credit=all .* prior=10 strict=1.1 fit=1.1 '
	mirage-accel train --play 4 --prior 0 --strict 0 --loads 0.2-0.6 --credit own -q -o np.mrm
	mirage-train -i np.mrm | grep -q 'load=0.2-0.6 .* credit=own .* prior=0 strict=0 fit=0 '
	mirage-accel train --play 4 --strict 0 -q -o ns.mrm
	mirage-accel train --play 4 --fit 0 -q -o nf.mrm
	mirage-train -i nf.mrm | grep -q ' prior=10 strict=1.1 fit=0 '
	mirage-accel eval -s Requests=1000 -s Load=0.6 -M df.mrm -M np.mrm -M ns.mrm -M nf.mrm -o p.tsv 2> /dev/null
	[ "$(sed -n 14,17p p.tsv | cut -f3-6 | sort -u | wc -l)" -eq 4 ]
	for bad in '--prior -1' '--strict 0.5' '--fit 0.5' '--loads 0.6-0.2' '--loads 0' '--credit mine'; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr mirage-accel train $bad -o x.mrm
		[[ "$stderr" == *"invalid "* ]]
		[ ! -e x.mrm ]
	done
	run -2 --separate-stderr mirage-accel train --window soon -o x.mrm
	[[ "$stderr" == *"invalid --window 'soon' (deadline or feasible)"* ]]
	run -2 --separate-stderr mirage-accel train --context 65 -o x.mrm
	[[ "$stderr" == *"invalid context size '65'"* ]]
	run -2 --separate-stderr mirage-accel train -o x.mrm samples.mrs
	[[ "$stderr" == *"train reads no file: it plays the accelerator model"* ]]
	run -2 --separate-stderr mirage-accel train -s Load=x -o x.mrm
	[[ "$stderr" == *"-s: bad value 'x' for Load"* ]]
}

@test "usage: a command is needed; each command takes its own options; --help and --version" {
	run -2 --separate-stderr mirage-accel
	[[ "$stderr" == "usage: mirage-accel train "* ]]
	run -2 --separate-stderr mirage-accel fit
	[[ "$stderr" == *"unknown command 'fit' (train or eval)"* ]]
	run -2 --separate-stderr mirage-accel eval --play 4
	[[ "$stderr" == *"eval takes no option '--play'"* ]]
	run -2 --separate-stderr mirage-accel train -M x.mrm -o y.mrm
	[[ "$stderr" == *"train takes no option '-M'"* ]]
	[ ! -e y.mrm ]
	run -0 mirage-accel --help
	[[ "$output" == "usage: mirage-accel train "* && "$output" == *"See mirage-accel(1)."* ]]
	run -0 mirage-accel --version
	[[ "$output" =~ ^mirage-accel\ [0-9] ]]
}

@test "eval --bound: the most deadlines any dispatcher could meet, a row, and each row's share of it" {
	run -0 --separate-stderr mirage-accel eval -s Requests=400 -s Bandwidth=40 -s Load=0.6 --bound -o a.tsv
	[[ "$stderr" == *"mirage-accel: eval: the bound: "*" deadlines at most, "*" blocks of at most "*" requests, "*" solved exactly, "*" variables"* ]]
	[ "$(head -1 a.tsv | cut -f11-)" = "$(printf 'preempted\tof_bound')" ]
	[ "$(tail -1 a.tsv | cut -f1,2,12)" = "$(printf 'bound\t400\t1')" ]
	# no dispatcher above it; each row's share is its met over the bound's
	awk -F'\t' '$1 == "bound" { b = $3 } END { exit !(b > 0.5 && b <= 1) }' a.tsv
	awk -F'\t' 'NR == FNR && $1 == "bound" { b = $3; next } NR > FNR && FNR > 1 && $1 != "bound" { if ($12 > 1 || $3 > b) exit 1; r = $3 / b - $12; if (r > 0.001 || r < -0.001) exit 1 }' a.tsv a.tsv
	# the same without --bound, less the column and the row
	mirage-accel eval -q -s Requests=400 -s Bandwidth=40 -s Load=0.6 -o b.tsv
	[ "$(cut -f1-11 a.tsv | sed '$d')" = "$(cat b.tsv)" ]
	# exact everywhere: at most the relaxation
	mirage-accel eval -q -s Requests=400 -s Bandwidth=40 -s Load=0.6 --bound --exact 0 -o c.tsv
	awk -F'\t' '$1 == "bound" { v[FILENAME] = $3 } END { exit !(v["a.tsv"] <= v["c.tsv"]) }' a.tsv c.tsv
	run -2 --separate-stderr mirage-accel eval --exact 5
	[[ "$stderr" == *"--exact goes with --bound"* ]]
	run -2 --separate-stderr mirage-accel train --bound -o m.mrm
	[[ "$stderr" == *"train takes no option '--bound'"* ]]
}

@test "eval: preemption inside a layer and the bandwidth by deadline change what is met; the keys are checked" {
	mirage-accel eval -q -s Requests=1000 -s Bandwidth=40 -s Load=0.6 -o a.tsv
	awk -F'\t' 'NR > 1 && $11 != 0 { exit 1 }' a.tsv
	mirage-accel eval -q -s Requests=1000 -s Bandwidth=40 -s Load=0.6 -s Preempt=1 -o p.tsv
	# fcfs interrupts layers for the urgent; the work is the same
	awk -F'\t' '$1 == "fcfs" { exit !($11 > 0) }' p.tsv
	! cmp -s a.tsv p.tsv
	# a dearer interruption: fewer of them
	mirage-accel eval -q -s Requests=1000 -s Bandwidth=40 -s Load=0.6 -s Preempt=1 -s PreemptCost=200 -o q.tsv
	awk -F'\t' 'NR == FNR && $1 == "fcfs" { n = $11 } NR > FNR && $1 == "fcfs" { exit !($11 < n) }' p.tsv q.tsv
	# the bandwidth to the most urgent layers first: fit meets more
	mirage-accel eval -q -s Requests=1000 -s Bandwidth=40 -s Load=0.6 -s BandwidthShare=deadline -o d.tsv
	awk -F'\t' 'NR == FNR && $1 == "fit" { m = $3 } NR > FNR && $1 == "fit" { exit !($3 > m) }' a.tsv d.tsv
	run -2 --separate-stderr mirage-accel eval -s BandwidthShare=fair
	[[ "$stderr" == *"bad value 'fair' for BandwidthShare"* ]]
	run -2 --separate-stderr mirage-accel eval -s Preempt=yes
	[[ "$stderr" == *"bad value 'yes' for Preempt"* ]]
	run -2 --separate-stderr mirage-accel eval -s PreemptCost=-1
	[[ "$stderr" == *"bad value '-1' for PreemptCost"* ]]
}
