package io.lanes.applier;

import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.gtid.Gtid;
import io.lanes.binlog.gtid.MariaDbGtid;
import io.lanes.binlog.gtid.MySqlGtid;
import io.lanes.binlog.gtid.MariaDbGtidPosition;
import io.lanes.binlog.gtid.MySqlGtidSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Refuses binlog input that goes backwards or repeats, before any of it is applied: a transaction applied twice is
 * wrong data (an {@code UPDATE k = k + 1} logged as a statement counts twice), and a checkpoint that goes backwards
 * makes the target unresumable. Binlog files are a server's history in order; Lanes applies them as such.
 *
 * <ul>
 *   <li>Before reading ({@link #checkFiles}): no file may be given twice (the same file, or two files of the same name:
 *       binlog names are unique per server), and numbered files of one base name ({@code bin.000007}) must come in
 *       increasing order.
 *   <li>At each transaction, before it is handed over ({@link #check}): its end position must lie after the previous
 *       one's (a later offset in the same file, or a file not read before); a MariaDB GTID must be after the last one of
 *       its domain (MariaDB numbers each domain's transactions in increasing order; with gtid_strict_mode=OFF a server
 *       can log a lower one, which Lanes's per-domain GTID position cannot represent either); a MySQL GTID must not
 *       have been seen before (MySQL logs each GTID once; a replica may log them out of order, which is accepted).
 * </ul>
 *
 * <p>Not thread-safe: used by the reading thread.
 */
final class SourceOrderGuard {
    private String lastFile;
    private long lastOffset = -1;
    /** Where the last transaction checked ended, which a refusal names. */
    private End last;
    private final Set<String> filesDone = new HashSet<>();
    private final MariaDbGtidPosition mariaDomains = new MariaDbGtidPosition();
    /** Per MariaDB domain, where the transaction that carried its last GTID ended. */
    private final Map<Long, End> mariaLast = new HashMap<>();
    /** The last file name read and its base name: every transaction of a file names the same file. */
    private String baseOf;
    private String base;
    private final MySqlGtidSet mysql = new MySqlGtidSet();

    /**
     * Refuses a file list that repeats a file or lists numbered files of one base name out of order.
     *
     * @throws IllegalArgumentException naming both files
     */
    static void checkFiles(List<Path> files) {
        Map<String, Integer> byName = new HashMap<>();
        Map<Object, Integer> byIdentity = new HashMap<>();
        for (int i = 0; i < files.size(); i++) {
            Path f = files.get(i);
            String name = FileSource.baseName(f.toString());
            Integer seen = byName.put(name, i);
            Object identity = identity(f);
            Integer same = identity == null ? null : byIdentity.put(identity, i);
            Integer earlier = same != null ? same : seen;
            if (earlier != null) {
                throw new IllegalArgumentException("source file " + f + " (number " + (i + 1) + ") repeats "
                        + files.get(earlier) + " (number " + (earlier + 1) + "): the same transactions would be applied "
                        + "twice; give each binlog file once, in order");
            }
        }
        for (int i = 1; i < files.size(); i++) {
            String a = FileSource.baseName(files.get(i - 1).toString());
            String b = FileSource.baseName(files.get(i).toString());
            if (sameSeries(a, b) && io.lanes.binlog.gtid.SourcePosition.compareBinlogFiles(b, a) < 0) {
                throw new IllegalArgumentException("source file " + files.get(i) + " comes after " + files.get(i - 1)
                        + " but is an earlier file of the same server (binlog files are numbered in the order they "
                        + "were written): give them in increasing order");
            }
        }
    }

    /**
     * Checks the next transaction read, before it is passed over or handed to the engine. Nothing is formatted unless
     * it is refused (this runs for every transaction, on the reading thread that bounds a file's apply rate).
     *
     * @throws LanesException naming this transaction's position and the one it does not come after
     */
    void check(BinlogTransaction t) {
        String endFile = t.endFile();
        if (endFile != baseOf) {
            baseOf = endFile;
            base = FileSource.baseName(endFile);
        }
        String file = base;
        long offset = t.endPosition();
        End end = new End(file, offset, t.gtid());
        if (lastFile != null) {
            boolean backwards = file.equals(lastFile) ? offset <= lastOffset
                    : filesDone.contains(file) || sameSeries(lastFile, file)
                            && io.lanes.binlog.gtid.SourcePosition.compareBinlogFiles(file, lastFile) < 0;
            if (backwards) {
                String positionText = end.toString();
                throw refused("the transaction ending at " + positionText + " does not come after the one ending at "
                        + last + ": the input goes backwards or repeats (the same file given twice, or files "
                        + "out of order?)", positionText);
            }
            if (!file.equals(lastFile)) {
                filesDone.add(lastFile);
            }
        }
        Gtid gtid = t.gtid();
        if (gtid instanceof MariaDbGtid m) {
            MariaDbGtid before = mariaDomains.get(m.domainId());
            if (mariaDomains.contains(m)) {
                String positionText = end.toString();
                throw refused("GTID " + m + " of the transaction ending at " + positionText + " does not come after "
                        + before + " (ending at " + mariaLast.get(m.domainId()) + ") in domain " + m.domainId()
                        + ": the input repeats or goes backwards (the same transactions twice, files out of order, or "
                        + "a source that ran with gtid_strict_mode=OFF)", positionText);
            }
            mariaDomains.add(m);
            mariaLast.put(m.domainId(), end);
        } else if (gtid instanceof MySqlGtid g) {
            if (mysql.contains(g)) {
                String positionText = end.toString();
                throw refused("GTID " + g + " of the transaction ending at " + positionText + " was read before, in an "
                        + "earlier transaction of this input: the input repeats (the same file twice?)", positionText);
            }
            mysql.add(g);
        }
        lastFile = file;
        lastOffset = offset;
        last = end;
    }

    /** Where a transaction ended (its file's base name), kept unformatted; {@link #toString} as messages name it. */
    private record End(String file, long offset, Gtid gtid) {
        @Override
        public String toString() {
            return file + ":" + offset + (gtid == null ? "" : " (GTID " + gtid + ")");
        }
    }

    private static LanesException refused(String message, String position) {
        return new LanesException(message + "; nothing from this transaction on was applied", position, null);
    }

    /** Whether two binlog names are of one numbered series ({@code bin.000001}, {@code bin.000002}). */
    private static boolean sameSeries(String a, String b) {
        int da = a.lastIndexOf('.');
        int db = b.lastIndexOf('.');
        return da > 0 && db > 0 && a.substring(0, da).equals(b.substring(0, db)) && numeric(a.substring(da + 1))
                && numeric(b.substring(db + 1));
    }

    private static boolean numeric(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The file's identity on disk (device and inode where the file system has them), or null. */
    private static Object identity(Path f) {
        try {
            Object key = Files.readAttributes(f, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            return key != null ? key : f.toRealPath();
        } catch (IOException e) {
            return null;
        }
    }
}
