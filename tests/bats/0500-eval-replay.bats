#!/usr/bin/env bats
# 0500-eval-replay.bats: mirage-eval --replay on the LS6 trace in
# reference mode gives the original Mirage simulator's whole-trace
# figures (simulated mean wait 0.44 h against a real 4.07 h, wait MAE
# 4.10 h, Spearman 0.21: measured with the original code, see the spec).

setup() {
	load test_helper
	mg_setup
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
}

col() { # col FILE GROUP COLUMN
	awk -F'\t' -v g="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	    $1 == g { print $k[c] }' "$1"
}

@test "reference replay at 88 nodes: the original's figures" {
	run -0 --separate-stderr mirage-eval --replay -o sum.tsv -j jobs.tsv ls6.jobs
	[[ "$stderr" == *"replayed 24777 jobs"*"on 88 nodes, reference mode"* ]]
	[ "$(col sum.tsv all jobs)" = 24777 ]
	[ "$(col sum.tsv all real_mean_wait_h)" = 4.065 ]
	[ "$(printf '%.2f' "$(col sum.tsv all sim_mean_wait_h)")" = 0.44 ]
	[ "$(printf '%.2f' "$(col sum.tsv all wait_mae_h)")" = 4.10 ]
	[ "$(printf '%.2f' "$(col sum.tsv all spearman)")" = 0.21 ]
}

@test "the summary has a header and one row per group; per-job TSV has every job" {
	mirage-eval --replay -q -o sum.tsv -j jobs.tsv ls6.jobs
	[ "$(head -1 sum.tsv)" = "$(printf 'group\tjobs\treal_mean_wait_h\tsim_mean_wait_h\twait_mae_h\twait_median_abs_err_h\twait_bias_h\tspearman\tshare_within_10min\tshare_within_1h')" ]
	[ "$(cut -f1 sum.tsv | tail -n +2 | paste -sd' ')" = "all nodes=1 nodes=2-4 nodes=5-16 nodes>=17 limit<=1h limit<=6h limit<=24h limit<=48h limit>48h" ]
	[ "$(tail -n +2 jobs.tsv | wc -l)" -eq 24777 ]
	# the size groups partition the jobs
	[ $(( $(col sum.tsv nodes=1 jobs) + $(col sum.tsv nodes=2-4 jobs) + $(col sum.tsv nodes=5-16 jobs) + $(col sum.tsv 'nodes>=17' jobs) )) -eq 24777 ]
}

@test "fewer nodes, longer simulated waits" {
	mirage-eval --replay -q -n 76 -o s76.tsv ls6.jobs
	mirage-eval --replay -q -n 88 -o s88.tsv ls6.jobs
	awk -v a="$(col s76.tsv all sim_mean_wait_h)" -v b="$(col s88.tsv all sim_mean_wait_h)" 'BEGIN { exit !(a > b) }'
}

@test "--help prints the usage on stdout and exits 0" {
	run -0 --separate-stderr mirage-eval --help
	[[ "$output" == "usage: mirage-eval "* ]]
	[[ "$output" == *"mirage-eval --replay "* ]]
	[ -z "$stderr" ]
}

@test "bad use: episode options with --replay, unknown mode, a job bigger than the cluster, not a jobs stream" {
	run -2 --separate-stderr mirage-eval --replay -N 3 ls6.jobs
	[[ "$stderr" == *"--replay takes no episode or method options"* ]]
	run -2 mirage-eval -j x.tsv ls6.jobs
	run -2 --separate-stderr mirage-eval --replay -m fast ls6.jobs
	[[ "$stderr" == *"Mode is reference or faithful, not 'fast'"* ]]
	run -1 --separate-stderr mirage-eval --replay -n 32 ls6.jobs
	[[ "$stderr" == *"needs 64 nodes, the cluster has 32"* ]]
	run -4 --separate-stderr mirage-eval --replay "$ROOT/data/ls6-a100.log.gz"
	head -c 1000 ls6.jobs > cut.jobs
	run -5 mirage-eval --replay cut.jobs
}

@test "an output that cannot be written leaves neither file" {
	run -1 --separate-stderr mirage-eval --replay -q -j nodir/j.tsv -o s.tsv ls6.jobs
	[[ "$stderr" == "mirage-eval: cannot create 'nodir/j.tsv' (written to a temporary file beside it, then renamed): No such file or directory" ]]
	[ ! -e s.tsv ]
	# the per-job file written, then the table cannot be created
	run -1 --separate-stderr mirage-eval --replay -q -j j.tsv -o nodir/s.tsv ls6.jobs
	[[ "$stderr" == "mirage-eval: cannot create 'nodir/s.tsv'"* ]]
	[ ! -e j.tsv ]
	[ -z "$(ls j.tsv.tmp.* 2>/dev/null)" ]
	run -1 --separate-stderr mirage-eval --replay -q -j /dev/full -o s.tsv ls6.jobs
	[[ "$stderr" == *"cannot write '/dev/full'"* ]]
	[ ! -e s.tsv ]
	[ -c /dev/full ]
}

