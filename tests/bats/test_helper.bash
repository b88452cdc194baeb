# test_helper.bash: shared set-up for the bats suites.  MIRAGE_BIN is the
# build directory under test (tests/run.sh sets it); commands run in a
# fresh temporary directory with the C locale.

mg_setup() {
	bats_require_minimum_version 1.5.0
	load '/usr/lib/bats/bats-support/load'
	load '/usr/lib/bats/bats-assert/load'
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	: "${MIRAGE_BIN:=$ROOT/build/default}"
	PATH="$MIRAGE_BIN:$PATH"
	FIX=$ROOT/tests/fixtures
	BUSY=$FIX/slurm-22.05/01-busy
	FINAL=$FIX/slurm-22.05/03-final
	export LC_ALL=C TZ=UTC
	# a take-over's own record without a chain's state: per test
	export XDG_RUNTIME_DIR=$BATS_TEST_TMPDIR
	cd "$BATS_TEST_TMPDIR" || return 1
}

# records FILE: the number of records in a stream
records() {
	mirage-cat "$1" | tail -n +2 | wc -l
}

# field STREAM JOBID FIELD: one field of one job, as mirage-cat prints it
field() {
	mirage-cat "$1" | awk -F'\t' -v id="$2" -v f="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == id { print $col[f]; found = 1 }
		END { exit !found }'
}

# mg_gbt N: a gbt model of N LS6 training episodes into $M, made once per
# file (BATS_FILE_TMPDIR also gets ls6.jobs and tr.mrs)
mg_gbt() {
	M=$BATS_FILE_TMPDIR/gbt.mrm
	[ -e "$M" ] && return 0
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o "$BATS_FILE_TMPDIR/ls6.jobs"
	mirage-features -q -f 2022-12-01 -N "$1" -k 1 -w 2 \
	    -o "$BATS_FILE_TMPDIR/tr.mrs" "$BATS_FILE_TMPDIR/ls6.jobs"
	mirage-train -q -a gbt -o "$M" "$BATS_FILE_TMPDIR/tr.mrs"
}

# On a live Slurm: until_state JOBID WANT SECONDS waits until squeue shows
# the job in state WANT (R, PD, ...); gone JOBID SECONDS until it has left
# the running state.  Both fail when the time is up.
until_state() {
	local i
	for i in $(seq 1 "$3"); do
		[ "$(squeue -h -j "$1" -o %t 2>/dev/null)" = "$2" ] && return 0
		sleep 1
	done
	return 1
}
gone() {
	local i s
	for i in $(seq 1 "$2"); do
		s=$(squeue -h -j "$1" -o %t 2>/dev/null)
		[ -z "$s" ] || [ "$s" = CD ] || [ "$s" = CA ] || [ "$s" = F ] && return 0
		sleep 1
	done
	return 1
}

# serving DIR JOBID SECONDS: within SECONDS, DIR/endpoint (a service's,
# of pipelines/handover-serving.sbatch) lists JOBID's address; if not,
# what the job, its batch script and its server said
serving() {
	local i
	for i in $(seq 1 "$3"); do
		grep -q " $2\$" "$1/endpoint" 2>/dev/null && return 0
		sleep 1
	done
	echo "# job $2's address not in $1/endpoint within $3 s" >&2
	scontrol -o show job "$2" 2>&1 | tr ' ' '\n' | grep -E '^(JobState|Reason|NodeList|StartTime)=' | sed 's/^/#   /' >&2
	for f in "$1/endpoint" "$1/server.$2.log" "$(dirname "$1")/job-$2.out" "$1/job-$2.out"; do
		[ -f "$f" ] && sed "s|^|#   $(basename "$f"): |" "$f" >&2
	done
	return 1
}

# mg_fake_slurm: the fake Slurm of tests/fixtures/advise in $FAKE ($A its
# programs): job ids from 900, a queue with P = 500 (one node, running
# since midnight with a 2-day limit) and 501 (4 nodes), and job.sh, the
# chain's batch script
mg_fake_slurm() {
	A=$FIX/advise
	export FAKE=$PWD/fake
	mkdir -p "$FAKE"
	echo 900 > "$FAKE/next"
	: > "$FAKE/comments"
	cat > "$FAKE/queue.txt" <<-'Q'
	JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|PRIORITY
	500|gpu|R|2026-11-21T23:00:00|2026-11-22T00:00:00|2-00:00:00|1|1000
	501|gpu|R|2026-11-23T01:00:00|2026-11-23T02:00:00|2-00:00:00|4|1000
	Q
	cp "$A/chain.sh" job.sh
}
