package io.lanes.binlog.internal;

/**
 * Post-header lengths for event types a FORMAT_DESCRIPTION event does not cover (events before the first one, such as a
 * replication stream's artificial ROTATE, and START_V3 logs), as MySQL 5.x-9.x and MariaDB write them.
 */
public final class PostHeaders {
    private static final byte[] DEFAULT_V4 = new byte[171];

    static {
        int[][] pairs = {
            {1, 56}, {2, 13}, {4, 8}, {6, 18}, {8, 4}, {9, 4}, {10, 4}, {11, 4}, {12, 18}, {15, 84}, {17, 4}, {18, 26},
            {19, 8}, {20, 8}, {21, 8}, {22, 8}, {23, 8}, {24, 8}, {25, 8}, {26, 2}, {30, 10}, {31, 10}, {32, 10},
            {33, 42}, {34, 42}, {36, 18}, {37, 52}, {39, 10}, {161, 4}, {162, 19}, {163, 4}, {165, 13}, {166, 8},
            {167, 8}, {168, 8}, {169, 10}, {170, 10}, {171, 10},
        };
        for (int[] p : pairs) {
            DEFAULT_V4[p[0] - 1] = (byte) p[1];
        }
    }

    private PostHeaders() {
    }

    /** The post-header lengths of a default v4 log, indexed by {@code type - 1} (a copy). */
    public static byte[] defaultV4() {
        return DEFAULT_V4.clone();
    }

    /** Binlog format v3 (MySQL 4.x): QUERY without status variables. */
    public static byte[] v3() {
        byte[] b = new byte[14];
        b[0] = 56;
        b[1] = 11;
        b[3] = 8;
        b[5] = 18;
        b[7] = 4;
        b[8] = 4;
        b[9] = 4;
        b[10] = 4;
        b[11] = 18;
        return b;
    }

    public static int defaultLength(int typeCode) {
        return typeCode >= 1 && typeCode <= DEFAULT_V4.length ? DEFAULT_V4[typeCode - 1] & 0xff : 0;
    }
}
