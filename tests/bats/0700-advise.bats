#!/usr/bin/env bats
# 0700-advise.bats: mirage-advise's decisions, exit codes and outputs on
# squeue dumps, and its --submit state machine against fake squeue and
# sbatch programs (tests/fixtures/advise/fake-slurm) that can fail, be
# killed or be slow on demand: a successor is submitted exactly once.

setup() {
	load test_helper
	mg_setup
	mg_gbt 60
	[ -e "$BATS_FILE_TMPDIR/clf.mrm" ] ||
	    mirage-train -q -a clf -o "$BATS_FILE_TMPDIR/clf.mrm" "$BATS_FILE_TMPDIR/tr.mrs"
	mg_fake_slurm
	cat >> "$FAKE/queue.txt" <<-'Q'
	502|gpu|PD|2026-11-23T20:00:00|N/A|1-00:00:00|2|1500
	503|gpu|PD|2026-11-23T22:00:00|N/A|2-00:00:00|1|900
	Q
	NOW=2026-11-23T23:00:00
	SUB=(--squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --sbatch "$A/fake-sbatch" --scontrol "$A/fake-scontrol" -n 8 --now $NOW)
}

@test "squeue's layouts give the same jobs, states and sizes" {
	mirage-parse -q "$BUSY/squeue_all_o.txt" | mirage-cat | cut -f1,13,19 | sort > o.tsv
	[ "$(wc -l < o.tsv)" -ge 40 ]
	for f in squeue_default.txt squeue_long.txt squeue_format_long.txt squeue_json.json squeue_yaml.yaml; do
		mirage-parse -q "$BUSY/$f" | mirage-cat | cut -f1,13,19 | sort > x.tsv
		# every job of this layout agrees with -o (json also has ended jobs)
		join -t "$(printf '\t')" o.tsv x.tsv | awk -F'\t' '$2 != $4 || $3 != $5 { print; bad = 1 } END { exit bad }'
		[ "$(join -t "$(printf '\t')" o.tsv x.tsv | wc -l)" -ge 40 ]
	done
	# a pending job's planned start is not a start; a running job has one
	mirage-parse -q "$BUSY/squeue_all_o.txt" | mirage-cat > a.tsv
	awk -F'\t' '$13 == "PENDING" && $16 != "" { exit 1 } $13 == "RUNNING" && $16 == "" { exit 1 }' a.tsv
	mirage-parse -q "$BUSY/squeue_json.json" | mirage-cat > j.tsv
	awk -F'\t' '$13 == "PENDING" && $16 != "" { exit 1 } $13 == "RUNNING" && ($16 == "" || $17 != "") { exit 1 }' j.tsv
}

@test "a running job: the model decides; the threshold moves the decision" {
	run -0 mirage-advise -j 500 -m "$M" -n 8 -Q "$FAKE/queue.txt" --now $NOW -T 100
	[[ "$output" == *"decision: submit"* ]]
	[[ "$output" == *"job:      500 running, ends by 2026-11-24T00:00:00 (1.0 h left)"* ]]
	[[ "$output" == *"model:    gap "* ]]
	run -10 mirage-advise -j 500 -m "$M" -n 8 -Q "$FAKE/queue.txt" --now $NOW -T -100
	[[ "$output" == *"decision: wait"* ]]
	[[ "$output" == *"next:     2026-11-23T23:10:00"* ]]
	run -10 mirage-advise -j 500 -m "$M" -n 8 -Q "$FAKE/queue.txt" --now 2026-11-23T23:55:00 -T -100
	[[ "$output" == *"next:     2026-11-24T00:00:00"* ]]
	run -0 mirage-advise -j 500 -m "$BATS_FILE_TMPDIR/clf.mrm" -n 8 -Q "$FAKE/queue.txt" --now $NOW -T 0
	[[ "$output" == *"model:    score "* ]]
}

@test "JSON output carries the decision, the prediction and its spread" {
	run -0 --separate-stderr mirage-advise -F json -j 500 -m "$M" -n 8 -Q "$FAKE/queue.txt" --now $NOW -T 100
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["decision"] == "submit" and d["rule"] == "model", d
assert d["job_state"] == "running" and abs(d["job_left_h"] - 1) < 1e-9, d
assert isinstance(d["predicted_gap_h"], float) or isinstance(d["predicted_gap_h"], int), d
# the spread of the prediction'"'"'s band (under 2, 8, 24 h, above), or none
# where the held-out predictions of that size were too few
p = d["predicted_gap_h"]
b = 0 if abs(p) < 2 else 1 if abs(p) < 8 else 2 if abs(p) < 24 else 3
kv = dict(w.split("=", 1) for w in sys.argv[2].split() if "=" in w)
if "resid_p10_b%d" % b in kv:
    assert abs(d["gap_p10_h"] - (p + float(kv["resid_p10_b%d" % b]))) < 1e-3, d
    assert d["gap_p10_h"] <= d["gap_p90_h"], d
else:
    assert d["gap_p10_h"] is None and d["gap_p90_h"] is None, d
' "$output" "$(mirage-train -i "$M" | grep resid_p10)"
}

@test "pending, ended and unknown jobs; no model: the reactive rule" {
	run -10 mirage-advise -j 503 -m "$M" -n 8 -Q "$FAKE/queue.txt" --now $NOW
	[[ "$output" == *"503 has not started: wait"* ]]
	# a job in no dump is not "ended": a mistyped id must not submit
	run -13 mirage-advise -j 123 -m "$M" -n 8 -Q "$FAKE/queue.txt" --now $NOW
	[[ "$output" == *"decision: unknown-job"* ]]
	[[ "$output" == *"job 123 is in no dump (squeue, -Q): a mistyped id?"* ]]
	# ... one that sacct shows ended is
	printf 'JobID|JobIDRaw|Partition|State|Submit|Start|End|Timelimit|NNodes\n123|123|gpu|COMPLETED|2026-11-21T00:00:00|2026-11-21T00:00:00|2026-11-23T20:00:00|2-00:00:00|1\n' > h.txt
	run -0 mirage-advise -j 123 -m "$M" -n 8 -H h.txt -Q "$FAKE/queue.txt" --now $NOW
	[[ "$output" == *"123 has ended: submit now"* ]]
	# preempted (and not requeued) before its limit: said so
	sed 's/COMPLETED/PREEMPTED/' h.txt > hp.txt
	run -0 mirage-advise -j 123 -m "$M" -n 8 -H hp.txt -Q "$FAKE/queue.txt" --now $NOW
	[[ "$output" == *"123 was preempted, not ended at its limit; the service is down until its successor starts: submit now"* ]]
	# live: squeue does not show it, sacct -j is asked
	run -13 mirage-advise "${SUB[@]}" -j 123 -m "$M"
	[[ "$output" == *"job 123 is in no dump (squeue, sacct -j)"* ]]
	tail -n 1 h.txt > "$FAKE/sacct.txt"
	run -0 mirage-advise "${SUB[@]}" -j 123 -m "$M"
	[[ "$output" == *"123 has ended: submit now"* ]]
	run -10 mirage-advise -j 500 -Q "$FAKE/queue.txt" --now $NOW
	[[ "$output" == *"note:     no model (-m)"* ]]
	[[ "$output" == *"without a model: submit when 500 ends"* ]]
}

@test "a damaged model is reported and the chain falls back, not lost" {
	cp "$M" bad.mrm
	printf 'X' | dd of=bad.mrm bs=1 seek=200 conv=notrunc 2>/dev/null
	run -10 mirage-advise -j 500 -m bad.mrm -n 8 -Q "$FAKE/queue.txt" --now $NOW
	[[ "$output" == *"note:     'bad.mrm': "*"CRC32"* ]]
	[[ "$output" == *"without a model"* ]]
	run -10 mirage-advise -j 500 -m nosuch.mrm -n 8 -Q "$FAKE/queue.txt" --now $NOW
	[[ "$output" == *"nosuch.mrm"*"No such file"* ]]
}

@test "bad queue dumps and bad options are errors naming the file and line" {
	printf 'JOBID|ST|SUBMIT_TIME\n7|PD|yesterday\n' > q.txt
	run -1 --separate-stderr mirage-advise -j 7 -Q q.txt
	[[ "$stderr" == "mirage-advise: 'q.txt': line 2: bad Submit 'yesterday'"* ]]
	run -2 --separate-stderr mirage-advise -Q q.txt
	[[ "$stderr" == *"give -j jobid"* ]]
	run -2 --separate-stderr mirage-advise -j 7 -F xml
	run -2 --separate-stderr mirage-advise -j 7 -s st
	[[ "$stderr" == *"-s state needs --submit"* ]]
	run -0 mirage-advise --help
	[[ "$output" == usage:* ]]
}

@test "--min-run: S is held with --begin until P has run that share of its limit; past it, submitted plainly" {
	# P (500) started 47 h ago with a 48-hour limit: 99% is 47.52 h
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --min-run 99% --submit job.sh
	[[ "$output" == *"decision: submitted"* ]]
	[[ "$output" == *"held 1872 s (--begin), until job 500 has run 99% of its limit"* ]]
	# held until a time, P's start's share: no host's clock in it
	grep -q -- "^--parsable --comment=mirage-advise:[0-9a-f]* --export=ALL --begin=uts$(date -d 2026-11-23T23:31:12 +%s) --chdir=$PWD job.sh$" "$FAKE/sbatch.log"
	# a dry run says the same command
	rm job.sh.chain
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --min-run 0.99 --submit job.sh --dry-run
	[[ "$output" == *"would run $A/fake-sbatch --parsable --begin=uts$(date -d 2026-11-23T23:31:12 +%s) --chdir=$PWD job.sh"* ]]
	# half its limit is long past: no hold
	: > "$FAKE/sbatch.log"
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --min-run 50% --submit job.sh
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	! grep -q -- --begin "$FAKE/sbatch.log"
	run -2 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" --min-run 150% --submit job.sh
	[[ "$stderr" == *"invalid --min-run '150%'"* ]]
	run -2 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" --min-run 50%
	[[ "$stderr" == *"--min-run needs --submit script"* ]]
}

