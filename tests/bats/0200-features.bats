#!/usr/bin/env bats
# 0200-features.bats: mirage-features: episodes, probes, labels, the
# samples stream, determinism, bad parameters, and features that use
# nothing after their decision time.

setup() {
	load test_helper
	mg_setup
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
}

# colval FILE ROW COLUMN: a value of the ROWth sample (1-based)
colval() {
	mirage-cat "$1" | awk -F'\t' -v r="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		NR == r + 1 { print $k[c] }'
}

@test "the paper's episodes: 7 probes from P's submission to P's end, labels as the original" {
	run -0 --separate-stderr mirage-features -f 2023-03-01 -N 2 -w 2 -o s.mrs ls6.jobs
	[[ "$stderr" == *"14 samples from 2 episodes (reference mode, 88 nodes"* ]]
	[ "$(records s.mrs)" -eq 14 ]
	mirage-cat -i s.mrs | grep -qx 'record_type	samples'
	# episode 0 (spec 13.3): P starts at once; the first probe is 1 min
	# after P's submission, x = -172740 s; the last is P's end, x = 0
	[ "$(colval s.mrs 1 p_start)" = "$(colval s.mrs 1 p_submit)" ]
	[ "$(colval s.mrs 1 t)" -eq $(( $(colval s.mrs 1 p_submit) + 60 )) ]
	[ "$(colval s.mrs 1 x)" = -172740 ]
	[ "$(colval s.mrs 7 t)" = "$(colval s.mrs 7 p_end)" ]
	[ "$(colval s.mrs 7 x)" = 0 ]
	# the schema: metadata, 33 own features, 2 x 34 + 8 reference values
	hdr=$(mirage-cat s.mrs | head -1 | tr '\t' '\n')
	[ "$(grep -c "^f_" <<<"$hdr")" -eq 33 ]
	[ "$(grep -c '^r1_' <<<"$hdr")" -eq 34 ]
	[ "$(grep -c '^r0_' <<<"$hdr")" -eq 34 ]
	[ "$(grep -c '^r_' <<<"$hdr")" -eq 8 ]
	grep -qx 'f_plan_gap_h' <<<"$hdr"
}

@test "probe times: any number, every decision time, dense near P's end" {
	mirage-features -q -f 2023-03-01 -N 1 -w 1 -p 3 -o p3.mrs ls6.jobs
	[ "$(records p3.mrs)" -eq 3 ]
	mirage-features -q -f 2023-03-01 -N 1 -w 1 -p 0 --probe-every 1h -o ph.mrs ls6.jobs
	# P runs 48 h from its submission: a probe every hour after it
	[ "$(records ph.mrs)" -eq 48 ]
	mirage-features -q -f 2023-03-01 -N 1 -w 1 -p 0 --near-end 12:2h -o pn.mrs ls6.jobs
	# the header records the arguments as given
	mirage-cat -i pn.mrs | grep -q -- '--near-end 12:2h -o pn.mrs'
	[ "$(records pn.mrs)" -eq 12 ]
	mirage-cat pn.mrs | awk -F'\t' 'NR > 1 { d = $9 - $6; if (d <= 0 || d > 7200) exit 1 }'
	# labels move with the submission time: earlier, more overlap
	mirage-cat ph.mrs | awk -F'\t' 'NR > 2 && $10 < prev { exit 1 } NR > 1 { prev = $10 }'
}

@test "both chain sizes, both modes, any threads: same bytes for the same input" {
	mirage-features -q -f 2023-03-01 -N 6 -k 1,8 ls6.jobs > a.mrs
	mirage-features -q -f 2023-03-01 -N 6 -k 1,8 ls6.jobs > b.mrs
	cmp a.mrs b.mrs
	# the thread count changes only the arguments in the header
	mirage-features -q -t 1 -f 2023-03-01 -N 6 -k 1,8 -o c.mrs ls6.jobs
	cmp <(mirage-cat a.mrs) <(mirage-cat c.mrs)
	[ "$(mirage-cat a.mrs | cut -f4 | sort -u | paste -sd' ')" = "1 8 nodes" ]
	mirage-features -q -m faithful -n 84 -t 2 -f 2023-03-01 -N 3 -w 1 -o f1.mrs ls6.jobs
	mirage-features -q -m faithful -n 84 -t 1 -f 2023-03-01 -N 3 -w 1 -o f2.mrs ls6.jobs
	cmp <(mirage-cat f1.mrs) <(mirage-cat f2.mrs)
	[ "$(records f1.mrs)" -eq 21 ]
}

