package io.lanes.applier.internal;

import java.util.Locale;

/**
 * The names by which properties and messages speak of a configuration enum's constants: the constant's name in lower case
 * with {@code -} for {@code _} ({@code AS_WRITTEN} is {@code as-written}). One rule, so that an enum does not spell out
 * each label again. Stateless; safe from any thread.
 */
public final class Labels {
    private Labels() {
    }

    /** The label of {@code constant}. */
    public static String of(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The constant whose label is {@code label} exactly, or {@code null}. */
    public static <E extends Enum<E>> E find(E[] constants, String label) {
        for (E e : constants) {
            if (of(e).equals(label)) {
                return e;
            }
        }
        return null;
    }
}
