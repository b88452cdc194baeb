#!/usr/bin/env bats
# 0100-parse-layouts.bats: mirage-parse reads every layout real sacct
# prints (samples from Slurm 22.05 on loopback), the LS6 trace and SWF.

setup() {
	load test_helper
	mg_setup
}

@test "sacct -P: 43 jobs, fields from the header" {
	run -0 --separate-stderr mirage-parse "$BUSY/sacct_wide_P_X.txt" -o j.mrs
	[ "$(records j.mrs)" -eq 43 ]
	[ "$(field j.mrs 1 name)" = fill_all ]
	[ "$(field j.mrs 1 nnodes)" = 6 ]
	[ "$(field j.mrs 1 state)" = RUNNING ]
	[ "$(field j.mrs 1 end)" = "" ]
	[ "$(field j.mrs 1 timelimit)" = 120 ]
	[ "$(field j.mrs 33 ngpus)" = 2 ]
	[ "$(field j.mrs 33 partition)" = gpu ]
}

@test "sacct -P, --parsable2 and --parsable give the same jobs" {
	mirage-parse -q "$BUSY/sacct_trace_P_X.txt" | mirage-cat -H > a
	mirage-parse -q "$BUSY/sacct_trace_parsable2_X.txt" | mirage-cat -H > b
	mirage-parse -q "$BUSY/sacct_trace_parsable_X.txt" | mirage-cat -H > c
	[ "$(wc -l < a)" -eq 43 ]
	diff -u a b
	diff -u a c
}

@test "--parsable's trailing delimiter is recognised" {
	run -0 --separate-stderr mirage-parse "$BUSY/sacct_trace_parsable_X.txt" -o j.mrs
	[[ "$stderr" == *"sacct --parsable"* ]]
}

@test "fixed width equals -P where no value is cut" {
	mirage-parse -q "$BUSY/sacct_trace_P_X.txt" | mirage-cat -H | cut -f1-6,9,14- > p
	mirage-parse -q "$BUSY/sacct_trace_fixed_X.txt" | mirage-cat -H | cut -f1-6,9,14- > f
	[ "$(wc -l < f)" -eq 43 ]
	# names longer than 10 characters are cut with '+' in fixed width
	diff <(cut -f1 p) <(cut -f1 f)
	diff <(cut -f3- p) <(cut -f3- f)
}

@test "fixed width: Partition+ (cut Partition_Limit) is a missing limit" {
	mirage-parse -q "$BUSY/sacct_trace_fixed_X.txt" -o j.mrs
	[ "$(field j.mrs 36 timelimit)" = "" ]
}

@test "any field order: columns are found from the header" {
	awk -F'|' -v OFS='|' '{ t = $1; $1 = $5; $5 = t; print }' \
	    "$BUSY/sacct_trace_P_X.txt" | grep -v pipes > shuffled.txt
	grep -v pipes "$BUSY/sacct_trace_P_X.txt" > plain.txt
	mirage-parse -q plain.txt | mirage-cat > a
	mirage-parse -q shuffled.txt | mirage-cat > b
	[ "$(wc -l < a)" -eq 43 ]
	diff -u a b
}

@test "--delimiter=, with a header" {
	run -0 --separate-stderr mirage-parse -d , "$BUSY/sacct_delimiter_comma.txt" -o j.mrs
	[ "$(records j.mrs)" -eq 43 ]
	[ "$(field j.mrs 44 name)" = "name with spaces, comma" ]
}

@test "sacct -n: no header, field list given" {
	fields=JobID,JobIDRaw,JobName,User,UID,Account,Partition,QOS,State,ExitCode,DerivedExitCode,Submit,Eligible,Start,End,Elapsed,ElapsedRaw,Timelimit,TimelimitRaw,NNodes,NCPUS,AllocTRES,ReqTRES,NodeList,Reason,Priority,Flags
	mirage-parse -q -k "$fields" "$BUSY/sacct_wide_P_X_noheader.txt" | mirage-cat > a
	mirage-parse -q "$BUSY/sacct_wide_P_X.txt" | mirage-cat > b
	diff -u a b
}

@test "sacct -n without --fields is an error that says what to do" {
	run -1 --separate-stderr mirage-parse "$BUSY/sacct_wide_P_X_noheader.txt" -o j.mrs
	[[ "$stderr" == *"no JobID column"*"--fields"* ]]
	[ ! -e j.mrs ]
}

