package io.lanes.applier.campaign;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What one campaign seed runs under: the source server's logging settings and the workload's options, derived from the
 * seed by a rotation (so a run of consecutive seeds covers every combination) or given explicitly for a replay with
 * {@code -Dcampaign.settings=image=MINIMAL,metadata=FULL,...}. Immutable.
 *
 * @param rowImage binlog_row_image: FULL, MINIMAL or NOBLOB
 * @param rowMetadata binlog_row_metadata: MINIMAL (the server default) or FULL
 * @param compress log_bin_compress
 * @param statementStretches some transactions run with binlog_format=STATEMENT
 * @param zeroDates a permissive sql_mode and zero dates among the values
 * @param generated generated (VIRTUAL and STORED) columns in some tables
 */
record CampaignSettings(String rowImage, String rowMetadata, boolean compress, boolean statementStretches,
        boolean zeroDates, boolean generated) {
    private static final String[] IMAGES = {"FULL", "MINIMAL", "NOBLOB"};
    private static final String[] METADATA = {"MINIMAL", "FULL"};

    /**
     * The rotation: image cycles fastest, then metadata, then compression; statement-based stretches every 7th seed, zero
     * dates every 5th, generated columns every 4th (H2 and PostgreSQL refuse those seeds by policy, so most seeds leave
     * them out to keep every target comparable). Generated columns step through the 12 settings' cycles rather than
     * every 4th seed, which shared the factor 4 with the cycle of 12 and put them on 3 settings only (seeds 5001-7000:
     * H2 and PostgreSQL had 3 to 5 exact runs in each of those 3); now each setting has them in a quarter of its seeds.
     */
    static CampaignSettings forSeed(long seed) {
        long s = Math.floorMod(seed, 1_000_000_007L);
        return new CampaignSettings(IMAGES[(int) (s % 3)], METADATA[(int) ((s / 3) % 2)], (s / 6) % 2 == 1,
                s % 7 == 6, s % 5 == 4, (s % 12 + s / 12) % 4 == 3);
    }

    /** Parses {@code key=value,...} over the seed's rotation (keys: image, metadata, compress, sbr, zero, generated). */
    static CampaignSettings parse(String text, long seed) {
        CampaignSettings base = forSeed(seed);
        if (text == null || text.isBlank()) {
            return base;
        }
        Map<String, String> kv = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            String[] p = part.split("=", 2);
            if (p.length != 2) {
                throw new IllegalArgumentException("campaign.settings: expected key=value, got " + part);
            }
            kv.put(p[0].trim().toLowerCase(Locale.ROOT), p[1].trim());
        }
        String image = kv.getOrDefault("image", base.rowImage).toUpperCase(Locale.ROOT);
        String metadata = kv.getOrDefault("metadata", base.rowMetadata).toUpperCase(Locale.ROOT);
        boolean compress = bool(kv.getOrDefault("compress", base.compress ? "on" : "off"));
        boolean sbr = bool(kv.getOrDefault("sbr", base.statementStretches ? "on" : "off"));
        boolean zero = bool(kv.getOrDefault("zero", base.zeroDates ? "on" : "off"));
        boolean generated = bool(kv.getOrDefault("generated", base.generated ? "on" : "off"));
        return new CampaignSettings(image, metadata, compress, sbr, zero, generated);
    }

    private static boolean bool(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "on", "true", "1", "yes" -> true;
            case "off", "false", "0", "no" -> false;
            default -> throw new IllegalArgumentException("campaign.settings: on/off expected, got " + v);
        };
    }

    /** The form {@link #parse} reads. */
    String text() {
        return "image=" + rowImage + ",metadata=" + rowMetadata + ",compress=" + (compress ? "on" : "off") + ",sbr="
                + (statementStretches ? "on" : "off") + ",zero=" + (zeroDates ? "on" : "off") + ",generated="
                + (generated ? "on" : "off");
    }

    /** The settings that name a row of the results table (the server's logging settings). */
    String group() {
        return rowImage + "/" + rowMetadata + "/" + (compress ? "compressed" : "plain");
    }
}
