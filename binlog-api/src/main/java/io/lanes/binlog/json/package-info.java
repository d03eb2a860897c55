/**
 * MySQL's JSON as it appears in binary logs: {@link io.lanes.binlog.json.JsonBinary} turns the binary JSON of JSON
 * columns into the server's JSON text, and {@link io.lanes.binlog.json.JsonDiff} reads the partial updates of
 * PARTIAL_UPDATE_ROWS events ({@code binlog_row_value_options=PARTIAL_JSON}) and applies them to a before-image.
 * Everything here is stateless and thread-safe.
 */
package io.lanes.binlog.json;