@test "sacct --json: same jobs and times as -P" {
	mirage-parse -q "$FINAL/sacct_json.json" -o j.mrs
	mirage-parse -q "$FINAL/sacct_wide_P_X.txt" -o p.mrs
	[ "$(records j.mrs)" -eq 56 ]
	for id in 1 28_6 30+1 33 36; do
		for f in submit start end timelimit nnodes state; do
			[ "$(field j.mrs $id $f)" = "$(field p.mrs $id $f)" ] ||
			    { echo "$id $f: $(field j.mrs $id $f) vs $(field p.mrs $id $f)"; false; }
		done
	done
	# every job's size in CPUs and nodes: allocated, as -P prints them
	# (not the JSON's requested CPUs)
	local f
	for f in ncpus nnodes state; do
		cmp <(mirage-cat j.mrs | cols jobid $f | sort) <(mirage-cat p.mrs | cols jobid $f | sort)
	done
	# a job past its deadline: -P's 1:0, not the JSON's claimed success
	[ "$(field j.mrs 41 state)" = DEADLINE ]
	[ "$(field j.mrs 41 exit_code)" = 1 ] && [ "$(field p.mrs 41 exit_code)" = 1 ]
}

@test "sacct --yaml and squeue --yaml: the same jobs as --json, read with libyaml" {
	local w
	for w in sacct squeue; do
		run -0 --separate-stderr mirage-parse "$BUSY/${w}_yaml.yaml" -o y.mrs
		[[ "$stderr" == *"$w --yaml: "* ]]
		mirage-parse -q "$BUSY/${w}_json.json" -o j.mrs
		[ "$(records y.mrs)" -ge 40 ]
		cmp <(mirage-cat y.mrs) <(mirage-cat j.mrs)
	done
	# -F yaml skips the detection (a document without its %YAML line)
	sed 1d "$BUSY/sacct_yaml.yaml" | sed 's/^--- //' > bare.yaml
	mirage-parse -q -F yaml bare.yaml -o b.mrs
	cmp <(mirage-cat b.mrs) <(mirage-parse -q "$BUSY/sacct_json.json" | mirage-cat)
	run -1 --separate-stderr mirage-parse -q bare.yaml -o n.mrs
	[[ "$stderr" == *"layout not recognised"*"--yaml"* ]]
}

@test "bad YAML: the line and column, no output" {
	# a broken indentation inside the jobs
	awk 'NR == 40 { print "   !!str oops: [" } { print }' "$BUSY/sacct_yaml.yaml" > bad.yaml
	run -1 --separate-stderr mirage-parse bad.yaml -o out.mrs
	[[ "$stderr" == *"mirage-parse: 'bad.yaml': YAML: "*" at line 4"[0-9]", column "* ]]
	[ ! -e out.mrs ]
	# two documents
	{ cat "$BUSY/sacct_yaml.yaml"; echo "--- !!map"; echo "jobs: []"; } > two.yaml
	run -1 --separate-stderr mirage-parse two.yaml -o out.mrs
	[[ "$stderr" == *"a second document"* ]]
	[ ! -e out.mrs ]
	# an !!int that is not one; a document without jobs
	sed 's/!!int 1795325495/!!int 17953x5495/' "$BUSY/sacct_yaml.yaml" > notint.yaml
	run -1 --separate-stderr mirage-parse notint.yaml -o out.mrs
	[[ "$stderr" == *"not of its tag's type at line "* ]]
	printf '%%YAML 1.1\n---\nerrors: []\n' > nojobs.yaml
	run -1 --separate-stderr mirage-parse nojobs.yaml -o out.mrs
	[[ "$stderr" == *'YAML without a "jobs" array'* ]]
	[ ! -e out.mrs ]
}

# cols A B: two columns of a TSV by name
cols() {
	awk -F'\t' -v a="$1" -v b="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[a] "\t" $c[b] }'
}

@test "job steps are skipped and counted, not jobs" {
	run -0 --separate-stderr mirage-parse "$BUSY/sacct_wide_P.txt" -o j.mrs
	[[ "$stderr" == *"43 job records"*"10 step rows skipped"* ]]
	[ "$(records j.mrs)" -eq 43 ]
}

@test "a sacct dump without Submit (sacct's default and -l layouts) is refused, saying which fields to give" {
	for f in sacct_default.txt sacct_default_X.txt sacct_long.txt; do
		run -1 --separate-stderr mirage-parse "$BUSY/$f" -o j.mrs
		[[ "$stderr" == *"line 1: no Submit column: give sacct the fields mirage reads, e.g. sacct -a -X -P -o JobID,JobIDRaw,Partition,State,Submit,Start,End,Timelimit,NNodes,User"* ]]
		[ ! -e j.mrs ]
	done
	printf 'JobID|Start|End\n1|2026-01-01T00:00:00|2026-01-01T01:00:00\n' > p.txt
	run -1 --separate-stderr mirage-parse p.txt -o j.mrs
	[[ "$stderr" == *"no Submit column"* ]]
	# squeue's default layout shows none either, and is read: mirage-advise
	# says what it lacks
	mirage-parse -q "$BUSY/squeue_default.txt" -o q.mrs
}

