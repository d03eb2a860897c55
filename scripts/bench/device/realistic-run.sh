#!/bin/bash
# Issue 19's realistic logs on the lent 16-core machine (no Java, MariaDB, sysbench or network there), in two calls on
# the same warm machine, the working tree's limit (64 MiB) allowing no fewer:
#   call 1, carrying .devbundle/part1 (PART1_ONLY=1 scripts/bench/device-bundle.sh) and .devbundle/run/lanes.jar:
#     bash .devbundle/part1/setup.sh && bash scripts/bench/device/realistic-run.sh --install-jar
#   call 2, carrying .devbundle/fx/fx.tar.xz (a tar, xz-compressed, of fx/ and fx-long/: the recorded fixtures of
#   scripts/bench/realistic-workloads.sh, FIXTURES and LONG_FIXTURES, the .000001 logs uncompressed):
#     bash scripts/bench/device/realistic-run.sh ROUNDS ROUNDS_LONG
# Writes $OUT/mariadb-16cores.tsv (w1 w2 w3, ROUNDS rounds) and $OUT/mariadb-16cores-long.tsv (w1-long w2-long w3-long,
# ROUNDS_LONG rounds), realistic-workloads.sh's format; each run's stderr gzipped under $OUT/logs.
set -u
if [ "${1:-}" = --install-jar ]; then
  cp .devbundle/run/lanes.jar /opt/lb/lanes.jar && ls -la /opt/lb/lanes.jar
  command -v python3 jq gzip setsid || true
  exit 0
fi
[ -x /opt/lb/jre0/bin/java ] && [ -f /opt/lb/lanes.jar ] || { echo "NOT WARM: call 1's JRE and jar are gone"; exit 3; }
export LD_LIBRARY_PATH=/opt/mdblib PATH=/opt/lb/jre0/bin:$PATH
rounds=${1:-3}; rounds_long=${2:-1}
mkdir -p /tmp/fx && tar xJf .devbundle/fx/fx.tar.xz -C /tmp/fx && gzip -1 /tmp/fx/fx/*.000001 /tmp/fx/fx-long/*.000001
ls -la /tmp/fx/fx /tmp/fx/fx-long; nproc; uptime
export COMMIT=${COMMIT:-device} FIXTURES=/tmp/fx/fx LONG_FIXTURES=/tmp/fx/fx-long WORK=/tmp/lanes-realistic
WORKLOADS="w1 w2 w3" scripts/bench/realistic-workloads.sh --rounds "$rounds" --jar /opt/lb/lanes.jar --no-report \
  --out "$OUT/mariadb-16cores.tsv"
uptime
WORKLOADS="w1-long w2-long w3-long" scripts/bench/realistic-workloads.sh --rounds "$rounds_long" --jar /opt/lb/lanes.jar \
  --no-report --out "$OUT/mariadb-16cores-long.tsv"
uptime
mkdir -p "$OUT/logs" && tar czf "$OUT/logs/stderr.tar.gz" -C /tmp/lanes-realistic . 2>/dev/null
cat "$OUT"/*.tsv
