#!/usr/bin/env bats
# 9020-pipeline-nightly.bats: pipelines/nightly-retrain.sh on the bundled
# trace: installs a model atomically when it is not worse, keeps the one
# in use otherwise, keeps K models, logs, and one run at a time.

setup() {
	load test_helper
	mg_setup
	N=("$ROOT/pipelines/nightly-retrain.sh" -i "$ROOT/data/ls6-a100.log.gz" -f 2023-02-01 -N 150)
	export B=$MIRAGE_BIN
}

@test "nightly: the first run installs; a worse or no-better-by-margin one does not" {
	run -0 "${N[@]}" -D d -- -n 76
	[[ "$output" == *"validation cost (h): new "*", current none, reactive "* ]]
	[[ "$output" == *"installed model-"*".mrm as d/current.mrm"* ]]
	[ -L d/current.mrm ]
	first=$(readlink d/current.mrm)
	mirage-train -i d/current.mrm | grep -qx 'kind	gbt'
	# the evaluation it decided on is kept beside the log
	ls d/logs/eval-*.tsv d/logs/nightly-*.log
	grep -q "^new	1	" d/logs/eval-*.tsv
	# the same training again, but it must be better by 1000 h: kept
	sleep 1
	run -0 "${N[@]}" -D d -M 1000 -- -n 76
	[[ "$output" == *"kept the current model"* ]]
	[ "$(readlink d/current.mrm)" = "$first" ]
	[ "$(ls d/models | wc -l)" -eq 1 ]
	# no margin, the same training: an exact tie keeps the installed
	# model rather than installing a copy of it
	sleep 1
	run -0 "${N[@]}" -D d -- -n 76
	[[ "$output" == *"kept the current model: an exact tie"* ]]
	[ "$(readlink d/current.mrm)" = "$first" ]
	[ "$(ls d/models | wc -l)" -eq 1 ]
	# the working files are gone
	[ -z "$(ls d/work)" ]
	# a current model that cannot be read is replaced, not kept forever
	second=$(readlink d/current.mrm)
	printf 'X' | dd of="d/$second" bs=1 seek=100 conv=notrunc 2>/dev/null
	sleep 1
	run -0 "${N[@]}" -D d -M 1000 -- -n 76
	[[ "$output" == *"the current model cannot be used ("*"CRC32"*"): it is replaced"* ]]
	[[ "$output" == *"installed model-"* ]]
	mirage-train -i d/current.mrm > /dev/null
	# a sound container and checksum around a booster xgboost cannot
	# load: mirage-train -i loads and scores it, so it is replaced too
	third=$(readlink d/current.mrm)
	python3 "$ROOT/tests/fixtures/badmodel.py" booster "d/$third" "d/$third"
	run -4 mirage-train -i "d/$third"
	sleep 1
	run -0 "${N[@]}" -D d -M 1000 -- -n 76
	[[ "$output" == *"the current model cannot be used ("*"xgboost cannot load the model"*"): it is replaced"* ]]
	[[ "$output" == *"installed model-"* ]]
	[ "$(readlink d/current.mrm)" != "$third" ]
}

@test "nightly: SIGTERM stops it with 143 and leaves no working files" {
	# a sacct that says it started, then hangs until the time limit:
	# the signal arrives mid-run, whatever the machine's speed
	mkdir -p fakebin
	printf '#!/bin/sh\necho $$ > "%s/sacct.started"\nexec sleep 600\n' "$PWD" > fakebin/sacct
	chmod +x fakebin/sacct
	PATH=$PWD/fakebin:$PATH MIRAGE_SACCT_TIMEOUT=3 \
	    "$ROOT/pipelines/nightly-retrain.sh" -D d -- -n 76 > out.txt 2>&1 &
	local pid=$! rc=0 i
	for i in $(seq 100); do [ -e sacct.started ] && break; sleep 0.1; done
	[ -e sacct.started ]
	kill -TERM $pid
	wait $pid || rc=$?
	[ "$rc" -eq 143 ]
	grep -q "stopped by SIGTERM" out.txt
	sleep 1
	[ -z "$(ls d/work)" ]
	[ -z "$(ls -A d/models | grep '^\.')" ]
}

