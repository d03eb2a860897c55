#!/usr/bin/env bash
# Lanes alone on issue 19's workload 4 kept by scripts/bench/peer-mariadb.sh (KEEP_WORKLOAD=DIR holds src-bin.000001,
# the schemas and rows, and src-bin.000002, the transactions), into a throwaway MariaDB target:
#   WORKLOAD=DIR scripts/bench/workload4-lanes.sh FLUSH JAR [lanes apply options...]
# FLUSH is innodb_flush_log_at_trx_commit (1 durable, 2 not). The target's base data directory is built once (in
# $WORK, default /tmp/lanes-workload4) and copied per run. Prints one line: options, seconds, tx/s, target commits,
# the target server's CPU seconds (from /proc), Lanes' CPU seconds (time(1)) and a digest of every schema's SUM(k)
# (equal digests: equal final states). Needs mariadbd, java 17, python3.
set -euo pipefail
flush=$1; jar=$2; shift 2
src=${WORKLOAD:?WORKLOAD=DIR with src-bin.000001 and src-bin.000002}
W=${WORK:-/tmp/lanes-workload4}
mkdir -p $W
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
srv() { setsid mariadbd --no-defaults --datadir=$1 --user=root --port=$port --bind-address=127.0.0.1 --socket=$W/s.sock \
  --log-error=$W/err.log --innodb-buffer-pool-size=512M --innodb-flush-log-at-trx-commit=$flush --server-id=3 >/dev/null 2>&1 < /dev/null &
  for _ in $(seq 1 240); do mariadb --no-defaults -uroot -S $W/s.sock -e 'select 1' >/dev/null 2>&1 && return; sleep 0.5; done; echo "no server" >&2; exit 1; }
down() { mariadb-admin --no-defaults -uroot -S $W/s.sock shutdown >/dev/null 2>&1 || true; sleep 1; }
if [ ! -d $W/base ]; then
  mariadb-install-db --no-defaults --datadir=$W/base --user=root --auth-root-authentication-method=normal >/dev/null 2>&1
  srv $W/base; mariadb-binlog --no-defaults $src/src-bin.000001 | mariadb --no-defaults -uroot -S $W/s.sock; down
fi
rm -rf $W/run; cp -a $W/base $W/run; srv $W/run
pid=$(pgrep -f "datadir=$W/run" | head -1)
t=$(getconf CLK_TCK); c0=$(awk '{print $14+$15}' /proc/$pid/stat)
json=$(/usr/bin/time -f "%U %S" -o $W/time java -jar $jar apply --source $src/src-bin.000002 --target "jdbc:mariadb://127.0.0.1:$port/" --target-user root --json "$@" 2>$W/stderr.log | tail -1)
c1=$(awk '{print $14+$15}' /proc/$pid/stat)
sums=$(for i in $(seq 1 10); do mariadb --no-defaults -uroot -S $W/s.sock -N -e "select sum(k) from db$i.sbtest1"; done | md5sum | cut -c1-8)
down
python3 -c 'import json,sys; j=json.loads(sys.argv[1]); ws=j["worker_stats"]; print("%s\tflush=%s\t%.1f s\t%.0f tx/s\tcommits %d\tserver cpu %.1f s\tlanes cpu %.1f s\tsums %s" % (sys.argv[2], sys.argv[3], j["seconds"], j["tps"], sum(w["commits"] for w in ws), (float(sys.argv[5])-float(sys.argv[4]))/float(sys.argv[6]), sum(map(float, open(sys.argv[7]).read().split()[-2:])), sys.argv[8]))' "$json" "$*" "$flush" "$c0" "$c1" "$t" "$W/time" "$sums"
