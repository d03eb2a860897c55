package io.lanes.binlog;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the whole decoder with Jazzer: the input, after the binlog magic, is read through every
 * decoding path ({@link FuzzHarness#consume}) with checksum verification on and off; only
 * {@link BinlogFormatException} may come out.
 *
 * <p>Under plain {@code mvn test} Jazzer runs in regression mode: only the seeds in
 * {@code src/test/resources/io/lanes/binlog/FuzzDecoderTestInputs/decodeAnything/} (small real logs) and any crash
 * reproducers there. With {@code JAZZER_FUZZ=1} it fuzzes for {@code maxDuration}; see docs/fuzzing.md.
 */
class FuzzDecoderTest {
    private static final byte[] MAGIC = {(byte) 0xfe, 0x62, 0x69, 0x6e};

    @FuzzTest(maxDuration = "30s")
    void decodeAnything(byte[] data) {
        byte[] input = new byte[data.length + 4];
        System.arraycopy(MAGIC, 0, input, 0, 4);
        System.arraycopy(data, 0, input, 4, data.length);
        FuzzHarness.consume(input, false);
        FuzzHarness.consume(input, true);
    }
}
