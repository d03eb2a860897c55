#!/usr/bin/env bash
# Lanes' Kafka Connect sink beside Debezium's JDBC sink, in one embedded Kafka + Connect cluster, on the same topic.
#   scripts/bench/connect-peer.sh [--transactions N] [--tasks T] [--workers W] [--lanes-converts]
#                                 [--confluent-jdbc PLUGIN_DIR]
# --confluent-jdbc: also Confluent's JDBC sink, on a third identical target (build PLUGIN_DIR first with
#   scripts/bench/confluent-jdbc-build.sh; the JSON then has confluent_jdbc_tps, ratio_confluent, confluent_jdbc_exact).
# Defaults: 3,000 transactions, 1 task, 8 Lanes workers per partition; about 3-6 minutes on 2 shared cores.
# 1. Starts a KRaft broker and a Connect worker (in-process), a MariaDB source with a binlog and two identically
#    configured MariaDB targets (throwaway servers on free loopback ports, removed at the end).
# 2. Debezium's MariaDB connector (transaction metadata on, SchemaGroupRouter: one topic, a partition per schema)
#    captures the audit-table workload of docs/reliability.md over 4 schemas (4 client threads); once the whole workload
#    is in the topic, Debezium's JDBC sink (insert.mode=upsert, delete.enabled, primary key from the record key) and
#    then the LanesSinkConnector apply it, one after the other, with the same tasks.max. Transactions/s: the workload's
#    transactions over the time from the connector's creation to the last transaction visible on its target.
# 3. Both targets are compared with the source (every table, every row) and their audit tables checked for doubles.
# 4. Fault round on the Lanes sink while a third more of the workload streams: connector restart, target sessions
#    killed, a second Connect worker joining and leaving, the target SIGKILLed and restarted; then compared again.
# The last line of the output is one JSON object, also appended to docs/bench/connect-peer.jsonl (lanes_tps, debezium_jdbc_tps, transactions, lanes_exact, faults,
# lanes_exact_after_faults, ...). The machine is shared: timings are noisy, compare the ratio within one run.
# Needs mariadbd and mariadb (the test helper MariaDbServer starts them), Java 17, Maven.
set -euo pipefail
cd "$(dirname "$0")/../.."
args=("$@")
repo=()
if [ -n "${MAVEN_REPO_LOCAL:-}" ]; then repo=(-Dmaven.repo.local="$MAVEN_REPO_LOCAL"); fi
mvn -B -ntp -q "${repo[@]}" -DskipTests -pl connect -am install >&2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
mvn -B -ntp -q -Dstyle.color=never "${repo[@]}" -pl connect exec:java -Dexec.classpathScope=test \
  -Dexec.mainClass=io.lanes.connect.bench.ConnectPeer -Dexec.args="${args[*]}" -Dexec.cleanupDaemonThreads=false \
  > "$out" || status=$?
# Everything but the result goes to stderr; the result (one JSON object) is the last line of stdout.
grep -av '^{' "$out" >&2 || true
result=$(grep -a '^{' "$out" | tail -1 || true)
if [ -z "$result" ]; then echo "connect-peer: no result (exit status $status)" >&2; exit 1; fi
# The build measured: the commit, with "+" when the working tree had changes.
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- . ':!docs' 2>/dev/null || commit="$commit+"
result="${result%\}}, \"commit\": \"$commit\"}"
mkdir -p docs/bench && echo "$result" >> docs/bench/connect-peer.jsonl
echo "$result"
