package io.etcdoperator.operator.planner;

import java.util.List;

/** The CA Secret: the CA that signs now, and the fingerprints of every CA in its trust bundle (oldest first). */
public record ObservedCa(ObservedCertificate signer, List<String> trusted) {

    public ObservedCa {
        trusted = List.copyOf(trusted);
    }

    public boolean rotating() {
        return trusted.size() > 1;
    }
}