@test "--min-run: P ends before its minimum run, or starts again: S's begin is lifted or moved" {
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --min-run 99% --submit job.sh
	grep -qx "held_until	$(date -d 2026-11-23T23:31:12 +%s)" job.sh.chain
	# P still runs as it did: nothing changes
	run -11 mirage-advise "${SUB[@]}" -m "$M" -T 100 --min-run 99% --submit job.sh
	[ ! -e "$FAKE/scontrol.log" ]
	# P requeued, started again at 22:00: S held until 99% of that run
	sed -i 's/^500|gpu|R|2026-11-21T23:00:00|2026-11-22T00:00:00|/500|gpu|R|2026-11-21T23:00:00|2026-11-23T22:00:00|/' "$FAKE/queue.txt"
	run -11 --separate-stderr mirage-advise -q "${SUB[@]}" -m "$M" -T 100 --min-run 99% --submit job.sh
	grep -qx "update JobId=900 StartTime=uts$(date -d 2026-11-25T21:31:12 +%s)" "$FAKE/scontrol.log"
	[[ "$stderr" == *"successor 900 is held until 2026-11-25T21:31:12"* ]]
	grep -qx "held_until	$(date -d 2026-11-25T21:31:12 +%s)" job.sh.chain
	run -11 mirage-advise "${SUB[@]}" -m "$M" -T 100 --min-run 99% --submit job.sh
	[ "$(wc -l < "$FAKE/scontrol.log")" -eq 1 ]
	# P fails: the controller no longer holds it, sacct shows it ended;
	# S's begin has no reason left and is lifted, once
	sed -i '/^500|/d' "$FAKE/queue.txt"
	echo '500|500|gpu|FAILED|2026-11-21T23:00:00|2026-11-23T22:00:00|2026-11-23T22:30:00|2-00:00:00|1' > "$FAKE/sacct.txt"
	FAKE_MODE=scontrol-down run -11 --separate-stderr mirage-advise -q "${SUB[@]}" -m "$M" -T 100 --min-run 99% --submit job.sh
	[[ "$stderr" == *"successor 900: StartTime=now failed: "*"Unable to contact slurm controller"*"the next run tries again"* ]]
	grep -qx "held_until	$(date -d 2026-11-25T21:31:12 +%s)" job.sh.chain
	run -11 --separate-stderr mirage-advise -q "${SUB[@]}" -m "$M" -T 100 --min-run 99% --submit job.sh
	[[ "$stderr" == *"job 500 ended before its minimum run: successor 900 is no longer held"* ]]
	tail -n 1 "$FAKE/scontrol.log" | grep -qx "update JobId=900 StartTime=now"
	grep -qx "held_until	0" job.sh.chain
	n=$(wc -l < "$FAKE/scontrol.log")
	run -11 mirage-advise "${SUB[@]}" -m "$M" -T 100 --min-run 99% --submit job.sh
	[ "$(wc -l < "$FAKE/scontrol.log")" -eq "$n" ]
}

@test "--low: an early S waits behind every other job (--nice) until P's end, then is lifted" {
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --low --submit job.sh
	grep -q -- "^--parsable --comment=mirage-advise:[0-9a-f]* --export=ALL --nice=2147483645 --chdir=$PWD job.sh$" "$FAKE/sbatch.log"
	grep -qx "nice	2147483645" job.sh.chain
	run -11 mirage-advise "${SUB[@]}" -m "$M" -T 100 --low --submit job.sh
	[ ! -e "$FAKE/scontrol.log" ]
	# P ends: S no longer waits behind the others
	sed -i '/^500|/d' "$FAKE/queue.txt"
	echo '500|500|gpu|COMPLETED|2026-11-21T23:00:00|2026-11-22T00:00:00|2026-11-23T22:30:00|2-00:00:00|1' > "$FAKE/sacct.txt"
	run -11 --separate-stderr mirage-advise -q "${SUB[@]}" -m "$M" -T 100 --low --submit job.sh
	[[ "$stderr" == *"job 500 has ended: successor 900 no longer waits behind other jobs (nice 0)"* ]]
	grep -qx "update JobId=900 Nice=0" "$FAKE/scontrol.log"
	grep -qx "nice	0" job.sh.chain
	run -11 mirage-advise "${SUB[@]}" -m "$M" -T 100 --low --submit job.sh
	[ "$(wc -l < "$FAKE/scontrol.log")" -eq 1 ]
	# a dry run says the nice it would ask
	rm job.sh.chain
	run -0 mirage-advise "${SUB[@]}" -j 501 -m "$M" -T 100 --low --submit job.sh --dry-run
	[[ "$output" == *"would run $A/fake-sbatch --parsable --nice=2147483645 --chdir=$PWD job.sh"* ]]
	run -2 --separate-stderr mirage-advise "${SUB[@]}" -j 500 --low
	[[ "$stderr" == *"--low needs --submit script"* ]]
}

@test "--lead: a fixed lead, as the site policies replay it (lead, --min-run, --low)" {
	# P (500) has 1 h of its 48 h left
	run -10 mirage-advise "${SUB[@]}" -j 500 --lead 30m
	[[ "$output" == *"decision: wait"* ]]
	run -0 mirage-advise "${SUB[@]}" -j 500 --lead 2h --min-run 50% --low --submit job.sh
	[[ "$output" == *"decision: submitted"* ]]
	grep -q -- " --nice=2147483645 " "$FAKE/sbatch.log"
	! grep -q -- --begin "$FAKE/sbatch.log"
	run -2 --separate-stderr mirage-advise "${SUB[@]}" -j 500 --lead 2h -m "$M"
	[[ "$stderr" == *"--lead is a rule: no -m, --plan or --target"* ]]
	run -2 --separate-stderr mirage-advise "${SUB[@]}" -j 500 --lead 2x
}

@test "--submit: sbatch once, then 'already submitted', then the chain moves on" {
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh -- --resume
	[[ "$output" == *"decision: submitted"* ]]
	[[ "$output" == *"submitted: 900"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	grep -q -- "^--parsable --comment=mirage-advise:[0-9a-f]* --export=ALL --chdir=$PWD job.sh --resume$" "$FAKE/sbatch.log"
	grep -qx -- "MIRAGE_PREDECESSOR=500 MIRAGE_CHAIN_STATE=$PWD/job.sh.chain MIRAGE_BIN=$MIRAGE_BIN" "$FAKE/sbatch.env"
	grep -qx 'successor	900' job.sh.chain
	grep -qx 'current	500' job.sh.chain
	for i in 1 2 3; do
		run -11 mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
		[[ "$output" == *"successor 900 was submitted already"* ]]
	done
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	# 500 ends, 900 starts: 900 is the chain's job now
	sed -i '/^500|/d; s/^900|gpu|PD|\(.*\)|N\/A|/900|gpu|R|\1|2026-11-23T23:00:00|/' "$FAKE/queue.txt"
	run -10 mirage-advise "${SUB[@]}" -m "$M" -T -100 --submit job.sh
	[[ "$output" == *"job:      900 running"* ]]
	grep -qx 'current	900' job.sh.chain
	grep -qx 'successor	-' job.sh.chain
	grep -qx 'submitted	1' job.sh.chain
	# 900 requeued by Slurm (a node failed, a preemption): the service
	# is down until it starts again, said even when quiet; the start
	# the last run saw tells it from a job that never ran
	grep -qx "current_start	$(date -u -d 2026-11-23T23:00:00 +%s)" job.sh.chain
	cp job.sh.chain seen.chain
	sed -i 's/^900|gpu|R|\([^|]*\)|[^|]*|/900|gpu|PD|\1|N\/A|/' "$FAKE/queue.txt"
	run -10 --separate-stderr mirage-advise -q "${SUB[@]}" -m "$M" -T -100 --submit job.sh
	[[ "$stderr" == *"job 900, the chain's job, ran from 2026-11-23"*"and is pending again: Slurm requeued it (a preemption or a node failure, not its limit); nothing of the chain runs until it starts again, and no other successor is submitted for it"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	# a state that saw no start (an older one): the same, less sure
	grep -v '^current_start' seen.chain | grep -v '^crc32' > old.chain
	printf 'crc32\t%s\n' "$(python3 -c 'import sys, zlib; print("%08x" % zlib.crc32(open(sys.argv[1], "rb").read()))' old.chain)" >> old.chain
	cp old.chain job.sh.chain
	run -10 --separate-stderr mirage-advise -q "${SUB[@]}" -m "$M" -T -100 --submit job.sh
	[[ "$stderr" == *"job 900, the chain's job, is pending again (requeued by Slurm?): nothing of the chain runs until it starts"* ]]
}

@test "a failed sbatch is reported; the next run looks for it, then submits" {
	FAKE_MODE=sbatch-fail run -1 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"sbatch of 'job.sh' failed: sbatch: error: Batch job submission failed: Invalid account; the next run looks for it in the queue"* ]]
	grep -qx 'successor	-' job.sh.chain
	run -0 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"is in neither squeue nor sacct: trying again"* ]]
	[[ "$output" == *"submitted: 900"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 2 ]
}

@test "a successor is submitted once, whatever squeue and sbatch say" {
	# refused by the controller's rate limit: nothing queued, sent again
	# at once (three tries), then by the next run
	FAKE_MODE=sbatch-ratelimit run -1 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"Rate limit exceeded"*"nothing was queued: the next run submits again"* ]]
	[ "$(grep -c . "$FAKE/sbatch.log")" -eq 3 ]
	# queued, then "Unable to contact slurm controller (receive failure)":
	# not taken for nothing queued, found by the next run
	FAKE_MODE=sbatch-recvfail run -1 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"(receive failure); the next run looks for it in the queue before trying again"* ]]
	run -11 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"was found as job 900"* ]]
	[ "$(grep -c . "$FAKE/sbatch.log")" -eq 4 ]
	rm job.sh.chain; : > "$FAKE/sbatch.log"; echo 900 > "$FAKE/next"; sed -i '/^900|/d' "$FAKE/queue.txt"; : > "$FAKE/comments"
	# sbatch queues the job and fails ("Socket timed out"): found
	FAKE_MODE=sbatch-lost run -1 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	run -11 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"was found as job 900"* ]]
	# squeue answers an empty queue: 900 is kept, nothing submitted
	for i in 1 2 3; do
		FAKE_MODE=squeue-empty run -11 mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
		[[ "$output" == *"successor 900 was submitted already and has not started (it is in no dump: not submitting again)"* ]]
	done
	# the successor went to another partition than -p: the same
	sed -i 's/^900|gpu|/900|other|/' "$FAKE/queue.txt"
	for i in 1 2 3; do
		run -11 mirage-advise "${SUB[@]}" -p gpu -m "$M" -T 100 --submit job.sh
	done
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	grep -qx 'successor	900' job.sh.chain
	# a script named like an option reaches sbatch as a path; control
	# characters in a script name are refused before anything is kept
	rm job.sh.chain
	cp job.sh ./-dash.sh
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit -dash.sh
	tail -n 1 "$FAKE/sbatch.log" | grep -q -- ' \./-dash\.sh$'
	cp job.sh "$(printf 'a\tcurrent\tb.sh')"
	run -2 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" --submit "$(printf 'a\tcurrent\tb.sh')"
	[[ "$stderr" == *"a script name with a control character"* ]]
	# a FIFO at the state path is refused, not waited on
	mkfifo fifo.chain
	run -1 --separate-stderr timeout 10 mirage-advise "${SUB[@]}" -j 500 -m "$M" --submit job.sh -s fifo.chain
	[[ "$stderr" == *"'fifo.chain': not a regular file"* ]]
}

