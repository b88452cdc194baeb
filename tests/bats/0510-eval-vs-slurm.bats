#!/usr/bin/env bats
# 0510-eval-vs-slurm.bats: the faithful model against a real Slurm: the
# 60-job workload of tests/slurm/compare-sim.sh as Slurm 22.05 ran it
# (a fixture), replayed with the same scheduler settings.

setup() {
	load test_helper
	mg_setup
	C=$FIX/slurm-22.05/compare
	mirage-parse -q "$C/sacct-60jobs.txt" -o jobs.mrs
}

@test "faithful mode starts Slurm's 60 jobs in Slurm's order, within seconds" {
	mirage-eval --replay -q -c "$C/lab.conf" -j j.tsv -o s.tsv jobs.mrs
	[ "$(tail -n +2 j.tsv | wc -l)" -eq 60 ]
	# real start = submit + real wait; simulated start = submit + sim wait
	within=$(awk -F'\t' 'NR > 1 { e = $6 - $5; if (e < 0) e = -e; if (e <= 10) k++ } END { print k }' j.tsv)
	[ "$within" -ge 55 ]
	order=$(awk -F'\t' 'NR > 1 { print $4 + $5, $4 + $6 }' j.tsv | sort -n -k1,1 |
	    awk '{ print NR, $2 }' | sort -n -k2,2 |
	    awk '{ d += ($1 - NR) ^ 2 } END { printf "%.3f", 1 - 6 * d / (NR * (NR * NR - 1)) }')
	awk -v o="$order" 'BEGIN { exit !(o >= 0.95) }'
	[ "$(awk -F'\t' '$1 == "all" { print $8 }' s.tsv)" != nan ]
}

@test "the reference model, with its minute steps, does much worse on it" {
	mirage-eval --replay -q -c "$C/lab.conf" -j f.tsv jobs.mrs > /dev/null
	mirage-eval --replay -q -m reference -n 4 -j r.tsv jobs.mrs > /dev/null
	mae() { awk -F'\t' 'NR > 1 { e = $6 - $5; if (e < 0) e = -e; s += e; n++ } END { print s / n }' "$1"; }
	awk -v f="$(mae f.tsv)" -v r="$(mae r.tsv)" 'BEGIN { exit !(f * 10 < r) }'
}
