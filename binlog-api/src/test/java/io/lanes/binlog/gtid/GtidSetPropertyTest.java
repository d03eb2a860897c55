package io.lanes.binlog.gtid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanes.binlog.replication.StartPosition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Laws of the GTID model, on random sets checked against a plain model (a set of GTIDs for MySQL, a map of domain to
 * sequence for MariaDB): print then parse gives the same set, {@code add} then {@code contains}, {@code containsAll}
 * agrees with the model's subset relation, a copy is independent, and {@link GtidSet#parse} tells the flavours apart.
 * Each try draws from a {@link Random} seeded by jqwik's {@code seed} parameter, so a failure names the seed that
 * replays it (jqwik also prints its own seed).
 */
class GtidSetPropertyTest {
    private static final UUID[] UUIDS = {
        UUID.fromString("3e11fa47-71ca-11e1-9e33-c80aa9429562"),
        UUID.fromString("00000000-0000-0000-0000-000000000001"),
        UUID.fromString("ffffffff-ffff-ffff-ffff-fffffffffffe"),
    };
    private static final String[] TAGS = {null, "a", "mytag", "z_9", "_x"};

    private static MySqlGtid randomMySql(Random r, int maxGno) {
        return new MySqlGtid(UUIDS[r.nextInt(UUIDS.length)], TAGS[r.nextInt(TAGS.length)], 1 + r.nextInt(maxGno));
    }

    /** A random set and its model: up to {@code n} GTIDs, clustered so that intervals form and merge. */
    private static MySqlGtidSet randomMySqlSet(Random r, int n, Set<MySqlGtid> model) {
        MySqlGtidSet set = new MySqlGtidSet();
        int count = r.nextInt(n + 1);
        for (int i = 0; i < count; i++) {
            MySqlGtid g = randomMySql(r, r.nextBoolean() ? 20 : 1_000_000);
            set.add(g);
            model.add(g);
        }
        return set;
    }

    @Property(tries = 400)
    void mySqlSetPrintsAndParsesBackAndAgreesWithItsModel(@ForAll long seed, @ForAll @IntRange(max = 200) int n) {
        Random r = new Random(seed);
        Set<MySqlGtid> model = new HashSet<>();
        MySqlGtidSet set = randomMySqlSet(r, n, model);
        String text = set.toString();
        MySqlGtidSet back = MySqlGtidSet.parse(text);
        assertEquals(set, back, "seed " + seed);
        assertEquals(text, back.toString(), "seed " + seed);
        if (!model.isEmpty()) {
            assertInstanceOf(MySqlGtidSet.class, GtidSet.parse(text), "seed " + seed);
            assertEquals(set, GtidSet.parse(text), "seed " + seed);
        }
        for (MySqlGtid g : model) {
            assertTrue(set.contains(g) && back.contains(g), g + " seed " + seed);
        }
        for (int i = 0; i < 200; i++) {
            MySqlGtid probe = randomMySql(r, 25);
            assertEquals(model.contains(probe), set.contains(probe), probe + " seed " + seed);
        }
        assertEquals(model.isEmpty(), set.isEmpty());
        assertFalse(set.contains(new MariaDbGtid(0, 1, 1)), "a MariaDB GTID is never in a MySQL set");
    }

