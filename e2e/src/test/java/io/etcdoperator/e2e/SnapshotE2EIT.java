package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.adobe.testing.s3mock.junit5.S3MockExtension;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Backup and restore on local Kubernetes with the sample manifests (config/samples), S3 being S3Mock in this JVM:
 * a snapshot to S3 restores into a new cluster with every key, and a minutely schedule prunes to its retention.
 * The schedule starts with the source cluster, so its three firings overlap the snapshot-and-restore test.
 */
@ExtendWith(LocalKubernetesExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SnapshotE2EIT {

    private static final String BUCKET = "etcd-backups";
    private static final String SOURCE = "my-etcd";
    private static final String RESTORED = "my-etcd-restored";
    private static final String SNAPSHOT = "my-etcd-before-upgrade";
    private static final String SCHEDULE = "my-etcd-nightly";
    private static final String SCHEDULE_PREFIX = "my-etcd/nightly/";
    private static final int KEYS = 200;
    private static final Duration READY = Duration.ofMinutes(5);
    private static final ResourceDefinitionContext SNAPSHOTS = kind("etcdsnapshots", "EtcdSnapshot");
    private static final ResourceDefinitionContext SCHEDULES = kind("etcdsnapshotschedules", "EtcdSnapshotSchedule");
    private static final Pattern CREATED = Pattern.compile("created EtcdSnapshot (\\S+) for the firing");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @RegisterExtension
    static final S3MockExtension S3_MOCK = S3MockExtension.builder()
            .silent()
            .withInitialBuckets(BUCKET)
            .withSecureConnection(false)
            .build();

    private E2eEnvironment env;
    private String ns;
    private S3Client s3;
    private Instant scheduleCreated;

    @BeforeAll
    void sourceClusterWithKeysAndAMinutelySchedule(E2eEnvironment env) {
        this.env = env;
        this.ns = env.namespace("snapshots");
        this.s3 = s3Client();
        Secret credentials = sample("s3-credentials.yaml", Secret.class);
        credentials.setStringData(Map.of("AWS_ACCESS_KEY_ID", "e2e-access-key", "AWS_SECRET_ACCESS_KEY", "e2e-secret"));
        env.client().secrets().inNamespace(ns).resource(credentials).create();
        env.createCluster(
                ns,
                SOURCE,
                Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("medium", "Memory", "size", "256Mi")));
        // at once: its snapshots wait for a voter, and cron's finest step (a minute) makes three firings slow
        create(SCHEDULES, "etcdsnapshotschedule.yaml", spec -> {
            spec.put("schedule", "* * * * *");
            spec.put("retention", Map.of("keepLast", 2));
            pointAtS3Mock(map(map(spec, "destination"), "s3"));
        });
        scheduleCreated = Instant.now();
        Duration took = env.awaitReady(ns, SOURCE, 3, READY);
        System.out.printf("%s (Memory) READY=3 after %d ms%n", SOURCE, took.toMillis());
        String endpoint = endpoint(SOURCE);
        for (int i = 0; i < KEYS; i++) {
            put(endpoint, key(i), value(i));
        }
    }

    @Test
    @Order(1)
    void snapshotToS3RestoresEveryKeyIntoANewClusterWithANewClusterId() {
        Instant started = Instant.now();
        create(SNAPSHOTS, "etcdsnapshot-s3.yaml", spec -> pointAtS3Mock(map(map(spec, "destination"), "s3")));
        Map<String, Object> status = awaitFinished(SNAPSHOTS, SNAPSHOT, Duration.ofMinutes(4));
        System.out.printf(
                "EtcdSnapshot %s: %s after %d ms (%s bytes)%n",
                SNAPSHOT,
                status.get("phase"),
                Duration.between(started, Instant.now()).toMillis(),
                map(status, "artifact").get("sizeBytes"));

        assertThat(status.get("phase"))
                .as("phase (conditions: %s)", status.get("conditions"))
                .isEqualTo("Complete");
        assertThat(readyCondition(status)).containsEntry("status", "True");
        String key = "my-etcd/" + SNAPSHOT + ".db";
        byte[] object = s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(key)).asByteArray();
        Map<String, Object> artifact = map(status, "artifact");
        assertThat(artifact.get("uri")).isEqualTo("s3://" + BUCKET + "/" + key);
        assertThat(((Number) artifact.get("sizeBytes")).longValue())
                .isEqualTo(object.length)
                .isGreaterThan(0);
        assertThat(artifact.get("checksum")).isEqualTo("sha256:" + sha256(object));

        started = Instant.now();
        create(
                E2eEnvironment.CLUSTERS,
                "etcdcluster-restore.yaml",
                spec -> pointAtS3Mock(map(map(map(map(spec, "bootstrap"), "restore"), "source"), "s3")));
        Duration restored = env.awaitReady(ns, RESTORED, 3, READY);
        System.out.printf("%s restored from %s: READY=3 after %d ms%n", RESTORED, key, restored.toMillis());
        assertOnlyTheSeedRestoredAndVerified((String) artifact.get("checksum"));

        Map<String, String> keys = range(endpoint(RESTORED), "snapshot-e2e/");
        assertThat(keys).hasSize(KEYS);
        for (int i = 0; i < KEYS; i++) {
            assertThat(keys).containsEntry(key(i), value(i));
        }
        String sourceId =
                (String) E2eEnvironment.status(env.cluster(ns, SOURCE)).get("clusterID");
        String restoredId =
                (String) E2eEnvironment.status(env.cluster(ns, RESTORED)).get("clusterID");
        assertThat(restoredId).isNotBlank().isNotEqualTo(sourceId);
        assertThat(env.etcdctl(endpoint(RESTORED), "member", "list"))
                .hasLineCount(3)
                .contains("started")
                .doesNotContain("true"); // no learner left
    }

    /** The runbook of docs/snapshots.md on a PVC; runs while the schedule of the next test fires. */
    @Test
    @Order(2)
    void snapshotToAPvcRestoresEveryKeyIntoANewCluster() {
        env.client()
                .persistentVolumeClaims()
                .inNamespace(ns)
                .resource(new PersistentVolumeClaimBuilder()
                        .withNewMetadata()
                        .withName("snapshots")
                        .endMetadata()
                        .withNewSpec()
                        .withAccessModes("ReadWriteOnce")
                        .withNewResources()
                        .addToRequests("storage", new Quantity("1Gi"))
                        .endResources()
                        .endSpec()
                        .build())
                .create();
        GenericKubernetesResource snapshot = new GenericKubernetesResource();
        snapshot.setApiVersion("etcd-operator.cozystack.io/v1alpha2");
        snapshot.setKind("EtcdSnapshot");
        snapshot.setMetadata(
                new ObjectMetaBuilder().withName("to-pvc").withNamespace(ns).build());
        snapshot.setAdditionalProperty(
                "spec",
                Map.of(
                        "clusterRef",
                        Map.of("name", SOURCE),
                        "destination",
                        Map.of("pvc", Map.of("claimName", "snapshots"))));
        env.client()
                .genericKubernetesResources(SNAPSHOTS)
                .inNamespace(ns)
                .resource(snapshot)
                .create();
        Map<String, Object> status = awaitFinished(SNAPSHOTS, "to-pvc", Duration.ofMinutes(4));
        assertThat(status.get("phase"))
                .as("phase (conditions: %s)", status.get("conditions"))
                .isEqualTo("Complete");

        env.createCluster(
                ns,
                "from-pvc",
                Map.of(
                        "replicas",
                        3,
                        "version",
                        "3.5.16",
                        "storage",
                        Map.of("size", "1Gi"),
                        "bootstrap",
                        Map.of(
                                "restore",
                                Map.of(
                                        "source",
                                        Map.of("pvc", Map.of("claimName", "snapshots", "subPath", "to-pvc.db"))))));
        Duration restored = env.awaitReady(ns, "from-pvc", 3, READY);
        System.out.printf("from-pvc restored from PVC snapshots/to-pvc.db: READY=3 after %d ms%n", restored.toMillis());
        Map<String, String> keys = range(endpoint("from-pvc"), "snapshot-e2e/");
        assertThat(keys).hasSize(KEYS);
        for (int i = 0; i < KEYS; i++) {
            assertThat(keys).containsEntry(key(i), value(i));
        }
        assertThat(env.client().v1().events().inNamespace(ns).list().getItems())
                .filteredOn(e -> "RestoringSnapshot".equals(e.getReason()))
                .filteredOn(e -> e.getInvolvedObject().getName().startsWith("from-pvc-"))
                .hasSize(1);
    }

    @Test
    @Order(3)
    void minutelyScheduleKeepsTheNewestTwoAndDeletesThePrunedObjects() {
        TreeSet<String> created = new TreeSet<>();
        Await.until("three scheduled snapshots, pruned to the newest two", Duration.ofMinutes(5), () -> {
            created.addAll(createdBySchedule());
            List<GenericKubernetesResource> kept = scheduled();
            return created.size() >= 3
                    && kept.size() == 2
                    && kept.stream()
                            .allMatch(s ->
                                    "Complete".equals(E2eEnvironment.status(s).get("phase")))
                    && storedKeys(SCHEDULE_PREFIX).size() == 4;
        });
        System.out.printf(
                "schedule %s: %d snapshots created, 2 kept, %d s after it was created%n",
                SCHEDULE,
                created.size(),
                Duration.between(scheduleCreated, Instant.now()).toSeconds());

        List<String> kept = scheduled().stream()
                .map(s -> s.getMetadata().getName())
                .sorted()
                .toList();
        assertThat(kept)
                .as("the newest two of %s", created)
                .containsExactlyElementsOf(
                        created.stream().skip(created.size() - 2).toList());
        List<String> expectedKeys = new ArrayList<>();
        kept.forEach(name ->
                expectedKeys.addAll(List.of(SCHEDULE_PREFIX + name + ".db", SCHEDULE_PREFIX + name + ".db.sha256")));
        assertThat(storedKeys(SCHEDULE_PREFIX))
                .as("objects left in S3 (the pruned ones deleted)")
                .containsExactlyInAnyOrderElementsOf(expectedKeys);

        Map<String, Object> status = E2eEnvironment.status(env.client()
                .genericKubernetesResources(SCHEDULES)
                .inNamespace(ns)
                .withName(SCHEDULE)
                .get());
        assertThat(status.get("lastScheduleTime")).isNotNull();
        Instant lastSuccess = Instant.parse((String) status.get("lastSuccessfulTime"));
        assertThat(lastSuccess).isAfter(scheduleCreated);
        assertThat(status).doesNotContainKey("lastFailure");
        assertThat(readyCondition(status)).containsEntry("status", "True").containsEntry("reason", "Scheduled");
        assertThat(lastSuccessMetric())
                .as("etcd_operator_snapshot_schedule_last_success_timestamp_seconds")
                .isEqualTo(lastSuccess.getEpochSecond());
    }

    /**
     * Only the seed ran the restore init container (one RestoringSnapshot event, no RestoreFailed). The seed's first
     * Pod, whose init container status carried the agent's checksum report, is replaced by its one ClusterFormed
     * restart before anyone joins; if a restore status is still visible, its report must say the bytes matched.
     */
    @SuppressWarnings("unchecked")
    private void assertOnlyTheSeedRestoredAndVerified(String checksum) {
        List<ContainerStatus> restores = env.memberPods(ns, RESTORED).stream()
                .flatMap(p -> Optional.ofNullable(p.getStatus().getInitContainerStatuses()).orElse(List.of()).stream())
                .filter(c -> "restore".equals(c.getName()))
                .toList();
        assertThat(restores).as("restore init containers in %s", RESTORED).hasSizeLessThanOrEqualTo(1);
        for (ContainerStatus restore : restores) {
            ContainerStateTerminated done = restore.getState().getTerminated();
            assertThat(done.getExitCode()).isZero();
            Map<String, Object> report =
                    env.client().getKubernetesSerialization().unmarshal(done.getMessage(), Map.class);
            assertThat(report)
                    .containsEntry("result", "restored")
                    .containsEntry("checksum", checksum)
                    .containsEntry("verifiedAgainst", "recorded");
        }
        assertThat(env.client().v1().events().inNamespace(ns).list().getItems())
                .noneMatch(e -> "RestoreFailed".equals(e.getReason()));
        assertThat(env.client().v1().events().inNamespace(ns).list().getItems())
                .filteredOn(e -> "RestoringSnapshot".equals(e.getReason()))
                .singleElement()
                .satisfies(e -> assertThat(e.getInvolvedObject().getName()).startsWith(RESTORED + "-"));
    }

    // --- the samples, pointed at S3Mock

    /** Loads a sample into the test's namespace, lets {@code editSpec} change its spec, and creates it. */
    private void create(ResourceDefinitionContext kind, String file, Consumer<Map<String, Object>> editSpec) {
        GenericKubernetesResource resource = sample(file, GenericKubernetesResource.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec =
                (Map<String, Object>) resource.getAdditionalProperties().get("spec");
        editSpec.accept(spec);
        env.client()
                .genericKubernetesResources(kind)
                .inNamespace(ns)
                .resource(resource)
                .create();
    }

    private <T extends HasMetadata> T sample(String file, Class<T> type) {
        Path path =
                ProjectCrds.directory().resolve("../../samples").resolve(file).normalize();
        try (InputStream in = Files.newInputStream(path)) {
            T resource = env.client().getKubernetesSerialization().unmarshal(in, type);
            resource.getMetadata().setNamespace(ns);
            return resource;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Pods reach the test JVM's S3Mock through the bridge gateway; the samples' other fields stay as written. */
    private void pointAtS3Mock(Map<String, Object> s3Location) {
        s3Location.put("endpoint", "http://" + env.kube().hostAddressForPods() + ":" + S3_MOCK.getHttpPort());
    }

    private static S3Client s3Client() {
        return S3Client.builder()
                .endpointOverride(URI.create(S3_MOCK.getServiceEndpoint()))
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("e2e", "e2e")))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    private List<String> storedKeys(String prefix) {
        return s3.listObjectsV2(r -> r.bucket(BUCKET).prefix(prefix)).contents().stream()
                .map(S3Object::key)
                .toList();
    }

    // --- snapshots and schedules

    private Map<String, Object> awaitFinished(ResourceDefinitionContext kind, String name, Duration timeout) {
        return Await.value(name + " Complete or Failed", timeout, () -> {
            Map<String, Object> status = E2eEnvironment.status(env.client()
                    .genericKubernetesResources(kind)
                    .inNamespace(ns)
                    .withName(name)
                    .get());
            Object phase = status.get("phase");
            return "Complete".equals(phase) || "Failed".equals(phase) ? Optional.of(status) : Optional.empty();
        });
    }

    private List<GenericKubernetesResource> scheduled() {
        return env
                .client()
                .genericKubernetesResources(SNAPSHOTS)
                .inNamespace(ns)
                .withLabel("etcd-operator.cozystack.io/schedule", SCHEDULE)
                .list()
                .getItems()
                .stream()
                .filter(s -> s.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    /** Names from the schedule's SnapshotCreated events: pruned snapshots are gone, their events are not. */
    private List<String> createdBySchedule() {
        return env.client().v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "SnapshotCreated".equals(e.getReason()))
                .filter(e -> SCHEDULE.equals(e.getInvolvedObject().getName()))
                .map(Event::getMessage)
                .map(CREATED::matcher)
                .filter(Matcher::find)
                .map(m -> m.group(1))
                .toList();
    }

    private long lastSuccessMetric() {
        return (long) env.operator()
                .gauge(
                        "etcd_operator_snapshot_schedule_last_success_timestamp_seconds",
                        Map.of("namespace", ns, "schedule", SCHEDULE));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readyCondition(Map<String, Object> status) {
        return ((List<Map<String, Object>>) status.getOrDefault("conditions", List.of()))
                .stream().filter(c -> "Ready".equals(c.get("type"))).findFirst().orElse(Map.of());
    }

    // --- keys, through etcd's JSON gateway on a member's Pod IP

    private static String key(int i) {
        return "snapshot-e2e/key-%03d".formatted(i);
    }

    private static String value(int i) {
        return "value-" + i + "-" + "x".repeat(i % 17);
    }

    /** Client URLs of the cluster's member Pods, by IP (reachable from the host). */
    private String endpoint(String cluster) {
        return env.endpoints(ns, cluster);
    }

    private void put(String endpoint, String key, String value) {
        post(endpoint, "/v3/kv/put", Map.of("key", b64(key), "value", b64(value)));
    }

    @SuppressWarnings("unchecked")
    private Map<String, String> range(String endpoint, String prefix) {
        String end = prefix.substring(0, prefix.length() - 1) + (char) (prefix.charAt(prefix.length() - 1) + 1);
        Map<String, Object> response =
                post(endpoint, "/v3/kv/range", Map.of("key", b64(prefix), "range_end", b64(end)));
        Map<String, String> kvs = new LinkedHashMap<>();
        for (Map<String, Object> kv : (List<Map<String, Object>>) response.getOrDefault("kvs", List.of())) {
            kvs.put(unb64((String) kv.get("key")), unb64((String) kv.getOrDefault("value", "")));
        }
        return kvs;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> post(String endpoints, String path, Map<String, String> body) {
        String first = endpoints.split(",")[0];
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(first + path))
                            .timeout(Duration.ofSeconds(10))
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    env.client().getKubernetesSerialization().asJson(body)))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode())
                    .as("%s%s: %s", first, path, response.body())
                    .isEqualTo(200);
            return env.client().getKubernetesSerialization().unmarshal(response.body(), Map.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String unb64(String text) {
        return new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String field) {
        return (Map<String, Object>) parent.get(field);
    }

    private static ResourceDefinitionContext kind(String plural, String kind) {
        return new ResourceDefinitionContext.Builder()
                .withGroup("etcd-operator.cozystack.io")
                .withVersion("v1alpha2")
                .withPlural(plural)
                .withKind(kind)
                .withNamespaced(true)
                .build();
    }
}
