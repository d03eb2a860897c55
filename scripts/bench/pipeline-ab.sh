#!/usr/bin/env bash
# A/B of the end-to-end probe between two builds of Lanes, alternating them, same third-party jars.
#   scripts/bench/pipeline-ab.sh OLD_LANES_JAR NEW_BENCHMARKS_JAR OUT_DIR [ROUNDS]
# OLD_LANES_JAR: the io/lanes classes of the old build's jmh/target/benchmarks.jar
#   (unzip -q old/benchmarks.jar 'io/lanes/*' 'META-INF/BenchmarkList' -d x && (cd x && zip -qr ../lanes-old.jar .));
# NEW_BENCHMARKS_JAR: the new build's jmh/target/benchmarks.jar. Run from the repository root (the H2 curve reads the
# recorded sysbench fixture from binlog-api's test resources). JAVA overrides the java command.
set -euo pipefail
old=$1; new=$2; out=$3; rounds=${4:-2}
java=${JAVA:-java}
mkdir -p "$out"
echo "cpus $(nproc)"; uptime
for i in $(seq 1 "$rounds"); do
  for v in old new; do
    cp=$new; [ "$v" = old ] && cp="$old:$new"
    echo "== $v round $i $(date +%T)"
    timeout 300 "$java" -Dlanes.repo=. -cp "$cp" io.lanes.jmh.apply.ApplyScalingProbe --models noop,h2 \
      --workers 0,1,4,15 --rounds 3 --fast-rounds 6 --warmup 1 -o "$out/e2e-$v-$i.json" 2>&1 | grep -E 'tps|wrote' | tail -8
  done
done
uptime