@test "array tasks, pending array remainders and het components" {
	mirage-parse -q "$FINAL/sacct_wide_P_X.txt" -o j.mrs
	[ "$(field j.mrs 28_6 array_job)" = 28 ]
	[ "$(field j.mrs 28_6 array_task)" = 6 ]
	[ "$(field j.mrs 28_6 id)" = 28 ]
	[ "$(field j.mrs 30+1 het_job)" = 30 ]
	[ "$(field j.mrs 30+1 het_offset)" = 1 ]
	mirage-parse -q "$BUSY/sacct_wide_P_X.txt" -o b.mrs
	[ "$(field b.mrs '28_[1-6%2]' array_task)" = "" ]
	[ "$(field b.mrs '28_[1-6%2]' array_job)" = 28 ]
}

@test "CANCELLED by N is the state CANCELLED" {
	mirage-parse -q "$FINAL/sacct_wide_P_X.txt" -o j.mrs
	grep -q 'CANCELLED by' "$FINAL/sacct_wide_P_X.txt"
	! mirage-cat j.mrs | grep -q 'CANCELLED by'
	mirage-cat j.mrs | grep -q $'\tCANCELLED\t'
}

@test "free text holding the delimiter is repaired with a warning: the name, the command line" {
	run -0 --separate-stderr mirage-parse "$BUSY/sacct_trace_P_X.txt" -o j.mrs
	[[ "$stderr" == *"line 36: the delimiter inside free text; read column 2 as 'name|with|pipes'"* ]]
	[ "$(field j.mrs 43 name)" = "name|with|pipes" ]
	[ "$(field j.mrs 43 uid)" = 0 ]
	# -o ALL: the name's delimiters are in SubmitLine too, further right
	run -0 --separate-stderr mirage-parse "$FINAL/sacct_allfields_P.txt" -o a.mrs
	[[ "$stderr" == *"line 110: the delimiter inside free text; read column 35 as 'name|with|pipes' column 81 as 'sbatch "* ]]
	[[ "$stderr" == *"56 job records, 1 repaired rows, 0 bad rows skipped"* ]]
	[ "$(field a.mrs 43 name)" = "name|with|pipes" ]
	# the same job as the narrow layout reads it
	mirage-parse -q "$FINAL/sacct_wide_P_X.txt" -o w.mrs
	local f
	for f in uid state submit start end timelimit nnodes ncpus; do
		[ "$(field a.mrs 43 $f)" = "$(field w.mrs 43 $f)" ]
	done
}

@test "requeued job with sacct -D: the last record wins (documented)" {
	run -0 --separate-stderr mirage-parse "$FINAL/sacct_wide_P_X_duplicates.txt" -o j.mrs
	[[ "$stderr" == *"1 records of jobs seen before replaced"* ]]
	[ "$(records j.mrs)" -eq 56 ]
	[ "$(field j.mrs 47 state)" = COMPLETED ]
	run -0 mirage-parse -q --duplicates keep "$FINAL/sacct_wide_P_X_duplicates.txt" -o k.mrs
	[ "$(records k.mrs)" -eq 57 ]
}

@test "overlapping nightly dumps merge: later records win" {
	mirage-parse -q "$BUSY/sacct_wide_P_X.txt" "$FINAL/sacct_wide_P_X.txt" -o j.mrs
	# one record per distinct JobID of the two dumps
	n=$(cat "$BUSY/sacct_wide_P_X.txt" "$FINAL/sacct_wide_P_X.txt" |
	    grep -v '^JobID|' | cut -d'|' -f1 | sort -u | wc -l)
	[ "$(records j.mrs)" -eq "$n" ]
	[ "$(field j.mrs 1 state)" = COMPLETED ]
}

@test "epoch times (SLURM_TIME_FORMAT=%s) equal ISO times in UTC" {
	mirage-parse -q "$BUSY/sacct_trace_epoch_times.txt" | mirage-cat > a
	mirage-parse -q "$BUSY/sacct_trace_P_X.txt" | mirage-cat > b
	diff -u a b
}

@test "--tz reads wall-clock times in a zone" {
	printf 'JobID|Submit\n1|2023-01-15T12:00:00\n2|2023-07-15T12:00:00\n' > t.txt
	mirage-parse -q t.txt -o utc.mrs
	mirage-parse -q -z America/Chicago t.txt -o chi.mrs
	[ $(( $(field chi.mrs 1 submit) - $(field utc.mrs 1 submit) )) -eq 21600 ]
	[ $(( $(field chi.mrs 2 submit) - $(field utc.mrs 2 submit) )) -eq 18000 ]
}

