#!/usr/bin/env bats
# 0910-structure.bats: the architecture a reader sees from the tree,
# held: the library's layers, no circle of calls, the cluster's insides
# private, every tool thin.

setup() {
	load test_helper
	mg_setup
}

@test "the cluster's insides: no file outside cluster/ compiles the simulators' headers, directly or through another" {
	# the headers a file compiles: its own includes, and theirs
	local -A seen
	walk() {
		local h
		for h in $(sed -n 's|^#include "\([a-z]*/[a-z_]*\.h\)".*|\1|p' "$1"); do
			[ -n "${seen[$h]:-}" ] && continue
			seen[$h]=1
			[ -f "$ROOT/common/$h" ] && walk "$ROOT/common/$h"
		done
	}
	local f bad=0 h
	for f in "$ROOT"/cmd/*.[ch] "$ROOT"/common/*/*.[ch]; do
		case $f in "$ROOT"/common/cluster/*) continue ;; esac
		seen=()
		walk "$f"
		for h in cluster/sim.h cluster/slurmsim.h cluster/slurmsim_int.h cluster/simconf_int.h; do
			if [ -n "${seen[$h]:-}" ]; then
				echo "${f#"$ROOT"/} compiles $h"
				bad=1
			fi
		done
	done
	[ "$bad" -eq 0 ]
	# and the walk finds what it looks for: cluster.c compiles both
	seen=()
	walk "$ROOT/common/cluster/cluster.c"
	[ -n "${seen[cluster/sim.h]:-}" ] && [ -n "${seen[cluster/slurmsim.h]:-}" ]
}

@test "the library's calls: no circle of files calling each other (tsort of the archive's symbols)" {
	local lib=$MIRAGE_BIN/libmirage.a
	[ -f "$lib" ]
	# an edge "user definer" for every symbol a member takes from another
	nm -A --defined-only -g "$lib" | awk '{ n = split($1, a, ":"); print a[n - 1], $NF }' > "$BATS_TEST_TMPDIR/defs"
	nm -A -u "$lib" | awk '{ n = split($1, a, ":"); print a[n - 1], $NF }' > "$BATS_TEST_TMPDIR/uses"
	awk 'NR == FNR { def[$2] = $1; next }
	    ($2 in def) && def[$2] != $1 { print $1, def[$2] }' \
	    "$BATS_TEST_TMPDIR/defs" "$BATS_TEST_TMPDIR/uses" | sort -u > "$BATS_TEST_TMPDIR/edges"
	# the edges are there to sort: the event loop calls the schedulers
	grep -qx 'slurmsim.o slurmsched.o' "$BATS_TEST_TMPDIR/edges"
	run -0 --separate-stderr tsort "$BATS_TEST_TMPDIR/edges"
	[ -z "$stderr" ]
	# and tsort finds a circle when there is one
	{ cat "$BATS_TEST_TMPDIR/edges"; echo 'slurmsched.o slurmsim.o'; } > "$BATS_TEST_TMPDIR/bad"
	run -1 --separate-stderr tsort "$BATS_TEST_TMPDIR/bad"
	[[ "$stderr" == *loop* ]]
}

@test "the library's layers: each folder of common/ includes only itself and the folders above it" {
	# base < io < cluster < plan < episode < learn < decide < eval, live:
	# decide holds each way of deciding once and the table of settings
	# read back; eval compares the ways on episodes and chooses settings
	# for a target; live reads real clusters through io, builds views of
	# the cluster layer and decides for a chain by decide's rules, never
	# compiling eval; accel (inside the node) stands on base and learn's
	# networks
	local allowed
	declare -A allowed=(
		[base]="base"
		[accel]="base learn accel"
		[io]="base io"
		[cluster]="base io cluster"
		[plan]="base io cluster plan"
		[episode]="base io cluster plan episode"
		[learn]="base io cluster plan episode learn"
		[decide]="base io cluster plan episode learn decide"
		[eval]="base io cluster plan episode learn decide eval"
		[live]="base io cluster plan episode learn decide live"
	)
	local f layer inc bad=0
	for f in "$ROOT"/common/*/*.[ch]; do
		layer=$(basename "$(dirname "$f")")
		[ -n "${allowed[$layer]:-}" ] || { echo "unknown layer: $f"; bad=1; continue; }
		for inc in $(sed -n 's|^#include "\([a-z]*\)/.*|\1|p' "$f" | sort -u); do
			if [[ " ${allowed[$layer]} " != *" $inc "* ]]; then
				echo "$f includes $inc/"
				bad=1
			fi
		done
		# and every library include names its layer
		if grep -q '^#include "[a-z]*\.h"' "$f"; then
			echo "$f: an include without its folder"
			bad=1
		fi
	done
	[ "$bad" -eq 0 ]
}


