#!/usr/bin/env bats
# 9000-pipeline-reproduce.bats: the README's main job on the bundled data.
# The expected figures are the trace statistics computed independently
# from the raw file in the Mirage specification (section 2.3).

setup() {
	load test_helper
	mg_setup
	# the bottom line of handing over at 99%, walked forward, per setting
	# and size
	TARGET_LINE="^  (reference-88|reference-76|faithful-84), [18]-node chains, 99% handing over in 10 min, walked forward a day at a time \(mirage-advise --handover --target 99% --settings target.tsv, re-chosen nightly\): [0-9.]+% of [0-9]+ links without interruption \(95%: from [0-9.]+%\), the worst month 20[0-9][0-9]-[01][0-9] at [0-9.]+%, promised [0-9.]+%; [0-9.]+ h of lease given up a link; the fixed lead chosen the same way [0-9.]+% at [0-9.]+ h; afterany [0-9.]+%$"
}

@test "reproduce-paper.sh (make demo): the loaded setting in full, each stage timed, a bottom line (quick)" {
	run -0 --separate-stderr env B="$MIRAGE_BIN" MIRAGE_QUICK=1 "$ROOT/pipelines/reproduce-paper.sh" "$PWD/out"
	[[ "$output" == *"jobs                24777"* ]]
	[[ "$output" == *"reference, 88 nodes (the original)"*"4.10 h"*"0.21"* ]]
	# and its capacity calibrated on the trace, size by size
	[[ "$output" == *"the reference model calibrated on the trace"*"  capacity: 75 nodes (the replay waits "*"  all       24777 "* ]]
	# one setting, the loaded one, without and with handing over
	[[ "$output" == *"reference-76: 12 validation episodes from 2023-03-01 (trained on 24 from 2022-11-01)"* ]]
	[[ "$output" != *"reference-88:"* && "$output" != *"faithful-84"* && "$output" != *"preemption:"* ]]
	[ ! -e out/reference-88 ] && [ ! -e out/faithful-84 ]
	[ "$(tail -n +2 out/reference-76/table.tsv | wc -l)" -eq 22 ]
	[ "$(tail -n +2 out/reference-76/handover.tsv | wc -l)" -eq 30 ]
	[ "$(grep -c '^  handing over in 10 minutes (mirage-eval --handover 10m):$' <<<"$output")" -eq 1 ]
	# the bottom line, in words: per chain size, without and with handing over
	[ "$(sed -n '/^bottom line: which method to use/,$p' <<<"$output" | grep -Ec '^  reference-76, [18]-node chains: use .*: [0-9.]+% run without interruption')" -eq 2 ]
	[ "$(sed -n '/^bottom line: which method to use/,$p' <<<"$output" | grep -Ec "$TARGET_LINE")" -eq 2 ]
	# and the same walk judged by the trace's real jobs
	[ "$(sed -n '/^bottom line: which method to use/,$p' <<<"$output" | grep -Ec '^  reference-76, 1-node chains, judged by what really happened \(the same walk, --real\): the estimate kept [0-9.]+% of [0-9]+ real jobs like successors')" -eq 1 ]
	[ "$(awk -F'\t' '$3 == "all"' out/reference-76/real.tsv | wc -l)" -eq 10 ]
	# and with the successor's successor queued too: a row per size and
	# rule, in all, in the summary
	[[ "$output" == *"and with the successor's successor queued too (--real --ahead 2), in all:"* ]]
	[ "$(grep -Ec '^ +[18]-node [a-z-]+ +all +[0-9]+ judged' out/reference-76/real-ahead2.txt)" -eq 10 ]
	[ "$(grep -Ec '^ +[18]-node [a-z-]+ +all +[0-9]+ judged' <<<"$output")" -eq 20 ]
	# the reliability target: settings chosen on February, not on March;
	# the baselines, the estimate, four models and the fixed lead, for
	# two targets and two sizes; no planner in the demo
	[ "$(tail -n +2 out/reference-76/target.tsv | wc -l)" -eq 32 ]
	[ "$(cut -f1 out/reference-76/target.tsv | grep -c '^planner$')" -eq 0 ]
	[ "$(awk -F'\t' 'NR > 1 && $8 == 1' out/reference-76/target.tsv | wc -l)" -le 4 ]
	[[ "$output" == *"settings chosen on 8 episodes from 2023-02-01 (4 time-blocked folds), then run on the 12 validation episodes"* ]]
	# walked forward: two weeks of February a day at a time, each chosen on
	# the two weeks before it; every method of a settings table and the
	# recommendation, by month and in all, for both sizes; each day's
	# choices
	[[ "$output" == *"reference-76: 99% handing over in 10 minutes, walked forward (mirage-eval --target 99% --walk-forward 1d):"* ]]
	[ "$(awk -F'\t' '$3 == "all"' out/reference-76/walk.tsv | wc -l)" -eq 10 ]
	[ "$(awk -F'\t' '$1 == "recommended" && $3 == "all" && $4 == 79' out/reference-76/walk.tsv | wc -l)" -eq 2 ]
	[ "$(awk -F'\t' 'NR > 1 && $12 == 1' out/reference-76/walk-choices.tsv | wc -l)" -eq 28 ]
	# each stage on standard error with the time since the start, and
	# the run's wall time for make bench
	[ "$(grep -Ec '^== [0-9]+:[0-5][0-9] reference-76: mirage-eval' <<<"$stderr")" -eq 3 ]
	[[ "$stderr" == *"make reproduce runs the protocol in all three settings"* ]]
	grep -Eqx '[0-9]+' out/demo-seconds && [ ! -e out/reproduce-seconds ]
	cmp out/ls6-summary.txt <(printf '%s\n' "$output")
}

