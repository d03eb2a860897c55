package io.lanes.applier.ddl;

import io.lanes.applier.TableRef;
import java.util.List;
import java.util.Set;

/**
 * What a {@link DdlHandler} did with one statement. Immutable.
 *
 * @param executed the statements run on the target, in order (empty when skipped)
 * @param tables target tables the statement may have created, changed or dropped (their cached metadata is stale)
 * @param schemas target schemas created or dropped (every table of theirs is stale)
 * @param warnings what was dropped or approximated in translation
 * @param skipped true when filters excluded the statement or it had nothing to do on this target
 */
public record DdlResult(List<String> executed, Set<TableRef> tables, Set<String> schemas, List<String> warnings,
        boolean skipped) {
    public DdlResult {
        executed = List.copyOf(executed);
        tables = Set.copyOf(tables);
        schemas = Set.copyOf(schemas);
        warnings = List.copyOf(warnings);
    }

    public static DdlResult skipped(String why) {
        return new DdlResult(List.of(), Set.of(), Set.of(), List.of(why), true);
    }
}
