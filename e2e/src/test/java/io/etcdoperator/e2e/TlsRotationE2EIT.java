package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.tls.MemberMaterial;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator renews its leaves and restarts the members one at a time while a client writes through the client
 * Service with mTLS: every member rolls, no acknowledged write is lost, and a quorum stays up.
 */
@ExtendWith(LocalKubernetesExtension.class)
class TlsRotationE2EIT {

  // -De2e.long=true waits for natural expiry: leaves are valid from 5 min before issue, and renewal falls due when a
  // third of the lifetime is left, (2 * 9 min - 5 min) / 3 = 4 min 20 s after issue. The default run asks for a
  // renewal now with the renew-certificates-at annotation, which takes the same planner path from the renewal on.
  private static final boolean NATURAL_EXPIRY = Boolean.getBoolean("e2e.long");
  private static final String CERTIFICATE_DURATION = NATURAL_EXPIRY ? "9m" : "2160h";
  private static final Duration RETRY_FOR = Duration.ofSeconds(30);
  private static final String ROLLED = "MemberRolling";

  @Test
  void leafRenewalRollsEveryMemberWhileAClientKeepsWriting(E2eEnvironment env) throws Exception {
    String ns = env.namespace("tls-rotation");
    env.createCluster(ns, "roll", Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("size", "256Mi"),
        "tls", Map.of("operatorIssued", Map.of("certificateDuration", CERTIFICATE_DURATION))));
    env.awaitReady(ns, "roll", 3, Duration.ofMinutes(5));
    String before = Await.value("every member Pod runs the stamped material", Duration.ofMinutes(4),
        () -> converged(env, ns));
    Set<String> podUids = podUids(env, ns);
    Set<String> rollsBefore = rolledEvents(env, ns).stream().map(e -> e.getMetadata().getUid())
        .collect(Collectors.toSet());
    Pod client = clientPod(env, ns);
    Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "tls-rotation-");

    Writer writer = new Writer(env, ns, client, dir);
    ReadySampler sampler = new ReadySampler(env, ns);
    Thread writing = Thread.ofVirtual().start(writer);
    Thread sampling = Thread.ofVirtual().start(sampler);
    Instant start = Instant.now();
    if (!NATURAL_EXPIRY) {
      String now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
      env.client().genericKubernetesResources(E2eEnvironment.CLUSTERS).inNamespace(ns).withName("roll")
          .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
              io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
              "{\"metadata\":{\"annotations\":{\"etcd-operator.cozystack.io/renew-certificates-at\":\"" + now
                  + "\"}}}");
    }
    String after = Await.value("a renewed leaf on every member and READY=3", Duration.ofMinutes(12),
        () -> converged(env, ns).filter(m -> !m.equals(before) && ready(env, ns) == 3));
    Instant rolled = Instant.now();
    writer.stop();
    sampler.stop();
    writing.join(Duration.ofMinutes(1));
    sampling.join(Duration.ofSeconds(10));

    List<Event> rolls = rolledEvents(env, ns).stream().filter(e -> !rollsBefore.contains(e.getMetadata().getUid()))
        .toList();
    Set<String> unread = writer.unreadAcknowledged(dir);
    Instant firstRoll = rolls.isEmpty() ? rolled : Instant.parse(rolls.getFirst().getFirstTimestamp());
    System.out.printf("tls rotation: %d acknowledged writes, %d failed writes, %d retried attempts; %d member "
        + "restarts %s; the roll took %d s (first MemberRolling at %s, %d s after writes began, to every Pod on the "
        + "renewed leaf with READY=3); fewest READY sampled %d of %d samples; longest gap between acknowledged "
        + "writes %d ms%n", writer.acknowledged().size(), writer.failed(), writer.retries(), rolls.size(),
        rolls.stream().map(TlsRotationE2EIT::memberOf).toList(), Duration.between(firstRoll, rolled).toSeconds(),
        firstRoll, Duration.between(start, firstRoll).toSeconds(), sampler.fewest(), sampler.samples(),
        writer.longestGap().toMillis());

    assertThat(after).as("server leaf fingerprint on the Pods").isNotEqualTo(before);
    assertThat(podUids(env, ns)).as("every member Pod was replaced").doesNotContainAnyElementsOf(podUids);
    assertThat(writer.error()).as("writer thread error").isNull();
    assertThat(rolls.stream().map(TlsRotationE2EIT::memberOf).collect(Collectors.toSet()))
        .as("members named by MemberRolling (CertificateRenewed) events").containsExactlyInAnyOrderElementsOf(memberNames(env, ns));
    assertThat(writer.failed()).as("writes that failed for " + RETRY_FOR.toSeconds() + " s").isZero();
    assertThat(writer.acknowledged()).as("acknowledged writes").hasSizeGreaterThan(20);
    assertThat(unread).as("acknowledged keys missing at the end").isEmpty();
    assertThat(sampler.fewest()).as("fewest ready members sampled (quorum is 2)").isGreaterThanOrEqualTo(2);
    assertThat(writer.longestGap()).as("longest time without an acknowledged write").isLessThan(RETRY_FOR);
  }

  /** The server fingerprint, once every member's Pod carries what its EtcdMember was stamped with. */
  private static Optional<String> converged(E2eEnvironment env, String ns) {
    Set<String> stamped = new HashSet<>();
    for (GenericKubernetesResource m : env.members(ns, "roll")) {
      Pod pod = env.client().pods().inNamespace(ns).withName(m.getMetadata().getName()).get();
      String wanted = annotation(m.getMetadata().getAnnotations());
      if (pod == null || pod.getMetadata().getDeletionTimestamp() != null || wanted == null
          || !wanted.equals(annotation(pod.getMetadata().getAnnotations()))) {
        return Optional.empty();
      }
      stamped.add(wanted);
    }
    return stamped.size() == 1 && env.members(ns, "roll").size() == 3
        ? Optional.of(stamped.iterator().next()) : Optional.empty();
  }

  private static String annotation(Map<String, String> annotations) {
    return annotations == null ? null : annotations.get(MemberMaterial.SERVER_ANNOTATION);
  }

  private static int ready(E2eEnvironment env, String ns) {
    Object ready = E2eEnvironment.status(env.cluster(ns, "roll")).get("readyMembers");
    return ready instanceof Number n ? n.intValue() : 0;
  }

  private static Set<String> podUids(E2eEnvironment env, String ns) {
    return env.memberPods(ns, "roll").stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
  }

  private static Set<String> memberNames(E2eEnvironment env, String ns) {
    return env.members(ns, "roll").stream().map(m -> m.getMetadata().getName()).collect(Collectors.toSet());
  }

  /** MemberRolling (CertificateRenewed) events, oldest first; the recorder creates one Event per roll. */
  private static List<Event> rolledEvents(E2eEnvironment env, String ns) {
    return env.client().v1().events().inNamespace(ns).list().getItems().stream()
        .filter(e -> ROLLED.equals(e.getReason()) && e.getMessage().contains("CertificateRenewed"))
        .sorted(Comparator.comparing(Event::getFirstTimestamp)).toList();
  }

  /** "restarting member roll-abcde to load ..." names the member. */
  private static String memberOf(Event rolled) {
    return rolled.getMessage().replaceFirst("^restarting member (\\S+) .*$", "$1");
  }

  /** A Pod that is not a member, so the client is not restarted by the roll it watches. */
  private static Pod clientPod(E2eEnvironment env, String ns) {
    env.client().pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("writer").endMetadata()
        .withNewSpec().addNewContainer().withName("writer").withImage("busybox")
        .withCommand("sh", "-c", "sleep 3600").endContainer().endSpec().build()).create();
    return Await.value("writer Pod running", Duration.ofMinutes(2), () -> Optional.ofNullable(
        env.client().pods().inNamespace(ns).withName("writer").get())
        .filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())
            && p.getStatus().getPodIP() != null));
  }

  /** Puts k00000, k00001, ... through the client Service; a key is retried until acknowledged or RETRY_FOR ends. */
  private static final class Writer implements Runnable {

    private final E2eEnvironment env;
    private final String ns;
    private final Pod pod;
    private final Path dir;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger retries = new AtomicInteger();
    private volatile Duration longestGap = Duration.ZERO;
    private volatile Throwable error;
    private String secretVersion;
    private Path certs;

    Writer(E2eEnvironment env, String ns, Pod pod, Path dir) {
      this.env = env;
      this.ns = ns;
      this.pod = pod;
      this.dir = dir;
    }

    @Override
    public void run() {
      try {
        write();
      } catch (RuntimeException | Error e) {
        error = e;
      }
    }

    private void write() {
      Instant lastAck = Instant.now();
      for (int i = 0; running.get(); i++) {
        String key = String.format("k%05d", i);
        Instant giveUp = Instant.now().plus(RETRY_FOR);
        boolean acked = false;
        while (!acked && Instant.now().isBefore(giveUp)) {
          acked = etcdctl("put " + key + " v" + i) == 0;
          if (!acked) {
            retries.incrementAndGet();
          }
        }
        if (acked) {
          acknowledged.add(key);
          Instant now = Instant.now();
          Duration gap = Duration.between(lastAck, now);
          if (gap.compareTo(longestGap) > 0) {
            longestGap = gap;
          }
          lastAck = now;
        } else {
          failed.incrementAndGet();
        }
      }
    }

    /** Runs etcdctl in the client Pod with the operator-client certificate as the Secret holds it now. */
    int etcdctl(String args) {
      Path tls = currentCertificates();
      String command = "etcdctl --endpoints=https://roll-client." + ns + ".svc:2379 --dial-timeout=3s "
          + "--command-timeout=5s --cacert=" + tls.resolve("ca.crt") + " --cert=" + tls.resolve("tls.crt")
          + " --key=" + tls.resolve("tls.key") + " " + args;
      return env.kube().faults().nodeOf(ns, pod.getMetadata().getName())
          .exec(ns, pod.getMetadata().getName(), "writer", List.of("sh", "-c", command), Duration.ofSeconds(20));
    }

    /** Clients must follow renewals too: a new directory whenever the operator-client Secret changes. */
    private Path currentCertificates() {
      Secret secret = env.client().secrets().inNamespace(ns).withName("roll-operator-client-tls").get();
      if (!secret.getMetadata().getResourceVersion().equals(secretVersion)) {
        try {
          Path next = Files.createDirectories(dir.resolve("certs-" + secret.getMetadata().getResourceVersion()));
          for (String key : List.of("ca.crt", "tls.crt", "tls.key")) {
            Path file = next.resolve(key);
            Files.write(file, Base64.getDecoder().decode(secret.getData().get(key)));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
          }
          certs = next;
          secretVersion = secret.getMetadata().getResourceVersion();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return certs;
    }

    /** Every acknowledged key that a final read does not return. */
    Set<String> unreadAcknowledged(Path out) throws IOException {
      Path keys = out.resolve("keys.txt");
      int code = etcdctl("get k --prefix --keys-only > " + keys);
      assertThat(code).as("final read of every key").isZero();
      Set<String> found = Files.readAllLines(keys).stream().filter(l -> !l.isBlank()).collect(Collectors.toSet());
      Set<String> missing = new HashSet<>(acknowledged);
      missing.removeAll(found);
      return missing;
    }

    void stop() {
      running.set(false);
    }

    List<String> acknowledged() {
      return List.copyOf(acknowledged);
    }

    int failed() {
      return failed.get();
    }

    int retries() {
      return retries.get();
    }

    Duration longestGap() {
      return longestGap;
    }

    Throwable error() {
      return error;
    }
  }

  /** Samples status.readyMembers about twice a second. */
  private static final class ReadySampler implements Runnable {

    private final E2eEnvironment env;
    private final String ns;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger fewest = new AtomicInteger(Integer.MAX_VALUE);
    private final AtomicInteger samples = new AtomicInteger();

    ReadySampler(E2eEnvironment env, String ns) {
      this.env = env;
      this.ns = ns;
    }

    @Override
    public void run() {
      while (running.get()) {
        fewest.accumulateAndGet(ready(env, ns), Math::min);
        samples.incrementAndGet();
        try {
          Thread.sleep(500); // a sampling period, not a wait for a condition
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }

    void stop() {
      running.set(false);
    }

    int fewest() {
      return fewest.get();
    }

    int samples() {
      return samples.get();
    }
  }
}
