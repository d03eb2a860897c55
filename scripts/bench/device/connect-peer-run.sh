#!/bin/bash
# Device call 2 (scripts/bench/device-bundle.sh packs it): ConnectPeer on the lent machine, from the bundle, once per
# argument "LIMIT:ARG,ARG,..." (seconds, then connect-peer.sh's arguments with commas for spaces).
[ -x /opt/lb/jre0/bin/java ] || { echo "NOT WARM: the JRE from call 1 is gone"; exit 3; }
set -u
tar xJf "$(dirname "$0")/cp.tar.xz" -C /opt/lb
cd /opt/lb; export LD_LIBRARY_PATH=/opt/mdblib PATH=/opt/lb/jre0/bin:$PATH
nproc; uptime
i=0
for spec in "$@"; do
  i=$((i+1)); limit=${spec%%:*}; args=${spec#*:}; args=${args//,/ }
  start=$(date +%s)
  echo "run $i: $args (limit $limit s) at $(date -u +%T)"
  timeout $limit java -cp "$(cat cp0/classpath.txt)" io.lanes.connect.bench.ConnectPeer $args > /tmp/run$i.log 2>&1
  echo "rc=$? after $(( $(date +%s) - start )) s"
  grep -a '^{' /tmp/run$i.log | tail -1 | tee -a $OUT/results.jsonl
  grep -a -E "ERROR|Exception" /tmp/run$i.log | head -5 | cut -c1-300
  gzip -c /tmp/run$i.log > $OUT/run$i.log.gz
  uptime
done
