package io.etcdoperator.operator.snapshot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;

/**
 * The JSON line an agent run ends with, read back from the container's termination message
 ({@code {"result":"stored","uri":…,"sizeBytes":…,"checksum":…}}, plus the source member when the run streamed, or
 * {@code {"result":"failed","reason":…}}).
 */
public record AgentReport(String result, Optional<String> uri, Optional<Long> sizeBytes, Optional<String> checksum,
    Optional<String> reason, Optional<String> message, Optional<Source> source) {

  /** The member the agent streamed from: the leader, else the voter furthest along, and the revision it reported. */
  public record Source(String endpoint, Optional<String> memberID, boolean leader, Optional<Long> revision) {}

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
      return Optional.of(new AgentReport(node.get("result").asText(), text(node, "uri"),
          node.hasNonNull("sizeBytes") ? Optional.of(node.get("sizeBytes").asLong()) : Optional.empty(),
          text(node, "checksum"), text(node, "reason"), text(node, "message"), source(node)));
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  /** A stored artifact: "stored" with a uri, a size and a checksum. */
  public boolean stored() {
    return "stored".equals(result) && uri.isPresent() && sizeBytes.isPresent() && checksum.isPresent();
  }

  public boolean failed() {
    return "failed".equals(result);
  }

  private static Optional<Source> source(JsonNode node) {
    return text(node, "endpoint").map(endpoint -> new Source(endpoint, text(node, "memberID"),
        node.path("leader").asBoolean(false),
        node.hasNonNull("revision") ? Optional.of(node.get("revision").asLong()) : Optional.empty()));
  }

  private static Optional<String> text(JsonNode node, String field) {
    return node.hasNonNull(field) ? Optional.of(node.get(field).asText()) : Optional.empty();
  }
}
