#!/usr/bin/env bash
# Issue 19's realistic logs with the shipped defaults: the three recorded workloads (w1 the mixed log, the committed
# fixture; w2 sysbench oltp_write_only, 16 threads, one schema; w3 TPC-C-like with foreign keys) applied by
# scripts/bench/mixed-workload.sh into one target with each setting, rounds interleaved (each round runs every
# workload, variant and setting once), then docs/benchmarks.md regenerated (its section "Realistic logs with the
# shipped defaults (issue 19)" reads docs/bench/issue19/*.tsv).
#   scripts/bench/realistic-workloads.sh [--rounds N] [--target mariadb|postgres] [--out FILE] [--jar JAR]
#                                        [--no-report] [VARIANT=PROPERTIES_FILE ...]
# --rounds: default 3. --target: mariadb (default; a throwaway server per workload and variant, MariaDB's defaults) or
# postgres (the PostgreSQL at 127.0.0.1:5432, database test, user postgres, must be running). --out: default
# docs/bench/issue19/TARGET.tsv, overwritten. --jar: default examples/target/lanes.jar.
# Variants: `default` (the shipped defaults, no options file) always runs; each VARIANT=FILE also runs every setting
# with `--config FILE` (e.g. run1=/tmp/run1.properties holding lanes.scheduler.writeset-run=1).
# SETTINGS="a b" replaces the settings (default: schema:4:partition writeset:4:none writeset:4:partition
# writeset:4:strict writeset:16:partition writeset:16:none).
# w2 and w3 need $FIXTURES (default /tmp/lanes-fixtures)/sysbench-oltp_write_only.* and tpcc-like.*: recorded by
# scripts/fixtures/record-sysbench-oltp.sh and record-tpcc-like.sh when missing (needs sysbench).
# ROTATE=1 starts each round's settings one further along (round 2 runs them from the second, and so on), so that no
# setting always runs right after the same other one (a target's background work after one run can slow the next).
# WORKLOADS="w1 w2 w3" (the default) picks the workloads; w2-rw is workload 2's other sysbench test, oltp_read_write
# (the same 16 threads and schema; its reads leave nothing in the binlog, but they hold each transaction open longer at
# the source, so its commits group differently); w1-long, w2-long and w3-long are the same three recorded ten
# times longer (about 25,000, 30,000 and 20,000 transactions: the issue's logs last 1-3 s, where JIT compilation and
# warm-up weigh as much as applying, while a replica catching up a backlog runs for minutes), from $LONG_FIXTURES
# (default /tmp/lanes-fixtures-long), recorded there when missing (record-mixed-workload.sh 8 1600,
# record-sysbench-oltp.sh oltp_write_only 30000, record-tpcc-like.sh 8 2500).
# --no-report: do not regenerate docs/benchmarks.md (a machine without Maven).
# Writes a first comment line (date, git commit, jar, machine: nproc and load average), then one line per run:
# ROUND WORKLOAD VARIANT SETTING SECONDS TX/S COMMIT_ORDER_WAIT_S DEADLOCKS_BROKEN TIMEOUTS EXACT LANES_CPU_S
# (tab-separated, the last eight being mixed-workload.sh's), and a last comment line when done. Each run's JSON and stderr are under
# $WORK (default /tmp/lanes-realistic)/TARGET-WORKLOAD-VARIANT/, one JSON per setting and round.
set -euo pipefail
rounds=3; target=mariadb; out=; jar=examples/target/lanes.jar
variants=(default); configs=(""); report=1
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2;;
    --target) target=$2; shift 2;;
    --out) out=$(realpath -m "$2"); shift 2;;
    --jar) jar=$(realpath -m "$2"); shift 2;;
    --no-report) report=0; shift;;
    *=*) name=${1%%=*}; file=$(realpath -m "${1#*=}")
      [[ "$name" =~ ^[A-Za-z0-9._-]+$ && "$name" != default ]] || { echo "bad variant name: $name" >&2; exit 2; }
      [ -f "$file" ] || { echo "no such options file: $file" >&2; exit 2; }
      variants+=("$name"); configs+=("$file"); shift;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d' >&2; exit 2;;
  esac
done
case "$target" in mariadb|postgres) ;; *) echo "--target mariadb|postgres" >&2; exit 2;; esac
cd "$(dirname "$0")/../.."
out=${out:-docs/bench/issue19/$target.tsv}
[ -f "$jar" ] || { echo "no $jar: mvn -B -ntp -pl examples -am package -DskipTests" >&2; exit 2; }
settings=(schema:4:partition writeset:4:none writeset:4:partition writeset:4:strict writeset:16:partition
  writeset:16:none)