@test "same input, same output" {
	mirage-eval --replay -q ls6.jobs > a
	mirage-eval --replay -q < ls6.jobs > b
	cmp a b
}

@test "a config file in slurm.conf's keys and units; errors name the line" {
	cat > ls6.conf <<-'EOF'
	# LS6 gpu-a100, as far as the trace tells
	Mode=faithful
	Nodes=84
	PriorityType=priority/multifactor
	PriorityWeightAge=1000
	PriorityMaxAge=7-0
	PriorityWeightJobSize=1000
	SchedulerParameters=bf_continue,bf_interval=30,bf_resolution=600,bf_window=2880
	MaxJobsPerUser=8
	EOF
	run -0 --separate-stderr mirage-eval --replay -c ls6.conf -o c.tsv ls6.jobs
	[[ "$stderr" == *"on 84 nodes, faithful mode"* ]]
	mirage-eval --replay -q -m faithful -n 84 -s MaxJobsPerUser=8 \
	    -s SchedulerParameters=bf_resolution=600,bf_window=2880 -o o.tsv ls6.jobs
	cmp c.tsv o.tsv
	printf 'Nodes=84\nPriorityWeightAgee=10\n' > typo.conf
	run -2 --separate-stderr mirage-eval --replay -c typo.conf ls6.jobs
	[[ "$stderr" == *"'typo.conf': line 2: unknown key 'PriorityWeightAgee'"* ]]
	printf 'PriorityMaxAge=soon\n' > bad.conf
	run -2 --separate-stderr mirage-eval --replay -c bad.conf ls6.jobs
	[[ "$stderr" == *"line 1: bad value 'soon' for PriorityMaxAge"* ]]
}

@test "faithful mode: a per-user limit lengthens waits; the fit improves" {
	mirage-eval --replay -q -m faithful -n 84 -o a.tsv ls6.jobs
	mirage-eval --replay -q -m faithful -n 84 -s MaxJobsPerUser=8 -o b.tsv ls6.jobs
	awk -v a="$(col a.tsv all sim_mean_wait_h)" -v b="$(col b.tsv all sim_mean_wait_h)" 'BEGIN { exit !(b > a) }'
	awk -v a="$(col a.tsv all spearman)" -v b="$(col b.tsv all spearman)" 'BEGIN { exit !(b > a) }'
}

@test "a job that can never start in the model is named, not waited for" {
	run -1 --separate-stderr mirage-eval --replay -m faithful -n 84 -s MaxNodesPerUser=16 ls6.jobs
	[[ "$stderr" == *"job "*" (32 nodes) never starts in this model"* ]]
	[[ "$stderr" == *"the replay did not start every job"* ]]
}

@test "partitions: each a pool of its own; a trace partition must be configured" {
	mirage-parse -q "$FINAL/sacct_wide_P_X.txt" -o final.jobs
	printf 'Mode=faithful\nPartitionName=batch Nodes=6 Default=YES MaxTime=02:00:00\nPartitionName=gpu Nodes=2\n' > p.conf
	run -1 --separate-stderr mirage-eval --replay -c p.conf final.jobs
	[[ "$stderr" == *"partition 'long' of the trace is not in the config"* ]]
	printf 'PartitionName=long Nodes=6\n' >> p.conf
	run -0 --separate-stderr mirage-eval --replay -c p.conf -o s.tsv final.jobs
	[[ "$stderr" == *"on 14 nodes, faithful mode"* ]]
	[ "$(col s.tsv all jobs)" -gt 40 ]
	printf 'PartitionName=gpu Nodes=1\n' > small.conf
	printf 'Mode=faithful\nPartitionName=batch Nodes=6\nPartitionName=long Nodes=6\n' >> small.conf
	run -1 --separate-stderr mirage-eval --replay -c small.conf final.jobs
	[[ "$stderr" == *"partition 'gpu' has 1"* ]]
	printf 'PartitionName=gpu\n' > bad.conf
	run -2 --separate-stderr mirage-eval --replay -c bad.conf final.jobs
	[[ "$stderr" == *"line 1: partition 'gpu' has no Nodes= (a count or a hostlist)"* ]]
}

