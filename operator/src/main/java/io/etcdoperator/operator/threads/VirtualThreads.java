package io.etcdoperator.operator.threads;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.net.http.HttpClient;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Where the operator's blocking work runs: virtual threads. A pass spends nearly all its time waiting on the API
 * server or etcd; a parked virtual thread costs a few KiB of heap, a platform thread its own stack and native state
 * (about 120 KiB each, 50 of them for JOSDK's default pool). See docs/benchmarks.md, "Threads".
 */
public final class VirtualThreads {

    private VirtualThreads() {}

    /**
     * The reconcilers' executor: a virtual thread for every pass JOSDK hands over, started at once. The cluster and
     * member passes then wait for their turn in a {@link PassQueue}, which bounds them and picks who goes next; a
     * bounded pool here would keep JOSDK's first-come order in front of it.
     */
    public static ExecutorService reconcilers() {
        return Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("reconciler-", 0).factory());
    }

    /** fabric8's JDK HTTP client, completing requests on virtual threads instead of a cached platform-thread pool. */
    public static final class KubernetesHttp extends JdkHttpClientFactory {

        private final ExecutorService executor = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("kubernetes-http-", 0).factory());

        @Override
        protected void additionalConfig(HttpClient.Builder builder) {
            builder.executor(executor);
        }
    }
}
