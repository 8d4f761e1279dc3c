package io.etcdoperator.operator.reason;

/** Why the roller restarts (PVC) or replaces (Memory) a member; the name goes into events and logs. */
public enum RestartReason {
    VERSION_CHANGED("VersionChanged", "etcd version changed"),
    SPEC_CHANGED("SpecChanged", "Pod template changed (resources, options, scheduling, pull secrets or metadata)"),
    CERTIFICATE_RENEWED("CertificateRenewed", "TLS material changed"),
    RESTART_REQUESTED("RestartRequested", "a rolling restart was requested with the restart-at annotation"),
    CLUSTER_FORMED(
            "ClusterFormed",
            "the seed still starts with --initial-cluster-state=new: an empty volume would form a "
                    + "second cluster, so it restarts once with existing");

    private final String reason;
    private final String description;

    RestartReason(String reason, String description) {
        this.reason = reason;
        this.description = description;
    }

    public String reason() {
        return reason;
    }

    public String description() {
        return description;
    }
}
