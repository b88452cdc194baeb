#!/usr/bin/env bats
# 0110-parse-input.bats: where mirage-parse reads from, what wraps the
# text, and how it fails: exit codes, messages, nothing half-written.

setup() {
	load test_helper
	mg_setup
	cp "$BUSY/sacct_trace_P_X.txt" d.txt
	mirage-parse -q d.txt -o want.mrs
	mirage-cat want.mrs > want.tsv
}

same_as_plain() { # same_as_plain ARGS...: parse and compare with d.txt's
	mirage-parse -q "$@" | mirage-cat > got.tsv
	diff -u want.tsv got.tsv
}

@test "--help prints the usage on stdout and exits 0" {
	run -0 --separate-stderr mirage-parse --help
	[[ "$output" == "usage: mirage-parse "* ]]
	[ -z "$stderr" ]
}

@test "a bad option is a usage error (2) on stderr" {
	run -2 --separate-stderr mirage-parse --no-such-option
	[[ "$stderr" == *"usage: mirage-parse"* ]]
	[ -z "$output" ]
}

@test "bad option values are usage errors" {
	run -2 mirage-parse -F csv d.txt
	[[ "$output" == *"invalid format 'csv'"* ]]
	run -2 mirage-parse -d '||' d.txt
	run -2 mirage-parse -S yesterday d.txt
	[[ "$output" == *"invalid --since time 'yesterday'"* ]]
	run -2 mirage-parse --duplicates first d.txt
}

@test "file, stdin and - read the same" {
	same_as_plain d.txt
	mirage-parse -q < d.txt | mirage-cat > got.tsv
	diff -u want.tsv got.tsv
	mirage-parse -q - < d.txt | mirage-cat > got.tsv
	diff -u want.tsv got.tsv
}

@test "compressed and archived input: gzip xz zstd bzip2 lz4 tar zip" {
	gzip -k d.txt; xz -k d.txt; zstd -q d.txt; bzip2 -k d.txt; lz4 -q d.txt d.txt.lz4
	tar cf d.tar d.txt; tar czf d.tgz d.txt; zip -q d.zip d.txt
	for f in d.txt.gz d.txt.xz d.txt.zst d.txt.bz2 d.txt.lz4 d.tar d.tgz d.zip; do
		same_as_plain "$f" || { echo "failed: $f"; false; }
	done
	mirage-parse -q < d.txt.zst | mirage-cat > got.tsv
	diff -u want.tsv got.tsv
}

@test "an archive of several dumps: each member is parsed and named" {
	cp "$FIX/sample.swf" s.swf
	tar czf two.tgz d.txt s.swf
	# JobIDs of different clusters collide: keep all records
	run -0 --separate-stderr mirage-parse --duplicates keep two.tgz -o j.mrs
	[[ "$stderr" == *"'two.tgz:d.txt': sacct -P, gzip: 43 job records"* ]]
	[[ "$stderr" == *"'two.tgz:s.swf': SWF, gzip: 4 job records"* ]]
	[ "$(records j.mrs)" -eq 47 ]
}

@test "a truncated gzip is an error, and -o leaves no file" {
	gzip -c "$ROOT/tests/fixtures/ls6-head.txt" | head -c 700 > cut.gz
	run -1 --separate-stderr mirage-parse cut.gz -o j.mrs
	[[ "$stderr" == "mirage-parse: "*"'cut.gz': truncated gzip input"* ]]
	[ ! -e j.mrs ]
	head -c 200000 "$ROOT/data/ls6-a100.log.gz" > big-cut.gz
	run -1 --separate-stderr mirage-parse big-cut.gz -o j.mrs
	[[ "$stderr" == "mirage-parse: 'big-cut.gz': after line "*": truncated gzip input" ]]
	[ ! -e j.mrs ]
	[ -z "$(ls j.mrs.tmp.* 2>/dev/null)" ]
}

@test "a failed run does not touch an existing output file" {
	echo keep > j.mrs
	printf 'garbage\n' > bad.txt
	run -1 mirage-parse bad.txt -o j.mrs
	[ "$(cat j.mrs)" = keep ]
}

