#!/usr/bin/env bats
# 0705-takeover.bats: the take-over and the cron run's fallback under the
# faults a service meets (tests/fixtures/advise/fake-slurm stands in for
# each): whatever fails, something runs the service, P is signalled at
# most once, and nothing is done on a guess.

setup() {
	load test_helper
	mg_setup
	mg_gbt 20
	mg_fake_slurm
	T=(--take-over --squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --scancel "$A/fake-scancel" --grace 2s --kill-wait 2s)
	SUB=(--squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --sbatch "$A/fake-sbatch" -n 8 -m "$M")
	signals() { grep -c -- '--signal' "$FAKE/scancel.log" 2>/dev/null || true; }
}

@test "P completing (S from the afterany fallback): nothing sent, S goes on at once" {
	sed -i 's/^500|gpu|R|/500|gpu|CG|/' "$FAKE/queue.txt"
	run -0 mirage-advise "${T[@]}" -j 500
	[[ "$output" == "take-over: job 500 is completing (it ended on its own): nothing to take over" ]]
	[ ! -e "$FAKE/scancel.log" ]
}

@test "P stuck completing after the signal (a slow epilog): S goes on after the grace" {
	FAKE_MODE=signal-completing run -0 mirage-advise "${T[@]}" -j 500
	[[ "$output" == "take-over: job 500 was sent SIGUSR1 and is completing (its processes have ended)" ]]
	[ "$(signals)" -eq 1 ]
}

@test "the accounting database down while P leaves: squeue's answer will do" {
	FAKE_MODE=sacct-down run -0 mirage-advise "${T[@]}" -j 500
	[[ "$output" == "take-over: job 500 was sent SIGUSR1 and left within its grace of 2 s" ]]
}

@test "a lost answer to a signal that was delivered is not sent again" {
	FAKE_MODE=signal-lost run -0 --separate-stderr mirage-advise "${T[@]}" -j 500
	[[ "$output" == "take-over: job 500 was sent SIGUSR1 and left within its grace of 2 s" ]]
	[ "$(signals)" -eq 1 ]
}

@test "a cancel whose answer is lost: P is seen gone, S goes on" {
	FAKE_MODE="signal-ignored cancel-lost" run -0 --separate-stderr mirage-advise "${T[@]}" -j 500
	[[ "$output" == "take-over: job 500 still ran after its grace of 2 s after SIGUSR1: cancelled" ]]
	[ "$(signals)" -eq 1 ]
	! grep -q '^500|' "$FAKE/queue.txt"
}

@test "Slurm unreadable after the signal: S goes on (exit 15), and says why" {
	# the signal is ignored, then squeue and sacct go down
	printf '#!/bin/sh\n"%s" "$@"; r=$?\ncase " $* " in *" --signal="*) touch "$FAKE/down" ;; esac\nexit $r\n' "$A/fake-scancel" > scancel
	printf '#!/bin/sh\n[ -e "$FAKE/down" ] && { echo "squeue: error: Unable to contact slurm controller" >&2; exit 1; }\nexec "%s" "$@"\n' "$A/fake-squeue" > squeue
	printf '#!/bin/sh\n[ -e "$FAKE/down" ] && { echo "sacct: error: Problem talking to the database" >&2; exit 1; }\nexec "%s" "$@"\n' "$A/fake-sacct" > sacct
	chmod +x scancel squeue sacct
	FAKE_MODE=signal-ignored run -15 --separate-stderr mirage-advise "${T[@]}" --retries 1 --scancel ./scancel --squeue ./squeue --sacct ./sacct -j 500
	[[ "$stderr" == *"take-over: job 500 was sent SIGUSR1 at "*"; whether it has left cannot be told: "*"sacct"* ]]
	[ "$(signals)" -eq 1 ]
}

@test "Slurm unreadable before the signal: nothing is done (P keeps the service)" {
	# squeue down and sacct without a record of P: not read as 'ended'
	: > "$FAKE/sacct.txt"
	FAKE_MODE=squeue-down run -1 --separate-stderr mirage-advise "${T[@]}" --retries 1 -j 500
	[[ "$stderr" == *"cannot tell whether job 500 runs: squeue"*"sacct has no record of job 500; it was not signalled"* ]]
	[ ! -e "$FAKE/scancel.log" ]
	# with the chain's state: the take-over stays recorded, unsignalled,
	# for the next cron run to give the chain back to P once S has left
	mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh > /dev/null
	MIRAGE_CHAIN_STATE=$PWD/job.sh.chain FAKE_MODE=squeue-down run -1 --separate-stderr mirage-advise "${T[@]}" --retries 1 -j 500
	[[ "$stderr" == *"take-over from job 500: cannot tell whether job 500 runs: "* ]]
	grep -qx 'taking	500' job.sh.chain
	grep -qx 'signalled	0' job.sh.chain
	[ ! -e "$FAKE/scancel.log" ]
}

