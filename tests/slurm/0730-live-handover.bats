#!/usr/bin/env bats
# 0730-live-handover.bats: a chain that hands over, on a live Slurm: three
# jobs of pipelines/handover-service.sbatch (a counting service that
# checkpoints on SIGUSR1), each successor submitted early by
# mirage-advise --submit and taking over with mirage-advise --take-over.
# sacct shows each predecessor ended within the grace after its
# successor started; the counter has no gap and no repeat.  Run by
# tests/slurm/run-live.sh.

setup() {
	load ../bats/test_helper
	mg_setup
	: "${MIRAGE_TAG:?run through tests/slurm/run-live.sh}"
	mg_gbt 40
	T=${MIRAGE_TAG}_ho$BATS_TEST_NUMBER
}

@test "live handover: three links of a counting service; each P leaves within the grace after S starts; no gap, no repeat" {
	export SERVICE_DIR=$BATS_TEST_TMPDIR/svc MIRAGE_GRACE=30s
	mkdir -p "$SERVICE_DIR"
	chmod 777 "$SERVICE_DIR"
	sed -e "s/^#SBATCH -J service/#SBATCH -J $T\n#SBATCH -p gpu\n#SBATCH -o \/dev\/null\n#SBATCH -D \/tmp/" \
	    -e 's/^#SBATCH -t 48:00:00/#SBATCH -t 5/' -e 's/@300/@60/' \
	    "$ROOT/pipelines/handover-service.sbatch" > svc.sbatch
	p1=$(sbatch --parsable svc.sbatch)
	until_state "$p1" R 60
	sleep 5
	# S submitted early: the model's threshold takes any overlap
	run -0 mirage-advise -p gpu -n 2 -m "$M" -T 100 -j "$p1" --submit svc.sbatch
	[[ "$output" == *"decision: submitted"* ]]
	s2=$(sed -n 's/^successor\t//p' svc.sbatch.chain)
	until_state "$s2" R 60
	gone "$p1" 60
	sleep 5
	# the cron run: s2 is the chain's job now; its successor, early too
	run -0 mirage-advise -p gpu -n 2 -m "$M" -T 100 --handover --submit svc.sbatch
	s3=$(sed -n 's/^successor\t//p' svc.sbatch.chain)
	[ -n "$s3" ] && [ "$s3" != "$s2" ]
	until_state "$s3" R 60
	gone "$s2" 60
	sleep 5
	# the ordinary end of the last link: its signal, as Slurm's --signal
	scancel --signal=USR1 --batch "$s3"
	gone "$s3" 60
	sleep 2
	grep -qx "handed	$s2" svc.sbatch.chain
	# sacct: each P ended at most the grace (30 s) after its S started
	for pair in "$p1 $s2" "$s2 $s3"; do
		set -- $pair
		pe=$(sacct -n -X -P -j "$1" -o End | head -n 1)
		ss=$(sacct -n -X -P -j "$2" -o Start | head -n 1)
		[ $(( $(date -d "$pe" +%s) - $(date -d "$ss" +%s) )) -le 30 ] || {
			echo "job $1 ended at $pe, its successor $2 started at $ss"; return 1; }
		[ "$(sacct -n -X -P -j "$1" -o State | head -n 1)" = COMPLETED ]
	done
	# the counter: 1..N, each once, across the three jobs
	[ "$(cut -d' ' -f2 "$SERVICE_DIR/service.log" | sort -u | wc -l)" -eq 3 ]
	n=$(wc -l < "$SERVICE_DIR/service.log")
	[ "$n" -ge 10 ]
	cut -d' ' -f1 "$SERVICE_DIR/service.log" | sort -n | awk '$1 != NR { print "counter " $1 " at line " NR; bad = 1 } END { exit bad }'
	[ "$(cat "$SERVICE_DIR/counter.ckpt")" -eq "$n" ]
}

@test "live handover: P already gone, and the signal ignored (cancelled after the grace)" {
	# P already gone: a note, exit 0
	p=$(sbatch --parsable -J "$T" -p gpu -t 1 -o /dev/null -D /tmp --wrap 'sleep 1')
	gone "$p" 60
	run -0 mirage-advise --take-over -j "$p"
	[[ "$output" == "take-over: job $p has ended"* ]]
	# a P that ignores the signal is cancelled after the grace
	p=$(sbatch --parsable -J "$T" -p gpu -t 2 -o /dev/null -D /tmp --wrap 'trap "" USR1; sleep 300')
	until_state "$p" R 60
	run -0 mirage-advise --take-over -j "$p" --grace 5s
	[[ "$output" == "take-over: job $p still ran after its grace of 5 s after SIGUSR1: cancelled" ]]
	[ "$(sacct -n -X -P -j "$p" -o State | head -n 1 | cut -d' ' -f1)" = CANCELLED ]
}