@test "overlapping partitions: the test cluster's own slurm.conf lines, where long shares batch's nodes" {
	mirage-parse -q "$FINAL/sacct_wide_P_X.txt" -o final.jobs
	# the partitions of the Slurm that ran these jobs (slurm-lab.sh)
	cat > lab.conf <<-'C'
	Mode=faithful
	NodeName=c[1-6] NodeHostname=localhost CPUs=4 State=UNKNOWN
	NodeName=g[1-2] NodeHostname=localhost CPUs=8 Gres=gpu:a100:2
	PartitionName=batch Nodes=c[1-6] Default=YES MaxTime=02:00:00
	PartitionName=long  Nodes=c[1-6] MaxTime=UNLIMITED
	PartitionName=gpu   Nodes=g[1-2] MaxTime=1-00:00:00
	C
	run -0 --separate-stderr mirage-eval --replay -c lab.conf -o lab.tsv final.jobs
	[[ "$stderr" == *"on 8 nodes, faithful mode"* ]]
	# as three pools of their own the cluster would have 14 nodes; the
	# real waits rank better with the shared nodes (0.697 and 0.667)
	printf 'Mode=faithful\nPartitionName=batch Nodes=6\nPartitionName=gpu Nodes=2\nPartitionName=long Nodes=6\n' > disjoint.conf
	mirage-eval --replay -q -c disjoint.conf -o disjoint.tsv final.jobs
	[ "$(col lab.tsv all jobs)" -eq "$(col disjoint.tsv all jobs)" ]
	awk -v a="$(col lab.tsv all spearman)" -v b="$(col disjoint.tsv all spearman)" 'BEGIN { exit !(a > b) }'
	# a node no NodeName= line names; a bad hostlist (with its line)
	sed 's/c\[1-6\] MaxTime=UNL/c[1-7] MaxTime=UNL/' lab.conf > bad.conf
	run -2 --separate-stderr mirage-eval --replay -c bad.conf final.jobs
	[[ "$stderr" == *"'bad.conf': line 5: partition 'long': node 'c7' is on no NodeName= line"* ]]
	# capacity from the trace is one pool's
	run -1 --separate-stderr mirage-eval --replay -c lab.conf -s CapacityFromTrace=600 final.jobs
	[[ "$stderr" == *"CapacityFromTrace needs a cluster of one partition"* ]]
	printf 'Mode=faithful\nPartitionName=gpu Nodes=g[2-1]\n' > bad.conf
	run -2 --separate-stderr mirage-eval --replay -c bad.conf final.jobs
	[[ "$stderr" == *"line 2: bad range '2-1' in hostlist"* ]]
}

@test "faithful replay: a QOS's priority reorders the queue; Eligible times hold jobs" {
	cat > q.txt <<-'Q'
	JobID|User|Account|QOS|Submit|Eligible|Start|End|Timelimit|NNodes|State
	1|a|pa|normal|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|4|COMPLETED
	2|a|pa|normal|2026-01-01T00:00:10|2026-01-01T00:00:10|2026-01-01T01:00:00|2026-01-01T02:00:00|01:00:00|4|COMPLETED
	3|b|pb|high|2026-01-01T00:00:20|2026-01-01T00:00:20|2026-01-01T02:00:00|2026-01-01T03:00:00|01:00:00|4|COMPLETED
	4|b|pb|normal|2026-01-01T00:00:30|2026-01-01T05:00:00|2026-01-01T05:00:00|2026-01-01T05:10:00|01:00:00|1|COMPLETED
	Q
	mirage-parse -q q.txt -o q.mrs
	printf 'Mode=faithful\nNodes=4\nPriorityWeightQOS=100000\nQOSName=high Priority=100\nQOSName=normal Priority=10 MaxJobsPerUser=5\n' > q.conf
	mirage-eval --replay -q -c q.conf -j j.tsv q.mrs > /dev/null
	# job 3 (QOS high) overtakes job 2; job 4 waits for its Eligible time
	[ "$(cut -f1,6 j.tsv | tail -n +2 | paste -sd' ')" = "$(printf '1\t0 2\t7190 3\t3580 4\t17970')" ]
	mirage-eval --replay -q -m faithful -n 4 -j k.tsv q.mrs > /dev/null
	[ "$(cut -f1,6 k.tsv | tail -n +2 | paste -sd' ')" = "$(printf '1\t0 2\t3590 3\t7180 4\t17970')" ]
	printf 'QOSName=high Priority=x\n' > bad.conf
	run -2 --separate-stderr mirage-eval --replay -q -m faithful -c bad.conf q.mrs
	[[ "$stderr" == *"'bad.conf': line 1: bad Priority of QOS 'high'"* ]]
	# fair-share by account: users a and b have accounts of their own
	# here, so it matches fair-share by user
	mirage-eval --replay -q -c q.conf -s PriorityWeightFairshare=1000 -s FairshareBy=user -j u.tsv q.mrs > /dev/null
	mirage-eval --replay -q -c q.conf -s PriorityWeightFairshare=1000 -s FairshareBy=account -j a.tsv q.mrs > /dev/null
	cmp u.tsv a.tsv
	run -2 --separate-stderr mirage-eval --replay -q -m faithful -s FairshareBy=group q.mrs
	[[ "$stderr" == *"FairshareBy is user, account or tree, not 'group'"* ]]
}

