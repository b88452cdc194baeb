#!/usr/bin/env bats
# 0530-eval-target.bats: a reliability target (--target): every method's
# setting chosen on time-blocked folds of a training period, never on
# the episodes it is reported on; the model file and mirage-advise
# carry the choice.

setup() {
	load test_helper
	mg_setup
	mg_gbt 30
	J=$BATS_FILE_TMPDIR/ls6.jobs
	# a small run: 6 evaluated episodes from 2023-02-20, settings chosen
	# on 8 from 2023-02-01 (their workload ends by 2023-02-08)
	RUN=(-q -m reference -n 76 -f 2023-02-20 -N 6 -k 1,8 --handover 10m
	    --target 99% --train-from 2023-02-01 --train-count 8 --folds 2 -M "$M")
}

# col FILE METHOD NODES COLUMN: a cell of a TSV table
col() {
	awk -F'\t' -v m="$2" -v n="$3" -v c="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$1 == m && $2 == n { print $k[c] }' "$1"
}

@test "--target: the settings do not change when the evaluated period's jobs do; its figures do" {
	# the same trace with every other job submitted from 2023-02-10 gone
	zcat "$ROOT/data/ls6-a100.log.gz" |
	    awk -F'\t' 'NR <= 3 || $5 < "2023-02-10" || NR % 2' > mod.log
	mirage-parse -q mod.log -o mod.jobs
	mirage-eval "${RUN[@]}" --plan 2 -F tsv -o a.tsv "$J"
	mirage-eval "${RUN[@]}" --plan 2 -F tsv -o b.tsv mod.jobs
	# every method's setting, whether it reached the target, what it cost
	# on the training period and which one is recommended: the same
	diff <(cut -f1-8 a.tsv) <(cut -f1-8 b.tsv)
	# while what the settings bring on the evaluated episodes changed
	! diff <(cut -f10 a.tsv) <(cut -f10 b.tsv) > /dev/null
	# a setting for every method that has one, and none for the others
	[ "$(col a.tsv planner 8 setting_kind)" = price ]
	[ "$(col a.tsv gbt 1 setting_kind)" = margin_h ]
	[ "$(col a.tsv lead 1 setting_kind)" = lead_h ]
	[ "$(col a.tsv scheduler-estimate 1 setting_kind)" = margin_h ]
	[ "$(col a.tsv reactive 1 setting)" = - ]
	# no oracle (it knows the future) and one row for the fixed leads
	[ -z "$(col a.tsv oracle 1 setting)" ]
	[ -z "$(col a.tsv lead-4h 1 setting)" ]
}

@test "--target: each choice is its curve's cheapest point that reaches the target in every fold" {
	mirage-eval "${RUN[@]}" --folds 1 -F tsv -o t.tsv "$J"
	# the training period's own curves, from a run of its episodes
	mirage-eval -q -m reference -n 76 -f 2023-02-01 -N 8 -k 1,8 --handover 10m \
	    -C c.tsv -o /dev/null "$J"
	for n in 1 8; do
		for m in lead scheduler-estimate; do
			# the target, or what any submission time reaches if less
			t=$(col t.tsv $m $n train_bound_share)
			want=$(awk -F'\t' -v m=$m -v n=$n -v t="$t" '
			    NR == 1 { if (t > 0.99) t = 0.99; next }
			    $1 == m && $2 == n && $4 >= t - 1e-9 && (b == "" || $7 < c) { b = $3; c = $7 }
			    END { print b }' c.tsv)
			[ -n "$want" ]
			[ "$(col t.tsv $m $n setting)" = "$want" ]
			[ "$(col t.tsv $m $n reached)" = 1 ]
		done
		# one recommended per size: the cheapest of those that reached it
		# and decide on the queue; a fixed lead only if none did, and a
		# rule without a setting only if no lead did either
		[ "$(awk -F'\t' -v n=$n '$2 == n && $8 == 1' t.tsv | wc -l)" -eq 1 ]
		awk -F'\t' -v n=$n 'NR > 1 && $2 == n && $5 == 1 { q = $3 == "lead_h" ? 1 : $3 == "-" ? 0 : 2
			if (!(q in min) || $7 < min[q]) min[q] = $7 }
		    NR > 1 && $2 == n && $8 == 1 { r = $7 }
		    END { exit !(r == (2 in min ? min[2] : 1 in min ? min[1] : min[0])) }' t.tsv
	done
	# the 95% interval holds the share
	awk -F'\t' 'NR > 1 && !($11 <= $10 && $10 <= $12) { exit 1 }' t.tsv
}

