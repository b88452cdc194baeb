#!/usr/bin/env bats
# 0740-live-serving.bats: an inference service that hands over in the
# serving order on a live Slurm (pipelines/handover-serving.sbatch with
# a stand-in HTTP server that takes seconds to load): a client that
# polls the published address throughout three handovers is answered
# every time, each predecessor is stopped only after its successor
# passed its health check, and no link runs twice.  Run by
# tests/slurm/run-live.sh.

setup() {
	load ../bats/test_helper
	mg_setup
	: "${MIRAGE_TAG:?run through tests/slurm/run-live.sh}"
	mg_gbt 40
	T=${MIRAGE_TAG}_sv$BATS_TEST_NUMBER
}

teardown() {
	# the client stops with the test, passed or not
	touch "$BATS_TEST_TMPDIR/stop-client"
	[ -z "${client:-}" ] || wait "$client" 2>/dev/null || true
}

@test "live serving order: three handovers of an HTTP service; a polling client is always answered" {
	export SERVICE_DIR=$BATS_TEST_TMPDIR/svc MIRAGE_GRACE=60s DRAIN_TIME=3 LOAD_TIME=2m
	# the stand-in server: 4 s to load, then it answers on $PORT
	export SERVE_HOST=127.0.0.1 SERVE_CMD='sleep 4; exec python3 -m http.server $PORT --bind 127.0.0.1'
	export READY_CMD='curl -sf -o /dev/null http://127.0.0.1:$PORT/'
	mkdir -p "$SERVICE_DIR"
	chmod 777 "$SERVICE_DIR"
	# the batch script's own words beside the service's, for a failure
	out=$(printf '%s' "$SERVICE_DIR/job-%j.out" | sed 's/[\/&]/\\&/g')
	sed -e "s/^#SBATCH -J serving/#SBATCH -J $T\n#SBATCH -p gpu\n#SBATCH -o $out\n#SBATCH -D \/tmp/" \
	    -e 's/^#SBATCH -t 48:00:00/#SBATCH -t 10/' -e 's/@600/@60/' \
	    "$ROOT/pipelines/handover-serving.sbatch" > svc.sbatch
	p=$(sbatch --parsable svc.sbatch)
	serving "$SERVICE_DIR" "$p" 90
	# the client: a request every 0.2 s to the address published now
	(
		while [ ! -e "$BATS_TEST_TMPDIR/stop-client" ]; do
			ep=$(cut -d' ' -f1 "$SERVICE_DIR/endpoint")
			if curl -sf -m 2 -o /dev/null "http://$ep/"; then
				echo "$(date +%s.%N) ok $ep"
			else
				echo "$(date +%s.%N) fail $ep"
			fi
			sleep 0.2
		done
	) > client.log &
	client=$!
	jobs=$p
	for k in 1 2 3; do
		run -0 mirage-advise -p gpu -n 2 -m "$M" -T 100 -j "$p" --handover --submit svc.sbatch
		s=$(sed -n 's/^successor\t//p' svc.sbatch.chain)
		[ -n "$s" ]
		serving "$SERVICE_DIR" "$s" 120
		gone "$p" 90
		# the chain's state: the successor is its job; P handed over
		# (recorded by S's take-over once it sees P gone)
		run mirage-advise -p gpu -n 2 -m "$M" -T -100 --handover --submit svc.sbatch
		grep -qx "current	$s" svc.sbatch.chain
		for _ in $(seq 1 30); do
			grep -qx "handed	$p" svc.sbatch.chain && break
			sleep 1
		done
		grep -qx "handed	$p" svc.sbatch.chain
		# how long the successor took to be ready: the 4 s load at least
		grep -q "^ready_max	\([4-9]\|[1-9][0-9]\)$" svc.sbatch.chain
		[ "$(sacct -n -X -P -j "$p" -o State | head -n 1)" = COMPLETED ]
		rm -f svc.sbatch.chain
		p=$s
		jobs="$jobs $s"
	done
	sleep 2
	touch "$BATS_TEST_TMPDIR/stop-client"
	wait "$client"
	scancel --signal=USR1 --batch "$p"
	gone "$p" 60
	# every request answered; the answers came from the four links in order
	! grep -q ' fail ' client.log || { grep ' fail ' client.log; return 1; }
	[ "$(wc -l < client.log)" -ge 50 ]
	[ "$(awk '{ print $3 }' client.log | uniq | wc -l)" -eq 4 ]
	# no gap of more than 3 s between answers
	awk 'NR > 1 && $1 - last > 3 { print "gap of " $1 - last " s at line " NR; bad = 1 } { last = $1 } END { exit bad }' client.log
}
