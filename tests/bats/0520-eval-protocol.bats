#!/usr/bin/env bats
# 0520-eval-protocol.bats: mirage-eval's evaluation protocol: the
# baselines on a hand-made episode whose answers are known, the oracle
# never beaten, the original's figures at 76 nodes, the outputs.

setup() {
	load test_helper
	mg_setup
}

ls6() {
	[ -e ls6.jobs ] || mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
}

# col FILE METHOD NODES COLUMN: a cell of the TSV table
col() {
	awk -F'\t' -v m="$2" -v n="$3" -v c="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$1 == m && $2 == n { print $k[c] }' "$1"
}

@test "a hand-made episode: every baseline's submission and outcome as worked out by hand" {
	# 2 nodes.  P (1 node, 2 h) is submitted at 01:00 and starts at once;
	# B (2 nodes, 4 h) arrives at 02:00 and waits for P's node.  S
	# submitted before B arrives starts at once (an overlap); after, it
	# queues behind B's reservation and starts at 07:00, 4 h after P's end.
	printf 'JobID|User|Partition|Submit|Start|End|Timelimit|NNodes|State\n%s\n' \
	    '1|u|p|2023-01-01T02:00:00|2023-01-01T02:00:00|2023-01-01T06:00:00|04:00:00|2|COMPLETED' > t.txt
	mirage-parse -q t.txt -o t.jobs
	mirage-eval -q -n 2 -f 2023-01-01 -N 1 --warmup 1h --workload 6h --limit 2h \
	    -E ep.mrs -F tsv -o table.tsv t.jobs
	mirage-cat -T ep.mrs | cut -f4- > got.tsv
	cat > want.tsv <<-'END'
	method	t	x	load
	reactive	2023-01-01T03:00:00	14400	medium
	average-wait	2023-01-01T03:00:00	14400	medium
	scheduler-estimate	2023-01-01T02:10:00	14400	medium
	oracle	2023-01-01T01:50:00	-4200	medium
	END
	diff -u want.tsv got.tsv
	# the oracle's gap is 0; the others' is |4 h| - |-70 min|
	[ "$(col table.tsv oracle 1 oracle_gap_h)" = 0.0000 ]
	[ "$(col table.tsv reactive 1 oracle_gap_h)" = 2.8333 ]
	[ "$(col table.tsv oracle 1 no_interruption_share)" = 1.0000 ]
}

@test "an idle cluster: no wait, so the reactive submission is seamless" {
	printf 'JobID|User|Partition|Submit|Start|End|Timelimit|NNodes|State\n%s\n' \
	    '1|u|p|2023-01-01T00:30:00|2023-01-01T00:30:00|2023-01-01T00:40:00|00:10:00|1|COMPLETED' > t.txt
	mirage-parse -q t.txt -o t.jobs
	mirage-eval -q -n 4 -f 2023-01-01 -N 1 --warmup 1h --workload 6h --limit 2h -E ep.mrs t.jobs
	[ "$(mirage-cat ep.mrs | awk -F'\t' '$4 == "reactive" { print $6 }')" = 0 ]
	[ "$(mirage-cat ep.mrs | awk -F'\t' '$4 == "oracle" { print $6 }')" = 0 ]
}

@test "no method gets a smaller |x| than the oracle on any LS6 episode" {
	ls6
	mirage-eval -q -n 76 -f 2023-03-01 -N 40 -k 1,8 -E ep.mrs -o /dev/null ls6.jobs
	mirage-cat ep.mrs | awk -F'\t' '
		NR == 1 { next }
		{ a = $6 < 0 ? -$6 : $6; key = $3 " " $1; best[key] = best[key] }
		$4 == "oracle" { o[key] = a; next }
		{ m[key, $4] = a; keys[key] = 1; meth[$4] = 1 }
		END {
			for (k in keys) for (x in meth) if (m[k, x] < o[k]) { print "beaten:", k, x; bad = 1 }
			exit bad
		}'
	[ "$(records ep.mrs)" -eq $((40 * 2 * 4)) ]
}