@test "--target: text and JSON say the same as TSV; the full table beside it (--table)" {
	mirage-eval "${RUN[@]}" -F tsv -o t.tsv --table full.tsv "$J"
	mirage-eval "${RUN[@]}" -F json -o t.json "$J"
	mirage-eval "${RUN[@]}" -o t.txt "$J"
	python3 - <<-'PY'
	import csv, json
	rows = list(csv.DictReader(open("t.tsv"), delimiter="\t"))
	js = json.load(open("t.json"))
	assert len(rows) == len(js) > 0
	for r, j in zip(rows, js):
	    assert r["method"] == j["method"] and int(r["nodes"]) == j["nodes"]
	    assert abs(float(r["no_interruption_share"]) - j["no_interruption_share"]) < 1e-4
	    assert abs(float(r["lease_given_h"]) - j["lease_given_h"]) < 1e-4
	    assert r["setting"] == "-" or abs(float(r["setting"]) - j["setting"]) < 1e-9
	PY
	grep -q "^  use .* without interruption here" t.txt
	grep -q '^99%, method  *nodes  *setting  *train worst' t.txt
	# the full table is mirage-eval's own, with the curves' readings
	head -n 1 full.tsv | grep -q $'^method\tnodes\tepisodes\tno_interruption_share\t.*\treach_99_lease_h\t'
}

@test "mirage-train --target: the model keeps the threshold chosen, and mirage-eval chose the same" {
	run -0 --separate-stderr mirage-train --target 99% --handover 10m -M "$M" \
	    -m reference -n 76 -f 2023-02-01 -N 8 -k 1 --folds 2 -o t99.mrm "$J"
	[[ "$stderr" == *"mirage-train: 1-node chains: threshold "* ]]
	mirage-train -i t99.mrm > info.txt
	grep -q $'^params\t.* target=0.99 target_handover_s=600 target_folds=2 target_episodes=8 target_from=2023-02-01T00:00:00 ' info.txt
	# the share of each fold at the threshold kept, and the worst of them
	f=$(grep -o 'target_folds_1n=[0-9.,]*' info.txt | cut -d= -f2)
	[ "$(tr ',' '\n' <<<"$f" | wc -l)" -eq 2 ]
	w=$(grep -o 'target_worst_share=[0-9.]*' info.txt | cut -d= -f2)
	[ "$(tr ',' '\n' <<<"$f" | sort -g | head -n 1)" = "$w" ]
	thr=$(awk -F'\t' '$1 == "threshold" { print $2 }' info.txt)
	# mirage-eval --target chooses the same for this model on the same period
	cp "$M" gbt.mrm
	mirage-eval -q -m reference -n 76 -f 2023-02-20 -N 6 -k 1 --handover 10m --target 99% \
	    --train-from 2023-02-01 --train-count 8 --folds 2 -M gbt.mrm -F tsv -o t.tsv "$J"
	[ "$(col t.tsv gbt 1 setting)" = "$thr" ]
	# 8 episodes certify no 99%: the model promises their lower bound
	# at 95%, as the table's row does, and says so
	[[ "$stderr" == *"mirage-train: it promises "*"% at 95% confidence, not 99%: the 8 episodes chosen on certify no more"* ]]
	pr=$(grep -o 'target_promise=[0-9.]*' info.txt | cut -d= -f2)
	[ "$pr" = "$(col t.tsv gbt 1 promise)" ]
	grep -q ' target_confidence=0.95' info.txt
	# at 80% confidence the same episodes certify more
	mirage-train -q --target 99% --handover 10m --confidence 80% -M "$M" \
	    -m reference -n 76 -f 2023-02-01 -N 8 -k 1 --folds 2 -o t80.mrm "$J"
	mirage-train -i t80.mrm | grep -q ' target_confidence=0.8'
	p80=$(mirage-train -i t80.mrm | grep -o 'target_promise=[0-9.]*' | cut -d= -f2)
	awk -v a="$p80" -v b="$pr" 'BEGIN { exit !(a > b) }'
	run -2 --separate-stderr mirage-train --confidence 80% -a gbt tr.mrs
	[[ "$stderr" == *"--folds, --handover and --confidence go with --target"* ]]
	# chosen again, for another target: one set of target keys
	mirage-train -q --target 90% -M t99.mrm -m reference -n 76 -f 2023-02-01 -N 8 -k 1 -o t90.mrm "$J"
	mirage-train -i t90.mrm | grep $'^params' > p.txt
	[ "$(grep -o 'target=' p.txt | wc -l)" -eq 1 ]
	[ "$(grep -o 'target_promise=' p.txt | wc -l)" -eq 1 ]
	grep -q ' target=0.9 target_handover_s=0 ' p.txt
}

