package io.etcdoperator.localkube;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Polls an HTTP health endpoint of a local process until it answers 200. For HTTPS, the process's self-signed
 * serving certificate is trusted once the process has written it; the probe gives up as soon as the process exits.
 */
final class ReadinessProbe {

    private static final Duration PERIOD = Duration.ofMillis(250);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

    private final URI endpoint;
    private final Optional<Path> servingCertificate;
    private final Optional<String> bearerToken;
    private HttpClient http;

    private ReadinessProbe(URI endpoint, Optional<Path> servingCertificate, Optional<String> bearerToken) {
        this.endpoint = endpoint;
        this.servingCertificate = servingCertificate;
        this.bearerToken = bearerToken;
    }

    static ReadinessProbe http(URI endpoint) {
        return new ReadinessProbe(endpoint, Optional.empty(), Optional.empty());
    }

    static ReadinessProbe https(URI endpoint, Path servingCertificate, Optional<String> bearerToken) {
        return new ReadinessProbe(endpoint, Optional.of(servingCertificate), bearerToken);
    }

    /** Returns once the endpoint answers 200; throws if {@code process} exits or {@code deadline} passes. */
    void await(LocalProcess process, Instant deadline) throws InterruptedException {
        String lastProblem = "no answer yet";
        while (Instant.now().isBefore(deadline)) {
            process.ensureAlive();
            try {
                int status = get();
                if (status == 200) {
                    return;
                }
                lastProblem = "HTTP " + status;
            } catch (IOException | GeneralSecurityException e) {
                lastProblem = e.toString();
            }
            Thread.sleep(PERIOD);
        }
        throw new IllegalStateException(process.name() + " not ready at " + endpoint + " before the deadline ("
                + lastProblem + "); see " + process.log());
    }

    private int get() throws IOException, GeneralSecurityException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(endpoint).timeout(REQUEST_TIMEOUT).GET();
        bearerToken.ifPresent(token -> request.header("Authorization", "Bearer " + token));
        return client().send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private HttpClient client() throws IOException, GeneralSecurityException {
        if (http == null) {
            HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT);
            if (servingCertificate.isPresent()) {
                builder.sslContext(trusting(servingCertificate.get()));
            }
            http = builder.build();
        }
        return http;
    }

    /** Fails (and is retried on the next poll) while the file does not exist yet or is still being written. */
    private static SSLContext trusting(Path pem) throws IOException, GeneralSecurityException {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (InputStream in = Files.newInputStream(pem)) {
            int index = 0;
            for (Certificate certificate :
                    CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trusted.setCertificateEntry("serving-" + index++, certificate);
            }
            if (index == 0) {
                throw new GeneralSecurityException("no certificate in " + pem + " yet");
            }
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
