#!/usr/bin/env bats
# 0210-split.bats: mirage-split: chronological splits without leakage,
# by date, by fraction and as time-blocked folds; what went where.

setup() {
	load test_helper
	mg_setup
	if [ ! -e "$BATS_FILE_TMPDIR/s.mrs" ]; then
		mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o "$BATS_FILE_TMPDIR/ls6.jobs"
		# 60 episodes every 4 h from 2023-02-20, 1- and 8-node chains
		mirage-features -q -f 2023-02-20 -N 60 -k 1,8 -w 1 -p 3 \
		    -o "$BATS_FILE_TMPDIR/s.mrs" "$BATS_FILE_TMPDIR/ls6.jobs"
	fi
	S=$BATS_FILE_TMPDIR/s.mrs
}

# span FILE: "min(ep_start) max(ep_start) max(ep_end) records"
span() {
	mirage-cat "$1" | awk -F'\t' 'NR == 1 { next }
	    { if (!n++ || $2 < lo) lo = $2; if ($2 > hi) hi = $2; if ($3 > he) he = $3 }
	    END { print lo + 0, hi + 0, he + 0, n + 0 }'
}

@test "by date: every training sample's episode ends before validation starts" {
	run -0 --separate-stderr mirage-split -d 2023-02-25 -t tr.mrs -v va.mrs "$S"
	read -r tlo thi tend tn <<<"$(span tr.mrs)"
	read -r vlo vhi vend vn <<<"$(span va.mrs)"
	boundary=$(date -ud 2023-02-25 +%s)
	[ "$tend" -le "$boundary" ]
	[ "$vlo" -ge "$boundary" ]
	[ "$tend" -le "$vlo" ]
	# nothing lost but the crossing episodes, which are reported
	[[ "$stderr" == *"training"*"validation"*"dropped"* ]]
	dropped=$(awk '/dropped/ { print $3 }' <<<"$stderr")
	[ $((tn + vn + dropped)) -eq "$(records "$S")" ]
	[ "$dropped" -gt 0 ]
	# the outputs keep the samples' schema, and their provenance: a
	# model trained on either knows its cluster
	[ "$(mirage-cat tr.mrs | head -1)" = "$(mirage-cat "$S" | head -1)" ]
	want=$(mirage-cat -i "$S" | grep '^cluster')
	[[ "$want" == *"nodes="* ]]
	[ "$(mirage-cat -i tr.mrs | grep '^cluster')" = "$want" ]
	[ "$(mirage-cat -i va.mrs | grep '^cluster')" = "$want" ]
	mirage-train -q -a gbt -o m.mrm tr.mrs
	run -0 mirage-train -i m.mrm
	grep -q "^cluster	.*nodes=" <<<"$output"
}

@test "crossing episodes: dropped, or given to validation (no leak), or to training (on request)" {
	mirage-split -q -d 2023-02-25 --crossing valid -t tr.mrs -v va.mrs "$S"
	read -r _ _ tend tn <<<"$(span tr.mrs)"
	read -r vlo _ _ vn <<<"$(span va.mrs)"
	[ "$tend" -le "$(date -ud 2023-02-25 +%s)" ]
	[ $((tn + vn)) -eq "$(records "$S")" ]
	mirage-split -q -d 2023-02-25 --crossing train -t tr2.mrs -v va2.mrs "$S"
	[ "$(records tr2.mrs)" -eq $(( $(records "$S") - $(records va2.mrs) )) ]
}

@test "by fraction: the earliest episodes train, the latest validate" {
	mirage-split -q -F 0.75 -t tr.mrs -v va.mrs "$S"
	read -r _ thi tend tn <<<"$(span tr.mrs)"
	read -r vlo _ _ vn <<<"$(span va.mrs)"
	[ "$tend" -le "$vlo" ]
	# a quarter of the 60 episode starts validate: 15 x 2 sizes x 3 probes
	[ "$vn" -eq 90 ]
}

@test "k time-blocked folds: each block validates once; training around it is purged" {
	total=0
	for k in 0 1 2 3 4; do
		mirage-split -q -K 5 -k $k -t tr$k.mrs -v va$k.mrs "$S"
		read -r vlo vhi vend vn <<<"$(span va$k.mrs)"
		total=$((total + vn))
		# no training episode overlaps the validation block's span
		mirage-cat tr$k.mrs | awk -F'\t' -v lo="$vlo" -v hi="$vend" \
		    'NR > 1 && $3 > lo && $2 < hi { exit 1 }'
	done
	[ "$total" -eq "$(records "$S")" ]
	# --forward trains on the past only
	mirage-split -q -K 5 -k 2 --forward -t trf.mrs -v vaf.mrs "$S"
	read -r vlo _ _ _ <<<"$(span vaf.mrs)"
	read -r _ _ tend _ <<<"$(span trf.mrs)"
	[ "$tend" -le "$vlo" ]
}

@test "deterministic, and the same from standard input" {
	mirage-split -q -F 0.5 -t a.mrs -v b.mrs "$S"
	mirage-split -q -F 0.5 -t c.mrs -v d.mrs < "$S"
	cmp <(mirage-cat a.mrs) <(mirage-cat c.mrs)
	cmp <(mirage-cat b.mrs) <(mirage-cat d.mrs)
}

@test "bad use and bad input: clear errors, no output left" {
	run -2 mirage-split -t a.mrs -v b.mrs "$S"
	run -2 mirage-split -d 2023-02-25 -F 0.5 -t a.mrs -v b.mrs "$S"
	run -2 --separate-stderr mirage-split -F 1.5 -t a.mrs -v b.mrs "$S"
	[[ "$stderr" == *"invalid fraction '1.5'"* ]]
	run -2 --separate-stderr mirage-split -K 5 -k 5 -t a.mrs -v b.mrs "$S"
	[[ "$stderr" == *"-K 5 needs -k between 0 and 4"* ]]
	run -2 --separate-stderr mirage-split -d 2023-02-25 -t a.mrs "$S"
	[ "$stderr" = "mirage-split: -t train.mrs and -v valid.mrs are needed (try --help)" ]
	head -c 3000 "$S" > cut.mrs
	run -5 --separate-stderr mirage-split -d 2023-02-25 -t a.mrs -v b.mrs cut.mrs
	[[ "$stderr" == *"cut.mrs"* ]]
	run -6 mirage-split -d 2023-02-25 -t a.mrs -v b.mrs "$BATS_FILE_TMPDIR/ls6.jobs"
	[ ! -e a.mrs ] && [ ! -e b.mrs ]
	run -2 --separate-stderr mirage-split -d 2030-01-01 -F 0.5 -t a.mrs -v b.mrs "$S"
}
