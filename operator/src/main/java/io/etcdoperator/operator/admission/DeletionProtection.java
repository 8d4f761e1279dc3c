package io.etcdoperator.operator.admission;

import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.resources.Labels;
import java.util.Set;

/**
 * Who may delete an EtcdMember or a member's data PVC. The same rules as the chart's ValidatingAdmissionPolicy
 * (templates/deletion-protection-policy.yaml); DeletionProtectionTest and the chart's CEL test share their cases.
 */
public final class DeletionProtection {

    /** On the EtcdMember or PVC itself: the admission request carries that object, so no lookup is needed. */
    public static final String ANNOTATION_ALLOW_DELETE = EtcdOperatorApi.RESERVED_PREFIX + "allow-delete";

    /**
     * The garbage collector (alone, or inside kube-controller-manager without per-controller credentials) deletes a
     * member only once its EtcdCluster is gone or going; the namespace controller only when the namespace is deleted.
     */
    public static final Set<String> CLEANUP_USERS = Set.of(
            "system:serviceaccount:kube-system:generic-garbage-collector",
            "system:serviceaccount:kube-system:namespace-controller",
            "system:kube-controller-manager");

    private final String operatorUser;
    private final Set<String> namespaces;

    /** {@code operatorUser}: the operator's own user name, system:serviceaccount:namespace:name; all namespaces. */
    public DeletionProtection(String operatorUser) {
        this(operatorUser, Set.of());
    }

    /** Only the watched namespaces (empty: all); elsewhere members belong to another operator, or to none. */
    public DeletionProtection(String operatorUser, Set<String> namespaces) {
        this.operatorUser = operatorUser;
        this.namespaces = Set.copyOf(namespaces);
    }

    public Verdict decide(Deletion deletion) {
        if (!"DELETE".equals(deletion.operation())
                || !isProtected(deletion)
                || !namespaces.isEmpty() && !namespaces.contains(deletion.namespace())
                || deletion.username().equals(operatorUser)
                || CLEANUP_USERS.contains(deletion.username())
                || "true".equals(deletion.annotations().get(ANNOTATION_ALLOW_DELETE))) {
            return Verdict.ALLOWED;
        }
        return new Verdict(
                false,
                deletion.kind() + " " + deletion.namespace() + "/" + deletion.name()
                        + " is protected from deletion: set the annotation " + ANNOTATION_ALLOW_DELETE
                        + "=\"true\" on it to delete it anyway (docs/operations.md#deletion-protection)");
    }

    /** EtcdMembers, and PVCs labelled as a member's data volume that the operator has not released. */
    static boolean isProtected(Deletion deletion) {
        if (EtcdOperatorApi.GROUP.equals(deletion.group()) && "etcdmembers".equals(deletion.resource())) {
            return true;
        }
        return deletion.group().isEmpty()
                && "persistentvolumeclaims".equals(deletion.resource())
                && deletion.labels().containsKey(EtcdOperatorApi.LABEL_CLUSTER)
                && deletion.labels().containsKey(Labels.COMPONENT)
                && !deletion.labels().containsKey(EtcdOperatorApi.LABEL_RETAINED_FROM);
    }

    /** An admission answer; the message is for the person whose delete was refused. */
    public record Verdict(boolean allowed, String message) {
        static final Verdict ALLOWED = new Verdict(true, "");
    }
}
