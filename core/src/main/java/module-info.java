/**
 * Lanes' parallel apply engine: {@code io.lanes.core} (the {@code Engine}, its schedulers, the {@code Applier} and
 * {@code CheckpointStore} SPIs). It knows nothing of MySQL. {@code io.lanes.core.internal} is implementation and is not
 * exported.
 */
module io.lanes.core {
    requires org.slf4j;
    requires jdk.management; // the machine's processor load (ProcessorHeadroom)

    exports io.lanes.core;
}