[ -z "${SETTINGS:-}" ] || read -r -a settings <<< "$SETTINGS"
fixtures=${FIXTURES:-/tmp/lanes-fixtures}
long=${LONG_FIXTURES:-/tmp/lanes-fixtures-long}
work=${WORK:-/tmp/lanes-realistic}
read -r -a workloads <<< "${WORKLOADS:-w1 w2 w3}"
for workload in "${workloads[@]}"; do
  case $workload in
    w1) ;;
    w2) [ -f "$fixtures/sysbench-oltp_write_only.000001.gz" ] || OUT="$fixtures" scripts/fixtures/record-sysbench-oltp.sh;;
    w2-rw) [ -f "$fixtures/sysbench-oltp_read_write.000001.gz" ] \
        || OUT="$fixtures" scripts/fixtures/record-sysbench-oltp.sh oltp_read_write;;
    w3) [ -f "$fixtures/tpcc-like.000001.gz" ] || OUT="$fixtures" scripts/fixtures/record-tpcc-like.sh;;
    w1-long) [ -f "$long/mixed-workload.000001.gz" ] || OUT="$long" scripts/fixtures/record-mixed-workload.sh 8 1600;;
    w2-long) [ -f "$long/sysbench-oltp_write_only.000001.gz" ] \
        || OUT="$long" scripts/fixtures/record-sysbench-oltp.sh oltp_write_only 30000;;
    w3-long) [ -f "$long/tpcc-like.000001.gz" ] || OUT="$long" scripts/fixtures/record-tpcc-like.sh 8 2500;;
    *) echo "unknown workload $workload (w1 w2 w2-rw w3 w1-long w2-long w3-long)" >&2; exit 2;;
  esac
done

mkdir -p "$(dirname "$out")"
# COMMIT names the build where the tree's git does not (a copy on another machine, the jar built elsewhere).
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null \
  || echo "+changes")}
# The jar relative to the repository when it lies inside it: the file is committed and read on other machines.
echo "# $(date -u +%FT%TZ) commit $commit target=$target jar=${jar#"$(pwd)"/} ($(sha256sum "$jar" | cut -c1-12))" \
  "rounds=$rounds${ROTATE:+ rotate=$ROTATE}" \
  "variants=${variants[*]} machine: nproc=$(nproc) load average $(cut -d' ' -f1-3 /proc/loadavg)" > "$out"
for round in $(seq 1 "$rounds"); do
  ordered=("${settings[@]}")
  if [ "${ROTATE:-0}" = 1 ]; then
    shift_by=$(( (round - 1) % ${#settings[@]} ))
    ordered=("${settings[@]:$shift_by}" "${settings[@]:0:$shift_by}")
  fi
  for workload in "${workloads[@]}"; do
    case $workload in
      w1) fixture=();;
      w2) fixture=(FIXTURE="$fixtures/sysbench-oltp_write_only" SCHEMAS=sb);;
      w2-rw) fixture=(FIXTURE="$fixtures/sysbench-oltp_read_write" SCHEMAS=sb);;
      w3) fixture=(FIXTURE="$fixtures/tpcc-like" SCHEMAS=tpcc);;
      w1-long) fixture=(FIXTURE="$long/mixed-workload" SCHEMAS="mix1 mix2");;
      w2-long) fixture=(FIXTURE="$long/sysbench-oltp_write_only" SCHEMAS=sb);;
      w3-long) fixture=(FIXTURE="$long/tpcc-like" SCHEMAS=tpcc);;
    esac
    for i in "${!variants[@]}"; do
      variant=${variants[$i]}
      args=; [ -z "${configs[$i]}" ] || args="--config ${configs[$i]}"
      echo "round $round/$rounds $workload $variant" >&2
      # Header lines dropped, every run prefixed with round, workload and variant; a failed invocation leaves a note.
      env "${fixture[@]}" TARGET="$target" OUT="$work/$target-$workload-$variant" APPLY_ARGS="$args" ROUND="$round" \
          scripts/bench/mixed-workload.sh "$jar" "${ordered[@]}" \
        | awk -v prefix="$round\t$workload\t$variant\t" '!/^setting\t/ { print prefix $0; fflush() }' >> "$out" \
        || echo "# round $round $workload $variant: mixed-workload.sh failed" >> "$out"
    done
  done
done
echo "# done $(date -u +%FT%TZ) load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
echo "wrote $out" >&2
[ "$report" = 1 ] || exit 0

[ -f jmh/target/benchmarks.jar ] || mvn -q -B -ntp ${MVN_OFFLINE:--o} -pl jmh -am package -DskipTests
case "$(realpath -m "$out")" in
  "$(pwd)"/docs/bench/issue19/*.tsv) ;;
  *) echo "note: the report reads docs/bench/issue19/*.tsv only, not $out" >&2;;
esac
scripts/bench/run-all.sh --report