@test "faithful replay: a maintenance reservation, as scontrol shows it, holds back jobs that would run into it" {
	cat > r.txt <<-'R'
	JobID|User|Submit|Start|End|Timelimit|NNodes|State
	1|a|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|4|COMPLETED
	2|b|2026-01-01T00:30:00|2026-01-01T03:00:00|2026-01-01T03:30:00|01:00:00|2|COMPLETED
	3|c|2026-01-01T00:40:00|2026-01-01T01:00:00|2026-01-01T01:20:00|00:20:00|2|COMPLETED
	R
	mirage-parse -q r.txt -o r.mrs
	# job 2's hour would run into the maintenance from 01:30; job 3's
	# 20 minutes do not
	printf 'Mode=faithful\nNodes=4\nReservationName=maint StartTime=2026-01-01T01:30:00 EndTime=2026-01-01T03:00:00 Duration=01:30:00 Nodes=c[1-4] NodeCnt=4 Flags=MAINT,IGNORE_JOBS\n' > r.conf
	mirage-eval --replay -q -c r.conf -j j.tsv r.mrs > /dev/null
	[ "$(cut -f1,6 j.tsv | tail -n +2 | paste -sd' ')" = "$(printf '1\t0 2\t9000 3\t1200')" ]
	# unannounced (no reservation), job 2 starts at job 1's end
	mirage-eval --replay -q -m faithful -n 4 -j k.tsv r.mrs > /dev/null
	[ "$(cut -f1,6 k.tsv | tail -n +2 | paste -sd' ')" = "$(printf '1\t0 2\t1800 3\t1200')" ]
	printf 'Mode=faithful\nReservationName=maint StartTime=2026-01-01T01:30:00 NodeCnt=4\n' > bad.conf
	run -2 --separate-stderr mirage-eval --replay -c bad.conf r.mrs
	[[ "$stderr" == *"line 2: reservation 'maint' needs StartTime=, EndTime= or Duration=, and NodeCnt= or Nodes="* ]]
	printf 'ReservationName=m StartTime=2026-01-01T01:30:00 Duration=90 NodeCnt=4\n' > ref.conf
	run -1 --separate-stderr mirage-eval --replay -c ref.conf r.mrs
	[[ "$stderr" == *"reservations need Mode=faithful"* ]]
}

@test "faithful replay with preemption: urgent jobs preempt best-effort ones by the chosen policy" {
	local pre=(-m faithful -n 84 -s PreemptMode=REQUEUE -s DLAttrSeed=1)
	run -0 --separate-stderr mirage-eval --replay "${pre[@]}" -s VictimPolicy=pickyman -o p.tsv -j pj.tsv ls6.jobs
	[[ "$stderr" == *"preemption (PreemptMode=REQUEUE, VictimPolicy=pickyman): "*" preemptions, "*" node-hours lost, makespan "* ]]
	[[ "$stderr" == *"urgent "*" jobs, wait mean "*"best-effort "*" jobs"* ]]
	# the class groups, urgent and best-effort adding up to all
	local u b a
	u=$(col p.tsv class=urgent jobs)
	b=$(col p.tsv class=best-effort jobs)
	a=$(col p.tsv all jobs)
	[ "$u" -gt 0 ] && [ "$b" -gt "$u" ] && [ $((u + b)) -eq "$a" ]
	# the per-job file: class, preemptions, lost node-hours, end
	head -1 pj.tsv | grep -q $'\tclass\tpreemptions\tlost_node_h\tsim_end$'
	awk -F'\t' 'NR > 1 && $8 > 0 { n++ } END { exit !(n > 0) }' pj.tsv
	[ "$(awk -F'\t' 'NR > 1 && $7 == "urgent" && $8 > 0' pj.tsv | wc -l)" -eq 0 ]
	# the same seed, the same run; youngest-first chooses other victims
	mirage-eval --replay -q "${pre[@]}" -s VictimPolicy=pickyman -o p2.tsv ls6.jobs
	cmp p.tsv p2.tsv
	run -0 --separate-stderr mirage-eval --replay "${pre[@]}" -s PreemptParameters=youngest_first -o y.tsv ls6.jobs
	[[ "$stderr" == *"VictimPolicy=youngest"* ]]
	! cmp -s p.tsv y.tsv
	# predictions off by 50%: other victims, the same for the same seed
	mirage-eval --replay -q "${pre[@]}" -s VictimPolicy=pickyman -s PreemptPredictError=0.5 -o e1.tsv ls6.jobs
	mirage-eval --replay -q "${pre[@]}" -s VictimPolicy=pickyman -s PreemptPredictError=0.5 -o e2.tsv ls6.jobs
	cmp e1.tsv e2.tsv
	! cmp -s p.tsv e1.tsv
	# off: today's replay to the byte
	mirage-eval --replay -q -m faithful -n 84 -o off.tsv ls6.jobs
	mirage-eval --replay -q -m faithful -n 84 -s PreemptMode=OFF -s DLAttrSeed=1 -o off2.tsv ls6.jobs
	cmp off.tsv off2.tsv
	# what is not modelled, or not Slurm's, is refused by name
	run -2 --separate-stderr mirage-eval --replay -m faithful -s PreemptMode=SUSPEND ls6.jobs
	[[ "$stderr" == *"PreemptMode=SUSPEND needs the gang scheduler that resumes the suspended jobs: SUSPEND,GANG"* ]]
	run -2 --separate-stderr mirage-eval --replay -m faithful -s PreemptType=preempt/fifo ls6.jobs
	[[ "$stderr" == *"PreemptType is preempt/qos, preempt/partition_prio or preempt/none, not 'preempt/fifo'"* ]]
	run -2 --separate-stderr mirage-eval --replay -m faithful -s VictimPolicy=lifo ls6.jobs
	[[ "$stderr" == *"VictimPolicy is prio, youngest, random, las, pickyman, greedy or exact, not 'lifo'"* ]]
	run -1 --separate-stderr mirage-eval --replay -m reference -s PreemptMode=REQUEUE ls6.jobs
	[[ "$stderr" == *"preemption needs Mode=faithful"* ]]
}

