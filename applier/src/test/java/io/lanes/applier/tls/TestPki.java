package io.lanes.applier.tls;

import io.lanes.binlog.testing.MariaDbServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Certificates made at test time with the {@code openssl} command line tool, in a directory of their own: a CA, a server
 * certificate it signed for {@code 127.0.0.1} and {@code localhost}, a second certificate it signed for a host name that is
 * neither (for the identity check), and an unrelated CA. EC P-256 keys (fast to make), valid for two days.
 *
 * <p>Nothing here is a secret worth keeping: the keys live and die with the test's temporary directory.
 */
record TestPki(Path dir, Path ca, Path otherCa, Path serverCert, Path serverKey, Path wrongNameCert, Path wrongNameKey) {
    /** The name in {@link #wrongNameCert}: a reserved top-level domain, never the host a test connects to. */
    static final String WRONG_NAME = "db.elsewhere.invalid";

    /** {@code openssl} on PATH or in the usual places; empty when absent. */
    static Optional<String> openssl() {
        return MariaDbServer.find("openssl", "/usr/bin/openssl", "/usr/local/bin/openssl");
    }

    /** Makes every certificate in a fresh temporary directory. */
    static TestPki create(String openssl) throws IOException {
        Path dir = Files.createTempDirectory("lanes-tls-pki-");
        Path ca = dir.resolve("ca.pem");
        Path caKey = dir.resolve("ca.key");
        Path other = dir.resolve("other-ca.pem");
        selfSignedCa(openssl, dir, "Lanes Test CA", ca, caKey);
        selfSignedCa(openssl, dir, "Unrelated Test CA", other, dir.resolve("other-ca.key"));
        Path cert = dir.resolve("server.pem");
        Path key = dir.resolve("server.key");
        signedServer(openssl, dir, "localhost", "IP:127.0.0.1,DNS:localhost", ca, caKey, cert, key, 2);
        Path wrongCert = dir.resolve("wrong-name.pem");
        Path wrongKey = dir.resolve("wrong-name.key");
        signedServer(openssl, dir, WRONG_NAME, "DNS:" + WRONG_NAME, ca, caKey, wrongCert, wrongKey, 3);
        return new TestPki(dir, ca, other, cert, key, wrongCert, wrongKey);
    }

    private static void selfSignedCa(String openssl, Path dir, String name, Path cert, Path key) {
        run(dir, openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=" + name,
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    }

    private static void signedServer(String openssl, Path dir, String commonName, String altNames, Path ca, Path caKey,
            Path cert, Path key, int serial) {
        Path csr = dir.resolve(cert.getFileName() + ".csr");
        Path ext = dir.resolve(cert.getFileName() + ".ext");
        try {
            Files.writeString(ext, "subjectAltName=" + altNames + "\n" + "basicConstraints=critical,CA:FALSE\n"
                    + "keyUsage=critical,digitalSignature,keyEncipherment\n" + "extendedKeyUsage=serverAuth\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        run(dir, openssl, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key.toString(), "-out", csr.toString(), "-subj", "/CN=" + commonName);
        run(dir, openssl, "x509", "-req", "-in", csr.toString(), "-CA", ca.toString(), "-CAkey", caKey.toString(),
                "-set_serial", Integer.toString(serial), "-days", "2", "-extfile", ext.toString(), "-out", cert.toString());
    }

    /** Runs a command to its end; its output is read whole (it is small) and shown only when it fails. */
    static String run(Path dir, String... command) {
        List<String> cmd = new ArrayList<>(List.of(command));
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out after 120 s: " + String.join(" ", cmd));
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " exited with " + p.exitValue() + ": " + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    void delete() {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // best effort: a temporary directory left behind is not a test failure
        }
    }
}
