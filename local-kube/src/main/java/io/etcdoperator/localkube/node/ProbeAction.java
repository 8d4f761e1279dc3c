package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HTTPHeader;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/** Runs one probe attempt: an HTTP GET, a TCP connect or a command in the container, as the kubelet does. */
final class ProbeAction {

    private static final HttpClient HTTP = client(false);
    private static final HttpClient HTTPS = client(true);

    /** Runs an exec probe's command in the container and returns its exit code, or -1 on timeout. */
    interface Exec {
        int run(List<String> command, Duration timeout);
    }

    private ProbeAction() {}

    static boolean run(Probe probe, Container container, String podIp, Exec exec) {
        Duration timeout = Duration.ofSeconds(Objects.requireNonNullElse(probe.getTimeoutSeconds(), 1));
        try {
            if (probe.getHttpGet() != null) {
                var get = probe.getHttpGet();
                String scheme = "HTTPS".equalsIgnoreCase(get.getScheme()) ? "https" : "http";
                String host = get.getHost() == null || get.getHost().isEmpty() ? podIp : get.getHost();
                String path = get.getPath() == null ? "/" : get.getPath();
                URI uri = URI.create(scheme + "://" + host + ":" + port(get.getPort(), container)
                        + (path.startsWith("/") ? path : "/" + path));
                HttpRequest.Builder request =
                        HttpRequest.newBuilder(uri).timeout(timeout).GET().header("User-Agent", "kube-probe/1.20");
                if (get.getHttpHeaders() != null) {
                    for (HTTPHeader header : get.getHttpHeaders()) {
                        request.header(header.getName(), header.getValue());
                    }
                }
                int status = (scheme.equals("https") ? HTTPS : HTTP)
                        .send(request.build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                return status >= 200 && status < 400;
            }
            if (probe.getTcpSocket() != null) {
                String host = probe.getTcpSocket().getHost() == null
                        ? podIp
                        : probe.getTcpSocket().getHost();
                try (Socket socket = new Socket()) {
                    socket.connect(
                            new InetSocketAddress(
                                    host, port(probe.getTcpSocket().getPort(), container)),
                            (int) timeout.toMillis());
                    return true;
                }
            }
            if (probe.getExec() != null) {
                return exec.run(probe.getExec().getCommand(), timeout) == 0;
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int port(IntOrString port, Container container) {
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        Function<ContainerPort, Boolean> named = p -> port.getStrVal().equals(p.getName());
        return Objects.requireNonNullElse(container.getPorts(), List.<ContainerPort>of()).stream()
                .filter(named::apply)
                .findFirst()
                .map(ContainerPort::getContainerPort)
                .orElseGet(() -> Integer.parseInt(port.getStrVal()));
    }

    private static HttpClient client(boolean trustAll) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER);
        if (trustAll) {
            builder.sslContext(trustingEveryone());
        }
        return builder.build();
    }

    /** Like the kubelet, HTTPS probes do not verify the serving certificate. */
    private static SSLContext trustingEveryone() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(
                    null,
                    new TrustManager[] {
                        new X509ExtendedTrustManager() {
                            @Override
                            public void checkClientTrusted(X509Certificate[] chain, String authType) {
                                // not a server
                            }

                            @Override
                            public void checkServerTrusted(X509Certificate[] chain, String authType) {
                                // probes skip verification
                            }

                            @Override
                            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
                                // not a server
                            }

                            @Override
                            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
                                // probes skip verification, including the host name
                            }

                            @Override
                            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
                                // not a server
                            }

                            @Override
                            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
                                // probes skip verification, including the host name
                            }

                            @Override
                            public X509Certificate[] getAcceptedIssuers() {
                                return new X509Certificate[0];
                            }
                        }
                    },
                    null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS", e);
        }
    }
}
