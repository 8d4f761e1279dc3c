package io.etcdoperator.operator.threads;

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

    /** A virtual thread per task: where the Kubernetes client completes its requests ({@code KubernetesHttp}). */
    public static ExecutorService perTask(String name) {
        return Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name(name, 0).factory());
    }
}