@test "reference mode at 76 nodes: the reactive baseline as the original simulator gives it" {
	ls6
	run -0 --separate-stderr mirage-eval -q -n 76 -f 2023-03-01 -N 156 -k 1 -F tsv ls6.jobs
	printf '%s\n' "$output" > t.tsv
	# the original Python simulator: 53% without interruption, 2.56 h mean
	[ "$(col t.tsv reactive 1 no_interruption_share)" = 0.5321 ]
	[ "$(printf %.2f "$(col t.tsv reactive 1 interruption_mean_h)")" = 2.56 ]
	[ "$(col t.tsv reactive 1 overlap_mean_h)" = 0.0000 ]
	[ "$(col t.tsv reactive 1 episodes)" = 156 ]
	head -1 t.tsv | grep -q '^method	nodes	episodes	no_interruption_share	'
}

@test "text, TSV and JSON say the same; the curve; same result on any thread count" {
	ls6
	mirage-eval -q -t 1 -f 2023-03-01 -N 12 -k 1,8 -F tsv -o a.tsv -C curve.tsv ls6.jobs
	mirage-eval -q -t 2 -f 2023-03-01 -N 12 -k 1,8 -F tsv -o b.tsv ls6.jobs
	cmp a.tsv b.tsv
	[ "$(tail -n +2 a.tsv | wc -l)" -eq 8 ]
	mirage-eval -q -f 2023-03-01 -N 12 -k 1,8 -F json ls6.jobs > a.json
	python3 -c '
import json, sys
rows = json.load(open("a.json"))
tsv = [l.rstrip("\n").split("\t") for l in open("a.tsv")][1:]
assert len(rows) == len(tsv) == 8
for r, t in zip(rows, tsv):
    assert r["method"] == t[0] and r["nodes"] == int(t[1])
    assert abs(r["no_interruption_share"] - float(t[3])) < 1e-4
'
	mirage-eval -q -f 2023-03-01 -N 12 -k 1,8 ls6.jobs > a.txt
	grep -q '^scheduler-estimate  *8  *12 ' a.txt
	# the curve: more submission slack, less interruption, more overlap
	awk -F'\t' 'NR > 1 && $2 == 1 && $1 == "scheduler-estimate" { if (n++ && ($4 < s || $6 < o)) exit 1; s = $4; o = $6 }' curve.tsv
	[ "$(awk -F'\t' '$1 == "scheduler-estimate"' curve.tsv | wc -l)" -eq 32 ]
	# the threshold rule fed the true outcome, now and one tick ahead:
	# from a threshold of 0 on, looking ahead never submits later, and
	# earlier only while x < 0, so it brings at least as many through
	[ "$(awk -F'\t' '$1 ~ /^perfect-(predictor|lookahead)$/' curve.tsv | wc -l)" -eq 64 ]
	awk -F'\t' '$1 == "perfect-predictor" && $3 >= 0 { p[$2, $3] = $4 }
		$1 == "perfect-lookahead" && $3 >= 0 { l[$2, $3] = $4 }
		END { for (k in p) { if (!(k in l) || l[k] < p[k]) exit 1; n++ } exit n != 22 }' curve.tsv
	# the bound: a larger overlap budget brings more chains through,
	# within the budget, and never fewer than the oracle's own choice
	awk -F'\t' '$1 == "oracle-bound" { if (p[$2] != "" && $4 < p[$2]) exit 1; p[$2] = $4
		if ($6 > $3 + 1e-4) exit 2; n++ } END { exit n != 14 }' curve.tsv
	for k in 1 8; do
		awk -F'\t' -v k=$k -v o="$(col a.tsv oracle $k no_interruption_share)" -v ov="$(col a.tsv oracle $k overlap_mean_h)" \
		    '$1 == "oracle-bound" && $2 == k && $3 >= ov { if ($4 < o - 1e-4) exit 1; seen = 1 } END { exit !seen }' curve.tsv
	done
}

@test "faithful mode runs the protocol too" {
	ls6
	mirage-eval -q -m faithful -n 84 -f 2023-03-01 -N 6 -F tsv -o f.tsv ls6.jobs
	[ "$(col f.tsv oracle 1 episodes)" = 6 ]
}

@test "bad use: formats, threads, sizes; a bad trace" {
	ls6
	run -2 --separate-stderr mirage-eval -F xml ls6.jobs
	[[ "$stderr" == *"invalid format 'xml'"* ]]
	run -2 mirage-eval -t 0 ls6.jobs
	run -2 --separate-stderr mirage-eval -f 2023-03-01 -N 1 -k 100 ls6.jobs
	[[ "$stderr" == *"P and S need 100 nodes, the cluster has 88"* ]]
	head -c 1000 ls6.jobs > cut.jobs
	run -5 mirage-eval -N 1 cut.jobs
	run -0 mirage-eval --version
}

