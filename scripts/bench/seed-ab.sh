#!/usr/bin/env bash
# A/B of two Lanes builds on the seed workload (100,000 single-row update transactions over 10 schemas, kept by
# scripts/bench/peer-mariadb.sh with KEEP_WORKLOAD=DIR) into a throwaway MariaDB target, the builds alternating:
#   WORKLOAD=DIR scripts/bench/seed-ab.sh OLD_JAR NEW_JAR ROUNDS "FLUSHES" [lanes apply options...]
# e.g. WORKLOAD=/tmp/seed100k scripts/bench/seed-ab.sh old/lanes.jar examples/target/lanes.jar 3 "2 1" \
#        --scheduler schema --workers 4 --commit-order partition
# Each run is one line of scripts/bench/workload4-lanes.sh (seconds, tx/s, target commits, both sides' CPU seconds,
# the final state's digest), prefixed with the build and round.
set -euo pipefail
cd "$(dirname "$0")/../.."
old=$1; new=$2; rounds=$3; flushes=$4; shift 4
echo "cpus $(nproc); $(uptime)"
for r in $(seq 1 "$rounds"); do
  for flush in $flushes; do
    for v in old new; do
      jar=$new; [ "$v" = old ] && jar=$old
      printf '%s\tround %s\t' "$v" "$r"
      WORK=${WORK:-/tmp/lanes-seed-ab} bash scripts/bench/workload4-lanes.sh "$flush" "$jar" "$@"
    done
  done
done
echo "$(uptime)"
