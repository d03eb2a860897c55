package io.lanes.applier.value;

/**
 * A MySQL BIT(width) value.
 *
 * @param bits the value, right-aligned (bit 0 is the last bit of the column)
 * @param width the column width, 1..64
 */
public record BitValue(long bits, int width) {
    public BitValue {
        if (width < 1 || width > 64) {
            throw new IllegalArgumentException("BIT width " + width + " outside 1..64");
        }
        if (width < 64 && (bits >>> width) != 0) {
            throw new IllegalArgumentException("BIT(" + width + ") value has bits above its width: " + Long.toBinaryString(bits));
        }
    }

    /** The bits as a string of {@code width} 0/1 characters, most significant first. */
    public String bitString() {
        StringBuilder sb = new StringBuilder(width);
        for (int i = width - 1; i >= 0; i--) {
            sb.append((bits >>> i & 1) == 1 ? '1' : '0');
        }
        return sb.toString();
    }

    /** The bits as {@code ceil(width / 8)} big-endian bytes, as MySQL stores them. */
    public byte[] bytes() {
        int n = (width + 7) / 8;
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[n - 1 - i] = (byte) (bits >>> (8 * i));
        }
        return out;
    }
}
