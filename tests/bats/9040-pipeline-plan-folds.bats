#!/usr/bin/env bats
# 9040-pipeline-plan-folds.bats: pipelines/plan-folds.sh chooses the
# planner's price of overlap on time-blocked folds of a period.

setup() {
	load test_helper
	mg_setup
	export B=$MIRAGE_BIN
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
}

@test "plan-folds: a choice per block and size from the planner's curve, and their median" {
	run -0 --separate-stderr "$ROOT/pipelines/plan-folds.sh" -f 2023-01-05 -N 4 -e 1d -F 2 -K 2 -- -m reference -n 76 ls6.jobs
	[[ "$stderr" == *"plan-folds: block 1/2: 2 episodes from 2023-01-05T00:00:00"* ]]
	[[ "$stderr" == *"plan-folds: block 2/2: 2 episodes from 2023-01-07T00:00:00"* ]]
	[ "$(head -n 1 <<<"$output")" = "$(printf 'block\tnodes\tlambda')" ]
	# two blocks x two sizes, then a median per size, each a price of
	# the curve (mirage-eval(1): 0.02 to 15)
	[ "$(grep -c '^[12]	[18]	' <<<"$output")" -eq 4 ]
	[ "$(grep -c '^median	[18]	' <<<"$output")" -eq 2 ]
	awk -F'\t' 'NR > 1 { if (!($3 >= 0.02 && $3 <= 15)) exit 1 }' <<<"$output"
	# the median is one of its size's block choices
	for n in 1 8; do
		m=$(awk -F'\t' -v n=$n '$1 == "median" && $2 == n { print $3 }' <<<"$output")
		awk -F'\t' -v n=$n -v m="$m" '$1 != "median" && $2 == n && $3 == m { f = 1 } END { exit !f }' <<<"$output"
	done
}

@test "plan-folds: handing over, the price of an hour of lease, chosen on the lease given up" {
	run -0 --separate-stderr "$ROOT/pipelines/plan-folds.sh" -T 0.99 -f 2023-01-05 -N 4 -e 1d -F 2 -K 2 -- -m reference -n 76 --handover 10m ls6.jobs
	[ "$(grep -c '^[12]	[18]	' <<<"$output")" -eq 4 ]
	[ "$(grep -c '^median	[18]	' <<<"$output")" -eq 2 ]
	# the handover's prices (mirage-eval(1): 1 to 0.001 an hour of lease)
	awk -F'\t' 'NR > 1 { if (!($3 >= 0.001 && $3 <= 1)) exit 1 }' <<<"$output"
}

@test "plan-folds: bad options are usage errors" {
	run -2 "$ROOT/pipelines/plan-folds.sh" -F 0 -- ls6.jobs
	[[ "$output" == *"Usage: plan-folds.sh"* ]]
	run -2 "$ROOT/pipelines/plan-folds.sh" -N 2 -F 3 ls6.jobs
	run -0 "$ROOT/pipelines/plan-folds.sh" -h
	[[ "$output" == *"Usage: plan-folds.sh"* ]]
}
