package io.lanes.applier.jdbc;

import io.lanes.applier.internal.Labels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * TLS to a JDBC target, in one vocabulary for every driver: a {@link Mode} and an optional CA certificate (PEM). With a
 * CA and no mode, the mode is {@link Mode#VERIFY_IDENTITY}: verification is on by default once a certificate is
 * configured. Without either, nothing is set and the URL's own parameters (or the driver's defaults) decide.
 *
 * <p>Mapped onto the drivers' properties by {@link #connectionProperties}: PostgreSQL (pgjdbc) {@code sslmode} and
 * {@code sslrootcert}; MariaDB Connector/J 3 {@code sslMode} and {@code serverSslCert}. The MariaDB driver cannot fall
 * back to plain text, so {@link Mode#PREFERRED} is refused for it; MySQL Connector/J ({@code jdbc:mysql:}) takes
 * {@code sslMode} but reads CAs only from a key store, so a CA is refused there; H2 chooses TLS in its URL
 * ({@code jdbc:h2:ssl://}), so any mode but {@link Mode#DISABLED} is refused for it. Immutable.
 *
 * @param mode the mode, or null for "not configured"
 * @param caCertificate a PEM file of the CA(s) that signed the server's certificate, or null
 */
public record TargetTls(Mode mode, Path caCertificate) {
    /** The TLS modes, by the names properties use (those of MySQL's {@code --ssl-mode}). */
    public enum Mode {
        /** Plain text. */
        DISABLED,
        /** TLS when the server offers it, plain text otherwise; the certificate is not verified. */
        PREFERRED,
        /** TLS or no connection; the certificate is not verified (encryption without authentication). */
        REQUIRED,
        /** TLS, and the server's certificate must be signed by the configured CA. */
        VERIFY_CA,
        /** As {@link #VERIFY_CA}, and the certificate must name the host connected to. */
        VERIFY_IDENTITY;

        /** The name properties use: {@code disabled}, {@code verify-ca} and so on. */
        public String label() {
            return Labels.of(this);
        }

        /** @throws IllegalArgumentException listing the valid names */
        public static Mode parse(String name) {
            Mode m = Labels.find(values(), name.trim().toLowerCase(Locale.ROOT).replace('_', '-'));
            if (m != null) {
                return m;
            }
            throw new IllegalArgumentException("unknown TLS mode '" + name + "'; expected one of disabled, preferred, "
                    + "required, verify-ca, verify-identity");
        }
    }

    /** No TLS settings: the URL and the driver decide. */
    public static final TargetTls NONE = new TargetTls(null, null);

    /** The mode in effect: the configured one, else verify-identity with a CA, else null (not configured). */
    public Mode effectiveMode() {
        return mode != null ? mode : caCertificate != null ? Mode.VERIFY_IDENTITY : null;
    }

    /**
     * The driver properties for this setting.
     *
     * @param jdbcUrl the target's URL (it tells the driver)
     * @throws IllegalArgumentException when the driver cannot do what is configured, or the CA file is not readable
     */
    public Map<String, String> connectionProperties(String jdbcUrl) {
        Map<String, String> p = new LinkedHashMap<>();
        Mode m = effectiveMode();
        if (m == null) {
            return p;
        }
        if ((m == Mode.VERIFY_CA || m == Mode.VERIFY_IDENTITY) && caCertificate == null && !jdbcUrl.startsWith("jdbc:mysql:")) {
            throw new IllegalArgumentException("TLS mode " + m.label() + " needs a CA certificate (lanes.target.tls-ca)");
        }
        if (caCertificate != null && !Files.isReadable(caCertificate)) {
            throw new IllegalArgumentException("the TLS CA certificate " + caCertificate + " does not exist or is not readable");
        }
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            p.put("ssl", m == Mode.DISABLED ? "false" : "true");
            p.put("sslmode", switch (m) {
                case DISABLED -> "disable";
                case PREFERRED -> "prefer";
                case REQUIRED -> "require";
                case VERIFY_CA -> "verify-ca";
                case VERIFY_IDENTITY -> "verify-full";
            });
            if (caCertificate != null) {
                p.put("sslrootcert", caCertificate.toAbsolutePath().toString());
            }
        } else if (jdbcUrl.startsWith("jdbc:mariadb:")) {
            p.put("sslMode", switch (m) {
                case DISABLED -> "disable";
                case PREFERRED -> throw new IllegalArgumentException("TLS mode preferred: the MariaDB driver cannot fall "
                        + "back to plain text; use required (or disabled)");
                case REQUIRED -> "trust";
                case VERIFY_CA -> "verify-ca";
                case VERIFY_IDENTITY -> "verify-full";
            });
            if (caCertificate != null) {
                p.put("serverSslCert", caCertificate.toAbsolutePath().toString());
            }
        } else if (jdbcUrl.startsWith("jdbc:mysql:")) {
            if (caCertificate != null) {
                throw new IllegalArgumentException("a TLS CA certificate file is not supported with MySQL Connector/J "
                        + "(jdbc:mysql:, which reads CAs from a key store: set trustCertificateKeyStoreUrl in the URL); "
                        + "use jdbc:mariadb:");
            }
            p.put("sslMode", m.name());
        } else if (m != Mode.DISABLED) {
            throw new IllegalArgumentException("TLS for this target is chosen in its JDBC URL (H2: jdbc:h2:ssl://...), "
                    + "not by lanes.target.tls-mode");
        }
        return p;
    }

    /**
     * A note to add to a failure to connect, or "" when there is nothing to add. MariaDB refuses a connection without TLS
     * that the account ({@code REQUIRE SSL}) or the server ({@code require_secure_transport=ON}) forbids with the same
     * "access denied" (error 1045) as a wrong password, which would send an operator after the password; so when TLS is
     * off for a MariaDB/MySQL target and the failure holds a 1045, the note says TLS is off. Never names a secret.
     *
     * @param jdbcUrl the target's URL
     * @param failure the failure, searched through its causes
     */
    public String connectFailureHint(String jdbcUrl, Throwable failure) {
        Mode m = effectiveMode();
        boolean plain = jdbcUrl.startsWith("jdbc:mariadb:") ? m == null || m == Mode.DISABLED
                : jdbcUrl.startsWith("jdbc:mysql:") && m == Mode.DISABLED; // Connector/J's default is preferred
        if (!plain) {
            return "";
        }
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 10; depth++, t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == 1045) {
                return " (note: TLS to the target is " + (m == null ? "not configured, so off" : "disabled")
                        + "; MariaDB also answers 'access denied' to a connection without TLS when the account requires "
                        + "SSL or the server runs with require_secure_transport=ON: see lanes.target.tls-mode and "
                        + "lanes.target.tls-ca)";
            }
        }
        return "";
    }

    @Override
    public String toString() {
        Mode m = effectiveMode();
        return m == null ? "tls=(url)" : "tls=" + m.label() + (caCertificate == null ? "" : " ca=" + caCertificate);
    }
}
