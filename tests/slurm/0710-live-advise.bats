#!/usr/bin/env bats
# 0710-live-advise.bats: mirage-advise on a live Slurm: it reads the real
# squeue, and a chain driven by it in a cron-like loop submits each
# successor exactly once, every job runs, and failing or killed sbatch
# runs are reported and retried without a duplicate; a job Slurm
# requeues is said to be, and gets no successor while it waits.  Run by
# tests/slurm/run-live.sh.

setup() {
	load ../bats/test_helper
	mg_setup
	: "${MIRAGE_TAG:?run through tests/slurm/run-live.sh}"
	mg_gbt 40
	T=${MIRAGE_TAG}_adv$BATS_TEST_NUMBER
	link() { # link FILE [EXTRA #SBATCH LINE]: a chain's batch script
		printf '#!/bin/bash\n#SBATCH -J %s\n#SBATCH -p gpu\n#SBATCH -N 1\n#SBATCH -t 1\n#SBATCH -o /dev/null\n#SBATCH -D /tmp\n%s\nsleep %s\n' \
		    "$T" "${2:-}" "${3:-8}" > "$1"
	}
	ours() { squeue -h -a -n "$T" -o %i | sort; }
	running() { # running JOBID: wait until it runs
		for _ in $(seq 1 30); do
			[ "$(squeue -h -j "$1" -o %t)" = R ] && return 0
			sleep 1
		done
		return 1
	}
	settle() { # wait until no job of this test is pending or running
		for _ in $(seq 1 120); do
			[ -z "$(squeue -h -n "$T" -t PD,R,CG -o %i)" ] && return 0
			sleep 1
		done
		return 1
	}
}

teardown() {
	scancel -n "$T" 2>/dev/null || true
	[ -z "${DRAINED:-}" ] || scontrol update NodeName="$DRAINED" State=RESUME 2>/dev/null || true
}

@test "live: it reads the real squeue and decides for a running job" {
	link p.sh "" 30
	p=$(sbatch --parsable p.sh)
	running "$p"
	run -0 --separate-stderr mirage-advise -F json -p gpu -n 2 -m "$M" -T 100 -j "$p"
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["job_state"] == "running" and d["rule"] == "model", d
assert 0 < d["job_left_h"] <= 1 / 60 + 1e-4, d  # printed to 4 digits
' "$output"
	run -10 mirage-advise -p gpu -n 2 -m "$M" -T -100 -j "$p"
	[[ "$output" == *"job:      $p running"* ]]
}

@test "live: a chain driven from a loop submits each successor once, and all run" {
	link link.sh
	first=$(sbatch --parsable link.sh)
	for i in $(seq 1 120); do
		n=$(sed -n 's/^submitted\t//p' link.sh.chain 2>/dev/null || echo 0)
		[ "${n:-0}" -ge 2 ] && break
		mirage-advise -q -p gpu -n 2 -m "$M" -T 0.01 -j "$first" --submit link.sh >> advise.log 2>&1 || true
		sleep 1
	done
	settle
	grep 'submitted: ' advise.log | sort | uniq -d > dups
	[ ! -s dups ]
	[ "$(grep -c '^submitted: ' advise.log)" -eq 2 ]
	# three jobs of this chain, each ran to completion
	sacct -a -X -n -P -S now-1hour --name="$T" -o JobID,State > acct
	[ "$(wc -l < acct)" -eq 3 ]
	[ "$(cut -d'|' -f2 acct | sort -u)" = COMPLETED ]
}

@test "live: a chain started in its directory and driven by cron runs elsewhere runs links 2 and 3 there" {
	here=$PWD
	chmod 755 "$here"
	# no #SBATCH -D: each link runs where sbatch puts it, and says where
	printf '#!/bin/bash\n#SBATCH -J %s\n#SBATCH -p gpu\n#SBATCH -N 1\n#SBATCH -t 1\n#SBATCH -o /dev/null\npwd >> %s/where\nsleep 5\n' \
	    "$T" "$here" > link.sh
	first=$(sbatch --parsable link.sh)
	running "$first"
	# the first run, by hand, in the chain's directory
	mirage-advise -q -p gpu -n 2 -m "$M" -T -100 -j "$first" --submit "$here/link.sh" > advise.log 2>&1 || true
	grep -qx "workdir	$here" link.sh.chain
	# then cron's: from another directory, naming no job
	mkdir -p /tmp/$T.cron && cd /tmp/$T.cron
	for i in $(seq 1 120); do
		n=$(sed -n 's/^submitted\t//p' "$here/link.sh.chain")
		[ "${n:-0}" -ge 2 ] && break
		mirage-advise -q -p gpu -n 2 -m "$M" -T 0.01 --submit "$here/link.sh" >> "$here/advise.log" 2>&1 || true
		sleep 1
	done
	cd "$here"
	rm -rf /tmp/$T.cron
	settle
	[ "$(grep -c '^submitted: ' advise.log)" -eq 2 ]
	# three links, each ran in the chain's directory
	[ "$(wc -l < where)" -eq 3 ]
	[ "$(sort -u where)" = "$here" ]
	# the chain's report: both links judged from the accounting, each
	# successor's start against its predecessor's end
	run -0 mirage-advise --report -F tsv link.sh.chain
	[ "${#lines[@]}" -eq 3 ]
	for i in 1 2; do
		case $(cut -f10 <<< "${lines[$i]}") in
		kept|gap) ;;
		*) echo "${lines[$i]}"; return 1 ;;
		esac
		[ "$(cut -f8 <<< "${lines[$i]}")" != - ] && [ "$(cut -f9 <<< "${lines[$i]}")" != - ]
	done
	run -0 mirage-advise --report link.sh.chain
	[[ "${lines[0]}" == "chain link.sh.chain: 2 links, 2 judged, "* ]]
}

