#!/usr/bin/env bats
# 9010-pipeline-fidelity.bats: pipelines/fidelity.sh on the bundled trace.

setup() {
	load test_helper
	mg_setup
}

@test "fidelity.sh: one row per model and group; the reference row is the original's" {
	run -0 --separate-stderr env B="$MIRAGE_BIN" "$ROOT/pipelines/fidelity.sh"
	[ "${#lines[@]}" -eq 21 ]
	[[ "${lines[0]}" == $'model\tgroup\tjobs\t'* ]]
	[[ "${lines[1]}" == $'reference, 88 nodes (the original)\tall\t24777\t4.065\t0.435\t4.102\t'* ]]
	# the per-user limit lowers the error of the 84-node model
	mae() { printf '%s\n' "${lines[@]}" | awk -F'\t' -v m="$1" '$1 == m && $2 == "all" { print $6 }'; }
	a=$(mae "faithful, 84 nodes (LS6's A100 nodes)")
	b=$(mae "+ MaxJobsPerUser=8 (no user ever ran 9)")
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(b < a) }'
}

@test "inferred dependencies are counted and change the replay" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr mirage-eval --replay -m faithful -n 84 -s DependencyFromTrace=120 -o a.tsv ls6.jobs
	[[ "$stderr" =~ ,\ ([0-9]+)\ dependencies\ inferred ]]
	[ "${BASH_REMATCH[1]}" -gt 1000 ]
	mirage-eval --replay -q -m faithful -n 84 -o b.tsv ls6.jobs
	! cmp -s a.tsv b.tsv
}
