#!/usr/bin/env bash
# Workload 1 of issue 19 (the mixed log, recorded by scripts/fixtures/record-mixed-workload.sh) applied into a throwaway
# MariaDB target with several settings, one run each (RUNS=n for more): seconds, transactions/s, the workers' time
# waiting for commit order, commit-order deadlocks broken and timeouts, and whether every table's CHECKSUM matches the
# source's final state (mixed-workload.checksums.tsv).
#   scripts/bench/mixed-workload.sh [JAR=examples/target/lanes.jar] [SETTINGS...]
# A setting is SCHEDULER:WORKERS:COMMIT_ORDER (e.g. writeset:16:partition); default: the table in docs/commit-order.md.
# SETTING@LABEL runs that setting with the jar $JARS/LABEL.jar instead (JARS: a directory), so that two builds
# interleave within one series (e.g. writeset:4:partition@before writeset:4:partition); it prints as given.
# APPLY_ARGS="..." adds options to every `lanes apply` (e.g. APPLY_ARGS="--config run.properties").
# LOCKS=1: while each run lasts, sample the target's lock views (INNODB_LOCK_WAITS + INNODB_TRX, every 150 ms: MariaDB
# refreshes them only when unread for 100 ms) and the target's processlist into $OUT/locks-<setting>.tsv.
# FIXTURE=path/without/.000001.gz and SCHEMAS="a b" apply another recorded log the same way (e.g. workload 2 from
# scripts/fixtures/record-sysbench-oltp.sh: FIXTURE=/tmp/lanes-fixtures/sysbench-oltp_write_only SCHEMAS=sb).
# TARGET=postgres: into the PostgreSQL at 127.0.0.1:5432 (database test, user postgres) instead, the schemas dropped
# before each run, the checkpoint in lanes_bench.lanes_checkpoint. CHECKSUM TABLE is MariaDB's own, so there every
# table's rows are compared as text instead (printed as "rows"): the rows of each table, one tab-separated line each
# (NULL as NULL, PostgreSQL's CHAR(n) without its padding, as MariaDB returns it), sorted bytewise (the two engines'
# collations order text differently) and hashed, against the same digest of a reference copy: the log applied first,
# by one worker with the schema scheduler, into the throwaway MariaDB, whose CHECKSUM TABLE must match the source's.
# Values holding a tab, a newline or a backslash would print differently on the two sides (none of the recorded logs
# has such a value): such a table reads "no", never a false "rows".
# Prints one TSV line per run: setting, seconds, tx/s, commit-order wait s, deadlocks broken, commit-order timeouts,
# exact (yes, "rows" on PostgreSQL, or no with the first table that differs), and the Lanes process's CPU seconds
# (every thread, JIT compiler and GC included; "-" from a jar that does not report them). Needs mariadbd and java 17.
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=${1:-examples/target/lanes.jar}; shift || true
settings=("$@")
[ ${#settings[@]} -gt 0 ] || settings=(schema:16:partition writeset:4:partition writeset:16:partition
  writeset:16:strict writeset:16:none)
runs=${RUNS:-1}
fixture=${FIXTURE:-binlog-api/src/test/resources/binlogs/mariadb-10.11/mixed-workload}
schemas=${SCHEMAS:-mix1 mix2}
out=${OUT:-/tmp/lanes-mixed-bench}; mkdir -p "$out"
root=$(mktemp -d /tmp/lanes-mixed-target.XXXXXX)
trap 'mariadb-admin --no-defaults -uroot -S "$root/t.sock" shutdown >/dev/null 2>&1 || true; rm -rf "$root"' EXIT
# A free port without python (the lent 16-core machine may have none): a random one nothing answers on.
port=
while [ -z "$port" ]; do
  p=$((20000 + RANDOM % 40000))
  (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || port=$p
done
mariadb-install-db --no-defaults --datadir="$root/d" --user="$(id -un)" --auth-root-authentication-method=normal \
  > "$root/install.log" 2>&1
# The target with MariaDB's defaults (durable commits, innodb_lock_wait_timeout=50), as a new user runs it.
setsid mariadbd --no-defaults --datadir="$root/d" --user="$(id -un)" --port="$port" --bind-address=127.0.0.1 \
  --socket="$root/t.sock" --log-error="$root/t.err" --innodb-buffer-pool-size=256M --max-connections=500 \
  >/dev/null 2>&1 < /dev/null &
for _ in $(seq 1 240); do mariadb --no-defaults -uroot -S "$root/t.sock" -e 'select 1' >/dev/null 2>&1 && break; sleep 0.5; done
mariadb --no-defaults -uroot -S "$root/t.sock" -e 'select 1' >/dev/null 2>&1 \
  || { echo "the throwaway MariaDB on port $port did not start:" >&2; tail -n 20 "$root/t.err" >&2; exit 1; }
T="mariadb --no-defaults -uroot -S $root/t.sock"
P="psql -h 127.0.0.1 -U postgres -d test -q -t -A"
if [ "${TARGET:-mariadb}" = postgres ]; then
  url=jdbc:postgresql://127.0.0.1:5432/test; user=postgres; ckpt=(--checkpoint-table lanes_bench.lanes_checkpoint)
else
  url="jdbc:mariadb://127.0.0.1:$port/"; user=root; ckpt=()
fi
gunzip -c "$fixture.000001.gz" > "$root/mixed.000001"
# A table's rows as text, sorted bytewise and hashed (see TARGET=postgres above): the same digest from either engine.
digest_mariadb() { $T -B -N -e "SELECT * FROM $1" | LC_ALL=C sort | md5sum | cut -c1-32; }
digest_postgres() {
  local cols
  cols=$($P -c "SELECT string_agg(CASE WHEN data_type = 'character' THEN 'rtrim(' || quote_ident(column_name) || ')'
      ELSE quote_ident(column_name) || '::text' END, ', ' ORDER BY ordinal_position) FROM information_schema.columns
      WHERE table_schema = '${1%%.*}' AND table_name = '${1#*.}'")
  [ -n "$cols" ] || { echo "no such table"; return; }
  $P -F $'\t' -P null=NULL -c "SELECT $cols FROM \"${1%%.*}\".\"${1#*.}\"" | LC_ALL=C sort | md5sum | cut -c1-32
}
declare -A reference
if [ "${TARGET:-mariadb}" = postgres ]; then
  # The reference copy: MariaDB's CHECKSUM TABLE ties it to the source's final state, then its rows are digested.
  java -jar "$jar" apply --json --source "$root/mixed.000001" --target "jdbc:mariadb://127.0.0.1:$port/" \
    --target-user root --scheduler schema --workers 1 > "$out/reference-apply.json" 2> "$out/reference-apply.log" \
    || { failed="$out/reference-apply-failed${ROUND:+-round$ROUND}"
         cp "$out/reference-apply.log" "$failed.log"; cp "$out/reference-apply.json" "$failed.json"
         cp "$root/t.err" "$failed-server.err" 2>/dev/null || true
         # Kept under the round's name (the next round overwrites reference-apply.*) and shown: a failure seen once
         # in a 12-round series (round 15, PostgreSQL w3) left nothing to read.
         { echo "the reference apply into MariaDB failed: $failed.log (the server's log: $failed-server.err)"
           tail -n 20 "$failed.log"; tail -c 600 "$failed.json"; echo; tail -n 10 "$failed-server.err" 2>/dev/null
         } >&2; exit 1; }
  while IFS=$'\t' read -r table sum rows; do
    got=$($T -N -e "CHECKSUM TABLE $table" | awk '{print $2}')
    [ "$got" = "$sum" ] || { echo "the reference copy's $table does not match the source's checksum" >&2; exit 1; }
    reference[$table]=$(digest_mariadb "$table")
  done < "$fixture.checksums.tsv"
fi
printf 'setting\tseconds\ttx/s\tcommit-order wait s\tdeadlocks broken\tcommit-order timeouts\texact\tlanes cpu s\n'
for setting in "${settings[@]}"; do
  IFS=: read -r sched workers order <<< "${setting%@*}"
  run_jar=$jar; label=
  if [[ "$setting" == *@* ]]; then
    label=${setting##*@}
    [[ "$label" =~ ^[A-Za-z0-9._-]+$ ]] && [ -f "${JARS:-}/$label.jar" ] \
      || { echo "setting $setting: no jar \$JARS/$label.jar (JARS=${JARS:-unset})" >&2; exit 2; }
    run_jar=$JARS/$label.jar
  fi
  for run in $(seq 1 "$runs"); do
    if [ "${TARGET:-mariadb}" = postgres ]; then
      for db in $schemas lanes_bench; do $P -c "DROP SCHEMA IF EXISTS \"$db\" CASCADE" 2>/dev/null; done
    else
      for db in $schemas lanes; do $T -e "DROP DATABASE IF EXISTS \`$db\`"; done
    fi
    sampler=
    if [ "${LOCKS:-}" = 1 ]; then
      ( while true; do
          $T -N -e "SELECT NOW(3), 'wait', r.trx_mysql_thread_id, r.trx_query, b.trx_mysql_thread_id, b.trx_query,
              b.trx_rows_locked, l.lock_mode, l.lock_type, l.lock_table, l.lock_index
            FROM information_schema.INNODB_LOCK_WAITS w
            JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id
            JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id
            JOIN information_schema.INNODB_LOCKS l ON l.lock_id = w.requested_lock_id" 2>/dev/null || true
          sleep 0.15
        done ) > "$out/locks-$sched-$workers-$order.tsv" &
      sampler=$!
    fi
    start=$(date +%s.%N)
    json=$(java -jar "$run_jar" apply --json --source "$root/mixed.000001" --target "$url" \
      --target-user "$user" "${ckpt[@]}" --scheduler "$sched" --workers "$workers" --commit-order "$order" ${APPLY_ARGS:-} 2> "$out/stderr-$setting.log" \
      | tail -1)
    end=$(date +%s.%N)
    [ -z "$sampler" ] || { kill "$sampler"; wait "$sampler" 2>/dev/null || true; }
    echo "$json" > "$out/result-$sched-$workers-$order${label:+-$label}-$run${ROUND:+-round$ROUND}.json"
    exact=yes
    while IFS=$'\t' read -r table sum rows; do
      if [ "${TARGET:-mariadb}" = postgres ]; then
        got=$($P -c "SELECT COUNT(*) FROM \"${table%%.*}\".\"${table#*.}\"" 2>&1)
        [ "$got" = "$rows" ] || { exact="no ($table: $got rows, source $rows)"; break; }
        [ "$(digest_postgres "$table")" = "${reference[$table]}" ] && exact=rows || { exact="no ($table: rows differ)"; break; }
      else
        got=$($T -N -e "CHECKSUM TABLE $table" | awk '{print $2}')
        [ "$got" = "$sum" ] || { exact="no ($table)"; }
      fi
    done < "$fixture.checksums.tsv"
    # The summary line's fields, read without python or jq (the lent 16-core machine may have neither).
    field() { grep -o "\"$1\": *[-0-9.eE]*" <<< "$json" | head -1 | sed 's/.*: *//'; }
    tx=$(field transactions)
    if [ -z "$tx" ]; then
      printf '%s\tfailed: %s\n' "$setting" "${json:0:200}"
    else
      secs=$(field seconds)
      wait=$(grep -o '"waiting_for_commit_order_s": *[-0-9.eE]*' <<< "$json" | sed 's/.*: *//' | awk '{s += $1} END {print s + 0}')
      awk -v s="$setting" -v tx="$tx" -v secs="${secs:-0}" -v start="$start" -v end="$end" -v wait="$wait" \
          -v broken="$(field commit_order_deadlocks_broken)" -v retries="$(field commit_order_retries)" -v exact="$exact" \
          -v cpu="$(field process_cpu_s)" \
          'BEGIN { if (secs + 0 == 0) secs = end - start
                   printf "%s\t%.1f\t%.0f\t%.1f\t%s\t%s\t%s\t%s\n", s, secs, (secs > 0 ? tx / secs : 0), wait,
                     broken == "" ? "-" : broken, retries == "" ? "-" : retries, exact,
                     cpu == "" ? "-" : sprintf("%.2f", cpu) }'
    fi
  done
done
