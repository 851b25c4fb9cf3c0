#!/bin/sh
# Runs a command and prints its wall time afterwards, keeping its exit status:
#   scripts/timed.sh LABEL COMMAND [ARG…]   →   "time: LABEL: 12 s"
# `make test` times each step this way, so a slow step shows in CI's log (README: set-up times).
label=$1; shift
start=$(date +%s)
status=0
"$@" || status=$?
echo "time: $label: $(( $(date +%s) - start )) s$( [ $status -ne 0 ] && echo " (failed, exit $status)")"
exit $status