    @Property(tries = 300)
    void mySqlContainsAllIsTheModelsSubsetRelation(@ForAll long seed) {
        Random r = new Random(seed);
        Set<MySqlGtid> ma = new HashSet<>();
        Set<MySqlGtid> mb = new HashSet<>();
        MySqlGtidSet a = randomMySqlSet(r, 40, ma);
        MySqlGtidSet b = randomMySqlSet(r, 10, mb);
        assertEquals(ma.containsAll(mb), a.containsAll(b), "seed " + seed + ": " + a + " vs " + b);
        // the union holds both; adding is idempotent; a copy is independent
        MySqlGtidSet union = a.copy();
        union.addAll(b);
        assertTrue(union.containsAll(a) && union.containsAll(b), "seed " + seed);
        String before = union.toString();
        mb.forEach(union::add);
        assertEquals(before, union.toString(), "seed " + seed);
        MySqlGtid extra = randomMySql(r, 2_000_000);
        boolean had = a.contains(extra);
        MySqlGtidSet copy = a.copy();
        copy.add(extra);
        assertTrue(copy.contains(extra));
        assertEquals(had, a.contains(extra), "the copy's add does not reach the original, seed " + seed);
        assertFalse(a.containsAll(new MariaDbGtidPosition()), "no MariaDB position is in a MySQL set");
    }