# feats FILE T: the decision time and feature columns of every sample at
# or before T
feats() {
	mirage-cat "$1" | awk -F'\t' -v cut="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) { if ($i ~ /^(f|r[0-9]*)_/) k[++n] = i; if ($i == "t") tc = i }; next }
		$tc <= cut { s = $tc; for (i = 1; i <= n; i++) s = s "\t" $k[i]; print s }'
}

@test "features at a decision time use nothing submitted after it, in every mode and option" {
	# the trace cut at a decision time t (mirage-parse -E t keeps what
	# was submitted before t) gives the same features at and before t;
	# an episode of 2023-01-10 once differed in 34 columns under
	# fair-share, whose holders counted every user of the whole trace
	# decision times on a fixed grid from P's submission (P's start and
	# end lie in the future, and so do probes spread up to P's end)
	local opts row cut ep="-f 2023-01-10 -N 1 -w 6 -p 0 --probe-every 2h"
	while read -r opts; do
		mirage-features -q $opts $ep -o full.mrs ls6.jobs
		for row in 2 5 9; do
			cut=$(colval full.mrs $row t)
			mirage-parse -q -E "$cut" "$ROOT/data/ls6-a100.log.gz" -o cut.jobs
			mirage-features -q $opts $ep -o cut.mrs cut.jobs
			[ "$(feats full.mrs $cut | wc -l)" -eq $row ]
			if [ "$(feats full.mrs $cut)" != "$(feats cut.mrs $cut)" ]; then
				echo "differs: $opts, cut at row $row ($cut)"
				return 1
			fi
		done
	done <<-EOF
	-m reference -n 76
	-m reference -n 88 --warmup 2d
	-m faithful -n 84
	-m faithful -n 84 -s PriorityWeightFairshare=1000
	-m faithful -n 84 -s PriorityWeightFairshare=1000 -s FairshareBy=account
	-m faithful -n 84 -s PriorityWeightFairshare=1000 -s FairshareBy=tree -s PriorityCalcPeriod=3600
	-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120
	-m faithful -n 84 -s CapacityFromTrace=3600 -s CapacitySlack=4
	-m faithful -n 84 -s MaxJobsPerUser=8 -s DependencyFromTrace=120 -s PriorityWeightFairshare=1000 -s CapacityFromTrace=3600 -s CapacitySlack=4
	EOF
	# ... while the labels do see the future
	cut=$(colval full.mrs 2 t)
	mirage-parse -q -E "$cut" "$ROOT/data/ls6-a100.log.gz" -o cut.jobs
	mirage-features -q -m faithful -n 84 $ep -o cut.mrs cut.jobs
	mirage-features -q -m faithful -n 84 $ep -o full.mrs ls6.jobs
	[ "$(mirage-cat full.mrs | cut -f8-11 | md5sum)" != "$(mirage-cat cut.mrs | cut -f8-11 | md5sum)" ]
}

@test "the original's probe features (--at-start) differ from decision-time ones" {
	mirage-features -q -f 2023-03-01 -N 1 -k 1 -w 144 --at-start -o at.mrs ls6.jobs
	mirage-features -q -f 2023-03-01 -N 1 -k 1 -w 144 -o dt.mrs ls6.jobs
	# spec 13.3, episode 0, reactive probe (S submitted at P's end),
	# newest snapshot at S's start: 38 jobs running on 56 nodes
	[ "$(colval at.mrs 7 r0_run_jobs)" = 38 ]
	[ "$(colval at.mrs 7 r0_run_nodes)" = 56 ]
	[ "$(colval at.mrs 7 r_p_elapsed)" = 172800 ]
	[ "$(colval at.mrs 1 r143_run_elapsed_p100)" = 83160 ]
	# episode 22: S submitted 1 min after P waits until 19:24; the
	# original's features are from then (55 pending), ours from the
	# decision time (83 pending)
	mirage-features -q -f 2023-03-04T16:00:00 -N 1 -k 1 -w 144 --at-start -o at22.mrs ls6.jobs
	mirage-features -q -f 2023-03-04T16:00:00 -N 1 -k 1 -w 144 -o dt22.mrs ls6.jobs
	[ "$(colval at22.mrs 1 x)" = -172560 ]
	[ "$(colval dt22.mrs 1 x)" = -172560 ]
	[ "$(colval at22.mrs 1 r0_pend_jobs)" = 55 ]
	[ "$(colval dt22.mrs 1 r0_pend_jobs)" = 83 ]
}

