#!/usr/bin/env bash
# run-fuzzers.sh [SECONDS [NAME...]]: build each tests/fuzz/fuzz_*.c (or
# the NAMEs given: parse, stream, model, chain, simconf) with clang's
# libFuzzer, AddressSanitizer and UBSan, and fuzz it for SECONDS (default
# 60) from a copy of its checked-in corpus.  Prints the executions and
# the crashes found; crashing inputs are kept in tests/fuzz/artifacts/.
# Add an input that found a bug to tests/fuzz/corpus/NAME/ once fixed,
# so that `make check` replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
shift || true
targets=${*:-}
out=build/fuzz
mkdir -p "$out" tests/fuzz/artifacts
CFLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
CPP="-Icommon -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(pkg-config --cflags openblas)"
LIBS="$(pkg-config --libs libarchive zlib json-c yaml-0.1 xgboost openblas) -lsvm -lm -pthread"
status=0
for src in tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	name=${name#fuzz_}
	if [ -n "$targets" ] && ! [[ " $targets " == *" $name "* ]]; then
		continue
	fi
	# shellcheck disable=SC2086
	clang $CFLAGS $CPP "$src" common/*/*.c $LIBS -o "$out/fuzz_$name"
	work="$out/corpus-$name"
	rm -rf "$work"
	cp -r "tests/fuzz/corpus/$name" "$work"
	log="$out/fuzz_$name.log"
	set +e
	"$out/fuzz_$name" -max_total_time="$secs" -print_final_stats=1 \
	    -artifact_prefix="tests/fuzz/artifacts/$name-" -max_len=65536 \
	    -timeout=10 -rss_limit_mb=2048 "$work" >"$log" 2>&1
	rc=$?
	set -e
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	crashes=$(ls tests/fuzz/artifacts/ 2>/dev/null | grep -c "^$name-" || true)
	echo "fuzz_$name: ${secs}s, ${execs:-?} executions, exit $rc, $crashes crash files, corpus $(ls "$work" | wc -l) inputs"
	[ "$rc" -eq 0 ] || { status=1; tail -30 "$log"; }
done
exit $status
