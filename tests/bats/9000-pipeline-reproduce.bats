#!/usr/bin/env bats
# 9000-pipeline-reproduce.bats: the README's main job on the bundled data.
# The expected figures are the trace statistics computed independently
# from the raw file in the Mirage specification (section 2.3).

setup() {
	load test_helper
	mg_setup
}

@test "reproduce-paper.sh parses the LS6 trace and prints its summary" {
	run -0 --separate-stderr env B="$MIRAGE_BIN" "$ROOT/pipelines/reproduce-paper.sh" "$PWD/out"
	[[ "$output" == *"jobs                24777"* ]]
	[[ "$output" == *"users               367"* ]]
	[[ "$output" == *"wait (start-submit) mean 4.07 h; p25 0.00 p50 0.007 p75 1.32 p90 11.9 p99 48.0 max 932.8 h"* ]]
	[[ "$output" == *"<=1h: 6594 <=6h: 6595 <=24h: 4778 <=48h: 6808 >48h: 2"* ]]
	[ "$(records out/ls6.jobs)" -eq 24777 ]
	# the original simulator's figures on this trace (mirage-spec)
	[[ "$output" == *"reference, 88 nodes (the original)"*"4.10 h"*"0.21"* ]]
	# the paper's episodes: 684 + 156, two chain sizes, 7 probes
	[ "$(records out/train.mrs)" -eq $((684 * 2 * 7)) ]
	[ "$(records out/valid.mrs)" -eq $((156 * 2 * 7)) ]
	# the original simulator at 76 nodes, 1-node chains, reactive: 53%
	# of the chains without interruption, 2.56 h mean (issue 5's figures)
	[[ "$output" == *"reference, 76 nodes (loaded)"*"1"*"53.2%"*"2.56 h"* ]]
	cmp out/ls6-summary.txt <(printf '%s\n' "$output")
}