    @Property(tries = 400)
    void mariaDbPositionPrintsAndParsesBackAndAgreesWithItsModel(@ForAll long seed, @ForAll @IntRange(max = 50) int n) {
        Random r = new Random(seed);
        MariaDbGtidPosition p = new MariaDbGtidPosition();
        Map<Long, Long> model = new HashMap<>();
        for (int i = 0; i < n; i++) {
            long domain = r.nextBoolean() ? r.nextInt(4) : r.nextLong() & 0xFFFF_FFFFL;
            long server = r.nextLong() & 0xFFFF_FFFFL;
            long sequence = r.nextInt(3) == 0 ? r.nextLong() : 1 + r.nextInt(1000); // the full unsigned 64-bit range
            p.add(new MariaDbGtid(domain, server, sequence));
            model.put(domain, sequence);
        }
        String text = p.toString();
        MariaDbGtidPosition back = MariaDbGtidPosition.parse(text);
        assertEquals(p, back, "seed " + seed);
        assertEquals(text, back.toString(), "seed " + seed);
        if (!model.isEmpty()) {
            assertEquals(p, GtidSet.parse(text), "seed " + seed);
            assertEquals(p, GtidSet.parse(" " + text.replace(",", " ,\n")), "whitespace is ignored, seed " + seed);
        }
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            long last = e.getValue();
            assertTrue(p.contains(new MariaDbGtid(e.getKey(), 9, last)), "seed " + seed);
            assertEquals(last == -1L, p.contains(new MariaDbGtid(e.getKey(), 9, last + 1)), "seed " + seed);
            if (last != 0) {
                assertTrue(p.contains(new MariaDbGtid(e.getKey(), 9, last - 1)), "seed " + seed);
            }
        }
        assertFalse(p.contains(new MariaDbGtid(5_000_000_000L, 1, 1)), "a domain not in the position");
        MariaDbGtidPosition copy = p.copy();
        copy.add(new MariaDbGtid(7, 7, 7));
        assertTrue(copy.containsAll(p) || model.getOrDefault(7L, 0L) != 0, "seed " + seed);
        assertEquals(text, p.toString(), "the copy's add does not reach the original, seed " + seed);
    }

    @Property(tries = 200)
    void mariaDbContainsAllComparesEveryDomain(@ForAll long seed) {
        Random r = new Random(seed);
        MariaDbGtidPosition a = new MariaDbGtidPosition();
        MariaDbGtidPosition b = new MariaDbGtidPosition();
        for (int i = 0; i < 4; i++) {
            if (r.nextBoolean()) {
                a.add(new MariaDbGtid(i, 1, r.nextInt(5)));
            }
            if (r.nextBoolean()) {
                b.add(new MariaDbGtid(i, 2, 1 + r.nextInt(5)));
            }
        }
        boolean expected = true;
        for (MariaDbGtid want : b.gtids()) {
            expected &= a.sequence(want.domainId()) >= want.sequence();
        }
        assertEquals(expected, a.containsAll(b), "seed " + seed + ": " + a + " vs " + b);
        assertTrue(a.containsAll(a));
    }

    @Property(tries = 300)
    void positionsPrintOneFormAndParseBack(@ForAll long seed) {
        Random r = new Random(seed);
        String file = "bin" + (r.nextBoolean() ? "-x" : ":odd") + "." + String.format("%06d", r.nextInt(1_000_000));
        long offset = 4 + (r.nextLong() & 0xFFFF_FFFFL) % 0xFFFF_FFFBL;
        GtidSet gtids;
        if (r.nextBoolean()) {
            gtids = randomMySqlSet(r, 20, new HashSet<>());
        } else {
            MariaDbGtidPosition p = new MariaDbGtidPosition();
            for (int i = r.nextInt(4); i > 0; i--) {
                p.add(new MariaDbGtid(r.nextInt(10), r.nextInt(100), 1 + r.nextInt(10_000)));
            }
            gtids = p;
        }
        SourcePosition at = new SourcePosition(file, offset, gtids.toString());
        assertEquals(at, SourcePosition.parse(at.toString()), "seed " + seed);
        // a checkpoint resumes from its GTID state when it has one, else from its file and offset
        StartPosition resume = StartPosition.parse(at.toString());
        assertEquals(gtids.isEmpty() ? StartPosition.file(file, offset) : StartPosition.gtids(gtids), resume,
                "seed " + seed);
        assertEquals(resume, StartPosition.resumingAt(at), "seed " + seed);
        assertEquals(resume, StartPosition.parse(resume.toString()), "seed " + seed);
        if (!gtids.isEmpty()) {
            assertEquals(gtids, at.gtids(), "seed " + seed);
        }
        StartPosition.FilePosition f = StartPosition.file(file, offset);
        assertEquals(f.toString(), new SourcePosition(file, offset).toString(), "one text form for a file position");
        assertEquals(f, StartPosition.parse("file:" + file + ":" + offset), "the older start form still reads");
    }

    @Property(tries = 100)
    void mixingFlavoursIsRefused(@ForAll long seed) {
        Random r = new Random(seed);
        MySqlGtidSet mysql = new MySqlGtidSet();
        MariaDbGtidPosition maria = new MariaDbGtidPosition();
        MariaDbGtid m = new MariaDbGtid(r.nextInt(5), 1, 1 + r.nextInt(9));
        MySqlGtid g = randomMySql(r, 9);
        assertThrows(IllegalArgumentException.class, () -> mysql.add(m));
        assertThrows(IllegalArgumentException.class, () -> maria.add(g));
        assertTrue(mysql.isEmpty() && maria.isEmpty(), "nothing added");
        assertNotEquals((Object) mysql, maria);
    }

    /** Text that is neither flavour fails naming the offset; an empty text names no flavour. */
    @Property(tries = 1)
    void badTextsAreRefusedWithTheirOffset() {
        List<String> bad = new ArrayList<>(List.of("0-1", "0-1-x", "3e11fa47-71ca-11e1-9e33-c80aa9429562:0",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:5-2", "nonsense:1", "1-2-3,4"));
        for (String t : bad) {
            GtidSetFormatException e = assertThrows(GtidSetFormatException.class, () -> GtidSet.parse(t), t);
            assertTrue(e.offset() >= 0 && e.offset() <= t.length(), t + ": " + e.getMessage());
        }
        GtidSetFormatException e = assertThrows(GtidSetFormatException.class,
                () -> MariaDbGtidPosition.parse("0-1-5,0-x-6"));
        assertEquals(8, e.offset(), e.getMessage());
        assertThrows(GtidSetFormatException.class, () -> MariaDbGtidPosition.parse("4294967296-1-1"),
                "a domain id is 32 bits");
        assertEquals("0-1-18446744073709551615", MariaDbGtidPosition.parse("0-1-18446744073709551615").toString());
        assertThrows(GtidSetFormatException.class, () -> MariaDbGtidPosition.parse("0-1-18446744073709551616"));
        assertThrows(IllegalArgumentException.class, () -> GtidSet.parse(" \n"));
    }
}
