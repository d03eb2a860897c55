package io.lanes.binlog.replication;

/**
 * How the client uses TLS, named as the MySQL clients name their {@code --ssl-mode} values. Whenever trusted certificates
 * are configured, the server's certificate chain is verified against them, whatever the mode.
 */
public enum TlsMode {
    /** Never use TLS. */
    DISABLED,
    /** Use TLS when the server offers it, plain otherwise. */
    PREFERRED,
    /** Use TLS; fail when the server does not offer it. The certificate is not checked unless a CA is configured. */
    REQUIRED,
    /** As REQUIRED, and the server's certificate chain must be signed by a trusted CA (configured, or the JDK's). */
    VERIFY_CA,
    /** As VERIFY_CA, and the certificate must name the host the client connected to. */
    VERIFY_IDENTITY
}
