#!/usr/bin/env bats
# 0600-train.bats: mirage-train: every kind trains on the paper's
# samples, writes a checksummed model that mirage-eval uses next to the
# baselines; damaged models and wrong inputs are refused.

setup() {
	load test_helper
	mg_setup
	if [ ! -e "$BATS_FILE_TMPDIR/tr.mrs" ]; then
		mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o "$BATS_FILE_TMPDIR/ls6.jobs"
		mirage-features -q -f 2022-12-01 -N 120 -k 1,8 -w 2 \
		    -o "$BATS_FILE_TMPDIR/tr.mrs" "$BATS_FILE_TMPDIR/ls6.jobs"
	fi
	TR=$BATS_FILE_TMPDIR/tr.mrs
	LS6=$BATS_FILE_TMPDIR/ls6.jobs
}

@test "each kind trains, describes itself, and is evaluated with the baselines" {
	for a in gbt rf clf svr; do
		run -0 --separate-stderr mirage-train -a $a -o $a.mrm "$TR"
		[[ "$stderr" == *"$a on "*" samples x 33 features"* ]]
		mirage-train -i $a.mrm > info.txt
		grep -qx "kind	$a" info.txt
		grep -qx "features	33" info.txt
		grep -qx "trained_on	1680 samples, episodes starting 2022-12-01T00:00:00 .. 2022-12-20T20:00:00" info.txt
		# a classifier, and only it, carries its calibration: knots
		# in order, frequencies in [0, 1] and not decreasing
		if [ $a = clf ]; then
			[ "$(grep -c '^calibration	' info.txt)" -ge 2 ]
			awk -F'\t' '$1 == "calibration" { if ($3 < 0 || $3 > 1 || (n++ && ($2 <= x || $3 < y))) exit 1; x = $2; y = $3 }' info.txt
		else
			! grep -q '^calibration	' info.txt
		fi
	done
	mirage-eval -q -f 2023-03-01 -N 10 -k 1,8 -M gbt.mrm -M rf.mrm -M clf.mrm -M svr.mrm -F tsv -o t.tsv "$LS6"
	[ "$(cut -f1 t.tsv | tail -n +2 | sort -u | paste -sd' ')" = "average-wait clf gbt oracle reactive rf scheduler-estimate svr" ]
	[ "$(tail -n +2 t.tsv | wc -l)" -eq 16 ]
	# every learned method is compared with the oracle: a gap >= 0
	awk -F'\t' 'NR > 1 && $10 < 0 { exit 1 }' t.tsv
	# a description that cannot be written is an error
	run -1 --separate-stderr bash -c 'mirage-train -i gbt.mrm > /dev/full'
	[[ "$stderr" == *"standard output"* ]]
}

@test "same samples and seed, same model bytes; another seed, another forest" {
	mirage-train -q -a rf -S 7 "$TR" > a.mrm
	mirage-train -q -a rf -S 7 "$TR" > b.mrm
	cmp a.mrm b.mrm
	mirage-train -q -a rf -S 8 "$TR" > c.mrm
	! cmp -s a.mrm c.mrm
}

@test "feature selections: ours, the reference window, names and prefixes" {
	mirage-train -q -a gbt -r 5 -F ref -o ref.mrm "$TR"
	grep -qx 'window	2' <(mirage-train -i ref.mrm)
	grep -qx 'features	76' <(mirage-train -i ref.mrm)
	mirage-train -q -a gbt -r 5 -F 'f_plan*,r0_pend_jobs' -o few.mrm "$TR"
	[ "$(mirage-train -i few.mrm | grep -c '^feature	')" -eq 5 ]
	mirage-eval -q -f 2023-03-01 -N 4 -M ref.mrm -M few.mrm -F tsv "$LS6" | grep -q '^few	1	4	'
	run -2 --separate-stderr mirage-train -a gbt -F 'nosuch*' "$TR"
	[[ "$stderr" == *"no feature matches 'nosuch*'"* ]]
}

@test "damaged models are refused: checksum, truncation, not a model" {
	mirage-train -q -a gbt -r 10 -o m.mrm "$TR"
	size=$(stat -c %s m.mrm)
	cp m.mrm bad.mrm
	printf 'X' | dd of=bad.mrm bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
	run -4 --separate-stderr mirage-eval -N 1 -M bad.mrm "$LS6"
	[[ "$stderr" == *"bad.mrm"*"CRC32 mismatch"* ]]
	head -c $((size - 10)) m.mrm > cut.mrm
	run -5 --separate-stderr mirage-train -i cut.mrm
	[[ "$stderr" == *"cut short"* ]]
	run -4 --separate-stderr mirage-train -i "$TR"
	[[ "$stderr" == *"not a mirage model"* ]]
	run -1 mirage-eval -N 1 -M nosuch.mrm "$LS6"
}