@test "a killed sbatch whose job reached the queue is found, not submitted again" {
	FAKE_MODE=sbatch-kill run -1 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"was killed"*"looks for it in the queue"* ]]
	! grep -qx 'token	-' job.sh.chain
	run -11 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"was found as job 900"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	grep -qx 'successor	900' job.sh.chain
}

@test "a killed sbatch whose job never arrived is submitted again" {
	FAKE_MODE=sbatch-kill run -1 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	: > "$FAKE/comments"
	sed -i '/^900|/d' "$FAKE/queue.txt"
	run -0 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"is in neither squeue nor sacct: trying again"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 2 ]
	grep -qx 'successor	901' job.sh.chain
}

@test "concurrent runs (cron overlaps) submit once" {
	for i in 1 2 3 4; do
		FAKE_MODE=sbatch-slow mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh > out.$i 2>&1 &
	done
	wait
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	[ "$(grep -l 'decision: submitted' out.* | wc -l)" -eq 1 ]
	[ "$(grep -l 'decision: already-submitted' out.* | wc -l)" -eq 3 ]
	[ "$(grep -l 'successor 900 was submitted already' out.* | wc -l)" -eq 3 ]
}

@test "a damaged state file stops it; an unreadable queue gives a dependency" {
	mirage-advise "${SUB[@]}" -j 500 -T -100 -m "$M" --submit job.sh > /dev/null || true
	sed -i 's/^current\t500/current\t501/' job.sh.chain
	run -4 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" --submit job.sh
	[[ "$stderr" == *"'job.sh.chain': line "*": CRC32 mismatch (not acting on a damaged state"* ]]
	[ ! -e "$FAKE/sbatch.log" ]
	rm job.sh.chain
	# without --submit: a status of its own, so that a script that runs
	# sbatch on 0 does not submit without the dependency
	FAKE_MODE=squeue-down run -12 mirage-advise "${SUB[@]}" -j 500 -m "$M"
	[[ "$output" == *"decision: submit-with-dependency"* ]]
	[ ! -e "$FAKE/sbatch.log" ]
	FAKE_MODE=squeue-down run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" --submit job.sh
	[[ "$output" == *"note:     $A/fake-squeue failed (exit 1, 3 tries): squeue: error: Unable to contact slurm controller"* ]]
	[[ "$output" == *"job:      500 unknown (no queue)"* ]]
	[[ "$output" == *"afterany dependency"* ]]
	grep -q -- "--dependency=afterany:500 --chdir=$PWD job.sh$" "$FAKE/sbatch.log"
}

@test "--chdir: a chain's links run where it was started, whatever directory cron runs in" {
	here=$PWD
	# the first run, by hand in the chain's directory, records it
	run -10 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T -100 --submit "$here/job.sh"
	grep -qx "workdir	$here" job.sh.chain
	grep -q "^mirage-chain-state 1\.7$" job.sh.chain
	# the cron run, elsewhere: the successor runs in the chain's directory
	mkdir -p elsewhere
	( cd elsewhere && mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit "$here/job.sh" ) > out.txt
	grep -q "decision: submitted" out.txt || { cat out.txt; cat "$FAKE/sbatch.log"; false; }
	grep -q -- "--export=ALL --chdir=$here $here/job.sh$" "$FAKE/sbatch.log"
	grep -qx "workdir	$here" job.sh.chain
	# --chdir chooses it (absolute only); a script's own #SBATCH -D wins
	rm -f job.sh.chain "$FAKE/sbatch.log"
	run -2 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --chdir rel --submit job.sh
	[[ "$stderr" == *"--chdir 'rel': give an absolute path"* ]]
	[ ! -e "$FAKE/sbatch.log" ]
	run -2 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --chdir /tmp
	[[ "$stderr" == *"--chdir needs --submit script"* ]]
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --chdir /tmp --submit job.sh
	grep -q -- "--export=ALL --chdir=/tmp job.sh$" "$FAKE/sbatch.log"
	rm -f job.sh.chain "$FAKE/sbatch.log"
	sed '1a #SBATCH -D /var/tmp' job.sh > own.sh
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit own.sh
	! grep -q -- --chdir "$FAKE/sbatch.log"
	# a state written before the chain's directory was kept: none given
	rm -f "$FAKE/sbatch.log"
	cp job.sh old.sh
	run -10 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T -100 --submit old.sh
	python3 - old.sh.chain <<-'PY'
	import sys, zlib
	p = sys.argv[1]
	lines = [l for l in open(p).read().splitlines(True)
	         if not l.startswith(("workdir\t", "crc32\t"))]
	lines[0] = "mirage-chain-state 1.3\n"
	body = "".join(lines)
	open(p, "w").write(body + "crc32\t%08x\n" % zlib.crc32(body.encode()))
	PY
	run -0 mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit old.sh
	[[ "$output" == *"decision: submitted"* ]]
	! grep -q -- --chdir "$FAKE/sbatch.log"
}

@test "--dry-run says what it would submit and submits nothing" {
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh --dry-run
	[[ "$output" == *"dry run: would run $A/fake-sbatch --parsable --chdir=$PWD job.sh"* ]]
	[ ! -e "$FAKE/sbatch.log" ]
	[ ! -e job.sh.chain ]
	# nothing at all is written: no state, no lock beside it
	[ -z "$(ls -A | grep -v '^job.sh$' | grep chain)" ]
	[ ! -e job.sh.chain.lock ]
}

@test "-c config: the node count of the cluster model's configuration" {
	printf 'Mode=faithful\nNodes=8\nPartitionName=gpu Nodes=5\n' > c.conf
	mirage-advise -F json -j 500 -m "$M" -n 8 -Q "$FAKE/queue.txt" --now $NOW > a.json || true
	mirage-advise -F json -j 500 -m "$M" -c c.conf -Q "$FAKE/queue.txt" --now $NOW > b.json || true
	mirage-advise -F json -j 500 -m "$M" -c c.conf -p gpu -Q "$FAKE/queue.txt" --now $NOW > c.json || true
	mirage-advise -F json -j 500 -m "$M" -n 5 -p gpu -Q "$FAKE/queue.txt" --now $NOW > d.json || true
	grep -q '"rule": "model"' a.json
	cmp a.json b.json
	cmp c.json d.json
	! cmp -s a.json d.json
	printf 'Nodez=8\n' > bad.conf
	run -2 --separate-stderr mirage-advise -j 500 -c bad.conf -Q "$FAKE/queue.txt"
	[[ "$stderr" == *"'bad.conf': line 1: unknown key 'Nodez'"* ]]
}

@test "without -n the node count comes from sinfo; without it, the reactive rule" {
	L=(--squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --now $NOW -j 500 -m "$M" -F json)
	mirage-advise "${L[@]}" -n 8 > a.json || true
	mirage-advise "${L[@]}" --sinfo "$A/fake-sinfo" > b.json || true
	grep -q '"rule": "model"' b.json
	cmp a.json b.json
	run -10 mirage-advise "${L[@]}" --sinfo "$PWD/no-such-sinfo"
	[[ "$output" == *'"rule": "reactive"'* ]]
	[[ "$output" == *"node count is unknown (give -n): cannot run '$PWD/no-such-sinfo'"* ]]
}

