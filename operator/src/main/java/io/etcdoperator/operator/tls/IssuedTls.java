package io.etcdoperator.operator.tls;

import io.etcdoperator.operator.resources.MemberMaterial;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One pass's observation of an operator-issued cluster: its CA Secret, leaf Secrets and members. */
public record IssuedTls(
        Optional<ObservedCa> ca,
        Map<LeafRole, ObservedLeaf> leaves,
        List<ObservedTlsMember> members,
        Optional<Instant> renewalRequested) {

    public IssuedTls {
        leaves = leaves.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(leaves));
        members = List.copyOf(members);
    }

    /** Without a renew-certificates-at request. */
    public IssuedTls(Optional<ObservedCa> ca, Map<LeafRole, ObservedLeaf> leaves, List<ObservedTlsMember> members) {
        this(ca, leaves, members, Optional.empty());
    }

    /** What every member should run: the current server and peer leaves, trusting the CA Secret's bundle. */
    public Optional<MemberMaterial> desired() {
        ObservedLeaf server = leaves.get(LeafRole.SERVER);
        ObservedLeaf peer = leaves.get(LeafRole.PEER);
        if (ca.isEmpty() || server == null || peer == null) {
            return Optional.empty();
        }
        return Optional.of(new MemberMaterial(
                server.certificate().fingerprint(),
                peer.certificate().fingerprint(),
                ca.get().trusted()));
    }
}
