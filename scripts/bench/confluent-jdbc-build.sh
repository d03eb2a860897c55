#!/usr/bin/env bash
# Builds Confluent's JDBC sink (confluentinc/kafka-connect-jdbc) into a Connect plugin directory, for the peer run
# of scripts/bench/connect-peer.sh --confluent-jdbc DIR. Nothing of it enters this repository: its code is under the
# Confluent Community License, so it is built from a checkout the user provides, outside the tree.
#   scripts/bench/confluent-jdbc-build.sh SOURCE [OUT]
# SOURCE: a checkout (or bare git directory) of https://github.com/confluentinc/kafka-connect-jdbc;
# OUT: the plugin directory to write (default .bench/connect-plugins/confluent-jdbc, git-ignored;
# connect-peer.sh uses its parent as the worker's plugin.path).
# Why not its Maven build: its parent POM (io.confluent:common) is served only from packages.confluent.io, which a
# machine limited to Maven Central cannot reach. Its code needs only connect-api, re2j and jsqlparser, so javac
# compiles it against Kafka 4.3.1's connect-api (the version the peer cluster runs). The Oracle dialect (it imports the
# Oracle driver) is left out; the SQL Server driver is on the compile path only (one inlined constant).
set -euo pipefail
cd "$(dirname "$0")/../.."
src=${1:?usage: confluent-jdbc-build.sh SOURCE [OUT]}
out=${2:-.bench/connect-plugins/confluent-jdbc}
repo_args=()
if [ -n "${MAVEN_REPO_LOCAL:-}" ]; then repo_args=(-Dmaven.repo.local="$MAVEN_REPO_LOCAL"); fi
m2=${MAVEN_REPO_LOCAL:-$HOME/.m2/repository}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$src/src/main/java" ]; then
  cp -r "$src/src" "$work/"
  commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
else
  git --git-dir="$src" archive HEAD src/main | tar -x -C "$work"
  commit=$(git --git-dir="$src" rev-parse --short HEAD)
fi
rm -rf "$out"
mkdir -p "$out" "$work/compile-only" "$work/classes"
# Run outside the checkout so that Maven does not read its POM.
for a in com.google.re2j:re2j:1.7 com.github.jsqlparser:jsqlparser:4.9; do
  (cd "$work" && mvn -B -ntp -q "${repo_args[@]}" dependency:copy -Dartifact="$a" -DoutputDirectory="$(cd "$OLDPWD" && realpath "$out")")
done
(cd "$work" && mvn -B -ntp -q "${repo_args[@]}" dependency:copy -Dartifact=com.microsoft.sqlserver:mssql-jdbc:12.8.2.jre8 \
  -DoutputDirectory="$work/compile-only")
for a in org.apache.kafka:connect-api:4.3.1 org.apache.kafka:kafka-clients:4.3.1 org.slf4j:slf4j-api:2.0.17; do
  (cd "$work" && mvn -B -ntp -q "${repo_args[@]}" dependency:copy -Dartifact="$a" -DoutputDirectory="$work/compile-only")
done
cp="$(ls "$work"/compile-only/*.jar "$out"/*.jar | paste -sd:)"
find "$work/src/main/java" -name '*.java' ! -name OracleDatabaseDialect.java > "$work/sources"
javac -nowarn -encoding UTF-8 --release 17 -d "$work/classes" -cp "$cp" @"$work/sources" 2>&1 | grep -v '^Note:' >&2 || true
test -f "$work/classes/io/confluent/connect/jdbc/JdbcSinkConnector.class"
cp -r "$work/src/main/resources/." "$work/classes/"
grep -v Oracle "$work/src/main/resources/META-INF/services/io.confluent.connect.jdbc.dialect.DatabaseDialectProvider" \
  > "$work/classes/META-INF/services/io.confluent.connect.jdbc.dialect.DatabaseDialectProvider"
sed -i "s/\${project.version}/git-$commit/" "$work/classes/kafka-connect-jdbc-version.properties"
jar --create --file "$out/kafka-connect-jdbc-git-$commit.jar" -C "$work/classes" .
echo "confluent-jdbc-build: $out (kafka-connect-jdbc git $commit)" >&2
