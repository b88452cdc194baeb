#!/usr/bin/env bats
# 0535-eval-walk.bats: a target walked forward (--walk-forward): each
# period's settings chosen only on the history before it, what they kept
# month by month, and the promise with its confidence.

setup() {
	load test_helper
	mg_setup
	J=$BATS_FILE_TMPDIR/ls6.jobs
	[ -s "$J" ] || mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o "$J"
	# two weeks of February, a week at a time, each chosen on the two
	# weeks before it
	RUN=(-q -m reference -n 76 -f 2023-02-06 -u 2023-02-19 -k 1,8
	    --handover 10m --target 99% --walk-forward 7d --history 14d)
}

# cell FILE KEY1 KEY2 KEY3 COLUMN: a cell of a TSV table whose first
# three columns are KEY1..KEY3
cell() {
	awk -F'\t' -v a="$2" -v b="$3" -v m="$4" -v c="$5" '
		NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$1 == a && $2 == b && $3 == m { print $k[c] }' "$1"
}

@test "--walk-forward: a period's choice never sees its own period's jobs, nor a later one's" {
	# the same trace with every other job submitted from 2023-02-13 gone
	zcat "$ROOT/data/ls6-a100.log.gz" |
	    awk -F'\t' 'NR <= 3 || $5 < "2023-02-13" || NR % 2' > mod.log
	mirage-parse -q mod.log -o mod.jobs
	mirage-eval "${RUN[@]}" -F tsv --table a.choices -o a.tsv "$J"
	mirage-eval "${RUN[@]}" -F tsv --table b.choices -o b.tsv mod.jobs
	# every period's choices, the one from 2023-02-13 included: the same
	cmp a.choices b.choices
	grep -q "^$(date -u -d 2023-02-13 +%s)	8	scheduler-estimate	" a.choices
	# what they kept in that period: not the same
	! cmp a.tsv b.tsv
	# every history ended before its period, and began at most 14 days
	# before it (5 days: an episode's workload)
	awk -F'\t' 'NR > 1 && ($5 + 5 * 86400 > $1 || $4 < $1 - 14 * 86400 ||
	    $6 < 2) { print "bad history: " $0; bad = 1 }
	    END { exit bad }' a.choices
	# a row per method and size for each month and for all of them
	[ "$(cell a.tsv recommended 8 all periods)" -eq 2 ]
	[ "$(cell a.tsv recommended 1 all episodes)" -eq 79 ]
	[ "$(cell a.tsv scheduler-estimate 1 2023-02 episodes)" -eq 79 ]
}

@test "--walk-forward: the recommended row follows the method each period's history recommended" {
	mirage-eval "${RUN[@]}" -F tsv --table c.tsv -o w.tsv "$J"
	# the methods recommended for 8-node chains, one per period
	[ "$(awk -F'\t' '$2 == 8 && $12 == 1' c.tsv | wc -l)" -eq 2 ]
	# here the history recommends Slurm's estimate with a margin in every
	# period: the recommended row keeps what that method's row keeps
	awk -F'\t' '$2 == 8 && $12 == 1 && $3 != "scheduler-estimate" { exit 1 }' c.tsv
	[ "$(cell w.tsv recommended 8 all kept)" = "$(cell w.tsv scheduler-estimate 8 all kept)" ]
	# the share's lower bound is Clopper and Pearson's at 95%
	local kept n lo
	kept=$(cell w.tsv reactive 1 all kept)
	n=$(cell w.tsv reactive 1 all episodes)
	lo=$(cell w.tsv reactive 1 all share_lower)
	python3 -c "
from math import comb
k, n, lo = $kept, $n, $lo
tail = lambda p: sum(comb(n, i) * p**i * (1 - p)**(n - i) for i in range(k, n + 1))
assert abs(tail(lo) - 0.05) < 0.002, tail(lo)"
	# a higher confidence, a lower bound and a smaller promise
	mirage-eval "${RUN[@]}" --confidence 99% -F tsv -o w99.tsv "$J"
	awk -F'\t' -v a="$lo" '$1 == "reactive" && $2 == 1 && $3 == "all" { exit !($7 < a) }' w99.tsv
	[ "$(cell w99.tsv recommended 1 all confidence)" = 0.99 ]
}

