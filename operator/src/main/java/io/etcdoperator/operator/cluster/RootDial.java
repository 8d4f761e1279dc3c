package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.ObservedCluster;
import java.net.URI;
import java.util.List;
import java.util.Map;

/** The observer's dial as root: with the operator's copy of the password, then what etcd may have taken instead. */
final class RootDial {

    private final EtcdDialer dialer;

    RootDial(EtcdDialer dialer) {
        this.dialer = dialer;
    }

    /** A connection that answered, its member list, and what the dial says of root's password. */
    record Dialled(EtcdAdmin etcd, Membership membership, ObservedCluster.RootPassword password) {}

    /**
     * Dials with the operator's copy of root's password; when etcd rejects it, with the pending or the user's password
     * (a change cut short after etcd took it): the one etcd accepts is what the copy must say next.
     */
    Dialled dial(EtcdCluster cluster, List<URI> endpoints, RootPasswords.View passwords) {
        EtcdAdmin etcd = dialer.shared(cluster, endpoints, passwords);
        try {
            return new Dialled(etcd, etcd.members(), RootPasswordState.of(passwords));
        } catch (EtcdException.AuthRejected rejected) {
            if (passwords.applied().isEmpty()) {
                throw rejected; // the user's own password was dialled: nothing else to try
            }
            dialer.discard(cluster);
            for (var candidate : List.of(
                    passwords.next().map(p -> Map.entry(ObservedCluster.RootPassword.ETCD_HAS_NEXT, p)),
                    passwords.wanted().map(p -> Map.entry(ObservedCluster.RootPassword.ETCD_HAS_WANTED, p)))) {
                if (candidate.isEmpty()
                        || candidate.get().getValue().equals(passwords.applied().get())) {
                    continue;
                }
                EtcdAdmin other =
                        dialer.sharedAs(cluster, endpoints, candidate.get().getValue());
                try {
                    return new Dialled(other, other.members(), candidate.get().getKey());
                } catch (EtcdException.AuthRejected again) {
                    dialer.discard(cluster);
                }
            }
            throw rejected;
        }
    }
}
