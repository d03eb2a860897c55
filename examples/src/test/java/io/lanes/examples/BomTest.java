package io.lanes.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The BOM lists exactly the published modules (every module of the build whose deploy is not skipped), at the build's
 * version, and each published jar module names its Automatic-Module-Name: adding a module to the build without adding
 * it to the BOM fails here.
 */
class BomTest {
    static final Path ROOT = Path.of("..");

    private static String first(String xml, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.DOTALL).matcher(xml);
        assertTrue(m.find(), regex);
        return m.group(1);
    }

    @Test
    void theBomListsEveryPublishedModuleAtTheBuildsVersion() throws Exception {
        String root = Files.readString(ROOT.resolve("pom.xml"));
        String version = first(root, "<artifactId>lanes-parent</artifactId>\\s*<version>([^<]+)</version>");
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
        assertEquals(version, first(bom, "<artifactId>lanes-bom</artifactId>\\s*<version>([^<]+)</version>"),
                "the BOM's version is the build's");
        TreeSet<String> published = new TreeSet<>();
        List<String> modules = new ArrayList<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(root);
        while (m.find()) {
            modules.add(m.group(1));
        }
        for (String module : modules) {
            if (module.equals("bom")) {
                continue;
            }
            String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
            if (pom.contains("<maven.deploy.skip>true</maven.deploy.skip>")) {
                continue;
            }
            published.add(first(pom, "</parent>\\s*<artifactId>([^<]+)</artifactId>"));
            String moduleName = first(pom, "<lanes.module.name>([^<]+)</lanes.module.name>");
            assertTrue(moduleName.matches("io\\.lanes\\.[a-z]+"), module + ": " + moduleName);
        }
        TreeSet<String> listed = new TreeSet<>();
        Matcher d = Pattern.compile("<dependency><groupId>io.lanes</groupId><artifactId>([^<]+)</artifactId>"
                + "<version>\\$\\{project.version}</version></dependency>").matcher(bom);
        while (d.find()) {
            listed.add(d.group(1));
        }
        assertTrue(published.containsAll(List.of("lanes-binlog-api", "lanes-core", "lanes-applier",
                "lanes-micrometer")), published.toString());
        assertEquals(published, listed, "bom/pom.xml must list every published module");
    }
}