@test "mirage-advise --target: the model's threshold for that target, or the planner's price from --settings" {
	mg_fake_slurm
	NOW=2026-11-23T23:00:00
	mirage-train -q --target 99% --handover 10m -M "$M" -m reference -n 76 \
	    -f 2023-02-01 -N 8 -k 1 --folds 2 -o t99.mrm "$J"
	run -0 --separate-stderr mirage-advise -j 500 -m t99.mrm -n 8 -Q "$FAKE/queue.txt" \
	    --now $NOW --handover --target 99%
	[[ "$output" == *"decision: "* ]]
	# a threshold that fell short of the target in a fold: said, even -q
	python3 "$ROOT/tests/fixtures/badmodel.py" params t99.mrm short.mrm 'target_reached=[01]' 'target_reached=0'
	run -0 --separate-stderr mirage-advise -q -j 500 -m short.mrm -n 8 -Q "$FAKE/queue.txt" \
	    --now $NOW --handover --target 99%
	[[ "$stderr" == *"'short.mrm': its threshold fell short of 99% in a fold of its training period"* ]]
	# a model not chosen for this target, or not for handing over
	run -2 --separate-stderr mirage-advise -j 500 -m t99.mrm -n 8 -Q "$FAKE/queue.txt" \
	    --now $NOW --handover --target 99.9%
	[[ "$stderr" == *"its threshold was not chosen for 99.9%; choose it with mirage-train --target 99.9%"* ]]
	run -2 --separate-stderr mirage-advise -j 500 -m "$M" -n 8 -Q "$FAKE/queue.txt" --now $NOW --target 99%
	[[ "$stderr" == *"its threshold was not chosen for 99%"* ]]
	run -2 --separate-stderr mirage-advise -j 500 -m t99.mrm -n 8 -Q "$FAKE/queue.txt" --now $NOW --target 99%
	[[ "$stderr" == *"its threshold was chosen for handing over"* ]]
	run -2 --separate-stderr mirage-advise -j 500 -m t99.mrm -n 8 -Q "$FAKE/queue.txt" \
	    --now $NOW --handover --target 99% -T 3
	[[ "$stderr" == *"--target chooses the setting: no -T or --lambda"* ]]
	# the planner: its price for the chain's size, from the table
	mirage-eval "${RUN[@]}" --plan 2 -F tsv -o s.tsv "$J"
	run -2 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --plan 2 --target 99%
	[[ "$stderr" == *"the price comes from --settings table.tsv"* ]]
	run -2 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --plan 2 --target 99% --settings s.tsv
	[[ "$stderr" == *"s.tsv', line "*": chosen for handing over; run mirage-eval --target without --handover"* ]]
	run -2 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --plan 2 --target 90% --settings s.tsv
	[[ "$stderr" == *"chosen for 99%, not the --target 90%"* ]]
	# a table of two targets: the rows of the one asked for
	mirage-eval "${RUN[@]/99%/99%,90%}" --plan 2 -F tsv -o s2.tsv "$J"
	[ "$(awk -F'\t' '$1 == "planner"' s2.tsv | wc -l)" -eq 4 ]
	run --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --plan 2 --target 90% --settings s2.tsv -H "$J"
	[ "$status" -eq 0 ] || [ "$status" -eq 10 ]
	# job 500 is a 1-node chain: the price of the 90% row for 1 node
	p=$(awk -F'\t' '$1 == "planner" && $2 == 1 && $19 == 0.9 { print $4 }' s2.tsv)
	[[ "$output" == *"(an hour of lease weighs $p interruptions)"* ]]
	# a table cut short, or not a table of targets, is refused
	local at
	for at in 300 700; do	# in the header, in a row
		head -c $at s.tsv > cut.tsv
		run -5 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
		    --handover --plan 2 --target 99% --settings cut.tsv
		[[ "$stderr" == *"cut.tsv', line "*": truncated"* ]]
	done
	printf 'method\tnodes\n' > other.tsv
	run -6 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --plan 2 --target 99% --settings other.tsv
	[[ "$stderr" == *"not a table of mirage-eval --target -F tsv"* ]]
	# a chain size the table has no price for is an error, not a guess
	awk -F'\t' '!($1 == "planner" && $2 == 1)' s.tsv > no1.tsv
	run -2 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --plan 2 --target 99% --settings no1.tsv -H "$J"
	[[ "$stderr" == *"the settings hold nothing for 1-node chains or fewer: choose it with mirage-eval --target -k 1"* ]]
}

