#!/usr/bin/env bash
# Peak RSS of `navbench-bench experiment` as the number of routes grows at equal configurations
# (issue 27: memory flat in routes; docs/scaling.md "Memory in routes"). Each route is one
# recording and one navigation session made on demand and released (`SessionCatalog`), so the
# growth measured is what the experiment keeps per route, not the inputs.
#
#   scripts/measure_route_memory.sh                    # 20, 100, 400, 1000 routes × 10 configurations
#   ROUTES_LIST="20 1000" CONFIGS=50 JOBS=2 scripts/measure_route_memory.sh
#
# Needs the release build (make build) and GNU time. Prints one tab-separated line per
# size: routes, configurations, runs, wall s, peak RSS MiB, ratio to the first size's peak, load.
set -euo pipefail
cd "$(dirname "$0")/.."
NAVBENCH_BENCH=${NAVBENCH_BENCH:-.build/release/navbench-bench}
ROUTES_LIST=${ROUTES_LIST:-"20 100 400 1000"}
CONFIGS=${CONFIGS:-10}
JOBS=${JOBS:-1}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
first=""
printf 'routes\tconfigs\truns\twall_s\tpeak_rss_mib\tratio_to_first\tload\n'
for r in $ROUTES_LIST; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f '%M %e' -o "$out" "$NAVBENCH_BENCH" experiment --routes "$r" --configs "$CONFIGS" --jobs "$JOBS" > /dev/null
    read -r kib wall < "$out"
    mib=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
    [ -n "$first" ] || first=$mib
    ratio=$(awk -v a="$mib" -v b="$first" 'BEGIN { printf "%.2f", a / b }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$CONFIGS" "$((r * CONFIGS))" "$wall" "$mib" "$ratio" "$load"
done
