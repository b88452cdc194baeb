#!/usr/bin/env bats
# 0700-live-sacct.bats: what a live Slurm's sacct prints right now, in
# every layout, parses into the same jobs.  Run by tests/slurm/run-live.sh
# after `slurm-lab.sh load` and `wait`; MIRAGE_TAG names the workload.

setup() {
	load ../bats/test_helper
	mg_setup
	: "${MIRAGE_TAG:?run through tests/slurm/run-live.sh}"
	F=JobID,JobIDRaw,JobName,User,UID,Account,Partition,QOS,State,ExitCode,Submit,Eligible,Start,End,Timelimit,TimelimitRaw,NNodes,NCPUS,AllocTRES,ReqTRES,Priority
	W=(-a -S now-2hours -E now --name=$(sacct -a -X -n -P -S now-2hours -o JobName | grep "^$MIRAGE_TAG" | sort -u | paste -sd, -))
	# the jobs of this workload: one row each with -X
	sacct "${W[@]}" -X -n -P -o JobID | sort > ids
}

jobids() { mirage-cat -H "$1" | cut -f1 | sort; }

@test "live sacct -P: every job of the workload, no more" {
	[ "$(wc -l < ids)" -ge 10 ]
	sacct "${W[@]}" -X -P -o "$F" > p.txt
	run -0 --separate-stderr mirage-parse p.txt -o p.mrs
	diff -u ids <(jobids p.mrs)
}

@test "live --parsable, --delimiter, fixed width, -n, epoch times agree with -P" {
	sacct "${W[@]}" -X -P -o "$F" | mirage-parse -q | mirage-cat > p.tsv
	sacct "${W[@]}" -X --parsable -o "$F" | mirage-parse -q | mirage-cat > a.tsv
	sacct "${W[@]}" -X -P --delimiter=';' -o "$F" | mirage-parse -q -d ';' | mirage-cat > b.tsv
	sacct "${W[@]}" -X -n -P -o "$F" | mirage-parse -q -k "$F" | mirage-cat > c.tsv
	SLURM_TIME_FORMAT=%s sacct "${W[@]}" -X -P -o "$F" | mirage-parse -q | mirage-cat > d.tsv
	diff -u p.tsv a.tsv
	diff -u p.tsv c.tsv
	diff -u p.tsv d.tsv
	# ';' is not in any name, so the '|' name is read without repair
	diff -u <(cut -f1-6,8- p.tsv) <(cut -f1-6,8- b.tsv)
	sacct "${W[@]}" -X -o JobID%20,State,Submit,Start,End,NNodes | mirage-parse -q | mirage-cat -H > f.tsv
	diff -u ids <(cut -f1 f.tsv | sort)
}

@test "live sacct --json agrees with -P on times, nodes, state and GPUs" {
	sacct "${W[@]}" -X -P -o "$F" | mirage-parse -q -o p.mrs
	sacct "${W[@]}" --json | mirage-parse -q -o j.mrs
	diff -u ids <(jobids j.mrs)
	while read -r id; do
		for f in submit start end nnodes state ngpus timelimit; do
			[ "$(field j.mrs "$id" $f)" = "$(field p.mrs "$id" $f)" ] ||
			    { echo "$id $f: json '$(field j.mrs "$id" $f)' -P '$(field p.mrs "$id" $f)'"; false; }
		done
		# 22.05's JSON claims exit 0 for failed jobs: left null, not 0
		e=$(field j.mrs "$id" exit_code)
		[ -z "$e" ] || [ "$e" = "$(field p.mrs "$id" exit_code)" ]
	done < ids
	id=$(mirage-cat p.mrs | awk -F'\t' '$13 == "FAILED" { print $1 }')
	[ -n "$id" ] && [ -z "$(field j.mrs "$id" exit_code)" ]
}

@test "live steps are skipped and counted" {
	sacct "${W[@]}" -P -o "$F" > s.txt
	steps=$(grep -c '^[0-9_+]*\.' s.txt)
	[ "$steps" -gt 10 ]
	run -0 --separate-stderr mirage-parse s.txt -o s.mrs
	[[ "$stderr" == *", $steps step rows skipped"* ]]
	diff -u ids <(jobids s.mrs)
}

@test "live job outcomes: exit code, timeout, GPUs, array tasks, a name with '|'" {
	sacct "${W[@]}" -X -P -o "$F" | mirage-parse -q -o p.mrs
	mirage-cat p.mrs > p.tsv
	col() { awk -F'\t' -v n="$1" -v f="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["name"] == n { print $c[f] }' p.tsv; }
	[ "$(col "${MIRAGE_TAG}_fail" exit_code)" = 3 ]
	[ "$(col "${MIRAGE_TAG}_fail" state)" = FAILED ]
	[ "$(col "${MIRAGE_TAG}_timeout" state)" = TIMEOUT ]
	[ "$(col "${MIRAGE_TAG}_timeout" timelimit)" = 60 ]
	[ "$(col "${MIRAGE_TAG}_gpu" ngpus)" = 2 ]
	[ "$(col "${MIRAGE_TAG}_fill" nnodes)" = 4 ]
	[ "$(col "${MIRAGE_TAG}_array" array_task | sort | paste -sd' ')" = "1 2 3" ]
	[ "$(col "${MIRAGE_TAG}_a|b" state)" = COMPLETED ]
}
