package io.lanes.applier.jdbc;

import io.lanes.applier.value.ZeroDatePolicy;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * How values are converted for the target. Immutable.
 *
 * @param zeroDates what a MySQL zero date becomes; default {@link ZeroDatePolicy#TO_NULL}
 * @param textCharset the charset of {@code byte[]} values written into text columns when the source column's charset is
 *     not known; default UTF-8
 */
public record ConversionOptions(ZeroDatePolicy zeroDates, Charset textCharset) {
    public static final ConversionOptions DEFAULTS = new ConversionOptions(ZeroDatePolicy.TO_NULL, StandardCharsets.UTF_8);

    public ConversionOptions {
        Objects.requireNonNull(zeroDates, "zeroDates");
        Objects.requireNonNull(textCharset, "textCharset");
    }

    public ConversionOptions withZeroDates(ZeroDatePolicy policy) {
        return new ConversionOptions(policy, textCharset);
    }
}
