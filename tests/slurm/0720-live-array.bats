#!/usr/bin/env bats
# 0720-live-array.bats: the episode work as a Slurm job array on the
# loopback cluster (pipelines/features-array.sbatch): the shards the
# array tasks write concatenate into the samples one process computes.
# Run by tests/slurm/run-live.sh.

setup() {
	load ../bats/test_helper
	mg_setup
	: "${MIRAGE_TAG:?run through tests/slurm/run-live.sh}"
	T=${MIRAGE_TAG}_array
}

teardown() {
	scancel -n "$T" 2>/dev/null || true
}

@test "live: a 3-task array computes the samples in shards that merge into the whole" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o "$PWD/ls6.jobs"
	opts=(-f 2023-01-01 -N 6 -k 1 -w 2)
	id=$(sbatch --parsable -J "$T" -p batch -t 10 -D "$PWD" -o "$PWD/task-%a.log" \
	    --array=0-2 --export=ALL,MIRAGE_BIN="$MIRAGE_BIN" \
	    "$ROOT/pipelines/features-array.sbatch" "$PWD/ls6.jobs" "$PWD/shards" "${opts[@]}")
	for _ in $(seq 1 120); do
		[ -z "$(squeue -h -j "$id" -o %i)" ] && break
		sleep 1
	done
	[ "$(sacct -n -X -P -j "$id" -o State | sort -u)" = COMPLETED ]
	ls shards
	[ "$(ls shards | wc -l)" -eq 3 ]
	cat shards/shard-*.mrs > merged.mrs
	mirage-features -q "${opts[@]}" -o whole.mrs ls6.jobs
	diff <(mirage-cat whole.mrs | sort) <(mirage-cat merged.mrs | sort)
}
