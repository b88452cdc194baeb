#!/bin/sh
# deps.sh [--test]: find which Debian packages mirage needs and lacks;
# install them when run as root (apt-get update first), or say exactly
# what to install.  Without --test: what building and running the tools
# (make, make demo) need; with it, also what the tests use.  Libraries
# are checked with pkg-config where they ship a .pc file.
set -eu

tests=0
case ${1-} in
--test) tests=1 ;;
"") ;;
*) echo "usage: deps.sh [--test]" >&2; exit 2 ;;
esac

missing=""
need() { # need PACKAGE CHECK...
	pkg=$1
	shift
	if ! "$@" >/dev/null 2>&1; then
		missing="$missing $pkg"
	fi
}
pc() { pkg-config --exists "$1"; }
has() { command -v "$1"; }

need pkg-config has pkg-config
need gcc has cc
need make has make
if has pkg-config >/dev/null 2>&1; then
	need libarchive-dev pc libarchive
	need zlib1g-dev pc zlib
	need libdeflate-dev pc libdeflate
	need libjson-c-dev pc json-c
	need libyaml-dev pc yaml-0.1
	need libopenblas-dev pc openblas
	need libxgboost-dev pc xgboost
else
	missing="$missing libarchive-dev zlib1g-dev libdeflate-dev libjson-c-dev libyaml-dev libopenblas-dev libxgboost-dev"
fi
need libsvm-dev test -f /usr/include/libsvm/svm.h
# what the tests use
if [ $tests = 1 ]; then
	need bats has bats
	need bats-support test -f /usr/lib/bats/bats-support/load.bash
	need bats-assert test -f /usr/lib/bats/bats-assert/load.bash
	need mandoc has mandoc
	need python3 has python3	# JSON checks in the tests
	need gnuplot-nox has gnuplot	# the plots of pipelines/cluster-report.sh
	need chromium has chromium	# the report page as a person sees it (tests)
	# compressors the tests use to make fixtures
	need tzdata test -f /usr/share/zoneinfo/America/Chicago	# -z zone
	need gzip has gzip
	need xz-utils has xz
	need zstd has zstd
	need bzip2 has bzip2
	need zip has zip
	need lz4 has lz4
fi

if [ -z "$missing" ]; then
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "mirage: missing Debian packages:$missing" >&2
	echo "mirage: install them as root with:" >&2
	echo "  apt-get update && apt-get install --no-install-recommends$missing" >&2
	exit 1
fi
echo "mirage: installing:$missing" >&2
apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install \
	-y -q --no-install-recommends $missing >&2