@test "on stdout, a failed run leaves a stream with no trailer, or nothing" {
	gzip -c d.txt | head -c 500 > cut.gz
	mirage-parse -q d.txt.gz cut.gz > out.mrs 2>/dev/null < /dev/null || true
	gzip -k d.txt
	# --duplicates keep writes as it reads: the stream is cut short
	run -5 --separate-stderr bash -c 'mirage-parse -q --duplicates keep d.txt.gz cut.gz | mirage-cat > /dev/null'
	[[ "$stderr" == *"mirage-cat: '<stdin>': stream cut short"* ]]
	# last wins (the default) writes when every input is read: nothing
	run -5 --separate-stderr bash -c 'mirage-parse -q d.txt.gz cut.gz | mirage-cat > /dev/null'
	[[ "$stderr" == *"mirage-cat: '<stdin>': empty input, not a stream"* ]]
}

@test "garbage bytes: layout not recognised, exit 1" {
	head -c 4096 /dev/urandom | tr -d '\n{;0-9' > junk.bin
	run -1 --separate-stderr mirage-parse junk.bin -o j.mrs
	[[ "$stderr" == "mirage-parse: 'junk.bin': "* ]]
	[ ! -e j.mrs ]
}

@test "concatenated sacct --json documents, or text after one, are an error" {
	cat "$BUSY/sacct_json.json" "$BUSY/sacct_json.json" > two.json
	run -1 --separate-stderr mirage-parse two.json -o out.jobs
	[[ "$stderr" == *"'two.json': JSON: text after the document near byte"* ]]
	[ ! -e out.jobs ]
	printf '{"jobs":[]} garbage' > g.json
	run -1 --separate-stderr mirage-parse g.json
	[[ "$stderr" == *"text after the document near byte 12"* ]]
	# trailing white space is fine
	printf '{"jobs":[]}\n\n' > w.json
	run -0 mirage-parse -q w.json -o w.jobs
}

@test "sacct --json is streamed: every element alone, the rest checked at the end" {
	mirage-parse -q "$BUSY/sacct_json.json" | mirage-cat > want.tsv
	# minified on one line, and the jobs key spelled with an escape (the
	# scanner does not see it: the document is read whole)
	python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))))' "$BUSY/sacct_json.json" > min.json
	mirage-parse -q min.json | mirage-cat | cmp - want.tsv
	sed 's/"jobs"/"jo\\u0062s"/' min.json > esc.json
	mirage-parse -q esc.json | mirage-cat | cmp - want.tsv
	# a broken element: named, with its byte (the third job's name)
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["jobs"][2]["name"] = "BROKEN"; open("bad.json", "w").write(json.dumps(d, indent=1).replace("\"BROKEN\"", "@"))' "$BUSY/sacct_json.json"
	at=$(python3 -c 'print(open("bad.json").read().index("@"))')
	run -1 --separate-stderr mirage-parse bad.json -o out.jobs
	[[ "$stderr" == *"'bad.json': JSON: "*" in jobs[2] near byte $at" ]]
	[ ! -e out.jobs ]
	# cut inside the jobs, and after them
	head -c 5000 "$BUSY/sacct_json.json" > cut.json
	run -1 --separate-stderr mirage-parse cut.json -o out.jobs
	[[ "$stderr" == *"'cut.json': JSON: element ends early in jobs["* ]]
	head -c $(( $(stat -c %s "$BUSY/sacct_json.json") - 1 )) "$BUSY/sacct_json.json" > cut2.json
	run -1 --separate-stderr mirage-parse cut2.json -o out.jobs
	[[ "$stderr" == *"'cut2.json': JSON: document ends early"* ]]
	[ ! -e out.jobs ]
}

