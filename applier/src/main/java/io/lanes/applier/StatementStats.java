package io.lanes.applier;

/**
 * What the pipeline did with the statements the source logged as text, other than applying them. Immutable; every count
 * is of this run.
 *
 * @param accountStatementsSkipped account management statements (CREATE/ALTER/DROP/RENAME USER, GRANT, REVOKE, SET
 *     PASSWORD, roles, server definitions, FLUSH PRIVILEGES) not run on the target because
 *     {@code lanes.statements.account-management} is {@code skip} (the default), or because the target is H2 or
 *     PostgreSQL; each was logged without its secrets
 * @param statementsFiltered statements whose schemas the schema filters exclude (not applied, like the rows of an
 *     excluded table)
 * @param triggersNotCreated CREATE/DROP TRIGGER statements not run on the target ({@code lanes.statements.triggers} is
 *     {@code skip}, or the target is H2 or PostgreSQL, where MySQL trigger bodies do not run): a row-based log carries
 *     the rows the source's triggers wrote
 * @param definitionsNotTranslated definitions of views, stored procedures and functions and events that H2 or
 *     PostgreSQL cannot run as MySQL wrote them: skipped with a warning (they hold no rows)
 */
public record StatementStats(long accountStatementsSkipped, long statementsFiltered, long triggersNotCreated,
        long definitionsNotTranslated) {
    public static final StatementStats NONE = new StatementStats(0, 0, 0, 0);
}
