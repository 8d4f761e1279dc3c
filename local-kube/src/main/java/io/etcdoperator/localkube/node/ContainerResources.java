package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Optional;
import java.util.OptionalLong;

/** The resource limits a runc container gets through its cgroup. */
final class ContainerResources {

    private ContainerResources() {}

    /** limits.memory in bytes, when the container has one. */
    static OptionalLong memoryLimit(Container container) {
        return Optional.ofNullable(container.getResources())
                .map(resources -> resources.getLimits())
                .map(limits -> limits.get("memory"))
                .map(quantity ->
                        OptionalLong.of(Quantity.getAmountInBytes(quantity).longValue()))
                .orElse(OptionalLong.empty());
    }
}