@test "live: --lead, --min-run and --low by a user without privileges: S held and behind every other job while P runs; both lifted once P has ended" {
	# the lab's user nobody, in a directory of its own, with a copy of
	# the tool it can run wherever the build is
	sacctmgr -i add user nobody Account=lab > /dev/null 2>&1 || :
	d=$(mktemp -d /tmp/mirage-user.XXXXXX)
	chmod 777 "$d"
	mkdir "$d/bin"
	install -m 755 "$MIRAGE_BIN/mirage-advise" "$d/bin/"
	as() { runuser -u nobody -- env SLURM_CONF="$SLURM_CONF" PATH="$d/bin:$PATH" "$@"; }
	cd "$d"
	link p.sh "" 60
	link s.sh "" 5
	chmod 644 p.sh s.sh
	p=$(as sbatch --parsable p.sh)
	running "$p"
	# P's limit is a minute: S is due at once (--lead 2m), held until P
	# has run 99% of it and submitted with the largest nice
	run -0 as mirage-advise -p gpu -n 2 -j "$p" --lead 2m --min-run 99% --low --submit s.sh
	s=$(sed -n 's/^successor\t//p' s.sh.chain)
	[ -n "$s" ] && [ "$s" != - ]
	[ "$(squeue -h -j "$s" -o %u)" = nobody ]
	[ "$(squeue -h -j "$s" -o %y)" = 2147483645 ]
	# held: not eligible before a time to come
	el=$(scontrol show job "$s" | sed -n 's/.*EligibleTime=\([^ ]*\).*/\1/p')
	[ "$(date -d "$el" +%s)" -gt "$(date +%s)" ]
	# P ends early: the next run lifts both, and S starts before the
	# begin time it was held until
	as scancel "$p"
	for _ in $(seq 1 30); do
		[ -z "$(squeue -h -j "$p" -t R,CG -o %i)" ] && break
		sleep 1
	done
	run -11 --separate-stderr as mirage-advise -q -p gpu -n 2 --lead 2m --min-run 99% --low --submit s.sh
	[[ "$stderr" == *"successor $s no longer waits behind other jobs (nice 0)"* ]]
	[[ "$stderr" == *"job $p ended before its minimum run: successor $s is no longer held"* ]]
	[ "$(squeue -h -j "$s" -o %y)" = 0 ]
	grep -qx 'held_until	0' s.sh.chain && grep -qx 'nice	0' s.sh.chain
	# its begin was P's start + 59 s: it runs well before (30 s at most
	# from here, a few seconds after P's start)
	running "$s"
	# what needs an administrator: a priority above its submission's
	run -1 as scontrol update JobId="$s" Nice=-1
	[[ "$output" == *"Access/permission denied"* ]]
	cd /
	rm -rf "$d"
}

@test "live: without a model, the successor is submitted once its predecessor ended" {
	link link.sh "" 5
	first=$(sbatch --parsable link.sh)
	for i in $(seq 1 60); do
		rc=0
		mirage-advise -p gpu -n 2 -j "$first" --submit link.sh >> advise.log 2>&1 || rc=$?
		[ "$rc" -eq 0 ] && break
		[ "$rc" -eq 10 ]
		sleep 1
	done
	[ "$rc" -eq 0 ]
	grep -q "$first has ended" advise.log
	# the successor was submitted after the predecessor's end
	s=$(sed -n 's/^successor\t//p' link.sh.chain)
	settle
	end=$(sacct -n -X -P -j "$first" -o End)
	sub=$(sacct -n -X -P -j "$s" -o Submit)
	[[ "$sub" > "$end" || "$sub" == "$end" ]]
}

@test "live: a chain's job requeued by Slurm (a preemption, a node failure) is said to be, even under -q, and no successor is submitted for it" {
	link link.sh "#SBATCH --requeue" 120
	first=$(sbatch --parsable link.sh)
	running "$first"
	# a run sees it run, and keeps its start
	run -10 mirage-advise -p gpu -n 2 -m "$M" -T -100 -j "$first" --submit link.sh
	grep -q "^current_start	[1-9][0-9]*$" link.sh.chain
	scontrol requeue "$first"
	for _ in $(seq 1 30); do
		[ "$(squeue -h -j "$first" -o %t)" = PD ] && break
		sleep 1
	done
	[ "$(squeue -h -j "$first" -o %t)" = PD ]
	# the model would submit now: the run waits, and says why
	run -10 --separate-stderr mirage-advise -q -p gpu -n 2 -m "$M" -T 100 --submit link.sh
	[[ "$stderr" == *"job $first, the chain's job, ran from "*" and is pending again: Slurm requeued it (a preemption or a node failure, not its limit)"* ]]
	grep -qx "successor	-" link.sh.chain
	[ "$(ours)" = "$first" ]
}

