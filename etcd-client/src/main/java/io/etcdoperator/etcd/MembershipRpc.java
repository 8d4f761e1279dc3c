package io.etcdoperator.etcd;

import io.etcd.jetcd.api.ClusterGrpc;
import io.etcd.jetcd.api.MemberAddRequest;
import io.etcd.jetcd.api.MemberListRequest;
import io.etcd.jetcd.api.MemberListResponse;
import io.etcd.jetcd.api.MemberRemoveRequest;
import io.etcd.jetcd.api.ResponseHeader;
import io.grpc.CallOptions;
import io.grpc.Deadline;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Cluster service: member list, add and remove on whichever endpoint answers, promote on the leader only.
 * Which of them may be repeated on another endpoint after a try that got no answer is in docs/etcd-client.md.
 */
final class MembershipRpc {

    // MemberPromoteRequest {uint64 ID = 1} and MemberPromoteResponse {header = 1; repeated Member members = 2} have
    // the wire layout of MemberRemoveRequest and MemberListResponse, which jetcd-api does generate (jetcd lacks
    // promote).
    private static final MethodDescriptor<MemberRemoveRequest, MemberListResponse> MEMBER_PROMOTE =
            MethodDescriptor.<MemberRemoveRequest, MemberListResponse>newBuilder()
                    .setType(MethodDescriptor.MethodType.UNARY)
                    .setFullMethodName(MethodDescriptor.generateFullMethodName("etcdserverpb.Cluster", "MemberPromote"))
                    .setRequestMarshaller(ProtoUtils.marshaller(MemberRemoveRequest.getDefaultInstance()))
                    .setResponseMarshaller(ProtoUtils.marshaller(MemberListResponse.getDefaultInstance()))
                    .build();
    private static final String PEER_URL_EXISTS = "peer urls already exists";

    private final EtcdChannels channels;
    private final DirectRpc direct;

    MembershipRpc(EtcdChannels channels, DirectRpc direct) {
        this.channels = channels;
        this.direct = direct;
    }

    Membership members(Deadline deadline) {
        MemberListResponse response = channels.onAnyEndpoint(
                deadline,
                a -> ClusterGrpc.newBlockingStub(a.authorized())
                        .withDeadline(a.deadline())
                        .memberList(MemberListRequest.getDefaultInstance()));
        return membership(response.getHeader(), response.getMembersList());
    }

    /**
     * MemberAdd, repeated on the next endpoint when a try got no answer. That is safe because etcd admits one member per
     * peer URL: should the silent try have been applied (or be applied later), the repeat is refused with "peer URLs
     * already exists", and then the member list read afterwards tells whether our member is there.
     */
    Membership add(URI peerUrl, boolean learner, Deadline deadline) {
        MemberAddRequest request = MemberAddRequest.newBuilder()
                .addPeerURLs(peerUrl.toString())
                .setIsLearner(learner)
                .build();
        AtomicBoolean unknown = new AtomicBoolean();
        try {
            var response = channels.onAnyEndpoint(deadline, a -> {
                try {
                    return ClusterGrpc.newBlockingStub(a.authorized())
                            .withDeadline(a.deadline())
                            .memberAdd(request);
                } catch (StatusRuntimeException e) {
                    unknown.compareAndSet(false, EtcdChannels.outcomeUnknown(e));
                    throw e;
                }
            });
            return membership(response.getHeader(), response.getMembersList());
        } catch (StatusRuntimeException e) {
            if (!unknown.get() || !FailureClassifier.mentions(e, PEER_URL_EXISTS)) {
                throw e;
            }
            Membership after = members(deadline);
            if (after.byPeerUrl(peerUrl).filter(m -> m.learner() == learner).isEmpty()) {
                throw e;
            }
            return after; // our earlier try was applied
        }
    }

