#!/usr/bin/env bats
# 0900-docs-install.bats: the man pages' examples give what the pages
# say, and `make install` puts tools and pages where asked.

setup() {
	load test_helper
	mg_setup
}

@test "mirage-stream(5) examples: record counts, concatenation" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	[ "$(mirage-cat ls6.jobs | tail -n +2 | wc -l)" -eq 24777 ]
	[ "$(cat ls6.jobs ls6.jobs | mirage-cat -H | wc -l)" -eq 49554 ]
	grep -q '^24777$' "$ROOT/man/mirage-stream.5"
	grep -q '^49554$' "$ROOT/man/mirage-stream.5"
}

@test "mirage-cat(1) examples: header lines and the mean time limit" {
	mirage-parse -q -o ls6.jobs "$ROOT/data/ls6-a100.log.gz"
	run -0 bash -c "mirage-cat -i ls6.jobs | head -5"
	[ "${lines[1]}" = "$(printf 'record_type\tjobs')" ]
	[ "${lines[4]}" = "$(printf 'args\t-q -o ls6.jobs %s' "$ROOT/data/ls6-a100.log.gz")" ]
	v=$(mirage-cat -s ls6.jobs | awk '$1 == "timelimit" { print $6 / 3600 }')
	[ "$v" = 16.8139 ]
	grep -q '^16.8139$' "$ROOT/man/mirage-cat.1"
}

@test "every man page lints clean and has EXIT STATUS and EXAMPLES" {
	for page in "$ROOT"/man/*.[157]; do
		grep -q '^\.Sh EXIT STATUS' "$page"
		grep -q '^\.Sh EXAMPLES' "$page"
		[ -z "$(mandoc -Tlint -W warning "$page" 2>&1)" ]
	done
}

@test "man pages are references: no project targets or development machine, mirage-eval(1) at most 700 lines" {
	run grep -n -i -E "not met|as asked|was asked|target of [0-9]|project's target|the project's [^ ]* ?machine|development machine|not reached yet|was not chosen|a later design" "$ROOT"/man/*.[157]
	[ "$status" -eq 1 ]
	[ "$(wc -l < "$ROOT/man/mirage-eval.1")" -le 700 ]
	# every page a page names exists
	for ref in $(sed -n 's/^\.Xr \(mirage[a-z-]*\) \([157]\).*/\1.\2/p' "$ROOT"/man/*.[157] | sort -u); do
		[ -f "$ROOT/man/$ref" ] || { echo "no man/$ref"; return 1; }
	done
}

@test "every manual page that a file names exists: name(N), .Xr and man name" {
	cd "$ROOT"
	local files refs ref n=0
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		files=$(git ls-files | grep -v -E '^(tests/fuzz/corpus|tests/fixtures|data)/')
	else
		files=$(find README.md Makefile cmd common man pipelines tests -type f ! -path 'tests/fuzz/corpus/*' ! -path 'tests/fixtures/*')
	fi
	# mirage(7), mirage-chain(5); .Xr mirage-eval 1; man mirage-chain
	refs=$(grep -ohE '\bmirage(-[a-z]+)*\([1-8]\)|^\.Xr mirage(-[a-z]+)* [1-8]|\bman (-s ?[1-8] )?mirage(-[a-z]+)*\b' $files |
	    sed -E 's/^\.Xr (.*) ([1-8])$/\1(\2)/; s/^man (-s ?([1-8]) )?(.*)$/\3(\2)/' | sort -u)
	for ref in $refs; do
		n=$((n + 1))
		case $ref in
		*"()") ls man/"${ref%()}".[157] >/dev/null 2>&1 || { echo "no page $ref"; return 1; } ;;
		*) [ -f "man/$(echo "$ref" | sed -E 's/\(([1-8])\)$/.\1/')" ] || { echo "no page $ref"; return 1; } ;;
		esac
	done
	[ "$n" -ge 15 ]
	# and a page named that does not exist is caught
	printf 'see %s(7)\n' mirage-nothing > "$BATS_TEST_TMPDIR/x"
	ref=$(grep -ohE '\bmirage(-[a-z]+)*\([1-8]\)' "$BATS_TEST_TMPDIR/x")
	[ "$ref" = "mirage-nothing""(7)" ] && [ ! -f man/mirage-nothing.7 ]
}