@test "faithful replay with preemption: QOS Preempt= lists, partition tiers, SUSPEND,GANG, as slurm.conf and sacctmgr say them" {
	cat > q.txt <<-'Q'
	JobID|User|Account|QOS|Partition|Submit|Eligible|Start|End|Timelimit|NNodes|State
	1|a|pa|normal|lo|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|4|COMPLETED
	2|b|pb|high|hi|2026-01-01T00:10:00|2026-01-01T00:10:00|2026-01-01T01:00:00|2026-01-01T02:00:00|01:00:00|4|COMPLETED
	Q
	mirage-parse -q q.txt -o q.mrs
	# no urgent class: who preempts is the QOS lists' or the tiers' say
	printf 'Mode=faithful\nNodeName=g[1-4]\nPartitionName=lo Nodes=g[1-4]\nPartitionName=hi Nodes=g[1-4]\nPreemptType=preempt/qos\nPreemptMode=REQUEUE\nUrgentShare=0\nQOSName=normal\nQOSName=high Preempt=normal\n' > p.conf
	mirage-eval --replay -q -c p.conf -j p.tsv q.mrs > /dev/null
	# job 2 (high) preempts job 1 (normal): it waits only for job 1's
	# checkpoint, not its end (3000 s)
	[ "$(awk -F'\t' '$1 == 1 { print $8 }' p.tsv)" -eq 1 ]
	[ "$(awk -F'\t' '$1 == 2 { print $6 }' p.tsv)" -lt 3000 ]
	sed 's/ Preempt=normal//' p.conf > n.conf
	mirage-eval --replay -q -c n.conf -j n.tsv q.mrs > /dev/null
	[ "$(awk -F'\t' '$1 == 2 { print $6 }' n.tsv)" -eq 3000 ]
	# partition tiers, suspending: job 2 starts at once, job 1 resumes
	# when it ends and runs its last 50 minutes
	printf 'Mode=faithful\nNodeName=g[1-4]\nPartitionName=lo Nodes=g[1-4] PriorityTier=1\nPartitionName=hi Nodes=g[1-4] PriorityTier=2\nPreemptType=preempt/partition_prio\nPreemptMode=SUSPEND,GANG\nUrgentShare=0\n' > s.conf
	run -0 --separate-stderr mirage-eval --replay -c s.conf -j s.tsv q.mrs
	[[ "$stderr" == *"preemption (PreemptMode=SUSPEND,GANG, VictimPolicy=prio): 1 preemptions, 0.0 node-hours lost"* ]]
	[ "$(awk -F'\t' '$1 == 2 { print $6 }' s.tsv)" -eq 0 ]
	[ "$(awk -F'\t' '$1 == 1 { print $10 - $4 }' s.tsv)" -eq $((600 + 3600 + 3000)) ]
	sed 's/PriorityTier=2/PriorityTier=1/' s.conf > e.conf
	mirage-eval --replay -q -c e.conf -j e.tsv q.mrs > /dev/null
	[ "$(awk -F'\t' '$1 == 2 { print $6 }' e.tsv)" -eq 3000 ]
	printf 'QOSName=high Preempt=normal,%0300d\n' 0 > long.conf
	run -2 --separate-stderr mirage-eval --replay -m faithful -c long.conf q.mrs
	[[ "$stderr" == *"'long.conf': line 1: Preempt= of QOS 'high' too long"* ]]
	printf 'PartitionName=x Nodes=4 PriorityTier=high\n' > tier.conf
	run -2 --separate-stderr mirage-eval --replay -m faithful -c tier.conf q.mrs
	[[ "$stderr" == *"line 1: bad PriorityTier of partition 'x'"* ]]
}