@test "sacct --json of data_parser 0.0.40 and later: a state is a list of words, its base state first" {
	mirage-parse -q "$BUSY/sacct_json.json" | mirage-cat > want.tsv
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    j["state"]["current"] = [j["state"]["current"]] + (["REQUEUED"] if j["state"]["current"] == "PENDING" else [])
print(json.dumps(d))' "$BUSY/sacct_json.json" > list.json
	grep -q '"current": \["COMPLETED"\]' list.json
	mirage-parse -q list.json | mirage-cat | cmp - want.tsv
	[ "$(cut -f13 want.tsv | sort -u | grep -c .)" -ge 3 ]
}

@test "an empty file is an error" {
	: > empty.txt
	run -1 --separate-stderr mirage-parse empty.txt -o j.mrs
	[[ "$stderr" == *"'empty.txt': empty input"* ]]
}

@test "a header-only file is zero jobs, not an error" {
	head -1 d.txt > hdr.txt
	run -0 --separate-stderr mirage-parse hdr.txt -o j.mrs
	[ "$(records j.mrs)" -eq 0 ]
	[ "$(mirage-cat j.mrs | head -1 | cut -f1)" = jobid ]
}

@test "a missing file names the file" {
	run -1 --separate-stderr mirage-parse nosuch.txt -o j.mrs
	[[ "$stderr" == "mirage-parse: cannot open 'nosuch.txt': "* ]]
}

@test "bad rows are warned with file and line, counted, and skipped" {
	{ cat d.txt; echo '999|x|0|2026-13-01T00:00:00|Unknown|Unknown|1|1|0:0|1'; echo 'abc|y|0'; } > bad.txt
	run -0 --separate-stderr mirage-parse bad.txt -o j.mrs
	[[ "$stderr" == *"'bad.txt': line 45: bad Start '2026-13-01T00:00:00'; row skipped"* ]]
	[[ "$stderr" == *"'bad.txt': line 46: 3 fields, the header has 10; row skipped"* ]]
	[[ "$stderr" == *"2 bad rows skipped"* ]]
	[ "$(records j.mrs)" -eq 43 ]
	run -1 mirage-parse --strict bad.txt -o j2.mrs
	[ ! -e j2.mrs ]
}

@test "writing to /dev/full fails with a write error" {
	run -1 --separate-stderr bash -c 'mirage-parse -q d.txt > /dev/full'
	[[ "$stderr" == *"write error"* ]]
}

@test "-o onto a device or a FIFO writes in place, never replaces it" {
	run -0 mirage-parse -q d.txt -o /dev/null
	[ -c /dev/null ]
	run -1 --separate-stderr mirage-parse -q d.txt -o /dev/full
	[[ "$stderr" == *"write error"* ]]
	[ -c /dev/full ]
	[ -z "$(ls /dev | grep '\.tmp\.')" ]
	mkfifo f
	mirage-cat -H < f > got.tsv &
	mirage-parse -q d.txt -o f
	wait
	[ -p f ]
	diff -u <(tail -n +2 want.tsv) got.tsv
}

@test "refuses to write a binary stream to a terminal" {
	command -v script >/dev/null || skip "script(1) not installed"
	run script -qec "$MIRAGE_BIN/mirage-parse -q $PWD/d.txt" /dev/null
	[[ "$output" == *"refusing to write a binary stream to a terminal"* ]]
}

@test "same input, byte-identical output" {
	mirage-parse -q d.txt > a.mrs
	mirage-parse -q d.txt > b.mrs
	cmp a.mrs b.mrs
}

@test "output to head: SIGPIPE ends quietly" {
	run -0 --separate-stderr bash -c 'mirage-parse -q "$0" | head -c 10 > /dev/null' "$ROOT/data/ls6-a100.log.gz"
	[ -z "$stderr" ]
}

@test "a UTF-8 byte order mark before the header is not part of it" {
	{ printf '\357\273\277'; cat "$BUSY/sacct_trace_P_X.txt"; } > bom.txt
	mirage-parse -q bom.txt -o bom.jobs
	mirage-parse -q "$BUSY/sacct_trace_P_X.txt" -o plain.jobs
	[ "$(records bom.jobs)" -gt 10 ]
	cmp <(mirage-cat bom.jobs) <(mirage-cat plain.jobs)
}

