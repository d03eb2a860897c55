package io.lanes.applier.internal;

import io.lanes.applier.SchemaMapping;
import io.lanes.applier.ddl.SourceStatement;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, before a transaction is handed to the engine, whether each statement the source logged as text goes to the
 * target: the schema filters apply to statements as they do to rows, and account management never runs unless asked.
 *
 * <p>A statement's schemas: for DDL the parser understands (CREATE/ALTER/DROP DATABASE and TABLE, indexes, RENAME,
 * TRUNCATE), the schemas of the tables or the database it acts on (a table the text does not qualify is in the default
 * database); for any other statement, its default database (unless it is a CREATE/ALTER/DROP DATABASE, which needs none)
 * and every schema its text names ({@link StatementScope}), a qualifier {@code x.} in a position the reader does not know
 * counting too when the mapping renames {@code x}. Then: no schema (e.g. {@code FLUSH TABLES}), or all of them included:
 * applied; none included: filtered (counted, like the rows of an excluded table); some included and some not: the
 * statement cannot be applied in part, and the pipeline stops at it naming both sets (a documented refusal, never a
 * guess). Account management (users, roles, grants, passwords, server definitions, FLUSH PRIVILEGES) is skipped, logged
 * without its secrets and counted, unless {@code applyAccountStatements}.
 *
 * <p>Used by the reading thread only; the counters it increments are thread-safe.
 */
public final class StatementFilter {
    private static final Logger LOG = LoggerFactory.getLogger(StatementFilter.class);

    private final SchemaMapping mapping;
    private final boolean applyAccountStatements;
    private final StatementCounters counters;

    public StatementFilter(SchemaMapping mapping, boolean applyAccountStatements, StatementCounters counters) {
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        this.applyAccountStatements = applyAccountStatements;
        this.counters = Objects.requireNonNull(counters, "counters");
    }

    /** The default: account statements skipped, counted in a counter of its own. */
    public static StatementFilter defaults(SchemaMapping mapping) {
        return new StatementFilter(mapping, false, new StatementCounters());
    }

    public StatementCounters counters() {
        return counters;
    }

    /**
     * Whether the statement goes to the target.
     *
     * @throws IllegalStateException naming the position when the statement names included and excluded schemas, or
     *     when its text cannot be read while schema filters or renames are configured
     */
    public boolean applies(SourceStatement statement) {
        StatementScope scope;
        try {
            scope = StatementScope.of(statement.sql(), statement.sqlMode());
        } catch (DdlSyntaxException unreadable) {
            if (isIdentity()) {
                return true;
            }
            throw new IllegalStateException("the statement at " + statement.position() + " cannot be read ("
                    + unreadable.getMessage() + "), so the schema filters and renames cannot be applied to it: "
                    + statement.abbreviated());
        }
        if (scope.kind() == StatementScope.Kind.ACCOUNT_MANAGEMENT && !applyAccountStatements) {
            counters.accountStatementSkipped();
            LOG.info("account management at {} not applied (lanes.statements.account-management=skip): {}",
                    statement.position(), statement.abbreviated());
            return false;
        }
        Set<String> schemas = schemasOf(statement, scope);
        Set<String> included = new LinkedHashSet<>();
        Set<String> excluded = new LinkedHashSet<>();
        for (String s : schemas) {
            (mapping.includesSchema(s) ? included : excluded).add(s);
        }
        if (excluded.isEmpty()) {
            return true;
        }
        if (included.isEmpty()) {
            counters.statementFiltered();
            LOG.debug("statement at {} filtered out (schemas {}): {}", statement.position(), excluded,
                    statement.abbreviated());
            return false;
        }
        throw new IllegalStateException("the statement at " + statement.position() + " names schemas the schema filters "
                + "include (" + String.join(", ", included) + ") and schemas they exclude (" + String.join(", ", excluded)
                + "); a statement cannot be applied in part: include or exclude all of them (lanes.schema.include, "
                + "lanes.schema.exclude). Statement: " + statement.abbreviated());
    }

    /**
     * The source schemas a statement concerns: its default database (unless it is a database statement, which names
     * its database itself) and every schema its text names; see the class comment.
     */
    public Set<String> schemasOf(SourceStatement statement, StatementScope scope) {
        Set<String> schemas = new LinkedHashSet<>();
        if (scope.kind() == StatementScope.Kind.OTHER || scope.kind() == StatementScope.Kind.DATABASE) {
            try {
                // DDL the parser understands names exactly the tables (or database) it acts on, each qualified by the
                // default database where the text leaves it out: the default database itself plays no other part.
                MySqlDdl.Statement parsed = MySqlDdlParser.parse(statement.sql(), statement.defaultSchema(),
                        statement.sqlMode());
                String database = DdlStatements.schemaOf(parsed);
                if (database != null) {
                    schemas.add(database);
                }
                for (MySqlDdl.TableName t : DdlStatements.tablesOf(parsed)) {
                    schemas.add(t.schema());
                }
                if (!schemas.isEmpty()) {
                    return schemas;
                }
            } catch (DdlSyntaxException notDdlItKnows) {
                // read from its tokens below
            }
        }
        if (statement.defaultSchema() != null && scope.kind() != StatementScope.Kind.DATABASE
                && scope.kind() != StatementScope.Kind.ACCOUNT_MANAGEMENT) {
            schemas.add(statement.defaultSchema());
        }
        schemas.addAll(scope.schemas());
        for (SqlToken q : renamedQualifiers(scope.qualifiers(), mapping)) {
            schemas.add(q.text());
        }
        return schemas;
    }

    /** The qualifiers that name a schema the mapping renames: treated as schemas wherever they stand. */
    static List<SqlToken> renamedQualifiers(List<SqlToken> qualifiers, SchemaMapping mapping) {
        return qualifiers.stream().filter(q -> !mapping.targetSchema(q.text()).equals(q.text())).toList();
    }

    private boolean isIdentity() {
        return mapping.toString().equals(SchemaMapping.identity().toString());
    }
}
