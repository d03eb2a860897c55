package io.lanes.applier.value;

/**
 * A JSON document as text (the decoder turns MySQL's binary JSON into this); written into JSON, JSONB and text columns.
 *
 * @param json the document, valid JSON
 */
public record JsonText(String json) {
    public JsonText {
        java.util.Objects.requireNonNull(json, "json");
    }
}