@test "bad parameters are named: P too big, warm-up too long, empty window, bad spans" {
	run -2 --separate-stderr mirage-features -f 2023-03-01 -N 1 -k 100 ls6.jobs
	[[ "$stderr" == "mirage-features: P and S need 100 nodes, the cluster has 88" ]]
	run -2 --separate-stderr mirage-features -f 2023-03-01 -N 1 --warmup 6d ls6.jobs
	[[ "$stderr" == *"warm-up (518400 s) must be shorter than the workload window (432000 s)"* ]]
	# a data condition, not a usage error: exit 1, and what to do
	run -1 --separate-stderr mirage-features -f 2030-01-01 -N 1 -o x.mrs ls6.jobs
	[[ "$stderr" == *"episode at 2030-01-01T00:00:00: no job of the trace is submitted in its workload window (of 5.0 days before it): choose episodes inside the trace's span"* ]]
	[ ! -e x.mrs ]
	run -1 --separate-stderr mirage-features -f 2030-01-01 -o x.mrs ls6.jobs
	[[ "$stderr" == *"no episode: the trace's submissions span 177.5 days (2022-10-05T11:52:48 to 2023-03-31T23:54:55); the first episode needs 2649.5 days of it"*"give a longer dump, or an earlier -f"* ]]
	[ ! -e x.mrs ]
	# an empty but valid jobs stream: said, with the file
	printf 'JobID|Submit|Start|End|Timelimit|NNodes|State\n' | mirage-parse -q -o empty.jobs
	run -1 --separate-stderr mirage-features -f 2022-12-01 -N 1 -o x.mrs empty.jobs
	[[ "$stderr" == "mirage-features: 'empty.jobs': no job that ran" ]]
	run -1 --separate-stderr mirage-eval -m reference -n 4 empty.jobs
	[[ "$stderr" == *"'empty.jobs': no job that ran"* ]]
	run -2 --separate-stderr mirage-features -e 4x ls6.jobs
	[[ "$stderr" == *"invalid interval '4x'"* ]]
	run -2 --separate-stderr mirage-features -f 2023-02-30 ls6.jobs
	[[ "$stderr" == *"invalid date '2023-02-30'"* ]]
	run -2 mirage-features -p 0 ls6.jobs
	run -1 --separate-stderr mirage-features missing.jobs
	[ "$stderr" = "mirage-features: cannot open 'missing.jobs': No such file or directory" ]
	run -2 --separate-stderr mirage-features --p-runtime 3d -N 1 ls6.jobs
	[[ "$stderr" == *"run times must be between 0 and the time limit"* ]]
	run -2 --separate-stderr mirage-features -w 300 ls6.jobs
	head -c 2000 ls6.jobs > cut.jobs
	run -5 mirage-features -N 1 cut.jobs
	run -6 mirage-features -N 1 <(mirage-features -q -f 2023-03-01 -N 1 -w 1 ls6.jobs)
}

@test "P's run time shorter than its limit moves P's end, and the labels with it" {
	mirage-features -q -f 2023-03-01 -N 1 -w 1 -p 1 --p-runtime 24h -o short.mrs ls6.jobs
	[ $(( $(colval short.mrs 1 p_end) - $(colval short.mrs 1 p_start) )) -eq 86400 ]
}

