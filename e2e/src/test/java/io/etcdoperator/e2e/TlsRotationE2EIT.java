package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.planner.MemberMaterial;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    private static final String ROLLED = "MemberRolling";

    @Test
    void leafRenewalRollsEveryMemberWhileAClientKeepsWriting(E2eEnvironment env) throws Exception {
        String ns = env.namespace("tls-rotation");
        env.createCluster(
                ns,
                "roll",
                Map.of(
                        "replicas",
                        3,
                        "version",
                        "3.5.16",
                        "storage",
                        Map.of("size", "256Mi"),
                        "tls",
                        Map.of("operatorIssued", Map.of("certificateDuration", CERTIFICATE_DURATION))));
        env.awaitReady(ns, "roll", 3, Duration.ofMinutes(5));
        String before = Await.value(
                "every member Pod runs the stamped material", Duration.ofMinutes(4), () -> converged(env, ns));
        assertThat(env.client().v1().events().inNamespace(ns).list().getItems().stream()
                        .filter(e -> e.getMessage() != null && e.getMessage().contains("CertificateRenewed"))
                        .map(Event::getMessage))
                .as("members restarted or replaced onto the material they were created with, as the cluster formed")
                .isEmpty();
        Set<String> podUids = podUids(env, ns);
        Set<String> rollsBefore = rolledEvents(env, ns).stream()
                .map(e -> e.getMetadata().getUid())
                .collect(Collectors.toSet());
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "tls-rotation-");
        ClientCertificates certificates = new ClientCertificates(env, ns, dir);
        WritingClient writer = WritingClient.with(env, ns, "roll", () -> {
                    Path tls = certificates.current();
                    return "etcdctl --endpoints=https://roll-client." + ns
                            + ".svc:2379 --dial-timeout=3s --command-timeout=5s " + "--cacert=" + tls.resolve("ca.crt")
                            + " --cert=" + tls.resolve("tls.crt") + " --key=" + tls.resolve("tls.key");
                })
                .start();
        Instant start = Instant.now();
        if (!NATURAL_EXPIRY) {
            String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
            env.client()
                    .genericKubernetesResources(E2eEnvironment.CLUSTERS)
                    .inNamespace(ns)
                    .withName("roll")
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"metadata\":{\"annotations\":{\"etcd-operator.cozystack.io/renew-certificates-at\":\""
                                    + now + "\"}}}");
        }
        String after = Await.value(
                "a renewed leaf on every member and READY=3",
                Duration.ofMinutes(12),
                () -> converged(env, ns).filter(m -> !m.equals(before) && ready(env, ns) == 3));
        Instant rolled = Instant.now();
        writer.stop();

        List<Event> rolls = rolledEvents(env, ns).stream()
                .filter(e -> !rollsBefore.contains(e.getMetadata().getUid()))
                .toList();
        Set<String> unread = writer.unreadAcknowledged(dir);
        Instant firstRoll =
                rolls.isEmpty() ? rolled : Instant.parse(rolls.getFirst().getFirstTimestamp());
        System.out.printf(
                "tls rotation: %s; %d member restarts %s; the roll took %d s (first MemberRolling at %s, "
                        + "%d s after writes began, to every Pod on the renewed leaf with READY=3)%n",
                writer.summary(),
                rolls.size(),
                rolls.stream().map(TlsRotationE2EIT::memberOf).toList(),
                Duration.between(firstRoll, rolled).toSeconds(),
                firstRoll,
                Duration.between(start, firstRoll).toSeconds());

        assertThat(after).as("server leaf fingerprint on the Pods").isNotEqualTo(before);
        assertThat(podUids(env, ns)).as("every member Pod was replaced").doesNotContainAnyElementsOf(podUids);
        assertThat(writer.error()).as("writer thread error").isNull();
        assertThat(rolls.stream().map(TlsRotationE2EIT::memberOf).collect(Collectors.toSet()))
                .as("members named by MemberRolling (CertificateRenewed) events")
                .containsExactlyInAnyOrderElementsOf(memberNames(env, ns));
        assertThat(writer.failed())
                .as("writes that failed for " + WritingClient.RETRY_FOR.toSeconds() + " s")
                .isZero();
        assertThat(writer.acknowledged()).as("acknowledged writes").hasSizeGreaterThan(20);
        assertThat(unread).as("acknowledged keys missing at the end").isEmpty();
        assertThat(writer.fewestReady())
                .as("fewest ready members sampled (quorum is 2)")
                .isGreaterThanOrEqualTo(2);
        assertThat(writer.longestGap())
                .as("longest time without an acknowledged write")
                .isLessThan(WritingClient.RETRY_FOR);
    }

    /** The server fingerprint, once every member's Pod carries what its EtcdMember was stamped with. */
    private static Optional<String> converged(E2eEnvironment env, String ns) {
        Set<String> stamped = new HashSet<>();
        for (GenericKubernetesResource m : env.members(ns, "roll")) {
            Pod pod = env.client()
                    .pods()
                    .inNamespace(ns)
                    .withName(m.getMetadata().getName())
                    .get();
            String wanted = annotation(m.getMetadata().getAnnotations());
            if (pod == null
                    || pod.getMetadata().getDeletionTimestamp() != null
                    || wanted == null
                    || !wanted.equals(annotation(pod.getMetadata().getAnnotations()))) {
                return Optional.empty();
            }
            stamped.add(wanted);
        }
        return stamped.size() == 1 && env.members(ns, "roll").size() == 3
                ? Optional.of(stamped.iterator().next())
                : Optional.empty();
    }

    private static String annotation(Map<String, String> annotations) {
        return annotations == null ? null : annotations.get(MemberMaterial.SERVER_ANNOTATION);
    }

    private static int ready(E2eEnvironment env, String ns) {
        return WritingClient.ready(env, ns, "roll");
    }

    private static Set<String> podUids(E2eEnvironment env, String ns) {
        return env.memberPods(ns, "roll").stream()
                .map(p -> p.getMetadata().getUid())
                .collect(Collectors.toSet());
    }

    private static Set<String> memberNames(E2eEnvironment env, String ns) {
        return env.members(ns, "roll").stream()
                .map(m -> m.getMetadata().getName())
                .collect(Collectors.toSet());
    }

    /** MemberRolling (CertificateRenewed) events, oldest first; the recorder creates one Event per roll. */
    private static List<Event> rolledEvents(E2eEnvironment env, String ns) {
        return env.client().v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> ROLLED.equals(e.getReason()) && e.getMessage().contains("CertificateRenewed"))
                .sorted(Comparator.comparing(Event::getFirstTimestamp))
                .toList();
    }

    /** "restarting member roll-abcde to load ..." names the member. */
    private static String memberOf(Event rolled) {
        return rolled.getMessage().replaceFirst("^restarting member (\\S+) .*$", "$1");
    }

    /** Clients must follow renewals too: a new directory whenever the operator-client Secret changes. */
    private static final class ClientCertificates {

        private final E2eEnvironment env;
        private final String ns;
        private final Path dir;
        private String secretVersion;
        private Path certs;

        ClientCertificates(E2eEnvironment env, String ns, Path dir) {
            this.env = env;
            this.ns = ns;
            this.dir = dir;
        }

        synchronized Path current() {
            Secret secret = env.client()
                    .secrets()
                    .inNamespace(ns)
                    .withName("roll-operator-client-tls")
                    .get();
            if (!secret.getMetadata().getResourceVersion().equals(secretVersion)) {
                try {
                    Path next = Files.createDirectories(
                            dir.resolve("certs-" + secret.getMetadata().getResourceVersion()));
                    for (String key : List.of("ca.crt", "tls.crt", "tls.key")) {
                        Path file = next.resolve(key);
                        Files.write(
                                file,
                                Base64.getDecoder().decode(secret.getData().get(key)));
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
    }
}
