package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.reads.SecretReads;
import io.etcdoperator.operator.resources.TlsSecretVersions;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.HashMap;
import java.util.Map;

/** Reads the resourceVersions of the TLS Secrets a member mounts (names only leave here, never content). */
public final class TlsSecretLookup {

    private TlsSecretLookup() {}

    /** The member stamped with the versions its Secrets have now (unchanged when it mounts none). */
    public static EtcdMember stamped(SecretReads secrets, EtcdMember member, Map<String, String> cache) {
        Map<String, String> versions = new HashMap<>();
        for (String name : TlsSecretVersions.secrets(member)) {
            String rv = cache.computeIfAbsent(
                    name,
                    n -> secrets.get(member.getMetadata().getNamespace(), n)
                            .map(Secret::getMetadata)
                            .map(m -> m.getResourceVersion())
                            .orElse(""));
            if (!rv.isEmpty()) {
                versions.put(name, rv);
            }
        }
        return TlsSecretVersions.stamped(member, TlsSecretVersions.value(versions));
    }
}