@test "every awk program of the pipelines and tests is POSIX awk: mawk and the one true awk parse it" {
	cd "$ROOT"
	local files=(pipelines/*.sh pipelines/*.sbatch tests/*.sh tests/bats/*.bats tests/bats/*.bash
	    tests/slurm/*.bats tests/slurm/*.sh tests/fixtures/advise/fake-slurm)
	for a in mawk original-awk; do
		run -0 python3 tests/awk-programs.py "$a" "${files[@]}"
		[[ "${lines[-1]}" =~ ^[0-9]+\ programs$ ]]
		[ "${lines[-1]%% *}" -ge 200 ]
	done
	# what gawk alone takes is caught
	run -1 python3 tests/awk-programs.py mawk tests/fixtures/awk/gawk-only.sh
	[ "${#lines[@]}" -eq 2 ]
	run -1 python3 tests/awk-programs.py original-awk tests/fixtures/awk/gawk-only.sh
	[ "${#lines[@]}" -eq 3 ]
	# strftime is no syntax error: the awks are run too, by the suites
	run grep -n 'strftime(' pipelines/*.sh
	[ "$status" -eq 1 ]
}

@test "make install PREFIX= DESTDIR= installs tools, man pages and the cron pipelines" {
	# with the switches the build was made with, so nothing is rebuilt
	read -r -a flags < "$MIRAGE_BIN/build.flags"
	make -s -C "$ROOT" install B="$MIRAGE_BIN" "${flags[@]}" PREFIX=/opt/mg DESTDIR="$PWD/root" >/dev/null
	for t in mirage-parse mirage-cat; do [ -x root/opt/mg/bin/$t ]; done
	[ -f root/opt/mg/share/man/man1/mirage-parse.1 ]
	[ -f root/opt/mg/share/man/man5/mirage-stream.5 ]
	[ -f root/opt/mg/share/man/man7/mirage.7 ]
	run -0 root/opt/mg/bin/mirage-parse --version
	[ "$output" = "mirage-parse 0.1.0" ]
	# the pipelines a site runs from cron and sbatch, which find the
	# tools where they were installed (cron's PATH lacks them)
	for t in nightly-retrain.sh cluster-report.sh plan-folds.sh features-array.sbatch \
	    handover-service.sbatch handover-serving.sbatch handover-ddp.sbatch; do
		[ -x root/opt/mg/share/mirage/pipelines/$t ]
		grep -qx 'installed_bin=/opt/mg/bin' root/opt/mg/share/mirage/pipelines/$t
	done
	# the training helpers, beside the template that names them
	cmp "$ROOT/pipelines/handover_train.py" root/opt/mg/share/mirage/pipelines/handover_train.py
	make -s -C "$ROOT" install B="$MIRAGE_BIN" "${flags[@]}" PREFIX="$PWD/inst" >/dev/null
	printf 'JobID|Submit|Start|End|Timelimit|NNodes|State\n' > empty.txt
	run -1 --separate-stderr env PATH=/usr/bin:/bin inst/share/mirage/pipelines/cluster-report.sh -o rep -n 4 empty.txt
	[[ "$stderr" == *"'empty.txt' holds no job: no report"* ]]
}

@test "deps.sh beyond Debian: on RHEL the dnf commands and xgboost's build, elsewhere Debian's names; nothing installed" {
	local d=$BATS_TEST_TMPDIR
	printf 'NAME="Rocky Linux"\nID="rocky"\nID_LIKE="rhel centos fedora"\n' > "$d/os-release"
	# a machine with nothing: no pkg-config, compiler or make
	mkdir "$d/bin"
	ln -s "$(command -v sed)" "$(command -v tr)" "$d/bin/"
	run -1 --separate-stderr env PATH="$d/bin" MIRAGE_OS_RELEASE="$d/os-release" /bin/sh "$ROOT/tests/deps.sh"
	[[ "$stderr" == *"dnf install -y epel-release && dnf config-manager --set-enabled crb"* ]]
	# (libsvm's header is looked for where Debian and EPEL put it)
	[[ "$stderr" == *"dnf install -y pkgconf-pkg-config gcc make libarchive-devel zlib-devel libdeflate-devel json-c-devel libyaml-devel openblas-devel "* ]]
	[[ "$stderr" == *" cmake gcc-c++ git"$'\n'* ]]
	[[ "$stderr" == *"--branch v1.7.4 https://github.com/dmlc/xgboost"* ]]
	[[ "$stderr" == *"PKG_CONFIG_PATH=/usr/local/lib/pkgconfig make"* ]]
	[[ "$stderr" != *apt-get* ]]
	# the test suite needs Debian
	run -1 --separate-stderr env MIRAGE_OS_RELEASE="$d/os-release" /bin/sh "$ROOT/tests/deps.sh" --test
	[[ "$stderr" == *"needs Debian"* ]]
	# with everything there, nothing to say
	run -0 --separate-stderr env MIRAGE_OS_RELEASE="$d/os-release" /bin/sh "$ROOT/tests/deps.sh"
	[ -z "$stderr" ]
	# Fedora is not RHEL: no EPEL there; another system: Debian's names
	printf 'NAME="Fedora Linux"\nID=fedora\n' > "$d/os-release"
	run -1 --separate-stderr env PATH="$d/bin" MIRAGE_OS_RELEASE="$d/os-release" /bin/sh "$ROOT/tests/deps.sh"
	[[ "$stderr" == *"Debian 12 and RHEL 9 only"* ]]
	[[ "$stderr" == *" libxgboost-dev"* ]]
	[[ "$stderr" != *epel* ]]
	# there too, the test suite needs Debian; nothing else is said missing
	run -1 --separate-stderr env MIRAGE_OS_RELEASE="$d/os-release" /bin/sh "$ROOT/tests/deps.sh" --test
	[ "$stderr" = "mirage: the test suite needs Debian 12" ]
}

@test "--help: on standard output, exit 0, a line for every option of the synopsis, the man page named" {
	local t opt
	for t in mirage-parse mirage-features mirage-split mirage-train mirage-eval mirage-advise mirage-cat mirage-accel mirage-policy; do
		run -0 --separate-stderr "$t" --help
		[ -z "$stderr" ]
		[[ "$output" == "usage: $t "* ]]
		[[ "$output" == *"See $t(1)." ]]
		# the synopsis before "options:", the lines after it
		printf '%s\n' "$output" | sed '/^options:/,$d; /^exit:/,$d' > syn.txt
		printf '%s\n' "$output" | sed '1,/^options:/d' > opts.txt
		# every option of the synopsis (-x, -xyz bundles, --long) has a line
		for opt in $(grep -oE '(^|[[ |])--?[A-Za-z][-A-Za-z]*' syn.txt | sed 's/^[[ |]//' | sort -u); do
			case $opt in
			--*) grep -qE -- "(^|[ ,])$opt([ ,=]|$)" opts.txt || { echo "$t: no line for $opt"; return 1; } ;;
			*) local k
			   for k in $(printf '%s' "${opt#-}" | fold -w1); do
				grep -qE -- "(^|[ ,])-$k([ ,]|$)" opts.txt || { echo "$t: no line for -$k"; return 1; }
			   done ;;
			esac
		done
	done
	# the pipelines' -h behaves the same
	for t in reproduce-paper.sh cluster-report.sh nightly-retrain.sh plan-folds.sh fidelity.sh calibrate.sh; do
		run -0 --separate-stderr "$ROOT/pipelines/$t" -h
		[ -z "$stderr" ]
		[[ "$output" == "Usage: "*"$t"* ]]
	done
	run -2 --separate-stderr "$ROOT/pipelines/reproduce-paper.sh" -x
	[[ "$stderr" == "usage: "* ]]
}

@test "mirage-chain(5) EXAMPLES: the state file passes its own CRC" {
	sed -n '/^\.Sh EXAMPLES/,/^\.Ed/p' "$ROOT/man/mirage-chain.5" | sed '1,2d; $d' > state
	grep -q '^mirage-chain-state ' state
	# zlib's CRC-32 of everything before the crc32 line: gzip's trailer
	local want got
	want=$(sed -n 's/^crc32\t//p' state)
	got=$(sed '/^crc32\t/,$d' state | gzip -c | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' \n')
	[ -n "$want" ]
	[ "$got" = "$want" ]
}

@test "every tool answers --version and --help; none writes binary to a terminal" {
	local t
	for t in mirage-parse mirage-cat mirage-features mirage-split mirage-train mirage-eval mirage-advise mirage-accel mirage-policy; do
		run -0 $t --version
		[ "$output" = "$t 0.1.0" ]
		run -0 $t --help
		[[ "$output" == usage:* ]]
		[[ "$output" == *--version* ]]
	done
	mirage-parse -q -o ls6.jobs "$ROOT/data/ls6-a100.log.gz"
	mirage-features -q -f 2022-12-01 -N 4 -k 1 -w 2 -o s.mrs ls6.jobs
	# script(1) gives each a terminal as its standard output
	for c in "mirage-parse $ROOT/data/ls6-a100.log.gz" \
	    "mirage-features -f 2022-12-01 -N 4 -k 1 -w 2 ls6.jobs" \
	    "mirage-split -F 0.2 -t - -v v.mrs s.mrs" "mirage-train -a gbt s.mrs" \
	    "mirage-accel train --play 1"; do
		run -2 script -qec "$c" /dev/null
		[[ "$output" == *"refusing to write a "*" to a terminal"* ]]
	done
	[ ! -e v.mrs ]
}

@test "the project speaks of itself, not of its development: no session or issue numbers, no before-and-after" {
	cd "$ROOT"
	local files
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		files=$(git ls-files)
	else
		files=$(find . -type f ! -path './.git/*' ! -path './build/*' | sed 's|^\./||')
	fi
	# the project's own text: not the corpus, the fixtures or the data
	files=$(printf '%s\n' "$files" | grep -v -E '^(tests/fuzz/corpus|tests/fixtures|data)/' |
	    while read -r f; do [ -f "$f" ] && grep -Iq . "$f" && echo "$f"; done)
	# (each word bracketed, so that this line does not match itself)
	run grep -n -i -E '\bsess[i]ons? [0-9]|\biss[u]es? #?[0-9]|the iss[u]e'"'"'s|bef[o]re this change|aft[e]r this change|re-?meas[u]red|\bthis sess[i]on\b|\blast sess[i]on\b|meas[u]red on [0-9]{4}-|bef[o]re [0-9]{4}-[0-9]{2}-[0-9]{2}\b' $files
	[ "$status" -eq 1 ] || { echo "$output"; return 1; }
	# the README is for users: short
	[ "$(wc -l < README.md)" -le 250 ]
}

@test "mirage-cluster(5) EXAMPLES: each configuration is read and replays the trace" {
	mirage-parse -q "$ROOT/data/ls6-a100.log.gz" -o ls6.jobs
	awk '/^\.Sh EXAMPLES/ { e = 1 } e && /^\.Bd/ { b = 1; n++; next } e && /^\.Ed/ { b = 0; next } b { print > ("ex" n ".conf") }' "$ROOT/man/mirage-cluster.5"
	[ -s ex1.conf ] && [ -s ex2.conf ]
	for f in ex*.conf; do
		mirage-eval --replay -q -c "$f" -o "$f.tsv" ls6.jobs
		[ "$(wc -l < "$f.tsv")" -ge 2 ]
	done
}
