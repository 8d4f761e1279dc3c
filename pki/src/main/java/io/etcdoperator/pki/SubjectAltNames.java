package io.etcdoperator.pki;

import java.util.List;

/** DNS and IP subject alternative names, in the order they are written into the certificate. */
public record SubjectAltNames(List<String> dnsNames, List<String> ipAddresses) {

    public static final SubjectAltNames NONE = new SubjectAltNames(List.of(), List.of());

    public SubjectAltNames {
        dnsNames = List.copyOf(dnsNames);
        ipAddresses = List.copyOf(ipAddresses);
    }

    public boolean isEmpty() {
        return dnsNames.isEmpty() && ipAddresses.isEmpty();
    }
}
