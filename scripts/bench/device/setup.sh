#!/bin/bash
# Device call 1 (scripts/bench/device-bundle.sh packs it): unpack the JRE and MariaDB (Debian 12 binaries, their libraries in /opt/mdblib) into place.
set -e
date -u +%T
mkdir -p /opt/lb && tar xJf "$(dirname "$0")/jm.tar.xz" -C /opt/lb && cp -a /opt/lb/mdb/. /
export LD_LIBRARY_PATH=/opt/mdblib
nproc; free -g | head -2; df -h /tmp | tail -1; cat /etc/os-release | head -2
/opt/lb/jre0/bin/java -version 2>&1 | head -1
/usr/sbin/mariadbd --version
ldd /usr/sbin/mariadbd /usr/bin/mariadb /opt/lb/jre0/lib/server/libjvm.so | grep -i "not found" || echo "no missing libraries"
which hostname sed awk || true
date -u +%T