@test "Slurm unreadable for a while before the signal: not a failed successor; looked at again, then P signalled" {
	: > "$FAKE/sacct.txt"
	# every other squeue fails: the first look cannot tell, the next can
	FAKE_MODE=squeue-flaky run -0 --separate-stderr mirage-advise "${T[@]}" --retries 1 -j 500
	[[ "$stderr" == *"cannot tell whether job 500 runs: "*"; looking again every 1 s for 2 s"* ]]
	[[ "$output" == *"take-over: job 500 "* ]]
	[ "$(signals)" -eq 1 ]
}

@test "two take-overs of one P without a chain's state (their own record): P is signalled once" {
	export XDG_RUNTIME_DIR=$PWD/run
	mkdir run
	# P ignores its signal: the first waits out its grace, then cancels
	FAKE_MODE=signal-ignored mirage-advise "${T[@]}" -j 500 > first.out 2>&1 &
	local pid=$!
	for i in $(seq 1 50); do [ "$(signals)" = 1 ] && break; sleep 0.1; done
	[ "$(signals)" -eq 1 ]
	# a second, meanwhile, reads the record the first keeps
	FAKE_MODE=signal-ignored run --separate-stderr mirage-advise "${T[@]}" -j 500
	wait $pid || :
	[ "$(signals)" -eq 1 ]
}

@test "a P that requeues itself on the signal is cancelled" {
	FAKE_MODE=signal-requeue run -0 mirage-advise "${T[@]}" -j 500
	[[ "$output" == "take-over: job 500 went back to pending after SIGUSR1 (it requeues itself): cancelled" ]]
	[ "$(cat "$FAKE/scancel.log")" = "$(printf -- '--signal=USR1 --batch 500\n--state=PENDING 500')" ]
	! grep -q '^500|' "$FAKE/queue.txt"
}

@test "a take-over killed midway is finished by the next without a second signal" {
	mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh > /dev/null
	export MIRAGE_CHAIN_STATE=$PWD/job.sh.chain
	FAKE_MODE=signal-ignored run -124 timeout 2 mirage-advise "${T[@]}" --grace 30s -j 500
	[ "$(signals)" -eq 1 ]
	grep -qx 'taking	500' job.sh.chain
	! grep -qx 'signalled	0' job.sh.chain
	# run again: the grace counts from the first signal
	FAKE_MODE=signal-ignored run -0 mirage-advise "${T[@]}" --grace 4s -j 500
	[[ "$output" == "take-over: job 500 still ran after its grace of 4 s after SIGUSR1: cancelled" ]]
	[ "$(signals)" -eq 1 ]
	grep -qx 'handed	500' job.sh.chain
}

@test "--take-over --dry-run signals nothing and records nothing" {
	mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh > /dev/null
	cp job.sh.chain before
	MIRAGE_CHAIN_STATE=$PWD/job.sh.chain run -0 mirage-advise "${T[@]}" -j 500 --dry-run
	[[ "$output" == "take-over: dry run: job 500 runs: it would be sent SIGUSR1, and cancelled if it still ran 2 s later" ]]
	[ ! -e "$FAKE/scancel.log" ]
	cmp before job.sh.chain
}

@test "an array named as P is refused; one of its tasks is taken over" {
	printf '600_1|gpu|R|2026-11-23T01:00:00|2026-11-23T02:00:00|2-00:00:00|1|1000\n600_2|gpu|R|2026-11-23T01:00:00|2026-11-23T02:00:00|2-00:00:00|1|1000\n' >> "$FAKE/queue.txt"
	run -1 --separate-stderr mirage-advise "${T[@]}" -j 600
	[[ "$stderr" == *"job 600 names several jobs (an array's tasks): name the one to stop, as 600_7"* ]]
	[ ! -e "$FAKE/scancel.log" ]
	run -0 mirage-advise "${T[@]}" -j 600_2
	[ "$(cat "$FAKE/scancel.log")" = "--signal=USR1 --batch 600_2" ]
	grep -q '^600_1|' "$FAKE/queue.txt"
}

@test "the serving order: P is signalled only once S's check passes; a check that never passes leaves P running (exit 16)" {
	( sleep 2; touch up ) &
	run -0 mirage-advise "${T[@]}" -j 500 --ready 'test -e up' --ready-time 30s
	wait
	[[ "$output" == "take-over: job 500 was sent SIGUSR1 and left within its grace of 2 s" ]]
	# the signal came after the check passed
	[ "$(stat -c %Y "$FAKE/scancel.log")" -ge "$(stat -c %Y up)" ]
	run -16 --separate-stderr mirage-advise "${T[@]}" -j 501 --ready 'echo loading >&2; false' --ready-time 2s
	[[ "$stderr" == *"take-over: the successor's check 'echo loading >&2; false' did not pass within 2 s (loading"*"): job 501 was left running"* ]]
	[ "$(signals)" -eq 1 ]
	grep -q '^501|' "$FAKE/queue.txt"
	# P ends while S still loads: nothing is left running, nothing to
	# hand over from; S goes on (0) rather than leaving (16)
	( sleep 1; sed -i '/^501|/d' "$FAKE/queue.txt" ) &
	run -0 --separate-stderr mirage-advise "${T[@]}" -j 501 --ready false --ready-time 3s
	wait
	[[ "$output" == *"job 501 has ended"* ]]
	[ "$(signals)" -eq 1 ]
}

