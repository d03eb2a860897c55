package io.lanes.examples.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which schemas transactions write together: schemas joined by any transaction form one group (union-find over the
 * schemas of each transaction). A Kafka topic partitioned by schema must keep each group in one partition, or a
 * transaction would be split (the Kafka Connect router's and source's {@code groups} option takes
 * {@link #asOption()}'s form). Not thread-safe.
 */
final class SchemaGroupFinder {
    private final Map<String, String> parent = new HashMap<>();

    /** Takes note of one transaction's schemas. */
    void add(Collection<String> schemas) {
        String first = null;
        for (String s : schemas) {
            parent.putIfAbsent(s, s);
            if (first == null) {
                first = s;
            } else {
                union(first, s);
            }
        }
    }

    private String find(String s) {
        String root = s;
        while (!parent.get(root).equals(root)) {
            root = parent.get(root);
        }
        while (!parent.get(s).equals(root)) {
            String next = parent.get(s);
            parent.put(s, root);
            s = next;
        }
        return root;
    }

    private void union(String a, String b) {
        String ra = find(a);
        String rb = find(b);
        if (!ra.equals(rb)) {
            parent.put(ra.compareTo(rb) < 0 ? rb : ra, ra.compareTo(rb) < 0 ? ra : rb);
        }
    }

    /** The groups, each sorted, ordered by their first schema. */
    List<List<String>> groups() {
        Map<String, TreeSet<String>> byRoot = new TreeMap<>();
        for (String s : parent.keySet()) {
            byRoot.computeIfAbsent(find(s), r -> new TreeSet<>()).add(s);
        }
        List<List<String>> out = new ArrayList<>();
        byRoot.values().stream().sorted((x, y) -> x.first().compareTo(y.first())).forEach(g -> out.add(List.copyOf(g)));
        return out;
    }

    /** The groups of more than one schema as {@code a,b;c,d} (single schemas are groups of their own anyway). */
    String asOption() {
        List<String> parts = new ArrayList<>();
        for (List<String> g : groups()) {
            if (g.size() > 1) {
                parts.add(String.join(",", g));
            }
        }
        return String.join(";", parts);
    }
}
