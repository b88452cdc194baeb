#!/usr/bin/env bats
# 0010-stream-cat.bats: the record stream seen through mirage-cat: TSV,
# JSON lines, header info, statistics, concatenation, and every way a
# stream can be broken, each with its own exit status.

setup() {
	load test_helper
	mg_setup
	S=$FIX/streams
	mirage-parse -q "$BUSY/sacct_wide_P_X.txt" -o j.mrs
}

@test "TSV: a header line, then one line per record" {
	run -0 mirage-cat j.mrs
	[ "${lines[0]}" = "$(printf 'jobid\tid\tarray_job\tarray_task\thet_job\thet_offset\tname\tuser\tuid\taccount\tpartition\tqos\tstate\tsubmit\teligible\tstart\tend\ttimelimit\tnnodes\tncpus\tngpus\texit_code\texit_signal\tpriority')" ]
	[ "$(mirage-cat j.mrs | tail -n +2 | wc -l)" -eq 43 ]
	[ "$(mirage-cat j.mrs | awk -F'\t' '{ print NF }' | sort -u)" = 24 ]
}

@test "-H drops the header line; -T prints times as ISO 8601" {
	[ "$(mirage-cat -H j.mrs | wc -l)" -eq 43 ]
	[ "$(mirage-cat -HT j.mrs | head -1 | cut -f14)" = 2026-11-22T05:31:35 ]
}

@test "JSON lines: one object per record, null for missing" {
	run -0 mirage-cat -j j.mrs
	[ "${#lines[@]}" -eq 43 ]
	[[ "${lines[0]}" == '{"jobid":"1","id":1,"array_job":null,'* ]]
	[[ "$output" == *'"name":"name with spaces, comma"'* ]]
}

@test "JSON escapes quotes, backslashes and control characters" {
	printf 'JobID|Submit|JobName\n1|2026-01-01T00:00:00|a"b\\\\c\001d\n' > q.txt
	mirage-parse -q q.txt -o q.mrs
	run -0 mirage-cat -j q.mrs
	[[ "$output" == *'"name":"a\"b\\\\c\u0001d"'* ]]
}

@test "TSV escapes tabs and backslashes in strings" {
	printf 'JobID|Submit|JobName\n1|2026-01-01T00:00:00|a\tb\\\\c\n' > t.txt
	mirage-parse -q t.txt -o t.mrs
	[ "$(mirage-cat -H t.mrs | cut -f7)" = 'a\tb\\\\c' ]
}

@test "-i shows the header: type, version, producer, arguments, schema" {
	run -0 mirage-cat -i j.mrs
	[[ "$output" == *$'record_type\tjobs'* ]]
	[[ "$output" == *$'version\t1.1'* ]]
	[[ "$output" == *$'tz\tUTC'* ]]
	[[ "$output" == *$'producer\tmirage-parse 0.1.0'* ]]
	[[ "$output" == *$'args\t-q '*'sacct_wide_P_X.txt -o j.mrs'* ]]
	[[ "$output" == *$'field\tsubmit\ti64'* ]]
	# a 1.0 stream (no zone) still reads
	run -0 mirage-cat -i "$ROOT/tests/fixtures/streams/jobs.mrs"
	[[ "$output" == *$'version\t1.0'* ]]
	[[ "$output" == *$'tz\t-'* ]]
}

@test "-s summarises each field" {
	run -0 mirage-cat -s j.mrs
	[[ "$output" == *$'nnodes\ti64\t43\t0\t1\t'*$'\t6'* ]]
}

@test "concatenated streams read as one, from stdin or as operands" {
	cat j.mrs j.mrs > two.mrs
	[ "$(mirage-cat two.mrs | tail -n +2 | wc -l)" -eq 86 ]
	[ "$(cat j.mrs j.mrs | mirage-cat | tail -n +2 | wc -l)" -eq 86 ]
	[ "$(mirage-cat j.mrs - < j.mrs | tail -n +2 | wc -l)" -eq 86 ]
}

@test "a truncated stream: exit 5, naming the file" {
	size=$(stat -c %s j.mrs)
	for cut in 3 30 100 $((size - 1)); do
		head -c $cut j.mrs > cut.mrs
		run -5 --separate-stderr mirage-cat cut.mrs
		[[ "$stderr" == "mirage-cat: 'cut.mrs': "* ]]
	done
}

