package io.etcdoperator.localkube.simetcd;

import io.etcd.jetcd.api.CompactionRequest;
import io.etcd.jetcd.api.CompactionResponse;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RangeResponse;
import io.grpc.stub.StreamObserver;

/** The KV calls the operator makes: a count-only Range (auth probe, current revision) and Compact; no keys kept. */
final class KvService extends KVGrpc.KVImplBase {

    private final MemberContext member;

    KvService(MemberContext member) {
        this.member = member;
    }

    @Override
    public void range(RangeRequest request, StreamObserver<RangeResponse> observer) {
        member.answer(observer, () -> {
            member.cluster.authorize(MemberContext.TOKEN.get());
            return RangeResponse.newBuilder()
                    .setHeader(member.header())
                    .setCount(0)
                    .build();
        });
    }

    @Override
    public void compact(CompactionRequest request, StreamObserver<CompactionResponse> observer) {
        member.answer(observer, () -> {
            member.cluster.authorize(MemberContext.TOKEN.get());
            return CompactionResponse.newBuilder().setHeader(member.header()).build();
        });
    }
}
