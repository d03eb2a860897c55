package io.lanes.binlog.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Objects;

/**
 * Value equality for records that hold byte arrays. A record's generated {@code equals} compares an array component by
 * identity, so the events that carry bytes override {@code equals} and {@code hashCode} with these two, which treat every
 * component as the generated ones would, except that byte arrays are compared and hashed by content. The hash is the one
 * the events wrote by hand before ({@code h = 31 * h + component hash}, from 1), so hashes did not change.
 *
 * <p>The components are read from the record's fields (no accessor, so no defensive copy); each record class's getters are
 * looked up once. Stateless apart from that cache; safe from any thread.
 */
public final class ByteArrayRecords {
    private static final ClassValue<MethodHandle[]> FIELDS = new ClassValue<>() {
        @Override
        protected MethodHandle[] computeValue(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents();
            MethodHandle[] getters = new MethodHandle[components.length];
            try {
                MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
                for (int i = 0; i < components.length; i++) {
                    getters[i] = lookup.findGetter(type, components[i].getName(), components[i].getType());
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read the components of " + type.getName(), e);
            }
            return getters;
        }
    };

    private ByteArrayRecords() {
    }

    /** Whether {@code other} is a record of {@code self}'s class with equal components, byte arrays by content. */
    public static boolean equals(Record self, Object other) {
        if (self == other) {
            return true;
        }
        if (other == null || other.getClass() != self.getClass()) {
            return false;
        }
        for (MethodHandle getter : FIELDS.get(self.getClass())) {
            Object a = get(getter, self);
            Object b = get(getter, other);
            boolean same = a instanceof byte[] x && b instanceof byte[] y ? Arrays.equals(x, y) : Objects.equals(a, b);
            if (!same) {
                return false;
            }
        }
        return true;
    }

    /** The hash of {@code self}'s components, byte arrays by content. */
    public static int hashCode(Record self) {
        int h = 1;
        for (MethodHandle getter : FIELDS.get(self.getClass())) {
            Object value = get(getter, self);
            h = 31 * h + (value instanceof byte[] bytes ? Arrays.hashCode(bytes) : Objects.hashCode(value));
        }
        return h;
    }

    private static Object get(MethodHandle getter, Object record) {
        try {
            return getter.invoke(record);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot read a component of " + record.getClass().getName(), e);
        }
    }
}