@test "reproduce-paper.sh --all (make reproduce): the trace's summary, the model's fidelity, the protocol in three settings (quick)" {
	run -0 --separate-stderr env B="$MIRAGE_BIN" MIRAGE_QUICK=1 "$ROOT/pipelines/reproduce-paper.sh" --all "$PWD/out"
	[[ "$output" == *"jobs                24777"* ]]
	[[ "$output" == *"users               367"* ]]
	[[ "$output" == *"wait (start-submit) mean 4.07 h; p25 0.00 p50 0.007 p75 1.32 p90 11.9 p99 48.0 max 932.8 h"* ]]
	[[ "$output" == *"<=1h: 6594 <=6h: 6595 <=24h: 4778 <=48h: 6808 >48h: 2"* ]]
	[ "$(records out/ls6.jobs)" -eq 24777 ]
	# the original simulator's figures on this trace (mirage-spec)
	[[ "$output" == *"reference, 88 nodes (the original)"*"4.10 h"*"0.21"* ]]
	# every setting: samples, six models, a table of 11 methods (the
	# baselines, the models, the planner) x 2 sizes; handing over, the
	# 4 fixed leads too
	for s in reference-88 reference-76 faithful-84; do
		[ "$(records out/$s/train.mrs)" -gt $((24 * 2 * 7)) ]
		for a in gbt rf clf svr dqn pg; do mirage-train -i out/$s/$a.mrm | grep -qx "kind	$a"; done
		[ "$(tail -n +2 out/$s/table.tsv | wc -l)" -eq 22 ]
		[ "$(cut -f1 out/$s/table.tsv | grep -c '^planner$')" -eq 2 ]
		[ "$(records out/$s/episodes.mrs)" -eq $((12 * 2 * 11)) ]
		[ "$(tail -n +2 out/$s/handover.tsv | wc -l)" -eq 30 ]
		[ "$(cut -f1 out/$s/handover.tsv | grep -c '^lead-')" -eq 8 ]
		[ "$(records out/$s/handover.mrs)" -eq $((12 * 2 * 15)) ]
		[ "$(grep -c '^lead	' out/$s/handover-curve.tsv)" -eq 32 ]
		[[ "$output" == *"$s: 12 validation episodes from 2023-03-01 (trained on 24 from 2022-11-01)"* ]]
	done
	# the bound of every setting and size, from the curve
	[ "$(grep -c '^  bound (knowing the future), [18]-node chains: [0-9.]*% without interruption' <<<"$output")" -eq 6 ]
	# each method's point of 90% on the curve and its share within 1 h
	# of overlap, the perfect predictors' too
	[ "$(grep -c '^  90% without interruption, [18]-node chains, at a mean overlap of (h):$' <<<"$output")" -eq 6 ]
	[ "$(grep -Ec '^    scheduler-estimate ([0-9.]+|-) gbt ([0-9.]+|-) .* planner ([0-9.]+|-) perfect-predictor ([0-9.]+|-) perfect-lookahead ([0-9.]+|-)$' <<<"$output")" -eq 12 ]
	[ "$(grep -c '^  without interruption at a mean overlap of at most 1 h, [18]-node chains (%):$' <<<"$output")" -eq 6 ]
	# preemption: reactive and reactive-preempt for both sizes, and
	# what reactive-preempt's preemptions cost
	[[ "$output" == *"preemption: faithful-84 with 10% of the jobs urgent"* ]]
	# the handover table of each setting: every method, both sizes
	[ "$(grep -c '^  handing over in 10 minutes (mirage-eval --handover 10m):$' <<<"$output")" -eq 3 ]
	[ "$(grep -Ec '^  (reactive|planner|gbt) +[18] +[0-9.]+% +[0-9.]+ nh +[0-9.]+ h +([0-9.]+ h|never) +[0-9.]+ h / +[0-9.]+ nh$' <<<"$output")" -eq 18 ]
	# the bottom line: a sentence per setting and size, against afterany
	[[ "$output" == *"bottom line: which method to use, and what it brings over Slurm's afterany dependency"* ]]
	[ "$(grep -Ec '^  (reference-88|reference-76|faithful-84), [18]-node chains: use .*: [0-9.]+% run without interruption(,| at a mean overlap of at most 1 h, against [0-9.]+% with afterany$| no method does better within 1 h of mean overlap$)' <<<"$output")" -eq 6 ]
	# and handing over: the method, its lease, the fixed lead's, afterany's
	[ "$(grep -Ec "$TARGET_LINE" <<<"$output")" -eq 6 ]
	for s in reference-88 reference-76 faithful-84; do
		[ "$(tail -n +2 out/$s/target.tsv | wc -l)" -eq 36 ]
		[ "$(cut -f1 out/$s/target.tsv | grep -c '^planner$')" -eq 4 ]
	done
	[ "$(sed -n '/^preemption: faithful-84/,$p' <<<"$output" | grep -Ec '^  reactive(-preempt)? +[18] +[0-9.]+%')" -eq 4 ]
	[ "$(grep -c '^  reactive-preempt, [18]-node chains: its preemptions cost other jobs [0-9.]* node-hours' <<<"$output")" -eq 2 ]
	# inside the node: the heuristics and the learned dispatcher
	[[ "$output" == *"inside the node: DNN inference on 2 WS + 2 RS sub-accelerators"* ]]
	[ "$(sed -n '/^inside the node/,$p' <<<"$output" | grep -Ec '^  (fcfs|edf|llf|sjf|minlat|static|random|relmas) +[0-9.]+%')" -eq 8 ]
	cmp out/ls6-summary.txt <(printf '%s\n' "$output")
	# MIRAGE_REUSE=1 prints the same summary from the results, at once
	cp out/ls6-summary.txt first.txt
	run -0 --separate-stderr env B="$MIRAGE_BIN" MIRAGE_QUICK=1 MIRAGE_REUSE=1 "$ROOT/pipelines/reproduce-paper.sh" --all "$PWD/out"
	cmp first.txt <(printf '%s\n' "$output")
	[[ "$stderr" != *"mirage-features"* ]]
	grep -Eqx '[0-9]+' out/reproduce-seconds && [ ! -e out/demo-seconds ]
}
