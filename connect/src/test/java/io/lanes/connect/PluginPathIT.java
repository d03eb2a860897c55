package io.lanes.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.connect.testing.SharedConnect;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.kafka.connect.runtime.isolation.PluginClassLoader;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The packaged plugin, installed as the docs say: the module's {@code -plugin.zip} (built by {@code package}, so this
 * is an integration test, run by failsafe) unzipped into a directory that a Connect worker has as its
 * {@code plugin.path}. The worker is a second distributed worker group on the shared cluster's broker, started with
 * {@link WorkerHandle#start} because {@link EmbeddedConnectCluster} gives all its workers one set of properties. A
 * {@link LanesSinkConnector} created over its REST API runs, and its task runs in a {@link PluginClassLoader} whose
 * location is the installed plugin directory: the connector and Lanes' engine come from the package through Connect's
 * isolation. Failsafe leaves the module's own classes off this test's class path (a worker that finds a connector on
 * both takes the class path's copy), so only the package can supply the connector.
 */
@ExtendWith(SharedConnect.class)
class PluginPathIT {
    private static final String SINK = "io.lanes.connect.LanesSinkConnector";
    private static final String PG = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    @Test
    void packagedPluginLoadsThroughPluginPathIsolationAndRuns() throws Exception {
        Path zip = Path.of(System.getProperty("lanes.plugin.zip", "target/lanes-kafka-connect-"
                + System.getProperty("lanes.project.version") + "-plugin.zip"));
        assertTrue(Files.isRegularFile(zip), "the plugin package " + zip.toAbsolutePath() + " (built by mvn package)");
        Path pluginPath = Files.createTempDirectory("lanes-plugin-path-");
        unzip(zip, pluginPath);
        Path pluginDir = pluginPath.resolve("lanes-kafka-connect");
        assertTrue(Files.isDirectory(pluginDir.resolve("lib")), "the package unzips to lanes-kafka-connect/lib");

        EmbeddedConnectCluster connect = SharedConnect.cluster();
        String id = "pp" + ProcessHandle.current().pid() % 10000;
        String topic = id + ".events";
        connect.kafka().createTopic(topic, 1);
        Map<String, String> worker = new HashMap<>();
        worker.put("bootstrap.servers", connect.kafka().bootstrapServers());
        worker.put("group.id", id + "-workers");
        worker.put("config.storage.topic", id + "-configs");
        worker.put("offset.storage.topic", id + "-offsets");
        worker.put("status.storage.topic", id + "-status");
        worker.put("config.storage.replication.factor", "1");
        worker.put("offset.storage.replication.factor", "1");
        worker.put("status.storage.replication.factor", "1");
        worker.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        worker.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        worker.put("listeners", "http://localhost:0");
        worker.put("plugin.path", pluginPath.toString());
        worker.put("plugin.discovery", "service_load");
        WorkerHandle isolated = WorkerHandle.start(id + "-worker", worker);
        String name = id + "-sink";
        HttpClient http = HttpClient.newHttpClient();
        try {
            // The module's classes are not on this test's class path (failsafe's classesDirectory): names as text.
            Map<String, String> sink = new HashMap<>();
            sink.put("connector.class", SINK);
            sink.put("tasks.max", "1");
            sink.put("topics", topic);
            sink.put("lanes.target.url", PG);
            String json = "{" + String.join(",", sink.entrySet().stream()
                    .map(e -> quote(e.getKey()) + ":" + quote(e.getValue())).toList()) + "}";
            HttpResponse<String> put = http.send(HttpRequest.newBuilder(isolated.url().resolve("connectors/" + name + "/config"))
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(put.statusCode() / 100 == 2, "PUT connector config: " + put.statusCode() + " " + put.body());

            Thread task = awaitTaskThread(http, isolated.url(), name);
            ClassLoader loader = task.getContextClassLoader();
            assertTrue(loader instanceof PluginClassLoader, "the task's class loader is Connect's plugin loader, not " + loader);
            String location = ((PluginClassLoader) loader).location();
            assertTrue(location.contains(pluginDir.toString()),
                    "the plugin loader's location " + location + " is the installed directory " + pluginDir);
            assertEquals(loader, loader.loadClass(SINK).getClassLoader(), "the connector class is defined by the plugin loader");
            assertThrows(ClassNotFoundException.class, () -> Class.forName(SINK, false, PluginPathIT.class.getClassLoader()),
                    "the connector is not on the test's class path");
            assertEquals(loader, loader.loadClass("io.lanes.applier.BinlogBridge").getClassLoader(),
                    "Lanes' engine comes from the plugin's lib/ too");
            assertNotNull(loader.getResource("META-INF/services/org.apache.kafka.connect.sink.SinkConnector"));
        } finally {
            http.send(HttpRequest.newBuilder(isolated.url().resolve("connectors/" + name)).DELETE().build(),
                    HttpResponse.BodyHandlers.discarding());
            isolated.stop();
        }
    }

    /** Waits until the connector and its task 0 are RUNNING on the worker; returns the task's thread. */
    private static Thread awaitTaskThread(HttpClient http, URI worker, String name) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        String status = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(worker.resolve("connectors/" + name + "/status")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            status = r.body();
            // The connector's state and its one task's: both RUNNING.
            if (r.statusCode() == 200 && status.split("\"state\":\"RUNNING\"", -1).length - 1 == 2) {
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    if (t.getName().equals("task-thread-" + name + "-0")) {
                        return t;
                    }
                }
            }
            assertTrue(!status.contains("FAILED"), "the connector failed on the isolated worker: " + status);
            Thread.sleep(250);
        }
        throw new AssertionError("connector " + name + " and its task not running on the isolated worker after 90 s: " + status);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static void unzip(Path zip, Path into) throws IOException {
        try (InputStream in = Files.newInputStream(zip); ZipInputStream z = new ZipInputStream(in)) {
            for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
                Path to = into.resolve(e.getName()).normalize();
                if (!to.startsWith(into)) {
                    throw new IOException("zip entry outside the target directory: " + e.getName() + " in " + zip);
                }
                if (e.isDirectory()) {
                    Files.createDirectories(to);
                } else {
                    Files.createDirectories(to.getParent());
                    Files.copy(z, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
