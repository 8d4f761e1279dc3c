package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.planner.ObservedMember;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a member's Pod says of its etcd: running, ready, failed for good, broken (lost data, a crash loop), or gone
 * from under a memory member. Read-only; {@link MemberPods} builds the Pod.
 */
public final class MemberPodStatus {

    private MemberPodStatus() {}

    /**
     * A Pod this member ran is gone, going (its tmpfs goes with it) or was replaced: for a memory member that means its
     * data is gone too. A member that never had a Pod recorded has lost nothing. {@code pod} is the member's own Pod
     * (found by owner reference), never whatever a label selector returned.
     */
    public static boolean podLost(EtcdMember member, Pod pod) {
        String recorded = member.getStatus() == null ? null : member.getStatus().getPodUID();
        if (recorded == null || recorded.isEmpty()) {
            return false;
        }
        return pod == null
                || !recorded.equals(pod.getMetadata().getUid())
                || pod.getMetadata().getDeletionTimestamp() != null;
    }

    /** Evicted or otherwise failed for good (and not already going): the kubelet will not restart it. */
    public static boolean failed(Pod pod) {
        return pod != null
                && pod.getMetadata().getDeletionTimestamp() == null
                && pod.getStatus() != null
                && "Failed".equals(pod.getStatus().getPhase());
    }

    /**
     * Why the etcd container of this Pod is broken for good, if it is: etcd panicked on a raft log it no longer has
     * (its data directory was lost: it must never run again under its old identity), or it crash-loops
     * ({@link #CRASH_LOOP_RESTARTS} restarts and waiting in CrashLoopBackOff). From the last termination's log tail.
     */
    public static Optional<ObservedMember.Broken> broken(Pod pod) {
        if (pod == null
                || pod.getMetadata().getDeletionTimestamp() != null
                || pod.getStatus() == null
                || pod.getStatus().getContainerStatuses() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getContainerStatuses().stream()
                .filter(c -> MemberPods.CONTAINER.equals(c.getName()))
                .findFirst()
                .flatMap(MemberPodStatus::broken);
    }

    /** Two failed restarts in back-off (about 30 s): a crash loop is only reported now, and a correction waits on it. */
    static final int CRASH_LOOP_RESTARTS = 2;
    /**
     * What etcd says when a member that had a log starts without it (a raft panic on entries it no longer has), and
     * what etcd-guard says when it refuses such a start: proof that the member lost its data.
     */
    private static final List<String> LOST_FOR_CERTAIN = List.of("truncated, or lost", EtcdGuard.DATA_LOST);
    /**
     * What a start without a WAL says when it cannot get or match the cluster from its peers: lost data for a member
     * that had a WAL, but also what a learner's very first start says while its peers are not reachable yet.
     */
    private static final List<String> NO_WAL_START =
            List.of("cannot fetch cluster info from peer urls", "error validating peerURLs");

    private static final List<String> NO_WAL =
            Stream.concat(LOST_FOR_CERTAIN.stream(), NO_WAL_START.stream()).toList();

    private static Optional<ObservedMember.Broken> broken(ContainerStatus c) {
        var terminated = c.getLastState() == null ? null : c.getLastState().getTerminated();
        if (terminated == null || c.getState() == null || c.getState().getRunning() != null) {
            return Optional.empty(); // a run in progress makes the last one history (a learner's failed first starts)
        }
        String message = terminated.getMessage() == null ? "" : terminated.getMessage();
        int restarts = c.getRestartCount() == null ? 0 : c.getRestartCount();
        String lastExit = "exit code " + terminated.getExitCode()
                + (terminated.getReason() == null ? "" : " (" + terminated.getReason() + ")") + lastLine(message);
        if (LOST_FOR_CERTAIN.stream().anyMatch(message::contains)) {
            return Optional.of(new ObservedMember.Broken(true, true, restarts, lastExit));
        }
        if (NO_WAL_START.stream().anyMatch(message::contains)) {
            return Optional.of(new ObservedMember.Broken(true, false, restarts, lastExit));
        }
        if (message.contains(EtcdGuard.STOPPED_BY_ITSELF)) {
            return Optional.of(ObservedMember.Broken.removed(restarts, lastExit));
        }
        boolean looping = c.getState() != null
                && c.getState().getWaiting() != null
                && "CrashLoopBackOff".equals(c.getState().getWaiting().getReason());
        return looping && restarts >= CRASH_LOOP_RESTARTS
                ? Optional.of(new ObservedMember.Broken(false, false, restarts, lastExit))
                : Optional.empty();
    }

    /** The line that names the cause: etcd's raft panic if present, else the last non-blank line, shortened. */
    private static String lastLine(String message) {
        List<String> lines = message.lines().filter(l -> !l.isBlank()).toList();
        String line = lines.stream()
                .filter(l -> NO_WAL.stream().anyMatch(l::contains))
                .findFirst()
                .orElse(lines.isEmpty() ? "" : lines.getLast())
                .strip();
        int cut = line.indexOf("tocommit(");
        line = cut > 0 ? line.substring(cut) : line;
        return line.isEmpty() ? "" : ": " + (line.length() > 200 ? line.substring(0, 200) + "..." : line);
    }

    /** Its etcd container runs (whatever its readiness says), and the Pod is not terminating. */
    public static boolean running(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() == null
                && pod.getStatus() != null
                && pod.getStatus().getContainerStatuses() != null
                && pod.getStatus().getContainerStatuses().stream()
                        .anyMatch(c -> MemberPods.CONTAINER.equals(c.getName())
                                && c.getState() != null
                                && c.getState().getRunning() != null);
    }

    /** The kubelet's Ready condition, and not terminating. */
    public static boolean ready(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() == null
                && pod.getStatus() != null
                && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
