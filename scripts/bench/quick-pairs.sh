#!/usr/bin/env bash
# Many quick rotated rounds of a few variants (builds, schedulers, JVM options) applying one recorded log into the
# PostgreSQL at 127.0.0.1:5432 (database test, user postgres): for differences of a few percent, which the 12-round
# series of realistic-workloads.sh cannot tell from the spread between series (issue 19, rounds 16 and 17). Each run
# drops the log's schemas and the checkpoint's, applies the log with `lanes apply --json`, and checks every table's row
# count against the log's checksums file ("count" in the exact column: the rows themselves are compared by
# realistic-workloads.sh --target postgres, not here). No throwaway MariaDB, no reference copy: a round of three
# variants of the mixed log takes about 8 s on 2 cores.
#   scripts/bench/quick-pairs.sh [--rounds N] [--out FILE] VARIANT...
# VARIANT is LABEL=JAR:SCHEDULER:WORKERS:COMMIT_ORDER[:JAVA_OPTIONS], JAVA_OPTIONS comma-separated (e.g.
#   before=old.jar:writeset:4:partition after=examples/target/lanes.jar:writeset:4:partition:-Xmx1g).
# FIXTURE=path/without/.000001.gz and SCHEMAS="a b" pick another log (default: the committed mixed log), WORKLOAD its
# name in the output (default w1).
# Prints realistic-workloads.sh's TSV (round, workload, variant, setting = LABEL, seconds, tx/s, commit-order wait s,
# deadlocks broken, commit-order timeouts, exact, Lanes CPU s) plus three columns: the workers' commits, how many
# workers applied anything, and the most transactions one worker applied; the variants run in an order rotated each
# round. scripts/bench/paired-ratios.py --setting LABEL --against LABEL FILE pairs them.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=12; out=/dev/stdout; variants=()
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2;;
    --out) out=$2; shift 2;;
    -h|--help) sed -n '2,19p' "$0"; exit 0;;
    *=*) variants+=("$1"); shift;;
    *) echo "not a variant (LABEL=JAR:SCHEDULER:WORKERS:COMMIT_ORDER[:JAVA_OPTIONS]): $1" >&2; exit 2;;
  esac
done
[ ${#variants[@]} -ge 1 ] || { sed -n '2,19p' "$0" >&2; exit 2; }
fixture=${FIXTURE:-binlog-api/src/test/resources/binlogs/mariadb-10.11/mixed-workload}
schemas=${SCHEMAS:-mix1 mix2}
workload=${WORKLOAD:-w1}
work=$(mktemp -d /tmp/lanes-quick-pairs.XXXXXX)
trap 'rm -rf "$work"' EXIT
gunzip -c "$fixture.000001.gz" > "$work/log.000001"
P="psql -h 127.0.0.1 -U postgres -d test -q -t -A"
$P -c 'SELECT 1' > /dev/null || { echo "no PostgreSQL at 127.0.0.1:5432 (database test, user postgres)" >&2; exit 1; }
for v in "${variants[@]}"; do
  IFS=: read -r jar _ <<< "${v#*=}"
  [ -f "$jar" ] || { echo "variant $v: no jar $jar" >&2; exit 2; }
done
{
  echo "# $(date -u +%FT%TZ) quick-pairs rounds=$rounds fixture=$(basename "$fixture") target=postgres" \
    "variants=$(for v in "${variants[@]}"; do IFS=: read -r jar rest <<< "${v#*=}"
      printf '%s=%s(%s):%s ' "${v%%=*}" "$(basename "$jar")" "$(sha256sum "$jar" | cut -c1-12)" "$rest"; done)" \
    "machine: nproc=$(nproc) load average $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out"
run() { # label jar scheduler workers order [java options]
  local label=$1 jar=$2 sched=$3 workers=$4 order=$5 opts=${6:-} json exact=count
  for db in $schemas lanes_bench; do $P -c "DROP SCHEMA IF EXISTS \"$db\" CASCADE" 2>/dev/null; done
  # shellcheck disable=SC2086 # the options are words
  json=$(java ${opts//,/ } -jar "$jar" apply --json --source "$work/log.000001" \
    --target jdbc:postgresql://127.0.0.1:5432/test --target-user postgres \
    --checkpoint-table lanes_bench.lanes_checkpoint --scheduler "$sched" --workers "$workers" --commit-order "$order" \
    2> "$work/stderr-$label.log" | tail -1)
  while IFS=$'\t' read -r table _ rows; do
    got=$($P -c "SELECT COUNT(*) FROM \"${table%%.*}\".\"${table#*.}\"" 2>&1)
    [ "$got" = "$rows" ] || { exact="no ($table: $got rows, source $rows)"; break; }
  done < "$fixture.checksums.tsv"
  python3 - "$json" "$label" "$exact" <<'PY'
import json, sys
raw, label, exact = sys.argv[1:]
try:
    d = json.loads(raw)
except ValueError:
    print(f"{label}\tfailed: {raw[:200]}")
    sys.exit(0)
ws = d.get("worker_stats", [])
wait = sum(w.get("waiting_for_commit_order_s", 0) for w in ws)
print(f"{label}\t{d['seconds']:.3f}\t{d['transactions'] / d['seconds']:.0f}\t{wait:.1f}"
      f"\t{d.get('commit_order_deadlocks_broken', '-')}\t{d.get('commit_order_retries', '-')}\t{exact}"
      f"\t{d.get('process_cpu_s', '-')}\t{sum(w['commits'] for w in ws)}"
      f"\t{sum(1 for w in ws if w['transactions'] > 0)}\t{max((w['transactions'] for w in ws), default=0)}")
PY
}
for round in $(seq 1 "$rounds"); do
  shift_by=$(( (round - 1) % ${#variants[@]} ))
  ordered=("${variants[@]:$shift_by}" "${variants[@]:0:$shift_by}")
  for v in "${ordered[@]}"; do
    IFS=: read -r jar sched workers order opts <<< "${v#*=}"
    echo "round $round/$rounds ${v%%=*}" >&2
    run "${v%%=*}" "$jar" "$sched" "$workers" "$order" "$opts" | sed "s/^/$round\t$workload\tdefault\t/" >> "$out"
  done
done
echo "# done $(date -u +%FT%TZ) load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