@test "SIGTERM or SIGHUP while writing -o leaves neither the file nor its temporary" {
	local sig pid rc
	mkfifo in
	# (SIGINT too, but a background job of a script ignores it; SIGHUP
	# too unless the suite runs under nohup, whose ignoring a tool keeps)
	local sigs=TERM
	(( (0x$(awk '$1 == "SigIgn:" { print $2 }' /proc/self/status) & 1) == 0 )) && sigs="TERM HUP"
	for sig in $sigs; do
		# input that does not end: the tool is mid-way when the signal comes
		mirage-parse -q -o out.jobs in &
		pid=$!
		exec 7> in
		head -n 5 "$BUSY/sacct_trace_P_X.txt" >&7
		for i in $(seq 100); do ls out.jobs.tmp.* > /dev/null 2>&1 && break; sleep 0.1; done
		ls out.jobs.tmp.* > /dev/null
		kill -$sig $pid
		rc=0
		wait $pid || rc=$?
		exec 7>&-
		[ "$rc" -eq $((128 + $(kill -l $sig))) ]
		[ ! -e out.jobs ]
		[ -z "$(ls out.jobs.tmp.* 2> /dev/null)" ]
	done
}

@test "values no cluster has are bad rows, named: nodes -1 or 2^31, years 0000 and 9999, End before Start" {
	{
		echo 'JobID|State|Submit|Start|End|Timelimit|NNodes'
		echo '1|COMPLETED|2023-01-01T00:00:00|2023-01-01T00:00:00|2023-01-01T01:00:00|02:00:00|1'
		echo '2|COMPLETED|2023-01-01T00:00:00|2023-01-01T00:00:00|2023-01-01T01:00:00|02:00:00|-1'
		echo '3|COMPLETED|2023-01-01T00:00:00|2023-01-01T00:00:00|2023-01-01T01:00:00|02:00:00|2147483648'
		echo '4|COMPLETED|0000-01-01T00:00:00|2023-01-01T00:00:00|2023-01-01T01:00:00|02:00:00|1'
		echo '5|COMPLETED|2023-01-01T00:00:00|2023-01-01T00:00:00|9999-01-01T01:00:00|02:00:00|1'
		echo '6|COMPLETED|2023-01-01T00:00:00|2023-01-01T02:00:00|2023-01-01T01:00:00|02:00:00|1'
	} > odd.txt
	run -0 --separate-stderr mirage-parse odd.txt -o odd.jobs
	[ "$(records odd.jobs)" -eq 1 ]
	[[ "$stderr" == *"line 3: bad NNodes '-1'"* ]]
	[[ "$stderr" == *"line 4: bad NNodes '2147483648'"* ]]
	[[ "$stderr" == *"line 5: bad Submit '0000-01-01T00:00:00'"* ]]
	[[ "$stderr" == *"line 6: bad End '9999-01-01T01:00:00'"* ]]
	[[ "$stderr" == *"line 7: bad End (before Start) '2023-01-01T01:00:00'"* ]]
	[[ "$stderr" == *"5 bad rows skipped"* ]]
}

@test "fixed-width rows cut short: unknown, not empty; a dump of nothing but bad rows fails" {
	local F=$ROOT/tests/fixtures/slurm-22.05/03-final
	# three rows cut before State and the times (a pager's width)
	awk 'NR <= 2 || NR > 5 { print; next } { print substr($0, 1, 60) }' "$F/sacct_wide_fixed_X.txt" > cut.txt
	run -0 --separate-stderr mirage-parse cut.txt -o cut.jobs
	[[ "$stderr" == *"line 3: row cut short: it ends at byte 60, before column State (byte 88); row skipped"* ]]
	[[ "$stderr" == *"53 job records, 0 repaired rows, 3 bad rows skipped"* ]]
	# no job with its times emptied
	[ "$(mirage-cat cut.jobs | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["submit"] == "" { n++ } END { print n + 0 }')" -eq 0 ]
	# every row cut: nothing to trust, exit 1, no output
	awk 'NR <= 2 { print; next } { print substr($0, 1, 60) }' "$F/sacct_wide_fixed_X.txt" > all.txt
	run -1 --separate-stderr mirage-parse all.txt -o all.jobs
	[[ "$stderr" == *"mirage-parse: no job read: all 56 rows were bad"* ]]
	[ ! -e all.jobs ]
}

