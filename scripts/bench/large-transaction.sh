#!/usr/bin/env bash
# Large transactions as users log them: on a throwaway MariaDB (binlog ROW, the server's defaults for row images, FULL,
# and row metadata, MINIMAL) `sysbench oltp_write_only prepare` loads a table of ROWS rows (in transactions of a few
# thousand rows), then one UPDATE of every row (a backfill: before and after images, about 380 bytes of log a row) and
# one DELETE of half of them (a purge). `lanes apply --json` applies that log into the PostgreSQL at 127.0.0.1:5432
# (database test, user postgres) with each JAR under each heap setting, the variants rotated each round; every run's
# row count and SUM(k) are checked against the source's.
#   scripts/bench/large-transaction.sh [--rows N] [--rounds N] [--heaps "default 256m"] [--out FILE] LABEL=JAR...
# Prints TSV: round, label, heap, status, seconds, Lanes CPU s, peak RSS (MiB), large_transactions, exact. "default" is
# the JVM's own heap (a quarter of the machine's memory). Needs mariadbd, sysbench, python3, psql and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/../.."
rows=500000; rounds=3; heaps="default 256m"; out=/dev/stdout; variants=()
while [ $# -gt 0 ]; do
  case $1 in
    --rows) rows=$2; shift 2;;
    --rounds) rounds=$2; shift 2;;
    --heaps) heaps=$2; shift 2;;
    --out) out=$2; shift 2;;
    -h|--help) sed -n '2,9p' "$0"; exit 0;;
    *=*) variants+=("$1"); shift;;
    *) echo "not LABEL=JAR: $1" >&2; exit 2;;
  esac
done
[ ${#variants[@]} -ge 1 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
P="psql -h 127.0.0.1 -U postgres -d test -q -t -A"
$P -c 'SELECT 1' > /dev/null || { echo "no PostgreSQL at 127.0.0.1:5432 (database test, user postgres)" >&2; exit 1; }
root=$(mktemp -d /tmp/lanes-large.XXXXXX)
. scripts/lib/throwaway-mariadb.sh
start_throwaway_mariadb "$root" --sync-binlog=0 --innodb-flush-log-at-trx-commit=2 --innodb-buffer-pool-size=512M \
  --max-binlog-size=1G
S="mariadb --no-defaults -uroot -S $root/src.sock"
$S -e "RESET MASTER; CREATE DATABASE sb"
sysbench oltp_write_only --db-driver=mysql --mysql-socket="$root/src.sock" --mysql-user=root --mysql-db=sb \
  --tables=1 --table-size="$rows" prepare > /dev/null
$S -e "UPDATE sb.sbtest1 SET k = k + 1, c = REVERSE(c); DELETE FROM sb.sbtest1 WHERE id % 2 = 0"
$S -e "FLUSH BINARY LOGS"
expected=$($S -N -e "SELECT COUNT(*), SUM(k) FROM sb.sbtest1" | tr '\t' '|')
log="$root/src/src-bin.000001"
{
  echo "# $(date -u +%FT%TZ) large-transaction rows=$rows log_bytes=$(stat -c %s "$log") rounds=$rounds heaps=$heaps" \
    "variants=$(for v in "${variants[@]}"; do printf '%s=%s(%s) ' "${v%%=*}" "$(basename "${v#*=}")" \
      "$(sha256sum "${v#*=}" | cut -c1-12)"; done)machine: nproc=$(nproc) load average $(cut -d' ' -f1-3 /proc/loadavg)"
  printf 'round\tlabel\theap\tstatus\tseconds\tlanes_cpu_s\tpeak_rss_mib\tlarge_transactions\texact\n'
} > "$out"
n=${#variants[@]}
for r in $(seq 1 "$rounds"); do
  for i in $(seq 0 $((n - 1))); do
    v=${variants[$(( (i + r - 1) % n ))]}
    label=${v%%=*}; jar=${v#*=}
    for heap in $heaps; do
      $P -c "DROP SCHEMA IF EXISTS sb CASCADE; DROP SCHEMA IF EXISTS lanes_bench CASCADE" 2>/dev/null
      opts=(); [ "$heap" = default ] || opts=("-Xmx$heap")
      /usr/bin/time -f '%M' -o "$root/rss" java "${opts[@]}" -jar "$jar" apply --json --source "$log" \
        --target jdbc:postgresql://127.0.0.1:5432/test --target-user postgres \
        --checkpoint-table lanes_bench.lanes_checkpoint > "$root/out.json" 2> "$root/err.log" || true
      got=$($P -F'|' -c "SELECT COUNT(*), SUM(k) FROM sb.sbtest1" 2>/dev/null || echo none)
      python3 - "$r" "$label" "$heap" "$(tail -1 "$root/rss")" "$([ "$got" = "$expected" ] && echo yes || echo "no ($got)")" \
        "$root/out.json" >> "$out" <<'EOF'
import json, sys
r, label, heap, rss, exact, path = sys.argv[1:]
try:
    d = json.loads(open(path).read().strip().splitlines()[-1])
except Exception:
    d = {"status": "no output"}
status = d.get("status", "?") if d.get("status") != "failed" else "failed: " + d.get("error", "")[:80]
print("\t".join([r, label, heap, status, str(d.get("seconds", "")), str(d.get("process_cpu_s", "")),
                 str(round(int(rss) / 1024)) if rss.isdigit() else "", str(d.get("large_transactions", "")), exact]))
EOF
    done
  done
done
