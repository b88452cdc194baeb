#!/usr/bin/env bash
# run.sh BUILD...: run every test against each build directory (unit
# tests, fuzz-corpus replays, bats suites, man page lint) and end with the
# line "N passed, N failed".  Each runner speaks TAP; a runner that dies
# without reporting a failure counts as one.  Each runner's lines show as
# they come, then its time; the pipeline suites (9xxx) run against the
# first build only.
set -uo pipefail
cd "$(dirname "$0")/.."

export LC_ALL=C OMP_WAIT_POLICY=passive OPENBLAS_NUM_THREADS=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
pass=0 fail=0 skip=0 runs=0
log=$(mktemp)
awks=$(mktemp -d) && chmod 755 "$awks"
trap 'rm -f "$log"; rm -rf "$awks"' EXIT

# The pipelines and tests are POSIX shell and awk: they run with an awk
# that is not gawk, whatever the machine's awk is (a Debian with
# MariaDB's packages has gawk).  The first build's runners get mawk,
# Debian's default (MIRAGE_AWK names another); the others, the one true
# awk.
use_awk() { # use_awk PROGRAM: awk is PROGRAM from here on
	local p
	p=$(command -v "$1") || { echo "run.sh: no $1 (tests/deps.sh --test installs it)" >&2; exit 1; }
	ln -sfn "$p" "$awks/awk"
	echo "# awk: $1"
}
PATH=$awks:$PATH

tap() { # tap LABEL CMD...: run a TAP producer, count its results
	local label=$1 rc t0=$SECONDS
	shift
	echo "# $label"
	# its lines as they come (a long runner is not silent), and kept
	"$@" 2>&1 | tee "$log" | sed -u 's/^/  /'
	rc=${PIPESTATUS[0]}
	runs=$((runs + 1))
	echo "# $label: $((SECONDS - t0)) s"
	local p f s
	p=$(grep -c '^ok ' "$log" || true)
	s=$(grep -c '^ok .*# [Ss][Kk][Ii][Pp]' "$log" || true)
	f=$(grep -c '^not ok ' "$log" || true)
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $label exited with status $rc"
		f=1
	fi
	if [ "$((p + f + s))" -eq 0 ]; then
		echo "not ok - $label ran no test"
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

manlint() {
	local n=0 page
	for page in man/*.[157]; do
		n=$((n + 1))
		if out=$(mandoc -Tlint -W warning "$page" 2>&1) && [ -z "$out" ]; then
			echo "ok $n - mandoc -Tlint $page"
		else
			echo "not ok $n - mandoc -Tlint $page"
			echo "$out" | sed 's/^/# /'
		fi
	done
	echo "1..$n"
}

for b in "$@"; do
	if [ "$b" = "$1" ]; then use_awk "${MIRAGE_AWK:-mawk}"; else use_awk original-awk; fi
	for t in "$b"/tests/t_*; do
		[ -x "$t" ] && tap "$b: unit $(basename "$t")" "$t"
	done
	for t in "$b"/tests/replay_*; do
		name=${t##*/replay_}
		[ -x "$t" ] && tap "$b: fuzz corpus $name" "$t" tests/fuzz/corpus/"$name"
	done
	for t in tests/bats/*.bats; do
		# the pipelines (9xxx) run whole protocols: against the first
		# build only, which keeps make check within its time
		case $t in
		tests/bats/9*) [ "$b" = "$1" ] || continue ;;
		esac
		tap "$b: $(basename "$t")" env MIRAGE_BIN="$PWD/$b" bats --tap "$t"
	done
done
use_awk "${MIRAGE_AWK:-mawk}"
tap "man pages" manlint
# a real Slurm on loopback (root only; MIRAGE_SLURM=0 skips it)
tap "live Slurm: $1" tests/slurm/run-live.sh "$1"

echo
echo "$runs runners in $((SECONDS / 60)) min $((SECONDS % 60)) s"
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
