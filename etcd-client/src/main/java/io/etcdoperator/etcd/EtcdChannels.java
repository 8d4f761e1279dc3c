package io.etcdoperator.etcd;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.AuthGrpc;
import io.etcd.jetcd.api.AuthenticateRequest;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Deadline;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NegotiationType;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.netty.channel.ChannelOption;
import io.netty.handler.ssl.SslContext;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One gRPC channel per endpoint of a connection, the auth token, and how a call picks its endpoints: in
 * {@link EndpointHealth#order()}, each attempt bounded by its own share of the call's deadline, moving on only when
 * an endpoint did not answer. See docs/etcd-client.md.
 */
final class EtcdChannels implements AutoCloseable {

    private static final Metadata.Key<String> TOKEN = Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER);
    private static final String INVALID_TOKEN = "invalid auth token";
    static final String ALLOCATION_TRACKING = "io.grpc.ManagedChannel.enableAllocationTracking";

    static {
        // gRPC keeps each channel's creation stack trace (1.6 KiB; 3000 channels at 1000 clusters) to name a channel
        // never shut down; ours are closed by their pool. An operator started with the property set keeps its choice.
        if (System.getProperty(ALLOCATION_TRACKING) == null) {
            System.setProperty(ALLOCATION_TRACKING, "false");
        }
    }

    /** One try on one endpoint: the channel (with the token once asked for) and this try's deadline. */
    final class Attempt {
        private final URI endpoint;
        private final Deadline deadline;

        private Attempt(URI endpoint, Deadline deadline) {
            this.endpoint = endpoint;
            this.deadline = deadline;
        }

        URI endpoint() {
            return endpoint;
        }

        Deadline deadline() {
            return deadline;
        }

        /** The channel carrying the token, when there are credentials and auth is on. */
        Channel authorized() {
            return EtcdChannels.this.authorized(channel(endpoint), deadline);
        }

        /** The channel without a token (the "is auth on" probe). */
        Channel anonymous() {
            return channel(endpoint);
        }
    }

    private final EtcdConnection connection;
    private final SslContext sslContext;
    private final EndpointHealth health;
    private final Map<URI, ManagedChannel> channels = new ConcurrentHashMap<>();
    private Optional<String> token; // null until the first call that needs it

    EtcdChannels(EtcdConnection connection, SslContext sslContext, Clock clock) {
        this.connection = connection;
        this.sslContext = sslContext;
        this.health = new EndpointHealth(connection.endpoints(), clock);
    }

    EndpointHealth health() {
        return health;
    }

    List<URI> endpoints() {
        return connection.endpoints();
    }

    /** A deadline of the connection's timeout from now: the bound of one whole call. */
    Deadline callDeadline() {
        return Deadline.after(connection.timeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Tries the endpoints in {@link EndpointHealth#order()} until one answers. Every try but the last gets half of the
     * connection's timeout at most, the last one what is left of {@code overall}; only a try that got no answer
     * ({@link #noAnswer}) moves on. When none answers, the failure names every endpoint tried and why.
     */
    <T> T onAnyEndpoint(Deadline overall, Function<Attempt, T> call) {
        List<URI> order = health.order();
        List<String> tried = new ArrayList<>();
        StatusRuntimeException last = null;
        for (int i = 0; i < order.size() && !overall.isExpired(); i++) {
            URI endpoint = order.get(i);
            Deadline deadline = attemptDeadline(overall, connection.timeout(), i == order.size() - 1);
            long started = System.nanoTime();
            try {
                return onEndpoint(endpoint, deadline, call);
            } catch (StatusRuntimeException e) {
                if (!noAnswer(e)) {
                    throw e;
                }
                tried.add(endpoint + " " + e.getStatus().getCode() + " after "
                        + (System.nanoTime() - started) / 1_000_000 + " ms");
                last = e;
            }
        }
        if (last == null) {
            throw Status.DEADLINE_EXCEEDED
                    .withDescription("no time left to try " + order)
                    .asRuntimeException();
        }
        throw Status.UNAVAILABLE
                .withDescription("no endpoint answered: " + String.join(", ", tried))
                .withCause(last)
                .asRuntimeException();
    }

    /** One call on exactly this endpoint; the health learns whether it answered. A stale token is renewed once. */
    <T> T onEndpoint(URI endpoint, Deadline deadline, Function<Attempt, T> call) {
        try {
            T result = renewingToken(new Attempt(endpoint, deadline), call);
            health.answered(endpoint);
            return result;
        } catch (StatusRuntimeException e) {
            if (noAnswer(e)) {
                health.failed(endpoint);
            } else {
                health.answered(endpoint);
            }
            throw e;
        }
    }

    /**
     * Whether the endpoint gave no answer of its own: unreachable, refused, out of time, or etcd's own "no leader" /
     * "request timed out" (UNAVAILABLE without a refusal the classifier knows). Only then may a call go elsewhere.
     */
    static boolean noAnswer(StatusRuntimeException e) {
        Status.Code code = e.getStatus().getCode();
        return (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED)
                && FailureClassifier.classify("", e).getClass() == EtcdException.Unavailable.class;
    }

    /** Whether a change sent in this try may have been applied although no answer came (the request left us). */
    static boolean outcomeUnknown(StatusRuntimeException e) {
        return e.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED
                || FailureClassifier.mentions(e, "request timed out");
    }

    /** This try's bound: the rest of the call for the last endpoint, else half the timeout at most. */
    static Deadline attemptDeadline(Deadline overall, Duration timeout, boolean last) {
        if (last) {
            return overall;
        }
        return overall.minimum(Deadline.after(Math.max(1, timeout.toMillis() / 2), TimeUnit.MILLISECONDS));
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow);
        channels.clear();
    }

    private <T> T renewingToken(Attempt attempt, Function<Attempt, T> call) {
        try {
            return call.apply(attempt);
        } catch (StatusRuntimeException e) {
            if (connection.credentials().isEmpty() || !FailureClassifier.mentions(e, INVALID_TOKEN)) {
                throw e;
            }
            forgetToken(); // etcd's simple tokens expire after 5 minutes unused
            return call.apply(attempt);
        }
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

    private synchronized void forgetToken() {
        token = null;
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
            token = Optional.of(onAnyEndpoint(
                    deadline,
                    a -> AuthGrpc.newBlockingStub(a.anonymous())
                            .withDeadline(a.deadline())
                            .authenticate(request)
                            .getToken()));
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
                .withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        connection.timeout().toMillis())
                .idleTimeout(EtcdConnection.CHANNEL_IDLE.toMillis(), TimeUnit.MILLISECONDS);
        if (sslContext != null) {
            builder.negotiationType(NegotiationType.TLS).sslContext(sslContext);
        } else {
            builder.usePlaintext();
        }
        return builder.build();
    }
}