@test "sizes in GPUs take whole nodes; longer chains submit each link at its predecessor's end" {
	run -2 --separate-stderr mirage-features -f 2023-03-01 -N 1 -g 4 ls6.jobs
	[[ "$stderr" == *"sizes in GPUs need the GPUs of a node"* ]]
	mirage-features -q -s GpusPerNode=3 -f 2023-03-01 -N 2 -w 1 -g 3,4 -o g.mrs ls6.jobs
	[ "$(mirage-cat g.mrs | cut -f4 | tail -n +2 | sort -u | paste -sd' ')" = "1 2" ]
	mirage-features -q -f 2023-03-01 -N 2 -w 1 -k 1,2 -o k.mrs ls6.jobs
	cmp <(mirage-cat g.mrs) <(mirage-cat k.mrs)
	# a chain of 3: P is the second job, submitted when the first ends
	mirage-features -q -f 2023-03-01 -N 1 -w 1 -p 1 --workload 7d -o c2.mrs ls6.jobs
	mirage-features -q -f 2023-03-01 -N 1 -w 1 -p 1 --workload 7d --chain 3 -o c3.mrs ls6.jobs
	[ "$(colval c3.mrs 1 p_submit)" -eq "$(colval c2.mrs 1 p_end)" ]
	[ "$(colval c3.mrs 1 p_submit)" -ge $(( $(colval c2.mrs 1 p_submit) + 172800 )) ]
	run -2 mirage-features -N 1 --chain 1 ls6.jobs
}

@test "--help, --version" {
	run -0 --separate-stderr mirage-features --help
	[[ "$output" == "usage: mirage-features "* ]]
	run -0 mirage-features --version
	[[ "$output" == "mirage-features 0."* ]]
}

@test "--shard i/n: the shards concatenate into the unsharded samples" {
	mirage-features -q -f 2023-01-01 -N 7 -k 1,8 -w 2 -o all.mrs ls6.jobs
	for i in 0 1 2; do
		mirage-features -q --shard $i/3 -f 2023-01-01 -N 7 -k 1,8 -w 2 -o s$i.mrs ls6.jobs
	done
	# each shard has its own episodes: 0 3 6, 1 4, 2 5
	[ "$(mirage-cat s1.mrs | cut -f1 | tail -n +2 | sort -un | paste -sd' ')" = "1 4" ]
	cat s2.mrs s0.mrs s1.mrs > m.mrs
	diff <(mirage-cat all.mrs | sort) <(mirage-cat m.mrs | sort)
	run -2 --separate-stderr mirage-features --shard 3/3 -N 2 ls6.jobs
	[[ "$stderr" == *"invalid shard '3/3'"* ]]
	run -2 --separate-stderr mirage-features --shard 5/8 -N 2 ls6.jobs
	[[ "$stderr" == *"shard 5/8 has no episode (there are 2)"* ]]
}

@test "progress: none in a pipe or a log unless asked, one rewritten line on a terminal" {
	mirage-features -f 2023-03-01 -N 3 -w 1 -p 2 -t 1 -o a.mrs ls6.jobs 2> log.txt
	! grep -q "episodes, .* samples$" log.txt
	grep -q "^mirage-features: .* samples from 3 episodes" log.txt
	mirage-features --progress -f 2023-03-01 -N 3 -w 1 -p 2 -t 1 -o b.mrs ls6.jobs 2> log.txt
	grep -q "^mirage-features: 3/3 episodes, .* samples$" log.txt
	run -0 --separate-stderr mirage-features -q --progress -f 2023-03-01 -N 3 -w 1 -p 2 -o c.mrs ls6.jobs
	[ -z "$stderr" ]
	# a terminal (script(1) gives one): carriage returns, one line
	script -qec "mirage-features -f 2023-03-01 -N 3 -w 1 -p 2 -t 1 -o d.mrs ls6.jobs" /dev/null > tty.txt
	grep -q $'\rmirage-features: 3/3 episodes' tty.txt
	cmp <(mirage-cat a.mrs) <(mirage-cat d.mrs)
	mirage-eval -f 2023-03-01 -N 2 -o /dev/null ls6.jobs 2> log.txt
	! grep -q "/2 episodes" log.txt
	mirage-eval --progress -f 2023-03-01 -N 2 -o /dev/null ls6.jobs 2> log.txt
	grep -q "^mirage-eval: 2/2 episodes$" log.txt
}