@test "--walk-forward: where no submission time brings the target through, the text says what can be" {
	# February's 8-node chains: some waited longer than a whole limit
	mirage-eval -q -m reference -n 76 -f 2023-02-01 -u 2023-02-28 -k 1,8 \
	    --handover 10m --target 99.9% --walk-forward 7d --history 14d -F tsv -o f.tsv \
	    --text f.txt "$J"
	# the text of the same run is the text a run of its own writes
	mirage-eval -q -m reference -n 76 -f 2023-02-01 -u 2023-02-28 -k 1,8 \
	    --handover 10m --target 99.9% --walk-forward 7d --history 14d -o g.txt "$J"
	cmp f.txt g.txt
	b8=$(cell f.tsv recommended 8 all bound_share)
	b1=$(cell f.tsv recommended 1 all bound_share)
	awk -v b="$b8" 'BEGIN { exit !(b < 0.999) }'
	[ "$b1" = 1.0000 ]
	want=$(awk -v b="$b8" 'BEGIN { printf "at most %.1f%% of these links could start in time whatever was done", 100 * b }')
	grep -qF "$want" f.txt
	# once, for the 8-node chains only
	[ "$(grep -c 'could start in time whatever was done' f.txt)" -eq 1 ]
	grep -q "following the recommendation: " f.txt
}

@test "--walk-forward, --confidence, --history: bad use is a usage error naming the option" {
	run -2 mirage-eval -q -m reference -n 76 --walk-forward 7d "$J"
	[[ "$output" == *"--walk-forward go with --target"* ]]
	run -2 mirage-eval -q -m reference -n 76 --target 99% --history 7d "$J"
	[[ "$output" == *"--history goes with --walk-forward"* ]]
	run -2 mirage-eval -q -m reference -n 76 --target 99% --text t.txt "$J"
	[[ "$output" == *"--text goes with --walk-forward"* ]]
	[ ! -e t.txt ]
	run -2 mirage-eval "${RUN[@]}" --confidence 120% "$J"
	[[ "$output" == *"invalid --confidence '120%'"* ]]
	run -2 mirage-eval "${RUN[@]}" --walk-forward week "$J"
	[[ "$output" == *"invalid --walk-forward 'week'"* ]]
	run -2 mirage-eval "${RUN[@]}" --train-count 8 "$J"
	[[ "$output" == *"--walk-forward takes one --target share"* ]]
	# a history too short for its folds, said before anything is
	# simulated
	run -2 mirage-eval "${RUN[@]}" --history 1d "$J"
	[[ "$output" == *"--history 1.0d holds fewer ended episodes than the 4 folds (each ends 5.0 days after it starts, one every 4.0 h): give at least 5.5d"* ]]
	run -2 mirage-eval "${RUN[@]}" --history 5d --folds 2 "$J"
	[[ "$output" == *"--history 5.0d holds fewer ended episodes than the 2 folds"* ]]
	[ ! -e "$J.tmp" ]
}

