package io.etcdoperator.operator.member;

import java.util.Optional;

/** What etcd's member list says of a member whose Pod is ready and whose id is not recorded yet. */
sealed interface MemberIdentity {

    /** Its entry: the id, and the version its etcd reports when it answered. */
    record Found(String memberId, Optional<String> version) implements MemberIdentity {}

    /** Why it is not known yet (no cluster, not listed, etcd unreachable). */
    record NotYet(String why) implements MemberIdentity {}
}