@test "live: a failing sbatch is reported and retried; a killed one is not duplicated" {
	link bad.sh "#SBATCH --partition=no_such_partition"
	p=$(sbatch --parsable --wrap 'sleep 30' -J "$T" -p gpu -t 1 -o /dev/null -D /tmp)
	running "$p"
	run -1 --separate-stderr mirage-advise -p gpu -n 2 -m "$M" -T 100 -j "$p" --submit bad.sh
	[[ "$stderr" == *"sbatch of 'bad.sh' failed: sbatch: error: "*"the next run looks for it in the queue"* ]]
	[ "$(ours | wc -l)" -eq 1 ]
	link bad.sh
	run -0 mirage-advise -p gpu -n 2 -m "$M" -T 100 --submit bad.sh
	[ "$(ours | wc -l)" -eq 2 ]
	# a wrapper that lets sbatch submit, then dies before saying so
	printf '#!/bin/sh\nsbatch "$@" > /dev/null\nkill -9 $$\n' > die.sh
	chmod +x die.sh
	link k.sh
	run -1 --separate-stderr mirage-advise -p gpu -n 2 -m "$M" -T 100 -j "$p" --sbatch ./die.sh --submit k.sh
	[[ "$stderr" == *"was killed"* ]]
	[ "$(ours | wc -l)" -eq 3 ]
	run -11 --separate-stderr mirage-advise -p gpu -n 2 -m "$M" -T 100 --submit k.sh
	[[ "$stderr" == *"was found as job "* ]]
	[ "$(ours | wc -l)" -eq 3 ]
	# the same fault, then a controller that answers an empty queue:
	# slurmdbd's record of the job's comment settles it
	link k2.sh
	run -1 --separate-stderr mirage-advise -p gpu -n 2 -m "$M" -T 100 -j "$p" --sbatch ./die.sh --submit k2.sh
	[ "$(ours | wc -l)" -eq 4 ]
	printf '#!/bin/sh
exit 0
' > empty.sh
	chmod +x empty.sh
	for i in 1 2 3 4 5 6 7 8 9 10; do
		sacct -a -X -n -P -o SubmitLine | grep -q "$(sed -n 's/^token\t//p' k2.sh.chain)" && break
		sleep 1
	done
	run -11 --separate-stderr mirage-advise -p gpu -n 2 -m "$M" -T 100 --squeue ./empty.sh --submit k2.sh
	[[ "$stderr" == *"was found as job "* ]]
	[ "$(ours | wc -l)" -eq 4 ]
}

@test "live: the planner reads the nodes' events from slurmdbd (sacctmgr show event)" {
	# P runs on one of the gpu partition's two nodes; the other is
	# drained: the planner sees 1 of 2 nodes up
	p=$(sbatch --parsable --wrap 'sleep 60' -J "$T" -p gpu -t 2 -o /dev/null -D /tmp)
	running "$p"
	DRAINED=$(sinfo -h -p gpu -N -o '%N %t' | awk '$2 == "idle" { print $1; exit }')
	[ -n "$DRAINED" ]
	scontrol update NodeName="$DRAINED" State=DRAIN Reason=mirage-test
	# the controller sends the event on to slurmdbd
	for _ in $(seq 1 30); do
		sacctmgr -n -P show event Event=Node Nodes="$DRAINED" format=NodeName,TimeEnd | grep -qx "$DRAINED|Unknown" && break
		sleep 1
	done
	sacctmgr -n -P show event Event=Node Nodes="$DRAINED" format=NodeName,TimeEnd | grep -qx "$DRAINED|Unknown"
	# four weeks of history the planner can learn from (LS6's jobs)
	{
		echo 'JobID|Partition|State|Submit|Start|End|TimelimitRaw|NNodes|User'
		zcat "$ROOT/data/ls6-a100.log.gz" | awk -F'\t' 'NF >= 10 && $1 ~ /^[0-9]+$/ && n++ < 300 { print $1 "|gpu|COMPLETED|" $5 "|" $4 "|" $6 "|" $8 "|" $10 "|u" $3 }'
	} > hist.txt
	run --separate-stderr mirage-advise -p gpu -n 2 -H hist.txt --plan 8 -j "$p"
	scontrol update NodeName="$DRAINED" State=RESUME
	[[ "$output" == *"why:      in 8 futures drawn from the queue and the last 4 weeks, 1 of 2 nodes up: "* ]]
	# LS6's jobs are years old: said, and nothing else
	[[ "$stderr" == *"the history (-H) ends at "* ]]
	[ -z "$(grep -v 'the history (-H) ends at ' <<< "$stderr")" ]
}
