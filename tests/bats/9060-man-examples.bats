#!/usr/bin/env bats
# 9060-man-examples.bats: the shell examples of the manual pages' EXAMPLES
# ("$ command", its continuation lines, then what it prints) run as
# shown, and print what the page shows (lines with "..." are cut there).
# The paper's protocol runs small here (-N 684 and -N 156 episodes become
# 4 and 2; make demo runs them whole); examples that read a live
# cluster (sacct) or run the whole demo are left to the tests of those.

setup_file() {
	load test_helper
	mg_setup
	export EX=$BATS_FILE_TMPDIR/ex
	mkdir -p "$EX"
	ln -s "$ROOT/data" "$EX/data"
	ln -s "$ROOT/pipelines" "$EX/pipelines"
	# the model mirage-eval(1)'s example names, made small
	cd "$EX"
	mirage-parse -q data/ls6-a100.log.gz -o ls6.jobs
	mirage-features -q -f 2022-11-01 -N 4 -k 1 -w 1 -o g.mrs ls6.jobs
	mirage-train -q -a gbt -o gbt.mrm g.mrs
}

setup() {
	load test_helper
	mg_setup
	cd "$EX"
}

# examples PAGE: the page's examples, one per record: the command (its
# continuation lines joined), a tab, then what it prints, lines joined
# by the unit separator
examples() {
	awk '/^\.Sh EXAMPLES/ { on = 1; next } /^\.Sh/ { on = 0 }
	    on && /^\.Bd -literal/ { b = 1; next }
	    on && /^\.Ed/ { flush(); b = 0; next }
	    !(on && b) { next }
	    function flush() { if (cmd != "") print cmd "\t" out; cmd = out = ""; more = 0 }
	    {
		gsub(/\\e/, "\\")
		if (more) { sub(/^ +/, " "); cmd = cmd $0 }
		else if (/^\$ /) { flush(); cmd = substr($0, 3) }
		else { if (cmd != "") out = out (out == "" ? "" : "\037") $0; next }
		more = /\\$/ || /\|$/ || /; do$/ || (cmd ~ /; do/ && cmd !~ /done$/)
		if (/\\$/) sub(/\\$/, "", cmd)
		else if (/\|$/) cmd = cmd " "
		else if (more) cmd = cmd "\036"
	    }
	    END { flush() }' "$ROOT/man/$1"
}

# run_examples PAGE: run each, check what it prints
run_examples() {
	local page=$1 cmd out line n=0
	while IFS=$'\t' read -r cmd out; do
		case $cmd in
		*sacct*|*reproduce-paper.sh*) continue ;;
		esac
		cmd=${cmd//-N 684/-N 4}
		cmd=${cmd//-N 156/-N 2}
		cmd=${cmd//-u 2023-03-26T20:00:00/-u 2022-11-02}
		n=$((n + 1))
		cmd=$(tr '\036' '\n' <<<"$cmd")
		run bash -c "set -o pipefail; $cmd"
		# head closes a pipe early (141 is SIGPIPE)
		if [ "$status" -ne 0 ] && [ "$status" -ne 141 ]; then
			echo "$page: example failed ($status): $cmd"
			echo "$output"
			return 1
		fi
		[ -n "$out" ] || continue
		while IFS= read -r line; do
			case $line in *...*|"") continue ;; esac
			if ! tr -s ' \t' '  ' <<<"$output" | grep -qxF -- "$(tr -s ' \t' '  ' <<<"$line")"; then
				echo "$page: '$cmd' does not print: $line"
				echo "$output" | head -20
				return 1
			fi
		done < <(tr '\037' '\n' <<<"$out")
	done < <(examples "$page")
	echo "# $page: $n examples" >&3
	[ "$n" -gt 0 ]
}

@test "mirage-parse(1) EXAMPLES run as shown" { run_examples mirage-parse.1; }
@test "mirage-cat(1) EXAMPLES run as shown" { run_examples mirage-cat.1; }
@test "mirage-stream(5) EXAMPLES run as shown" { run_examples mirage-stream.5; }
@test "mirage-features(1) EXAMPLES run as shown (the protocol small)" { run_examples mirage-features.1; }
@test "mirage-train(1) and mirage-model(5) EXAMPLES run as shown (the protocol small)" {
	run_examples mirage-train.1
	run_examples mirage-model.5
}
@test "mirage-split(1) EXAMPLES run as shown (the protocol small)" { run_examples mirage-split.1; }
@test "mirage-eval(1) EXAMPLES run as shown (the protocol small)" { run_examples mirage-eval.1; }
@test "mirage-planner(7) EXAMPLES run as shown (the protocol small)" { run_examples mirage-planner.7; }
@test "mirage(7) EXAMPLES run as shown" { run_examples mirage.7; }
@test "mirage-accel(1) EXAMPLES run as shown" { run_examples mirage-accel.1; }
