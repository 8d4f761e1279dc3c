package io.etcdoperator.operator.planner;

import java.time.Duration;
import java.time.Instant;

/**
 * Whether a member's lost data is proven, not suspected: the sign was seen in an earlier pass at least {@link #WINDOW}
 * ago and still shows, and a container that says so has failed again since (one refusal proves nothing). Only proof
 * lets a step discard a member or force a new cluster; docs/operations.md has the table.
 */
final class LossProof {

    /** Two passes at least this far apart (longer than the kubelet's first back-off, so a failed start repeats). */
    static final Duration WINDOW = Duration.ofSeconds(5);

    private LossProof() {}

    static boolean proven(ObservedMember member, Instant now) {
        if (member.ready() || !member.showsLoss() || member.evidence().isEmpty()) {
            return false;
        }
        ObservedMember.Evidence seen = member.evidence().get();
        if (seen.since().plus(WINDOW).isAfter(now)) {
            return false;
        }
        if (member.memory() && member.podLost()) {
            return true; // the Pod that held its tmpfs is gone for good: nothing brings it back
        }
        return member.broken().map(b -> b.restarts() > seen.restartsThen()).orElse(false);
    }

    /** What is still missing, for the status while a sign of loss awaits its proof. */
    static String awaiting(ObservedMember member) {
        return member.memory() && member.podLost()
                ? member.name() + "'s Pod is gone; confirming in a later pass before anything is discarded"
                : member.name() + "'s etcd reported lost data once; waiting for its next start to say so again";
    }
}
