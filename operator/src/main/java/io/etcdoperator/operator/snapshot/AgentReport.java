package io.etcdoperator.operator.snapshot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdoperator.api.v1alpha2.SnapshotArtifact;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;

/**
 * The JSON line an agent run ends with, read back from the container's termination message
 * ({@code {"result":"stored","uri":…,"sizeBytes":…,"checksum":…}}, plus the source member when the run streamed, or
 * {@code {"result":"failed","reason":…}}).
 */
public record AgentReport(
        String result,
        Optional<String> uri,
        Optional<Long> sizeBytes,
        Optional<String> checksum,
        Optional<String> reason,
        Optional<String> message,
        Optional<Source> source,
        Optional<Db> db) {

    /** The member the agent streamed from: the leader, else the voter furthest along, and the revision it reported. */
    public record Source(String endpoint, Optional<String> memberID, boolean leader, Optional<Long> revision) {}

    /** The stored database as {@code snapshot status} reads it (hash in hexadecimal): recorded by save, read by verify. */
    public record Db(String hash, long revision, long totalKeys) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Empty when the text holds no agent JSON (say, a JVM crash log kept by FallbackToLogsOnError). */
    public static Optional<AgentReport> parse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        String line = text.strip();
        int start = line.lastIndexOf("{\"result\"");
        if (start < 0) {
            return Optional.empty();
        }
        try {
            JsonNode node = JSON.readTree(line.substring(start));
            if (node == null || !node.hasNonNull("result")) {
                return Optional.empty();
            }
            return Optional.of(new AgentReport(
                    node.get("result").asText(),
                    text(node, "uri"),
                    node.hasNonNull("sizeBytes")
                            ? Optional.of(node.get("sizeBytes").asLong())
                            : Optional.empty(),
                    text(node, "checksum"),
                    text(node, "reason"),
                    text(node, "message"),
                    source(node),
                    db(node)));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /** A stored artifact: "stored" with a uri, a size and a checksum. */
    public boolean stored() {
        return "stored".equals(result) && uri.isPresent() && sizeBytes.isPresent() && checksum.isPresent();
    }

    /** A verified snapshot: "verified" with the stored database's numbers. */
    public boolean verified() {
        return "verified".equals(result) && db.isPresent();
    }

    public boolean failed() {
        return "failed".equals(result);
    }

    private static Optional<Db> db(JsonNode node) {
        if (!node.hasNonNull("dbHash") || !node.hasNonNull("dbRevision") || !node.hasNonNull("dbTotalKeys")) {
            return Optional.empty();
        }
        return Optional.of(new Db(
                node.get("dbHash").asText(),
                node.get("dbRevision").asLong(),
                node.get("dbTotalKeys").asLong()));
    }

    private static Optional<Source> source(JsonNode node) {
        return text(node, "endpoint")
                .map(endpoint -> new Source(
                        endpoint,
                        text(node, "memberID"),
                        node.path("leader").asBoolean(false),
                        node.hasNonNull("revision")
                                ? Optional.of(node.get("revision").asLong())
                                : Optional.empty()));
    }

    private static Optional<String> text(JsonNode node, String field) {
        return node.hasNonNull(field) ? Optional.of(node.get(field).asText()) : Optional.empty();
    }

    /** The report in the agent container's termination message, if it wrote one. */
    static Optional<AgentReport> fromTermination(Pod pod) {
        List<ContainerStatus> statuses =
                pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
        if (statuses == null) {
            return Optional.empty();
        }
        return statuses.stream()
                .filter(s -> SnapshotJobs.CONTAINER.equals(s.getName()))
                .filter(s -> s.getState() != null && s.getState().getTerminated() != null)
                .map(s -> s.getState().getTerminated().getMessage())
                .map(AgentReport::parse)
                .flatMap(Optional::stream)
                .findFirst();
    }

    /** What status.artifact records of a stored snapshot. */
    SnapshotArtifact artifact() {
        SnapshotArtifact artifact = new SnapshotArtifact();
        artifact.setUri(uri().orElse(null));
        artifact.setSizeBytes(sizeBytes().orElse(null));
        artifact.setChecksum(checksum().orElse(null));
        source().ifPresent(source -> {
            artifact.setSourceEndpoint(source.endpoint());
            artifact.setSourceMemberID(source.memberID().orElse(null));
            artifact.setRevision(source.revision().orElse(null));
        });
        db().ifPresent(db -> {
            artifact.setDbHash(db.hash());
            artifact.setDbRevision(db.revision());
            artifact.setDbTotalKeys(db.totalKeys());
        });
        return artifact;
    }
}