@test "--walk-forward: a model is judged only on the episodes it was not trained on" {
	# a model trained on the episodes from 2023-01-20 to 2023-01-25
	mirage-features -q -f 2023-01-20 -N 31 -k 1 -w 1 -o tr.mrs "$J"
	mirage-train -q -a gbt -o gbt.mrm tr.mrs
	mirage-eval "${RUN[@]}" -M gbt.mrm -F tsv --table c.tsv -o w.tsv "$J"
	p1=$(date -u -d 2023-02-06 +%s) p2=$(date -u -d 2023-02-13 +%s)
	# the week from 2023-02-06: its history (from 2023-01-23) holds
	# episodes gbt was trained on; gbt is chosen on those after them
	# (from 2023-01-30) only, and not compared with the others
	n_est=$(awk -F'\t' -v p=$p1 '$1 == p && $2 == 1 && $3 == "scheduler-estimate" { print $6 }' c.tsv)
	n_gbt=$(awk -F'\t' -v p=$p1 '$1 == p && $2 == 1 && $3 == "gbt" { print $6 }' c.tsv)
	[ "$n_gbt" -gt 0 ] && [ "$n_gbt" -lt "$n_est" ]
	[ "$n_gbt" -eq 13 ]	# 2023-01-30 to 2023-02-01, every 4 h
	awk -F'\t' -v p=$p1 '$1 == p && $3 == "gbt" && $12 == 1 { exit 1 }' c.tsv
	# the week from 2023-02-13: its whole history is new to gbt
	[ "$(awk -F'\t' -v p=$p2 '$1 == p && $2 == 1 && $3 == "gbt" { print $6 }' c.tsv)" -eq \
	    "$(awk -F'\t' -v p=$p2 '$1 == p && $2 == 1 && $3 == "scheduler-estimate" { print $6 }' c.tsv)" ]
}

@test "--walk-forward --real: every real job like a successor is a test; each day's settings are the target's quantile of the needs before it, and judge that day's" {
	mirage-eval -q -n 76 --target 99% --walk-forward 1d --real -k 1,8 -f 2023-01-02 -u 2023-02-27 \
	    -F tsv -o real.tsv --table tests.tsv "$J"
	# each test's real wait is the trace's: its start less its submission
	mirage-cat "$J" > jobs.tsv
	python3 - jobs.tsv tests.tsv real.tsv <<'PY'
import csv, sys, math, datetime
jobs = {r["jobid"]: r for r in csv.DictReader(open(sys.argv[1]), delimiter="\t")}
tests = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
real = list(csv.DictReader(open(sys.argv[3]), delimiter="\t"))
def ts(s):
    return int(datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc).timestamp())
day = 86400
t0 = ts("2023-01-02T00:00:00")
judged = [t for t in tests if t["lead_h"] != ""]
assert len(judged) > 2000, len(judged)
for t in tests:
    j = jobs[t["job"]]
    # a successor's size: the size's nodes up to twice them, a day's limit
    assert int(t["size"]) <= int(t["nodes"]) < 2 * int(t["size"]), t
    assert abs(float(t["wait_h"]) - (int(j["start"]) - int(j["submit"])) / 3600) < 1e-3, (t, j)
    t["s"] = ts(t["submit"]); t["start"] = t["s"] + float(t["wait_h"]) * 3600
# each judged test's setting: the 99% quantile of the needs of the tests
# of its size submitted within 28 days before its day, started by then
for rule, need, col in (("lead", "wait_h", "lead_h"), ("estimate", "estimate_miss_h", "margin_h")):
    for t in judged[::97]:
        p0 = t0 + (t["s"] - t0) // day * day
        h = sorted(float(x[need]) for x in tests if x["size"] == t["size"] and p0 - 28 * day <= x["s"] < p0 and x["start"] <= p0 + 1e-6)
        want = max(0.0, h[math.ceil(0.99 * len(h) - 1e-9) - 1])
        assert abs(float(t[col]) - want) < 1e-3, (rule, t, want, len(h))