@test "a text field too long to be a job's is a bad row named by its line, not a usage error" {
	{
		printf 'JobID|JobName|Submit|Start|End|Timelimit|NNodes|State\n'
		printf '1|%s|2023-01-01T00:00:00|2023-01-01T00:00:00|2023-01-01T01:00:00|01:00:00|1|COMPLETED\n' "$(head -c 100000 /dev/zero | tr '\0' a)"
		printf '2|b|2023-01-01T00:00:00|2023-01-01T00:00:00|2023-01-01T01:00:00|01:00:00|1|COMPLETED\n'
	} > long.txt
	run -0 --separate-stderr mirage-parse long.txt -o long.jobs
	[[ "$stderr" == *"'long.txt': line 2: job 1: JobName of 100000 bytes (more than 65536): not a job's; row skipped"* ]]
	[ "$(records long.jobs)" -eq 1 ]
	# JSON has no lines: the job is named by its id
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["jobs"][2]["name"] = "x" * 70000; json.dump(d, open("long.json", "w"))' "$BUSY/sacct_json.json"
	id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["jobs"][2]["job_id"])' "$BUSY/sacct_json.json")
	run -0 --separate-stderr mirage-parse long.json -o long.jobs
	[[ "$stderr" == *"'long.json': job $id: JobName of 70000 bytes (more than 65536): not a job's; skipped"* ]]
}

@test "the last record of a JobID wins, in the first one's place, whatever the order of the JobIDs" {
	# plain JobIDs in order, out of order, array tasks; some thrice
	awk 'BEGIN {
		print "JobID|User|Submit|Start|End|Timelimit|NNodes|State"
		split("COMPLETED FAILED TIMEOUT CANCELLED", st, " ")
		srand(7)
		for (i = 0; i < 2000; i++) {
			r = rand()
			if (r < 0.6) id = 1000 + i
			else if (r < 0.75) id = (500 + int(rand() * 2000)) "_" int(rand() * 10)
			else if (r < 0.9) id = 1 + int(rand() * 4000)
			else id = ids[1 + int(rand() * n)]
			ids[++n] = id
			printf "%s|u%d|2026-01-01T00:%02d:00|2026-01-01T01:00:00|2026-01-01T02:00:00|02:00:00|%d|%s\n", id, i % 7, i % 60, 1 + i % 4, st[1 + int(rand() * 4)]
		}
	}' > d3.txt
	# what the rule says, by awk: each JobID once, where it came first,
	# with its last record's state
	awk -F'|' 'NR > 1 { if (!($1 in last)) order[++n] = $1; last[$1] = $8 }
		END { for (i = 1; i <= n; i++) print order[i] "\t" last[order[i]] }' d3.txt > want.tsv
	run -0 --separate-stderr mirage-parse d3.txt -o j.mrs
	[[ "$stderr" == *" records of jobs seen before replaced the earlier ones"* ]]
	mirage-cat j.mrs | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $1 "\t" $c["state"] }' > got.tsv
	[ "$(wc -l < want.tsv)" -lt 2000 ]
	diff want.tsv got.tsv
	# from a pipe, and without a temporary directory (in memory): the same
	mirage-parse -q < d3.txt > p.mrs
	cmp <(mirage-cat j.mrs) <(mirage-cat p.mrs)
	run -0 --separate-stderr env TMPDIR="$BATS_TEST_TMPDIR/none" mirage-parse d3.txt -o m.mrs
	[[ "$stderr" == *"cannot make a temporary file in '$BATS_TEST_TMPDIR/none'; the jobs stay in memory"* ]]
	cmp <(mirage-cat j.mrs) <(mirage-cat m.mrs)
}
