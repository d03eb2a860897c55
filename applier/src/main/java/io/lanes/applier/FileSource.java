package io.lanes.applier;

import io.lanes.binlog.BinlogEvent;
import io.lanes.binlog.BinlogReader;
import io.lanes.binlog.BinlogReaderOptions;
import io.lanes.binlog.BinlogTransaction;
import io.lanes.binlog.MariaGtidListEvent;
import io.lanes.binlog.PreviousGtidsEvent;
import io.lanes.binlog.TransactionAssembler;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Binlog files read from their beginning, in the order given (plain or gzip): the input's transactions, the GTID state
 * before each file (its PREVIOUS_GTIDS or GTID_LIST event, outside any transaction), and its size for progress. Files
 * that repeat or go backwards are refused ({@link SourceOrderGuard}) before a transaction of theirs is handed over.
 * Caught up once every transaction of the files is committed.
 *
 * <p>Threads: as {@link Source}.
 */
final class FileSource implements Source {
    private final List<Path> files;
    private final BinlogReaderOptions options;

    FileSource(List<Path> files, BinlogReaderOptions options) {
        this.files = List.copyOf(files);
        this.options = options;
    }

    @Override
    public boolean live() {
        return false;
    }

    @Override
    public void run(Pipeline pipeline) throws Exception {
        Map<String, Long> fileBase = new HashMap<>();
        long total = 0;
        boolean totalKnown = true;
        for (Path f : files) {
            fileBase.put(f.toString(), total);
            long size = inputSize(f);
            if (size < 0) {
                totalKnown = false;
            } else {
                total += size;
            }
        }
        long sourceBytesTotal = totalKnown ? total : -1;
        pipeline.sourceBytes(0, sourceBytesTotal);
        ResumeCursor resume = pipeline.resume();
        BinlogBridge bridge = pipeline.bridge();
        // The events themselves rather than a TransactionReader: the PREVIOUS_GTIDS event (MySQL) or GTID_LIST event
        // (MariaDB) at the start of each file, outside any transaction, gives the GTID state the server's history before
        // the file.
        TransactionAssembler assembler = new TransactionAssembler(options);
        SourceOrderGuard order = new SourceOrderGuard();
        try (BinlogReader in = BinlogReader.open(files, options)) {
            BinlogEvent event;
            while (!pipeline.stopRequested() && (event = in.next()) != null) {
                if (event instanceof PreviousGtidsEvent p) {
                    resume.sourceHistory(p.gtidSet().isBlank());
                    bridge.previousGtids(p);
                } else if (event instanceof MariaGtidListEvent l) {
                    resume.sourceHistory(l.gtids().isEmpty());
                    bridge.mariaGtidList(l);
                }
                assembler.accept(event, in.currentSource());
                for (BinlogTransaction t; !pipeline.stopRequested() && (t = assembler.poll()) != null; ) {
                    Long base = fileBase.get(t.endFile());
                    if (base != null) {
                        pipeline.sourceBytesRead(base + t.endPosition());
                    }
                    order.check(t);
                    if (!pipeline.offer(t)) {
                        return;
                    }
                }
            }
            assembler.discardOpen();
        }
        if (pipeline.stopRequested()) {
            return;
        }
        pipeline.requireResumePointReached();
        if (sourceBytesTotal >= 0) {
            pipeline.sourceBytesRead(sourceBytesTotal);
        }
        pipeline.inputEnded();
    }

    /** A file's name without its directory, as positions name it. */
    static String baseName(String file) {
        int slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
        return slash < 0 ? file : file.substring(slash + 1);
    }

    /** Decompressed size of a binlog file: its size, or for gzip the trailer's ISIZE (mod 2^32); -1 when unreadable. */
    static long inputSize(Path file) {
        try {
            long size = Files.size(file);
            byte[] head = new byte[2];
            try (InputStream in = Files.newInputStream(file)) {
                if (in.readNBytes(head, 0, 2) < 2) {
                    return size;
                }
            }
            if ((head[0] & 0xff) != 0x1f || (head[1] & 0xff) != 0x8b || size < 18) {
                return size;
            }
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                raf.seek(size - 4);
                byte[] t = new byte[4];
                raf.readFully(t);
                return (t[0] & 0xffL) | (t[1] & 0xffL) << 8 | (t[2] & 0xffL) << 16 | (t[3] & 0xffL) << 24;
            }
        } catch (IOException e) {
            return -1;
        }
    }
}
