#!/usr/bin/env bash
# Runs the Lanes soak (applier's SoakTest) for SECONDS (default 1800: 30 minutes), copies its time series and summary to
# docs/bench/soak-<target>-<seconds>s.{json,csv} and draws docs/bench/soak-<target>-<seconds>s.png.
#
#   scripts/soak/run.sh [SECONDS] [TARGET]      TARGET: h2 (default) or postgresql
#
# Environment: SOAK_RATE (transactions/s asked of the workload, default 400; 0 = unthrottled), SOAK_WRITERS (4),
# MVN_FLAGS (extra Maven flags, default -o: offline), M2_REPO (the local Maven repository, default ~/.m2/repository).
set -euo pipefail

seconds="${1:-1800}"
target="${2:-h2}"
rate="${SOAK_RATE:-400}"
writers="${SOAK_WRITERS:-4}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

# shellcheck disable=SC2086 # MVN_FLAGS is a list of flags
mvn -B -ntp ${MVN_FLAGS--o} -pl applier -am verify -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dlanes.soak.seconds="$seconds" -Dlanes.soak.target="$target" -Dlanes.soak.rate="$rate" \
    -Dlanes.soak.writers="$writers" || status=$?
status="${status:-0}"

results="applier/target/soak"
name="soak-${target}-${seconds}s"
if [[ ! -f "$results/soak-${target}.csv" ]]; then
  echo "no results in $results (the soak did not get to write them); Maven exit status $status" >&2
  exit 1
fi
mkdir -p docs/bench
cp "$results/soak-${target}.csv" "docs/bench/${name}.csv"
cp "$results/soak-${target}.json" "docs/bench/${name}.json"
cat "$results/soak-${target}-summary.txt"

repo="${M2_REPO:-$HOME/.m2/repository}"
chart_jar="$(ls "$repo"/org/jfree/jfreechart/*/jfreechart-*.jar 2>/dev/null | grep -v -e sources -e javadoc | sort -V | tail -1 || true)"
if [[ -n "$chart_jar" ]]; then
  java -Djava.awt.headless=true -cp "$chart_jar" scripts/soak/SoakChart.java "docs/bench/${name}.csv" \
      "docs/bench/${name}.png" "Lanes soak: live MariaDB -> ${target}, ${seconds} s, ${rate} tx/s asked, ${writers} writers"
  echo "chart: docs/bench/${name}.png"
else
  echo "JFreeChart not found under $repo (build the jmh module once to fetch it); no chart drawn" >&2
fi
echo "results: docs/bench/${name}.{json,csv}; Maven exit status $status"
exit "$status"
