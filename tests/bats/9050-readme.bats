#!/usr/bin/env bats
# 9050-readme.bats: the README's "Using it on your own cluster" followed
# to the letter.  Each command of its shell blocks runs as written, in
# order, with the tools installed by make install where the README says
# (/usr/local stands for a PREFIX of the test's), against Slurm commands
# that answer as a gpu-a100 partition of 84 nodes would: a recent history
# made of the LS6 trace, a queue with the chain's job 4711 running.  A
# crontab line runs as cron runs it: /bin/sh with cron's PATH and
# environment, nothing else.  A README whose step is broken fails.

setup() {
	load test_helper
	mg_setup
	export HOME=$BATS_TEST_TMPDIR/home FAKE=$BATS_TEST_TMPDIR/fake
	mkdir -p "$HOME" "$FAKE" bin
	mirage-parse -q -z UTC "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	# two months of history ending yesterday
	mirage-cat ls6.jobs | python3 "$ROOT/tests/fixtures/hist-from-ls6.py" "$(date -u -d yesterday +%F)" > "$FAKE/hist.txt"
	# the chain's job 4711 has run 2 of its 48 hours
	queue 120
	# Slurm's commands (where a site's PATH has them), and nothing else:
	# the sbatch records its arguments and the environment it was given
	printf '#!/bin/sh\ncase " $* " in *" -h "*) tail -n +2 "$FAKE/queue.txt" | cut -d"|" -f1 | sed "s/$/ (null)/" ;; *) cat "$FAKE/queue.txt" ;; esac\n' > bin/squeue
	printf '#!/bin/sh\ncat "$FAKE/hist.txt"\n' > bin/sacct
	printf '#!/bin/sh\ncase " $* " in *" %%N "*) echo "c[001-084]" ;; *) echo 84 ;; esac\n' > bin/sinfo
	printf '#!/bin/sh\nexit 0\n' > bin/sacctmgr
	printf '#!/bin/sh\necho "$*" >> "$FAKE/sbatch.log"\nenv > "$FAKE/sbatch.env"\necho 5000\n' > bin/sbatch
	chmod +x bin/*
	SLURMBIN=$PWD/bin
	# the tools and pipelines as make install puts them
	read -r -a flags < "$MIRAGE_BIN/build.flags"
	make -s -C "$ROOT" install B="$MIRAGE_BIN" "${flags[@]}" PREFIX="$PWD/usr/local" >/dev/null
}

# queue M: the queue, with job 4711 (one node, a 2-day limit) started M
# minutes ago
queue() {
	{
		echo 'JOBID|PARTITION|ST|SUBMIT_TIME|START_TIME|TIME_LIMIT|NODES|PRIORITY|USER'
		echo "4711|gpu-a100|R|$(date -u -d "$(($1 + 60)) minutes ago" +%FT%T)|$(date -u -d "$1 minutes ago" +%FT%T)|2-00:00:00|1|1000|$(id -un)"
	} > "$FAKE/queue.txt"
}

# readme README: the shell blocks of its "Using it on your own cluster"
# section, a command a line, into cmds.txt
readme() {
	awk '/^## Using it on your own cluster/ { on = 1; next } /^## / { on = 0 }
	    on && /^```sh/ { b = 1; next } on && /^```/ { b = 0; next }
	    on && b { if (sub(/\\$/, "")) { l = l $0; next } print l $0; l = "" }' "$1" > cmds.txt
}

# follow: run cmds.txt in order; the first that fails (other than a
# decision to wait, 10) is printed and fails it.  A user's shell has
# the installed tools and Slurm's commands on its PATH; a crontab line
# gets cron's environment only, and before the chain's first one the
# chain's job nears its end (cron runs it while the job runs on).
follow() {
	local n=0 line cmd aged=
	# a new user: the login environment (Slurm's commands, a site's
	# module) and the chain's batch script; the chain's job young
	rm -rf "$HOME" "$FAKE"/sbatch.*
	mkdir -p "$HOME"
	printf 'PATH=%s:$PATH\nexport SITE_MODULE=cuda-12\n' "$SLURMBIN" > "$HOME/.profile"
	printf '#!/bin/bash\n#SBATCH -N 1\n#SBATCH -t 48:00:00\nexec ./service\n' > "$HOME/train.sh"
	queue 120
	while IFS= read -r line; do
		cmd=${line%%#*}
		[ -n "${cmd// /}" ] || continue
		cmd=${cmd//\/usr\/local/$PWD/usr/local}
		cmd=${cmd//\/var\/lib\/mirage/$HOME/lib}
		cmd=${cmd//\/srv\/www\/gpu/$HOME/www}
		n=$((n + 1))
		case $cmd in
		[0-9*]*)
			cmd=$(echo "$cmd" | cut -d' ' -f6-)
			case $cmd in
			*mirage-advise*) [ -n "$aged" ] || { queue 2870; aged=1; } ;;
			esac
			# cron: sh -c, HOME, LOGNAME, SHELL and its PATH (Slurm's
			# commands are in /usr/bin, as Debian's packages put them)
			status=0
			output=$(env -i HOME="$HOME" LOGNAME="$(id -un)" SHELL=/bin/sh \
			    PATH="$SLURMBIN:/usr/bin:/bin" FAKE="$FAKE" /bin/sh -c "cd && $cmd" 2>&1) ||
			    status=$? ;;
		*)
			status=0
			output=$(env PATH="$PWD/usr/local/bin:$SLURMBIN:$PATH" bash -c "cd '$PWD' && $cmd" 2>&1) ||
			    status=$? ;;
		esac
		# the recipe's table is fresh, and no model is judged on
		# its own training
		case $output in
		*"chosen on a history that ended"*|*"left out of the choice"*|*"its own training"*)
			echo "README command $n: $cmd"
			echo "$output"
			return 1 ;;
		esac
		[ "$status" -eq 0 ] || [ "$status" -eq 10 ] || {
			echo "README command $n failed ($status): $cmd"
			echo "$output"
			[ ! -s "$HOME/chain.log" ] || tail -5 "$HOME/chain.log"
			return 1
		}
	done < cmds.txt
	echo "$n commands"
	[ "$n" -ge 14 ]
}

@test "README: every command of 'Using it on your own cluster' runs as shown, crontab lines as cron runs them" {
	readme "$ROOT/README.md"
	follow
	# what they made: a model, a chain driven from cron, the settings
	# table for the chain's sizes, a model with its threshold for 99%,
	# the nightly model and the weekly report
	mirage-train -i "$HOME/gpu-a100.mrm" | grep -q '^check	loaded and scored: usable$'
	[ -e "$HOME/train.sh.chain" ]
	[ -s "$HOME/chain.log" ]
	# the cron run submitted the successor with the login environment
	# and the tools' directory, not cron's bare one
	grep -qx 'MIRAGE_BIN='"$PWD"'/usr/local/bin' "$FAKE/sbatch.env"
	grep -qx 'SITE_MODULE=cuda-12' "$FAKE/sbatch.env"
	head -1 "$HOME/target.tsv" | grep -q '^method	nodes	'
	for k in 1 8; do
		awk -F'\t' -v k=$k '$2 == k && $0 ~ /\t1\t/ { f = 1 } END { exit !f }' "$HOME/target.tsv"
	done
	mirage-train -i "$HOME/gpu-a100-99.mrm" | grep -q 'target=0.99 target_handover_s=600 '
	[ -L "$HOME/lib/current.mrm" ]
	[ -s "$HOME/www/index.html" ]
}

@test "README: a broken step fails the walk-through (a bare name in cron, a table not made)" {
	# the tool by name in the crontab line: cron's PATH has no
	# /usr/local/bin
	sed 's|bash -lc '"'"'/usr/local/bin/mirage-advise|bash -lc '"'"'mirage-advise|' "$ROOT/README.md" > bare.md
	! cmp -s bare.md "$ROOT/README.md"
	readme bare.md
	run follow
	[ "$status" -ne 0 ]
	[[ "$output" == *"README command "*" failed"*"--submit"* ]]
	# without the login shell the successor gets cron's environment
	sed 's|bash -lc '"'"'\(/usr/local/bin/mirage-advise[^'"'"']*\)'"'"'|\1|' "$ROOT/README.md" > nologin.md
	! cmp -s nologin.md "$ROOT/README.md"
	readme nologin.md
	rm -f "$FAKE/sbatch.env"
	run follow
	# (the tools are found; the successor's environment is cron's)
	[ -s "$FAKE/sbatch.env" ]
	! grep -q '^SITE_MODULE=' "$FAKE/sbatch.env"
	# the settings table written under another name than the one read
	sed 's|-o \$HOME/target.tsv|-o $HOME/targets.tsv|' "$ROOT/README.md" > table.md
	! cmp -s table.md "$ROOT/README.md"
	readme table.md
	run follow
	[ "$status" -ne 0 ]
	[[ "$output" == *"failed"*"--settings"* ]]
}
