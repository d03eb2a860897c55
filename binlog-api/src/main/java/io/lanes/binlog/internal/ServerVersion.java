package io.lanes.binlog.internal;

import java.util.Locale;

/**
 * Splits a server version string into (major, minor, patch) the way the server does ({@code do_server_version_split}):
 * leading digits of up to three dot-separated parts; anything unparsable gives 0.0.0.
 */
public final class ServerVersion {
    private ServerVersion() {
    }

    public static int[] split(String version) {
        int[] out = new int[3];
        int i = 0;
        for (int part = 0; part < 3; part++) {
            int start = i;
            long v = 0;
            while (i < version.length() && Character.isDigit(version.charAt(i)) && i - start < 6) {
                v = v * 10 + (version.charAt(i) - '0');
                i++;
            }
            if (i == start || v > 255) {
                return new int[3];
            }
            out[part] = (int) v;
            if (part < 2) {
                if (i >= version.length() || version.charAt(i) != '.') {
                    return part == 0 ? new int[3] : out;
                }
                i++;
            }
        }
        return out;
    }

    public static boolean isMariaDb(String version) {
        return version.toLowerCase(Locale.ROOT).contains("mariadb");
    }

    /**
     * Whether a FORMAT_DESCRIPTION event written by this server carries the checksum algorithm byte: MySQL 5.6.1 and
     * later, MariaDB 5.3.0 and later (the servers' {@code checksum_version_split}).
     */
    public static boolean hasChecksumAlgorithm(String version) {
        int[] v = split(version);
        int[] min = isMariaDb(version) ? new int[] {5, 3, 0} : new int[] {5, 6, 1};
        for (int i = 0; i < 3; i++) {
            if (v[i] != min[i]) {
                return v[i] > min[i];
            }
        }
        return true;
    }
}
