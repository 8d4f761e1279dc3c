package io.etcdoperator.operator.planner;

import io.etcdoperator.operator.reason.Reason;

/** A spec the operator will not carry out, with the reason it is reported under. Nothing changes while it stands. */
public record Refusal(Reason reason, String message) {

    public static Refusal invalid(String message) {
        return new Refusal(Reason.INVALID_SPEC, message);
    }
}
