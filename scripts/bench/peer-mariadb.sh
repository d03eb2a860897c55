#!/usr/bin/env bash
# Side by side with MariaDB's own parallel replica, on the seed MTS workload (sysbench oltp_update_index over N schemas).
#   scripts/bench/peer-mariadb.sh [--schemas 10] [--rows 10000] [--per-schema 10000] [--threads "0 1 2 4 10 16"]
#                                 [--flush "1 2"] [--block-commit 256] [--scheduler schema] [--commit-order partition]
#                                 [--label full] [--lanes-jvm "launcher default"]
# Defaults are the full run (10 x 10,000 rows, 100,000 transactions). A small run, e.g.:
#   scripts/bench/peer-mariadb.sh --rows 1000 --per-schema 200 --threads "0 4" --label smoke
# Issue 19's workload 4 (1,000,000 transactions; MariaDB's replica at 0 and 16 threads, Lanes at its defaults):
#   scripts/bench/peer-mariadb.sh --per-schema 100000 --threads "0 4 16" --replica-threads "0 16" --lanes-workers 4 \
#     --skip 1:0 --scheduler writeset --commit-order partition --lanes-jvm default --label workload4
#   (with PEER_OUT=docs/bench/workload4, so that the seed workload's files in docs/bench stay as they are)
# 1. A source mariadbd (binlog ROW) gets the schemas and rows (sysbench prepare, binlog .000001), then the update
#    transactions from one sysbench client of 10 threads per schema, all schemas at once (binlog .000002).
# 2. MariaDB's replica: a copy of the prepared data; the IO thread fetches the whole relay log first, then the SQL thread
#    is timed from START SLAVE SQL_THREAD to MASTER_POS_WAIT at the source's end, at each thread count, conservative and
#    optimistic (0 threads: the single SQL thread), innodb_flush_log_at_trx_commit 1 (durable) and 2.
# 3. Lanes: the same prepared copy as target, `lanes apply --source <.000002> --target jdbc:mariadb://...` at the same
#    worker counts (Lanes's own elapsed time from its JSON summary), with the same server options.
# Every run's final state (per-schema SUM(k)) is compared with the source's. Needs mariadbd/mariadb/mariadb-binlog,
# sysbench (apt-get install -y sysbench), python3 (free ports), examples/target/lanes.jar (mvn -pl examples -am package).
# KEEP_WORKLOAD=DIR keeps the two source binlogs (prepare, workload) in DIR.
# --lanes-jvm: the JVM settings Lanes runs under, each a series of its own: launcher (examples/bin/lanes, the shipped
#   command, which picks the JVM settings for the machine: C1 only and the serial GC on 2 processors or fewer, the
#   JVM's defaults above; the default series), default (plain `java -jar`, the JVM's own defaults), c1
#   (-XX:TieredStopAtLevel=1 -XX:+UseSerialGC: the C1 compiler only, one GC thread; on 2 cores shared with the target
#   server, C2's compile threads took about 5 s of CPU in a 10-15 s run), serial (-XX:+UseSerialGC alone: both
#   compilers, one GC thread; tells the collector's share of the difference from the compiler's).
# Every run also reports the CPU seconds the target server used (from /proc, over the replica's timed window or the
# whole Lanes process) and Lanes' own (user + system, time(1)), for the cost per transaction on each side.
# LANES_EXTRA_JVM_OPTS adds JVM options to the non-launcher series (@RUN@ becomes FLUSH-THREADS[-jvm-...]), e.g.
#   LANES_EXTRA_JVM_OPTS='-XX:StartFlightRecording=filename=/tmp/lanes-@RUN@.jfr,settings=profile'
# LANES_TARGET_URL_OPTIONS (e.g. '?useServerPrepStmts=true') is appended to the target's JDBC URL, for probes.
# Servers run on free loopback ports in a temporary directory, removed at the end.
# Output: docs/bench/peer-mariadb.tsv, peer-mariadb-run.txt, peer-mariadb-lanes.jsonl (Lanes's JSON summaries, with
# per-worker statistics); then docs/benchmarks.md is regenerated.
set -euo pipefail
cd "$(dirname "$0")/../.."
schemas=10; rows=10000; per_schema=10000; threads="0 1 2 4 10 16"; flushes="1 2"; block=256; scheduler=schema; order=partition; label=full; jvms="launcher default"
while [ $# -gt 0 ]; do
  case "$1" in
    --schemas) schemas=$2; shift 2;;
    --rows) rows=$2; shift 2;;
    --per-schema) per_schema=$2; shift 2;;
    --threads) threads=$2; shift 2;;
    --replica-threads) replica_threads=$2; shift 2;; # only these of --threads for MariaDB's replica (e.g. its best and 0)
    --lanes-workers) lanes_workers=$2; shift 2;; # only these of --threads for Lanes (e.g. its default, 4)
    --skip) skips=$2; shift 2;; # FLUSH:THREADS pairs to leave out of MariaDB's replica runs (e.g. "1:0", minutes at 1M)
    --flush) flushes=$2; shift 2;;
    --block-commit) block=$2; shift 2;;
    --scheduler) scheduler=$2; shift 2;;
    --commit-order) order=$2; shift 2;; # partition (the Lanes default): source order within each schema; strict: global source order, as both MariaDB modes commit
    --label) label=$2; shift 2;;
    --lanes-jvm) jvms=$2; shift 2;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
