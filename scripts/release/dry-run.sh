#!/usr/bin/env bash
# Release dry run: `mvn deploy` of every published module into a local file repository, then a fresh project that
# imports io.lanes:lanes-bom and depends on lanes-applier (and lanes-micrometer) compiles and runs a small embedding
# example against it. The fresh project resolves Lanes from that repository only (its own empty local repository;
# third-party artifacts come from the local Maven cache, read as a plain file repository, or from Maven Central).
#
#   scripts/release/dry-run.sh            # uses ~/.m2/repository as the cache; LANES_M2=/path overrides it
#
# Output in target/release-dry-run/ (LANES_DRY_RUN_DIR overrides): repo/ (what would be published), consumer/.
# Exits non-zero when an artifact is missing (jar, pom, sources, javadoc) or the example fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
m2=${LANES_M2:-$HOME/.m2/repository}
out=${LANES_DRY_RUN_DIR:-$root/target/release-dry-run}
case "$out" in /*) ;; *) out="$root/$out" ;; esac
version=$(sed -n 's|.*<artifactId>lanes-parent</artifactId><version>\([^<]*\)</version>.*|\1|p; /<artifactId>lanes-parent<\/artifactId>$/{n; s|.*<version>\([^<]*\)</version>.*|\1|p}' pom.xml | head -1)
[ -n "$version" ] || { echo "dry-run: cannot read the version from pom.xml" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/repo" "$out/consumer/src/main/java/example" "$out/consumer-m2"

echo "dry-run: deploying $version into $out/repo"
mvn -B -ntp -q -Dmaven.repo.local="$m2" -DskipTests -DaltDeploymentRepository="dry-run::file://$out/repo" deploy

missing=0
for artifact in lanes-parent lanes-bom lanes-binlog-api lanes-core lanes-testkit lanes-applier lanes-micrometer; do
  dir="$out/repo/io/lanes/$artifact/$version"
  [ -d "$dir" ] || { echo "dry-run: $artifact was not deployed" >&2; missing=1; continue; }
  ls "$dir"/*.pom >/dev/null 2>&1 || { echo "dry-run: $artifact has no POM" >&2; missing=1; }
  case "$artifact" in lanes-parent|lanes-bom) continue ;; esac
  for kind in "" "-sources" "-javadoc"; do
    ls "$dir"/$artifact-*[0-9]$kind.jar >/dev/null 2>&1 || { echo "dry-run: $artifact has no ${kind:-main} jar" >&2; missing=1; }
  done
done
for unpublished in lanes-examples lanes-jmh; do
  [ ! -d "$out/repo/io/lanes/$unpublished" ] || { echo "dry-run: $unpublished must not be published" >&2; missing=1; }
done
[ "$missing" = 0 ] || exit 1

cat > "$out/consumer/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId><artifactId>lanes-consumer</artifactId><version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencyManagement>
    <dependencies>
      <dependency><groupId>io.lanes</groupId><artifactId>lanes-bom</artifactId><version>$version</version><type>pom</type><scope>import</scope></dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <dependency><groupId>io.lanes</groupId><artifactId>lanes-applier</artifactId></dependency>
    <dependency><groupId>io.lanes</groupId><artifactId>lanes-micrometer</artifactId></dependency>
  </dependencies>
  <repositories>
    <repository><id>dry-run</id><url>file://$out/repo</url><snapshots><enabled>true</enabled></snapshots></repository>
    <repository><id>cache</id><url>file://$m2</url><snapshots><enabled>false</enabled></snapshots></repository>
  </repositories>
  <pluginRepositories>
    <pluginRepository><id>cache</id><url>file://$m2</url><snapshots><enabled>false</enabled></snapshots></pluginRepository>
  </pluginRepositories>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.8.1</version></plugin>
  </plugins></build>
</project>
POM
cat > "$out/consumer/src/main/java/example/Embed.java" <<'JAVA'
package example;

import io.lanes.applier.Lanes;
import io.lanes.micrometer.LanesMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;

public class Embed {
    public static void main(String[] args) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Lanes lanes = Lanes.builder().source(Path.of(args[0])).target("jdbc:h2:mem:dryrun").workers(2).build()) {
            LanesMetrics.of(lanes).bindTo(registry);
            lanes.start();
            if (!lanes.awaitCaughtUp(Duration.ofMinutes(2))) throw new IllegalStateException("not caught up");
            long applied = lanes.stop().transactions();
            Thread.sleep(300); // the binder serves one snapshot for 200 ms
            double metered = registry.get("lanes.transactions.applied").functionCounter().count();
            System.out.println("applied " + applied + " transactions; lanes.transactions.applied = " + metered);
            if (applied == 0 || metered != applied) throw new IllegalStateException("the metrics disagree");
        }
    }
}
JAVA
echo "dry-run: building a fresh project against $out/repo"
(cd "$out/consumer" && mvn -B -ntp -q -Dmaven.repo.local="$out/consumer-m2" package dependency:build-classpath \
    -Dmdep.outputFile=classpath.txt)
# Lanes must have come from the dry-run repository, nowhere else
grep -q "dry-run" "$out/consumer-m2/io/lanes/lanes-applier/$version/_remote.repositories" 2>/dev/null \
  || ls "$out/consumer-m2/io/lanes/lanes-applier/$version/" | grep -q "resolver-status\|maven-metadata-dry-run" \
  || { echo "dry-run: lanes-applier was not resolved from the dry-run repository" >&2; exit 1; }
result=$(java -cp "$out/consumer/target/classes:$(cat "$out/consumer/classpath.txt")" example.Embed \
    "$root/binlog-api/src/test/resources/binlogs/mariadb-10.11/types-full-metadata.000001" 2>/dev/null)
echo "dry-run: $result"
echo "$result" | grep -q "^applied [1-9][0-9]* transactions" || { echo "dry-run: the example failed" >&2; exit 1; }
echo "dry-run: ok ($version: $(find "$out/repo/io/lanes" -name '*.jar' | wc -l) jars published, example ran)"
