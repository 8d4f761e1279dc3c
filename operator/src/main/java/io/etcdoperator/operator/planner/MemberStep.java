package io.etcdoperator.operator.planner;

import java.util.Map;
import java.util.Set;

/** The single next action for an EtcdMember; after it the member controller reports the member's status. */
public sealed interface MemberStep {

    /** Nothing until the cluster controller writes the initial cluster (that write starts the next pass). */
    record AwaitInitialCluster() implements MemberStep {}

    /** spec.dormant: its Pod goes ({@code deletePod}), its volume stays, its status says Paused. */
    record Park(boolean deletePod) implements MemberStep {}

    /** A memory member lost its Pod and its data: it never gets a Pod again; the cluster planner replaces it. */
    record ReportLost() implements MemberStep {}

    /** A PVC member's Pod failed for good (evicted): it goes, a new one comes on the same volume. */
    record RecreateFailedPod(String podReason) implements MemberStep {}

    /** The Pod runs but its data PVC is gone: make a new claim (the Pod keeps what it mounted). */
    record CreateVolume() implements MemberStep {}

    /** Nothing can be done until someone else acts; {@code withPod}: the member's own Pod is still reported. */
    record Blocked(String detail, boolean withPod) implements MemberStep {}

    /** A restoring seed and no agent image to restore with: never start it empty. */
    record RefuseRestore() implements MemberStep {}

    /**
     * Create the Pod (and first its PVC, {@code createVolume}; a crash between them leaves the claim, which the next
     * pass finds): {@code existing} joins a formed cluster, {@code restores} restores a snapshot first.
     */
    record CreatePod(boolean createVolume, boolean existing, boolean restores) implements MemberStep {}

    /**
     * Patch the Pod's labels: the operator's labels someone edited away ({@code restored}) and the role label, which
     * follows etcd ({@code patch}; a null value removes the label).
     */
    record PatchLabels(Map<String, String> patch, Set<String> restored) implements MemberStep {}

    /** Everything is in place: report the member's status. */
    record Report() implements MemberStep {}
}
