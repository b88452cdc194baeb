#!/usr/bin/env bats
# 9050-readme.bats: every command of the README's "Using it on your own
# cluster" runs as shown, against Slurm commands that answer as a
# gpu-a100 partition of 84 nodes would (a recent history made of the
# LS6 trace, a queue with the chain's job 4711 running).

setup() {
	load test_helper
	mg_setup
	export HOME=$BATS_TEST_TMPDIR/home FAKE=$BATS_TEST_TMPDIR/fake
	mkdir -p "$HOME" "$FAKE" bin
	now=$(date -u +%FT%T)
	mirage-parse -q -z UTC "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	# two months of history ending yesterday
	mirage-cat ls6.jobs | python3 "$ROOT/tests/fixtures/hist-from-ls6.py" "$(date -u -d yesterday +%F)" > "$FAKE/hist.txt"
	{
		echo 'JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|PRIORITY|USER'
		echo "4711|gpu-a100|R|$(date -u -d '47 hours ago' +%FT%T)|$(date -u -d '46 hours ago' +%FT%T)|2-00:00:00|1|1000|$(id -un)"
	} > "$FAKE/queue.txt"
	# the Slurm commands, as a user's PATH has them
	printf '#!/bin/sh\ncase " $* " in *" -h "*) tail -n +2 "$FAKE/queue.txt" | cut -d"|" -f1 | sed "s/$/ (null)/" ;; *) cat "$FAKE/queue.txt" ;; esac\n' > bin/squeue
	printf '#!/bin/sh\ncat "$FAKE/hist.txt"\n' > bin/sacct
	printf '#!/bin/sh\ncase " $* " in *" %%N "*) echo "c[001-084]" ;; *) echo 84 ;; esac\n' > bin/sinfo
	printf '#!/bin/sh\nexit 0\n' > bin/sacctmgr
	printf '#!/bin/sh\necho "$*" >> "$FAKE/sbatch.log"\necho 5000\n' > bin/sbatch
	chmod +x bin/*
	PATH=$PWD/bin:$PATH
	printf '#!/bin/bash\n#SBATCH -N 1\n#SBATCH -t 48:00:00\nexec ./service\n' > "$HOME/train.sh"
	# the README's shell blocks of that section, a command a line
	awk '/^## Using it on your own cluster/ { on = 1; next } /^## / { on = 0 }
	    on && /^```sh/ { b = 1; next } on && /^```/ { b = 0; next }
	    on && b { if (sub(/\\$/, "")) { l = l $0; next } print l $0; l = "" }' "$ROOT/README.md" > cmds.txt
}

@test "README: every command of 'Using it on your own cluster' runs as shown" {
	[ "$(wc -l < cmds.txt)" -ge 9 ]
	local n=0 line cmd
	while IFS= read -r line; do
		cmd=${line%%#*}
		[ -n "${cmd// /}" ] || continue
		case $cmd in
		[0-9*]*)	# a crontab line: its command, at the time
			cmd=$(echo "$cmd" | cut -d' ' -f6-)
			# the installed pipelines are the checked-out ones here
			cmd=${cmd//\/usr\/local\/share\/mirage\/pipelines/$ROOT/pipelines}
			cmd=${cmd//\/var\/lib\/mirage/$HOME/lib}
			cmd=${cmd//\/srv\/www\/gpu/$HOME/www}
			cmd="B=$MIRAGE_BIN $cmd" ;;
		esac
		n=$((n + 1))
		run bash -c "cd '$PWD' && $cmd"
		[ "$status" -eq 0 ] || [ "$status" -eq 10 ] || {
			echo "README command failed ($status): $cmd"
			echo "$output"
			return 1
		}
	done < cmds.txt
	[ "$n" -ge 9 ]
	# what they made
	mirage-train -i "$HOME/gpu-a100.mrm" | grep -q '^check	loaded and scored: usable$'
	[ -s "$HOME/chain.log" ]
	[ -e "$HOME/train.sh.chain" ]
	[ -s "$HOME/www/index.html" ]
	[ -L "$HOME/lib/current.mrm" ]
}
