package io.etcdoperator.operator;

import io.etcdoperator.operator.threads.VirtualThreads;
import io.fabric8.kubernetes.client.http.TlsVersion;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.ExecutorService;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;

/**
 * fabric8's JDK HTTP client as the operator runs it: requests complete on virtual threads instead of a cached
 * platform-thread pool, and TLS offers ChaCha20-Poly1305 first. The image's JVM compiles with C1 only (40 MiB less
 * memory), and C1 has no AES-GCM intrinsics: decrypting the API server's watch streams with AES-GCM was a tenth of
 * the operator's CPU while a fleet formed, ChaCha20 costs a quarter of that. See docs/benchmarks.md.
 */
public final class KubernetesHttp extends JdkHttpClientFactory {

    private final ExecutorService executor = VirtualThreads.perTask("kubernetes-http-");
    private final String[] protocols;

    /** {@code versions}: the client configuration's TLS versions, which fabric8 would otherwise set itself. */
    public KubernetesHttp(TlsVersion[] versions) {
        this.protocols = versions == null
                ? null
                : Arrays.stream(versions).map(TlsVersion::javaName).toArray(String[]::new);
    }

    @Override
    protected void additionalConfig(HttpClient.Builder builder) {
        builder.executor(executor);
        builder.sslParameters(new SSLParameters(chaCha20First(defaultCipherSuites()), protocols));
    }

    /** The same suites in the same order, except that the ChaCha20-Poly1305 ones come first (a stable sort). */
    static String[] chaCha20First(String[] suites) {
        return Arrays.stream(suites)
                .sorted(Comparator.comparing(suite -> !suite.contains("CHACHA20")))
                .toArray(String[]::new);
    }

    /** The JDK's default client suites, read from a context that loads no trust store. */
    private static String[] defaultCipherSuites() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[0], null);
            return context.getDefaultSSLParameters().getCipherSuites();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no TLS", e);
        }
    }
}
