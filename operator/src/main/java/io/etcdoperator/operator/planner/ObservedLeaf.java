package io.etcdoperator.operator.planner;

import java.util.List;

/** A leaf Secret: its certificate and the CA fingerprints in its {@code ca.crt}. */
public record ObservedLeaf(ObservedCertificate certificate, List<String> trusted) {

    public ObservedLeaf {
        trusted = List.copyOf(trusted);
    }
}
