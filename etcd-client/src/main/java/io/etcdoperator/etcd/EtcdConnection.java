package io.etcdoperator.etcd;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where and how to dial: voter client URLs, optional TLS material, optional credentials, and the per-call bound.
 * Never log the TLS key or the password: {@link #toString()} names only the endpoints and the modes.
 */
public record EtcdConnection(
        List<URI> endpoints, Optional<ClientTls> tls, Optional<Credentials> credentials, Duration timeout) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * How long a connection's channels stay open without a call: well above the slowest periodic pass (60 s at rest),
     * as a channel gone idle between two passes would reconnect on each, which costs more than the calls.
     */
    public static final Duration CHANNEL_IDLE = Duration.ofMinutes(3);

    public EtcdConnection {
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("at least one etcd endpoint is required");
        }
        endpoints = List.copyOf(endpoints);
    }

    public static EtcdConnection plaintext(List<URI> endpoints) {
        return new EtcdConnection(endpoints, Optional.empty(), Optional.empty(), DEFAULT_TIMEOUT);
    }

    public EtcdConnection withTimeout(Duration newTimeout) {
        return new EtcdConnection(endpoints, tls, credentials, newTimeout);
    }

    @Override
    public String toString() {
        return "EtcdConnection[endpoints=" + endpoints + ", tls=" + tls.isPresent() + ", mtls="
                + tls.map(ClientTls::mutual).orElse(false) + ", auth=" + credentials.isPresent() + ", timeout="
                + timeout + "]";
    }

    /** PEM bytes: the CA to trust, and for mTLS the operator's client certificate and PKCS#8 key. */
    public record ClientTls(byte[] caPem, byte[] certPem, byte[] keyPem) {
        public boolean mutual() {
            return certPem != null && keyPem != null;
        }

        @Override
        public String toString() {
            return "ClientTls[mutual=" + mutual() + "]";
        }
    }

    public record Credentials(String user, String password) {

        /**
         * A password as a Secret or file holds it: surrounding white space (the newline of `echo pw > file` or of
         * `kubectl create secret --from-file`) is not part of it, for the operator, the agent and the plugin alike.
         */
        public static String password(byte[] stored) {
            return new String(stored, StandardCharsets.UTF_8).strip();
        }

        @Override
        public String toString() {
            return "Credentials[user=" + user + "]";
        }
    }
}
