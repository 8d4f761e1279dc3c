package io.etcdoperator.localkube.simetcd;

import io.etcd.jetcd.api.ClusterGrpc;
import io.etcd.jetcd.api.MemberAddRequest;
import io.etcd.jetcd.api.MemberAddResponse;
import io.etcd.jetcd.api.MemberListRequest;
import io.etcd.jetcd.api.MemberListResponse;
import io.etcd.jetcd.api.MemberRemoveRequest;
import io.etcd.jetcd.api.MemberRemoveResponse;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;

/**
 * etcd's Cluster service on one member endpoint: MemberList, MemberAdd, MemberRemove, and MemberPromote, which
 * jetcd-grpc does not generate (its messages have the wire layout of MemberRemoveRequest and MemberListResponse).
 */
final class ClusterService extends ClusterGrpc.ClusterImplBase {

    static final MethodDescriptor<MemberRemoveRequest, MemberListResponse> MEMBER_PROMOTE =
            MethodDescriptor.<MemberRemoveRequest, MemberListResponse>newBuilder()
                    .setType(MethodDescriptor.MethodType.UNARY)
                    .setFullMethodName(
                            MethodDescriptor.generateFullMethodName(ClusterGrpc.SERVICE_NAME, "MemberPromote"))
                    .setRequestMarshaller(ProtoUtils.marshaller(MemberRemoveRequest.getDefaultInstance()))
                    .setResponseMarshaller(ProtoUtils.marshaller(MemberListResponse.getDefaultInstance()))
                    .build();

    private final MemberContext member;

    ClusterService(MemberContext member) {
        this.member = member;
    }

    /** The generated methods plus MemberPromote under the same service name. */
    ServerServiceDefinition definition() {
        ServerServiceDefinition generated = bindService();
        ServerServiceDefinition.Builder builder = ServerServiceDefinition.builder(ClusterGrpc.SERVICE_NAME);
        generated.getMethods().forEach(builder::addMethod);
        builder.addMethod(MEMBER_PROMOTE, ServerCalls.asyncUnaryCall(this::memberPromote));
        return builder.build();
    }

    @Override
    public void memberList(MemberListRequest request, StreamObserver<MemberListResponse> observer) {
        member.answer(observer, this::list);
    }

    @Override
    public void memberAdd(MemberAddRequest request, StreamObserver<MemberAddResponse> observer) {
        member.answer(observer, () -> {
            if (request.getPeerURLsCount() != 1) {
                throw new EtcdRefusal(Status.Code.INVALID_ARGUMENT, "simulated etcd: one peer URL per member");
            }
            MemberView added = member.cluster.add(request.getPeerURLs(0), request.getIsLearner());
            return MemberAddResponse.newBuilder()
                    .setHeader(member.header())
                    .setMember(MemberContext.member(added))
                    .addAllMembers(list().getMembersList())
                    .build();
        });
    }

    @Override
    public void memberRemove(MemberRemoveRequest request, StreamObserver<MemberRemoveResponse> observer) {
        member.answer(observer, () -> {
            member.cluster.remove(request.getID());
            return MemberRemoveResponse.newBuilder()
                    .setHeader(member.header())
                    .addAllMembers(list().getMembersList())
                    .build();
        });
    }

    void memberPromote(MemberRemoveRequest request, StreamObserver<MemberListResponse> observer) {
        member.answer(observer, () -> {
            member.cluster.promote(request.getID());
            return list();
        });
    }

    private MemberListResponse list() {
        return MemberListResponse.newBuilder()
                .setHeader(member.header())
                .addAllMembers(member.cluster.members().stream()
                        .map(MemberContext::member)
                        .toList())
                .build();
    }
}