@test "loaning: an inference pool lends its spare nodes; a pool with nothing to spare changes nothing" {
	local l=(-m faithful -n 84 -s InferenceNodes=40)
	run -0 --separate-stderr mirage-eval --replay "${l[@]}" -o l.tsv -j lj.tsv ls6.jobs
	[[ "$stderr" == *"loaning (InferenceNodes=40, ReclaimPolicy=fewest): "*" node-hours lent ("*" nodes on average); usage "*"% of the cluster and its loans, "*"% of the lent nodes; "*" reclaims preempting "*" jobs and shrinking 0; 0 SLO violations (0.00 node-hours short)"* ]]
	[[ "$stderr" == *"all   24777 jobs, wait mean "*" h, p95 "*" h; completion time mean "*" h"* ]]
	head -1 lj.tsv | grep -q $'\tclass\tpreemptions\tlost_node_h\tsim_end$'
	# more nodes, shorter waits than without loaning
	mirage-eval --replay -q -m faithful -n 84 -o p.tsv ls6.jobs
	awk -F'\t' 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == "all" { w[++k] = $c["sim_mean_wait_h"] }
		END { exit !(w[1] < w[2] / 2) }' l.tsv p.tsv
	# reclaims preempt jobs (and never more with fewest than with random)
	run -0 --separate-stderr mirage-eval --replay "${l[@]}" -s ReclaimPolicy=random -o /dev/null ls6.jobs
	local nf nr
	nf=$(mirage-eval --replay "${l[@]}" -o /dev/null ls6.jobs 2>&1 | sed -n 's/.*preempting \([0-9]*\) jobs.*/\1/p')
	nr=$(sed -n 's/.*preempting \([0-9]*\) jobs.*/\1/p' <<< "$stderr")
	[ "$nf" -gt 0 ] && [ "$nf" -le "$nr" ]
	# nothing to spare: the plain replay, to the byte
	mirage-eval --replay -q "${l[@]}" -s InferenceBase=40 -s InferenceAmplitude=0 -s InferenceNoise=0 -o s.tsv ls6.jobs
	cmp s.tsv p.tsv
	# the same seed, the same run; another seed, another demand
	mirage-eval --replay -q "${l[@]}" -o l2.tsv ls6.jobs
	cmp l.tsv l2.tsv
	mirage-eval --replay -q "${l[@]}" -s InferenceSeed=2 -o l3.tsv ls6.jobs
	! cmp -s l.tsv l3.tsv
	# a demand file of request rates: all day at 36 of 40 nodes, so
	# 2 lent with the headroom of 2; its errors name the line
	printf '# rate per second\n2022-10-01T00:00:00 360\n2022-10-01T00:05:00 360\n' > d.txt
	run -0 --separate-stderr mirage-eval --replay "${l[@]}" -s InferenceDemand=d.txt -s InferenceNodeCapacity=10 -o /dev/null ls6.jobs
	[[ "$stderr" == *"(2.0 nodes on average)"* ]]
	printf '2022-11-01T00:00:00 3\n2022-11-01T00:00:00 4\n' > bad.txt
	run -1 --separate-stderr mirage-eval --replay "${l[@]}" -s InferenceDemand=bad.txt -o /dev/null ls6.jobs
	[[ "$stderr" == *"'bad.txt': line 2: time not after the line before"* ]]
	printf '2022-11-01 x\n' > bad2.txt
	run -1 --separate-stderr mirage-eval --replay "${l[@]}" -s InferenceDemand=bad2.txt -o /dev/null ls6.jobs
	[[ "$stderr" == *"'bad2.txt': line 1: not \"TIME VALUE\""* ]]
	run -2 --separate-stderr mirage-eval --replay "${l[@]}" -s ReclaimPolicy=pickyman ls6.jobs
	[[ "$stderr" == *"ReclaimPolicy is fewest, random or youngest (last in, first out), not 'pickyman'"* ]]
	run -1 --separate-stderr mirage-eval --replay -m reference -s InferenceNodes=40 ls6.jobs
	[[ "$stderr" == *"loaning needs Mode=faithful"* ]]
	run -2 --separate-stderr mirage-eval --replay -m faithful -n 84 --loan-out h.tsv ls6.jobs
	[[ "$stderr" == *"--loan-out needs loaning (-s InferenceNodes=N, Mode=faithful)"* ]]
	[ ! -e h.tsv ]
	run -2 --separate-stderr mirage-eval -m faithful -n 84 -s InferenceNodes=40 --loan-out h.tsv ls6.jobs
	[[ "$stderr" == *"--loan-out goes with --replay"* ]]
}