@test "mirage-advise --target --settings: the rule recommended for the chain's size, a fixed lead or Slurm's estimate" {
	mg_fake_slurm
	NOW=2026-11-23T23:00:00
	mirage-eval "${RUN[@]}" -F tsv -o s.tsv "$J"
	# recommend ROW-METHOD SETTING: the table with only that row of the
	# 1-node chains recommended, at that setting
	recommend() {
		awk -F'\t' -v OFS='\t' -v m="$1" -v v="$2" 'NR > 1 && $2 == 1 { $8 = $1 == m; if ($1 == m) $4 = v } 1' s.tsv > r.tsv
	}
	# job 500, one node, has 1 h left: a lead of 4 h submits, of 0.5 h waits
	recommend lead 4
	run -0 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings r.tsv
	[[ "$output" == *"500 ends in 1.0 h; with a lead of 4 h its successor is submitted when at most that is left: submit"* ]]
	# a size without a row decides by the largest smaller size's, said
	# even under -q; a size below every row is refused
	run -0 --separate-stderr mirage-advise -q -j 500 -N 2 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings r.tsv
	[[ "$output" == *"with a lead of 4 h"*": submit"* ]]
	[[ "$stderr" == *"the settings hold nothing for 2-node chains: the 1-node chains' row decides"* ]]
	recommend lead 0.5
	run -10 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings r.tsv
	[[ "$output" == *"with a lead of 0.5 h"*": wait"* ]]
	# Slurm's estimate: the queue is empty beside 500 and 501, so the
	# successor would start now, 1 h before 500 ends: a margin of 2 h
	# submits, of 0.5 h waits
	recommend scheduler-estimate 2
	run -0 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings r.tsv
	[[ "$output" == *"the backfill plan starts the successor, submitted now, 1.0 h before 500 ends; it is submitted when that is at most 2 h before: submit"* ]]
	recommend scheduler-estimate 0.5
	run -10 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings r.tsv
	# a model or the planner recommended needs its own file or --plan
	recommend gbt 3
	run -2 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings r.tsv
	[[ "$stderr" == *"the settings recommend gbt for 1-node chains: give -m with its threshold chosen by mirage-train --target"* ]]
	run -2 --separate-stderr mirage-advise -j 500 -n 76 -m "$M" -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings s.tsv
	[[ "$stderr" == *"--settings does not go with -m"* ]]
	# a successor submitted records the promise its setting stated, for
	# the chain's report (mirage-advise --report)
	recommend lead 4
	run -0 --separate-stderr mirage-advise -j 500 -n 76 --squeue "$A/fake-squeue" --sacct "$A/fake-sacct" \
	    --sbatch "$A/fake-sbatch" --now $NOW --handover --target 99% --settings r.tsv --submit job.sh
	want=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $1 == "lead" && $2 == 1 { printf "%.4f", $c["promise"] }' r.tsv)
	awk -v w="$want" 'BEGIN { exit !(w > 0.5) }'
	[ "$(tail -n 1 job.sh.chain.links | cut -f1,2,6)" = "$(printf '500\t900\t%s' "$want")" ]
}