@test "LS6 trace layout with its stray-field row" {
	run -0 --separate-stderr mirage-parse "$FIX/ls6-head.txt" -o j.mrs
	[[ "$stderr" == *"LS6 trace"* ]]
	[[ "$stderr" == *"line 44: 11 fields, the header has 10: stray '810653' after column 3 ignored"* ]]
	[ "$(records j.mrs)" -eq 41 ]
	[ "$(field j.mrs 746545 uid)" = 326 ]
	[ "$(field j.mrs 746545 nnodes)" = 4 ]
	[ "$(field j.mrs 746545 timelimit)" = 43200 ]
	[ "$(mirage-cat -T j.mrs | awk -F'\t' '$1 == 746545 { print $16 }')" = 2023-03-09T12:48:05 ]
	[ "$(field j.mrs 478729 timelimit)" = 172800 ]
}

@test "the whole bundled LS6 trace: 24777 jobs" {
	run -0 --separate-stderr mirage-parse "$ROOT/data/ls6-a100.log.gz" -o j.mrs
	[ "$(records j.mrs)" -eq 24777 ]
	[[ "$stderr" == *"24777 job records, 1 repaired rows, 0 bad rows"* ]]
}

@test "--strict makes the stray-field row fatal" {
	run -1 --separate-stderr mirage-parse --strict "$FIX/ls6-head.txt" -o j.mrs
	[[ "$stderr" == *"ls6-head.txt': line 44: "*"(--strict)"* ]]
	[ ! -e j.mrs ]
}

@test "SWF: times from UnixStartTime, nodes from processors" {
	run -0 --separate-stderr mirage-parse --swf-cpus-per-node 4 "$FIX/sample.swf" -o j.mrs
	[ "$(records j.mrs)" -eq 4 ]
	[ "$(field j.mrs 1 submit)" = 1667260800 ]
	[ "$(field j.mrs 1 start)" = 1667260810 ]
	[ "$(field j.mrs 1 end)" = 1667264410 ]
	[ "$(field j.mrs 3 nnodes)" = 2 ]
	[ "$(field j.mrs 2 state)" = CANCELLED ]
	[ "$(field j.mrs 2 start)" = "" ]
	[ "$(field j.mrs 3 timelimit)" = 600 ]
}

@test "filters: partition, state and submit window" {
	mirage-parse -q -p gpu "$FINAL/sacct_wide_P_X.txt" -o g.mrs
	[ "$(mirage-cat g.mrs | tail -n +2 | cut -f11 | sort -u)" = gpu ]
	mirage-parse -q -t COMPLETED,FAILED "$FINAL/sacct_wide_P_X.txt" -o s.mrs
	[ "$(mirage-cat s.mrs | tail -n +2 | cut -f13 | sort -u | tr '\n' ' ')" = "COMPLETED FAILED " ]
	mirage-parse -q -S 2022-12-01 -E 2022-12-02 "$ROOT/data/ls6-a100.log.gz" -o w.mrs
	n=$(records w.mrs)
	[ "$n" -gt 50 ]
	lo=$(date -u -d 2022-12-01 +%s) hi=$(date -u -d 2022-12-02 +%s)
	[ "$(mirage-cat w.mrs | awk -F'\t' -v lo=$lo -v hi=$hi 'NR > 1 && ($14 < lo || $14 >= hi)' | wc -l)" -eq 0 ]
	[ "$(mirage-cat "$BATS_TEST_TMPDIR/w.mrs" | wc -l)" -eq $((n + 1)) ]
}

@test "squeue's default layout: a job name with a blank is the name's, in mirage-parse and mirage-advise alike" {
	sed 's/   mix_10/   my job/' "$BUSY/squeue_default.txt" > sp.txt
	grep -q ' my job ' sp.txt
	run -0 --separate-stderr mirage-parse sp.txt -o sp.jobs
	[[ "$stderr" == *"0 bad rows skipped"* ]]
	[ "$(field sp.jobs 12 name)" = "my job" ]
	[ "$(field sp.jobs 12 nnodes)" = 6 ]
	[ "$(field sp.jobs 12 state)" = PENDING ]
	cmp <(mirage-parse -q "$BUSY/squeue_default.txt" | mirage-cat | cut -f1,8-) <(mirage-cat sp.jobs | cut -f1,8-)
	# the reason with blanks inside its parentheses is still one column
	[ "$(field sp.jobs 36 nnodes)" = 1 ]
	# advise reads it the same way: job 12 is pending
	run -10 mirage-advise -j 12 -Q sp.txt --now 2026-11-22T05:32:19
	[[ "$output" == *"12 has not started: wait"* ]]
}
