package io.etcdoperator.localkube.simetcd;

import java.time.Instant;

/**
 * One member of a {@link SimulatedCluster}: known from MemberAdd (no name, no client URL: "unstarted") and started
 * when its Pod comes up; {@code connectedSince} is when its endpoint last came up, null while it is down.
 */
final class SimulatedMember {

    final long id;
    final String peerUrl;
    String name = "";
    String clientUrl;
    boolean learner;
    Instant connectedSince;

    SimulatedMember(long id, String peerUrl, boolean learner) {
        this.id = id;
        this.peerUrl = peerUrl;
        this.learner = learner;
    }

    boolean started() {
        return !name.isEmpty();
    }

    boolean up() {
        return connectedSince != null;
    }

    /** What a member list shows: etcd leaves name and client URLs empty until the member has started once. */
    MemberView view() {
        return new MemberView(id, name, peerUrl, started() ? clientUrl : null, learner);
    }
}
