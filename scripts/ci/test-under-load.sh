#!/usr/bin/env bash
# `npm run test:under-load [-- RUNS]`: the suite while two busy loops hold both cores, RUNS times in a row (default 1),
# as a loaded CI runner would. Waits in tests are on progress, so slowness must never read as a failure. The loops
# are stopped by their own PIDs however the run ends.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-1}"
node -e 'for (;;) {}' & busy1=$!
node -e 'for (;;) {}' & busy2=$!
trap 'kill "$busy1" "$busy2" 2>/dev/null || true' EXIT
for run in $(seq 1 "$runs"); do
  echo "test:under-load: run $run of $runs beside two busy loops (PIDs $busy1 $busy2), load $(cut -d' ' -f1-3 /proc/loadavg)"
  npx vitest run
done
