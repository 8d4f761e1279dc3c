package io.etcdoperator.operator.tls;

import io.etcdoperator.operator.resources.MemberMaterial;
import java.util.Optional;

/** A member as the TLS planner sees it: what its Pod runs, and whether it is healthy (Ready and serving). */
public record ObservedTlsMember(String name, Optional<MemberMaterial> running, boolean healthy) {}