@test "bad use: no kind, an unknown kind, a jobs stream, a bad number; nothing left behind" {
	run -2 --separate-stderr mirage-train "$TR"
	[ "$stderr" = "mirage-train: -a algorithm is needed: gbt, rf, clf, svr, dqn or pg (try --help)" ]
	run -2 --separate-stderr mirage-train -a xgb -o x.mrm "$TR"
	[[ "$stderr" == *"unknown model kind 'xgb'"* ]]
	# the bad kind is named before a missing input
	run -2 --separate-stderr mirage-train -a foo nosuch.mrs
	[[ "$stderr" == *"unknown model kind 'foo'"* ]]
	# an option error names the program, not its path
	run -2 --separate-stderr "$(command -v mirage-train)" --bogus
	[[ "$stderr" == "mirage-train: unrecognized option '--bogus'"* ]]
	run -6 mirage-train -a gbt -o x.mrm "$LS6"
	run -2 --separate-stderr mirage-train -a gbt --eta 5 "$TR"
	[[ "$stderr" == *"invalid eta '5'"* ]]
	head -c 5000 "$TR" > cut.mrs
	run -5 mirage-train -a gbt -o x.mrm cut.mrs
	[ ! -e x.mrm ]
	run -0 mirage-train --help
	[[ "$output" == "usage: mirage-train "* ]]
}

@test "a dispatcher inside the node is not a model of when to submit, nor the reverse" {
	mirage-accel train --play 4 -q -o r.mrm
	run --separate-stderr mirage-eval -q -m reference -n 88 -f 2023-03-01 -N 2 -k 1 -M r.mrm "$BATS_FILE_TMPDIR/ls6.jobs"
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"a relmas model dispatches DNN inference inside a node, it does not decide when to submit: give it to mirage-accel eval -M"* ]]
	mirage-train -a gbt -r 5 -q -o g.mrm "$TR"
	run -2 --separate-stderr mirage-accel eval -M g.mrm
	[[ "$stderr" == *"-M 'g.mrm': a gbt model decides when to submit; eval takes relmas models (mirage-accel train)"* ]]
	run -2 --separate-stderr mirage-train -a relmas -o x.mrm
	[[ "$stderr" == *"-a relmas: the dispatcher inside the node is trained by mirage-accel train"* ]]
	run -2 --separate-stderr mirage-eval --accel
	[[ "$stderr" == *"unrecognized option '--accel'"* ]]
}

@test "-i loads and scores the model: a booster xgboost cannot load, or a feature not computed here, is refused" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	mirage-features -q -f 2022-12-01 -N 10 -k 1 -w 2 -o s.mrs ls6.jobs
	mirage-train -q -a gbt -o g.mrm s.mrs
	run -0 mirage-train -i g.mrm
	[ "${lines[-1]}" = "$(printf 'check\tloaded and scored: usable')" ]
	python3 "$ROOT/tests/fixtures/badmodel.py" booster g.mrm bb.mrm
	run -4 --separate-stderr mirage-train -i bb.mrm
	[[ "$stderr" == "mirage-train: 'bb.mrm': xgboost cannot load the model: "*": it cannot be used" ]]
	[[ "$stderr" != *"Stack trace"* ]]
	python3 "$ROOT/tests/fixtures/badmodel.py" feature g.mrm bf.mrm
	run -6 --separate-stderr mirage-train -i bf.mrm
	[[ "$stderr" == *"'bf.mrm': the model needs the feature 'f_hour_sun', which is not computed here"*"it cannot be used" ]]
	# mirage-advise says why it falls back, even under -q
	printf 'JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|PRIORITY\n500|gpu|R|2026-11-21T23:00:00|2026-11-22T00:00:00|2-00:00:00|1|1000\n' > q.txt
	run -10 --separate-stderr mirage-advise -q -j 500 -m bb.mrm -n 88 -Q q.txt --now 2026-11-23T23:00:00
	[[ "$stderr" == *"the reactive rule decided: 'bb.mrm': xgboost cannot load the model"* ]]
}