@test "nightly: killed outright (-9), it leaves the lock to the next run; SIGTERM does not wait for a long step" {
	mkdir -p fakebin
	printf '#!/bin/sh\necho $$ > "%s/sacct.started"\nexec sleep 600\n' "$PWD" > fakebin/sacct
	chmod +x fakebin/sacct
	PATH=$PWD/fakebin:$PATH "$ROOT/pipelines/nightly-retrain.sh" -D d -- -n 76 > out.txt 2>&1 &
	local pid=$! i
	for i in $(seq 100); do [ -s sacct.started ] && break; sleep 0.1; done
	[ -s sacct.started ]
	kill -KILL $pid
	wait $pid || :
	# its sacct still runs: the next run starts all the same
	kill -0 "$(cat sacct.started)"
	run -0 "${N[@]}" -D d -- -n 76
	[[ "$output" == *"installed model-"* ]]
	kill "$(cat sacct.started)" || :
	# a signal mid-step: the step is stopped with the run, at once
	rm -f d/current.mrm
	"${N[@]}" -D d -- -n 76 > out2.txt 2>&1 &
	pid=$!
	for i in $(seq 200); do grep -q "jobs from" out2.txt 2>/dev/null && break; sleep 0.05; done
	sleep 0.5
	local t0=$SECONDS rc=0
	kill -TERM $pid
	wait $pid || rc=$?
	[ "$rc" -eq 143 ] || { echo "exit $rc, not 143:"; cat out2.txt; return 1; }
	[ $((SECONDS - t0)) -le 2 ]
	! pgrep -f "mirage-(features|train|eval) .*d/work" > /dev/null
}

@test "nightly -T: a history with a week without submissions: the table is not renewed, said with its age, and the model is retrained all the same" {
	run -0 "${N[@]}" -D d -k 1 -T 99% -- -n 76
	cp d/target.tsv before.tsv
	zcat "$ROOT/data/ls6-a100.log.gz" | awk -F'\t' 'NR <= 3 || !($5 >= "2023-03-06" && $5 < "2023-03-13")' > gap.txt
	rm d/current.mrm
	run -2 "$ROOT/pipelines/nightly-retrain.sh" -i gap.txt -f 2023-02-01 -N 150 -D d -k 1 -T 99% -- -n 76
	[[ "$output" == *"the settings were not chosen again (mirage-eval exited 2, above): d/target.tsv stays, chosen on a history that ended 2023-03-25, "*" days ago (mirage-advise warns once that is 14 days); the model is retrained all the same"* ]]
	[[ "$output" == *"installed model-"*".mrm as d/current.mrm"* ]]
	cmp before.tsv d/target.tsv
}

@test "nightly: keeps the newest K models, and the current one" {
	# three installs (the same training ties, and a tie keeps the
	# installed model: each run here finds none installed)
	for i in 1 2 3; do
		rm -f d/current.mrm
		"${N[@]}" -D d -K 2 -- -n 76 > /dev/null
		sleep 1
	done
	[ "$(ls d/models | wc -l)" -eq 2 ]
	[ -e "d/$(readlink d/current.mrm)" ]
}

@test "nightly: a second run while one holds the lock does not start" {
	mkdir -p d
	exec 8>d/lock
	flock -n 8
	run -75 "${N[@]}" -D d -- -n 76
	[[ "$output" == *"another run holds d/lock; not starting"* ]]
	[ ! -e d/current.mrm ]
	exec 8>&-
}