@test "--target: bad use is a usage error naming the option" {
	run -2 --separate-stderr mirage-eval -q -m reference -n 76 -N 2 --target 150% "$J"
	[[ "$stderr" == *"invalid --target '150%'"* ]]
	run -2 --separate-stderr mirage-eval -q -m reference -n 76 -N 2 --folds 3 "$J"
	[[ "$stderr" == *"--folds, --train-from, --train-count, --confidence, --table and --walk-forward go with --target"* ]]
	run -2 --separate-stderr mirage-eval -q -m reference -n 76 -f 2023-02-20 -N 2 --target 0.99 \
	    --train-count 2 --folds 3 "$J"
	[[ "$stderr" == *"fewer than the 3 folds"* ]]
	run -2 --separate-stderr mirage-train --target 99% -m reference "$J"
	[[ "$stderr" == *"--target and -M go together"* ]]
	run -2 --separate-stderr mirage-train --target 99% -M "$M" -a gbt "$J"
	[[ "$stderr" == *"no -a"* ]]
}

@test "mirage-advise --settings and a model's target keys: bad input refused with the file and line" {
	mg_fake_slurm
	NOW=2026-11-23T23:00:00
	A=(-j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW --handover --target 99%)
	mirage-eval "${RUN[@]}" -F tsv -o s.tsv "$J"
	col() { head -1 s.tsv | tr '\t' '\n' | grep -nx "$1" | cut -d: -f1; }
	# set COLUMN VALUE: every row's COLUMN is VALUE, into bad.tsv
	set_all() { awk -F'\t' -v OFS='\t' -v k="$(col "$1")" -v v="$2" 'NR > 1 { $k = v } 1' s.tsv > bad.tsv; }
	for kv in "target nan" "target inf" "setting inf" "setting -1" "nodes 1.5" "handover_s nan" "recommended 2"; do
		set_all $kv
		run -1 --separate-stderr mirage-advise "${A[@]}" --settings bad.tsv
		[[ "$stderr" == *"--settings: 'bad.tsv', line 2: not a row of mirage-eval --target"* ]] || {
			echo "$kv: $stderr"; return 1; }
	done
	# a NUL byte where a line starts
	{ head -1 s.tsv; printf '\0\n'; tail -n +2 s.tsv; } > nul.tsv
	run -1 --separate-stderr mirage-advise "${A[@]}" --settings nul.tsv
	[[ "$stderr" == *"'nul.tsv', line 2: a NUL byte"* ]]
	# two settings recommended for one size
	r=$(awk -F'\t' -v c="$(col recommended)" '$c == 1 && $2 == 1 { print NR; exit }' s.tsv)
	{ cat s.tsv; sed -n "${r}p" s.tsv; } > dup.tsv
	run -1 --separate-stderr mirage-advise "${A[@]}" --settings dup.tsv
	[[ "$stderr" == *"'dup.tsv', line $(($(wc -l < s.tsv) + 1)): a second setting for 1-node chains (line $r)"* ]]
	# a walk's choices: a day's each, not one setting a size
	awk -F'\t' -v OFS='\t' '{ print (NR == 1 ? "period_start" : 1700000000), $0 }' s.tsv > walk.tsv
	run -1 --separate-stderr mirage-advise "${A[@]}" --settings walk.tsv
	[[ "$stderr" == *"--settings: 'walk.tsv', line 2: a walk's choices, a day's each"* ]]
	# a directory
	mkdir d.tsv
	run -2 --separate-stderr mirage-advise "${A[@]}" --settings d.tsv
	[[ "$stderr" == *"--settings: 'd.tsv' is a directory"* ]]
	# a model whose target keys are not numbers, or missing
	mirage-train -q --target 99% --handover 10m -M "$M" -m reference -n 76 \
	    -f 2023-02-01 -N 8 -k 1 --folds 2 -o t99.mrm "$J"
	python3 "$ROOT/tests/fixtures/badmodel.py" params t99.mrm nan.mrm ' target=0.99 ' ' target=nan '
	run -2 --separate-stderr mirage-advise "${A[@]}" -m nan.mrm
	[[ "$stderr" == *"its threshold was not chosen for 99%"* ]]
	python3 "$ROOT/tests/fixtures/badmodel.py" params t99.mrm noh.mrm ' target_handover_s=[0-9]*' ''
	run -1 --separate-stderr mirage-advise "${A[@]}" -m noh.mrm
	[[ "$stderr" == *"'noh.mrm': its target has no valid target_handover_s"* ]]
}

