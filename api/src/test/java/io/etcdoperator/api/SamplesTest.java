package io.etcdoperator.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.etcdoperator.api.crd.CrdValidator;
import io.etcdoperator.api.crd.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every manifest under config/samples, admitted as the API server would admit it: each object of our group against
 * its generated CRD (schema, defaults, every CEL rule) and with strict field validation (a field the schema does not
 * know is refused, as kubectl apply does). A failure names the file and the object. Every sample is listed in
 * docs/samples.md, and every kind has at least one sample.
 */
class SamplesTest {

    static final Path SAMPLES = Path.of(System.getProperty("samples.dir", "../config/samples"));
    static final Path SAMPLES_DOC = Path.of("../docs/samples.md");
    static final String GROUP = "etcd-operator.cozystack.io";

    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.USE_LONG_FOR_INTS);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Our kinds and their plural names; other kinds (Secrets, PVCs, cert-manager's) are only checked for shape. */
    private static final Map<String, String> PLURALS = Map.of(
            "EtcdCluster", "etcdclusters",
            "EtcdMember", "etcdmembers",
            "EtcdSnapshot", "etcdsnapshots",
            "EtcdSnapshotSchedule", "etcdsnapshotschedules",
            "EtcdDefrag", "etcddefrags",
            "EtcdDefragSchedule", "etcddefragschedules");

    private final Map<String, CrdValidator> validators = new HashMap<>();

    @Test
    void everySampleIsAdmitted() throws IOException {
        List<Path> files = sampleFiles();
        assertThat(files).as("files in " + SAMPLES).isNotEmpty();

        List<String> problems = new ArrayList<>();
        for (Path file : files) {
            problems.addAll(problems(file.getFileName().toString(), Files.readString(file)));
        }

        assertThat(problems).as("samples the API server would refuse").isEmpty();
    }

    @Test
    void everyKindUsersCreateHasASample() throws IOException {
        Set<String> kinds = new LinkedHashSet<>();
        for (Path file : sampleFiles()) {
            for (Map<String, Object> object : documents(Files.readString(file))) {
                kinds.add((String) object.get("kind"));
            }
        }

        // EtcdMember is the operator's own: users never create one.
        assertThat(kinds)
                .contains("EtcdCluster", "EtcdSnapshot", "EtcdSnapshotSchedule", "EtcdDefrag", "EtcdDefragSchedule");
    }

    @Test
    void everySampleIsListedInTheDocs() throws IOException {
        String doc = Files.readString(SAMPLES_DOC);

        for (Path file : sampleFiles()) {
            assertThat(doc)
                    .as("docs/samples.md lists " + file.getFileName())
                    .contains("[" + file.getFileName() + "](../config/samples/" + file.getFileName() + ")");
        }
    }

    @Test
    void aSampleThatBreaksARuleFailsNamingItsFile() throws IOException {
        String cluster = Files.readString(SAMPLES.resolve("etcdcluster.yaml"));

        // CEL: operatorIssued cannot be combined with client or peer.
        String mixedTls = Files.readString(SAMPLES.resolve("etcdcluster-tls-secrets.yaml"))
                .replace("  tls:\n", "  tls:\n    operatorIssued: {}\n");
        assertThat(problems("etcdcluster-tls-secrets.yaml", mixedTls))
                .singleElement()
                .asString()
                .startsWith("etcdcluster-tls-secrets.yaml: EtcdCluster default/my-byo-etcd: spec.tls ")
                .contains("operatorIssued cannot be combined");

        // Schema: replicas has a maximum of 7.
        assertThat(problems("etcdcluster.yaml", cluster.replace("replicas: 3", "replicas: 9")))
                .singleElement()
                .asString()
                .startsWith("etcdcluster.yaml: EtcdCluster default/my-etcd: spec.replicas ");

        // Strict field validation: a misspelt field.
        assertThat(problems("etcdcluster.yaml", cluster.replace("replicas: 3", "replica: 3")))
                .singleElement()
                .asString()
                .isEqualTo("etcdcluster.yaml: EtcdCluster default/my-etcd: spec.replica unknown field");

        // A document without a kind.
        assertThat(problems("x.yaml", "apiVersion: v1\nmetadata: {name: a}\n"))
                .singleElement()
                .asString()
                .isEqualTo("x.yaml: document 1 has no apiVersion or kind");
    }

    @Test
    void anEncryptedDestinationNeedsTheKeyEntry() throws IOException {
        String encrypted = Files.readString(SAMPLES.resolve("etcdsnapshot-encrypted.yaml"));
        assertThat(encrypted).contains("keySecretRef:");

        assertThat(problems("etcdsnapshot-encrypted.yaml", encrypted.replace("        key: \"2025-01\"\n", "")))
                .singleElement()
                .asString()
                .isEqualTo("etcdsnapshot-encrypted.yaml: EtcdSnapshot default/my-etcd-encrypted: "
                        + "spec.destination.encryption.keySecretRef.key is required");
    }

    /** What the API server would refuse in one file, each line naming the file and the object. */
    private List<String> problems(String file, String text) {
        List<String> problems = new ArrayList<>();
        List<Map<String, Object>> objects = documents(text);
        for (int i = 0; i < objects.size(); i++) {
            Map<String, Object> object = objects.get(i);
            if (!(object.get("apiVersion") instanceof String apiVersion)
                    || !(object.get("kind") instanceof String kind)) {
                problems.add(file + ": document " + (i + 1) + " has no apiVersion or kind");
                continue;
            }
            Map<String, Object> metadata = asMap(object.getOrDefault("metadata", Map.of()));
            String name = kind + " " + metadata.get("namespace") + "/" + metadata.get("name");
            if (!(metadata.get("name") instanceof String)) {
                problems.add(file + ": " + name + " has no metadata.name");
            }
            if (!apiVersion.startsWith(GROUP + "/")) {
                continue;
            }
            if (!apiVersion.equals(GROUP + "/v1alpha2") || !PLURALS.containsKey(kind)) {
                problems.add(file + ": " + name + " is not a kind of " + GROUP + "/v1alpha2");
                continue;
            }
            CrdValidator validator = validators.computeIfAbsent(PLURALS.get(kind), CrdValidator::forGenerated);
            for (Violation violation : validator.create(json(object))) {
                problems.add(file + ": " + name + ": " + violation.path() + " " + violation.message());
            }
            List<String> unknown = new ArrayList<>();
            unknownFields(validator.schema().openApiSchema(), object, "", unknown);
            unknown.forEach(path -> problems.add(file + ": " + name + ": " + path + " unknown field"));
        }
        return problems;
    }

    /** Fields the schema does not declare; the API server drops them, or refuses them under strict validation. */
    private static void unknownFields(Map<String, Object> node, Object value, String path, List<String> out) {
        if (Boolean.TRUE.equals(node.get("x-kubernetes-preserve-unknown-fields"))) {
            return;
        }
        if (value instanceof Map<?, ?> map) {
            if (node.get("properties") instanceof Map<?, ?> properties) {
                map.forEach((key, child) -> {
                    String field = path.isEmpty() ? (String) key : path + "." + key;
                    if (path.isEmpty()
                            && Set.of("apiVersion", "kind", "metadata").contains(key)) {
                        return;
                    }
                    if (properties.get(key) instanceof Map<?, ?> childNode) {
                        unknownFields(asMap(childNode), child, field, out);
                    } else {
                        out.add(field);
                    }
                });
            } else if (node.get("additionalProperties") instanceof Map<?, ?> values) {
                map.forEach((key, child) -> unknownFields(asMap(values), child, path + "[" + key + "]", out));
            }
        } else if (value instanceof List<?> list && node.get("items") instanceof Map<?, ?> items) {
            for (int i = 0; i < list.size(); i++) {
                unknownFields(asMap(items), list.get(i), path + "[" + i + "]", out);
            }
        }
    }

    private static List<Path> sampleFiles() throws IOException {
        try (Stream<Path> files = Files.list(SAMPLES)) {
            return files.filter(
                            f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                    .sorted()
                    .toList();
        }
    }

    private static List<Map<String, Object>> documents(String text) {
        List<Map<String, Object>> objects = new ArrayList<>();
        try (MappingIterator<Object> documents = YAML.readerFor(Object.class).readValues(text)) {
            while (documents.hasNext()) {
                Object document = documents.next();
                if (document != null) {
                    objects.add(asMap(document));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return objects;
    }

    private static String json(Object object) {
        try {
            return JSON.writeValueAsString(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }
}
