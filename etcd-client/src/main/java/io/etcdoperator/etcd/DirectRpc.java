package io.etcdoperator.etcd;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.etcd.jetcd.api.AlarmMember;
import io.etcd.jetcd.api.AlarmRequest;
import io.etcd.jetcd.api.AlarmType;
import io.etcd.jetcd.api.AuthEnableRequest;
import io.etcd.jetcd.api.AuthGrpc;
import io.etcd.jetcd.api.AuthUserAddRequest;
import io.etcd.jetcd.api.AuthUserChangePasswordRequest;
import io.etcd.jetcd.api.AuthUserGrantRoleRequest;
import io.etcd.jetcd.api.CompactionRequest;
import io.etcd.jetcd.api.DefragmentRequest;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.MaintenanceGrpc;
import io.etcd.jetcd.api.MoveLeaderRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.SnapshotRequest;
import io.etcd.jetcd.api.SnapshotResponse;
import io.etcd.jetcd.api.StatusRequest;
import io.etcd.jetcd.api.StatusResponse;
import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.Deadline;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * etcd RPCs made on gRPC channels of our own ({@link EtcdChannels}) with jetcd's generated messages: the full
 * Maintenance Status (jetcd drops isLearner, raftAppliedIndex, ...), MoveLeader, snapshot and defragment on one chosen
 * endpoint, alarms, compaction, the auth bootstrap, and an anonymous probe for "is auth on" (3.4 has no AuthStatus).
 * Calls for any endpoint go through {@link EtcdChannels#onAnyEndpoint}; membership calls are in {@link MembershipRpc}.
 */
final class DirectRpc {

    private static final int ALARM_CORRUPT = 2; // etcd's AlarmType CORRUPT; jetcd's generated enum stops at NOSPACE
    private static final int STATUS_RAFT_APPLIED_INDEX = 7;
    private static final int STATUS_ERRORS = 8;
    private static final int STATUS_DB_SIZE_IN_USE = 9;
    private static final int STATUS_IS_LEARNER = 10;

    private final EtcdChannels channels;

    DirectRpc(EtcdChannels channels) {
        this.channels = channels;
    }

    /** Status of exactly this endpoint (a learner answers Status too); the connection learns whether it leads. */
    EndpointStatus status(URI endpoint, Deadline deadline) {
        EndpointStatus status = channels.onEndpoint(
                endpoint,
                deadline,
                a -> endpointStatus(MaintenanceGrpc.newBlockingStub(a.authorized())
                        .withDeadline(a.deadline())
                        .status(StatusRequest.getDefaultInstance())));
        if (status.isLeader()) {
            channels.health().leads(endpoint);
        } else {
            channels.health().follows(endpoint);
        }
        return status;
    }

    /**
     * Maintenance MoveLeader on exactly this endpoint. etcd refuses it with "not leader" unless that member leads, and
     * otherwise answers once it sees the transferee lead (or with "leader transfer took too long").
     */
    void moveLeader(URI endpoint, long transferee, Deadline deadline) {
        channels.onEndpoint(
                endpoint,
                deadline,
                a -> MaintenanceGrpc.newBlockingStub(a.authorized())
                        .withDeadline(a.deadline())
                        .moveLeader(MoveLeaderRequest.newBuilder()
                                .setTargetID(transferee)
                                .build()));
    }

    /**
     * Streams Maintenance Snapshot from this endpoint into the sink. The blocking iterator pulls one message at a time,
     * so gRPC flow control keeps etcd from sending faster than the sink drains.
     */
    long snapshot(URI endpoint, OutputStream sink, Deadline deadline) {
        return channels.onEndpoint(endpoint, deadline, a -> stream(a.authorized(), sink, deadline));
    }

    private static long stream(Channel channel, OutputStream sink, Deadline deadline) {
        Context.CancellableContext call = Context.current().withCancellation();
        Context previous = call.attach();
        long written = 0;
        try {
            Iterator<SnapshotResponse> messages = MaintenanceGrpc.newBlockingStub(channel)
                    .withDeadline(deadline)
                    .snapshot(SnapshotRequest.getDefaultInstance());
            while (messages.hasNext()) {
                ByteString blob = messages.next().getBlob();
                try {
                    blob.writeTo(sink);
                } catch (IOException | RuntimeException e) {
                    throw new SinkFailure(e);
                }
                written += blob.size();
            }
            return written;
        } finally {
            call.detach(previous);
            call.cancel(null); // ends the stream early when the sink failed; a no-op after normal completion
        }
    }

    /** Carries a failure of the caller's sink past the gRPC failure classifier. */
    static final class SinkFailure extends RuntimeException {
        SinkFailure(Exception cause) {
            super(cause);
        }

        RuntimeException failure() {
            return getCause() instanceof RuntimeException r ? r : new UncheckedIOException((IOException) getCause());
        }
    }

    /** Maintenance Defragment on exactly this endpoint; the member answers nothing else until it is done. */
    void defragment(URI endpoint, Deadline deadline) {
        channels.onEndpoint(
                endpoint,
                deadline,
                a -> MaintenanceGrpc.newBlockingStub(a.authorized())
                        .withDeadline(a.deadline())
                        .defragment(DefragmentRequest.getDefaultInstance()));
    }

    /** The cluster's alarms (raft state, so any voter answers for all members). */
    List<Alarm> alarms(Deadline deadline) {
        AlarmRequest request = AlarmRequest.newBuilder()
                .setAction(AlarmRequest.AlarmAction.GET)
                .build();
        return channels
                .onAnyEndpoint(
                        deadline,
                        a -> MaintenanceGrpc.newBlockingStub(a.authorized())
                                .withDeadline(a.deadline())
                                .alarm(request))
                .getAlarmsList()
                .stream()
                .filter(m -> m.getAlarmValue() != AlarmType.NONE_VALUE)
                .map(DirectRpc::alarm)
                .toList();
    }

    /** Disarming twice is harmless, so a try that got no answer may be repeated elsewhere. */
    void disarm(Alarm alarm, Deadline deadline) {
        AlarmRequest request = AlarmRequest.newBuilder()
                .setAction(AlarmRequest.AlarmAction.DEACTIVATE)
                .setMemberID(alarm.member().value())
                .setAlarmValue(alarm.kind() == Alarm.Kind.NOSPACE ? AlarmType.NOSPACE_VALUE : ALARM_CORRUPT)
                .build();
        channels.onAnyEndpoint(
                deadline,
                a -> MaintenanceGrpc.newBlockingStub(a.authorized())
                        .withDeadline(a.deadline())
                        .alarm(request));
    }

    /**
     * Compacts to the current revision, read from a count-only range header on the same endpoint. Physical: etcd
     * answers once the old revisions are removed from the backend, so a defragment after it can reclaim their space.
     * Repeated elsewhere after no answer, a compaction the first try did apply comes back as "already compacted".
     */
    long compactToCurrent(Deadline deadline) {
        RangeRequest head = RangeRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8("\0"))
                .setCountOnly(true)
                .build();
        return channels.onAnyEndpoint(deadline, a -> {
            Channel authorized = a.authorized();
            long revision = KVGrpc.newBlockingStub(authorized)
                    .withDeadline(a.deadline())
                    .range(head)
                    .getHeader()
                    .getRevision();
            KVGrpc.newBlockingStub(authorized)
                    .withDeadline(a.deadline())
                    .compact(CompactionRequest.newBuilder()
                            .setRevision(revision)
                            .setPhysical(true)
                            .build());
            return revision;
        });
    }

    private static Alarm alarm(AlarmMember member) {
        Alarm.Kind kind = member.getAlarmValue() == AlarmType.NOSPACE_VALUE ? Alarm.Kind.NOSPACE : Alarm.Kind.CORRUPT;
        return new Alarm(new MemberId(member.getMemberID()), kind);
    }

    /** An anonymous serializable read: refused with "user name is empty" exactly when auth is enabled. */
    void anonymousRead(Deadline deadline) {
        RangeRequest probe = RangeRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8("health"))
                .setSerializable(true)
                .setCountOnly(true)
                .build();
        channels.onAnyEndpoint(
                deadline,
                a -> KVGrpc.newBlockingStub(a.anonymous())
                        .withDeadline(a.deadline())
                        .range(probe));
    }

    /** AuthUserAdd; "user name already exists" (also after a try that got no answer) is the caller's to judge. */
    void addUser(String user, String password, Deadline deadline) {
        AuthUserAddRequest request = AuthUserAddRequest.newBuilder()
                .setName(user)
                .setPassword(password)
                .build();
        channels.onAnyEndpoint(
                deadline,
                a -> AuthGrpc.newBlockingStub(a.authorized())
                        .withDeadline(a.deadline())
                        .userAdd(request));
    }

    /** AuthUserChangePassword; setting the password a user already has is harmless, so a repeat is too. */
    void changePassword(String user, String password, Deadline deadline) {
        AuthUserChangePasswordRequest request = AuthUserChangePasswordRequest.newBuilder()
                .setName(user)
                .setPassword(password)
                .build();
        channels.onAnyEndpoint(
                deadline,
                a -> AuthGrpc.newBlockingStub(a.authorized())
                        .withDeadline(a.deadline())
                        .userChangePassword(request));
    }

    /** AuthUserGrantRole; etcd ignores a grant the user already has, so a repeat is harmless. */
    void grantRole(String user, String role, Deadline deadline) {
        AuthUserGrantRoleRequest request = AuthUserGrantRoleRequest.newBuilder()
                .setUser(user)
                .setRole(role)
                .build();
        channels.onAnyEndpoint(
                deadline,
                a -> AuthGrpc.newBlockingStub(a.authorized())
                        .withDeadline(a.deadline())
                        .userGrantRole(request));
    }

    /** AuthEnable; enabling auth that is on already succeeds. */
    void enableAuth(Deadline deadline) {
        channels.onAnyEndpoint(
                deadline,
                a -> AuthGrpc.newBlockingStub(a.authorized())
                        .withDeadline(a.deadline())
                        .authEnable(AuthEnableRequest.getDefaultInstance()));
    }

    static EndpointStatus endpointStatus(StatusResponse response) {
        UnknownFieldSet newer = response.getUnknownFields();
        List<String> errors = new ArrayList<>();
        if (newer.hasField(STATUS_ERRORS)) {
            newer.getField(STATUS_ERRORS).getLengthDelimitedList().forEach(b -> errors.add(b.toStringUtf8()));
        }
        return new EndpointStatus(
                response.getVersion(),
                new MemberId(response.getHeader().getMemberId()),
                new MemberId(response.getLeader()),
                response.getRaftIndex(),
                varint(newer, STATUS_RAFT_APPLIED_INDEX),
                response.getRaftTerm(),
                response.getDbSize(),
                varint(newer, STATUS_DB_SIZE_IN_USE),
                response.getHeader().getRevision(),
                varint(newer, STATUS_IS_LEARNER) != 0,
                errors);
    }

    private static long varint(UnknownFieldSet fields, int number) {
        if (!fields.hasField(number) || fields.getField(number).getVarintList().isEmpty()) {
            return 0;
        }
        return fields.getField(number).getVarintList().getLast();
    }
}
