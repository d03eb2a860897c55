package io.lanes.binlog;

/**
 * MariaDB START_ENCRYPTION (164): every later event in this file is encrypted. This library reads no keys, so decoding stops
 * with a {@link BinlogFormatException} at the next event.
 */
public record MariaStartEncryptionEvent(EventHeader header, int scheme, long keyVersion, byte[] nonce)
        implements BinlogEvent {
    public MariaStartEncryptionEvent {
        nonce = nonce.clone();
    }

    @Override
    public byte[] nonce() {
        return nonce.clone();
    }


    /** Value equality, byte arrays compared by content. */
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof MariaStartEncryptionEvent o)) {
            return false;
        }
        return java.util.Objects.equals(header, o.header)
                && scheme == o.scheme
                && keyVersion == o.keyVersion
                && java.util.Arrays.equals(nonce, o.nonce);
    }

    @Override
    public int hashCode() {
        int h = 1;
        h = 31 * h + java.util.Objects.hashCode(header);
        h = 31 * h + Integer.hashCode(scheme);
        h = 31 * h + Long.hashCode(keyVersion);
        h = 31 * h + java.util.Arrays.hashCode(nonce);
        return h;
    }
}
