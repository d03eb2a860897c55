package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/bin/lanes, the launcher, chooses the JVM settings by processor count (C1 only and the serial GC on 2 or
 * fewer), lets LANES_JAVA_OPTS replace the choice (even empty) and LANES_JAVA_EXTRA_OPTS add to it, and passes the
 * command's arguments through unchanged.
 */
class LauncherTest {
    private static final Path LAUNCHER = Path.of("bin/lanes").toAbsolutePath();

    @Test
    void smallMachineGetsC1AndSerialGc(@TempDir Path dir) throws Exception {
        Path jar = Files.createFile(dir.resolve("lanes.jar"));
        assertEquals("java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar " + jar + " apply --source a b",
                dryRun(jar, Map.of("LANES_PROCESSORS", "2"), "apply", "--source", "a b"));
        assertEquals("java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar " + jar + " demo",
                dryRun(jar, Map.of("LANES_PROCESSORS", "1"), "demo"));
    }

    @Test
    void largerMachineKeepsTheJvmDefaults(@TempDir Path dir) throws Exception {
        Path jar = Files.createFile(dir.resolve("lanes.jar"));
        assertEquals("java -jar " + jar + " demo", dryRun(jar, Map.of("LANES_PROCESSORS", "3"), "demo"));
    }

    @Test
    void aCgroupCpuQuotaCapsTheProcessorCount(@TempDir Path dir) throws Exception {
        Path jar = Files.createFile(dir.resolve("lanes.jar"));
        Path quota = Files.writeString(dir.resolve("cpu.max"), "150000 100000\n"); // 1.5 CPUs: 2 processors
        assertEquals("java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar " + jar + " demo",
                dryRun(jar, Map.of("LANES_CPU_MAX_FILE", quota.toString(), "LANES_PROCESSORS", ""), "demo"));
        Path none = Files.writeString(dir.resolve("cpu.max.none"), "max 100000\n");
        String unlimited = dryRun(jar, Map.of("LANES_CPU_MAX_FILE", none.toString(), "LANES_PROCESSORS", ""), "demo");
        assertEquals(dryRun(jar, Map.of("LANES_CPU_MAX_FILE", dir.resolve("absent").toString(), "LANES_PROCESSORS",
                ""), "demo"), unlimited, "no quota: nproc decides, as without a cgroup file");
    }

    @Test
    void userOptionsReplaceTheChoiceAndExtraOptionsAdd(@TempDir Path dir) throws Exception {
        Path jar = Files.createFile(dir.resolve("lanes.jar"));
        assertEquals("java -jar " + jar + " demo",
                dryRun(jar, Map.of("LANES_PROCESSORS", "2", "LANES_JAVA_OPTS", ""), "demo"));
        assertEquals("java -XX:+UseSerialGC -Xmx1g -jar " + jar + " demo", dryRun(jar, Map.of("LANES_PROCESSORS",
                "2", "LANES_JAVA_OPTS", "-XX:+UseSerialGC", "LANES_JAVA_EXTRA_OPTS", "-Xmx1g"), "demo"));
    }

    @Test
    void missingJarIsAClearError(@TempDir Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", LAUNCHER.toString(), "demo").redirectErrorStream(true);
        pb.environment().put("LANES_JAR", dir.resolve("absent.jar").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        assertEquals(2, p.exitValue(), out);
        assertEquals(true, out.contains("absent.jar not found"), out);
    }

    private static String dryRun(Path jar, Map<String, String> env, String... args) throws IOException,
            InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("LANES_JAVA_OPTS");
        pb.environment().remove("LANES_JAVA_EXTRA_OPTS");
        pb.environment().remove("JAVA");
        pb.environment().put("LANES_JAR", jar.toString());
        pb.environment().put("LANES_LAUNCHER_DRY_RUN", "1");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor(30, TimeUnit.SECONDS);
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