@test "times are read in the zone squeue prints them in (TZ or -z); unknown zones are refused" {
	# P = 600 started 47 h ago with a 2-day limit: 1 h left, whatever
	# the zone squeue printed its times in
	local z now start
	for z in UTC America/Chicago Asia/Tokyo; do
		now=$(TZ=$z date -d @1795500000 +%Y-%m-%dT%H:%M:%S)
		start=$(TZ=$z date -d @$((1795500000 - 47 * 3600)) +%Y-%m-%dT%H:%M:%S)
		printf 'JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|PRIORITY\n600|gpu|R|%s|%s|2-00:00:00|1|1000\n' "$start" "$start" > "$FAKE/queue.txt"
		TZ=$z run -10 mirage-advise -j 600 -Q "$FAKE/queue.txt" --now "$now"
		[[ "$output" == *"job:      600 running, ends by "*" (1.0 h left)"* ]]
		run -10 mirage-advise -z $z -j 600 -Q "$FAKE/queue.txt" --now "$now"
		[[ "$output" == *"(1.0 h left)"* ]]
		# live, with the fake squeue
		TZ=$z run -10 mirage-advise "${SUB[@]/$NOW/$now}" -j 600
		[[ "$output" == *"(1.0 h left)"* ]]
	done
	# read as UTC, the Chicago times are 6 h off
	now=$(TZ=America/Chicago date -d @1795500000 +%Y-%m-%dT%H:%M:%S)
	run -10 mirage-advise -z America/Chicago -j 600 -Q "$FAKE/queue.txt" --now "$now"
	TZ=America/Chicago run -10 mirage-advise -z UTC -j 600 -Q "$FAKE/queue.txt" --now "$now"
	[[ "$output" != *"(1.0 h left)"* ]]
	for z in America/Chicgo Mars/Olympus ../../etc/passwd; do
		run -2 --separate-stderr mirage-advise -z $z -j 600 -Q "$FAKE/queue.txt"
		[[ "$stderr" == *"unknown time zone '$z'"* ]]
		run -2 --separate-stderr mirage-parse -z $z "$FAKE/queue.txt"
		[[ "$stderr" == *"unknown time zone '$z'"* ]]
	done
}

@test "a jobs stream as -Q is read whole; a stale dump says so" {
	# P is not the stream's first job
	mirage-parse -q "$FAKE/queue.txt" -o q.jobs
	[ "$(records q.jobs)" -eq 4 ]
	run -10 mirage-advise -j 503 -Q q.jobs --now $NOW
	[[ "$output" == *"503 has not started: wait"* ]]
	run -10 mirage-advise -j 500 -Q q.jobs --now $NOW
	[[ "$output" == *"job:      500 running"* ]]
	# a truncated stream is an error, never a decision
	head -c $(($(stat -c %s q.jobs) - 5)) q.jobs > t.jobs
	run -5 --separate-stderr mirage-advise -j 500 -Q t.jobs --now $NOW
	[[ "$stderr" == *"t.jobs"* ]]
	# without --now a dump older than P's end says so
	printf 'JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|PRIORITY\n500|gpu|R|2020-01-01T00:00:00|2020-01-01T00:00:00|2-00:00:00|1|1000\n' > old.txt
	run -10 mirage-advise -j 500 -Q old.txt
	[[ "$output" == *"its limit ran out at 2020-01-03T00:00:00, before now"* ]]
	[[ "$output" == *"the dump is older than 500's end by its limit: give --now"* ]]
	[[ "$output" != *"h left"* ]]
}

@test "--plan: the planner decides from the queue and the history; why, and the risk of waiting" {
	local L=$BATS_FILE_TMPDIR/ls6.jobs
	# P = 554353 of the LS6 trace, a 1-node, 2-day job that ends at
	# 15:34:53 on a quiet Sunday: nothing competes, so the planner
	# waits while it can, and submits at the last tick before P's end
	run -10 mirage-advise -j 554353 -Q "$L" -n 84 --now 2022-11-20T12:00:00 --plan 8
	[[ "$output" == *"decision: wait"* ]]
	[[ "$output" == *"planner:  0% chance of an interruption if it waits 10 minutes"* ]]
	[[ "$output" == *"why:      in 8 futures drawn from the queue and the last 4 weeks: submitted now, 0% interrupted and 3.6 h of overlap"* ]]
	run -0 mirage-advise -j 554353 -Q "$L" -n 84 --now 2022-11-20T15:30:00 --plan 8
	[[ "$output" == *"planner:  100% chance of an interruption if it waits 10 minutes"* ]]
	# the same inputs, the same answer; JSON carries the risk
	run -0 --separate-stderr mirage-advise -F json -j 554353 -Q "$L" -n 84 --now 2022-11-20T15:30:00 --plan 8
	python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["rule"] == "planner" and d["risk_if_wait"] == 1, d' "$output"
	run -0 mirage-advise -F json -j 554353 -Q "$L" -n 84 --now 2022-11-20T15:30:00 --plan 8
	[ "$output" = "$(mirage-advise -F json -j 554353 -Q "$L" -n 84 --now 2022-11-20T15:30:00 --plan 8)" ]
	# on the loaded 2 March, a job with 5 hours left: submit now
	run -0 mirage-advise -j 726655 -Q "$L" -n 84 --now 2023-03-02T12:00:00 --plan 8
	[[ "$output" == *"submitted now, 100% interrupted"* ]]
	# too little history: the reactive rule, and why
	run -10 mirage-advise -j 500 -n 8 -Q "$FAKE/queue.txt" --now $NOW --plan 8
	[[ "$output" == *"note:     the history holds 0 ended jobs, the planner needs 100"* ]]
	[[ "$output" == *"submit when 500 ends"* ]]
	run -2 --separate-stderr mirage-advise -j 500 -Q "$FAKE/queue.txt" --plan 0
	[[ "$stderr" == *"invalid number of futures '0'"* ]]
}

@test "--plan --handover: the planner plans over the whole of P and prices the lease given up" {
	local L=$BATS_FILE_TMPDIR/ls6.jobs
	# the quiet Sunday: 3.6 h of overlap now is 3.4 h of lease given up
	# when P leaves 10 minutes after S starts; still nothing to fear
	run -10 mirage-advise -j 554353 -Q "$L" -n 84 --now 2022-11-20T12:00:00 --plan 8 --handover
	[[ "$output" == *"why:      in 8 futures drawn from the queue and the last 4 weeks: submitted now, 0% interrupted and 3.4 h of lease given up;"* ]]
	[[ "$output" == *"(an hour of lease weighs 0.001 interruptions): wait"* ]]
	run -10 mirage-advise -j 554353 -Q "$L" -n 84 --now 2022-11-20T12:00:00 --plan 8 --handover --lambda 0.5
	[[ "$output" == *"(an hour of lease weighs 0.5 interruptions): wait"* ]]
	# 29.4 h before P's end: beyond the plain planner's 24 h, within
	# P's 48 h limit when it hands over
	run -10 mirage-advise -j 726655 -Q "$L" -n 84 --now 2023-03-01T12:00:00 --plan 8
	[[ "$output" == *"726655 ends in 29.4 h, beyond the planner's window of 24 h: wait"* ]]
	run -10 mirage-advise -j 726655 -Q "$L" -n 84 --now 2023-03-01T12:00:00 --plan 8 --handover
	[[ "$output" == *"submitted now, 0% interrupted and 4.4 h of lease given up"* ]]
}

@test "--plan: the nodes' events (sacctmgr show event) give the capacity now and before" {
	local L=$BATS_FILE_TMPDIR/ls6.jobs d n
	# P = 554353 on a quiet Sunday, 1.7 h left at 13:55; an 8-node S
	# submitted now overlaps it.  Without a history of the nodes the
	# planner waits: nothing competes.  When every node was drained
	# from 14:00 to 20:00 on each of the last 28 days, S submitted
	# after 14:00 waits until 20:00: it submits now.
	{
		echo 'NodeName|TimeStart|TimeEnd|State'
		for d in $(seq 1 28); do
			d=$(date -u -d "2022-11-20 -$d day" +%F)
			for n in $(seq 1 84); do
				printf 'c%03d|%sT14:00:00|%sT20:00:00|DRAIN\n' $n $d $d
			done
		done
	} > drain.txt
	local P=(-j 554353 -Q "$L" -n 84 -N 8 --now 2022-11-20T13:55:00 --plan 8 --lambda 0.5)
	run -10 mirage-advise "${P[@]}"
	[[ "$output" == *"planner:  0% chance of an interruption if it waits 10 minutes"* ]]
	run -0 mirage-advise "${P[@]}" --events drain.txt
	[[ "$output" == *"planner:  100% chance of an interruption if it waits 10 minutes"* ]]
	[[ "$output" == *"the last 4 weeks, 84 of 84 nodes up: submitted now, 0% interrupted"* ]]
	# without -p every node's events count: said, even under -q
	run -0 --separate-stderr mirage-advise -q "${P[@]}" --events drain.txt
	[[ "$stderr" == *"--events without -p: the events of every node in the dump are counted, whatever its partition"* ]]
	run -0 mirage-advise "${P[@]}" --events drain.txt
	# the same dump compressed, or on standard input: the same decision
	local want=$output
	gzip -c drain.txt > drain.txt.gz
	run -0 mirage-advise "${P[@]}" --events drain.txt.gz
	[ "$output" = "$want" ]
	run -0 mirage-advise "${P[@]}" --events - < drain.txt
	[ "$output" = "$want" ]
	# a truncated gzip is an error that names the file, never a decision
	head -c 2000 drain.txt.gz > cut.gz
	run -1 --separate-stderr mirage-advise "${P[@]}" --events cut.gz
	[[ "$stderr" == *"mirage-advise: cut.gz"* ]]
	# live: sacctmgr asked for the partition's nodes (as sinfo lists
	# them) over the 4 weeks; one node drained now
	{
		echo 'JobID|Partition|State|Submit|Start|End|TimelimitRaw|NNodes|User'
		zcat "$ROOT/data/ls6-a100.log.gz" | awk -F'\t' 'NF >= 10 && $1 ~ /^[0-9]+$/ && n++ < 300 { print $1 "|gpu|COMPLETED|" $5 "|" $4 "|" $6 "|" $8 "|" $10 "|u" $3 }'
	} > hist.txt
	printf 'c001|2026-11-23T10:00:00|Unknown|DRAIN\nc002|2026-11-20T10:00:00|2026-11-20T12:00:00|DOWN\n' > "$FAKE/events.txt"
	local V=(--squeue "$A/fake-squeue" --sinfo "$A/fake-sinfo" --sacctmgr "$A/fake-sacctmgr" -H hist.txt -p gpu -j 500 -n 8 --now $NOW --plan 8)
	run --separate-stderr mirage-advise "${V[@]}"
	[[ "$output" == *"the last 4 weeks, 7 of 8 nodes up: submitted now"* ]]
	[ "$(cat "$FAKE/sacctmgr.log")" = "-n -P show event Event=Node Start=2026-10-25T23:00:00 End=2026-11-23T23:00:00 format=NodeName,TimeStart,TimeEnd,State Nodes=c[001-002],c[003-008]" ]
	# the database down: a warning, and the capacity now all along
	FAKE_MODE=sacctmgr-down run --separate-stderr mirage-advise "${V[@]}"
	[[ "$stderr" == *"mirage-advise: no history of the nodes: $A/fake-sacctmgr failed (exit 1, 3 tries): sacctmgr: error: Problem talking to the database"* ]]
	[[ "$output" == *"why:      in 8 futures drawn from the queue and the last 4 weeks: submitted now"* ]]
	# a bad dump is an error that names its line; so is a missing one
	printf 'NodeName|TimeStart|TimeEnd\nc001|2022-11-19T14:00:00|soon\n' > bad.txt
	run -1 --separate-stderr mirage-advise "${P[@]}" --events bad.txt
	[[ "$stderr" == *"mirage-advise: bad.txt, line 2: bad TimeStart '2022-11-19T14:00:00' or TimeEnd 'soon'"* ]]
	run -1 --separate-stderr mirage-advise "${P[@]}" --events no-such.txt
	[[ "$stderr" == *"mirage-advise: no-such.txt: No such file or directory"* ]]
	run -2 --separate-stderr mirage-advise -j 554353 -Q "$L" -n 84 --events drain.txt
	[[ "$stderr" == *"--events goes with --plan"* ]]
}

