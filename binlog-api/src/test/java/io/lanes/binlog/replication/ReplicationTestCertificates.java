package io.lanes.binlog.replication;

import io.lanes.binlog.testing.MariaDbServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A throwaway CA and server certificates made with the openssl command line, for the TLS tests. */
final class ReplicationTestCertificates {
    final Path dir;
    final Path caCert;
    final Path caKey;

    private ReplicationTestCertificates(Path dir) {
        this.dir = dir;
        this.caCert = dir.resolve("ca.pem");
        this.caKey = dir.resolve("ca-key.pem");
    }

    /** A new CA in {@code dir}. */
    static ReplicationTestCertificates newCa(Path dir, String name) throws IOException, InterruptedException {
        ReplicationTestCertificates c = new ReplicationTestCertificates(dir);
        openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", c.caKey.toString(), "-out",
                c.caCert.toString(), "-days", "2", "-subj", "/CN=" + name);
        return c;
    }

    /** A server certificate signed by this CA, for the given subjectAltName (e.g. {@code IP:127.0.0.1}). */
    Path[] serverCertificate(String name, String subjectAltName) throws IOException, InterruptedException {
        Path key = dir.resolve(name + "-key.pem");
        Path csr = dir.resolve(name + ".csr");
        Path cert = dir.resolve(name + ".pem");
        Path ext = dir.resolve(name + ".ext");
        Files.writeString(ext, "subjectAltName=" + subjectAltName + "\n");
        openssl(dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key.toString(), "-out", csr.toString(),
                "-subj", "/CN=" + name);
        openssl(dir, "x509", "-req", "-in", csr.toString(), "-CA", caCert.toString(), "-CAkey", caKey.toString(),
                "-CAcreateserial", "-out", cert.toString(), "-days", "2", "-extfile", ext.toString());
        return new Path[] {cert, key};
    }

    private static void openssl(Path dir, String... args) throws IOException, InterruptedException {
        String bin = MariaDbServer.find("openssl", "/usr/bin/openssl").orElseThrow(
                () -> new IllegalStateException("openssl not found: install the openssl package"));
        List<String> cmd = new ArrayList<>();
        cmd.add(bin);
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: "
                    + new String(out, StandardCharsets.UTF_8));
        }
    }
}
