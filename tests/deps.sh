#!/bin/sh
# deps.sh [--test]: find which packages mirage needs and lacks.  On
# Debian, install them when run as root (apt-get update first), or say
# exactly what to install.  Without --test: what building and running the
# tools (make, make demo) need; with it, also what the tests use.
# Libraries are checked with pkg-config where they ship a .pc file.
#
# On Red Hat Enterprise Linux 9 and its rebuilds (Rocky, Alma) it prints
# the dnf commands and xgboost's build, and installs nothing: the names
# come from the distributions' package lists, and no such system ran
# them.  Elsewhere it names what is missing by Debian's names.  The
# test suite needs Debian.  MIRAGE_OS_RELEASE names another os-release
# file (the tests use it).
set -eu

tests=0
case ${1-} in
--test) tests=1 ;;
"") ;;
*) echo "usage: deps.sh [--test]" >&2; exit 2 ;;
esac

# the family: ID and ID_LIKE of os-release(5); Debian when unsaid
family=debian
osr=${MIRAGE_OS_RELEASE:-/etc/os-release}
if [ -r "$osr" ]; then
	ids=$(sed -n 's/^ID\(_LIKE\)\{0,1\}=//p' "$osr" | tr -d '"' | tr '\n' ' ')
	case " $ids " in
	*" debian "*) ;;
	*" rhel "* | *" centos "*) family=rhel ;;
	*) family=other ;;
	esac
fi

missing=""
need() { # need DEBIAN-PACKAGE RHEL-PACKAGE CHECK...
	if [ $family = rhel ]; then
		pkg=$2
	else
		pkg=$1
	fi
	shift 2
	if ! "$@" >/dev/null 2>&1; then
		missing="$missing $pkg"
	fi
}
pc() { command -v pkg-config >/dev/null && pkg-config --exists "$1"; }
has() { command -v "$1"; }

need pkg-config pkgconf-pkg-config has pkg-config
need gcc gcc has cc
need make make has make
need libarchive-dev libarchive-devel pc libarchive
need zlib1g-dev zlib-devel pc zlib
need libdeflate-dev libdeflate-devel pc libdeflate
need libjson-c-dev json-c-devel pc json-c
need libyaml-dev libyaml-devel pc yaml-0.1
need libopenblas-dev openblas-devel pc openblas
need libxgboost-dev xgboost pc xgboost
need libsvm-dev libsvm-devel test -f /usr/include/libsvm/svm.h
need libglpk-dev glpk-devel test -f /usr/include/glpk.h

if [ $family = other ]; then
	[ -z "$missing" ] && [ $tests = 0 ] && exit 0
	if [ -n "$missing" ]; then
		echo "mirage: packages are named here for Debian 12 and RHEL 9 only;" >&2
		echo "  install what stands for these Debian ones:$missing" >&2
	fi
	[ $tests = 1 ] && echo "mirage: the test suite needs Debian 12" >&2
	exit 1
fi
if [ $family = rhel ]; then
	if [ $tests = 1 ]; then
		echo "mirage: the test suite needs Debian 12 (its Slurm, bats libraries, chromium)" >&2
		exit 1
	fi
	[ -z "$missing" ] && exit 0
	rpms=$(echo "$missing" | sed 's/ xgboost//')
	case $missing in
	*" xgboost"*) rpms="$rpms cmake gcc-c++ git" ;;	# to build it
	esac
	echo "mirage: missing:$missing" >&2
	echo "mirage: as root (EPEL and CodeReady Builder hold some of them):" >&2
	if [ -n "$rpms" ]; then
		echo "  dnf install -y epel-release && dnf config-manager --set-enabled crb" >&2
		echo "  dnf install -y$rpms" >&2
	fi
	case $missing in
	*" xgboost"*)
		echo "mirage: xgboost has no package there: build its C library, version 1.7.4" >&2
		echo "  as Debian 12's, and make it known to the loader:" >&2
		echo "  git clone --recursive --branch v1.7.4 https://github.com/dmlc/xgboost" >&2
		echo "  cmake -S xgboost -B xgboost/build -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_BUILD_TYPE=Release" >&2
		echo "  cmake --build xgboost/build -j && cmake --install xgboost/build" >&2
		echo "  echo /usr/local/lib > /etc/ld.so.conf.d/xgboost.conf && ldconfig" >&2
		echo "mirage: then build with PKG_CONFIG_PATH=/usr/local/lib/pkgconfig make" >&2
		;;
	esac
	exit 1
fi

# what the tests use
if [ $tests = 1 ]; then
	need bats "" has bats
	need bats-support "" test -f /usr/lib/bats/bats-support/load.bash
	need bats-assert "" test -f /usr/lib/bats/bats-assert/load.bash
	need mandoc "" has mandoc
	need python3 "" has python3	# JSON checks in the tests
	# the pipelines and tests run under POSIX awks: mawk (Debian's
	# default awk) and the one true awk, whatever awk the machine has
	need mawk "" has mawk
	need original-awk "" has original-awk
	need gnuplot-nox "" has gnuplot	# the plots of pipelines/cluster-report.sh
	need chromium "" has chromium	# the report page as a person sees it (tests)
	# compressors the tests use to make fixtures
	need tzdata "" test -f /usr/share/zoneinfo/America/Chicago	# -z zone
	need gzip "" has gzip
	need xz-utils "" has xz
	need zstd "" has zstd
	need bzip2 "" has bzip2
	need zip "" has zip
	need lz4 "" has lz4
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
