package io.etcdoperator.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.grpc.Deadline;
import io.netty.handler.ssl.SslContext;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/** {@link EtcdAdmin} over a jetcd {@link Client}, plus {@link DirectRpc} for the calls jetcd 0.8.5 lacks. */
public final class JetcdEtcdAdmin implements EtcdAdmin {

  public static final EtcdAdmin.Factory FACTORY = JetcdEtcdAdmin::open;

  private static final ByteSequence ROOT = ByteSequence.from("root", StandardCharsets.UTF_8);

  private final EtcdConnection connection;
  private final SslContext sslContext;
  private final Client client;
  private final DirectRpc direct;
  private Client anonymous;

  private JetcdEtcdAdmin(EtcdConnection connection, SslContext sslContext) {
    this.connection = connection;
    this.sslContext = sslContext;
    this.client = builder(true).build();
    this.direct = new DirectRpc(connection, sslContext);
  }

  public static JetcdEtcdAdmin open(EtcdConnection connection) {
    SslContext sslContext = connection.tls().map(ClientSslContext::of).orElse(null);
    return new JetcdEtcdAdmin(connection, sslContext);
  }

  @Override
  public Membership members() {
    var response = call("list members", c -> c.getClusterClient().listMember());
    return membership(response.getHeader().getClusterId(), response.getMembers());
  }

  @Override
  public Membership addLearner(URI peerUrl) {
    var response = call("add learner " + peerUrl, c -> c.getClusterClient().addMember(List.of(peerUrl), true));
    return membership(response.getHeader().getClusterId(), response.getMembers());
  }

  @Override
  public Membership addVoter(URI peerUrl) {
    var response = call("add voter " + peerUrl, c -> c.getClusterClient().addMember(List.of(peerUrl), false));
    return membership(response.getHeader().getClusterId(), response.getMembers());
  }

  @Override
  public void promote(MemberId id) {
    direct("promote member " + id, deadline -> direct.promote(id.value(), deadline));
  }

  @Override
  public void promote(MemberId id, URI leaderClientUrl) {
    direct("promote member " + id + " at " + leaderClientUrl, deadline -> direct.promote(leaderClientUrl, id.value(),
        deadline));
  }

  @Override
  public void remove(MemberId id) {
    call("remove member " + id, c -> c.getClusterClient().removeMember(id.value()));
  }

  @Override
  public EndpointStatus status(URI clientUrl) {
    return direct("status of " + clientUrl, deadline -> direct.status(clientUrl, deadline));
  }

  @Override
  public void moveLeader(URI leaderClientUrl, MemberId transferee) {
    direct("move leader at " + leaderClientUrl + " to member " + transferee, deadline -> {
      direct.moveLeader(leaderClientUrl, transferee.value(), deadline);
      return null;
    });
  }

  @Override
  public long snapshot(URI clientUrl, OutputStream sink, Duration within) {
    Deadline deadline = Deadline.after(within.toMillis(), TimeUnit.MILLISECONDS);
    try {
      return direct.snapshot(clientUrl, sink, deadline);
    } catch (DirectRpc.SinkFailure e) {
      throw e.failure();
    } catch (RuntimeException e) {
      throw FailureClassifier.classify("snapshot of " + clientUrl, e);
    }
  }

  @Override
  public void defragment(URI clientUrl, Duration within) {
    Deadline deadline = Deadline.after(within.toMillis(), TimeUnit.MILLISECONDS);
    try {
      direct.defragment(clientUrl, deadline);
    } catch (RuntimeException e) {
      throw FailureClassifier.classify("defragment " + clientUrl, e);
    }
  }

  @Override
  public List<Alarm> alarms() {
    return direct("list alarms", direct::alarms);
  }

  @Override
  public void disarm(Alarm alarm) {
    direct("disarm " + alarm, deadline -> {
      direct.disarm(alarm, deadline);
      return null;
    });
  }