@test "the lock is not held while P is waited for: a cron run meanwhile looks and waits for the grace" {
	mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh --handover > /dev/null
	now=$(date -u +%FT%T)
	sed -i "s/^900|gpu|PD|\(.*\)|N\/A|/900|gpu|R|\1|$now|/" "$FAKE/queue.txt"
	MIRAGE_CHAIN_STATE=$PWD/job.sh.chain FAKE_MODE=signal-ignored mirage-advise "${T[@]}" --grace 8s -j 500 > t.out &
	# P has had its signal: the take-over now waits out the grace
	for i in $(seq 100); do grep -qs USR1 "$FAKE/scancel.log" && break; sleep 0.1; done
	grep -qs USR1 "$FAKE/scancel.log"
	sleep 0.5
	SECONDS=0
	FAKE_MODE=signal-ignored run --separate-stderr mirage-advise "${SUB[@]}" --now "$now" --scancel "$A/fake-scancel" -T -100 --submit job.sh --handover
	[ "$SECONDS" -lt 6 ]
	[ "$status" -eq 10 ]
	# P signalled: the cron run looks, and leaves the cancel to the grace
	[[ "$stderr" == *"successor 900 runs: job 500 has had SIGUSR1 for "*" s of its 900 s"* ]]
	wait
	[[ "$(cat t.out)" == "take-over: job 500 still ran after its grace of 8 s after SIGUSR1: cancelled" ]]
	[ "$(signals)" -eq 1 ]
}

@test "the cron run leaves P alone when S has died; the chain's job is P again" {
	mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh --handover > /dev/null
	# 900 started at 23:00 and failed at 23:01 (a missing module); 500 runs
	sed -i '/^900|/d' "$FAKE/queue.txt"
	echo '900|900|gpu|FAILED|2026-11-23T23:00:00|2026-11-23T23:00:00|2026-11-23T23:01:00|2-00:00:00|1' > "$FAKE/sacct.txt"
	run -10 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-23T23:10:00 --scancel "$A/fake-scancel" -T -100 --submit job.sh --handover
	[[ "$stderr" == *"successor 900 started and ended (FAILED) while job 500 runs: 500 keeps the service; deciding again for it"* ]]
	[ ! -e "$FAKE/scancel.log" ]
	grep -qx 'current	500' job.sh.chain
	grep -qx 'failures	1' job.sh.chain
	# the next successor after the back-off
	run -0 mirage-advise "${SUB[@]}" --now 2026-11-23T23:12:00 -T 100 --submit job.sh --handover
	[[ "$output" == *"submitted: 901"* ]]
}

@test "a successor held by a per-user limit beside its running P is said" {
	mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh > /dev/null
	echo QOSMaxJobsPerUserLimit > "$FAKE/reason.900"
	run -11 --separate-stderr mirage-advise -q "${SUB[@]}" --now 2026-11-23T23:10:00 -T 100 --submit job.sh
	[[ "$stderr" == *"successor 900 is pending for a limit of yours (QOSMaxJobsPerUserLimit): it cannot start while job 500 runs"* ]]
	rm "$FAKE/reason.900"
	run -11 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-23T23:10:00 -T 100 --submit job.sh
	[[ "$stderr" != *"limit of yours"* ]]
}

@test "a queue of one's own jobs only is said (PrivateData=jobs)" {
	run -0 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100
	[[ "$stderr" == *"squeue and sacct show only your own jobs (2 queued): if the cluster hides other users' jobs (PrivateData=jobs in slurm.conf)"* ]]
	# it changes what the decision means: said under cron's -q too,
	# unless the rule decides without the queue (no model)
	run -0 --separate-stderr mirage-advise -q "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100
	[[ "$stderr" == *"only your own jobs (2 queued)"*"is blind to the queue"* ]]
	run --separate-stderr mirage-advise -q --squeue "$A/fake-squeue" --sacct "$A/fake-sacct" -n 8 --now 2026-11-23T23:00:00 -j 500
	[[ "$stderr" != *"only your own jobs"* ]]
	sed -i "1s/\$/|USER/; 2s/\$/|$(id -un)/; 3s/\$/|bob/" "$FAKE/queue.txt"
	run -0 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100
	[[ "$stderr" != *"only your own jobs"* ]]
}

