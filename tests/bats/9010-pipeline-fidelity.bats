#!/usr/bin/env bats
# 9010-pipeline-fidelity.bats: pipelines/fidelity.sh on the bundled trace.

setup() {
	load test_helper
	mg_setup
}

@test "fidelity.sh: one row per model and group; the reference row is the original's" {
	run -0 --separate-stderr env B="$MIRAGE_BIN" "$ROOT/pipelines/fidelity.sh"
	[ "${#lines[@]}" -eq 21 ]
	[[ "${lines[0]}" == $'model\tgroup\tjobs\t'* ]]
	[[ "${lines[1]}" == $'reference, 88 nodes (the original)\tall\t24777\t4.065\t0.435\t4.102\t'* ]]
	# the per-user limit lowers the error of the 84-node model
	mae() { printf '%s\n' "${lines[@]}" | awk -F'\t' -v m="$1" '$1 == m && $2 == "all" { print $6 }'; }
	a=$(mae "faithful, 84 nodes (LS6's A100 nodes)")
	b=$(mae "+ MaxJobsPerUser=8 (no user ever ran 9)")
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(b < a) }'
}

@test "inferred dependencies are counted and change the replay" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr mirage-eval --replay -m faithful -n 84 -s DependencyFromTrace=120 -o a.tsv ls6.jobs
	[[ "$stderr" =~ ,\ ([0-9]+)\ dependencies\ inferred ]]
	[ "${BASH_REMATCH[1]}" -gt 1000 ]
	mirage-eval --replay -q -m faithful -n 84 -o b.tsv ls6.jobs
	! cmp -s a.tsv b.tsv
}

@test "calibrate.sh: the capacity whose replay waits as long as the real jobs, and the sizes within 20% of them or not" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	run -0 --separate-stderr env B="$MIRAGE_BIN" "$ROOT/pipelines/calibrate.sh" ls6.jobs -- -m reference
	[[ "${lines[0]}" =~ ^capacity:\ ([0-9]+)\ nodes ]]
	n=${BASH_REMATCH[1]}
	# the replay at n and its neighbours bracket the real mean wait: n is
	# the nearer of the last count that waits as long and the next
	m() { mirage-eval --replay -q -m reference -n "$1" ls6.jobs | awk -F'\t' '$1 == "all" { print $3, $4 }'; }
	read -r real a < <(m $((n - 1)))
	read -r _ b < <(m "$n")
	read -r _ c < <(m $((n + 1)))
	awk -v r="$real" -v a="$a" -v b="$b" -v c="$c" 'BEGIN {
		d = b - r; if (d < 0) d = -d
		exit !((a >= r && b < r && d <= a - r) || (b >= r && c < r && d <= r - c)) }'
	# each size's mean and 90th percentile, from the replay's jobs
	mirage-eval --replay -q -m reference -n "$n" -j jobs.tsv -o /dev/null ls6.jobs
	printf '%s\n' "${lines[@]}" > table.txt
	python3 - jobs.tsv table.txt <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
out = {l.split()[0]: l.split() for l in open(sys.argv[2]).read().splitlines()[2:]}
def grp(k):
    return "1" if k == 1 else "2-4" if k <= 4 else "5-16" if k <= 16 else ">=17"
for g in ("1", "2-4", "5-16", ">=17", "all"):
    sel = [r for r in rows if g == "all" or grp(int(r["nodes"])) == g]
    real = sorted(int(r["real_wait_s"]) / 3600 for r in sel)
    sim = sorted(int(r["sim_wait_s"]) / 3600 for r in sel)
    o = out[g]
    assert int(o[1]) == len(sel), (g, o)
    assert abs(float(o[2]) - sum(real) / len(real)) < 0.006 and abs(float(o[3]) - sum(sim) / len(sim)) < 0.006, (g, o)
    p = math.ceil(0.9 * len(sel)) - 1
    line = " ".join(o)
    assert f"{real[p]:.2f}" in line and f"{sim[p]:.2f}" in line, (g, o, real[p], sim[p])
    rm, sm = sum(real) / len(real), sum(sim) / len(sim)
    assert ("within 20%" in " ".join(o[4:7])) == (abs(sm - rm) <= 0.2 * rm), (g, o)
PY
	# -n is what it chooses
	run -2 --separate-stderr env B="$MIRAGE_BIN" "$ROOT/pipelines/calibrate.sh" ls6.jobs -- -m reference -n 80
	[[ "$stderr" == *"-n is what is chosen"* ]]
}
