package io.lanes.examples.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.lanes.applier.Lanes;
import io.lanes.micrometer.LanesMetrics;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics of {@code lanes apply --metrics-port}: a pipeline's {@link LanesMetrics} (and the JVM's memory, GC,
 * threads and CPU) in Prometheus text at {@code http://ADDRESS:PORT/metrics}, and the same meters in JMX (domain
 * {@code io.lanes}). Micrometer's Prometheus registry writes the exposition format (escaping, HELP and TYPE lines,
 * OpenMetrics when the scraper asks for it); the JDK's own HTTP server serves it on one daemon thread
 * ({@code lanes-metrics}), which is plenty for a scrape every few seconds and brings no web server dependency.
 * Serves from {@link #start} until {@link #close}: the whole run, including its final figures until the command exits.
 */
final class MetricsEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    static final String JMX_DOMAIN = "io.lanes";

    private final HttpServer server;
    private final PrometheusMeterRegistry prometheus;
    private final JmxMeterRegistry jmx;

    private MetricsEndpoint(HttpServer server, PrometheusMeterRegistry prometheus, JmxMeterRegistry jmx) {
        this.server = server;
        this.prometheus = prometheus;
        this.jmx = jmx;
    }

    /**
     * Binds the pipeline's meters and starts serving.
     *
     * @param port 0 for a free port ({@link #port()} tells which)
     * @throws IOException when the address cannot be bound (in use, not local)
     */
    static MetricsEndpoint start(Lanes lanes, String bindAddress, int port) throws IOException {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JmxMeterRegistry jmx = new JmxMeterRegistry(new JmxConfig() {
            @Override
            public String get(String key) {
                return null;
            }

            @Override
            public String domain() {
                return JMX_DOMAIN;
            }
        }, Clock.SYSTEM);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(bindAddress, port), 16);
        } catch (IOException | RuntimeException e) {
            jmx.close();
            prometheus.close();
            throw new IOException("cannot serve metrics at " + bindAddress + ":" + port + ": " + e.getMessage(), e);
        }
        for (var registry : new io.micrometer.core.instrument.MeterRegistry[] {prometheus, jmx}) {
            LanesMetrics.of(lanes).bindTo(registry);
            new JvmMemoryMetrics().bindTo(registry);
            new JvmGcMetrics().bindTo(registry);
            new JvmThreadMetrics().bindTo(registry);
            new ProcessorMetrics().bindTo(registry);
        }
        MetricsEndpoint endpoint = new MetricsEndpoint(server, prometheus, jmx);
        server.createContext("/metrics", endpoint::scrape);
        server.createContext("/", endpoint::index);
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "lanes-metrics");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        LOG.info("serving metrics at http://{}:{}/metrics and in JMX (domain {})", bindAddress, endpoint.port(),
                JMX_DOMAIN);
        return endpoint;
    }

    /** The port being served (the one chosen when 0 was asked for). */
    int port() {
        return server.getAddress().getPort();
    }

    private void scrape(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            String accept = exchange.getRequestHeaders().getFirst("Accept");
            String contentType = accept != null && accept.contains("application/openmetrics-text")
                    ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                    : "text/plain; version=0.0.4; charset=utf-8";
            byte[] body = prometheus.scrape(contentType).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    private void index(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = "lanes: metrics at /metrics\n".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders("/".equals(exchange.getRequestURI().getPath()) ? 200 : 404, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        jmx.close();
        prometheus.close();
    }
}