    /**
     * MemberRemove, repeated on the next endpoint when a try got no answer: should the silent try have been applied,
     * the repeat says "member not found", which every caller already reads as "gone".
     */
    void remove(long id, Deadline deadline) {
        MemberRemoveRequest request = MemberRemoveRequest.newBuilder().setID(id).build();
        channels.onAnyEndpoint(
                deadline,
                a -> ClusterGrpc.newBlockingStub(a.authorized())
                        .withDeadline(a.deadline())
                        .memberRemove(request));
    }

    /**
     * MemberPromote on the leader only: a follower forwards it over the peer API, which failed with auth on before etcd
     * 3.5.28 and then ran into the deadline (issue 11: 50 promotes to one follower). The leader is the hint if its
     * Status says so, else the member the answering endpoints name as leader; never a follower.
     */
    void promote(long id, Optional<URI> hint, Deadline deadline) {
        URI leader = leaderEndpoint(hint, deadline);
        MemberRemoveRequest request = MemberRemoveRequest.newBuilder().setID(id).build();
        channels.onEndpoint(
                leader,
                deadline,
                a -> ClientCalls.blockingUnaryCall(
                        a.authorized(), MEMBER_PROMOTE, CallOptions.DEFAULT.withDeadline(a.deadline()), request));
    }

    /** The client URL of the member that leads, asking Status of the hint, then the known leader, then the rest. */
    URI leaderEndpoint(Optional<URI> hint, Deadline deadline) {
        Set<URI> candidates = new LinkedHashSet<>();
        hint.ifPresent(candidates::add);
        channels.health().leader().ifPresent(candidates::add);
        candidates.addAll(channels.health().order());
        List<String> tried = new ArrayList<>();
        for (URI endpoint : candidates) {
            if (deadline.isExpired()) {
                break;
            }
            EndpointStatus status;
            try {
                status = direct.status(endpoint, EtcdChannels.attemptDeadline(deadline, remaining(deadline), false));
            } catch (StatusRuntimeException e) {
                if (!EtcdChannels.noAnswer(e)) {
                    throw e;
                }
                tried.add(endpoint + " " + e.getStatus().getCode());
                continue;
            }
            if (status.isLeader()) {
                return endpoint;
            }
            if (status.leader().value() != 0) {
                return advertised(status.leader(), deadline);
            }
            tried.add(endpoint + " knows no leader");
        }
        throw Status.UNAVAILABLE
                .withDescription("no leader found to promote on: " + String.join(", ", tried))
                .asRuntimeException();
    }

    /** The leader's client URL as the member list has it, preferring one this connection dials anyway. */
    private URI advertised(MemberId leader, Deadline deadline) {
        Member member = members(deadline)
                .byId(leader)
                .orElseThrow(() -> Status.UNAVAILABLE
                        .withDescription("leader " + leader + " is not in the member list")
                        .asRuntimeException());
        return member.clientUrls().stream()
                .filter(channels.endpoints()::contains)
                .findFirst()
                .or(() -> member.clientUrls().stream().findFirst())
                .orElseThrow(() -> Status.UNAVAILABLE
                        .withDescription("leader " + leader + " has no client URL")
                        .asRuntimeException());
    }

    /** Each Status probe gets half of what is left, so the promote itself always keeps the other half. */
    private static Duration remaining(Deadline deadline) {
        return Duration.ofMillis(deadline.timeRemaining(TimeUnit.MILLISECONDS));
    }

    static Membership membership(ResponseHeader header, List<io.etcd.jetcd.api.Member> members) {
        return new Membership(
                new ClusterId(header.getClusterId()),
                members.stream().map(MembershipRpc::member).toList());
    }

    private static Member member(io.etcd.jetcd.api.Member m) {
        return new Member(
                new MemberId(m.getID()),
                m.getName(),
                m.getPeerURLsList().stream().map(URI::create).toList(),
                m.getClientURLsList().stream().map(URI::create).toList(),
                m.getIsLearner());
    }
}
