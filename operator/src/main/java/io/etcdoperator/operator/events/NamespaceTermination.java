package io.etcdoperator.operator.events;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The API server refuses new objects in a namespace that is being deleted (403, cause NamespaceTerminating). The
 * cluster is deleted with its namespace: a write refused so is no failure to report, retry or repair.
 */
public final class NamespaceTermination {

    private static final String CAUSE = "NamespaceTerminating";

    private NamespaceTermination() {}

    public static boolean refused(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof KubernetesClientException k
                    && k.getCode() == 403
                    && k.getStatus() != null
                    && k.getStatus().getDetails() != null
                    && k.getStatus().getDetails().getCauses() != null
                    && k.getStatus().getDetails().getCauses().stream().anyMatch(c -> CAUSE.equals(c.getReason()))) {
                return true;
            }
        }
        return false;
    }
}
