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
