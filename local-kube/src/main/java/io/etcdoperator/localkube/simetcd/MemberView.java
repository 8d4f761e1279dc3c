package io.etcdoperator.localkube.simetcd;

/** A member as etcd's member list reports it; {@code clientUrl} is null until the member has started. */
public record MemberView(long id, String name, String peerUrl, String clientUrl, boolean learner) {}