@test "a lost submission is not made again while squeue answers empty and sacct cannot show a pending job's token" {
	FAKE_MODE=sbatch-lost run -1 mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh
	# P ends; the controller answers an empty queue; sacct is a 21.08's
	sed -i '/^500|/d' "$FAKE/queue.txt"
	echo '500|500|gpu|TIMEOUT|2026-11-21T23:00:00|2026-11-22T00:00:00|2026-11-24T00:00:00|2-00:00:00|1' > "$FAKE/sacct.txt"
	FAKE_MODE="squeue-empty sacct-old" run -1 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-24T00:05:00 -T 100 --submit job.sh
	[[ "$stderr" == *"is not confirmed and cannot be settled (squeue answers an empty queue, and sacct shows no submission lines (Slurm before 22.05))"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	# the controller back: the job is found in the queue, not submitted again
	run -11 mirage-advise "${SUB[@]}" --now 2026-11-24T00:10:00 -T 100 --submit job.sh
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	grep -qx 'successor	900' job.sh.chain
}

@test "S's output on a full file system: the take-over's status still says P is gone" {
	run -0 --separate-stderr sh -c "mirage-advise ${T[*]} -j 500 > /dev/full"
	[[ "$stderr" == *"stdout (the take-over's report is lost): No space left on device"* ]]
	! grep -q '^500|' "$FAKE/queue.txt"
}

@test "handover_train.py: the stop file is seen; a checkpoint that fails midway leaves the old one whole" {
	mkdir h && cd h
	cat > t.py <<-'PY'
	import os, sys
	sys.path.insert(0, sys.argv[1])
	import handover_train as h
	os.environ["HANDOVER_STOP_FILE"] = "stop"
	assert h.stop_requested() is False
	open("stop", "w").close()
	assert h.stop_requested() is True
	def good(obj, f): f.write(obj)
	h.save_atomic(b"step 7", "ck", save=good)
	def bad(obj, f):
	    f.write(b"half")
	    raise IOError("disk full")
	try:
	    h.save_atomic(b"step 8", "ck", save=bad)
	except IOError:
	    pass
	else:
	    raise AssertionError("no error")
	assert open("ck", "rb").read() == b"step 7"
	left = sorted(f for f in os.listdir(".") if f != "t.py")
	assert left == ["ck", "stop"], left
	assert h.load_newest("ck", load=lambda f: f.read()) == b"step 7"
	assert h.load_newest("none") is None
	# the fencing token: another link owns the checkpoint
	os.environ["HANDOVER_OWNER"] = "owner"
	os.environ["SLURM_JOB_ID"] = "41"
	open("owner", "w").write("41\n")
	h.save_atomic(b"step 9", "ck", save=good)
	open("owner", "w").write("42\n")
	try:
	    h.save_atomic(b"step 10", "ck", save=good)
	except h.Fenced as e:
	    assert "link 42 owns the checkpoint" in str(e), e
	else:
	    raise AssertionError("not fenced")
	assert open("ck", "rb").read() == b"step 9"
	assert sorted(f for f in os.listdir(".") if f != "t.py") == ["ck", "owner", "stop"]
	PY
	run -0 python3 t.py "$ROOT/pipelines"
}

@test "the service template: a link handed over writes no checkpoint once its successor owns it" {
	mkdir tools
	printf '#!/bin/sh\nexit 0\n' > tools/mirage-advise
	chmod +x tools/mirage-advise
	export SERVICE_DIR=$PWD/svc CKPT_EVERY=1 MIRAGE_BIN=$PWD/tools
	SLURM_JOB_ID=41 bash "$ROOT/pipelines/handover-service.sbatch" 2> p.err &
	pid=$!
	for i in $(seq 1 50); do [ -s svc/counter.ckpt ] && break; sleep 0.1; done
	[ "$(cat svc/owner)" = 41 ]
	# the successor takes over: P must stop without another write
	printf '42\n' > svc/owner
	last=$(cat svc/counter.ckpt)
	for i in $(seq 1 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	! kill -0 $pid 2>/dev/null
	wait $pid
	[ "$(cat svc/counter.ckpt)" -le $((last + 1)) ]
	grep -q 'link 42 owns the checkpoint: stopping without writing' p.err
	sleep 1.5
	[ "$(cat svc/counter.ckpt)" -le $((last + 1)) ]
}

@test "the templates find the tools that submitted them (MIRAGE_BIN), installed or not, and say when they cannot" {
	# a mirage-advise that records its call and refuses, so that the
	# link leaves at its first step
	mkdir tools
	printf '#!/bin/sh\necho "$*" >> "%s/called"\nexit 1\n' "$PWD" > tools/mirage-advise
	chmod +x tools/mirage-advise
	export SERVICE_DIR=$PWD/svc SERVE_CMD='sleep 60' READY_CMD=false LOAD_TIME=1s
	local t
	for t in handover-service handover-serving handover-ddp; do
		# a copy of the repository's template, PATH without the tools
		cp "$ROOT/pipelines/$t.sbatch" link.sbatch
		rm -f called
		run -1 env PATH=/usr/bin:/bin MIRAGE_BIN="$PWD/tools" MIRAGE_PREDECESSOR=500 bash link.sbatch
		grep -q -- '--take-over' called
		# nothing to find them by: said, and nothing started
		rm -f called
		run -1 --separate-stderr env -u MIRAGE_BIN PATH=/usr/bin:/bin MIRAGE_PREDECESSOR=500 bash link.sbatch
		[[ "$stderr" == "link.sbatch: mirage-advise not found (MIRAGE_BIN='', installed_bin='', PATH=/usr/bin:/bin): set MIRAGE_BIN to the tools' directory, or make install" ]]
		[ ! -e called ]
		# the installed copy names its directory
		sed "s|^installed_bin=\$|installed_bin=$PWD/tools|" "$ROOT/pipelines/$t.sbatch" > link.sbatch
		run -1 env -u MIRAGE_BIN PATH=/usr/bin:/bin MIRAGE_PREDECESSOR=500 bash link.sbatch
		grep -q -- '--take-over' called
	done
}

@test "the templates: no shared default directory; one they cannot write in is left before the take-over; a checkpoint not written fails the link" {
	mkdir tools
	printf '#!/bin/sh\necho "$*" >> "%s/called"\nexit 0\n' "$PWD" > tools/mirage-advise
	chmod +x tools/mirage-advise
	export MIRAGE_BIN=$PWD/tools SERVE_CMD='sleep 60' READY_CMD=false LOAD_TIME=1s
	local t
	for t in handover-service handover-serving handover-ddp; do
		rm -f called
		run -1 --separate-stderr env -u SERVICE_DIR bash "$ROOT/pipelines/$t.sbatch"
		[[ "$stderr" == *"SERVICE_DIR='': set it to this chain's own absolute directory"* ]]
		run -1 --separate-stderr env SERVICE_DIR=svc bash "$ROOT/pipelines/$t.sbatch"
		[[ "$stderr" == *"SERVICE_DIR='svc': set it to this chain's own absolute directory"* ]]
		# a directory no file can be written in (root writes anywhere
		# else): the predecessor is not touched
		run -1 --separate-stderr env SERVICE_DIR=/proc/self bash "$ROOT/pipelines/$t.sbatch"
		[[ "$stderr" == *"cannot write in /proc/self: this link leaves; its predecessor runs on"* ]]
		[ ! -e called ]
	done
	# the service's checkpoint cannot be written (a full disk): the link
	# fails, it does not exit 0 with its work lost
	mkdir -p fakebin
	printf '#!/bin/sh\ncase "$2" in *counter.ckpt) echo "mv: No space left on device" >&2; exit 1 ;; esac\nexec /bin/mv "$@"\n' > fakebin/mv
	chmod +x fakebin/mv
	SLURM_JOB_ID=61 SERVICE_DIR=$PWD/svc CKPT_EVERY=1 PATH=$PWD/fakebin:$PATH run -1 --separate-stderr timeout 20 bash "$ROOT/pipelines/handover-service.sbatch"
	[[ "$stderr" == *"the checkpoint at step 1 cannot be written in $PWD/svc: this link failed"* ]]
	# the serving template with no predecessor and a server never
	# healthy: gives up after its load time
	SLURM_JOB_ID=62 SERVICE_DIR=$PWD/svc2 run -1 --separate-stderr timeout 30 bash "$ROOT/pipelines/handover-serving.sbatch"
	[[ "$stderr" == *"the server did not pass its check within 1s"*"this link failed"* ]]
}

@test "the serving template: a server that dies on its own fails the link; one told to stop ends it well" {
	mkdir tools
	printf '#!/bin/sh\nexit 0\n' > tools/mirage-advise
	chmod +x tools/mirage-advise
	export SERVICE_DIR=$PWD/svc MIRAGE_BIN=$PWD/tools READY_CMD=true DRAIN_TIME=0 SERVE_HOST=h SERVE_PORT=1
	# the server exits after 2 s by itself
	SLURM_JOB_ID=51 SERVE_CMD='sleep 2' run -1 --separate-stderr bash "$ROOT/pipelines/handover-serving.sbatch"
	[[ "$stderr" == *"the server exited on its own"*"this link failed"* ]]
	grep -qx 'h:1 51' svc/endpoint
	# told to stop (its successor took over): drained, exit 0
	SLURM_JOB_ID=52 SERVE_CMD='sleep 60' bash "$ROOT/pipelines/handover-serving.sbatch" 2> s.err &
	pid=$!
	for i in $(seq 1 50); do grep -qx 'h:1 52' svc/endpoint 2>/dev/null && break; sleep 0.1; done
	kill -USR1 $pid
	wait $pid
}

@test "hygiene: a chain's directory with a comma reaches the successor whole; --ready on a cron run is refused; a hung check is killed with its children" {
	# a comma in the state's path: in sbatch's environment, not in
	# --export's list, where Slurm would split it
	mkdir 'a,b'
	cp job.sh 'a,b/job.sh'
	run -0 mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit 'a,b/job.sh'
	grep -qx -- "MIRAGE_PREDECESSOR=500 MIRAGE_CHAIN_STATE=$PWD/a,b/job.sh.chain MIRAGE_BIN=$MIRAGE_BIN" "$FAKE/sbatch.env"
	grep -q -- "--export=ALL --chdir=$PWD a,b/job.sh$" "$FAKE/sbatch.log"
	# an option that would do nothing is refused
	run -2 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --ready true
	[[ "$stderr" == *"--ready and --ready-time go with --take-over"* ]]
	run -2 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --ready-time 5m
	[[ "$stderr" == *"--ready and --ready-time go with --take-over"* ]]
	# a check that hangs, with a child of its own, and prints a lot
	run -16 --separate-stderr mirage-advise "${T[@]}" -j 500 --ready "yes | head -c 100000000; sleep 300 & echo \$! > child; wait" --ready-time 2s
	[[ "$stderr" == *"did not pass within 2 s"* ]]
	! kill -0 "$(cat child)" 2>/dev/null
	[ ! -e "$FAKE/scancel.log" ]
}

@test "a slurmdbd hours behind and an empty queue: a lost submission is not made again until sacct records a later one" {
	FAKE_MODE=sbatch-lost run -1 mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh
	sed -i '/^500|/d' "$FAKE/queue.txt"
	echo '500|500|gpu|TIMEOUT|2026-11-21T23:00:00|2026-11-22T00:00:00|2026-11-24T00:00:00|2-00:00:00|1' > "$FAKE/sacct.txt"
	# 65 minutes on: the queue answers empty, sacct has nothing after
	FAKE_MODE="squeue-empty sacct-lag" run -1 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-24T00:05:00 -T 100 --submit job.sh
	[[ "$stderr" == *"cannot be settled (squeue answers an empty queue, and sacct has recorded no job submitted after it yet (slurmdbd may lag))"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	# sacct catches up past it (another job submitted later): the
	# submission was lost, and is made again, once
	echo '777|777|gpu|COMPLETED|2026-11-23T23:30:00|2026-11-23T23:31:00|2026-11-23T23:40:00|1:00:00|1' >> "$FAKE/sacct.txt"
	sed -i '/^900 /d' "$FAKE/comments"
	FAKE_MODE="squeue-empty sacct-lag" run -0 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-24T00:10:00 -T 100 --submit job.sh
	[[ "$stderr" == *"is in neither squeue nor sacct: trying again"* ]]
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 2 ]
}

@test "a heterogeneous job named by its id is one job: signalled once, whole; an array's tasks are not" {
	now=2026-11-23T20:00:00
	printf '600+0|gpu|R|%s|%s|2-00:00:00|1|1000\n600+1|gpu|R|%s|%s|2-00:00:00|2|1000\n' $now $now $now $now >> "$FAKE/queue.txt"
	run -0 mirage-advise "${T[@]}" -j 600
	[[ "$output" == "take-over: job 600 was sent SIGUSR1 and left within its grace of 2 s" ]]
	[ "$(cat "$FAKE/scancel.log")" = "--signal=USR1 --batch 600" ]
	printf '700_1|gpu|R|%s|%s|2-00:00:00|1|1000\n700_2|gpu|R|%s|%s|2-00:00:00|1|1000\n' $now $now $now $now >> "$FAKE/queue.txt"
	run -1 --separate-stderr mirage-advise "${T[@]}" -j 700
	[[ "$stderr" == *"job 700 names several jobs (an array's tasks)"* ]]
}

@test "what Slurm confirmed, not what was tried: a signal or a cancel that never reached the controller is sent again; an sbatch refused leaves no token" {
	# the signal refused in a blip: sent again at once (a refusal is
	# not an act), so nothing waits for the next step
	MIRAGE_CHAIN_STATE= FAKE_MODE=scancel-refused-once run -0 --separate-stderr mirage-advise "${T[@]}" -j 500
	[[ "$stderr" != *"sent again at the next step"* ]]
	[[ "$output" == "take-over: job 500 was sent SIGUSR1 and left within its grace of 2 s" ]]
	[ "$(grep -c -- '--signal=USR1' "$FAKE/scancel.log")" -eq 2 ]
	# a P that ignores its signal, and a cancel refused in a blip: the
	# cancel is made again at the next step
	: > "$FAKE/scancel.log"
	FAKE_MODE="signal-ignored cancel-refused-once" run -0 --separate-stderr mirage-advise "${T[@]}" -j 501 --retries 1
	[[ "$stderr" == *"job 501 still runs "*" after SIGUSR1 and the cancel failed ("*"connect failure)"*"it is cancelled again at the next step"* ]]
	[[ "$output" == "take-over: job 501 still ran after its grace of 2 s after SIGUSR1: cancelled" ]]
	! grep -q '^501|' "$FAKE/queue.txt"
	[ "$(grep -c -- '--signal' "$FAKE/scancel.log")" -eq 1 ]
	[ "$(grep -cx -- '501' "$FAKE/scancel.log")" -eq 2 ]
	# sbatch out of reach: nothing was queued, so nothing is awaited
	mg_fake_slurm
	FAKE_MODE=sbatch-refused run -1 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh
	[[ "$stderr" == *"connect failure); nothing was queued: the next run submits again"* ]]
	grep -qx 'token	-' job.sh.chain
}

@test "a take-over that stops before the signal keeps its record: the next cron run, with no model, gives the chain back to P" {
	mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh --handover > /dev/null
	grep -qx 'successor	900' job.sh.chain
	# S starts; a cron run makes it the chain's job, its take-over due
	sed -i 's/^900|gpu|PD|\([^|]*\)|N\/A|/900|gpu|R|\1|2026-11-23T23:20:00|/' "$FAKE/queue.txt"
	run -10 mirage-advise "${SUB[@]}" --now 2026-11-23T23:21:00 -T -100 --submit job.sh --handover
	grep -qx 'current	900' job.sh.chain
	grep -qx 'taking	500' job.sh.chain
	# S's take-over cannot read Slurm: it stops, P untouched
	MIRAGE_CHAIN_STATE=$PWD/job.sh.chain FAKE_MODE=squeue-down run -1 mirage-advise "${T[@]}" --retries 1 -j 500
	grep -qx 'taking	500' job.sh.chain
	# S leaves; the next cron run (no model: no history is read) finds
	# it ended beside a running P, and gives the chain back
	sed -i '/^900|/d' "$FAKE/queue.txt"
	echo '900|900|gpu|FAILED|2026-11-23T23:00:00|2026-11-23T23:20:00|2026-11-23T23:22:00|2-00:00:00|1' >> "$FAKE/sacct.txt"
	run --separate-stderr mirage-advise --squeue "$A/fake-squeue" --sacct "$A/fake-sacct" --sbatch "$A/fake-sbatch" \
	    --scancel "$A/fake-scancel" -n 8 --now 2026-11-23T23:25:00 --submit job.sh --handover
	[[ "$stderr" == *"successor 900 started and ended (FAILED) while job 500 runs: 500 keeps the service"* ]]
	grep -qx 'current	500' job.sh.chain
	[ "$(wc -l < "$FAKE/sbatch.log")" -eq 1 ]
	[ ! -e "$FAKE/scancel.log" ]
}

@test "a chain's jobs are known by id in any partition; a successor Slurm held after its launch failed is replaced" {
	# P runs in another partition than -p's
	sed -i 's/^500|gpu|/500|gpu-long|/' "$FAKE/queue.txt"
	echo '500|500|gpu-long|RUNNING|2026-11-21T23:00:00|2026-11-22T00:00:00|Unknown|2-00:00:00|1' > "$FAKE/sacct.txt"
	run -0 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -p gpu -j 500 -T 100 --submit job.sh
	[[ "$output" == *"decision: submitted"* ]]
	grep -qx 'successor	900' job.sh.chain
	# Slurm holds it: the next run cancels it, counts it, decides again
	echo 'launch failed requeued held' > "$FAKE/reason.900"
	run --separate-stderr mirage-advise "${SUB[@]}" --scancel "$A/fake-scancel" --now 2026-11-23T23:30:00 -p gpu -T 100 --submit job.sh
	[[ "$stderr" == *"successor 900 was held by Slurm after its launch failed: cancelled; deciding again for job 500"* ]]
	grep -qx -- '900' "$FAKE/scancel.log"
	grep -qx 'failures	1' job.sh.chain
	# a hold of the user's is said, and left alone
	run --separate-stderr mirage-advise "${SUB[@]}" --scancel "$A/fake-scancel" --now 2026-11-23T23:45:00 -p gpu -T 100 --submit job.sh
	s=$(sed -n 's/^successor\t//p' job.sh.chain)
	[ -n "$s" ] && [ "$s" != 900 ]
	echo 'JobHeldUser' > "$FAKE/reason.$s"
	run --separate-stderr mirage-advise "${SUB[@]}" --scancel "$A/fake-scancel" --now 2026-11-23T23:50:00 -p gpu -T 100 --submit job.sh
	[[ "$stderr" == *"successor $s is held (JobHeldUser): it starts only once released (scontrol release $s)"* ]]
	grep -qx "successor	$s" job.sh.chain
}

@test "a host's clock behind Slurm's: the run takes Slurm's time and says so" {
	# Slurm's clock two hours ahead of this host's: P started an hour
	# ago by it, a job was submitted a minute ago
	ahead() { date -u -d "@$(($(date +%s) + 7200 - $1))" +%FT%T; }
	{
		echo 'JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|PRIORITY'
		echo "500|gpu|R|$(ahead 3700)|$(ahead 3600)|2-00:00:00|1|1000"
		echo "600|gpu|PD|$(ahead 60)|N/A|1:00:00|1|1000"
	} > "$FAKE/queue.txt"
	run -10 --separate-stderr mirage-advise --squeue "$A/fake-squeue" --sacct "$A/fake-sacct" -z UTC -n 8 -j 500
	[[ "$stderr" == *"this host's clock is at least 71"*" s behind Slurm's (jobs submitted, started or ended after it): the run takes Slurm's time; set the clock (NTP)"* ]]
	[[ "$output" == *"job:      500 running, ends by "*"(47.0 h left)"* ]]
}

@test "P handed over, requeued by Slurm and started again before a run saw it pending: taken over again, once" {
	mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --submit job.sh --handover > /dev/null
	sed -i 's/^900|gpu|PD|\([^|]*\)|N\/A|/900|gpu|R|\1|2026-11-23T23:20:00|/' "$FAKE/queue.txt"
	MIRAGE_CHAIN_STATE=$PWD/job.sh.chain run -0 mirage-advise "${T[@]}" -j 500
	grep -qx 'handed	500' job.sh.chain
	[ "$(signals)" -eq 1 ]
	# a node fails as 500 checkpoints: Slurm requeues it, and it starts
	# again before any cron run sees it pending
	echo '500|gpu|R|2026-11-21T23:00:00|2026-11-23T23:40:00|2-00:00:00|1|1000' >> "$FAKE/queue.txt"
	run -10 --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-23T23:45:00 --scancel "$A/fake-scancel" -T -100 --submit job.sh --handover
	[[ "$stderr" == *"job 500, handed over to 900, started again (requeued by Slurm) and serves beside it: it is taken over again"* ]]
	[ "$(signals)" -eq 2 ]
	# the next run finds it gone, and signals nothing more
	run --separate-stderr mirage-advise "${SUB[@]}" --now 2026-11-23T23:50:00 --scancel "$A/fake-scancel" -T -100 --submit job.sh --handover
	[ "$(signals)" -eq 2 ]
	grep -qx 'handed	500' job.sh.chain
}

@test "P and S both requeued by Slurm, P running again: P is the chain's job again, S its successor, held against P's new start" {
	mirage-advise "${SUB[@]}" --now 2026-11-23T23:00:00 -j 500 -T 100 --min-run 50% --submit job.sh --handover > /dev/null
	sed -i 's/^900|gpu|PD|\([^|]*\)|N\/A|/900|gpu|R|\1|2026-11-23T23:20:00|/' "$FAKE/queue.txt"
	MIRAGE_CHAIN_STATE=$PWD/job.sh.chain run -0 mirage-advise "${T[@]}" -j 500
	grep -qx 'handed	500' job.sh.chain
	cp job.sh.chain early.chain
	run -10 mirage-advise "${SUB[@]}" --now 2026-11-23T23:25:00 -T -100 --min-run 50% --submit job.sh --handover
	grep -qx 'current	900' job.sh.chain
	# a node fails: Slurm requeues S (pending again) and P, which
	# starts again before S
	sed -i 's/^900|gpu|R|\([^|]*\)|[^|]*|/900|gpu|PD|\1|N\/A|/' "$FAKE/queue.txt"
	echo '500|gpu|R|2026-11-21T23:00:00|2026-11-23T23:40:00|2-00:00:00|1|1000' >> "$FAKE/queue.txt"
	again=(-q "${SUB[@]}" --scontrol "$A/fake-scontrol" --now 2026-11-23T23:45:00 --scancel "$A/fake-scancel" -T -100 --min-run 50% --submit job.sh --handover)
	run -11 --separate-stderr mirage-advise "${again[@]}"
	[[ "$stderr" == *"job 500, handed over to 900, started again (requeued by Slurm) while 900 is pending again: 500 is the chain's job again, 900 its successor"* ]]
	grep -qx 'current	500' job.sh.chain
	grep -qx 'successor	900' job.sh.chain
	grep -qx 'handed	-' job.sh.chain
	grep -qx "update JobId=900 StartTime=uts$(date -d 2026-11-24T23:40:00 +%s)" "$FAKE/scontrol.log"
	[ "$(signals)" -eq 1 ]
	# the same, handed over before any run saw S start: P is no longer
	# taken for one handed over
	cp job.sh.chain rewound.chain
	cp early.chain job.sh.chain
	run -11 --separate-stderr mirage-advise "${again[@]}"
	[[ "$stderr" == *"job 500, handed over to 900, started again (requeued by Slurm) while 900 is pending again: 500 keeps the service until 900 takes over from it"* ]]
	grep -qx 'handed	-' job.sh.chain
	grep -qx 'current	500' job.sh.chain
	# S starts at its begin time and takes over from P's new run
	sed -i 's/^900|gpu|PD|\([^|]*\)|N\/A|/900|gpu|R|\1|2026-11-24T23:40:00|/' "$FAKE/queue.txt"
	MIRAGE_CHAIN_STATE=$PWD/job.sh.chain run -0 mirage-advise "${T[@]}" -j 500
	[ "$(signals)" -eq 2 ]
	grep -qx 'handed	500' job.sh.chain
}