@test "--shard i/n: the shards' outcome streams merge into the whole run's" {
	ls6
	mirage-eval -q -n 76 -f 2023-03-01 -N 6 -k 1,8 -E all.mrs -o /dev/null ls6.jobs
	for i in 0 1 2; do
		mirage-eval -q --shard $i/3 -n 76 -f 2023-03-01 -N 6 -k 1,8 -E s$i.mrs -o /dev/null ls6.jobs
	done
	# the episodes keep their numbers in the whole run: 1 and 4 in shard 1
	[ "$(mirage-cat s1.mrs | tail -n +2 | cut -f1 | sort -un | paste -sd' ')" = "1 4" ]
	cat s1.mrs s2.mrs s0.mrs > m.mrs
	diff <(mirage-cat all.mrs | sort) <(mirage-cat m.mrs | sort)
}

@test "the planner: a method of every output; its decisions use nothing submitted after them; a seed" {
	ls6
	# loaded episodes, where the planner submits hours before P ends
	local opts="-m reference -n 76 -f 2023-03-02 -e 12h -N 2 -k 8 --plan 2 -t 2"
	mirage-eval -q $opts -E full.mrs -C full.tsv -F tsv -o full.txt ls6.jobs
	[ "$(col full.txt planner 8 episodes)" = 2 ]
	[ "$(awk -F'\t' '$1 == "planner"' full.tsv | wc -l)" -eq 16 ]
	[ "$(mirage-cat full.mrs | awk -F'\t' '$4 == "planner"' | wc -l)" -eq 2 ]
	# the same seed and options: the same result, on any thread count
	mirage-eval -q ${opts/-t 2/-t 1} -E again.mrs -F tsv -o again.txt ls6.jobs
	cmp full.txt again.txt
	cmp <(mirage-cat full.mrs) <(mirage-cat again.mrs)
	# its summary says how many decisions it planned: one a tick at
	# most (every 10 minutes of P's last 24 hours), some at least
	run -0 --separate-stderr mirage-eval $opts -o /dev/null ls6.jobs
	n=$(sed -n 's/^mirage-eval: the planner planned \([0-9]*\) decisions of 2 futures each (\([0-9]*\) with futures of their own)$/\1/p' <<<"$stderr")
	[ "$n" -gt 0 ] && [ "$n" -le $((2 * 145)) ]
	# the trace cut just after the planner's submission: the same
	# submission (every decision up to it saw only the past)
	local ep t r
	for ep in 0 1; do
		t=$(mirage-cat full.mrs | awk -F'\t' -v e=$ep '$1 == e && $4 == "planner" { print $5 }')
		r=$(mirage-cat full.mrs | awk -F'\t' -v e=$ep '$1 == e && $4 == "reactive" { print $5 }')
		[ "$t" -lt $((r - 3600)) ]
		mirage-parse -q -E $((t + 1)) "$ROOT/data/ls6-a100.log.gz" -o cut.jobs
		mirage-eval -q $opts -E cut.mrs -o /dev/null cut.jobs
		[ "$(mirage-cat cut.mrs | awk -F'\t' -v e=$ep '$1 == e && $4 == "planner" { print $5 }')" = "$t" ]
	done
	# so do the other designs measured: arrivals scaled to the
	# recent rate, the plan that waits judged on other futures, the
	# same draws at every decision
	local o2="$opts --plan-arrivals blocks:4,rate:48 --plan-cost risk-cv --plan-draws episode"
	mirage-eval -q $o2 -E f2.mrs -o /dev/null ls6.jobs
	for ep in 0 1; do
		t=$(mirage-cat f2.mrs | awk -F'\t' -v e=$ep '$1 == e && $4 == "planner" { print $5 }')
		mirage-parse -q -E $((t + 1)) "$ROOT/data/ls6-a100.log.gz" -o cut.jobs
		mirage-eval -q $o2 -E cut.mrs -o /dev/null cut.jobs
		[ "$(mirage-cat cut.mrs | awk -F'\t' -v e=$ep '$1 == e && $4 == "planner" { print $5 }')" = "$t" ]
	done
	# plans reused for 30 minutes: a third of the decisions or more
	# have futures of their own, fewer than all; none with 0
	local own
	run -0 --separate-stderr mirage-eval $opts --plan-every 30 -o /dev/null ls6.jobs
	n=$(sed -n 's/^mirage-eval: the planner planned \([0-9]*\) decisions .*(\([0-9]*\) with futures of their own)$/\1/p' <<<"$stderr")
	own=$(sed -n 's/^mirage-eval: the planner planned \([0-9]*\) decisions .*(\([0-9]*\) with futures of their own)$/\2/p' <<<"$stderr")
	[ "$own" -lt "$n" ] && [ $((3 * own)) -ge "$n" ]
	run -0 --separate-stderr mirage-eval $opts --plan-every 0 -o /dev/null ls6.jobs
	n=$(sed -n 's/^mirage-eval: the planner planned \([0-9]*\) decisions .*(\([0-9]*\) with futures of their own)$/\1/p' <<<"$stderr")
	own=$(sed -n 's/^mirage-eval: the planner planned \([0-9]*\) decisions .*(\([0-9]*\) with futures of their own)$/\2/p' <<<"$stderr")
	[ "$own" -eq "$n" ] && [ "$n" -gt 0 ]
	# and a plan reused sees no more than the one made
	mirage-eval -q $opts --plan-every 30 -E r.mrs -o /dev/null ls6.jobs
	t=$(mirage-cat r.mrs | awk -F'\t' '$1 == 1 && $4 == "planner" { print $5 }')
	mirage-parse -q -E $((t + 1)) "$ROOT/data/ls6-a100.log.gz" -o cut.jobs
	mirage-eval -q $opts --plan-every 30 -E cut.mrs -o /dev/null cut.jobs
	[ "$(mirage-cat cut.mrs | awk -F'\t' '$1 == 1 && $4 == "planner" { print $5 }')" = "$t" ]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-every 61 ls6.jobs
	[[ "$stderr" == *"invalid --plan-every '61'"* ]]
	# bad settings are named
	run -2 --separate-stderr mirage-eval --plan 4 --plan-arrivals blocks:4,rat ls6.jobs
	[[ "$stderr" == *"invalid --plan-arrivals 'blocks:4,rat' (week, or blocks[:H][,rate[:W]]"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-arrivals blocks,rate:721 ls6.jobs
	[[ "$stderr" == *"invalid --plan-arrivals 'blocks,rate:721'"* ]]
	# a calibration fitted on these episodes, printed as the option
	# that reads it back; a bad one is named
	run -0 --separate-stderr mirage-eval $opts --plan-fit-calibration -o /dev/null ls6.jobs
	local knots
	knots=$(printf '%s\n' "$stderr" | sed -n "s/^mirage-eval: the planner's chances on these episodes: --plan-calibration '\(.*\)'$/\1/p")
	[[ "$knots" =~ ^0:[0-9.]+(,[0-9.]+:[0-9.]+)*/0:[0-9.]+(,[0-9.]+:[0-9.]+)*$ ]]
	mirage-eval -q $opts --plan-calibration "$knots" -o /dev/null ls6.jobs
	run -2 --separate-stderr mirage-eval $opts --plan-calibration "$knots" --plan-fit-calibration ls6.jobs
	[[ "$stderr" == *"--plan-fit-calibration goes with --plan, without --plan-calibration"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-calibration 0.5:0.5,0:0.2/0:0,1:1 ls6.jobs
	[[ "$stderr" == *"invalid --plan-calibration '0.5:0.5,0:0.2/0:0,1:1' (p:q,... for submitting now, '/', p:q,... for later"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-draws sometimes ls6.jobs
	[[ "$stderr" == *"invalid --plan-draws 'sometimes' (want decision or episode)"* ]]
	run -2 --separate-stderr mirage-eval --plan 0 ls6.jobs
	[[ "$stderr" == *"invalid number of futures '0'"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-cost price ls6.jobs
	[[ "$stderr" == *"invalid --plan-cost 'price'"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --lambda -1 ls6.jobs
	[[ "$stderr" == *"invalid --lambda '-1'"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-truth maybe ls6.jobs
	[[ "$stderr" == *"invalid --plan-truth 'maybe'"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-runtimes job ls6.jobs
	[[ "$stderr" == *"invalid --plan-runtimes 'job' (class, user, recent or recent:N"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-arrivals blocks:25 ls6.jobs
	[[ "$stderr" == *"invalid --plan-arrivals 'blocks:25'"* ]]
	# the diagnostic told the true future: one future is enough
	mirage-eval -q ${opts/--plan 2/--plan 1 --plan-truth both} -F tsv -o truth.txt ls6.jobs
	[ "$(col truth.txt planner 8 episodes)" = 2 ]
}

@test "the planner in a faithful world: the capacity history and the limits per user it keeps use nothing after the decision" {
	ls6
	# nodes drained as the trace shows (CapacityFromTrace), 8 jobs a user
	local opts="-m faithful -n 84 -s MaxJobsPerUser=8 -s CapacityFromTrace=3600 -s CapacitySlack=4 -f 2023-03-02 -e 12h -N 2 -k 8 --plan 2 -t 1"
	local ep t r o
	for o in "" "--plan-capacity day:60 --plan-limits none"; do
		mirage-eval -q $opts $o -E full.mrs -o /dev/null ls6.jobs
		for ep in 0 1; do
			t=$(mirage-cat full.mrs | awk -F'\t' -v e=$ep '$1 == e && $4 == "planner" { print $5 }')
			r=$(mirage-cat full.mrs | awk -F'\t' -v e=$ep '$1 == e && $4 == "reactive" { print $5 }')
			[ "$t" -lt "$r" ]
			mirage-parse -q -E $((t + 1)) "$ROOT/data/ls6-a100.log.gz" -o cut.jobs
			mirage-eval -q $opts $o -E cut.mrs -o /dev/null cut.jobs
			[ "$(mirage-cat cut.mrs | awk -F'\t' -v e=$ep '$1 == e && $4 == "planner" { print $5 }')" = "$t" ]
		done
	done
	run -2 --separate-stderr mirage-eval --plan 4 --plan-capacity week ls6.jobs
	[[ "$stderr" == *"invalid --plan-capacity 'week' (delta, day or now, with :M"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-capacity delta:1441 ls6.jobs
	[[ "$stderr" == *"invalid --plan-capacity 'delta:1441'"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-limits 8:x ls6.jobs
	[[ "$stderr" == *"invalid --plan-limits '8:x' (none, or JOBS[:NODES]"* ]]
	run -2 --separate-stderr mirage-eval --plan 4 --plan-followers 0 ls6.jobs
	[[ "$stderr" == *"invalid --plan-followers '0' (none, or the minutes from 1 to 1440"* ]]
}

@test "hybrids: the planner and a model submit where both would, or where either would; the futures weighed by the model" {
	ls6
	mirage-features -q -m reference -n 76 -f 2022-12-01 -N 12 -k 8 -o tr.mrs ls6.jobs
	mirage-train -q -a gbt -r 5 -o gbt.mrm tr.mrs
	mirage-eval -q -m reference -n 76 -f 2023-03-02 -e 12h -N 3 -k 8 --plan 2 -t 2 \
	    -M gbt.mrm --hybrid both -E ep.mrs -C c.tsv -F tsv -o t.tsv ls6.jobs
	[ "$(col t.tsv 'planner&gbt' 8 episodes)" = 3 ]
	[ "$(col t.tsv 'planner|gbt' 8 episodes)" = 3 ]
	[ "$(awk -F'\t' '$1 == "planner|gbt"' c.tsv | wc -l)" -eq 16 ]
	# per episode: "and" no earlier than either, "or" the earlier of the two
	mirage-cat ep.mrs | awk -F'\t' '
		NR > 1 { t[$1, $4] = $5; e[$1] = 1 }
		END {
			for (i in e) {
				p = t[i, "planner"]; g = t[i, "gbt"]
				if (t[i, "planner&gbt"] < p || t[i, "planner&gbt"] < g) exit 1
				if (t[i, "planner|gbt"] != (p < g ? p : g)) exit 1
				n++
			}
			exit n != 3
		}'
	# the futures weighed by the model's x now: with one future the
	# weights change nothing, so it submits when the planner does
	mirage-eval -q -m reference -n 76 -f 2023-03-02 -e 12h -N 3 -k 8 --plan 1 -t 2 \
	    -M gbt.mrm --hybrid weight -E w.mrs -F tsv -o w.tsv ls6.jobs
	[ "$(col w.tsv 'planner~gbt' 8 episodes)" = 3 ]
	mirage-cat w.mrs | awk -F'\t' '
		NR > 1 { t[$1, $4] = $5; e[$1] = 1 }
		END { for (i in e) { if (t[i, "planner~gbt"] != t[i, "planner"]) exit 1; n++ } exit n != 3 }'
	run -2 --separate-stderr mirage-eval --hybrid and -M gbt.mrm ls6.jobs
	[[ "$stderr" == *"--hybrid goes with --plan and -M models"* ]]
	run -2 --separate-stderr mirage-eval --plan 2 -M gbt.mrm --hybrid xor ls6.jobs
	[[ "$stderr" == *"invalid --hybrid 'xor'"* ]]
}

@test "the planner told the true future, in the world's own model: its curve is the oracle bound's" {
	ls6
	# reference mode: the planner's model is the world's (the default);
	# told every run time and arrival and planning every decision, each
	# of its points is a point of the bound (the cheapest time per
	# episode), and it reaches them all
	local opts="-m reference -n 76 -f 2023-03-01 -N 12 -k 1 --plan 1 --plan-truth both --plan-every 0"
	mirage-eval -q $opts -F tsv -o /dev/null -C curve.tsv ls6.jobs
	awk -F'\t' '$1 == "oracle-bound" { print $4, $6 }' curve.tsv | sort -u > bound.txt
	awk -F'\t' '$1 == "planner" { print $4, $6 }' curve.tsv | sort -u > plan.txt
	[ "$(wc -l < bound.txt)" -ge 3 ]
	# every point of the bound is reached ...
	[ -z "$(comm -23 bound.txt plan.txt)" ]
	# ... and no planner point has a share at least a bound point's at
	# less overlap
	awk 'NR == FNR { b[NR] = $0; nb = NR; next }
	    { for (i = 1; i <= nb; i++) { split(b[i], x, " ")
	      if ($1 >= x[1] && $2 < x[2] - 1e-9) { print "beats the bound:", $0; bad = 1 } } }
	    END { exit bad }' bound.txt plan.txt
	# the other model misses it (which is what the diagnostic measures)
	mirage-eval -q $opts --plan-model faithful -F tsv -o /dev/null -C other.tsv ls6.jobs
	awk -F'\t' '$1 == "planner" { print $4, $6 }' other.tsv | sort -u > other.txt
	! cmp -s plan.txt other.txt
	run -2 --separate-stderr mirage-eval --plan 1 --plan-model slurm ls6.jobs
	[[ "$stderr" == *"invalid --plan-model 'slurm' (faithful or reference)"* ]]
}

@test "a cluster that preempts: reactive-preempt, S urgent at P's end, beside the baselines; never worse than reactive" {
	local pre=(-m faithful -n 84 -s PreemptMode=REQUEUE -s DLAttrSeed=1 -f 2023-03-01 -N 12 -k 1,8)
	ls6
	run -0 --separate-stderr mirage-eval "${pre[@]}" -F tsv -C c.tsv -E ep.mrs ls6.jobs
	[[ "$stderr" == *"reactive-preempt, 1-node chains: its preemptions cost other jobs "*" node-hours ("*" a chain)"* ]]
	echo "$output" > t.tsv
	[ "$(awk -F'\t' '$1 == "reactive-preempt"' t.tsv | wc -l)" -eq 2 ]
	# it submits when reactive does, at P's end; its S starts no later
	mirage-cat ep.mrs | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ k = $c["episode"] SUBSEP $c["nodes"] }
		$c["method"] == "reactive" { r[k] = $c["x"]; rt[k] = $c["t"] }
		$c["method"] == "reactive-preempt" { p[k] = $c["x"]; pt[k] = $c["t"] }
		END { for (k in r) { n++; if (!(k in p) || pt[k] != rt[k] || p[k] > r[k]) bad++ }
		      exit !(n == 24 && bad == 0) }'
	# no curve of its own (it has no threshold)
	! grep -q '^reactive-preempt' c.tsv
	# without preemption, no such method
	run -0 --separate-stderr mirage-eval -m faithful -n 84 -f 2023-03-01 -N 2 -k 1 -F tsv ls6.jobs
	[[ "$output" != *reactive-preempt* ]]
}

@test "a cluster with loans: the protocol runs on it, and lent nodes shorten the reactive successor's wait" {
	local base=(-m faithful -n 84 -f 2023-03-01 -N 40 -k 1 -F tsv)
	ls6
	mirage-eval -q "${base[@]}" -o n.tsv ls6.jobs
	mirage-eval -q "${base[@]}" -s InferenceNodes=40 -o l.tsv ls6.jobs
	mirage-eval -q "${base[@]}" -s InferenceNodes=40 -o l2.tsv ls6.jobs
	cmp l.tsv l2.tsv
	# reactive's mean interruption shrinks; its share without one grows
	awk -F'\t' 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; k++; next }
		$1 == "reactive" { m[k] = $c["interruption_mean_h"]; s[k] = $c["no_interruption_share"] }
		END { exit !(m[2] < m[1] && s[2] > s[1]) }' n.tsv l.tsv
}

@test "--handover C: GPU time held twice and the lease given up, per method; the overlap splits into them" {
	ls6
	mirage-eval -q -m reference -n 76 -f 2023-03-01 -N 12 -k 1,8 -F tsv --handover 10m -o h.tsv -E h.mrs ls6.jobs
	mirage-eval -q -m reference -n 76 -f 2023-03-01 -N 12 -k 1,8 -F tsv -o p.tsv -E p.mrs ls6.jobs
	# the same methods, two columns more, and the fixed leads (S at P's
	# end - L) after them
	[ "$(grep -v '^lead-' h.tsv | cut -f1,2)" = "$(cut -f1,2 p.tsv)" ]
	[ "$(cut -f1,2 h.tsv | grep -c '^lead-\(1\|4\|12\|24\)h	[18]$')" -eq 8 ]
	# handing over, no successor is submitted before P starts (P runs its
	# 48 h limit, so it starts 48 h before the reactive submission)
	mirage-cat -T h.mrs | awk -F'\t' 'NR > 1 { t[$1, $4] = $5; m[$4] = 1; e[$1] = 1 }
		END { for (i in e) for (k in m) if (t[i, k] < t[i, "reactive"] - 48 * 3600) exit 1 }'
	# by hand: P waits behind a 2-node job until 06:05; the oracle and
	# the average wait would submit S while P is pending, but handing
	# over nothing is submitted before P runs
	printf 'JobID|User|Partition|Submit|Start|End|Timelimit|NNodes|State\n%s\n%s\n' \
	    '1|u|p|2023-01-01T00:30:00|2023-01-01T00:30:00|2023-01-01T06:05:00|05:35:00|2|COMPLETED' \
	    '2|v|p|2023-01-01T03:00:00|2023-01-01T08:05:00|2023-01-01T12:05:00|04:00:00|2|COMPLETED' > w.txt
	mirage-parse -q w.txt -o w.jobs
	for h in "" "--handover 10m"; do
		mirage-eval -q -n 2 -f 2023-01-01 -N 1 --warmup 1h --workload 6h --limit 2h $h -E w.mrs -o /dev/null w.jobs
		mirage-cat -T w.mrs | cut -f4,5 | sort > "w${h:+h}.tsv"
	done
	grep -qx $'oracle\t2023-01-01T01:50:00' w.tsv
	grep -qx $'average-wait\t2023-01-01T05:33:00' w.tsv
	[ "$(awk -F'\t' 'NR > 1 && $2 < "2023-01-01T06:05:00"' wh.tsv | wc -l)" -eq 0 ]
	grep -qx $'oracle\t2023-01-01T06:10:00' wh.tsv
	head -n 1 h.tsv | grep -q $'\theld_twice_nh\tlease_given_h\treach_99_lease_h\treach_999_lease_h\tdown_h_30d\tjobs_per_1000h\twasted_nh_30d\thandover_wasted_nh_30d$'
	python3 -c '
import csv, sys
rows = list(csv.DictReader(open("h.tsv"), delimiter="\t"))
assert len(rows) >= 8, rows
for r in rows:
    n, held, lease, ovl = int(r["nodes"]), float(r["held_twice_nh"]), float(r["lease_given_h"]), float(r["overlap_mean_h"])
    # at most C x nodes held twice a link; overlap = held / nodes + lease
    assert held <= n * 10 / 60 + 1e-4, r
    assert abs(held / n + lease - ovl) < 2e-4, r
    if r["method"] == "reactive":
        assert held == 0 and lease == 0, r
    # 30 days: the waste of a chain that runs P out is the whole
    # overlap, handing over at most 10 minutes a link; never less
    w, hw = float(r["wasted_nh_30d"]), float(r["handover_wasted_nh_30d"])
    assert hw <= w + 1e-4 and (ovl == 0) == (w == 0), r
    # a share it never reaches says -1; one it does, a lease >= 0
    for c in ("reach_99_lease_h", "reach_999_lease_h"):
        assert float(r[c]) == -1 or float(r[c]) >= 0, r
    # S is submitted L before P ends: it cannot overlap P longer
    if r["method"].startswith("lead-"):
        L = float(r["method"][5:-1])
        assert ovl <= L + 1 / 6 + 1e-4, r
'
	run -2 --separate-stderr mirage-eval -m reference -n 76 -N 2 --handover 2d ls6.jobs
	[[ "$stderr" == *"invalid --handover '2d' (want e.g. 10m, at most a day)"* ]]
	run -2 --separate-stderr mirage-eval -m reference -n 76 -N 2 --plan 2 --plan-cost risk-cv --handover 10m ls6.jobs
	[[ "$stderr" == *"--plan-cost risk-cv does not go with --handover (want risk or hours)"* ]]
}

@test "--handover C: curves to the whole limit against the lease given up, where each method reaches 99%, and 30 days of service" {
	ls6
	mirage-eval -q -m reference -n 76 -f 2023-03-01 -N 12 -k 1,8 --plan 2 --handover 10m \
	    -C c.tsv -o t.txt ls6.jobs
	head -n 1 c.tsv | grep -q $'\toverlap_mean_h\tlease_given_h\theld_twice_nh$'
	# the fixed leads' curve: 0 to 48 h before P's end, 16 points a size;
	# at 0 it is the reactive rule (nothing given up, its share)
	[ "$(awk -F'\t' '$1 == "lead" && $2 == 8' c.tsv | wc -l)" -eq 16 ]
	awk -F'\t' '$1 == "lead" && $3 == 0 && $7 != 0 { exit 1 }
		$1 == "lead" && $3 == 48 { top++ } END { exit top != 2 }' c.tsv
	mirage-eval -q -m reference -n 76 -f 2023-03-01 -N 12 -k 1,8 -F tsv -o r.tsv ls6.jobs
	[ "$(awk -F'\t' '$1 == "lead" && $3 == 0 { print $2, $4 }' c.tsv)" = \
	  "$(awk -F'\t' '$1 == "reactive" { print $2, $4 }' r.tsv)" ]
	# every curve's lease is its overlap less at most 10 minutes a chain
	awk -F'\t' 'NR > 1 && $1 != "oracle-bound" && ($7 > $6 + 1e-4 || $7 < $6 - 1 / 6 - 1e-4) { exit 1 }' c.tsv
	# the summary: 99% and 99.9% per method against the fixed leads, and
	# the 30-day service figures of every method but the estimate
	grep -q '^handing over in 10 min, 1-node chains: the least mean lease given up at which$' t.txt
	grep -q '^handing over in 10 min, 8-node chains' t.txt
	grep -Eq '^  fixed lead +([0-9.]+ h|never) +([0-9.]+ h|never)$' t.txt
	grep -Eq '^  planner +([0-9.]+ h|never) +([0-9.]+ h|never)$' t.txt
	grep -Eq '^  oracle-bound +[0-9.]+ h +[0-9.]+ h$' t.txt
	[ "$(grep -c '^  over 30 days, links faring as these episodes did:$' t.txt)" -eq 2 ]
	# reactive never overlaps: it wastes nothing
	awk '/^  reactive  / && NF == 8 { if ($5 != "0.0" || $7 != "0.0") exit 1; n++ }
		END { exit n != 2 }' t.txt
	# the oracle bound's 99% is read from the same episodes: never above
	# what the fixed leads need
	awk '$1 == "fixed" && $2 == "lead" { l = $3 } $1 == "oracle-bound" { b = $2 }
		b != "" && l != "" && l != "never" { if (b + 0 > l + 0) exit 1; b = l = "" }' t.txt
}

@test "the planner's decisions are the same when every one of them is planned (a hybrid reads them all)" {
	ls6
	mirage-train -q -a gbt -o gbt.mrm <(mirage-features -q -m reference -n 76 -f 2022-11-01 -N 12 -k 1 -w 1 -p 7 ls6.jobs)
	for h in "" "--handover 10m"; do
		mirage-eval -q -m reference -n 76 -f 2023-03-01 -N 8 -k 1,8 --plan 2 $h -E a.mrs -C a.tsv -F tsv -o a.txt ls6.jobs
		mirage-eval -q -m reference -n 76 -f 2023-03-01 -N 8 -k 1,8 --plan 2 $h -M gbt.mrm --hybrid and \
		    -E b.mrs -C b.tsv -F tsv -o b.txt ls6.jobs
		diff <(mirage-cat -T a.mrs | awk -F'\t' '$4 == "planner"') <(mirage-cat -T b.mrs | awk -F'\t' '$4 == "planner"')
		diff <(grep '^planner	' a.tsv) <(grep '^planner	' b.tsv)
		diff <(grep '^planner	' a.txt) <(grep '^planner	' b.txt)
	done
}
