package io.etcdoperator.operator.logs;

import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.MDC;

/**
 * The names every line of one reconcile carries (namespace, cluster, member, ...), in the MDC for as long as it is
 * open. The MDC is per thread and the reconcilers' (virtual) threads are pooled: close it in the same call.
 */
public final class LogContext implements AutoCloseable {

    private final Map<String, String> previous = new LinkedHashMap<>();

    private LogContext() {}

    /** A reconcile of something in {@code namespace} that belongs to {@code cluster} (null when it names none). */
    public static LogContext of(String namespace, String cluster) {
        return new LogContext().with("namespace", namespace).with("cluster", cluster);
    }

    /** Adds one more name; a null value adds nothing. */
    public LogContext with(String key, String value) {
        if (value != null) {
            previous.putIfAbsent(key, MDC.get(key));
            MDC.put(key, value);
        }
        return this;
    }

    /** Puts back what the MDC held before, so a nested context leaves its caller's names in place. */
    @Override
    public void close() {
        previous.forEach((key, value) -> {
            if (value == null) {
                MDC.remove(key);
            } else {
                MDC.put(key, value);
            }
        });
    }
}
