#!/usr/bin/env bash
# run-live.sh BUILD: start the loopback Slurm, run a small workload, check
# what its sacct prints with the bats suites of tests/slurm/, stop Slurm.
# Speaks TAP.  Needs root; prints a skip line otherwise, or when
# MIRAGE_SLURM=0.
set -uo pipefail
cd "$(dirname "$0")/../.."
lab=tests/slurm/slurm-lab.sh
if [ "${MIRAGE_SLURM:-1}" = 0 ]; then
	echo "ok 1 - live Slurm tests # SKIP MIRAGE_SLURM=0"; echo "1..1"; exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "ok 1 - live Slurm tests # SKIP not root"; echo "1..1"; exit 0
fi
# a lab of its own (its directory, its ports): runs on one host do not
# collide; it is removed afterwards unless MIRAGE_LAB names one to keep
fresh=
if [ -z "${MIRAGE_LAB:-}" ]; then
	MIRAGE_LAB=$(mktemp -d /var/tmp/mirage-slurm-lab.XXXXXX) && fresh=1
	chmod 755 "$MIRAGE_LAB"	# the daemons' users go through it
fi
export MIRAGE_LAB SLURM_CONF=$MIRAGE_LAB/etc/slurm.conf
trap '"$lab" down >/dev/null 2>&1; [ -z "$fresh" ] || rm -rf "$MIRAGE_LAB"' EXIT
if ! "$lab" up >&2; then
	echo "not ok 1 - a loopback Slurm starts"; echo "1..1"; exit 1
fi
tag=$("$lab" load) && "$lab" wait 300 >&2 || {
	echo "not ok 1 - the test workload runs"; echo "1..1"; exit 1; }
MIRAGE_TAG=$tag MIRAGE_BIN=$PWD/${1:-build/default} bats --tap tests/slurm/*.bats
