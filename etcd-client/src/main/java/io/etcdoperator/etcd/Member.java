package io.etcdoperator.etcd;

import java.net.URI;
import java.util.List;

/** One entry of etcd's member list. {@code name} is empty for a member that was added but has not started yet. */
public record Member(MemberId id, String name, List<URI> peerUrls, List<URI> clientUrls, boolean learner) {

    public Member {
        name = name == null ? "" : name;
        peerUrls = List.copyOf(peerUrls);
        clientUrls = List.copyOf(clientUrls);
    }

    public boolean started() {
        return !name.isEmpty();
    }
}
