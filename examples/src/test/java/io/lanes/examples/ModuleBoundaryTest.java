package io.lanes.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.BinlogReader;
import io.lanes.applier.Lanes;
import io.lanes.core.Engine;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public surface is enforced: the library modules' descriptors (binlog-api, core, applier) export API packages
 * only (none named {@code internal}, none to selected modules), under the module names their jars always announced,
 * and the command line and examples use no internal package at all (a logger's name in a string literal is not a use).
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
        assertFalse(binlog.isAutomatic(), "binlog-api has a module-info");
        assertEquals(Set.of("io.lanes.binlog", "io.lanes.binlog.encode", "io.lanes.binlog.gtid", "io.lanes.binlog.json",
                "io.lanes.binlog.replication", "io.lanes.binlog.value"), exported(binlog));
        ModuleDescriptor core = descriptorOf(Engine.class);
        assertEquals("io.lanes.core", core.name());
        assertEquals(Set.of("io.lanes.core"), exported(core));
        ModuleDescriptor applier = descriptorOf(Lanes.class);
        assertEquals("io.lanes.applier", applier.name());
        assertFalse(applier.isAutomatic(), "applier has a module-info");
        assertEquals(Set.of("io.lanes.applier", "io.lanes.applier.checkpoint", "io.lanes.applier.ddl",
                "io.lanes.applier.jdbc", "io.lanes.applier.schema", "io.lanes.applier.sink", "io.lanes.applier.value"),
                exported(applier));
        for (ModuleDescriptor d : new ModuleDescriptor[] {binlog, core, applier}) {
            for (ModuleDescriptor.Exports e : d.exports()) {
                assertFalse(e.isQualified(), d.name() + " exports " + e.source() + " to selected modules");
                assertFalse(e.source().contains(".internal"), d.name() + " exports " + e.source());
            }
            assertTrue(d.packages().stream().anyMatch(p -> p.endsWith(".internal")),
                    d.name() + " has internal packages, kept unexported");
        }
    }

    private static Set<String> exported(ModuleDescriptor d) {
        return d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toCollection(TreeSet::new));
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
