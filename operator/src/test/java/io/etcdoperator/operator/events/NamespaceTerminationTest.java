package io.etcdoperator.operator.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.OperatorException;
import org.junit.jupiter.api.Test;

class NamespaceTerminationTest {

    private static KubernetesClientException forbidden(String cause) {
        Status status = new StatusBuilder()
                .withCode(403)
                .withReason("Forbidden")
                .withNewDetails()
                .withKind("services")
                .addNewCause()
                .withField("metadata.namespace")
                .withReason(cause)
                .endCause()
                .endDetails()
                .build();
        return new KubernetesClientException(status);
    }

    @Test
    void aWriteRefusedBecauseTheNamespaceIsBeingDeletedIsRecognisedThroughWrappers() {
        assertThat(NamespaceTermination.refused(new OperatorException(forbidden("NamespaceTerminating"))))
                .isTrue();
    }

    /** An RBAC denial is a 403 too, and must stay an error someone sees. */
    @Test
    void anyOther403IsNot() {
        assertThat(NamespaceTermination.refused(new KubernetesClientException(new StatusBuilder()
                        .withCode(403)
                        .withReason("Forbidden")
                        .withMessage("services is forbidden: User cannot create")
                        .build())))
                .isFalse();
        assertThat(NamespaceTermination.refused(forbidden("FieldValueInvalid"))).isFalse();
        assertThat(NamespaceTermination.refused(new IllegalStateException("x"))).isFalse();
    }
}
