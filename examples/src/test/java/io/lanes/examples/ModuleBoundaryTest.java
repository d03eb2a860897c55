package io.lanes.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.BinlogReader;
import io.lanes.applier.Lanes;
import io.lanes.connect.LanesHeaders;
import io.lanes.core.Engine;
import io.lanes.micrometer.LanesMetrics;
import io.lanes.testkit.FakeBinlogServer;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public surface is enforced: every library module's descriptor (binlog-api, core, applier, micrometer, testkit,
 * kafka-connect) exports API packages only (none named {@code internal}), under the module name its jar always
 * announced; the one export to a selected module is binlog-api's replication internals to the test kit, whose fake
 * source is built on them. The command line and examples use no internal package at all (a logger's name in a string
 * literal is not a use).
 */
class ModuleBoundaryTest {
    private static ModuleDescriptor descriptorOf(Class<?> type) throws URISyntaxException {
        Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        return ModuleFinder.of(location).findAll().iterator().next().descriptor();
    }

    @Test
    void libraryModulesExportOnlyTheirApi() throws Exception {
        ModuleDescriptor binlog = descriptorOf(BinlogReader.class);
        assertEquals("io.lanes.binlog", binlog.name());
        assertEquals(Set.of("io.lanes.binlog", "io.lanes.binlog.encode", "io.lanes.binlog.gtid", "io.lanes.binlog.json",
                "io.lanes.binlog.replication", "io.lanes.binlog.value"), exported(binlog));
        ModuleDescriptor core = descriptorOf(Engine.class);
        assertEquals("io.lanes.core", core.name());
        assertEquals(Set.of("io.lanes.core"), exported(core));
        ModuleDescriptor applier = descriptorOf(Lanes.class);
        assertEquals("io.lanes.applier", applier.name());
        assertEquals(Set.of("io.lanes.applier", "io.lanes.applier.checkpoint", "io.lanes.applier.ddl",
                "io.lanes.applier.jdbc", "io.lanes.applier.schema", "io.lanes.applier.sink", "io.lanes.applier.value"),
                exported(applier));
        ModuleDescriptor micrometer = descriptorOf(LanesMetrics.class);
        assertEquals("io.lanes.micrometer", micrometer.name());
        assertEquals(Set.of("io.lanes.micrometer"), exported(micrometer));
        ModuleDescriptor testkit = descriptorOf(FakeBinlogServer.class);
        assertEquals("io.lanes.testkit", testkit.name());
        assertEquals(Set.of("io.lanes.testkit"), exported(testkit));
        // LanesHeaders: a class of the connector module that loads without Kafka's API (provided by the worker)
        ModuleDescriptor connect = descriptorOf(LanesHeaders.class);
        assertEquals("io.lanes.connect", connect.name());
        assertEquals(Set.of("io.lanes.connect"), exported(connect));

        for (ModuleDescriptor d : List.of(binlog, core, applier, micrometer, testkit, connect)) {
            assertFalse(d.isAutomatic(), d.name() + " has a module-info");
            assertFalse(d.isOpen(), d.name() + " is not open");
            assertTrue(d.opens().isEmpty(), d.name() + " opens no package");
            for (ModuleDescriptor.Exports e : d.exports()) {
                assertFalse(e.source().contains(".internal") && !e.isQualified(), d.name() + " exports " + e.source());
            }
            if (d != micrometer) {
                assertTrue(d.packages().stream().anyMatch(p -> p.endsWith(".internal")),
                        d.name() + " has internal packages, kept unexported");
            }
        }
        // The only export to selected modules: the test kit's fake source speaks the protocol with the client's code.
        Set<String> qualified = new TreeSet<>();
        for (ModuleDescriptor d : List.of(binlog, core, applier, micrometer, testkit, connect)) {
            d.exports().stream().filter(ModuleDescriptor.Exports::isQualified)
                    .forEach(e -> qualified.add(d.name() + ": " + e.source() + " to " + new TreeSet<>(e.targets())));
        }
        assertEquals(Set.of("io.lanes.binlog: io.lanes.binlog.replication.internal to [io.lanes.testkit]"), qualified);
    }

    /** The packages {@code d} exports to every module. */
    private static Set<String> exported(ModuleDescriptor d) {
        return d.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void theCommandLineAndExamplesImportNoInternalPackage() throws IOException {
        // imports and fully qualified names alike
        Pattern internalImport = Pattern.compile("\\b(io\\.lanes\\.[\\w.]*\\.internal\\.[\\w.]+)");
        Set<String> found = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String code = Files.readString(f).replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"");
                Matcher m = internalImport.matcher(code);
                while (m.find()) {
                    found.add(m.group(1));
                }
            }
        }
        assertTrue(found.isEmpty(), "internal imports in examples: " + found);
    }
}