# the lines of each tool and of its main(), as "file lines main-lines"
tool_sizes() {
	local f
	for f in "$@"; do
		awk -v f="${f##*/}" '/^main\(/ { s = NR } s && /^}/ { m = NR - s + 1; s = 0 }
		    END { print f, NR, m + 0 }' "$f"
	done
}

@test "every tool thin: each cmd/*.c at most 600 lines, its main() at most 80; the check fails on one that is not" {
	local over
	tool_sizes "$ROOT"/cmd/mirage-*.c > sizes
	# every tool was measured, each with a main()
	[ "$(wc -l < sizes)" -eq "$(ls "$ROOT"/cmd/mirage-*.c | wc -l)" ]
	awk '$3 == 0 { bad = 1; print $1 ": no main()" } END { exit bad }' sizes
	over=$(awk '$2 > 600 || $3 > 80 { print }' sizes)
	[ -z "$over" ] || { echo "over the limits: $over"; false; }
	# a tool grown past either limit is caught
	{ cat "$ROOT/cmd/mirage-cat.c"; seq 700 | sed 's|.*|/* filler */|'; } > big.c
	awk '{ print } /^main\(/ { for (i = 0; i < 90; i++) print "\t;" }' "$ROOT/cmd/mirage-cat.c" > long.c
	tool_sizes big.c long.c > bad
	[ "$(awk '$2 > 600 || $3 > 80' bad | wc -l)" -eq 2 ]
}

# the functions of files longer than $1 lines, as "file function lines"
long_functions() {
	local most=$1
	shift
	awk -v most="$most" 'FNR == 1 { s = 0 } /^[a-z_]+\(/ { s = FNR; n = $0; sub(/\(.*/, "", n) }
	    s && /^}/ { if (FNR - s + 1 > most) print FILENAME, n, FNR - s + 1; s = 0 }' "$@"
}

@test "no function of a tool over 120 lines, the live chain's run at most 1,000; the checks fail on one that is not" {
	run -0 long_functions 120 "$ROOT"/cmd/*.c
	[ -z "$output" ] || { echo "over 120 lines: $output"; false; }
	[ "$(wc -l < "$ROOT/common/live/drive.c")" -le 1000 ]
	# a parser grown past the limit is caught
	awk '{ print } /^main\(/ { for (i = 0; i < 130; i++) print "\t;" }' "$ROOT/cmd/mirage-cat.c" > long.c
	run -0 long_functions 120 long.c
	[[ "$output" == "long.c main "* ]]
}

# the functions a header under $1/common declares that no file but its
# own .c uses, as "file function"
private_publics() {
	local h c fn
	for h in "$1"/common/*/*.h; do
		c=${h%.h}.c
		[ -f "$c" ] || continue
		for fn in $(grep -oE '\bmg_[a-z0-9_]+\(' "$h" | tr -d '(' | sort -u); do
			grep -qw "$fn" "$c" || continue
			grep -rlw "$fn" "$1"/common "$1"/cmd "$1"/tests --include='*.[ch]' |
			    grep -vqx -e "$h" -e "$c" || echo "${c#"$1"/} $fn"
		done
	done
}

@test "the headers hold what others use: no public function is used only in its own file; the check finds one that is" {
	run -0 private_publics "$ROOT"
	[ -z "$output" ] || { echo "static, or in an internal header: $output"; false; }
	# a copy with one more function, used only where it is defined
	mkdir -p copy/tests/fuzz
	cp -r "$ROOT"/common "$ROOT"/cmd copy/
	cp -r "$ROOT"/tests/unit copy/tests/
	cp "$ROOT"/tests/fuzz/*.[ch] copy/tests/fuzz/
	printf 'int mg_stats_lonely(void);\n' >> copy/common/base/stats.h
	printf 'int\nmg_stats_lonely(void)\n{\n\treturn 0;\n}\n' >> copy/common/base/stats.c
	run -0 private_publics "$PWD/copy"
	echo "$output"
	[ "$output" = "common/base/stats.c mg_stats_lonely" ]
}