command -v sysbench >/dev/null || { echo "sysbench missing: apt-get install -y sysbench" >&2; exit 1; }
jar=examples/target/lanes.jar
[ -f "$jar" ] || mvn -q -B -ntp ${MVN_OFFLINE:--o} -pl examples -am package -DskipTests
root=$(mktemp -d /tmp/lanes-peer.XXXXXX)
servers=()
cleanup() {
  for s in "${servers[@]}"; do mariadb-admin --no-defaults -uroot -S "$s" shutdown >/dev/null 2>&1 || true; done
  rm -rf "$root"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
start() { # name port options...
  local name=$1 port=$2; shift 2
  local dir=$root/$name
  [ -d "$dir/mysql" ] || mariadb-install-db --no-defaults --datadir="$dir" --user="$(id -un)" \
      --auth-root-authentication-method=normal >"$root/$name.install.log" 2>&1
  setsid mariadbd --no-defaults --datadir="$dir" --user="$(id -un)" --port="$port" --bind-address=127.0.0.1 \
    --socket="$root/$name.sock" --pid-file="$root/$name.pid" --log-error="$root/$name.err" \
    --innodb-buffer-pool-size=256M --max-connections=500 "$@" >/dev/null 2>&1 < /dev/null &
  servers+=("$root/$name.sock")
  for _ in $(seq 1 240); do
    mariadb --no-defaults -uroot -S "$root/$name.sock" -e 'select 1' >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "mariadbd $name did not start; see $root/$name.err" >&2; cat "$root/$name.err" >&2; exit 1
}
stop() { mariadb-admin --no-defaults -uroot -S "$root/$1.sock" shutdown >/dev/null 2>&1 || true; sleep 1; }
state() { # socket: per-schema SUM(k), one line
  local q=""
  for i in $(seq 1 "$schemas"); do q="$q SELECT $i, SUM(k) FROM db$i.sbtest1;"; done
  mariadb --no-defaults -uroot -S "$1" -N -e "$q" | tr '\t\n' ': '
}

src_port=$(free_port)
start src "$src_port" --server-id=1 --log-bin=src-bin --binlog-format=ROW --sync-binlog=0 --innodb-flush-log-at-trx-commit=2
S="mariadb --no-defaults -uroot -S $root/src.sock"
$S -e "RESET MASTER"
for i in $(seq 1 "$schemas"); do
  $S -e "CREATE DATABASE IF NOT EXISTS db$i"
  sysbench oltp_update_index --db-driver=mysql --mysql-socket="$root/src.sock" --mysql-user=root --mysql-db="db$i" \
    --tables=1 --table-size="$rows" prepare >/dev/null
done
$S -e "FLUSH BINARY LOGS"
clients=()
for i in $(seq 1 "$schemas"); do
  sysbench oltp_update_index --db-driver=mysql --mysql-socket="$root/src.sock" --mysql-user=root --mysql-db="db$i" \
    --tables=1 --table-size="$rows" --threads=10 --events="$per_schema" --time=0 run >/dev/null &
  clients+=($!)
done
wait "${clients[@]}" # not a bare wait: the servers are background jobs of this shell too
read -r endfile endpos _ < <($S -N -e "show master status")
expected=$(state "$root/src.sock")
workload=$root/workload.000002
cp "$root/src/src-bin.000002" "$workload"
if [ -n "${KEEP_WORKLOAD:-}" ]; then # for probes: keep the workload and the prepare log outside the temporary directory
  mkdir -p "$KEEP_WORKLOAD"; cp "$root/src/src-bin.000001" "$root/src/src-bin.000002" "$KEEP_WORKLOAD/"
fi
txns=$(mariadb-binlog --no-defaults "$workload" | grep -c 'Xid = ' || true)
base_port=$(free_port)
start base "$base_port" --server-id=2
mariadb-binlog --no-defaults "$root/src/src-bin.000001" | mariadb --no-defaults -uroot -S "$root/base.sock"
stop base
echo "workload: $schemas schemas x $rows rows, $txns transactions in $endfile up to $endpos"

out=${PEER_OUT:-docs/bench} # PEER_OUT=docs/bench/workload4 keeps another run's files apart
mkdir -p "$out"
tsv=$out/peer-mariadb.tsv.new
rm -f "$out/peer-mariadb-lanes.jsonl.new"; : > "$out/peer-mariadb-lanes.jsonl.new" # empty when no Lanes run is asked for (e.g. only KEEP_WORKLOAD)
printf 'system\tmode\tthreads\tflush\ttransactions\tseconds\ttps\tfinal state\tserver cpu s\tlanes cpu s\n' > "$tsv"
{
  echo "kind: $label$([ "$label" = smoke ] && echo ' (a small run on a loaded machine: NOISY, proves the script works)')"
  echo "started: $(date -u +%Y-%m-%dT%H:%M:%SZ); load: $(uptime)"
  echo "workload: $schemas schemas x $rows rows, $txns update_index transactions (sysbench, 10 threads per schema)"
  echo "command: scripts/bench/peer-mariadb.sh --schemas $schemas --rows $rows --per-schema $per_schema --threads \"$threads\"${replica_threads:+ --replica-threads \"$replica_threads\"}${lanes_workers:+ --lanes-workers \"$lanes_workers\"}${skips:+ --skip \"$skips\"} --flush \"$flushes\" --block-commit $block --scheduler $scheduler --commit-order $order --label $label --lanes-jvm \"$jvms\""
  echo "lanes: examples/bin/lanes (launcher series: $(LANES_JAR=$jar LANES_LAUNCHER_DRY_RUN=1 examples/bin/lanes) on $(nproc) processors) or java [options] -jar $jar apply --source <src-bin.000002> --target jdbc:mariadb://127.0.0.1:PORT/ --target-user root --scheduler $scheduler --workers N --block-commit $block --commit-order $order --json"
  echo "mariadb: $(mariadbd --version)"
} > "$out/peer-mariadb-run.txt.new"

check() { [ "$(state "$1")" = "$expected" ] && echo same || echo DIFFERENT; }
ticks=$(getconf CLK_TCK)
# CPU seconds (user + system) the named server has used so far, from /proc: the target's cost of a run.
cpu_of() { awk -v t="$ticks" '{printf "%.2f", ($14+$15)/t}' "/proc/$(cat "$root/$1.pid")/stat"; }
run_port=$(free_port)
for flush in $flushes; do
  for t in $threads; do
    modes="conservative optimistic"; [ "$t" = 0 ] && modes="-"
    case " ${replica_threads:-$threads} " in *" $t "*) ;; *) modes="";; esac
    case " ${skips:-} " in *" $flush:$t "*) modes="";; esac
    for mode in $modes; do
      stop run; rm -rf "$root/run"; cp -a "$root/base" "$root/run"
      start run "$run_port" --server-id=3 --innodb-flush-log-at-trx-commit="$flush" --skip-slave-start --relay-log=run-relay
      R="mariadb --no-defaults -uroot -S $root/run.sock"
      $R -e "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$src_port, MASTER_USER='root', MASTER_PASSWORD='', MASTER_LOG_FILE='src-bin.000002', MASTER_LOG_POS=4; START SLAVE IO_THREAD"
      for _ in $(seq 1 1200); do
        r=$($R -e "show slave status\G" | awk '/ Read_Master_Log_Pos:/{print $2}')
        [ -n "$r" ] && [ "$r" -ge "$endpos" ] && break; sleep 0.5
      done
      $R -e "SET GLOBAL slave_parallel_threads=$t; SET GLOBAL slave_parallel_mode='$([ "$mode" = - ] && echo conservative || echo "$mode")'"
      c0=$(cpu_of run); t0=$(date +%s.%N); $R -e "START SLAVE SQL_THREAD"
      $R -N -e "SELECT MASTER_POS_WAIT('$endfile', $endpos, 3600)" >/dev/null
      t1=$(date +%s.%N); c1=$(cpu_of run)
      same=$(check "$root/run.sock")
      line=$(awk -v t="$t" -v m="$mode" -v f="$flush" -v a="$t0" -v b="$t1" -v n="$txns" -v s="$same" -v c="$c0" -v e="$c1" \
        'BEGIN{d=b-a; printf "mariadb-replica\t%s\t%s\t%s\t%d\t%.2f\t%.0f\t%s\t%.1f\t-", m, t, f, n, d, n/d, s, e-c}')
      echo "$line" | tee -a "$tsv"
      stop run
    done
    lanes_jvms=$jvms
    case " ${lanes_workers:-$threads} " in *" $t "*) ;; *) lanes_jvms="";; esac
    for jvm in $lanes_jvms; do
      case "$jvm" in
        launcher) jopts=(); suffix="";;
        default) jopts=(); suffix="/jvm-default";;
        c1) jopts=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC); suffix="/jvm-c1";;
        serial) jopts=(-XX:+UseSerialGC); suffix="/jvm-serial";;
        *) echo "unknown --lanes-jvm $jvm" >&2; exit 2;;
      esac
      rm -rf "$root/run"; cp -a "$root/base" "$root/run"
      start run "$run_port" --server-id=3 --innodb-flush-log-at-trx-commit="$flush"
      # LANES_EXTRA_JVM_OPTS (e.g. a flight recording) is added to the series other than the launcher.
      # shellcheck disable=SC2206
      [ -z "${LANES_EXTRA_JVM_OPTS:-}" ] || jopts+=(${LANES_EXTRA_JVM_OPTS//@RUN@/$flush-$t${suffix//\//-}})
      if [ "$jvm" = launcher ]; then launch=(env -u LANES_JAVA_OPTS LANES_JAR="$jar" examples/bin/lanes); else launch=(java "${jopts[@]}" -jar "$jar"); fi
      c0=$(cpu_of run)
      json=$(/usr/bin/time -f "%U %S" -o "$root/lanes.time" "${launch[@]}" apply --source "$workload" --target "jdbc:mariadb://127.0.0.1:$run_port/${LANES_TARGET_URL_OPTIONS:-}" --target-user root \
        --scheduler "$scheduler" --workers "$t" --block-commit "$block" --commit-order "$order" --json | tail -1)
      c1=$(cpu_of run)
      echo "$json" >> "$out/peer-mariadb-lanes.jsonl.new"
      same=$(check "$root/run.sock")
      # The server's CPU over the whole Lanes process (start-up included, as Lanes' own CPU from time(1) is).
      line=$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); n=j.get("transactions"); s=j.get("seconds");
u=sum(float(x) for x in open(sys.argv[7]).read().split()[-2:])
print("lanes\t%s\t%s\t%s\t%d\t%.2f\t%.0f\t%s\t%.1f\t%.1f" % (sys.argv[2], sys.argv[3], sys.argv[4], n, s, n/s, sys.argv[5], float(sys.argv[6]), u))' \
        "$json" "$scheduler/block-$block/$order$suffix" "$t" "$flush" "$same" "$(awk -v a="$c0" -v b="$c1" 'BEGIN{print b-a}')" "$root/lanes.time")
      echo "$line" | tee -a "$tsv"
      stop run
    done
  done
done
echo "finished: $(date -u +%Y-%m-%dT%H:%M:%SZ); load: $(uptime)" >> "$out/peer-mariadb-run.txt.new"
mv "$tsv" "$out/peer-mariadb.tsv"; mv "$out/peer-mariadb-lanes.jsonl.new" "$out/peer-mariadb-lanes.jsonl"; mv "$out/peer-mariadb-run.txt.new" "$out/peer-mariadb-run.txt"
if [ "$out" != docs/bench ]; then echo "results in $out"; elif [ -f jmh/target/benchmarks.jar ]; then scripts/bench/run-all.sh --report; else echo "build jmh to regenerate docs/benchmarks.md"; fi
