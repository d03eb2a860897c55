#!/usr/bin/env bash
# The bug of campaign seed 14161 (docs/reliability.md, round 18) on a log recorded here: with binlog_row_image=MINIMAL,
# an UPDATE of a child row carries only the child's primary key, so the writeset scheduler cannot give it its parent's
# key; a later DELETE of that parent, whose cascade removes the child row on the target (the source's cascades are not
# logged), then shares no key with it. Before the fix, under --commit-order none the DELETE committed first and the
# UPDATE found no row: the pipeline stopped with "matched no row on the target". Under a commit order (partition, the
# default; strict) the DELETE cannot commit first. Now the parent's DELETE starts after every transaction before it,
# and all three end exact.
#   scripts/campaign/cascade-minimal-none.sh [JAR]   (default examples/target/lanes.jar)
# Records the log with a throwaway MariaDB (needs mariadbd), applies it into the PostgreSQL at 127.0.0.1:5432
# (database test, user postgres) with writeset/8 under none, partition and strict, and prints each outcome and the
# child table's rows against the source's. Exit status 1 when any run did not end as the source did.
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=$(realpath "${1:-examples/target/lanes.jar}")
root=$(mktemp -d /tmp/lanes-cascade.XXXXXX)
. scripts/lib/throwaway-mariadb.sh
start_throwaway_mariadb "$root" --binlog-row-image=MINIMAL
S="mariadb --no-defaults -uroot -S $root/src.sock"
$S <<'SQL'
CREATE DATABASE casc;
USE casc;
CREATE TABLE parent (id INT PRIMARY KEY, name VARCHAR(20)) ENGINE=InnoDB;
CREATE TABLE child (id INT PRIMARY KEY, pid INT NULL, n INT NOT NULL, KEY (pid),
  CONSTRAINT fk FOREIGN KEY (pid) REFERENCES parent (id) ON DELETE CASCADE ON UPDATE CASCADE) ENGINE=InnoDB;
CREATE TABLE other (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB;
INSERT INTO parent VALUES (7, 'p7'), (8, 'p8');
INSERT INTO child VALUES (4, 7, 0), (5, 8, 0);
INSERT INTO other SELECT seq, 0 FROM seq_1_to_20000;
SQL
# Each round: a long transaction that ends by updating child 4; then the parent's DELETE (cascading to child 4 on the
# source); then both put back, so that the next round starts as this one did.
for _ in $(seq 1 10); do
  $S casc -e "BEGIN; UPDATE other SET v = v + 1; UPDATE child SET n = n + 1 WHERE id = 4; COMMIT;
    DELETE FROM parent WHERE id = 7; INSERT INTO parent VALUES (7, 'p7'); INSERT INTO child VALUES (4, 7, 0);"
done
expected=$($S -N casc -e "SELECT id, pid, n FROM child ORDER BY id" | tr '\t' ',' | paste -sd';')
log=$($S -N -e "SHOW MASTER STATUS" | cut -f1)
P="psql -h 127.0.0.1 -U postgres -d test -q -t -A"
status=0
for order in none partition strict; do
  for db in casc lanes_cascade; do $P -c "DROP SCHEMA IF EXISTS \"$db\" CASCADE" 2>/dev/null; done
  result=$(java -jar "$jar" apply --json --source "$root/src/$log" --target jdbc:postgresql://127.0.0.1:5432/test \
    --target-user postgres --checkpoint-table lanes_cascade.checkpoint --scheduler writeset --workers 8 \
    --commit-order "$order" 2> "$root/stderr-$order.log" | tail -1 \
    | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["status"], j.get("error", "")[:240])' || true)
  got=$($P -F, -c "SELECT id, pid, n FROM casc.child ORDER BY id" 2>/dev/null | paste -sd';' || true)
  verdict=$([ "${result%% *}" = ok ] && [ "$got" = "$expected" ] && echo exact || echo WRONG)
  [ "$verdict" = exact ] || status=1
  echo "writeset/8/$order: $verdict ($result; child rows $got, source $expected)"
done
exit $status
