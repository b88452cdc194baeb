#!/usr/bin/env bats
# 0760-live-replicas.bats: a service of two replicas behind a router on a
# live Slurm (pipelines/handover-serving.sbatch with REPLICAS_DIR, the
# stand-in HTTP server of 0740): each replica hands over three times, the
# last time both at once, and a client that asks every address of the
# router's list throughout is answered every time; two take-overs due at
# once run one after the other.  Run by tests/slurm/run-live.sh.

setup() {
	load ../bats/test_helper
	mg_setup
	: "${MIRAGE_TAG:?run through tests/slurm/run-live.sh}"
	mg_gbt 40
	T=${MIRAGE_TAG}_rp$BATS_TEST_NUMBER
	R=$BATS_TEST_TMPDIR/svc
	advise() { # advise REPLICA: the replica's successor submitted
		SERVICE_DIR=$R/$1 REPLICAS_DIR=$R mirage-advise -p batch -n 4 -m "$M" -T 100 \
		    -j "${p[$1]}" --handover -s "$1.chain" --submit svc.sbatch
	}
}

teardown() {
	touch "$BATS_TEST_TMPDIR/stop-client"
	[ -z "${client:-}" ] || wait "$client" 2>/dev/null || true
}

@test "live replicas: two replicas hand over three times each, one take-over at a time; every address the router lists answers" {
	export MIRAGE_GRACE=60s DRAIN_TIME=3 LOAD_TIME=2m
	export SERVE_HOST=127.0.0.1 SERVE_CMD='sleep 4; exec python3 -m http.server $PORT --bind 127.0.0.1'
	export READY_CMD='curl -sf -o /dev/null http://127.0.0.1:$PORT/'
	mkdir -p "$R/1" "$R/2"
	chmod -R 777 "$R"
	out=$(printf '%s' "$R/job-%j.out" | sed 's/[\/&]/\\&/g')
	sed -e "s/^#SBATCH -J serving/#SBATCH -J $T\n#SBATCH -p batch\n#SBATCH -o $out\n#SBATCH -D \/tmp/" \
	    -e 's/^#SBATCH -t 48:00:00/#SBATCH -t 10/' -e 's/@600/@60/' \
	    "$ROOT/pipelines/handover-serving.sbatch" > svc.sbatch
	declare -A p
	for r in 1 2; do
		p[$r]=$(SERVICE_DIR=$R/$r REPLICAS_DIR=$R sbatch --parsable svc.sbatch)
	done
	serving "$R/1" "${p[1]}" 90
	serving "$R/2" "${p[2]}" 90
	[ "$(wc -l < "$R/endpoints")" -eq 2 ]
	# the client: every 0.2 s, every address the list holds then
	(
		while [ ! -e "$BATS_TEST_TMPDIR/stop-client" ]; do
			echo "round $(wc -l < "$R/endpoints")"
			while read -r ep job; do
				if curl -sf -m 2 -o /dev/null "http://$ep/"; then
					echo "$(date +%s.%N) ok $ep $job"
				else
					echo "$(date +%s.%N) fail $ep $job"
				fi
			done < "$R/endpoints"
			sleep 0.2
		done
	) > client.log &
	client=$!
	first=("${p[1]}" "${p[2]}")
	# two rounds in turn, then both replicas' successors at once
	for k in 1 2 3; do
		declare -A s
		for r in 1 2; do
			run -0 advise $r
			s[$r]=$(sed -n 's/^successor\t//p' $r.chain)
			[ -n "${s[$r]}" ]
			[ $k = 3 ] && continue
			serving "$R/$r" "${s[$r]}" 120
			gone "${p[$r]}" 90
		done
		for r in 1 2; do
			serving "$R/$r" "${s[$r]}" 120
			gone "${p[$r]}" 90
			rm -f $r.chain
			p[$r]=${s[$r]}
		done
	done
	sleep 2
	touch "$BATS_TEST_TMPDIR/stop-client"
	wait "$client"
	scancel --signal=USR1 --batch "${p[1]}" "${p[2]}"
	gone "${p[1]}" 60
	gone "${p[2]}" 60
	# the router's list emptied as the last links left at their end
	[ ! -s "$R/endpoints" ]
	# every request answered; eight links served, four each; the list
	# never lost a replica
	! grep -q ' fail ' client.log || { grep ' fail ' client.log; return 1; }
	[ "$(awk '$1 != "round" { print $4 }' client.log | sort -u | wc -l)" -eq 8 ]
	[ "$(grep -c '^round ' client.log)" -ge 50 ]
	! grep -v '^round 2$' client.log | grep -q '^round '
	# at once: the second successor published its address only after
	# the first take-over ended (its predecessor drained 3 s), not with it
	awk -v a="${s[1]}" -v b="${s[2]}" '
	    $1 == "round" { next }
	    $4 == a && !ta { ta = $1 } $4 == b && !tb { tb = $1 }
	    END { d = ta - tb; if (d < 0) d = -d; exit !(ta && tb && d >= 2) }' client.log
	# each first link served until its successor was in the list
	for j in "${first[@]}"; do
		grep -q " ok [^ ]* $j\$" client.log
	done
}