@test "mirage-advise --settings: the promise said; a table for another cluster refused; an old one warned of" {
	mg_fake_slurm
	NOW=2026-11-23T23:00:00
	mirage-eval "${RUN[@]}" -F tsv -o s.tsv "$J"
	# chosen on 8 episodes: the promise is their lower bound, not 99%
	run --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings s.tsv
	[ "$status" -eq 0 ] || [ "$status" -eq 10 ]
	p=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $2 == 1 && $c["recommended"] == 1 { printf "%.1f", 100 * $c["promise"] }' s.tsv)
	[[ "$stderr" == *"the settings promise $p% of 1-node links at 95% confidence, not the target: the links chosen on certify no more (at most "*"% could start in time)"* ]]
	[[ "$output" == *"promise:  $p% of links without an interruption at 95% confidence, not the target; at most "* ]]
	# said under -q too, and in the JSON with its ceiling
	run --separate-stderr mirage-advise -q -F json -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings s.tsv
	[[ "$stderr" == *"the settings promise $p% of 1-node links"*", not the target"* ]]
	echo "$output" | python3 -c "import json, sys; d = json.load(sys.stdin); assert abs(100 * d['promise'] - $p) < 0.051 and d['promise_certified'] == 0 and d['promise'] <= d['bound_share'] <= 1, d"
	# the history ended in February 2023: more than two weeks before --now
	[[ "$stderr" == *"the settings were chosen on a history that ended "*" days ago: the cluster may have changed"* ]]
	# -n 8: chosen for a cluster of 76 nodes, not this one
	run -2 --separate-stderr mirage-advise -j 500 -n 8 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings s.tsv
	[[ "$stderr" == *"s.tsv', line "*": chosen for a cluster of 76 nodes, not the 8 of -n: choose again with mirage-eval --target -n 8"* ]]
	# a table that does not say where it was chosen is read as before
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cluster_nodes") k = i } { NF = k - 1 } 1' s.tsv > old.tsv
	run --separate-stderr mirage-advise -j 500 -n 8 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings old.tsv
	[[ "$stderr" != *"were chosen on a history"* ]]
	# a certified row: the target itself, at its confidence
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	    $2 == 1 && $c["recommended"] == 1 { $c["certified"] = 1; $c["promise"] = 0.99 } 1' s.tsv > cert.tsv
	run --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW \
	    --handover --target 99% --settings cert.tsv
	[[ "$stderr" == *"the settings promise 99% of 1-node links without an interruption at 95% confidence (8 chosen on)"* ]]
}

