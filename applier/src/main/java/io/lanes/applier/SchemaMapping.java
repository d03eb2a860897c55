package io.lanes.applier;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which source tables are applied, and where they go: a source schema maps to the target schema of the same name unless
 * {@link Builder#rename renamed}; table names are kept. Names are compared exactly (case-sensitively, as MySQL on Linux
 * does).
 *
 * <p>Filters are glob patterns: {@code *} any run of characters, {@code ?} one character, {@code \} escapes the next
 * character. Schema patterns match the schema name; table patterns are {@code schemaGlob.tableGlob} (the first unescaped
 * dot separates them; a pattern without a dot matches the table name in any schema). A table is applied when its schema
 * passes the schema filters and the table passes the table filters; for each, an empty include list includes everything
 * and an exclude wins over an include.
 *
 * <p>Immutable and thread-safe.
 */
public final class SchemaMapping {
    private final Map<String, String> renames;
    private final List<Pattern> includeSchemas;
    private final List<Pattern> excludeSchemas;
    private final List<Pattern[]> includeTables;
    private final List<Pattern[]> excludeTables;
    private final List<String> description;

    private SchemaMapping(Builder b) {
        renames = Map.copyOf(b.renames);
        includeSchemas = b.includeSchemas.stream().map(SchemaMapping::glob).toList();
        excludeSchemas = b.excludeSchemas.stream().map(SchemaMapping::glob).toList();
        includeTables = b.includeTables.stream().map(SchemaMapping::tableGlob).toList();
        excludeTables = b.excludeTables.stream().map(SchemaMapping::tableGlob).toList();
        description = List.of("renames=" + b.renames, "includeSchemas=" + b.includeSchemas,
                "excludeSchemas=" + b.excludeSchemas, "includeTables=" + b.includeTables,
                "excludeTables=" + b.excludeTables);
    }

    /** Every schema and table, names unchanged. */
    public static SchemaMapping identity() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The target schema of a source schema. */
    public String targetSchema(String sourceSchema) {
        return renames.getOrDefault(sourceSchema, sourceSchema);
    }

    /** Whether anything of this source schema may be applied (statements naming only the schema, e.g. CREATE DATABASE). */
    public boolean includesSchema(String sourceSchema) {
        return (includeSchemas.isEmpty() || matchesAny(includeSchemas, sourceSchema))
                && !matchesAny(excludeSchemas, sourceSchema);
    }

    /** Whether changes to this source table are applied. */
    public boolean includesTable(String sourceSchema, String table) {
        if (!includesSchema(sourceSchema)) {
            return false;
        }
        boolean included = includeTables.isEmpty() || matchesAnyTable(includeTables, sourceSchema, table);
        return included && !matchesAnyTable(excludeTables, sourceSchema, table);
    }

    private static boolean matchesAny(List<Pattern> patterns, String name) {
        for (Pattern p : patterns) {
            if (p.matcher(name).matches()) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesAnyTable(List<Pattern[]> patterns, String schema, String table) {
        for (Pattern[] p : patterns) {
            if ((p[0] == null || p[0].matcher(schema).matches()) && p[1].matcher(table).matches()) {
                return true;
            }
        }
        return false;
    }

    private static Pattern[] tableGlob(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '.') {
                return new Pattern[] {glob(pattern.substring(0, i)), glob(pattern.substring(i + 1))};
            }
        }
        return new Pattern[] {null, glob(pattern)};
    }

    /** A glob as an anchored regular expression; everything but {@code * ?} and escapes is literal. */
    static Pattern glob(String glob) {
        StringBuilder re = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*' || c == '?') {
                flushLiteral(re, literal);
                re.append(c == '*' ? ".*" : ".");
            } else if (c == '\\' && i + 1 < glob.length()) {
                literal.append(glob.charAt(++i));
            } else {
                literal.append(c);
            }
        }
        flushLiteral(re, literal);
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    private static void flushLiteral(StringBuilder re, StringBuilder literal) {
        if (!literal.isEmpty()) {
            re.append(Pattern.quote(literal.toString()));
            literal.setLength(0);
        }
    }

    @Override
    public String toString() {
        return "SchemaMapping" + description;
    }

    /** Collects renames and filters; not thread-safe. */
    public static final class Builder {
        private final Map<String, String> renames = new LinkedHashMap<>();
        private final List<String> includeSchemas = new ArrayList<>();
        private final List<String> excludeSchemas = new ArrayList<>();
        private final List<String> includeTables = new ArrayList<>();
        private final List<String> excludeTables = new ArrayList<>();

        private Builder() {
        }

        /** Applies source schema {@code source} into target schema {@code target}. */
        public Builder rename(String source, String target) {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(target, "target");
            if (renames.containsKey(source) && !renames.get(source).equals(target)) {
                throw new IllegalArgumentException("schema " + source + " renamed twice: to " + renames.get(source)
                        + " and to " + target);
            }
            renames.put(source, target);
            return this;
        }

        public Builder includeSchemas(String... globs) {
            includeSchemas.addAll(List.of(globs));
            return this;
        }

        public Builder excludeSchemas(String... globs) {
            excludeSchemas.addAll(List.of(globs));
            return this;
        }

        /** Table globs, {@code schemaGlob.tableGlob} or {@code tableGlob}. */
        public Builder includeTables(String... globs) {
            includeTables.addAll(List.of(globs));
            return this;
        }

        public Builder excludeTables(String... globs) {
            excludeTables.addAll(List.of(globs));
            return this;
        }

        public SchemaMapping build() {
            return new SchemaMapping(this);
        }
    }
}
