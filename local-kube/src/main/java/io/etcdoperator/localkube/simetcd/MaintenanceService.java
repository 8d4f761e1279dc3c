package io.etcdoperator.localkube.simetcd;

import com.google.protobuf.UnknownFieldSet;
import io.etcd.jetcd.api.AlarmRequest;
import io.etcd.jetcd.api.AlarmResponse;
import io.etcd.jetcd.api.DefragmentRequest;
import io.etcd.jetcd.api.DefragmentResponse;
import io.etcd.jetcd.api.MaintenanceGrpc;
import io.etcd.jetcd.api.MoveLeaderRequest;
import io.etcd.jetcd.api.MoveLeaderResponse;
import io.etcd.jetcd.api.StatusRequest;
import io.etcd.jetcd.api.StatusResponse;
import io.grpc.stub.StreamObserver;

/**
 * etcd's Maintenance service on one member endpoint: Status (with the fields newer than jetcd's proto as unknown
 * fields, where etcd puts them on the wire), Alarm (never raised here), Defragment and MoveLeader.
 */
final class MaintenanceService extends MaintenanceGrpc.MaintenanceImplBase {

    // an empty etcd 3.5 backend: 20 KiB file, 16 KiB in use
    private static final long DB_SIZE = 20_480;
    private static final long DB_SIZE_IN_USE = 16_384;
    private static final int RAFT_APPLIED_INDEX = 7;
    private static final int DB_SIZE_IN_USE_FIELD = 9;
    private static final int IS_LEARNER = 10;

    private final MemberContext member;

    MaintenanceService(MemberContext member) {
        this.member = member;
    }

    @Override
    public void status(StatusRequest request, StreamObserver<StatusResponse> observer) {
        member.answer(observer, () -> {
            SimulatedCluster.EndpointState state = member.cluster.status(member.memberId);
            UnknownFieldSet newer = UnknownFieldSet.newBuilder()
                    .addField(RAFT_APPLIED_INDEX, varint(state.index()))
                    .addField(DB_SIZE_IN_USE_FIELD, varint(DB_SIZE_IN_USE))
                    .addField(IS_LEARNER, varint(state.learner() ? 1 : 0))
                    .build();
            return StatusResponse.newBuilder()
                    .setHeader(member.header())
                    .setVersion(member.cluster.version())
                    .setDbSize(DB_SIZE)
                    .setLeader(state.leader())
                    .setRaftIndex(state.index())
                    .setRaftTerm(state.term())
                    .setUnknownFields(newer)
                    .build();
        });
    }

    @Override
    public void alarm(AlarmRequest request, StreamObserver<AlarmResponse> observer) {
        member.answer(
                observer,
                () -> AlarmResponse.newBuilder().setHeader(member.header()).build());
    }

    @Override
    public void defragment(DefragmentRequest request, StreamObserver<DefragmentResponse> observer) {
        member.answer(
                observer,
                () -> DefragmentResponse.newBuilder().setHeader(member.header()).build());
    }

    @Override
    public void moveLeader(MoveLeaderRequest request, StreamObserver<MoveLeaderResponse> observer) {
        member.answer(observer, () -> {
            member.cluster.moveLeader(member.memberId, request.getTargetID());
            return MoveLeaderResponse.newBuilder().setHeader(member.header()).build();
        });
    }

    private static UnknownFieldSet.Field varint(long value) {
        return UnknownFieldSet.Field.newBuilder().addVarint(value).build();
    }
}