# the adaptive rules: the level replayed from the outcomes known before
# each day (the jobs started in the day before), a miss raising it
for need, col, k in (("wait_h", "lead_adapt_h", "lead_adapt_kept"), ("estimate_miss_h", "margin_adapt_h", "estimate_adapt_kept")):
    for size in sorted({t["size"] for t in judged}):
        level = 0.99
        days = sorted({t0 + (t["s"] - t0) // day * day for t in judged if t["size"] == size})
        first = t0
        p0 = t0
        while p0 < max(days) + day:
            for x in judged:
                if x["size"] == size and p0 - day <= x["start"] < p0:
                    level += 0.01 * (-(1 - 0.99) if int(x[k]) else 0.99)
            today = [x for x in judged if x["size"] == size and p0 <= x["s"] < p0 + day]
            if today:
                h = sorted(float(x[need]) for x in tests if x["size"] == size and p0 - 28 * day <= x["s"] < p0 and x["start"] <= p0 + 1e-6)
                if level >= 1:
                    want = float("inf")
                else:
                    want = max(0.0, h[max(math.ceil(max(level, 0) * len(h) - 1e-9), 1) - 1])
                got = float(today[0][col])
                assert (want == float("inf") and got == float("inf")) or abs(got - want) < 1e-3, (size, p0, level, got, want)
            p0 += day
# the queue's alarm: the history split in thirds by the pending
# node-hours at submission, each third's own quantile (all's, with fewer
# than 20 in it)
def q99(v):
    v = sorted(v)
    return max(0.0, v[math.ceil(0.99 * len(v) - 1e-9) - 1])
for t in judged[::53]:
    p0 = t0 + (t["s"] - t0) // day * day
    h = [x for x in tests if x["size"] == t["size"] and p0 - 28 * day <= x["s"] < p0 and x["start"] <= p0 + 1e-6]
    loads = sorted(float(x["pending_nh"]) for x in h)
    cut = (loads[len(h) // 3], loads[2 * len(h) // 3])
    def third(l):
        return 0 if l < cut[0] else 1 if l < cut[1] else 2
    mine = [float(x["estimate_miss_h"]) for x in h if third(float(x["pending_nh"])) == third(float(t["pending_nh"]))]
    want = q99(mine) if len(mine) >= 20 else q99([float(x["estimate_miss_h"]) for x in h])
    # the loads are printed to 0.1 node-hour: a test on a cut may fall either side
    if all(abs(float(t["pending_nh"]) - c) > 0.1 for c in cut):
        assert abs(float(t["margin_load_h"]) - want) < 1e-3, (t, want, cut)
# kept: the need within the setting; the table's counts are the tests'
for rule, need, col, k in (("lead", "wait_h", "lead_h", "lead_kept"), ("estimate", "estimate_miss_h", "margin_h", "estimate_kept"),
        ("lead-adapt", "wait_h", "lead_adapt_h", "lead_adapt_kept"), ("estimate-adapt", "estimate_miss_h", "margin_adapt_h", "estimate_adapt_kept"),
        ("estimate-load", "estimate_miss_h", "margin_load_h", "estimate_load_kept")):
    for t in judged:
        # within the setting, at most P's limit (the successor's), and
        # a wait no submission time could make up for is never kept
        lim = float(t["limit_h"])
        s = lim if t[col] == "inf" else float(t[col])
        assert int(t[k]) == (float(t[need]) <= min(s, lim) + 1e-4 and float(t["wait_h"]) <= lim + 1e-4), (t, rule)
    for r in real:
        if r["rule"] != rule:
            continue
        sel = [t for t in judged if t["size"] == r["nodes"] and (r["month"] == "all" or t["submit"][:7] == r["month"])]
        assert int(r["judged"]) == len(sel), (r, len(sel))
        assert int(r["kept"]) == sum(int(t[k]) for t in sel), r
        if sel:
            assert abs(float(r["share"]) - int(r["kept"]) / len(sel)) < 1e-4, r
            assert float(r["lower"]) <= float(r["share"]), r
            # the bound by days, whose links fail together: never above
            # the bound by links (a bootstrap sees no miss not had)
            assert 0 <= float(r["lower_days"]) <= float(r["lower"]) + 1e-9, r
            # what any rule could keep: the jobs that waited at most their limit
            b = sum(float(t["wait_h"]) <= float(t["limit_h"]) + 1e-4 for t in sel) / len(sel)
            assert abs(float(r["bound_share"]) - b) < 1e-4 and float(r["share"]) <= b + 1e-9, r
            # the month's misses against its budget: green within the
            # binomial's 95% quantile of misses at 1%, amber within 99.99%
            n, m = len(sel), len(sel) - int(r["kept"])
            def quant(conf):
                c, k = 0.0, 0
                while True:
                    c += math.comb(n, k) * 0.01 ** k * 0.99 ** (n - k)
                    if c >= conf or k == n:
                        return k
                    k += 1
            assert int(r["misses"]) == m and int(r["budget"]) == quant(0.95), (r, quant(0.95))
            assert r["zone"] == ("green" if m <= quant(0.95) else "amber" if m <= quant(0.9999) else "red"), r
PY
	# the text: month by month, per size and rule
	run -0 mirage-eval -q -n 76 --target 99% --walk-forward 1d --real -k 1 -f 2023-01-02 -u 2023-02-27 "$J"
	[[ "$output" == *"Judged by what really happened"* ]]
	grep -Eq '^  1-node estimate +all +[0-9]+ judged, +[0-9.]+% kept \(95%: at least [0-9.]+%, by days [0-9.]+%; any rule at most' <<<"$output"
	grep -Eq '^  1-node estimate-adapt +all +[0-9]+ judged' <<<"$output"
	# it goes with a walk only, and needs a size the cluster has
	run -2 --separate-stderr mirage-eval -q -n 76 --real "$J"
	[[ "$stderr" == *"--real goes with --target"* ]]
	run -2 --separate-stderr mirage-eval -q -n 76 --target 99% --walk-forward 1d --real -k 1 -f 2023-01-02 -u 2023-01-09 --plan 2 "$J"
	[[ "$stderr" == *"--real: the real jobs judge a fixed lead and the scheduler estimate: no -M or --plan"* ]]
	run -2 --separate-stderr mirage-eval -q -n 76 --target 99% --walk-forward 1d --real -k 128 -f 2023-01-02 -u 2023-01-09 "$J"
	[[ "$stderr" == *"need 128 nodes, the cluster has 76"* ]]
}

@test "--real with --handover and --ready-time: kept means up; a miss is down from the drain to the successor's ready" {
	mirage-eval -q -n 76 --target 99% --walk-forward 1d --real -k 1 -f 2023-01-02 -u 2023-02-27 \
	    --handover 10m --ready-time 5m -F tsv -o real.tsv --table tests.tsv "$J"
	python3 - tests.tsv real.tsv <<'PY'
import csv, sys
tests = [t for t in csv.DictReader(open(sys.argv[1]), delimiter="\t") if t["lead_h"] != ""]
real = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
up = 15 / 60
assert len(tests) > 2000
for rule, need, col, k in (("lead", "wait_h", "lead_h", "lead_kept"), ("estimate", "estimate_miss_h", "margin_h", "estimate_kept"),
        ("lead-adapt", "wait_h", "lead_adapt_h", "lead_adapt_kept"), ("estimate-adapt", "estimate_miss_h", "margin_adapt_h", "estimate_adapt_kept")):
    down, worst = 0.0, 0.0
    for t in tests:
        lim = float(t["limit_h"])
        s = lim if t[col] == "inf" else min(float(t[col]), lim)
        # the successor starts the handover and its ready time before the limit
        kept = float(t[need]) + up <= s + 1e-4 and float(t["wait_h"]) + up <= lim + 1e-4
        assert int(t[k]) == kept, (t, rule)
        if not kept:
            d = max(float(t[need]) + up - s, float(t["wait_h"]) + up - lim, 0) * 60
            down += d
            worst = max(worst, d)
    r = [x for x in real if x["rule"] == rule and x["month"] == "all"][0]
    assert abs(float(r["down_min_per_link"]) - down / len(tests)) < 0.01, (r, down / len(tests))
    assert abs(float(r["worst_down_min"]) - worst) < 0.6, (r, worst)
    assert float(r["worst_down_min"]) > 0, r
PY
	run -2 --separate-stderr mirage-eval -q -n 76 --target 99% --walk-forward 1d -k 1 --ready-time 5m -f 2023-01-02 -u 2023-01-09 "$J"
	[[ "$stderr" == *"--ready-time goes with --real"* ]]
}

@test "--real --ahead 2: the successor's successor queued with the successor; a setting and a wait reach two limits" {
	mirage-eval -q -n 76 --target 99% --walk-forward 1d --real -k 1 -f 2023-01-02 -u 2023-02-27 \
	    -F tsv -o one.tsv "$J"
	mirage-eval -q -n 76 --target 99% --walk-forward 1d --real --ahead 2 -k 1 -f 2023-01-02 -u 2023-02-27 \
	    -F tsv -o real.tsv --table tests.tsv "$J"
	python3 - tests.tsv real.tsv one.tsv <<'PY'
import csv, sys
tests = [t for t in csv.DictReader(open(sys.argv[1]), delimiter="\t") if t["lead_h"] != ""]
real = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
one = list(csv.DictReader(open(sys.argv[3]), delimiter="\t"))
assert len(tests) > 2000
for rule, need, col, k in (("lead", "wait_h", "lead_h", "lead_kept"), ("lead-adapt", "wait_h", "lead_adapt_h", "lead_adapt_kept"),
        ("estimate-adapt", "estimate_miss_h", "margin_adapt_h", "estimate_adapt_kept")):
    for t in tests:
        reach = 2 * float(t["limit_h"])
        s = reach if t[col] == "inf" else min(float(t[col]), reach)
        assert int(t[k]) == (float(t[need]) <= s + 1e-4 and float(t["wait_h"]) <= reach + 1e-4), (t, rule)
    r = [x for x in real if x["rule"] == rule and x["month"] == "all"][0]
    o = [x for x in one if x["rule"] == rule and x["month"] == "all"][0]
    b = sum(float(t["wait_h"]) <= 2 * float(t["limit_h"]) + 1e-4 for t in tests) / len(tests)
    assert abs(float(r["bound_share"]) - b) < 1e-4, (r, b)
    # a wait past one limit is kept by no rule with one link queued:
    # here some are, and no rule keeps fewer
    assert float(r["bound_share"]) > float(o["bound_share"]), (r, o)
    assert float(r["share"]) >= float(o["share"]), (r, o)
PY
	run -2 --separate-stderr mirage-eval -q -n 76 --target 99% --walk-forward 1d --real --ahead 3 -k 1 -f 2023-01-02 -u 2023-01-09 "$J"
	[[ "$stderr" == *"invalid --ahead '3' (want 1, the successor, or 2, also its successor)"* ]]
	run -2 --separate-stderr mirage-eval -q -n 76 --target 99% --walk-forward 1d --ahead 2 -k 1 -f 2023-01-02 -u 2023-01-09 "$J"
	[[ "$stderr" == *"--ahead goes with --real"* ]]
}

@test "--real without a walk: the settings of a day, chosen on the real jobs of the 28 days before it; mirage-advise --settings reads them" {
	# and each test of the walk over those 28 days, with its need
	mirage-eval -q -n 76 --target 99% --real -k 1 -f 2023-02-27 --handover 10m -F tsv -o s.tsv --table tests.tsv "$J"
	python3 - s.tsv tests.tsv <<'PY'
import csv, sys, math, datetime
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
tests = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
def ts(s):
    return int(datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc).timestamp())
day = ts("2023-02-27T00:00:00")
assert [(r["method"], r["setting_kind"]) for r in rows] == [("scheduler-estimate", "margin_h"), ("lead", "lead_h")], rows
hist = [t for t in tests if day - 28 * 86400 <= ts(t["submit"]) < day and ts(t["submit"]) + float(t["wait_h"]) * 3600 <= day]
assert len(hist) > 500, len(hist)
share = {}
for r, col, kept, need in ((rows[0], "margin_adapt_h", "estimate_adapt_kept", "estimate_miss_h"), (rows[1], "lead_adapt_h", "lead_adapt_kept", "wait_h")):
    assert r["judge"] == "real" and r["target"] == "0.99" and r["handover_s"] == "600" and r["cluster_nodes"] == "76", r
    assert int(r["history_end"]) == day, r
    # the walk: each day of the 28 judged; its share and bound, and a
    # promise never above them
    w = [t for t in tests if day - 28 * 86400 <= ts(t["submit"]) < day and t[col] != ""]
    assert len(w) == int(r["train_episodes"]) > 500, (r, len(w))
    assert abs(float(r["walked_share"]) - sum(int(t[kept]) for t in w) / len(w)) < 1e-4, r
    b = sum(float(t["wait_h"]) + 10 / 60 <= float(t["limit_h"]) + 1e-4 for t in w) / len(w)
    assert abs(float(r["train_bound_share"]) - b) < 1e-4, (r, b)
    assert r["certified"] == "1" or float(r["promise"]) <= min(float(r["walked_share"]), b) + 1e-9, r
    # the setting: the quantile of the history's needs at the level the
    # walk reached (over 1: at once, the longest limit)
    lv, needs = float(r["level"]), sorted(float(t[need]) + 10 / 60 for t in hist)
    lim = max(float(t["limit_h"]) for t in hist)
    want = lim if lv >= 1 else min(lim, max(0.0, needs[max(math.ceil(max(lv, 0) * len(needs) - 1e-9), 1) - 1]))
    assert abs(float(r["setting"]) - want) < 2e-3, (r, want)
    share[r["method"]] = float(r["walked_share"])
# the rule that kept more of the walk is recommended (the estimate on a tie)
best = "lead" if share["lead"] > share["scheduler-estimate"] else "scheduler-estimate"
assert [r["method"] for r in rows if r["recommended"] == "1"] == [best], (rows, share)
PY
	# mirage-advise reads it as any settings table
	mg_fake_slurm
	run -0 --separate-stderr mirage-advise -j 500 -n 76 -Q "$FAKE/queue.txt" --now 2026-11-23T23:00:00 \
	    --handover --target 99% --settings s.tsv
	[[ "$output" == *"500 ends in 1.0 h"* ]]
	# a day to choose for, in nodes; the real jobs' options go with --real
	run -2 --separate-stderr mirage-eval -q -n 76 --target 99% --real -k 1 "$J"
	[[ "$stderr" == *"--real without --walk-forward chooses the settings of a day: give it (-f) and the sizes in nodes (-k)"* ]]
	run -2 --separate-stderr mirage-eval -q -n 76 --target 99% --ready-time 5m -k 1 -f 2023-02-20 -N 2 "$J"
	[[ "$stderr" == *"--ready-time goes with --real"* ]]
	run -2 --separate-stderr mirage-eval -q -n 76 --real "$J"
	[[ "$stderr" == *"--real goes with --target"* ]]
}

@test "-u past the trace's last submission is refused: its episodes would see a cluster draining of work" {
	last=$(mirage-cat "$J" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["submit"] > m { m = $c["submit"] } END { print m }')
	day=$(date -u -d @"$last" +%F)
	run -2 --separate-stderr mirage-eval -q -n 76 --target 99% --walk-forward 1d -k 1 -f 2023-03-20 -u "$(date -u -d "$day + 2 days" +%F)" "$J"
	[[ "$stderr" == *"is past the trace's last submission ($(date -u -d @"$last" +%FT%T)): episodes there would see a cluster draining of work; give -u $day or earlier"* ]]
}
