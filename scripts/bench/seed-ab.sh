#!/usr/bin/env bash
# A/B of Lanes builds on the seed workload (100,000 single-row update transactions over 10 schemas, kept by
# scripts/bench/peer-mariadb.sh with KEEP_WORKLOAD=DIR) into a throwaway MariaDB target, the variants alternating:
#   WORKLOAD=DIR scripts/bench/seed-ab.sh ROUNDS "FLUSHES" NAME=JAR[@JVM_OPTIONS] ... -- [lanes apply options...]
# e.g. WORKLOAD=/tmp/seed100k scripts/bench/seed-ab.sh 3 "2 1" old=old/lanes.jar \
#        new-off=examples/target/lanes.jar@-Dlanes.jdbc.group-batches=false new=examples/target/lanes.jar -- \
#        --scheduler schema --workers 4 --commit-order partition
# Each run is one line of scripts/bench/workload4-lanes.sh (seconds, tx/s, target commits, both sides' CPU seconds,
# the final state's digest), prefixed with the variant and round; JVM_OPTIONS go through JAVA_TOOL_OPTIONS.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=$1; flushes=$2; shift 2
variants=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do variants+=("$1"); shift; done
[ $# -gt 0 ] && shift
echo "cpus $(nproc); $(uptime)"
for r in $(seq 1 "$rounds"); do
  for flush in $flushes; do
    for v in "${variants[@]}"; do
      name=${v%%=*}; spec=${v#*=}; jar=${spec%%@*}; opts=""; [ "$spec" != "$jar" ] && opts=${spec#*@}
      printf '%s\tround %s\t' "$name" "$r"
      JAVA_TOOL_OPTIONS="$opts" WORK=${WORK:-/tmp/lanes-seed-ab} bash scripts/bench/workload4-lanes.sh "$flush" "$jar" "$@" 2>&1 \
        | grep -v '^Picked up JAVA_TOOL_OPTIONS'
    done
  done
done
echo "$(uptime)"
