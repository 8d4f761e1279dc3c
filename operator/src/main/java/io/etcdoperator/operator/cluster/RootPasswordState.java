package io.etcdoperator.operator.cluster;

import io.etcdoperator.operator.planner.ObservedCluster.RootPassword;

/** Root's password in the user's Secret against the operator's copy, for a dial the copy's password got through. */
final class RootPasswordState {

    private RootPasswordState() {}

    static RootPassword of(RootPasswords.View passwords) {
        if (passwords.wanted().isEmpty()) {
            return RootPassword.IN_STEP; // nothing to change to: the user's Secret is being fixed
        }
        if (passwords.applied().isEmpty()) {
            return RootPassword.UNRECORDED;
        }
        return passwords.applied().equals(passwords.wanted()) ? RootPassword.IN_STEP : RootPassword.CHANGED;
    }
}