@test "--plan: only the partition's nodes count; more nodes out of service than the cluster has is refused" {
	local L=$BATS_FILE_TMPDIR/ls6.jobs
	{
		echo 'JobID|Partition|State|Submit|Start|End|TimelimitRaw|NNodes|User'
		zcat "$ROOT/data/ls6-a100.log.gz" | awk -F'\t' 'NF >= 10 && $1 ~ /^[0-9]+$/ && n++ < 300 { print $1 "|gpu|COMPLETED|" $5 "|" $4 "|" $6 "|" $8 "|" $10 "|u" $3 }'
	} > hist.txt
	# live: sacctmgr also answers with another partition's nodes (x...)
	{
		printf 'c001|2026-11-23T10:00:00|Unknown|DRAIN\n'
		for n in 1 2 3 4 5; do printf 'x%03d|2026-11-22T00:00:00|Unknown|DOWN\n' $n; done
	} > "$FAKE/events.txt"
	local V=(--squeue "$A/fake-squeue" --sinfo "$A/fake-sinfo" --sacctmgr "$A/fake-sacctmgr" -H hist.txt -p gpu -j 500 -n 8 --now $NOW --plan 8)
	run --separate-stderr mirage-advise "${V[@]}"
	[[ "$output" == *"the last 4 weeks, 7 of 8 nodes up: "* ]]
	[[ "$stderr" != *"no -p"* ]]
	# without -p every partition's nodes count, and that is said, even
	# to a cron run (-q)
	run --separate-stderr mirage-advise -q --squeue "$A/fake-squeue" --sinfo "$A/fake-sinfo" --sacctmgr "$A/fake-sacctmgr" -H hist.txt -j 500 -n 8 --now $NOW --plan 8
	[[ "$stderr" == *"no -p: the events of every node of the cluster are counted, whatever its partition; give -p the chain's partition"* ]]
	# a dump naming more nodes out of service than the cluster has
	{
		echo 'NodeName|TimeStart|TimeEnd|State'
		for n in $(seq 1 90); do printf 'n%03d|2022-11-19T14:00:00|2022-11-19T20:00:00|DRAIN\n' $n; done
	} > many.txt
	run -1 --separate-stderr mirage-advise -j 554353 -Q "$L" -n 84 -N 8 --now 2022-11-20T13:55:00 --plan 8 --events many.txt
	[[ "$stderr" == *"many.txt: 90 distinct nodes out of service, more than the cluster's 84: events of other partitions' nodes are counted"* ]]
}

@test "every layout of one squeue snapshot gives one view and one decision, or says what it lacks" {
	local f gap ref=""
	for f in squeue_all_o.txt squeue_json.json squeue_yaml.yaml squeue_format_long.txt; do
		run -10 --separate-stderr mirage-advise -F json -j 1 -m "$M" -n 6 -Q "$BUSY/$f" --now 2026-11-22T05:32:19 -T -100
		gap=$(python3 -c 'import json, sys; d = json.loads(sys.argv[1]); print(d["predicted_gap_h"])' "$output")
		[ "$gap" != None ]
		[ -z "$ref" ] || [ "$gap" = "$ref" ]
		ref=$gap
	done
	# the default and -l layouts show no submission times (nor limits):
	# no model decision on them, and the reason
	for f in squeue_default.txt squeue_long.txt; do
		run -10 mirage-advise -j 1 -m "$M" -n 6 -Q "$BUSY/$f" --now 2026-11-22T05:32:19
		[[ "$output" == *"note:     the queue shows no time limit or no submission time for 45 jobs"* ]]
		[[ "$output" == *"submit when 1 ends"* ]]
	done
}

@test "a -j that is not the state's chain stops the run; nothing is submitted" {
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	# 900 is the successor of 500; a user starts a chain for 501
	run -2 --separate-stderr mirage-advise "${SUB[@]}" -q -j 501 -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"'job.sh.chain' follows job 500 and its successor 900, not -j 501: to start a new chain from 501, remove 'job.sh.chain' or give another state file with -s"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	# the chain's own jobs are accepted
	run -11 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	run -11 mirage-advise "${SUB[@]}" -j 900 -m "$M" -T 100 --submit job.sh
	run -0 mirage-advise "${SUB[@]}" -j 501 -m "$M" -T 100 --submit job.sh -s other.chain
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 2 ]
}

@test "the commands run print epoch seconds, whatever SLURM_TIME_FORMAT says; a dump in another says which to use" {
	SLURM_TIME_FORMAT=relative run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	grep -q '^squeue %s$' "$FAKE/env.log"
	grep -q '^sbatch %s$' "$FAKE/env.log"
	! grep -v ' %s$' "$FAKE/env.log"
	printf 'JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES\n7|gpu|R|Yest 21:00|Yest 22:00|2-00:00:00|1\n' > rel.txt
	run -1 --separate-stderr mirage-advise -j 7 -Q rel.txt
	[[ "$stderr" == *"'rel.txt': line 2: bad Submit 'Yest 21:00' (times are read as SLURM_TIME_FORMAT=standard prints them"* ]]
	run -1 --separate-stderr mirage-parse rel.txt
	[[ "$stderr" == *"SLURM_TIME_FORMAT=standard"* ]]
}

@test "a predicted start before now is read as now: the gap is at least minus the time left" {
	local t
	for t in 2026-11-23T23:00:00 2026-11-23T23:54:00 2026-11-23T23:59:00; do
		mirage-advise -F json -j 500 -m "$M" -n 8 -Q "$FAKE/queue.txt" --now $t -T 0.5 > a.json || true
		python3 -c '
import json, sys
d = json.load(open("a.json"))
assert d["rule"] == "model", d
assert d["predicted_gap_h"] >= -d["job_left_h"] - 1e-9, d
assert ("at most 0.5 h: " + d["decision"]) in d["why"], d
' 
	done
}

@test "a squeue that fails once is tried again before any fallback" {
	FAKE_MODE=squeue-flaky run -0 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	[[ "$output" == *"decision: submitted"* ]]
	! grep -q -- '--dependency' "$FAKE/sbatch.log"
	[ "$(cat "$FAKE/flaky")" -ge 2 ]
	# with one try, the same failure gives the dependency, said even under -q
	rm -f job.sh.chain "$FAKE/flaky" "$FAKE/sbatch.log"
	FAKE_MODE=squeue-flaky run -0 --separate-stderr mirage-advise "${SUB[@]}" -q --retries 1 -j 500 -m "$M" -T 100 --submit job.sh
	grep -q -- '--dependency=afterany:500' "$FAKE/sbatch.log"
	[[ "$stderr" == *"the dependency rule decided: "*"fake-squeue failed (exit 1, 1 try)"* ]]
}

@test "a model that cannot be read is said on stderr, even under -q" {
	run -10 --separate-stderr mirage-advise -q -j 500 -m nosuch.mrm -n 8 -Q "$FAKE/queue.txt" --now $NOW
	[[ "$stderr" == *"the reactive rule decided: model 'nosuch.mrm': No such file"* ]]
	# without -m the reactive rule is what was asked for: no warning
	run -10 --separate-stderr mirage-advise -q -j 500 -Q "$FAKE/queue.txt" --now $NOW
	[ -z "$stderr" ]
}

@test "two faults in a row (sbatch times out, squeue answers empty) do not submit twice" {
	FAKE_MODE=sbatch-lost run -1 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	# squeue empty and sacct down: cannot be settled, nothing submitted
	FAKE_MODE="squeue-empty sacct-down" run -1 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"cannot be settled"* ]]
	FAKE_MODE=squeue-empty run -11 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"was found as job 900"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	grep -qx 'successor	900' job.sh.chain
}

@test "an empty queue without the chain's job settles nothing: no second submission" {
	FAKE_MODE=sbatch-lost run -1 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	# sacct is down too: nothing shows where the submission went
	: > "$FAKE/comments"
	sed -i '/^900|/d' "$FAKE/queue.txt"
	for mode in squeue-empty sacct-down; do
		FAKE_MODE=$mode run -1 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
		[[ "$stderr" == *"is not confirmed and cannot be settled"*"not submitting again"* ]]
	done
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
}