@test "elastic jobs: they start on their minimum, grow into free nodes, shrink for others; with loaning, reclaims shrink them first" {
	mirage-eval --replay -q -m faithful -n 84 -o p.tsv ls6.jobs
	mirage-eval --replay -q -m faithful -n 84 -s ElasticShare=0 -o z.tsv ls6.jobs
	cmp p.tsv z.tsv
	mirage-eval --replay -q -m faithful -n 84 -s ElasticShare=0.4 -o e.tsv -j ej.tsv ls6.jobs
	mirage-eval --replay -q -m faithful -n 84 -s ElasticShare=0.4 -o e2.tsv ls6.jobs
	cmp e.tsv e2.tsv
	awk -F'\t' 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == "all" { w[++k] = $c["sim_mean_wait_h"] }
		END { exit !(w[1] < w[2] / 2) }' e.tsv p.tsv
	# every job starts, and never before it was submitted
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; if (!c["sim_wait_s"]) bad = 1; next }
		$c["sim_wait_s"] == "" || $c["sim_wait_s"] < 0 { bad++ } END { exit bad > 0 || NR < 1000 }' ej.tsv
	# with loaning, elastic jobs give nodes back before anyone is preempted
	local nl ne
	nl=$(mirage-eval --replay -m faithful -n 84 -s InferenceNodes=40 -o /dev/null ls6.jobs 2>&1 | sed -n 's/.*preempting \([0-9]*\) jobs.*/\1/p')
	ne=$(mirage-eval --replay -m faithful -n 84 -s InferenceNodes=40 -s ElasticShare=0.4 -o /dev/null ls6.jobs 2>&1 | sed -n 's/.*preempting \([0-9]*\) jobs.*/\1/p')
	[ "$ne" -lt "$nl" ]
	run -0 --separate-stderr mirage-eval --replay -m faithful -n 84 -s InferenceNodes=40 -s ElasticShare=0.4 -o /dev/null ls6.jobs
	[[ "$stderr" == *" jobs and shrinking "[1-9]*"; 0 SLO violations"* ]]
	[[ "$stderr" == *"elastic jobs grew "[1-9]*" times and shrank "[1-9]* ]]
	# the elastic jobs as a side stream: written, read back, the same run
	mirage-eval --replay -q -m faithful -n 84 -s ElasticShare=0.4 --el-out el.mrs -o e3.tsv ls6.jobs
	cmp e.tsv e3.tsv
	[ "$(mirage-cat -i el.mrs | grep -c elastic)" -ge 1 ]
	mirage-eval --replay -q -m faithful -n 84 -s ElasticFile=el.mrs -o f.tsv ls6.jobs
	cmp e.tsv f.tsv
	# a range the cluster cannot hold (every job elastic on 84 nodes, the
	# 64-node one up to 84, read on 64) is refused by record; so is a
	# stream cut short
	mirage-eval --replay -q -m faithful -n 84 -s ElasticShare=1 --el-out all.mrs -o /dev/null ls6.jobs
	run -1 --separate-stderr mirage-eval --replay -q -m faithful -n 64 -s ElasticFile=all.mrs -o /dev/null ls6.jobs
	[[ "$stderr" == *"ElasticFile 'all.mrs': record "*": job "*" of 64 nodes cannot run on 32 to 84 of the cluster's 64"* ]]
	head -c 3000 el.mrs > cut.mrs
	run -5 --separate-stderr mirage-eval --replay -q -m faithful -n 84 -s ElasticFile=cut.mrs -o /dev/null ls6.jobs
	[[ "$stderr" == *"ElasticFile 'cut.mrs'"* ]]
	# a job given twice (the stream concatenated with itself)
	cat el.mrs el.mrs > twice.mrs
	run -1 --separate-stderr mirage-eval --replay -q -m faithful -n 84 -s ElasticFile=twice.mrs -o /dev/null ls6.jobs
	[[ "$stderr" == *"ElasticFile 'twice.mrs': record "*": job "*" again (record "*" gave it)"* ]]
	run -2 --separate-stderr mirage-eval --replay -q -m faithful -n 84 --el-out x.mrs -o /dev/null ls6.jobs
	[[ "$stderr" == *"--el-out needs elastic jobs"* ]]
	# a measured curve that is linear gives the power law of 1
	printf '# nodes/size speedup\n0.5 0.5\n1 1\n2 2\n' > lin.txt
	mirage-eval --replay -q -m faithful -n 84 -s ElasticShare=0.4 -s ElasticAlpha=1 -o a1.tsv ls6.jobs
	mirage-eval --replay -q -m faithful -n 84 -s ElasticShare=0.4 -s ElasticProfile=lin.txt -o a2.tsv ls6.jobs
	cmp a1.tsv a2.tsv
	printf '1 1\n0.5 2\n' > badp.txt
	run -2 --separate-stderr mirage-eval --replay -q -m faithful -s ElasticShare=0.4 -s ElasticProfile=badp.txt ls6.jobs
	[[ "$stderr" == *"'badp.txt': line 2: ratio not above the line before"* ]]
	# shortest first (Aryl's first phase) is an order of the queue
	mirage-eval --replay -q -m faithful -n 84 -s JobOrder=sjf -o sjf.tsv ls6.jobs
	! cmp -s sjf.tsv p.tsv
	run -2 --separate-stderr mirage-eval --replay -m faithful -s JobOrder=lifo ls6.jobs
	[[ "$stderr" == *"JobOrder is priority or sjf, not 'lifo'"* ]]
	run -2 --separate-stderr mirage-eval --replay -m faithful -s ElasticAlloc=lp ls6.jobs
	[[ "$stderr" == *"ElasticAlloc is mckp or greedy, not 'lp'"* ]]
	run -2 --separate-stderr mirage-eval --replay -m faithful -s ElasticShare=2 ls6.jobs
	[[ "$stderr" == *"bad value '2' for ElasticShare"* ]]
	run -1 --separate-stderr mirage-eval --replay -m reference -s ElasticShare=0.4 ls6.jobs
	[[ "$stderr" == *"elasticity needs Mode=faithful"* ]]
}

