package io.etcdoperator.api.v1alpha2;

import io.fabric8.kubernetes.client.CustomResource;
import java.util.List;

/** Names shared by the operator, the agents and the CLIs for the etcd-operator.cozystack.io/v1alpha2 API. */
public final class EtcdOperatorApi {

    public static final String GROUP = "etcd-operator.cozystack.io";
    public static final String VERSION = "v1alpha2";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** The kubectl category of every kind: {@code kubectl get etcd} lists them all (none joins {@code all}). */
    public static final String CATEGORY = "etcd";

    /** Every kind of the API. */
    public static final List<Class<? extends CustomResource<?, ?>>> KINDS = List.of(
            EtcdCluster.class,
            EtcdMember.class,
            EtcdSnapshot.class,
            EtcdSnapshotSchedule.class,
            EtcdDefrag.class,
            EtcdDefragSchedule.class);

    /** Every key with this prefix belongs to the operator; additionalMetadata cannot set it. */
    public static final String RESERVED_PREFIX = GROUP + "/";

    public static final String LABEL_CLUSTER = RESERVED_PREFIX + "cluster";
    public static final String LABEL_ROLE = RESERVED_PREFIX + "role";
    public static final String ROLE_VOTER = "voter";

    /**
     * The longest EtcdCluster name: the client Service ({@code <name>-client}) is a DNS label of at most 63 characters,
     * which also keeps member names ({@code <name>-} plus 5 generated characters) whole.
     */
    public static final int MAX_CLUSTER_NAME = 56;
    /** The most voters a cluster may ask for: etcd's guidance is at most 7, since every write waits for a majority. */
    public static final int MAX_REPLICAS = 7;

    public static final String MEMBER_FINALIZER = RESERVED_PREFIX + "member-cleanup";

    /** On an EtcdMember: the Service its DNS names hang off; defaults to the cluster name. */
    public static final String ANNOTATION_HEADLESS_SERVICE_NAME = RESERVED_PREFIX + "headless-service-name";
    /** On an EtcdMember: a data directory below the volume root, for adopted members. */
    public static final String ANNOTATION_DATA_DIR_SUBPATH = RESERVED_PREFIX + "data-dir-subpath";
    /** On an EtcdCluster: "true" makes members run --peer-auto-tls unless spec.tls.peer is set. */
    public static final String ANNOTATION_PEER_AUTO_TLS = RESERVED_PREFIX + "peer-auto-tls";
    /** Operator-issued TLS: leaves issued before this RFC 3339 instant are renewed and rolled once it has passed. */
    public static final String ANNOTATION_RENEW_CERTIFICATES_AT = RESERVED_PREFIX + "renew-certificates-at";
    /** On an EtcdCluster: members whose Pod started before this RFC 3339 instant restart, one at a time, once it passed. */
    public static final String ANNOTATION_RESTART_AT = RESERVED_PREFIX + "restart-at";
    /**
     * On an EtcdCluster whose quorum is lost: the member whose data the cluster restarts from (etcd's
     * --force-new-cluster); every other member is discarded and joins again. A person's decision, never the operator's.
     */
    public static final String ANNOTATION_FORCE_NEW_CLUSTER_FROM = RESERVED_PREFIX + "force-new-cluster-from";
    /** On the chosen EtcdMember while its Pod runs with --force-new-cluster (one start only). */
    public static final String ANNOTATION_FORCE_NEW_CLUSTER = RESERVED_PREFIX + "force-new-cluster";
    /**
     * On an EtcdCluster whose every member lost its data: the lost cluster id, written by a person, asks for an empty
     * cluster under the same name (the old members' volumes are released and kept).
     */
    public static final String ANNOTATION_RESET_EMPTY = RESERVED_PREFIX + "reset-empty";
    /**
     * On an EtcdCluster adopted from a running etcd (spec.bootstrap.existing): "true" lets the operator remove the
     * external members, one at a time, once its own members vote and one of them leads. A person's decision.
     */
    public static final String ANNOTATION_REMOVE_EXTERNAL_MEMBERS = RESERVED_PREFIX + "remove-external-members";
    /** On a PVC the operator released from a replaced member: what it held, for the person who decides to delete it. */
    public static final String LABEL_RETAINED_FROM = RESERVED_PREFIX + "retained-from-member";
    /** On a member Pod: the hash of the Pod template it was built from; a different desired hash means a roll. */
    public static final String ANNOTATION_REVISION = RESERVED_PREFIX + "revision";

    private EtcdOperatorApi() {}
}
