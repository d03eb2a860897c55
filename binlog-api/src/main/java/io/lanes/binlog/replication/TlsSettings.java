package io.lanes.binlog.replication;

import java.nio.file.Path;
import java.util.Objects;

/**
 * TLS settings of a replication connection.
 *
 * @param mode when to use TLS and what to verify
 * @param trustedCertificates PEM file of CA certificates to verify the server against, or null (then VERIFY_CA and
 *     VERIFY_IDENTITY use the JDK's default trust store, and PREFERRED and REQUIRED do not verify)
 * @param clientCertificateChain PEM file of the client certificate chain for mutual TLS, or null
 * @param clientKey PEM file (PKCS#8) of the client certificate's private key, or null
 */
public record TlsSettings(TlsMode mode, Path trustedCertificates, Path clientCertificateChain, Path clientKey) {
    public TlsSettings {
        Objects.requireNonNull(mode, "mode");
        if ((clientCertificateChain == null) != (clientKey == null)) {
            throw new IllegalArgumentException("a client certificate needs both the chain and the key");
        }
    }

    public static TlsSettings disabled() {
        return new TlsSettings(TlsMode.DISABLED, null, null, null);
    }

    public static TlsSettings of(TlsMode mode) {
        return new TlsSettings(mode, null, null, null);
    }

    public static TlsSettings of(TlsMode mode, Path trustedCertificates) {
        return new TlsSettings(mode, trustedCertificates, null, null);
    }

    /** True when the server certificate chain is checked. */
    public boolean verifiesCertificate() {
        return trustedCertificates != null || mode == TlsMode.VERIFY_CA || mode == TlsMode.VERIFY_IDENTITY;
    }
}
