package io.etcdoperator.operator.reads;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pass run on the informers' caches that must send nothing to the API server. Its first request (a read the caches
 * do not cover, or any write) is stopped before it leaves, and the pass ends with {@link NeedsApiServer}; the caller
 * then runs the pass again on the API server. So a steady cluster costs no request, and every step that acts is
 * decided on what the API server says, never on a cache that may not have seen the last write (docs/concepts.md,
 * "Cache passes").
 */
public final class CachePass {

    /** Off: every pass reads the API server (a client without the guard, as in tests that build their own). */
    public static final CachePass OFF = new CachePass(false, new SimpleMeterRegistry());

    private static final Logger LOG = LoggerFactory.getLogger(CachePass.class);

    private static final String INTERCEPTOR = "etcd-operator-cache-pass";
    /** The stopped request of this thread's cache pass, "" while none; null outside a cache pass. */
    private static final ThreadLocal<String> STOPPED = new ThreadLocal<>();

    private final boolean enabled;
    private final MeterRegistry registry;

    private CachePass(boolean enabled, MeterRegistry registry) {
        this.enabled = enabled;
        this.registry = registry;
    }

    /** The request a cache pass would have sent: the pass is run again on the API server. */
    public static final class NeedsApiServer extends RuntimeException {
        public NeedsApiServer(String why) {
            super(why, null, false, false);
        }
    }

    /** Installs the guard on the client being built; only a client built with it may run cache passes. */
    public static void guard(HttpClient.Builder http) {
        http.addOrReplaceInterceptor(INTERCEPTOR, new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                if (STOPPED.get() != null) {
                    String what = request.method() + " " + request.uri().getPath();
                    STOPPED.set(what);
                    throw new NeedsApiServer(what);
                }
            }
        });
    }

    /** On for a client built with {@link #guard}; a client without it is refused (its passes would send requests). */
    public static CachePass on(KubernetesClient guarded) {
        return on(guarded, new SimpleMeterRegistry());
    }

    /** As {@link #on(KubernetesClient)}, counting passes in {@code etcd_operator_cache_passes_total}. */
    public static CachePass on(KubernetesClient guarded, MeterRegistry registry) {
        boolean stopped;
        try {
            stopped = run(() -> {
                guarded.namespaces().withName("default").get();
                return false;
            });
        } catch (NeedsApiServer e) {
            stopped = true;
        }
        if (!stopped) {
            throw new IllegalStateException("the Kubernetes client has no cache-pass guard (CachePass.guard)");
        }
        return new CachePass(true, registry);
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * The pass's result when it ran to its end on the caches; empty when it needed the API server. Counted by
     * controller and result ("settled": nothing sent; "api_server": the pass must run again there).
     */
    public <T> Optional<T> attempt(String controller, Supplier<T> pass) {
        try {
            T result = run(pass);
            count(controller, "settled");
            return Optional.of(result);
        } catch (NeedsApiServer e) {
            count(controller, "api_server");
            LOG.atDebug()
                    .addKeyValue("controller", controller)
                    .addKeyValue("request", e.getMessage())
                    .log("cache pass needs the API server");
            return Optional.empty();
        }
    }

    private void count(String controller, String result) {
        Counter.builder("etcd_operator_cache_passes")
                .description("Passes tried on the informers' caches, by result")
                .tags("controller", controller, "result", result)
                .register(registry)
                .increment();
    }

    /**
     * Runs {@code pass} with every API request stopped; throws {@link NeedsApiServer} at the first one, also when code
     * inside the pass caught the stop and went on.
     */
    public static <T> T run(Supplier<T> pass) {
        STOPPED.set("");
        try {
            T result = pass.get();
            String stopped = STOPPED.get();
            if (!stopped.isEmpty()) {
                throw new NeedsApiServer(stopped);
            }
            return result;
        } finally {
            STOPPED.remove();
        }
    }

    /** Ends a cache pass that reached a decision it may only act on with the API server's view. */
    public static void needsApiServer(String why) {
        if (running()) {
            throw new NeedsApiServer(why);
        }
    }

    /**
     * Sends {@code read} even in a cache pass: a Secret, which no informer may hold, re-read when its period is over.
     * The pass goes on on the caches; its other requests are still stopped.
     */
    public static <T> T sending(Supplier<T> read) {
        String stopped = STOPPED.get();
        if (stopped == null) {
            return read.get();
        }
        if (!stopped.isEmpty()) {
            throw new NeedsApiServer(stopped);
        }
        STOPPED.remove();
        try {
            return read.get();
        } finally {
            STOPPED.set(stopped);
        }
    }

    public static boolean running() {
        return STOPPED.get() != null;
    }
}
