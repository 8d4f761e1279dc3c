package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a kubelet enforces from a Pod's and a container's securityContext, resolved as it does: the container's field
 * wins over the Pod's, and the image's user applies when neither sets one.
 */
record ContainerSecurity(
        long uid,
        long gid,
        List<Long> supplementalGroups,
        Optional<Long> fsGroup,
        boolean readOnlyRoot,
        boolean noNewPrivileges,
        Set<String> capabilities) {

    /** containerd's default capability set, which drop/add of securityContext.capabilities change. */
    static final List<String> DEFAULT_CAPABILITIES = List.of(
            "CHOWN",
            "DAC_OVERRIDE",
            "FSETID",
            "FOWNER",
            "MKNOD",
            "NET_RAW",
            "SETGID",
            "SETUID",
            "SETFCAP",
            "SETPCAP",
            "NET_BIND_SERVICE",
            "SYS_CHROOT",
            "KILL",
            "AUDIT_WRITE");

    /** Throws {@link VolumeNotReady} (a CreateContainerConfigError) when runAsNonRoot meets a root user. */
    static ContainerSecurity of(Pod pod, Container container, long imageUid, long imageGid) {
        PodSecurityContext podContext =
                Objects.requireNonNullElseGet(pod.getSpec().getSecurityContext(), PodSecurityContext::new);
        SecurityContext context = Objects.requireNonNullElseGet(container.getSecurityContext(), SecurityContext::new);
        long uid = first(context.getRunAsUser(), podContext.getRunAsUser()).orElse(imageUid);
        long gid = first(context.getRunAsGroup(), podContext.getRunAsGroup()).orElse(imageGid);
        boolean nonRoot =
                first(context.getRunAsNonRoot(), podContext.getRunAsNonRoot()).orElse(false);
        if (nonRoot && uid == 0) {
            throw new VolumeNotReady("container has runAsNonRoot and image will run as root (pod: \""
                    + pod.getMetadata().getName() + "\", container: " + container.getName() + ")");
        }
        List<Long> groups = new ArrayList<>();
        Optional.ofNullable(podContext.getFsGroup()).ifPresent(groups::add);
        groups.addAll(Objects.requireNonNullElse(podContext.getSupplementalGroups(), List.of()));
        boolean privileged = Boolean.TRUE.equals(context.getPrivileged());
        return new ContainerSecurity(
                uid,
                gid,
                List.copyOf(groups),
                Optional.ofNullable(podContext.getFsGroup()),
                Boolean.TRUE.equals(context.getReadOnlyRootFilesystem()),
                Boolean.FALSE.equals(context.getAllowPrivilegeEscalation()) && !privileged,
                capabilities(context.getCapabilities()));
    }

    private static Set<String> capabilities(Capabilities requested) {
        Set<String> result = new LinkedHashSet<>(DEFAULT_CAPABILITIES);
        if (requested == null) {
            return result;
        }
        List<String> drop = Objects.requireNonNullElse(requested.getDrop(), List.of());
        if (drop.stream().anyMatch("ALL"::equalsIgnoreCase)) {
            result.clear();
        }
        drop.forEach(cap -> result.remove(name(cap)));
        Objects.requireNonNullElse(requested.getAdd(), List.<String>of()).forEach(cap -> result.add(name(cap)));
        return result;
    }

    private static String name(String capability) {
        String upper = capability.toUpperCase(Locale.ROOT);
        return upper.startsWith("CAP_") ? upper.substring(4) : upper;
    }

    @SafeVarargs
    private static <T> Optional<T> first(T... values) {
        for (T value : values) {
            if (value != null) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
