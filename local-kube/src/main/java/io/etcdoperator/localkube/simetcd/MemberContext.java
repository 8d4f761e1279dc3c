package io.etcdoperator.localkube.simetcd;

import io.etcd.jetcd.api.Member;
import io.etcd.jetcd.api.ResponseHeader;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.stub.StreamObserver;
import java.util.function.Supplier;

/**
 * What every service of one member endpoint shares: the cluster, the member it answers as, response headers, the
 * auth token of the current call, and the rule that a removed member answers nothing.
 */
final class MemberContext {

    static final Context.Key<String> TOKEN = Context.key("token");
    private static final Metadata.Key<String> TOKEN_HEADER = Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER);

    final SimulatedCluster cluster;
    final long memberId;

    MemberContext(SimulatedCluster cluster, long memberId) {
        this.cluster = cluster;
        this.memberId = memberId;
    }

    ResponseHeader header() {
        return ResponseHeader.newBuilder()
                .setClusterId(cluster.clusterId())
                .setMemberId(memberId)
                .setRevision(1)
                .setRaftTerm(cluster.raftTerm())
                .build();
    }

    /** Runs one unary call: a refusal becomes etcd's status, a removed member is unavailable. */
    <T> void answer(StreamObserver<T> observer, Supplier<T> call) {
        T response;
        try {
            if (!cluster.contains(memberId)) {
                throw EtcdRefusal.unavailable("the member has been permanently removed from the cluster");
            }
            response = call.get();
        } catch (EtcdRefusal refusal) {
            observer.onError(refusal.asStatus());
            return;
        }
        observer.onNext(response);
        observer.onCompleted();
    }

    static Member member(MemberView view) {
        Member.Builder member = Member.newBuilder()
                .setID(view.id())
                .setName(view.name())
                .addPeerURLs(view.peerUrl())
                .setIsLearner(view.learner());
        if (view.clientUrl() != null) {
            member.addClientURLs(view.clientUrl());
        }
        return member.build();
    }

    /** Puts the "token" header of each call into the {@link #TOKEN} context key. */
    static ServerInterceptor tokens() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(
                    ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                return Contexts.interceptCall(
                        Context.current().withValue(TOKEN, headers.get(TOKEN_HEADER)), call, headers, next);
            }
        };
    }
}