@test "a chain under way is never stopped by settings it cannot use: the reactive rule, said under -q; a new chain stops" {
	mg_fake_slurm
	NOW=2026-11-23T23:00:00
	mirage-eval "${RUN[@]}" -F tsv -o s.tsv "$J"
	# a lead of 0.5 h recommended for 1-node chains: job 500 (1 h left) waits
	awk -F'\t' -v OFS='\t' 'NR > 1 && $2 == 1 { $8 = $1 == "lead"; if ($1 == "lead") $4 = 0.5 } 1' s.tsv > r.tsv
	L=(--squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --sbatch "$A/fake-sbatch" --now $NOW --handover --target 99%)
	# a new chain's first run stops on a table for another cluster
	run -2 --separate-stderr mirage-advise "${L[@]}" -q --settings r.tsv -j 500 -n 8 --submit job.sh
	[[ "$stderr" == *"chosen for a cluster of 76 nodes, not the 8 of -n"* ]]
	[ ! -e job.sh.chain ]
	run -10 mirage-advise "${L[@]}" --settings r.tsv -j 500 -n 76 --submit job.sh
	[ -e job.sh.chain ]
	# under way: the cluster changed (-n 8) before the table was chosen again
	run -10 --separate-stderr mirage-advise "${L[@]}" -q --settings r.tsv -n 8 --submit job.sh
	[[ "$stderr" == *"chosen for a cluster of 76 nodes, not the 8 of -n: choose again with mirage-eval --target -n 8; the chain goes on by the reactive rule (its successor at its predecessor's end) until the settings can be used"* ]]
	[[ "$output" == *"submit when 500 ends"* ]]
	# a table that recommends a model this run cannot apply: the same
	awk -F'\t' -v OFS='\t' 'NR > 1 && $2 == 1 { $8 = $1 == "gbt"; if ($1 == "gbt") $4 = 3 } 1' s.tsv > g.tsv
	run -10 --separate-stderr mirage-advise "${L[@]}" -q --settings g.tsv -n 76 --submit job.sh
	[[ "$stderr" == *"the settings recommend gbt for 1-node chains, which this run cannot apply"*"the chain goes on by the reactive rule"* ]]
	# a table for another target, or damaged: the same
	run -10 --separate-stderr mirage-advise "${L[@]/99%/90%}" -q --settings r.tsv -n 76 --submit job.sh
	[[ "$stderr" == *"not the --target 90%; the chain goes on by the reactive rule"* ]]
	# P ends: its successor is submitted at once, the table still foreign
	sed -i '/^500|/d' "$FAKE/queue.txt"
	echo '500|500|gpu|COMPLETED|2026-11-21T23:00:00|2026-11-22T00:00:00|2026-11-23T22:50:00|2-00:00:00|1' > "$FAKE/sacct.txt"
	run -0 --separate-stderr mirage-advise "${L[@]}" -q --settings r.tsv -n 8 --submit job.sh
	[[ "$output" == *"decision: submitted"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
}

@test "a chain whose successors took longer to be ready than the handover chosen for: the lead raised by the difference, said under -q" {
	mg_fake_slurm
	NOW=2026-11-23T23:00:00
	mirage-eval "${RUN[@]}" -F tsv -o s.tsv "$J"
	# a lead of 0.5 h recommended for 1-node chains: job 500 (1 h left) waits
	awk -F'\t' -v OFS='\t' 'NR > 1 && $2 == 1 { $8 = $1 == "lead"; if ($1 == "lead") $4 = 0.5 } 1' s.tsv > r.tsv
	L=(--squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --sbatch "$A/fake-sbatch" --now $NOW --handover --target 99%)
	run -10 mirage-advise "${L[@]}" --settings r.tsv -j 500 -n 76 --submit job.sh
	grep -qx 'ready_max	0' job.sh.chain
	# its successors took up to an hour to be ready, the table's handover
	# is 10 minutes: 50 minutes more lead, 1.33 h, and 500 has 1 h left
	sed -i 's/^ready_max\t0$/ready_max\t3600/; /^crc32/d' job.sh.chain
	printf 'crc32\t%s\n' "$(python3 -c 'import sys, zlib; print("%08x" % zlib.crc32(open(sys.argv[1], "rb").read()))' job.sh.chain)" >> job.sh.chain
	run -0 --separate-stderr mirage-advise "${L[@]}" -q --settings r.tsv -n 76 --submit job.sh
	[[ "$stderr" == *"this chain's successors took up to 60 min from their start to ready, 50 min more than the handover the settings were chosen for: the lead is raised by that much"* ]]
	[[ "$output" == *"decision: submitted"*"with a lead of 1.33333 h"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
}

@test "mirage-advise --settings-lead: the fixed lead the table chose for the size, not the rule it recommends (a second replica)" {
	mg_fake_slurm
	NOW=2026-11-23T23:00:00
	mirage-eval "${RUN[@]}" -F tsv -o s.tsv "$J"
	# the estimate recommended, a lead of 3 h chosen beside it: 500 has
	# 1 h left, the lead submits
	awk -F'\t' -v OFS='\t' 'NR > 1 && $2 == 1 { $8 = $1 == "scheduler-estimate"; if ($1 == "lead") $4 = 3; if ($8) $4 = 0.01 } 1' s.tsv > r.tsv
	A=(-j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW --handover --target 99% --settings r.tsv)
	run -0 mirage-advise "${A[@]}" --settings-lead
	[[ "$output" == *"500 ends in 1.0 h; with a lead of 3 h its successor is submitted when at most that is left: submit"* ]]
	run mirage-advise "${A[@]}"
	[[ "$output" == *"the backfill plan starts the successor"* ]]
	run -2 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now $NOW --handover --target 99% --settings-lead
	[[ "$stderr" == *"--settings-lead goes with --settings, without --plan"* ]]
}

@test "mirage-advise --settings: a CRLF table keeps its provenance; foreign numbers, a NUL and nonsense ranges are refused; the reactive rule recommended is applied" {
	mg_fake_slurm
	NOW=2026-11-23T23:00:00
	mirage-eval "${RUN[@]}" -F tsv -o s.tsv "$J"
	Q=(-j 500 -Q "$FAKE/queue.txt" --now $NOW --handover --target 99%)
	sed 's/$/\r/' s.tsv > crlf.tsv
	run --separate-stderr mirage-advise "${Q[@]}" -n 76 --settings crlf.tsv
	[ "$status" -eq 0 ] || [ "$status" -eq 10 ]
	[[ "$stderr" == *"the settings were chosen on a history that ended "*" days ago"* ]]
	run -2 --separate-stderr mirage-advise "${Q[@]}" -n 8 --settings crlf.tsv
	[[ "$stderr" == *"chosen for a cluster of 76 nodes, not the 8 of -n"* ]]
	# a column changed: 0x10, 76.9 nodes, the year 5138, 999999 h
	col() { awk -F'\t' -v OFS='\t' -v c="$1" -v v="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; print; next }
	    $1 == "lead" { $k = v } 1' s.tsv; }
	col setting 0x10 > bad1.tsv
	col cluster_nodes 76.9 > bad2.tsv
	col history_end 99999999999 > bad3.tsv
	col setting 999999 > bad4.tsv
	for f in bad1 bad2 bad3 bad4; do
		run -1 --separate-stderr mirage-advise "${Q[@]}" -n 76 --settings $f.tsv
		[[ "$stderr" == *"$f.tsv', line "*": not a row of mirage-eval --target"* ]]
	done
	printf '\0method\n' > nul.tsv
	run -1 --separate-stderr mirage-advise "${Q[@]}" -n 76 --settings nul.tsv
	[[ "$stderr" == *"nul.tsv', line 1: a NUL byte: not a table of mirage-eval --target"* ]]
	# the reactive rule recommended: applied, not "give -m"
	awk -F'\t' -v OFS='\t' 'NR > 1 && $2 == 1 { $8 = $1 == "reactive" } 1' s.tsv > react.tsv
	run -10 --separate-stderr mirage-advise "${Q[@]}" -n 76 --settings react.tsv
	[[ "$output" == *"submit when 500 ends"* ]]
	[[ "$output" == *"the settings recommend the reactive rule for 1-node chains"* ]]
}

@test "--target: a model trained on the weeks the settings are chosen on is left out of the choice, and said under -q" {
	# trained on the very episodes the settings are chosen on
	mirage-features -q -f 2023-02-01 -N 40 -k 1 -w 2 -o in.mrs "$J"
	mirage-train -q -a gbt -o insample.mrm in.mrs
	run -0 --separate-stderr mirage-eval "${RUN[@]}" -M insample.mrm -F tsv -o t.tsv "$J"
	[[ "$stderr" == *"--target: model 'insample' was trained on episodes up to 2023-02-07T12:00:00, and the settings are chosen on episodes from 2023-02-01T00:00:00: it is left out of the choice"* ]]
	[[ "$stderr" != *"model 'gbt'"* ]]
	[ "$(col t.tsv insample 1 in_sample)" = 1 ]
	[ "$(col t.tsv insample 1 recommended)" = 0 ]
	[ "$(col t.tsv gbt 1 in_sample)" = 0 ]
	# the text marks it
	mirage-eval "${RUN[@]}" -M insample.mrm -o t.txt "$J" 2>/dev/null
	grep -q '^insample .*~' t.txt
	grep -q '~ a model trained on the weeks chosen on, never recommended' t.txt
	# mirage-train --target refuses to choose its threshold there
	run -2 --separate-stderr mirage-train --target 99% --handover 10m -M insample.mrm \
	    -m reference -n 76 -f 2023-02-01 -N 8 -k 1 -o x.mrm "$J"
	[[ "$stderr" == *"'insample.mrm' was trained on episodes up to 2023-02-07T12:00:00: its threshold would be chosen on its own training; choose it on episodes from 2023-02-12T12:00:00 on (-f)"* ]]
	[ ! -e x.mrm ]
}
