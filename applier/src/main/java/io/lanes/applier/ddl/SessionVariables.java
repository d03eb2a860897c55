package io.lanes.applier.ddl;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values a statement-based statement read from its session, logged before it (INTVAR, RAND and USER_VAR events), so
 * that a MySQL target computes what the source computed. Immutable.
 *
 * @param insertId the AUTO_INCREMENT value the statement's first generated id took (INSERT_ID), or null
 * @param lastInsertId what LAST_INSERT_ID() returned in the statement, or null
 * @param randSeed1 RAND()'s first seed, or null
 * @param randSeed2 RAND()'s second seed, or null
 * @param userVariables user variables the statement read, by name without {@code @}: String, Long,
 *     {@link java.math.BigInteger} (unsigned), Double, or null for SQL NULL
 */
public record SessionVariables(Long insertId, Long lastInsertId, Long randSeed1, Long randSeed2,
        Map<String, Object> userVariables) {
    public static final SessionVariables NONE = new SessionVariables(null, null, null, null, Map.of());

    public SessionVariables {
        userVariables = userVariables == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(userVariables));
    }

    public boolean isEmpty() {
        return insertId == null && lastInsertId == null && randSeed1 == null && userVariables.isEmpty();
    }
}