@test "a flipped byte: checksum error, exit 4, naming the block" {
	cp j.mrs bad.mrs
	size=$(stat -c %s bad.mrs)
	printf '\377' | dd of=bad.mrs bs=1 seek=$((size - 40)) conv=notrunc status=none
	run -4 --separate-stderr mirage-cat bad.mrs
	[[ "$stderr" == "mirage-cat: 'bad.mrs': block 1: CRC32 mismatch" ]]
}

@test "text instead of a stream: exit 4, bad magic" {
	run -4 --separate-stderr mirage-cat "$BUSY/sacct_trace_P_X.txt"
	[[ "$stderr" == *"not a mirage stream (bad magic)"* ]]
	gzip -c j.mrs > j.mrs.gz
	run -4 --separate-stderr mirage-cat j.mrs.gz
	[[ "$stderr" == *"gzip data: decompress it first"* ]]
}

@test "a newer major version: exit 3" {
	run -3 --separate-stderr mirage-cat "$S/jobs-v2.mrs"
	[[ "$stderr" == *"stream version 2.0 is not supported"* ]]
}

@test "the wrong record type: exit 6" {
	run -6 --separate-stderr mirage-cat -t samples j.mrs
	[[ "$stderr" == *"stream holds 'jobs' records, not 'samples'"* ]]
}

@test "an empty input: exit 5" {
	run -5 --separate-stderr mirage-cat < /dev/null
	[[ "$stderr" == *"empty input, not a stream"* ]]
}

@test "an upstream that dies mid-stream is detected downstream" {
	run -5 --separate-stderr bash -c 'head -c 300 j.mrs | mirage-cat > /dev/null'
	[[ "$stderr" == *"truncated"* || "$stderr" == *"cut short"* || "$stderr" == *"ends inside"* ]]
}

@test "mirage-cat to /dev/full fails" {
	run -1 --separate-stderr bash -c 'mirage-cat "$0" > /dev/full' "$ROOT/tests/fixtures/streams/jobs.mrs"
	[[ "$stderr" == *"write error"* ]]
}

@test "--help and bad options" {
	run -0 mirage-cat --help
	[[ "$output" == "usage: mirage-cat "* ]]
	run -2 mirage-cat -Z
}

@test "-c: rank correlations with one field, strongest first" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 mirage-cat -c start ls6.jobs
	[ "${lines[0]}" = "$(printf 'field\tpairs\tspearman_with_start')" ]
	# end and submit follow start closely; ranks are exact
	[[ "${lines[1]}" == "end	24777	0.99"* || "${lines[1]}" == "submit	24777	0.99"* ]]
	# a constant field has no correlation (empty), listed last
	[ "$(mirage-cat -c start ls6.jobs | tail -1 | cut -f3)" = "" ]
	run -2 --separate-stderr mirage-cat -c name ls6.jobs
	[[ "$stderr" == *"no numeric field 'name'"* ]]
	run -2 mirage-cat -c nosuch ls6.jobs
}

@test "mirage-cat -j: every line valid JSON, whatever bytes a name holds (not UTF-8: U+FFFD)" {
	printf 'JobID|JobName|Submit|Start|End|Timelimit|NNodes|State\n%s\n%s\n' \
	    $'1|a\xff\xfeb|2023-01-01T00:00:00|2023-01-01T00:00:00|2023-01-01T01:00:00|01:00:00|1|COMPLETED' \
	    $'2|caf\xc3\xa9 \xed\xa0\x80 \xf0\x9f\x9a\x80|2023-01-01T00:00:00|2023-01-01T00:00:00|2023-01-01T01:00:00|01:00:00|1|COMPLETED' > u.txt
	mirage-parse -q u.txt -o u.jobs
	mirage-cat -j u.jobs > u.json
	python3 - u.json <<-'PY'
	import json, sys
	names = [json.loads(l)["name"] for l in open(sys.argv[1], encoding="utf-8")]
	# invalid bytes and a surrogate's encoding are replaced; real
	# characters (two and four bytes) pass
	assert names == ["a\ufffd\ufffdb", "caf\u00e9 \ufffd\ufffd\ufffd \U0001F680"], names
	PY
}
