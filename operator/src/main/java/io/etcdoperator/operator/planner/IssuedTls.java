package io.etcdoperator.operator.planner;

import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

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

    /** The same observation once {@code member}'s EtcdMember is stamped with {@code material}. */
    public IssuedTls stamped(String member, MemberMaterial material) {
        return new IssuedTls(
                ca,
                leaves,
                members.stream()
                        .map(m -> m.name().equals(member)
                                ? new ObservedTlsMember(m.name(), m.running(), m.healthy(), Optional.of(material))
                                : m)
                        .toList(),
                renewalRequested);
    }

    /** The earliest notAfter of the signing CA and the leaves: what expires first if renewals keep failing. */
    public Optional<Instant> earliestExpiry() {
        return certificates().map(ObservedCertificate::notAfter).min(Comparator.naturalOrder());
    }

    /** The earliest time one of them is due for renewal; past it by long, renewals are failing. */
    public Optional<Instant> earliestRenewal() {
        return certificates().map(ObservedCertificate::renewAfter).min(Comparator.naturalOrder());
    }

    private Stream<ObservedCertificate> certificates() {
        return Stream.concat(
                ca.stream().map(ObservedCa::signer), leaves.values().stream().map(ObservedLeaf::certificate));
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
