/**
 * Lanes' parallel apply engine: {@code io.lanes.core} (the {@code Engine}, its schedulers, the {@code Applier} and
 * {@code CheckpointStore} SPIs). It knows nothing of MySQL. {@code io.lanes.core.internal} is implementation and is not
 * exported.
 */
module io.lanes.core {
    requires org.slf4j;

    exports io.lanes.core;
}
