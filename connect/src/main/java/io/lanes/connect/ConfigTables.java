package io.lanes.connect;

import org.apache.kafka.common.config.ConfigDef;

/** Markdown reference tables of the connectors' options, generated from their {@link ConfigDef}s (docs/kafka-connect.md). */
public final class ConfigTables {
    private ConfigTables() {
    }

    /** One table: option, type, default, valid values, importance, description. */
    public static String markdown(ConfigDef def) {
        StringBuilder sb = new StringBuilder("| Option | Type | Default | Valid values | Importance | Description |\n")
                .append("|---|---|---|---|---|---|\n");
        for (ConfigDef.ConfigKey k : def.configKeys().values()) {
            String dflt = !k.hasDefault() ? "(required)" : k.defaultValue == null ? "null"
                    : k.type == ConfigDef.Type.PASSWORD ? "\"\"" : "`" + ConfigDef.convertToString(k.defaultValue, k.type) + "`";
            if ("``".equals(dflt)) {
                dflt = "\"\"";
            }
            sb.append("| `").append(k.name).append("` | ").append(k.type.toString().toLowerCase(java.util.Locale.ROOT))
                    .append(" | ").append(dflt).append(" | ").append(k.validator == null ? "" : k.validator.toString().replace("|", "\\|"))
                    .append(" | ").append(k.importance.toString().toLowerCase(java.util.Locale.ROOT)).append(" | ")
                    .append(k.documentation.replace("|", "\\|")).append(" |\n");
        }
        return sb.toString();
    }
}