@test "deep-learning attributes: written with --dl-out, read back with DLAttrFile over the draw" {
	local pre=(-m faithful -n 84 -s PreemptMode=REQUEUE -s VictimPolicy=pickyman)
	mirage-eval --replay -q "${pre[@]}" -s DLAttrSeed=1 --dl-out a1.mrs -o r1.tsv ls6.jobs
	[ "$(mirage-cat -i a1.mrs | grep -c dlattrs)" -ge 1 ]
	[ "$(mirage-cat a1.mrs | sed 1d | wc -l)" -eq "$(mirage-cat ls6.jobs | sed 1d | wc -l)" ]
	mirage-cat a1.mrs | awk -F'\t' 'NR > 1 && $2 != "urgent" && $2 != "best-effort" { exit 1 }'
	# another seed, but every job's attributes from the file: the first run
	mirage-eval --replay -q "${pre[@]}" -s DLAttrSeed=2 -s DLAttrFile=a1.mrs -o r2.tsv ls6.jobs
	cmp r1.tsv r2.tsv
	mirage-eval --replay -q "${pre[@]}" -s DLAttrSeed=2 -o r3.tsv ls6.jobs
	! cmp -s r1.tsv r3.tsv
	# a file that is not one, or cut short, is refused by name
	run -6 --separate-stderr mirage-eval --replay "${pre[@]}" -s DLAttrFile=ls6.jobs ls6.jobs
	[[ "$stderr" == *"ls6.jobs"*"dlattrs"* ]]
	head -c 3000 a1.mrs > cut.mrs
	run -5 --separate-stderr mirage-eval --replay "${pre[@]}" -s DLAttrFile=cut.mrs ls6.jobs
	[[ "$stderr" == *"cut.mrs"* ]]
	cat a1.mrs a1.mrs > twice.mrs
	run -1 --separate-stderr mirage-eval --replay "${pre[@]}" -s DLAttrFile=twice.mrs ls6.jobs
	[[ "$stderr" == *"DLAttrFile 'twice.mrs': record 24778: job "*" again (record 1 gave it)"* ]]
	run -2 --separate-stderr mirage-eval --replay -m faithful --dl-out x.mrs ls6.jobs
	[[ "$stderr" == *"--dl-out needs preemption"* ]]
	[ ! -e x.mrs ]
}

@test "a job dated years away from the rest of the trace is refused, by its id" {
	zcat "$ROOT/data/ls6-a100.log.gz" | sed 's/^478729\t\(.*\)\t2022-11-01T15:34:14\t2022-10-05T11:52:48\t2022-11-03T15:34:15\t/478729\t\1\t2199-11-01T15:34:14\t2199-10-05T11:52:48\t2199-11-03T15:34:15\t/' > far.txt
	grep -q '^478729.*2199-10-05' far.txt
	mirage-parse -q far.txt -o far.jobs
	for c in "mirage-eval --replay -q" "mirage-eval -m reference -n 76 -N 1 -k 1 -f 2022-12-01" "mirage-features -N 1 -k 1 -f 2022-12-01 -o x.mrs"; do
		run -1 --separate-stderr $c far.jobs
		[[ "$stderr" == *"'far.jobs': job 478729: dated 2199-10-05T11:52:48, more than two years away from the trace's other jobs"* ]]
	done
}

@test "configuration values out of Slurm's ranges are refused, not overflowed" {
	printf 'Mode=faithful\nNodes=84\nSchedulerParameters=bf_window=35791395\n' > c.conf
	run -2 --separate-stderr mirage-eval -c c.conf -N 1 -f 2023-03-01 -k 1 ls6.jobs
	[[ "$stderr" == *"'c.conf': line 3: bf_window=35791395 is out of its range, 1 to 43200"* ]]
	run -2 --separate-stderr mirage-features -c c.conf -N 1 -f 2023-03-01 -k 1 -o x.mrs ls6.jobs
	[[ "$stderr" == *"bf_window=35791395 is out of its range"* ]]
	for kv in SchedulerParameters=bf_interval=999999 SchedulerParameters=bf_resolution=0 PriorityMaxAge=99999-00:00:00 PriorityDecayHalfLife=9999-00:00:00; do
		printf 'Mode=faithful\nNodes=84\n%s\n' "$kv" > c.conf
		run -2 --separate-stderr mirage-eval -c c.conf -N 1 -f 2023-03-01 -k 1 ls6.jobs
		[[ "$stderr" == *"'c.conf': line 3: "* ]]
	done
}
