package io.etcdoperator.etcd;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.etcd.jetcd.api.AlarmMember;
import io.etcd.jetcd.api.AlarmRequest;
import io.etcd.jetcd.api.AlarmType;
import io.etcd.jetcd.api.AuthGrpc;
import io.etcd.jetcd.api.AuthenticateRequest;
import io.etcd.jetcd.api.CompactionRequest;
import io.etcd.jetcd.api.DefragmentRequest;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.MaintenanceGrpc;
import io.etcd.jetcd.api.MemberListResponse;
import io.etcd.jetcd.api.MemberRemoveRequest;
import io.etcd.jetcd.api.MoveLeaderRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.SnapshotRequest;
import io.etcd.jetcd.api.SnapshotResponse;
import io.etcd.jetcd.api.StatusRequest;
import io.etcd.jetcd.api.StatusResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NegotiationType;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.netty.channel.ChannelOption;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * etcd RPCs that jetcd 0.8.5 does not offer, made on gRPC channels of our own with jetcd's generated messages:
 * MemberPromote (absent from jetcd), the full Maintenance Status (jetcd drops isLearner, raftAppliedIndex, ...),
 * MoveLeader on one chosen endpoint (jetcd sends it wherever its load balancer points, and only the leader may
 * answer it), and an anonymous probe for "is auth on" (3.4 has no AuthStatus RPC).
 */
final class DirectRpc implements AutoCloseable {

