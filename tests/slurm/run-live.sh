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
trap '"$lab" down >/dev/null 2>&1' EXIT
if ! "$lab" up >&2; then
	echo "not ok 1 - a loopback Slurm starts"; echo "1..1"; exit 1
fi
tag=$("$lab" load) && "$lab" wait 300 >&2 || {
	echo "not ok 1 - the test workload runs"; echo "1..1"; exit 1; }
MIRAGE_TAG=$tag MIRAGE_BIN=$PWD/${1:-build/default} bats --tap tests/slurm/*.bats