@test "the state write fails after sbatch, then squeue answers empty: found in sacct" {
	FAKE_STATE=$PWD/job.sh.chain FAKE_MODE=sbatch-nostate run -1 --separate-stderr mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"(job 900 was submitted: record it by hand)"* ]]
	rmdir job.sh.chain
	[ ! -e job.sh.chain.kept ] || mv job.sh.chain.kept job.sh.chain
	FAKE_MODE=squeue-empty run -11 --separate-stderr mirage-advise "${SUB[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"was found as job 900"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
}

@test "a successor cancelled before it started is said, and the chain goes on once" {
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	sed -i '/^900|/d' "$FAKE/queue.txt"
	echo '900|900|gpu|CANCELLED|2026-11-23T23:00:00|None|2026-11-23T23:30:00|2-00:00:00|1' > "$FAKE/sacct.txt"
	S=("${SUB[@]/$NOW/2026-11-23T23:35:00}")
	run -10 --separate-stderr mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$stderr" == *"successor 900 ended before it started (CANCELLED)"* ]]
	[[ "$output" == *"1 successor failed in a row (the last: job 900 ended before it started (CANCELLED)): the next is submitted at 2026-11-23T23:40:00 at the earliest"* ]]
	grep -qx 'successor	-' job.sh.chain
	grep -qx 'failures	1' job.sh.chain
	S=("${SUB[@]/$NOW/2026-11-23T23:41:00}")
	run -0 mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$output" == *"submitted: 901"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 2 ]
	# counted once, whatever the later runs see
	grep -qx 'failures	1' job.sh.chain
}

@test "successors that fail at their start: at once while the chain is down, with a back-off while P runs; then the chain stops" {
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	sed -i '/^500|/d; /^900|/d' "$FAKE/queue.txt"
	at() { S=("${SUB[@]/$NOW/2026-11-24T$1:00}"); }
	echo '500|500|gpu|TIMEOUT|2026-11-21T23:00:00|2026-11-22T00:00:00|2026-11-24T00:00:00|2-00:00:00|1' > "$FAKE/sacct.txt"
	echo '900|900|gpu|FAILED|2026-11-23T23:00:00|2026-11-24T00:00:00|2026-11-24T00:01:00|2-00:00:00|1' >> "$FAKE/sacct.txt"
	# 900 took over and died: nothing runs, so the next goes at once
	at 00:05; run -0 --separate-stderr mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$output" == *"job:      900 ended"* ]]
	[[ "$output" == *"submitted: 901"* ]]
	[[ "$stderr" == *"the chain has no running job: its successor is submitted now, though 1 in a row failed (the last: job 900 failed (FAILED))"* ]]
	grep -qx 'failures	1' job.sh.chain
	sed -i '/^901|/d' "$FAKE/queue.txt"
	echo '901|901|gpu|FAILED|2026-11-24T00:05:00|2026-11-24T00:15:00|2026-11-24T00:16:00|2-00:00:00|1' >> "$FAKE/sacct.txt"
	at 00:20; run -0 mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$output" == *"submitted: 902"* ]]
	grep -qx 'failures	2' job.sh.chain
	sed -i '/^902|/d' "$FAKE/queue.txt"
	echo '902|902|gpu|FAILED|2026-11-24T00:20:00|2026-11-24T00:44:00|2026-11-24T00:45:00|2-00:00:00|1' >> "$FAKE/sacct.txt"
	for t in 00:50 01:30 03:00; do
		at $t; run -14 --separate-stderr mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
		[[ "$stderr" == *"the chain's last 3 jobs failed (the last: "*"902"*"): not submitting another; mend the script, then remove 'job.sh.chain' and start the chain again with -j"* ]]
		[[ "$output" == *"decision: stopped"* ]]
	done
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 3 ]
}

@test "successors cancelled before they start while P runs are submitted with a back-off; P's normal end does not clear the count" {
	at() { S=("${SUB[@]/$NOW/2026-11-2$1:00}"); }
	lost() { # lost ID END: the successor ID was cancelled before it started
		sed -i "/^$1|/d" "$FAKE/queue.txt"
		echo "$1|$1|gpu|CANCELLED|2026-11-23T23:00:00|None|2026-11-23T$2:00|2-00:00:00|1" >> "$FAKE/sacct.txt"
	}
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	lost 900 23:01
	at 3T23:02; run -10 mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
	grep -qx 'failures	1' job.sh.chain
	at 3T23:12; run -0 mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$output" == *"submitted: 901"* ]]
	lost 901 23:13
	at 3T23:14; run -10 mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
	[[ "$output" == *"2 successors failed in a row"*"2026-11-23T23:33:00 at the earliest"* ]]
	at 3T23:34; run -0 mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
	lost 902 23:35
	at 3T23:36; run -14 mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
	# P ended as it should have: the count stays, the chain stays stopped
	sed -i '/^500|/d' "$FAKE/queue.txt"
	echo '500|500|gpu|TIMEOUT|2026-11-21T23:00:00|2026-11-22T00:00:00|2026-11-24T00:00:00|2-00:00:00|1' >> "$FAKE/sacct.txt"
	at 4T00:05; run -14 mirage-advise "${S[@]}" -m "$M" -T 100 --submit job.sh
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 3 ]
}

@test "one zone: mirage-parse reads local time as sacct prints it, records the zone, and a stream of another zone is said" {
	printf 'JobID|JobIDRaw|Partition|State|Submit|Start|End|Timelimit|NNodes\n123|123|gpu|COMPLETED|2026-11-21T00:00:00|2026-11-21T00:00:00|2026-11-23T20:00:00|2-00:00:00|1\n' > h.txt
	TZ=America/Chicago mirage-parse -q h.txt -o chi.jobs
	mirage-parse -q -z UTC h.txt -o utc.jobs
	[ "$(mirage-cat -i chi.jobs | sed -n 's/^tz\t//p')" = America/Chicago ]
	[ "$(mirage-cat -i utc.jobs | sed -n 's/^tz\t//p')" = UTC ]
	# the same wall-clock time, 6 hours apart as instants
	[ $(( $(field chi.jobs 123 start) - $(field utc.jobs 123 start) )) -eq 21600 ]
	# a history read in another zone than this run's dumps: said, even under -q
	TZ=America/Chicago run -0 --separate-stderr mirage-advise -q -j 123 -H utc.jobs -Q "$FAKE/queue.txt" --now $NOW
	[[ "$stderr" == *"'utc.jobs' holds times read as UTC wall-clock time, this run reads squeue's and sacct's as America/Chicago: if both came from one cluster, one of them is hours off"* ]]
	TZ=America/Chicago run -0 --separate-stderr mirage-advise -q -j 123 -H chi.jobs -Q "$FAKE/queue.txt" --now $NOW
	[ -z "$stderr" ]
	run -0 --separate-stderr mirage-advise -q -z Etc/UTC -j 123 -H utc.jobs -Q "$FAKE/queue.txt" --now $NOW
	[ -z "$stderr" ]
}

@test "a model records the cluster it was trained on; a misfit and an old history are said" {
	run -0 mirage-train -i "$M"
	[[ "$output" == *$'\ncluster\tmode=reference nodes=88 partitions=- trace_from=2022-10-05 trace_to=2023-04-03 jobs=24777\n'* ]]
	run -0 mirage-cat -i "$BATS_FILE_TMPDIR/tr.mrs"
	[[ "$output" == *$'\ncluster\tmode=reference nodes=88 partitions=- '* ]]
	run -0 --separate-stderr mirage-advise -j 500 -m "$M" -n 8 -p gpu -Q "$FAKE/queue.txt" --now $NOW -T 100
	[[ "$stderr" == *"model '$M' was trained for 88 nodes, this cluster has 8: its features measure another queue"* ]]
	[[ "$stderr" == *"model '$M' was trained on a trace that ends 2023-04-03, 1331 days before --now: retrain it"* ]]
	[[ "$stderr" == *"model '$M' was trained on "*" samples only (1000 or more are usual)"* ]]
	# on a cluster of its size: no node warning
	run -0 --separate-stderr mirage-advise -j 500 -m "$M" -n 88 -Q "$FAKE/queue.txt" --now $NOW -T 100
	[[ "$stderr" != *"trained for 88 nodes"* ]]
	[[ "$stderr" == *"days before --now"* ]]
	# -q: none of them
	run -0 --separate-stderr mirage-advise -q -j 500 -m "$M" -n 8 -Q "$FAKE/queue.txt" --now $NOW -T 100
	[ -z "$stderr" ]
	# a history years older than now
	printf 'JobID|JobIDRaw|Partition|State|Submit|Start|End|Timelimit|NNodes\n7|7|gpu|COMPLETED|2023-01-01T00:00:00|2023-01-01T00:00:00|2023-01-02T00:00:00|2-00:00:00|1\n' > old.txt
	run -0 --separate-stderr mirage-advise -j 500 -m "$M" -n 88 -H old.txt -Q "$FAKE/queue.txt" --now $NOW -T 100
	[[ "$stderr" == *"the history (-H) ends at 2023-01-02T00:00:00, 1422 days before --now: give recent sacct dumps"* ]]
}

@test "a P without a time limit, and a successor larger than the cluster, are said, not guessed" {
	cp "$FAKE/queue.txt" u.txt
	echo '700|gpu|R|2026-11-20T23:00:00|2026-11-21T00:00:00|UNLIMITED|1|1000' >> u.txt
	for p in "-m $M" "--plan 8 -H $BATS_FILE_TMPDIR/ls6.jobs"; do
		run -10 --separate-stderr mirage-advise -j 700 $p -n 88 -Q u.txt --now $NOW
		[[ "$output" == *"note:     job 700 has no time limit (UNLIMITED): no limit ends it"* ]]
		[[ "$output" == *"why:      the reactive rule: submit when 700 ends"* ]]
		[[ "$output" != *"ends in -"* ]]
	done
	run -2 --separate-stderr mirage-advise -j 500 -m "$M" -n 8 -N 9 -Q "$FAKE/queue.txt" --now $NOW
	[[ "$stderr" == *"the successor asks for 9 nodes (-N or the script's #SBATCH -N), more than the cluster's 8: it could never start"* ]]
}

