package io.lanes.applier.internal;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.TableRef;
import io.lanes.applier.ddl.DdlHandler;
import io.lanes.applier.ddl.DdlResult;
import io.lanes.applier.ddl.SessionVariables;
import io.lanes.applier.ddl.SourceStatement;
import io.lanes.applier.ddl.StatementPolicy;
import io.lanes.applier.ddl.UnsupportedDdlException;
import io.lanes.applier.internal.MySqlDdl.Statement;
import io.lanes.applier.internal.MySqlDdl.TableName;
import io.lanes.applier.jdbc.Dialect;
import io.lanes.applier.jdbc.TargetCatalog;
import io.lanes.applier.jdbc.TargetCollations;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The default {@link DdlHandler} of MySQL and MariaDB targets: the statement runs as written, in the source session's
 * context, which is reset to the applier's afterwards. Thread-safe (its only state is the target's collation list, read
 * once).
 *
 * <ul>
 *   <li>Database: a statement runs in its own default database (renamed by the mapping) or not at all: when that
 *       database does not exist on the target the statement fails, naming it, rather than run in whatever database the
 *       session was in (the JDBC URL's, or an earlier statement's). CREATE/ALTER/DROP DATABASE and account statements
 *       need no default database. A statement the source ran without one runs in the session's current database: it
 *       ran on the source without one, so every table it names is qualified.
 *   <li>Schema renames replace every schema name the text gives: from the DDL parser when the statement parses, else
 *       from {@link StatementScope} (the qualifiers of table references, three-part names, qualified calls, and any
 *       qualifier naming a renamed schema).
 *   <li>Session: sql_mode, collation_connection and collation_server (through the {@link io.lanes.applier.jdbc.CollationMap}
 *       when the target lacks the source's collation, also for COLLATE clauses in the text), time_zone, timestamp,
 *       foreign_key_checks and unique_checks (the QUERY event's flags2), INSERT_ID, LAST_INSERT_ID, RAND seeds and user
 *       variables; set in one statement before and reset in one after.
 *   <li>Triggers: see {@link StatementPolicy.Triggers}; by default a CREATE TRIGGER is guarded so that it fires for
 *       statements but never for the rows Lanes applies (those carry the trigger's effects already).
 * </ul>
 */
public final class MySqlDdlHandler implements DdlHandler {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MySqlDdlHandler.class);
    /** The user variable a guarded trigger reads: set (1) while a worker applies rows, NULL while it runs a statement. */
    public static final String APPLYING_ROWS_VARIABLE = "@lanes_applying_rows";

    private final SchemaMapping mapping;
    private final TargetCatalog catalog;
    private final StatementPolicy policy;
    private final Dialect dialect = Dialect.mysql();
    private volatile TargetCollations collations;

    public MySqlDdlHandler(SchemaMapping mapping, TargetCatalog catalog) {
        this(mapping, catalog, StatementPolicy.DEFAULT);
    }

    public MySqlDdlHandler(SchemaMapping mapping, TargetCatalog catalog, StatementPolicy policy) {
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        this.catalog = catalog;
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    @Override
    public DdlResult apply(Connection target, SourceStatement statement) throws SQLException {
        StatementScope scope = scopeOf(statement);
        StatementScope.Kind kind = scope == null ? StatementScope.Kind.OTHER : scope.kind();
        boolean trigger = kind == StatementScope.Kind.CREATE_TRIGGER || kind == StatementScope.Kind.DROP_TRIGGER;
        if (trigger && policy.triggers() == StatementPolicy.Triggers.SKIP) {
            LOG.info("trigger statement{} not applied (lanes.statements.triggers=skip): {}", at(statement),
                    statement.abbreviated());
            return DdlResult.skipped("triggers are not created on the target (lanes.statements.triggers=skip)");
        }
        Statement parsed = null;
        List<SqlToken> schemaTokens = List.of();
        try {
            MySqlDdlParser.Parsed detailed = MySqlDdlParser.parseDetailed(statement.sql(), statement.defaultSchema(),
                    statement.sqlMode());
            parsed = detailed.statement();
            schemaTokens = detailed.schemaTokens();
        } catch (DdlSyntaxException notParsed) {
            // Not needed to run it: the schema names come from the statement's scope instead.
            if (scope != null) {
                schemaTokens = new ArrayList<>(scope.schemaTokens());
                schemaTokens.addAll(StatementFilter.renamedQualifiers(scope.qualifiers(), mapping));
            }
        }
        if (parsed != null ? DdlStatements.excluded(parsed, mapping)
                : statement.defaultSchema() != null && !mapping.includesSchema(statement.defaultSchema())
                        && kind != StatementScope.Kind.DATABASE) {
            return DdlResult.skipped("excluded by the schema mapping");
        }
        TextEdits edits = new TextEdits(statement.sql());
        for (SqlToken t : schemaTokens) {
            String mapped = mapping.targetSchema(t.text());
            if (!mapped.equals(t.text())) {
                edits.replace(t.offset(), t.end(), dialect.quoteIdentifier(mapped));
            }
        }
        List<SqlToken> tokens = tokens(statement);
        TargetCollations targetCollations = collations(target);
        try {
            collateClauses(tokens, targetCollations, edits);
        } catch (IllegalArgumentException unmapped) {
            throw new UnsupportedDdlException(statement, unmapped.getMessage(), unmapped);
        }
        boolean guarded = kind == StatementScope.Kind.CREATE_TRIGGER
                && policy.triggers() == StatementPolicy.Triggers.GUARD;
        if (guarded) {
            guardTrigger(statement, tokens, edits);
        }
        String sqlToRun = edits.apply();
        List<String> executed = new ArrayList<>();
        try {
            boolean needsDatabase = kind != StatementScope.Kind.DATABASE
                    && kind != StatementScope.Kind.ACCOUNT_MANAGEMENT;
            if (statement.defaultSchema() != null && needsDatabase) {
                String database = mapping.targetSchema(statement.defaultSchema());
                String use = "USE " + dialect.quoteIdentifier(database);
                try {
                    DdlStatements.execute(target, use);
                } catch (SQLException e) {
                    if (e instanceof java.sql.SQLNonTransientConnectionException
                            || e instanceof java.sql.SQLRecoverableException
                            || (e.getSQLState() != null && e.getSQLState().startsWith("08"))) {
                        throw e; // the session was lost (killed, restarted), not the database refused: retryable
                    }
                    SQLSyntaxErrorException refused = new SQLSyntaxErrorException("the statement's default database `"
                            + database + "`" + (database.equals(statement.defaultSchema()) ? ""
                                    : " (source `" + statement.defaultSchema() + "`)")
                            + " cannot be used on the target (" + e.getMessage() + "): a statement runs in its own "
                            + "database or not at all; create the database on the target, or exclude or rename the "
                            + "schema", "42000", 1049, e);
                    throw refused;
                }
                executed.add(use);
            }
            String context;
            try {
                context = sessionContext(statement, targetCollations);
            } catch (IllegalArgumentException unmapped) {
                throw new UnsupportedDdlException(statement, unmapped.getMessage(), unmapped);
            }
            DdlStatements.execute(target, context);
            executed.add(context);
            for (var e : statement.variables().userVariables().entrySet()) {
                // The value goes through a parameter; the name is quoted as an identifier.
                String sql = "SET @" + dialect.quoteIdentifier(e.getKey()) + " = ?";
                try (java.sql.PreparedStatement ps = target.prepareStatement(sql)) {
                    ps.setObject(1, e.getValue() instanceof java.math.BigInteger b ? new java.math.BigDecimal(b) : e.getValue());
                    ps.execute();
                }
                executed.add(sql);
            }
            try {
                if (guarded) {
                    executeGuardedTrigger(target, statement, tokens, edits, executed);
                } else {
                    DdlStatements.execute(target, sqlToRun);
                    executed.add(sqlToRun);
                }
            } catch (SQLException e) {
                if (!DdlStatements.alreadyApplied(dialect, e, sqlToRun)) {
                    throw e;
                }
                LOG.warn("DDL{} had already been applied before a restart ({}): {}", at(statement), e.getMessage(),
                        statement.abbreviated());
            }
        } finally {
            reset(target);
            invalidate(parsed, statement);
        }
        Set<TableRef> tables = new LinkedHashSet<>();
        Set<String> schemas = new LinkedHashSet<>();
        if (parsed != null) {
            for (TableName t : DdlStatements.tablesOf(parsed)) {
                tables.add(new TableRef(mapping.targetSchema(t.schema()), t.name()));
            }
            String schema = DdlStatements.schemaOf(parsed);
            if (schema != null) {
                schemas.add(mapping.targetSchema(schema));
            }
        }
        return new DdlResult(executed, tables, schemas, List.of(), false);
    }

    private static String at(SourceStatement statement) {
        return statement.position() == null ? "" : " at " + statement.position();
    }

    private static StatementScope scopeOf(SourceStatement statement) {
        try {
            return StatementScope.of(statement.sql(), statement.sqlMode());
        } catch (DdlSyntaxException unreadable) {
            return null;
        }
    }

    private static List<SqlToken> tokens(SourceStatement statement) {
        try {
            return MySqlTokenizer.tokenize(statement.sql(), (statement.sqlMode() & MySqlDdlParser.MODE_ANSI_QUOTES) != 0,
                    (statement.sqlMode() & MySqlDdlParser.MODE_NO_BACKSLASH_ESCAPES) == 0);
        } catch (DdlSyntaxException unreadable) {
            return List.of(new SqlToken(SqlToken.Type.END, "", statement.sql().length(), statement.sql().length()));
        }
    }

    /**
     * The one SET that gives the session the source's context: sql_mode, collations, time zone, timestamp, constraint
     * checks, the session values of a statement-based statement, and the trigger guard cleared (triggers fire for it).
     */
    private String sessionContext(SourceStatement statement, TargetCollations targetCollations) {
        List<String> set = new ArrayList<>();
        set.add("SESSION sql_mode = " + Long.toUnsignedString(statement.sqlMode()));
        if (statement.collationConnection() != null) {
            set.add("SESSION collation_connection = " + collation(statement.collationConnection(), targetCollations));
        }
        if (statement.collationServer() != null) {
            set.add("SESSION collation_server = " + collation(statement.collationServer(), targetCollations));
        }
        if (statement.timeZone() != null) {
            set.add("SESSION time_zone = '" + statement.timeZone().replace("\\", "\\\\").replace("'", "''") + "'");
        }
        if (statement.timestamp() != null) {
            Instant t = statement.timestamp();
            set.add("SESSION timestamp = " + t.getEpochSecond() + "." + String.format("%06d", t.getNano() / 1000));
        }
        set.add("SESSION foreign_key_checks = " + (statement.foreignKeyChecks() ? 1 : 0));
        set.add("SESSION unique_checks = " + (statement.uniqueChecks() ? 1 : 0));
        SessionVariables vars = statement.variables();
        if (vars.insertId() != null) {
            set.add("SESSION insert_id = " + Long.toUnsignedString(vars.insertId()));
        }
        if (vars.lastInsertId() != null) {
            set.add("SESSION last_insert_id = " + Long.toUnsignedString(vars.lastInsertId()));
        }
        if (vars.randSeed1() != null) {
            set.add("@@rand_seed1 = " + Long.toUnsignedString(vars.randSeed1()) + ", @@rand_seed2 = "
                    + Long.toUnsignedString(vars.randSeed2()));
        }
        set.add(APPLYING_ROWS_VARIABLE + " = NULL");
        return "SET " + String.join(", ", set);
    }

    /** A collation id as the SET takes it: the id itself, or the quoted name the collation map gives. */
    private String collation(int id, TargetCollations targetCollations) {
        String mapped = policy.collations().targetCollation(id, null, targetCollations);
        return mapped == null ? Integer.toString(id) : "'" + mapped + "'";
    }

    /** Replaces the collation named after each COLLATE ({@code COLLATE x}, {@code COLLATE = x}) when the map says so. */
    private void collateClauses(List<SqlToken> tokens, TargetCollations targetCollations, TextEdits edits) {
        for (int i = 0; i < tokens.size(); i++) {
            if (!tokens.get(i).is("COLLATE")) {
                continue;
            }
            int at = i + 1 < tokens.size() && tokens.get(i + 1).isSymbol("=") ? i + 2 : i + 1;
            if (at >= tokens.size()) {
                continue;
            }
            SqlToken name = tokens.get(at);
            if (name.isName() || name.type() == SqlToken.Type.STRING) {
                String mapped = policy.collations().targetCollation(-1, name.text(), targetCollations);
                if (mapped != null) {
                    edits.replace(name.offset(), name.end(), mapped);
                }
            }
        }
    }

    /**
     * Wraps a CREATE TRIGGER's body in {@code IF @lanes_applying_rows IS NULL THEN ... END IF} (see
     * {@link StatementPolicy.Triggers#GUARD}). The body starts after {@code FOR EACH ROW} and an optional
     * {@code FOLLOWS|PRECEDES name}, and runs to the statement's last token.
     */
    private static void guardTrigger(SourceStatement statement, List<SqlToken> tokens, TextEdits edits) {
        int body = -1;
        for (int i = 0; i + 3 < tokens.size(); i++) {
            if (tokens.get(i).is("FOR") && tokens.get(i + 1).is("EACH") && tokens.get(i + 2).is("ROW")) {
                body = i + 3;
                if (tokens.get(body).is("FOLLOWS") || tokens.get(body).is("PRECEDES")) {
                    body += 2;
                }
                break;
            }
        }
        int last = tokens.size() - 2; // the END token is last
        while (last >= 0 && tokens.get(last).isSymbol(";")) {
            last--;
        }
        if (body < 0 || body > last) {
            throw new UnsupportedDdlException(statement, "cannot find the body of the trigger to guard it against "
                    + "firing on the rows Lanes applies; set lanes.statements.triggers to skip (row-based logs) or "
                    + "as-written (statement-based logs)", null);
        }
        edits.replace(tokens.get(body).offset(), tokens.get(body).offset(),
                "IF " + APPLYING_ROWS_VARIABLE + " IS NULL THEN ");
        edits.replace(tokens.get(last).end(), tokens.get(last).end(), "; END IF");
    }

    /**
     * Creates a guarded trigger. A guarded trigger is invoked for every row Lanes applies (its body then does nothing),
     * and MariaDB and MySQL refuse to invoke a trigger whose DEFINER does not exist ("The user specified as a definer
     * does not exist", 1449): when the target says so as it creates the trigger, the trigger is created again with
     * {@code DEFINER=CURRENT_USER}, with a warning, rather than make every later row of its table fail.
     */
    private void executeGuardedTrigger(Connection target, SourceStatement statement, List<SqlToken> tokens,
            TextEdits edits, List<String> executed) throws SQLException {
        String sql = edits.apply();
        boolean definerMissing = false;
        try (java.sql.Statement s = target.createStatement()) {
            s.setEscapeProcessing(false);
            s.execute(sql);
            for (java.sql.SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
                definerMissing |= w.getErrorCode() == ER_NO_SUCH_USER;
            }
        }
        executed.add(sql);
        int[] definer = definerRange(tokens);
        String name = triggerName(tokens);
        if (!definerMissing || definer == null || name == null) {
            return;
        }
        edits.replace(definer[0], definer[1], "DEFINER=CURRENT_USER");
        String again = edits.apply();
        String drop = "DROP TRIGGER " + name;
        DdlStatements.execute(target, drop);
        DdlStatements.execute(target, again);
        executed.add(drop);
        executed.add(again);
        LOG.warn("trigger{}: its definer ({}) does not exist on the target, which would refuse every row of its table "
                + "(a guarded trigger runs for each row Lanes applies): created with DEFINER=CURRENT_USER instead: {}",
                at(statement), statement.sql().substring(definer[0], definer[1]), statement.abbreviated());
    }

    /** MySQL/MariaDB: the user named as a definer does not exist (a note when a trigger is created, an error when run). */
    private static final int ER_NO_SUCH_USER = 1449;

    /** The character range of {@code DEFINER = user} in a CREATE ... TRIGGER, or null when it has none. */
    private static int[] definerRange(List<SqlToken> tokens) {
        for (int i = 0; i + 2 < tokens.size(); i++) {
            if (tokens.get(i).is("TRIGGER")) {
                return null;
            }
            if (tokens.get(i).is("DEFINER") && tokens.get(i + 1).isSymbol("=")) {
                int last = i + 2;
                while (last + 1 < tokens.size() && !tokens.get(last + 1).is("TRIGGER")
                        && !tokens.get(last + 1).is("SQL")) {
                    last++;
                }
                return new int[] {tokens.get(i).offset(), tokens.get(last).end()};
            }
        }
        return null;
    }

    /** The trigger's name as written after TRIGGER, schema renamed ({@code `s`.`t`} or {@code `t`}), or null. */
    private String triggerName(List<SqlToken> tokens) {
        for (int i = 0; i + 1 < tokens.size(); i++) {
            if (tokens.get(i).is("TRIGGER")) {
                SqlToken first = tokens.get(i + 1);
                if (!first.isName()) {
                    return null;
                }
                if (i + 3 < tokens.size() && tokens.get(i + 2).isSymbol(".") && tokens.get(i + 3).isName()) {
                    return dialect.quoteIdentifier(mapping.targetSchema(first.text())) + "."
                            + dialect.quoteIdentifier(tokens.get(i + 3).text());
                }
                return dialect.quoteIdentifier(first.text());
            }
        }
        return null;
    }

    private TargetCollations collations(Connection target) throws SQLException {
        TargetCollations c = collations;
        if (c == null) {
            c = TargetCollations.read(target);
            collations = c;
        }
        return c;
    }

    private void reset(Connection target) throws SQLException {
        if (target.isClosed()) {
            return;
        }
        DdlStatements.execute(target, "SET NAMES utf8mb4, SESSION timestamp = DEFAULT, time_zone = '+00:00', sql_mode = '"
                + MySqlDialect.APPLY_SQL_MODE + "', collation_server = DEFAULT, foreign_key_checks = 1, "
                + "unique_checks = 1, " + APPLYING_ROWS_VARIABLE + " = 1");
    }

    private void invalidate(Statement parsed, SourceStatement statement) {
        if (catalog == null) {
            return;
        }
        if (parsed == null) {
            catalog.invalidateAll();
            return;
        }
        for (TableName t : DdlStatements.tablesOf(parsed)) {
            catalog.invalidate(mapping.targetSchema(t.schema()), t.name());
        }
        String schema = DdlStatements.schemaOf(parsed);
        if (schema != null) {
            catalog.invalidateSchema(mapping.targetSchema(schema));
        }
    }

    /** Replacements of character ranges of one text, applied at once from the end so that offsets stay valid. */
    private static final class TextEdits {
        private final String text;
        private final List<int[]> ranges = new ArrayList<>();
        private final List<String> replacements = new ArrayList<>();

        TextEdits(String text) {
            this.text = text;
        }

        void replace(int from, int to, String with) {
            ranges.add(new int[] {from, to});
            replacements.add(with);
        }

        String apply() {
            if (ranges.isEmpty()) {
                return text;
            }
            Integer[] order = new Integer[ranges.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            // from the end; of two insertions at one offset the later-added goes first in the text
            java.util.Arrays.sort(order, (a, b) -> ranges.get(a)[0] != ranges.get(b)[0]
                    ? Integer.compare(ranges.get(b)[0], ranges.get(a)[0]) : Integer.compare(a, b));
            StringBuilder out = new StringBuilder(text);
            for (int i : order) {
                out.replace(ranges.get(i)[0], ranges.get(i)[1], replacements.get(i));
            }
            return out.toString();
        }
    }
}