@test "nightly: bad options and bad input stop it with a message and no model" {
	run -2 "${N[@]}" -D d -K 0
	[[ "$output" == *"Usage: nightly-retrain.sh"* ]]
	printf 'hello\nworld\n' > bad.txt
	run -1 "$ROOT/pipelines/nightly-retrain.sh" -D d -i bad.txt -- -n 76
	[[ "$output" == *"mirage-parse: 'bad.txt': line 1: layout not recognised"* ]]
	[ ! -e d/current.mrm ]
	run -2 "$ROOT/pipelines/nightly-retrain.sh" -D d -z Mars/Olympus -i bad.txt -- -n 76
	[[ "$output" == *"mirage-parse: -z: unknown time zone 'Mars/Olympus'"* ]]
	[ ! -e d/current.mrm ]
}

@test "nightly: a hung sacct is killed after MIRAGE_SACCT_TIMEOUT seconds, not waited on" {
	# a sacct that never answers, first on PATH
	mkdir -p fakebin
	printf '#!/bin/sh\nsleep 600\n' > fakebin/sacct
	chmod +x fakebin/sacct
	local t0=$SECONDS
	PATH=$PWD/fakebin:$PATH MIRAGE_SACCT_TIMEOUT=2 run "$ROOT/pipelines/nightly-retrain.sh" -D d -- -n 76
	[ "$status" -ne 0 ]
	[ $((SECONDS - t0)) -lt 60 ]
	[[ "$output" == *"jobs from sacct"* ]]
	[ ! -e d/current.mrm ]
	[ -z "$(ls d/work)" ]
}

@test "nightly -T -R: the settings chosen on the real jobs of the 4 weeks before the dump's last day, a table mirage-advise reads" {
	run -0 "${N[@]}" -D d -k 1,8 -T 99% -R -- -m reference -n 76
	[[ "$output" == *"settings for 99%: chosen on the real jobs of the 4 weeks up to 2023-03-31"* ]]
	[[ "$output" == *"installed the settings for 99% as d/target.tsv"* ]]
	# one rule recommended per size, judged by the real jobs, for 76
	# nodes, its history ending on the dump's last day
	awk -F'\t' -v he="$(date -u -d 2023-03-31 +%s)" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["recommended"] == 1 { n[$2]++ }
	    $c["judge"] != "real" || $c["cluster_nodes"] != 76 || $c["target"] != 0.99 { bad = 1 }
	    $c["history_end"] != he { bad = 1 }
	    END { exit bad || n[1] != 1 || n[8] != 1 }' d/target.tsv
	mg_fake_slurm
	run -0 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now 2026-11-23T23:00:00 \
	    --handover --target 99% --settings d/target.tsv
}

@test "nightly -T: the settings re-chosen on the last 4 weeks, installed whole with where they were chosen" {
	run -0 "${N[@]}" -D d -k 1,8 -T 99% -- -m reference -n 76
	[[ "$output" == *"settings for 99%: chosen on the 4 weeks from 2023-02-20, read on the day from 2023-03-25"* ]]
	[[ "$output" == *"installed the settings for 99% as d/target.tsv"* ]]
	# a table mirage-advise reads, for both sizes, chosen for 76 nodes on
	# 168 episodes whose history ended on 2023-03-25T16:00
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["recommended"] == 1 { n[$2]++ }
	    $c["cluster_nodes"] != 76 || $c["train_episodes"] != 168 || $c["target"] != 0.99 { bad = 1 }
	    $c["history_end"] != 1679760000 { bad = 1 }
	    END { exit bad || n[1] != 1 || n[8] != 1 }' d/target.tsv
	[ -z "$(ls -A d | grep '^\.')" ]
	# a bad target is the tool's usage error, and the old table stays
	cp d/target.tsv before.tsv
	run -2 "${N[@]}" -D d -T 150% -- -n 76
	[[ "$output" == *"invalid --target '150%'"* ]]
	cmp before.tsv d/target.tsv
	# the real waits choose a target's settings: -R alone is refused
	run -2 "${N[@]}" -D d -R -- -n 76
	[[ "$output" == *"-R chooses a target's settings: it goes with -T"* ]]
	cmp before.tsv d/target.tsv
}