@test "--plan with a state: the history is cached beside it; sacct is asked for minutes, not weeks" {
	# 200 ended jobs of the last four weeks, one an hour or so
	awk 'BEGIN { for (i = 1; i <= 200; i++) { e = 1795474800 - i * 3000; s = e - 7200; printf "%d|%d|gpu|COMPLETED|%d|%d|%d|2-00:00:00|1|u%d\n", 100 + i, 100 + i, s - 600, s, e, i % 7 } }' |
	    while IFS='|' read -r a b c d s0 s1 e lim n u; do
		printf '%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$a" "$b" "$c" "$d" "$(date -u -d @$s0 +%FT%T)" "$(date -u -d @$s1 +%FT%T)" "$(date -u -d @$e +%FT%T)" "$lim" "$n"
	    done > "$FAKE/sacct.txt"
	local V=(--squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --sbatch "$A/fake-sbatch" --sinfo "$A/fake-sinfo" -j 500 -n 8 --plan 8 --events /dev/null)
	run --separate-stderr mirage-advise "${V[@]}" --now $NOW
	[[ "$output" == *"planner:  "* ]]
	want=$(grep '^planner:' <<< "$output")
	run --separate-stderr mirage-advise "${V[@]}" --now $NOW --submit job.sh --dry-run
	[ ! -e job.sh.chain.history ]
	run --separate-stderr mirage-advise "${V[@]}" --now $NOW --submit job.sh -T 100 -s st
	[ "$(grep '^planner:' <<< "$output")" = "$want" ]
	head -n 2 st.history | tr '\t' ' ' | grep -qx 'covers 1792969200 1795474800'
	# every user's jobs: its owner's only
	[ "$(stat -c %a st.history)" = 600 ]
	tail -n 1 "$FAKE/sacct.log" | grep -q -- '-S 2026-10-25T23:00:00 '
	# five minutes on: sacct is asked from the cache's end, less 10 minutes
	run --separate-stderr mirage-advise "${V[@]}" --now 2026-11-23T23:05:00 --submit job.sh -s st
	tail -n 1 "$FAKE/sacct.log" | grep -q -- '-S 2026-11-23T22:50:00 '
	[ "$(grep -c '|COMPLETED|' st.history)" -eq 200 ]
	# sacct down: the cache is used, and said
	FAKE_MODE=sacct-down run --separate-stderr mirage-advise "${V[@]}" --now 2026-11-23T23:10:00 --submit job.sh -s st
	[[ "$stderr" == *"no new history ("*"): the history cached up to 2026-11-23T23:05:00 is used"* ]]
	[[ "$stderr" != *"no history:"* ]]
	# a damaged cache is rebuilt from the whole window
	sed -i 's/|u1$/|u9/; 4s/COMPLETED/CANCELLED/' st.history
	run --separate-stderr mirage-advise "${V[@]}" --now 2026-11-23T23:15:00 --submit job.sh -s st
	[[ "$stderr" == *"'st.history': CRC32 mismatch: the history cache is rebuilt"* ]]
	tail -n 1 "$FAKE/sacct.log" | grep -q -- '-S 2026-10-25T23:15:00 '
	# jobs that ended before the window are dropped from it
	[ "$(grep -c '|COMPLETED|' st.history)" -le 200 ]
}

@test "--take-over: P is signalled, leaves, and the state records it; gone, unknown or unset P is a note" {
	local T=(--take-over --squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --scancel "$A/fake-scancel" --grace 3s)
	run -0 env -u MIRAGE_PREDECESSOR mirage-advise "${T[@]}"
	[[ "$output" == "take-over: no predecessor (neither -j nor MIRAGE_PREDECESSOR): nothing to do" ]]
	[ ! -e "$FAKE/scancel.log" ]
	# the chain's state, as --submit leaves it
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	grep -q -- "--export=ALL " "$FAKE/sbatch.log"
	grep -qx -- "MIRAGE_PREDECESSOR=500 MIRAGE_CHAIN_STATE=$PWD/job.sh.chain MIRAGE_BIN=$MIRAGE_BIN" "$FAKE/sbatch.env"
	MIRAGE_PREDECESSOR=500 MIRAGE_CHAIN_STATE=$PWD/job.sh.chain run -0 mirage-advise "${T[@]}"
	[[ "$output" == "take-over: job 500 was sent SIGUSR1 and left within its grace of 3 s" ]]
	[ "$(cat "$FAKE/scancel.log")" = "--signal=USR1 --batch 500" ]
	grep -qx 'taking	-' job.sh.chain
	grep -qx 'signalled	0' job.sh.chain
	grep -qx 'handed	500' job.sh.chain
	# run again: P is gone, nothing is sent
	MIRAGE_PREDECESSOR=500 MIRAGE_CHAIN_STATE=$PWD/job.sh.chain run -0 mirage-advise "${T[@]}"
	[[ "$output" == "take-over: job 500 has ended (or Slurm knows no such job): nothing to take over" ]]
	[ "$(wc -l < "$FAKE/scancel.log")" -eq 1 ]
	# --full and another signal
	run -0 mirage-advise "${T[@]}" -j 501 --signal TERM --full
	tail -n 1 "$FAKE/scancel.log" | grep -qx -- '--signal=TERM --full 501'
	for bad in 'USR1;ls' 0 99 SIGSIG ''; do
		run -2 --separate-stderr mirage-advise "${T[@]}" -j 501 --signal "$bad"
		[[ "$stderr" == *"invalid signal"* ]]
	done
	# job ids that are not Slurm's, and a grace past a day
	for bad in + _ 1234567890123456789012345678 12a 0 '4711_' '4711+'; do
		run -2 --separate-stderr mirage-advise "${T[@]}" -j "$bad"
		[[ "$stderr" == *"invalid job id"* ]]
		MIRAGE_PREDECESSOR=$bad run -2 --separate-stderr mirage-advise "${T[@]}"
		[[ "$stderr" == *"invalid job id"* ]]
	done
	for bad in 2147483600s 25h 2d; do
		run -2 --separate-stderr mirage-advise "${T[@]}" -j 501 --grace "$bad"
		[[ "$stderr" == *"invalid grace '$bad' (at most a day)"* ]]
	done
	[ "$(wc -l < "$FAKE/scancel.log")" -eq 2 ]
}

@test "--take-over: an ignored signal is followed by a cancel; another user's job, or a Slurm that cannot be read, stops it" {
	local T=(--take-over --squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --scancel "$A/fake-scancel" --grace 2s)
	FAKE_MODE=signal-ignored run -0 mirage-advise "${T[@]}" -j 500
	[[ "$output" == "take-over: job 500 still ran after its grace of 2 s after SIGUSR1: cancelled" ]]
	[ "$(cat "$FAKE/scancel.log")" = "$(printf -- '--signal=USR1 --batch 500\n500')" ]
	! grep -q '^500|' "$FAKE/queue.txt"
	# 501 is bob's
	sed -i 's/^501|.*/&|bob/' "$FAKE/queue.txt"
	run -1 --separate-stderr mirage-advise "${T[@]}" -j 501
	[[ "$stderr" == *"take-over from job 501: job 501 belongs to bob, not to $(id -un): another user's job is not signalled"* ]]
	[ "$(wc -l < "$FAKE/scancel.log")" -eq 2 ]
	# squeue says nothing of 503 and sacct is down: it cannot tell
	FAKE_MODE="squeue-empty sacct-down" run -1 --separate-stderr mirage-advise "${T[@]}" --retries 1 -j 503
	[[ "$stderr" == *"cannot tell whether job 503 runs: "*"sacct"*"it was not signalled"* ]]
	[ "$(wc -l < "$FAKE/scancel.log")" -eq 2 ]
	# a pending P would run the service twice: cancelled
	run -0 mirage-advise "${T[@]}" -j 503
	[[ "$output" == "take-over: job 503 had not started: cancelled" ]]
}

@test "--take-over: two at once signal P once, with the chain's state or without" {
	mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh > /dev/null
	local T=(--take-over --squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --scancel "$A/fake-scancel" --grace 3s -j 500 -s job.sh.chain)
	mirage-advise "${T[@]}" > a.out &
	mirage-advise "${T[@]}" > b.out &
	wait
	[ "$(grep -c -- '--signal' "$FAKE/scancel.log")" -eq 1 ]
	[ "$(cat a.out b.out | grep -c 'was sent SIGUSR1 and left within its grace')" -eq 2 ]
	grep -qx 'handed	500' job.sh.chain
	# without a chain's state, a record of their own keeps it to one
	rm -f "$FAKE/scancel.log"
	echo '601|gpu|R|2026-11-23T01:00:00|2026-11-23T02:00:00|2-00:00:00|4|1000' >> "$FAKE/queue.txt"
	T=(--take-over --squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --scancel "$A/fake-scancel" --grace 3s -j 601)
	env -u MIRAGE_CHAIN_STATE mirage-advise "${T[@]}" > c.out 2>&1 &
	env -u MIRAGE_CHAIN_STATE mirage-advise "${T[@]}" > d.out 2>&1 &
	wait
	[ "$(grep -c -- '--signal' "$FAKE/scancel.log")" -eq 1 ]
	[ "$(cat c.out d.out | grep -c '^take-over: job 601 ')" -eq 2 ]
	[ -s "$XDG_RUNTIME_DIR/mirage-takeover-$(id -u)-601" ]
}

