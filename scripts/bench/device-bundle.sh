#!/usr/bin/env bash
# Packs what scripts/bench/connect-peer.sh needs to run on a lent machine that has no Java, no MariaDB and no network
# (the 16-core device machine of this workplace: Ubuntu 24.04, x86-64), in two parts small enough to travel with the
# working tree one call each (the tree itself is about 20 MB of the 64 MiB a call may carry):
#   .devbundle/part1: jm.tar.xz (a jlinked Java 17 runtime and Debian's MariaDB 10.11 binaries with their libraries)
#                     and setup.sh, which unpacks them into /opt/lb and / (call 1);
#   .devbundle/part2: cp.tar.xz (the connect module's test classpath, jars stored uncompressed so that xz compresses
#                     across them, native libraries other than linux-x86_64 removed) and run.sh (call 2, on the same
#                     warm machine: ConnectPeer once per argument, "LIMIT:ARG,ARG,...", results in $OUT/results.jsonl).
# PART1_ONLY=1 packs part1 alone (what scripts/bench/device/realistic-run.sh needs beside the jar and the fixtures).
# Build first (mvn -DskipTests install). Needs jlink from a JDK 17 with jmods, mariadbd from mariadb-server, xz, zip.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.devbundle; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
jdk=${JDK:-/usr/lib/jvm/java-17-openjdk-amd64}
rm -rf $out; mkdir -p $out/part1 $out/part2
"$jdk/bin/jlink" --module-path "$jdk/jmods" --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.management,\
jdk.management.agent,jdk.jfr,jdk.zipfs,jdk.naming.dns,jdk.net,jdk.security.auth,jdk.security.jgss,jdk.httpserver,\
jdk.attach,jdk.jcmd --strip-debug --no-header-files --no-man-pages --compress=0 --output $tmp/jre0
mkdir -p $tmp/mdb/opt/mdblib $tmp/mdb/usr/lib/mysql/plugin
(cd / && tar cf - usr/sbin/mariadbd usr/bin/mariadb-install-db usr/bin/my_print_defaults usr/bin/resolveip \
  usr/bin/mariadb usr/bin/mariadb-admin usr/share/mysql/charsets usr/share/mysql/english usr/share/mysql/*.sql) \
  | tar xf - -C $tmp/mdb
for lib in $( (ldd /usr/sbin/mariadbd; ldd /usr/bin/mariadb; ldd /usr/bin/mariadb-admin) | awk '$3 ~ /^\// {print $3}' \
    | sort -u | grep -v -E 'libc\.so|libm\.so|libstdc|libgcc_s'); do
  cp -L "$lib" $tmp/mdb/opt/mdblib/
done
(cd $tmp && tar cf - jre0 mdb) | xz -T0 -9 > $out/part1/jm.tar.xz
cp scripts/bench/device/setup.sh $out/part1/setup.sh
if [ "${PART1_ONLY:-}" = 1 ]; then du -sh $out/part1; exit 0; fi
mvn -B -ntp -q -pl connect dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=$tmp/cp.txt >/dev/null
mkdir -p $tmp/cp0/jars
classpath=""
for jar in $(tr ':' '\n' < $tmp/cp.txt | grep -v -E 'ojdbc|mssql-jdbc|junit-platform-launcher'); do
  name=$(basename "$jar"); rm -rf $tmp/x; mkdir $tmp/x; (cd $tmp/x && unzip -q -o "$jar" 2>/dev/null || true)
  find $tmp/x \( -name '*.so' -o -name '*.dll' -o -name '*.dylib' -o -name '*.jnilib' -o -name '*.a' \) \
    | { grep -v -E 'linux/amd64|Linux/x86_64' || true; } | xargs -r rm -f
  case $name in *binlog-api*-tests.jar) rm -rf $tmp/x/binlogs ;; esac   # the fixtures: the peer needs none
  (cd $tmp/x && zip -q -0 -r -X ../cp0/jars/$name .)
  classpath="$classpath:cp0/jars/$name"
done
cp -r connect/target/classes $tmp/cp0/classes; cp -r connect/target/test-classes $tmp/cp0/test-classes
echo "${classpath#:}:cp0/classes:cp0/test-classes" > $tmp/cp0/classpath.txt
(cd $tmp && tar cf - cp0) | xz -T0 -9 > $out/part2/cp.tar.xz
cp scripts/bench/device/setup.sh $out/part1/setup.sh; cp scripts/bench/device/connect-peer-run.sh $out/part2/run.sh
du -sh $out/part1 $out/part2
