package io.lanes.binlog;

/**
 * QUERY (2), and MariaDB QUERY_COMPRESSED (165) once inflated: a statement (DDL, BEGIN, COMMIT, or DML in statement
 * format).
 *
 * @param threadId the connection id that ran the statement
 * @param executionTime seconds the statement took on the source
 * @param errorCode the error the statement raised on the source (0 normally)
 * @param database the default database ({@code USE db}), empty when none
 * @param sql the statement text, decoded with the client character set from {@link QueryStatusVars#charsetClient()}
 * @param statusVars the session state the statement ran with
 * @param compressed whether the event was a MariaDB QUERY_COMPRESSED event
 */
public record QueryEvent(EventHeader header, long threadId, long executionTime, int errorCode, String database,
        String sql, QueryStatusVars statusVars, boolean compressed) implements BinlogEvent {

    /** Whether the statement is {@code BEGIN} (opens a transaction). */
    public boolean isBegin() {
        return "BEGIN".equals(sql);
    }

    /** Whether the statement is {@code COMMIT} (ends a transaction on a non-XA engine). */
    public boolean isCommit() {
        return "COMMIT".equals(sql);
    }

    /** Whether the statement is {@code ROLLBACK} (a transaction that touched non-transactional tables, rolled back). */
    public boolean isRollback() {
        return sql.regionMatches(true, 0, "ROLLBACK", 0, 8) && (sql.length() == 8 || !Character.isLetterOrDigit(sql.charAt(8)));
    }

    /** As a record prints itself, with any password the statement carries hidden ({@link SqlSecrets}). */
    @Override
    public String toString() {
        return "QueryEvent[header=" + header + ", threadId=" + threadId + ", executionTime=" + executionTime
                + ", errorCode=" + errorCode + ", database=" + database + ", sql=" + SqlSecrets.redact(sql)
                + ", statusVars=" + statusVars + ", compressed=" + compressed + "]";
    }

    /** Whether the statement is an {@code XA PREPARE}, which ends the XA transaction's first phase on MariaDB. */
    public boolean isXaPrepare() {
        return sql.regionMatches(true, 0, "XA PREPARE", 0, 10);
    }
}
