package io.etcdoperator.operator.planner;

import java.util.Optional;

/**
 * A member as the TLS part sees it: what its Pod runs, whether it is healthy (Ready and serving), and the material its
 * EtcdMember is stamped with (what its next Pod starts with).
 */
public record ObservedTlsMember(
        String name, Optional<MemberMaterial> running, boolean healthy, Optional<MemberMaterial> stamped) {

    /** Stamped with what it runs (the TLS planner's tests; the observer always reads the stamp). */
    ObservedTlsMember(String name, Optional<MemberMaterial> running, boolean healthy) {
        this(name, running, healthy, running);
    }
}
