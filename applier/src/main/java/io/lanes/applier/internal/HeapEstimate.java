package io.lanes.applier.internal;

import io.lanes.applier.RowChange;
import io.lanes.applier.RowImage;

/**
 * About the heap converted rows take, with 64-bit references compressed (the JVM's default below 32 GiB of heap): for
 * the queue budget and for how many of a large transaction's rows a worker holds before executing them. An estimate,
 * not an account. Stateless; any thread.
 */
public final class HeapEstimate {
    private HeapEstimate() {
    }

    /** A row change: the change and its images. */
    public static long of(RowChange row) {
        return 24 + of(row.before()) + of(row.after());
    }

    /** A row image: the image, its values array and its column list, and each value; 0 for null. */
    public static long of(RowImage image) {
        if (image == null) {
            return 0;
        }
        Object[] values = image.values();
        long bytes = 64 + 8L * values.length;
        for (Object v : values) {
            if (v == null || v instanceof Boolean) {
                continue;
            }
            if (v instanceof String text) {
                bytes += 40 + text.length();
            } else if (v instanceof byte[] raw) {
                bytes += 16 + raw.length;
            } else if (v instanceof Integer || v instanceof Short || v instanceof Byte || v instanceof Float) {
                bytes += 16;
            } else if (v instanceof Long || v instanceof Double) {
                bytes += 24;
            } else {
                bytes += 64; // decimals, big integers, temporal values, JSON, ENUM/SET values
            }
        }
        return bytes;
    }
}