  // MemberPromoteRequest {uint64 ID = 1} and MemberPromoteResponse {header = 1; repeated Member members = 2} have
  // the wire layout of MemberRemoveRequest and MemberListResponse, which jetcd-api does generate.
  private static final MethodDescriptor<MemberRemoveRequest, MemberListResponse> MEMBER_PROMOTE =
      MethodDescriptor.<MemberRemoveRequest, MemberListResponse>newBuilder()
          .setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName(MethodDescriptor.generateFullMethodName("etcdserverpb.Cluster", "MemberPromote"))
          .setRequestMarshaller(ProtoUtils.marshaller(MemberRemoveRequest.getDefaultInstance()))
          .setResponseMarshaller(ProtoUtils.marshaller(MemberListResponse.getDefaultInstance()))
          .build();
  private static final Metadata.Key<String> TOKEN = Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER);
  private static final int ALARM_CORRUPT = 2; // etcd's AlarmType CORRUPT; jetcd's generated enum stops at NOSPACE
  private static final int STATUS_RAFT_APPLIED_INDEX = 7;
  private static final int STATUS_ERRORS = 8;
  private static final int STATUS_DB_SIZE_IN_USE = 9;
  private static final int STATUS_IS_LEARNER = 10;

  private final EtcdConnection connection;
  private final SslContext sslContext;
  private final Map<URI, ManagedChannel> channels = new ConcurrentHashMap<>();
  private Optional<String> token; // null until the first call that needs it

  DirectRpc(EtcdConnection connection, SslContext sslContext) {
    this.connection = connection;
    this.sslContext = sslContext;
  }

  MemberListResponse promote(long memberId, Deadline deadline) {
    MemberRemoveRequest request = MemberRemoveRequest.newBuilder().setID(memberId).build();
    return onAnyEndpoint(deadline, channel ->
        ClientCalls.blockingUnaryCall(authorized(channel, deadline), MEMBER_PROMOTE,
            CallOptions.DEFAULT.withDeadline(deadline), request));
  }

  /** MemberPromote on exactly this endpoint: the leader's, since only the leader decides (a follower forwards). */
  MemberListResponse promote(URI endpoint, long memberId, Deadline deadline) {
    MemberRemoveRequest request = MemberRemoveRequest.newBuilder().setID(memberId).build();
    return ClientCalls.blockingUnaryCall(authorized(channel(endpoint), deadline), MEMBER_PROMOTE,
        CallOptions.DEFAULT.withDeadline(deadline), request);
  }

  /** Status of exactly this endpoint (a learner answers Status too). */
  EndpointStatus status(URI endpoint, Deadline deadline) {
    Channel channel = authorized(channel(endpoint), deadline);
    StatusResponse response = MaintenanceGrpc.newBlockingStub(channel).withDeadline(deadline)
        .status(StatusRequest.getDefaultInstance());
    return endpointStatus(response);
  }

  /**
   * Maintenance MoveLeader on exactly this endpoint. etcd refuses it with "not leader" unless that member leads, and
   * otherwise answers once it sees the transferee lead (or with "leader transfer took too long").
   */
  void moveLeader(URI endpoint, long transferee, Deadline deadline) {
    Channel channel = authorized(channel(endpoint), deadline);
    MaintenanceGrpc.newBlockingStub(channel).withDeadline(deadline)
        .moveLeader(MoveLeaderRequest.newBuilder().setTargetID(transferee).build());
  }

  /**
   * Streams Maintenance Snapshot from this endpoint into the sink. The blocking iterator pulls one message at a time,
   * so gRPC flow control keeps etcd from sending faster than the sink drains.
   */
  long snapshot(URI endpoint, OutputStream sink, Deadline deadline) {
    Channel channel = authorized(channel(endpoint), deadline);
    Context.CancellableContext call = Context.current().withCancellation();
    Context previous = call.attach();
    long written = 0;
    try {
      Iterator<SnapshotResponse> messages = MaintenanceGrpc.newBlockingStub(channel).withDeadline(deadline)
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
      return getCause() instanceof RuntimeException r ? r : new java.io.UncheckedIOException((IOException) getCause());
    }
  }

  /** Maintenance Defragment on exactly this endpoint; the member answers nothing else until it is done. */
  void defragment(URI endpoint, Deadline deadline) {
    Channel channel = authorized(channel(endpoint), deadline);
    MaintenanceGrpc.newBlockingStub(channel).withDeadline(deadline).defragment(DefragmentRequest.getDefaultInstance());
  }

  /** The cluster's alarms (raft state, so any voter answers for all members). */
  List<Alarm> alarms(Deadline deadline) {
    AlarmRequest request = AlarmRequest.newBuilder().setAction(AlarmRequest.AlarmAction.GET).build();
    return onAnyEndpoint(deadline, channel -> MaintenanceGrpc.newBlockingStub(authorized(channel, deadline))
        .withDeadline(deadline).alarm(request)).getAlarmsList().stream()
        .filter(a -> a.getAlarmValue() != AlarmType.NONE_VALUE)
        .map(DirectRpc::alarm)
        .toList();
  }

  void disarm(Alarm alarm, Deadline deadline) {
    AlarmRequest request = AlarmRequest.newBuilder().setAction(AlarmRequest.AlarmAction.DEACTIVATE)
        .setMemberID(alarm.member().value())
        .setAlarmValue(alarm.kind() == Alarm.Kind.NOSPACE ? AlarmType.NOSPACE_VALUE : ALARM_CORRUPT)
        .build();
    onAnyEndpoint(deadline, channel -> MaintenanceGrpc.newBlockingStub(authorized(channel, deadline))
        .withDeadline(deadline).alarm(request));
  }

  /**
   * Compacts to the current revision, read from a count-only range header on the same endpoint. Physical: etcd
   * answers once the old revisions are removed from the backend, so a defragment after it can reclaim their space.
   */
  long compactToCurrent(Deadline deadline) {
    RangeRequest head = RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("\0")).setCountOnly(true).build();
    return onAnyEndpoint(deadline, channel -> {
      Channel authorized = authorized(channel, deadline);
      long revision = KVGrpc.newBlockingStub(authorized).withDeadline(deadline).range(head).getHeader().getRevision();
      KVGrpc.newBlockingStub(authorized).withDeadline(deadline)
          .compact(CompactionRequest.newBuilder().setRevision(revision).setPhysical(true).build());
      return revision;
    });
  }

  private static Alarm alarm(AlarmMember member) {
    Alarm.Kind kind = member.getAlarmValue() == AlarmType.NOSPACE_VALUE ? Alarm.Kind.NOSPACE : Alarm.Kind.CORRUPT;
    return new Alarm(new MemberId(member.getMemberID()), kind);
  }

  /** An anonymous serializable read: refused with "user name is empty" exactly when auth is enabled. */
  void anonymousRead(Deadline deadline) {
    RangeRequest probe = RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("health"))
        .setSerializable(true).setCountOnly(true).build();
    onAnyEndpoint(deadline, channel -> KVGrpc.newBlockingStub(channel).withDeadline(deadline).range(probe));
  }

  @Override
  public void close() {
    channels.values().forEach(ManagedChannel::shutdownNow);
    channels.clear();
  }

  static EndpointStatus endpointStatus(StatusResponse response) {
    UnknownFieldSet newer = response.getUnknownFields();
    List<String> errors = new ArrayList<>();
    if (newer.hasField(STATUS_ERRORS)) {
      newer.getField(STATUS_ERRORS).getLengthDelimitedList().forEach(b -> errors.add(b.toStringUtf8()));
    }
    return new EndpointStatus(response.getVersion(), new MemberId(response.getHeader().getMemberId()),
        new MemberId(response.getLeader()), response.getRaftIndex(), varint(newer, STATUS_RAFT_APPLIED_INDEX),
        response.getRaftTerm(), response.getDbSize(), varint(newer, STATUS_DB_SIZE_IN_USE),
        varint(newer, STATUS_IS_LEARNER) != 0, errors);
  }

  private static long varint(UnknownFieldSet fields, int number) {
    if (!fields.hasField(number) || fields.getField(number).getVarintList().isEmpty()) {
      return 0;
    }
    return fields.getField(number).getVarintList().getLast();
  }

  /** Tries the endpoints in order, moving on only when one is unreachable; all attempts share the deadline. */
  private <T> T onAnyEndpoint(Deadline deadline, Function<ManagedChannel, T> call) {
    StatusRuntimeException last = null;
    for (URI endpoint : connection.endpoints()) {
      try {
        return call.apply(channel(endpoint));
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != io.grpc.Status.Code.UNAVAILABLE || deadline.isExpired()) {
          throw e;
        }
        last = e;
      }
    }
    throw last;
  }

  private Channel authorized(ManagedChannel channel, Deadline deadline) {
    Optional<String> current = token(deadline);
    if (current.isEmpty()) {
      return channel;
    }
    Metadata headers = new Metadata();
    headers.put(TOKEN, current.get());
    return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /** Authenticates once against the (voter) endpoints; no token when no credentials or auth is off, as etcd's Go client does. */
  private synchronized Optional<String> token(Deadline deadline) {
    Optional<String> known = token;
    if (known != null) {
      return known;
    }
    if (connection.credentials().isEmpty()) {
      token = Optional.empty();
      return token;
    }
    EtcdConnection.Credentials credentials = connection.credentials().get();
    AuthenticateRequest request = AuthenticateRequest.newBuilder()
        .setNameBytes(ByteString.copyFrom(credentials.user(), StandardCharsets.UTF_8))
        .setPasswordBytes(ByteString.copyFrom(credentials.password(), StandardCharsets.UTF_8))
        .build();
    try {
      token = Optional.of(onAnyEndpoint(deadline,
          channel -> AuthGrpc.newBlockingStub(channel).withDeadline(deadline).authenticate(request).getToken()));
    } catch (StatusRuntimeException e) {
      if (!FailureClassifier.mentions(e, FailureClassifier.AUTH_NOT_ENABLED)) {
        throw e;
      }
      token = Optional.empty();
    }
    return token;
  }

  private ManagedChannel channel(URI endpoint) {
    return channels.computeIfAbsent(endpoint, this::open);
  }

  private ManagedChannel open(URI endpoint) {
    NettyChannelBuilder builder = NettyChannelBuilder.forAddress(endpoint.getHost(), endpoint.getPort())
        .withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connection.timeout().toMillis())
        .idleTimeout(1, TimeUnit.MINUTES);
    if (sslContext != null) {
      builder.negotiationType(NegotiationType.TLS).sslContext(sslContext);
    } else {
      builder.usePlaintext();
    }
    return builder.build();
  }
}
