package io.etcdoperator.operator.threads;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Where the operator's blocking work runs: virtual threads. A pass spends nearly all its time waiting on the API
 * server or etcd; a parked virtual thread costs a few KiB of heap, a platform thread its own stack and native state
 * (about 120 KiB each, 50 of them for JOSDK's default pool). See docs/benchmarks.md, "Threads".
 */
public final class VirtualThreads {

    private static final Duration IDLE = Duration.ofSeconds(30);

    private VirtualThreads() {}

    /**
     * The reconcilers' executor: at most {@code concurrency} passes at once, as JOSDK's own fixed pool of platform
     * threads allowed, each on a virtual thread.
     */
    public static ExecutorService reconcilers(int concurrency) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                concurrency,
                concurrency,
                IDLE.toSeconds(),
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                Thread.ofVirtual().name("reconciler-", 0).factory());
        pool.allowCoreThreadTimeOut(true);
        return pool;
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