  @Override
  public Compaction compact() {
    try {
      return new Compaction(direct("compact", direct::compactToCurrent), false);
    } catch (EtcdException e) {
      if (!FailureClassifier.mentions(e, "required revision has been compacted")) {
        throw e;
      }
      return new Compaction(0, true);
    }
  }

  @Override
  public boolean authEnabled() {
    try {
      direct("anonymous read", deadline -> {
        direct.anonymousRead(deadline);
        return null;
      });
      return false;
    } catch (EtcdException.AuthRequired e) {
      return true;
    }
  }

  @Override
  public void enableAuth(String rootPassword) {
    ByteSequence password = ByteSequence.from(rootPassword, StandardCharsets.UTF_8);
    try {
      call("add user root", c -> c.getAuthClient().userAdd(ROOT, password));
    } catch (EtcdException e) {
      if (!FailureClassifier.mentions(e, "user name already exists")) {
        throw e;
      }
    }
    call("grant role root to user root", c -> c.getAuthClient().userGrantRole(ROOT, ROOT));
    call("enable auth", c -> c.getAuthClient().authEnable());
  }

  @Override
  public synchronized void close() {
    direct.close();
    client.close();
    if (anonymous != null) {
      anonymous.close();
    }
  }

  @Override
  public String toString() {
    return "JetcdEtcdAdmin[" + connection + "]";
  }

  private ClientBuilder builder(boolean withCredentials) {
    ClientBuilder builder = Client.builder()
        .endpoints(connection.endpoints().toArray(URI[]::new))
        .connectTimeout(connection.timeout())
        .waitForReady(false); // fail fast on a dead endpoint; every call is bounded by the timeout anyway
    if (sslContext != null) {
      builder.sslContext(sslContext);
    }
    if (withCredentials) {
      connection.credentials().ifPresent(c -> builder
          .user(ByteSequence.from(c.user(), StandardCharsets.UTF_8))
          .password(ByteSequence.from(c.password(), StandardCharsets.UTF_8)));
    }
    return builder;
  }

  /**
   * Runs one jetcd call within the timeout. Credentials sent to a cluster whose auth is still off get "authentication
   * is not enabled"; like etcd's Go client we then go on without them (bootstrap: enableAuth comes after).
   */
  private <T> T call(String action, Function<Client, CompletableFuture<T>> rpc) {
    try {
      return await(action, () -> rpc.apply(client));
    } catch (EtcdException e) {
      if (connection.credentials().isEmpty() || !FailureClassifier.mentions(e, FailureClassifier.AUTH_NOT_ENABLED)) {
        throw e;
      }
      return await(action, () -> rpc.apply(anonymous()));
    }
  }

  private <T> T await(String action, Supplier<CompletableFuture<T>> rpc) {
    CompletableFuture<T> future;
    try {
      future = rpc.get();
    } catch (RuntimeException e) {
      throw FailureClassifier.classify(action, e);
    }
    try {
      return future.get(connection.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw FailureClassifier.classify(action, e.getCause());
    } catch (TimeoutException e) {
      future.cancel(true);
      throw FailureClassifier.timedOut(action, connection.endpoints(), connection.timeout(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(true);
      throw new EtcdException.Unavailable(action + " was interrupted", e);
    }
  }

  private <T> T direct(String action, Function<Deadline, T> rpc) {
    Deadline deadline = Deadline.after(connection.timeout().toMillis(), TimeUnit.MILLISECONDS);
    try {
      return rpc.apply(deadline);
    } catch (RuntimeException e) {
      throw FailureClassifier.classify(action, e);
    }
  }

  private synchronized Client anonymous() {
    if (anonymous == null) {
      anonymous = builder(false).build();
    }
    return anonymous;
  }

  private static Membership membership(long clusterId, List<io.etcd.jetcd.cluster.Member> members) {
    return new Membership(new ClusterId(clusterId), members.stream().map(JetcdEtcdAdmin::member).toList());
  }

  private static Member member(io.etcd.jetcd.cluster.Member m) {
    return new Member(new MemberId(m.getId()), m.getName(), m.getPeerURIs(), m.getClientURIs(), m.isLearner());
  }
}