@test "--handover: the cron run stops a P that still runs once S has run 5 minutes with no take-over, a step a run, once" {
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh --handover
	# 900 starts while 500 runs, and S's script takes no part
	sed -i 's/^900|gpu|PD|\(.*\)|N\/A|/900|gpu|R|\1|2026-11-23T23:00:00|/' "$FAKE/queue.txt"
	C=(--scancel "$A/fake-scancel" -m "$M" -T -100 --submit job.sh --handover --grace 2m)
	at() { # at HH:MM[:SS]: the cron run at that time
		case $1 in *:*:*) S=("${SUB[@]/$NOW/2026-11-23T$1}") ;; *) S=("${SUB[@]/$NOW/2026-11-23T$1:00}") ;; esac; }
	at 23:02; run --separate-stderr mirage-advise "${S[@]}" "${C[@]}"
	[[ "$stderr" == *"successor 900 started 120 s ago: its script may take over from job 500 yet"* ]]
	[ ! -e "$FAKE/scancel.log" ]
	grep -qx 'current	900' job.sh.chain
	grep -qx 'taking	500' job.sh.chain
	# five minutes after a cron run first saw S running (on its own
	# clock: Slurm's start time is on the controller's): signalled (said
	# even under -q), and recorded
	at 23:06; FAKE_MODE=signal-ignored run --separate-stderr mirage-advise -q "${S[@]}" "${C[@]}"
	[ ! -e "$FAKE/scancel.log" ]
	# (a few seconds past the five minutes: the first sighting's time
	# includes how long that run had taken to see it)
	at 23:07:05; FAKE_MODE=signal-ignored run --separate-stderr mirage-advise -q "${S[@]}" "${C[@]}"
	[[ "$stderr" == *"successor 900 runs: job 500 was sent SIGUSR1"* ]]
	[ "$(cat "$FAKE/scancel.log")" = "--signal=USR1 --batch 500" ]
	grep -Eqx 'signalled	179547522[0-9]' job.sh.chain
	# within the grace: nothing more; past it: cancelled, once
	at 23:08; FAKE_MODE=signal-ignored run --separate-stderr mirage-advise "${S[@]}" "${C[@]}"
	[[ "$stderr" == *"job 500 has had SIGUSR1 for "[0-9]*" s of its 120 s"* ]]
	[ "$(wc -l < "$FAKE/scancel.log")" -eq 1 ]
	at 23:10; run --separate-stderr mirage-advise -q "${S[@]}" "${C[@]}"
	[[ "$stderr" == *"successor 900 runs: job 500 still ran after its grace of 120 s after SIGUSR1: cancelled"* ]]
	[ "$(tail -n 1 "$FAKE/scancel.log")" = 500 ]
	at 23:10; run --separate-stderr mirage-advise "${S[@]}" "${C[@]}"
	grep -qx 'handed	500' job.sh.chain
	grep -qx 'taking	-' job.sh.chain
	at 23:20; run --separate-stderr mirage-advise "${S[@]}" "${C[@]}"
	[ "$(wc -l < "$FAKE/scancel.log")" -eq 2 ]
	# without --handover, a running P is never touched
	rm -f job.sh.chain "$FAKE/scancel.log"
	echo '500|gpu|R|2026-11-21T23:00:00|2026-11-22T00:00:00|2-00:00:00|1|1000' >> "$FAKE/queue.txt"
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	sed -i 's/^901|gpu|PD|\(.*\)|N\/A|/901|gpu|R|\1|2026-11-23T23:00:00|/' "$FAKE/queue.txt"
	at 23:30; run --separate-stderr mirage-advise "${S[@]}" --scancel "$A/fake-scancel" -m "$M" -T -100 --submit job.sh
	[ ! -e "$FAKE/scancel.log" ]
}

@test "--report: each link's gap or overlap and lease from the accounting, against the promise" {
	# link 1: 500 -> 900, submitted an hour before 500's limit
	run -0 mirage-advise "${SUB[@]}" -j 500 -m "$M" -T 100 --submit job.sh
	head -n 2 job.sh.chain.links | tr '\t' ' ' > head.txt
	grep -qx 'mirage-chain-links 1.0' head.txt
	grep -qx 'pred succ submitted held rule promise handover crc32' head.txt
	[ "$(tail -n +3 job.sh.chain.links | cut -f1,2,5)" = "$(printf '500\t900\tmodel')" ]
	# 900 started 20 minutes before 500 ended: kept, 20 min beside it;
	# 500 ended 10 minutes before its limit (lease given up)
	cat > "$FAKE/sacct.txt" <<-'S'
	500|500|gpu|COMPLETED|2026-11-21T23:00:00|2026-11-22T00:00:00|2026-11-23T23:50:00|2-00:00:00|1
	900|900|gpu|RUNNING|2026-11-23T23:00:00|2026-11-23T23:30:00|Unknown|2-00:00:00|1
	S
	sed -i '/^500|/d; s/^900|gpu|PD|2026-11-22T10:00:00|N\/A|/900|gpu|R|2026-11-23T23:00:00|2026-11-23T23:30:00|/' "$FAKE/queue.txt"
	# link 2: the cron run moves the chain on and submits 901
	run -0 mirage-advise "${SUB[@]}" --now 2026-11-25T23:10:00 -m "$M" -T 100 --submit job.sh
	[[ "$output" == *"submitted: 901"* ]]
	# 901 started an hour after 900's end: a gap
	cat >> "$FAKE/sacct.txt" <<-'S'
	901|901|gpu|RUNNING|2026-11-25T23:10:00|2026-11-26T00:30:00|Unknown|2-00:00:00|1
	S
	sed -i 's/^900|.*/900|900|gpu|TIMEOUT|2026-11-23T23:00:00|2026-11-23T23:30:00|2026-11-25T23:30:00|2-00:00:00|1/' "$FAKE/sacct.txt"
	run -0 --separate-stderr mirage-advise --report --sacct "$A/fake-sacct" --now 2026-11-26T02:00:00 -F tsv job.sh.chain
	[ "${#lines[@]}" -eq 3 ]
	[ "$(cut -f2,3,10,11,12,13 <<< "${lines[1]}")" = "$(printf '500\t900\tkept\t0.0000\t0.3333\t0.1667')" ]
	[ "$(cut -f2,3,8,9,10,11 <<< "${lines[2]}")" = "$(printf '900\t901\t2026-11-25T23:30:00\t2026-11-26T00:30:00\tgap\t1.0000')" ]
	run -0 mirage-advise --report --sacct "$A/fake-sacct" --now 2026-11-26T02:00:00 -s job.sh.chain
	[[ "${lines[0]}" == "chain job.sh.chain: 2 links, 2 judged, 1 kept (50.0%), no promise stated" ]]
	[[ "${lines[1]}" == *"down 1.00 h in all, the longest 1.00 h; a kept link gave up 0.17 h of lease"* ]]
	# a successor not started after its predecessor's end: down until now
	sed -i '/^901|/d' "$FAKE/sacct.txt"
	echo '901|901|gpu|PENDING|2026-11-25T23:10:00|Unknown|Unknown|2-00:00:00|1' >> "$FAKE/sacct.txt"
	run -0 mirage-advise --report --sacct "$A/fake-sacct" --now 2026-11-26T02:00:00 -F tsv job.sh.chain
	[ "$(cut -f10,11 <<< "${lines[2]}")" = "$(printf 'down\t2.5000')" ]
	# a damaged link is found; sacct failing gives no report; bad use
	cp job.sh.chain.links kept.links
	sed -i '3s/\t900\t/\t909\t/' job.sh.chain.links
	run -4 --separate-stderr mirage-advise --report --sacct "$A/fake-sacct" job.sh.chain
	[[ "$stderr" == *"job.sh.chain.links': line 3: CRC32 mismatch"* ]]
	head -c -3 kept.links > job.sh.chain.links
	run -5 --separate-stderr mirage-advise --report --sacct "$A/fake-sacct" job.sh.chain
	[[ "$stderr" == *"line 4: cut short"* ]]
	cp kept.links job.sh.chain.links
	FAKE_MODE=sacct-down run -1 --separate-stderr mirage-advise --report --sacct "$A/fake-sacct" --retries 1 job.sh.chain
	[[ "$stderr" == *"no report on what cannot be read"* ]]
	[ -z "$output" ]
	run -2 --separate-stderr mirage-advise --report
	[[ "$stderr" == *"--report: which chains?"* ]]
	run -2 --separate-stderr mirage-advise --report -j 500 job.sh.chain
	[[ "$stderr" == *"--report reads chains' state files and sacct: no --submit, -j"* ]]
	run -2 --separate-stderr mirage-advise --report -s job.sh.chain other.chain
	[[ "$stderr" == *"--report: the chains' state files as operands, or one -s state"* ]]
	run -2 --separate-stderr mirage-advise -F tsv -j 500 -Q "$FAKE/queue.txt"
	[[ "$stderr" == *"-F tsv goes with --report"* ]]
	# a chain with no links yet: nothing judged
	run -0 mirage-advise --report --sacct "$A/fake-sacct" none.chain
	[[ "$output" == "chain none.chain: 0 links, 0 judged, 0 kept, no promise stated"* ]]
}

@test "a policy model (pg) decides over an episode's ticks, not at one: the reactive rule decides instead, said; many chains at once refuse it" {
	mirage-parse -q -o ls6.jobs "$ROOT/data/ls6-a100.log.gz"
	mirage-train -q -a pg --play 20 -n 76 -f 2022-12-01 -N 4 -k 1 -o pg.mrm ls6.jobs
	run -10 --separate-stderr mirage-advise -j 500 -m pg.mrm -n 8 -Q "$FAKE/queue.txt" --now $NOW
	[[ "$output" == *"note:     model 'pg.mrm': a pg model submits by the chance it has submitted since the predecessor's first tick"* ]]
	[[ "$output" == *"why:      without a model: submit when 500 ends"* ]]
	[[ "$stderr" == *"the reactive rule decided: model 'pg.mrm'"* ]]
	run -2 --separate-stderr mirage-eval -q --adoption 30 --adopt-method model -M pg.mrm --handover 10m -n 76 -f 2023-03-01 -N 2 ls6.jobs
	[[ "$stderr" == *"--adopt-method model: 'pg.mrm': a pg model submits by the chance"* ]]
}
