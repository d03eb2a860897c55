package io.lanes.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.applier.Lanes;
import io.lanes.applier.LanesStats;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics endpoint in this process: its Prometheus text and its JMX beans show the same figures as the pipeline's
 * final statistics; a port that cannot be bound is a usage error naming it; {@code --version} is the build's.
 */
class MetricsEndpointTest {
    @TempDir
    Path temp;

    @Test
    void prometheusTextAndJmxShowThePipelinesStatistics() throws Exception {
        Path log = ApplyCommandTest.TYPES;
        try (Lanes lanes = Lanes.builder().source(log).target("jdbc:h2:mem:ep" + System.nanoTime()).workers(2)
                .pipeline("ep").build();
                MetricsEndpoint endpoint = MetricsEndpoint.start(lanes, "127.0.0.1", 0)) {
            lanes.start();
            assertTrue(lanes.awaitCaughtUp(Duration.ofSeconds(60)));
            LanesStats s = lanes.stop();
            Thread.sleep(300); // past the binder's snapshot age
            Map<String, Double> scrape = MetricsLiveLagTest.scrape(endpoint.port());
            assertEquals((double) s.transactions(),
                    MetricsLiveLagTest.value(scrape, "lanes_transactions_applied_total{pipeline=\"ep\"}"));
            assertEquals((double) s.rowsApplied(),
                    MetricsLiveLagTest.value(scrape, "lanes_rows_applied_total{pipeline=\"ep\"}"));
            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            Set<ObjectName> names = jmx.queryNames(new ObjectName(MetricsEndpoint.JMX_DOMAIN + ":*"), null);
            ObjectName applied = names.stream().filter(n -> n.toString().contains("lanesTransactionsApplied")
                    && n.toString().contains("ep")).findFirst().orElseThrow(() -> new AssertionError(names.toString()));
            assertEquals((double) s.transactions(), ((Number) jmx.getAttribute(applied, "Count")).doubleValue(),
                    applied.toString());
        }
    }

    @Test
    void aPortInUseIsAUsageErrorAndTheVersionIsTheBuilds() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            DumpCommandTest.Result r = DumpCommandTest.run("apply", "--source", ApplyCommandTest.TYPES.toString(),
                    "--target", "jdbc:h2:mem:x" + System.nanoTime(), "--metrics-port",
                    Integer.toString(taken.getLocalPort()), "--json");
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("cannot serve metrics at 127.0.0.1:" + taken.getLocalPort()), r.err());
        }
        DumpCommandTest.Result v = DumpCommandTest.run("--version");
        assertEquals(0, v.code());
        String built = System.getProperty("lanes.project.version"); // the POM's version, passed by surefire
        assertTrue(built != null && !built.isEmpty(), "surefire passes lanes.project.version");
        assertEquals("lanes " + built, v.out().get(0));
        assertTrue(VersionProvider.version().matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), VersionProvider.version());
    }
}
