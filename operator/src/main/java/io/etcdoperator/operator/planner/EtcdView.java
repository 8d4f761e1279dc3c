package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.reason.Reason;

/** What etcd told the observer this pass. */
public sealed interface EtcdView {

    /** The observer did not dial (no endpoint could answer yet). */
    record NotAsked() implements EtcdView {}

    record Reached(Membership membership) implements EtcdView {}

    /** The dial or MemberList failed; {@code reason} is one of the unreachable/auth reasons, detail is safe to show. */
    record Unreachable(Reason reason, String detail) implements EtcdView {}

    EtcdView NOT_ASKED = new NotAsked();
}
