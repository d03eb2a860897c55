package io.lanes.examples.cli;

import io.lanes.binlog.gtid.GtidSet;
import io.lanes.binlog.replication.StartPosition;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * A live source given as {@code mysql://USER@HOST[:PORT][?file=NAME&pos=N | ?gtid=SET]}, turned into the library's
 * {@code lanes.source.*} settings.
 *
 * <p>A password is never accepted in the URL ({@code USER:PASSWORD@} is rejected, and the error does not repeat the URL):
 * command lines end up in shell history and process lists; the password comes from {@code LANES_SOURCE_PASSWORD}.
 *
 * <p>{@code gtid=} values are told apart as the library tells every GTID text ({@code GtidSet.parse}): made only of
 * {@code domain-server-sequence} triples ({@code 0-1-5,1-2-7}) a MariaDB GTID position; anything else
 * ({@code uuid:1-5,...}, with tags on MySQL 8.3+: {@code uuid:1-5:mytag:1-3}) a MySQL GTID set, checked as MySQL reads
 * it. {@code :} and {@code ,} may be given as is or %-escaped. Immutable.
 *
 * @param user replication user
 * @param hostAndPort {@code HOST:PORT} (port 3306 when the URL has none)
 * @param start a {@code StartPosition} text ({@code NAME:POS} or {@code gtid=SET}), or null when the URL gives no start
 */
record SourceUrl(String user, String hostAndPort, String start) {
    static final String SCHEME = "mysql://";
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+\\]");

    static boolean isUrl(String source) {
        return source.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
    }

    /**
     * Parses a {@code mysql://} URL.
     *
     * @throws IllegalArgumentException naming what is wrong; the message never contains the text after a {@code :} in
     *     the user part, so a password typed by mistake is not echoed
     */
    static SourceUrl parse(String url) {
        String rest = url.substring(SCHEME.length());
        int queryAt = rest.indexOf('?');
        String authority = queryAt < 0 ? rest : rest.substring(0, queryAt);
        String query = queryAt < 0 ? "" : rest.substring(queryAt + 1);
        if (authority.endsWith("/")) {
            authority = authority.substring(0, authority.length() - 1);
        }
        int at = authority.lastIndexOf('@');
        if (at < 0) {
            throw new IllegalArgumentException("--source mysql://USER@HOST:PORT: the user is missing");
        }
        String user = authority.substring(0, at);
        if (user.indexOf(':') >= 0) {
            throw new IllegalArgumentException("--source mysql://USER:PASSWORD@... is refused: a password on the "
                    + "command line leaks (shell history, process list); give it in the environment variable "
                    + ApplyCommand.SOURCE_PASSWORD_ENV + " and write mysql://USER@HOST:PORT");
        }
        user = decode(user);
        if (user.isEmpty()) {
            throw new IllegalArgumentException("--source mysql://USER@HOST:PORT: the user is empty");
        }
        String hostPort = authority.substring(at + 1);
        if (hostPort.contains("/")) {
            throw new IllegalArgumentException("--source mysql://USER@HOST:PORT: no path (database) is expected, got "
                    + hostPort);
        }
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort;
        int port = 3306;
        if (colon >= 0 && colon > hostPort.lastIndexOf(']')) {
            host = hostPort.substring(0, colon);
            String portText = hostPort.substring(colon + 1);
            try {
                port = Integer.parseInt(portText);
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("--source mysql://USER@HOST:PORT: bad port " + portText);
            }
        }
        if (!HOST.matcher(host).matches()) {
            throw new IllegalArgumentException("--source mysql://USER@HOST:PORT: bad host '" + host + "'");
        }
        return new SourceUrl(user, host + ":" + port, start(query));
    }

    private static String start(String query) {
        String file = null;
        String pos = null;
        String gtid = null;
        for (String pair : query.isEmpty() ? new String[0] : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            switch (key) {
                case "file" -> file = value;
                case "pos" -> pos = value;
                case "gtid" -> gtid = value;
                default -> throw new IllegalArgumentException("--source mysql://...: unknown parameter '" + key
                        + "' (expected file=NAME&pos=N or gtid=SET)");
            }
        }
        if (gtid != null) {
            if (file != null || pos != null) {
                throw new IllegalArgumentException("--source mysql://...: give file=NAME&pos=N or gtid=SET, not both");
            }
            String set = gtid.replaceAll("\\s", "");
            if (set.isEmpty()) {
                throw new IllegalArgumentException("--source mysql://...: gtid= is empty (give a GTID set or position, "
                        + "or file=NAME&pos=4 to start at the beginning of a file)");
            }
            try {
                // checked here for a message that names the URL; StartPosition.parse tells the flavour by the same
                // rule (GtidSet.parse). A MySQL set may have tags (uuid:1-5:tag:1-3); a bad one names its offset
                GtidSet.parse(set);
                return StartPosition.GTID_PREFIX + set;
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--source mysql://...: the gtid= value: " + e.getMessage(), e);
            }
        }
        if (file == null && pos == null) {
            return null;
        }
        if (file == null || file.isEmpty() || pos == null) {
            throw new IllegalArgumentException("--source mysql://...: file=NAME and pos=N go together");
        }
        long position;
        try {
            position = Long.parseLong(pos);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--source mysql://...: pos must be a number, got " + pos);
        }
        if (position < 4 || position > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("--source mysql://...: pos must be within 4..4294967295, got " + pos);
        }
        return StartPosition.file(file, position).toString();
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--source mysql://...: bad %-escape in '" + s + "'");
        }
    }
}
