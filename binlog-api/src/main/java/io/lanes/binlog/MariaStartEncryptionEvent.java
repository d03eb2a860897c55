package io.lanes.binlog;

import io.lanes.binlog.internal.ByteArrayRecords;

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
        return ByteArrayRecords.equals(this, other);
    }

    @Override
    public int hashCode() {
        return ByteArrayRecords.hashCode(this);
    }
}
