package io.etcdoperator.operator.member;

import io.etcdoperator.api.v1alpha2.RestoreSpec;
import io.etcdoperator.api.v1alpha2.SnapshotLocation;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.AgentContainers;
import io.etcdoperator.operator.snapshot.AgentReport;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Optional;

/**
 * Where a seed Pod's restore init container is, read from the Pod's status: running, or failed with the agent's
 * reason. Empty when the Pod has no restore container or it finished, so member readiness takes over.
 */
record RestoreProgress(String reason, String message, boolean failed) {

    static Optional<RestoreProgress> of(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getInitContainerStatuses() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getInitContainerStatuses().stream()
                .filter(s -> AgentContainers.RESTORE.equals(s.getName()))
                .findFirst()
                .flatMap(RestoreProgress::of);
    }

    private static Optional<RestoreProgress> of(ContainerStatus status) {
        ContainerStateTerminated now =
                status.getState() == null ? null : status.getState().getTerminated();
        if (now != null && Integer.valueOf(0).equals(now.getExitCode())) {
            return Optional.empty();
        }
        ContainerStateTerminated failure = now != null
                ? now
                : status.getLastState() == null ? null : status.getLastState().getTerminated();
        if (failure != null) {
            return Optional.of(new RestoreProgress(
                    Reason.RESTORE_FAILED.reason(),
                    "snapshot restore failed (exit " + failure.getExitCode() + ", attempt " + (restarts(status) + 1)
                            + "): " + cause(failure),
                    true));
        }
        return Optional.of(new RestoreProgress(
                Reason.RESTORING_SNAPSHOT.reason(),
                "restore init container " + (running(status) ? "running" : "starting"),
                false));
    }

    /** The agent's own words when it wrote its JSON report; otherwise the kubelet's reason, never raw logs. */
    private static String cause(ContainerStateTerminated failure) {
        return AgentReport.parse(failure.getMessage())
                .map(r -> r.reason().orElse("Unknown")
                        + r.message().map(m -> ": " + m).orElse(""))
                .orElse(Optional.ofNullable(failure.getReason()).orElse("Error"));
    }

    private static boolean running(ContainerStatus status) {
        return status.getState() != null && status.getState().getRunning() != null;
    }

    private static int restarts(ContainerStatus status) {
        return status.getRestartCount() == null ? 0 : status.getRestartCount();
    }

    /** A human name for the restore source, for events: s3://bucket/key or pvc claim/subPath. */
    static String source(RestoreSpec restore) {
        SnapshotLocation source = restore == null ? null : restore.getSource();
        if (source == null) {
            return "a snapshot";
        }
        if (source.getS3() != null) {
            return "s3://" + source.getS3().getBucket() + "/" + source.getS3().getKey();
        }
        if (source.getPvc() != null) {
            return "pvc " + source.getPvc().getClaimName() + "/"
                    + source.getPvc().getSubPath();
        }
        return "a snapshot";
    }
}
