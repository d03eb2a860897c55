package io.lanes.applier.jdbc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Which collation a MySQL/MariaDB target uses for a source collation it does not have: MySQL 8's utf8mb4 0900
 * collations (id 255 {@code utf8mb4_0900_ai_ci}, the MySQL 8 default, and ids 256..323), {@code utf8mb3_tolower_ci}
 * (76) and the gb18030 collations (248..250) are unknown to MariaDB, which has no id for them and fails
 * {@code SET collation_connection = 255} and {@code COLLATE utf8mb4_0900_ai_ci} alike.
 *
 * <p>The default table ({@link #defaults()}, printed in docs/collations.md by {@link #markdownTable()}) maps each to the
 * nearest collation MariaDB has, as a list of candidates of which the first the target knows is taken: for the 0900
 * collations the UCA 14.0.0 collations of MariaDB 10.10+ with the same accent and case sensitivity, the same language
 * tailoring where MariaDB has it, and NO PAD as MySQL's 0900 collations are; then, for older MariaDB, the UCA 5.2.0 or
 * 4.0.0 collations of the same sensitivity (these PAD SPACE: trailing spaces then compare equal). The gb18030
 * collations have no default: MariaDB has no gb18030 character set, and a statement that needs one stops, naming it.
 *
 * <p>User entries ({@code lanes.target.collation-map}: {@code source=target,...}, a source collation by name or id)
 * come first and are used even for a collation the target knows. Collations of an H2 or PostgreSQL target are not
 * mapped: the translated DDL leaves collations to the target database's default (see docs/collations.md).
 *
 * <p>Immutable and thread-safe.
 */
public final class CollationMap {
    /** MySQL-only collations by id: the ids MariaDB does not use (it numbers its own from 576 and 1025 up). */
    private static final Map<Integer, String> MYSQL_ONLY;
    /** Source collation name -> target candidates, first known wins. */
    private static final Map<String, List<String>> DEFAULTS;

    /** MySQL 0900 language tags -> MariaDB UCA language names (those MariaDB has; others fall back to the root). */
    private static final String[][] LANGUAGES = {
        {"de_pb", "german2"}, {"is", "icelandic"}, {"lv", "latvian"}, {"ro", "romanian"}, {"sl", "slovenian"},
        {"pl", "polish"}, {"et", "estonian"}, {"es", "spanish"}, {"sv", "swedish"}, {"tr", "turkish"}, {"cs", "czech"},
        {"da", "danish"}, {"lt", "lithuanian"}, {"sk", "slovak"}, {"es_trad", "spanish2"}, {"la", "roman"},
        {"eo", "esperanto"}, {"hu", "hungarian"}, {"hr", "croatian"}, {"vi", "vietnamese"}, {"ja", null},
        {"ru", null}, {"zh", null}, {"nb", "danish"}, {"nn", "danish"}, {"sr_latn", "croatian"}, {"bs", "croatian"},
        {"bg", null}, {"gl", "spanish"}, {"mn_cyrl", null},
    };

    static {
        Map<Integer, String> ids = new java.util.TreeMap<>();
        ids.put(76, "utf8mb3_tolower_ci");
        ids.put(248, "gb18030_chinese_ci");
        ids.put(249, "gb18030_bin");
        ids.put(250, "gb18030_unicode_520_ci");
        String[] ai = {"", "de_pb_", "is_", "lv_", "ro_", "sl_", "pl_", "et_", "es_", "sv_", "tr_", "cs_", "da_", "lt_",
            "sk_", "es_trad_", "la_", null, "eo_", "hu_", "hr_", null, "vi_"};
        for (int i = 0; i < ai.length; i++) {
            if (ai[i] != null) {
                ids.put(255 + i, "utf8mb4_" + ai[i] + "0900_ai_ci");
                ids.put(278 + i, "utf8mb4_" + ai[i] + "0900_as_cs");
            }
        }
        ids.put(303, "utf8mb4_ja_0900_as_cs");
        ids.put(304, "utf8mb4_ja_0900_as_cs_ks");
        ids.put(305, "utf8mb4_0900_as_ci");
        ids.put(306, "utf8mb4_ru_0900_ai_ci");
        ids.put(307, "utf8mb4_ru_0900_as_cs");
        ids.put(308, "utf8mb4_zh_0900_as_cs");
        ids.put(309, "utf8mb4_0900_bin");
        String[] late = {"nb", "nn", "sr_latn", "bs", "bg", "gl", "mn_cyrl"};
        for (int i = 0; i < late.length; i++) {
            ids.put(310 + 2 * i, "utf8mb4_" + late[i] + "_0900_ai_ci");
            ids.put(311 + 2 * i, "utf8mb4_" + late[i] + "_0900_as_cs");
        }
        MYSQL_ONLY = Collections.unmodifiableMap(ids);

        Map<String, List<String>> d = new LinkedHashMap<>();
        for (String name : ids.values()) {
            List<String> candidates = candidates(name);
            if (!candidates.isEmpty()) {
                d.put(name, candidates);
            }
        }
        DEFAULTS = Collections.unmodifiableMap(d);
    }

    private static final CollationMap DEFAULT_MAP = new CollationMap(Map.of());

    private final Map<String, String> user;

    private CollationMap(Map<String, String> user) {
        this.user = Collections.unmodifiableMap(new LinkedHashMap<>(user));
    }

    /** The default table only. */
    public static CollationMap defaults() {
        return DEFAULT_MAP;
    }

    /**
     * The default table with the user's entries first.
     *
     * @param entries {@code source=target} items: a source collation name or id, a target collation name
     * @throws IllegalArgumentException naming an item that is not of that form
     */
    public static CollationMap parse(List<String> entries) {
        Map<String, String> user = new LinkedHashMap<>();
        for (String e : entries) {
            int eq = e.indexOf('=');
            String from = eq < 0 ? "" : e.substring(0, eq).trim();
            String to = eq < 0 ? "" : e.substring(eq + 1).trim();
            if (from.isEmpty() || !to.matches("[A-Za-z0-9_]+")) {
                throw new IllegalArgumentException("bad collation map entry '" + e + "': expected SOURCE=TARGET, a "
                        + "source collation name or id and a target collation name (e.g. utf8mb4_0900_ai_ci="
                        + "utf8mb4_unicode_520_ci)");
            }
            user.put(from.toLowerCase(Locale.ROOT), to);
        }
        return new CollationMap(user);
    }

    /** The user's entries, source (lower case) to target, in the order given. */
    public Map<String, String> userEntries() {
        return user;
    }

    /** A collation's name when it is one MariaDB does not know by id (MySQL 8 only), else null. */
    public static String mysqlOnlyName(int id) {
        return MYSQL_ONLY.get(id);
    }

    /**
     * The target collation for a source collation, or null to keep it as it is.
     *
     * @param sourceId the source's collation id, or -1 when only the name is known
     * @param sourceName the source's collation name, or null when only the id is known (then it is looked up among the
     *     MySQL-only ids)
     * @param target the target's collations
     * @throws IllegalArgumentException when the target does not have the collation and no entry maps it to one it has
     */
    public String targetCollation(int sourceId, String sourceName, TargetCollations target) {
        String name = sourceName != null ? sourceName.toLowerCase(Locale.ROOT)
                : sourceId >= 0 ? MYSQL_ONLY.getOrDefault(sourceId, target.nameOf(sourceId)) : null;
        String chosen = name == null ? null : user.get(name);
        if (chosen == null && sourceId >= 0) {
            chosen = user.get(Integer.toString(sourceId));
        }
        if (chosen != null) {
            if (!target.has(chosen)) {
                throw new IllegalArgumentException("lanes.target.collation-map maps " + describe(sourceId, name) + " to "
                        + chosen + ", which the target does not have");
            }
            return chosen;
        }
        boolean known = name != null ? target.has(name) && (sourceId < 0 || !MYSQL_ONLY.containsKey(sourceId))
                : target.has(sourceId);
        if (known) {
            return null;
        }
        for (String candidate : name == null ? List.<String>of() : DEFAULTS.getOrDefault(name, List.of())) {
            if (target.has(candidate)) {
                return candidate;
            }
        }
        throw new IllegalArgumentException("the source's collation " + describe(sourceId, name) + " is unknown to the "
                + "target and no collation map entry names one it has: add one with lanes.target.collation-map "
                + "(e.g. " + (name == null ? sourceId : name) + "=utf8mb4_unicode_ci); see docs/collations.md");
    }

    private static String describe(int id, String name) {
        return name == null ? "id " + id : id < 0 ? name : name + " (id " + id + ")";
    }

    /** The candidates of a MySQL-only collation on MariaDB, nearest first (empty: no equivalent). */
    private static List<String> candidates(String mysql) {
        List<String> out = new ArrayList<>();
        if (mysql.equals("utf8mb3_tolower_ci")) {
            out.add("utf8mb3_general_ci");
            return out;
        }
        if (!mysql.startsWith("utf8mb4_")) {
            return out; // gb18030: MariaDB has no such character set
        }
        if (mysql.equals("utf8mb4_0900_bin")) {
            out.add("utf8mb4_nopad_bin");
            out.add("utf8mb4_bin");
            return out;
        }
        String rest = mysql.substring("utf8mb4_".length());
        int at = rest.indexOf("0900_");
        String tag = at == 0 ? "" : rest.substring(0, at - 1);
        String sensitivity = rest.substring(at + "0900_".length()); // ai_ci, as_cs, as_ci, as_cs_ks
        if (sensitivity.equals("as_cs_ks")) {
            sensitivity = "as_cs";
        }
        String language = tag.isEmpty() ? "" : language(tag);
        if (language != null && !language.isEmpty()) {
            out.add("utf8mb4_uca1400_" + language + "_nopad_" + sensitivity);
        }
        out.add("utf8mb4_uca1400_nopad_" + sensitivity);
        if (sensitivity.equals("ai_ci")) {
            if (language != null && !language.isEmpty()) {
                out.add("utf8mb4_" + language + "_ci");
            }
            out.add("utf8mb4_unicode_520_nopad_ci");
            out.add("utf8mb4_unicode_520_ci");
            out.add("utf8mb4_unicode_ci");
        } else {
            // accent- or case-sensitive: MariaDB before 10.10 has no such UCA collation; binary keeps both distinctions
            out.add("utf8mb4_nopad_bin");
            out.add("utf8mb4_bin");
        }
        return out;
    }

    private static String language(String mysqlTag) {
        for (String[] l : LANGUAGES) {
            if (l[0].equals(mysqlTag)) {
                return l[1] == null ? "" : l[1];
            }
        }
        return "";
    }

    /** The default table as Markdown: source id, source name, target candidates in order (docs/collations.md). */
    public static String markdownTable() {
        StringBuilder sb = new StringBuilder("| source id | source collation (MySQL 8) | target candidates on "
                + "MariaDB, first one the target has |\n|---|---|---|\n");
        for (Map.Entry<Integer, String> e : MYSQL_ONLY.entrySet()) {
            List<String> c = DEFAULTS.getOrDefault(e.getValue(), List.of());
            sb.append("| ").append(e.getKey()).append(" | `").append(e.getValue()).append("` | ")
                    .append(c.isEmpty() ? "(none: stops, naming it; map it with `lanes.target.collation-map`)"
                            : "`" + String.join("`, `", c) + "`")
                    .append(" |\n");
        }
        return sb.toString();
    }

    /** The default candidates of a source collation name (empty when none). */
    public static List<String> defaultCandidates(String sourceName) {
        return DEFAULTS.getOrDefault(Objects.requireNonNull(sourceName).toLowerCase(Locale.ROOT), List.of());
    }

    @Override
    public String toString() {
        return "CollationMap" + user;
    }
}
