package io.etcdoperator.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's audit log (local-kube writes every request's metadata there): the requests the operator sent,
 * told from every other client's by its User-Agent.
 */
public final class ApiServerAudit {

    /** One completed request: "GET pods default/my-etcd-0". */
    public record Request(
            String verb, String resource, String namespace, String name, String userAgent, Instant received) {
        @Override
        public String toString() {
            return verb + " " + resource + " " + namespace + "/" + name + " (" + userAgent + ")";
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path log;

    public ApiServerAudit(Path log) {
        this.log = log;
    }

    /** Where the log ends now: {@link #operatorRequestsSince} reads what is written after it. */
    public long mark() {
        try {
            return Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The operator's completed requests since {@code mark}, watches and leader-election Leases left out (they are not
     * passes).
     */
    public List<Request> operatorRequestsSince(long mark) {
        List<Request> out = new ArrayList<>();
        for (String line : linesSince(mark)) {
            try {
                JsonNode event = JSON.readTree(line);
                String agent = event.path("userAgent").asText("");
                String verb = event.path("verb").asText("");
                String resource = event.path("objectRef").path("resource").asText("");
                if (!"ResponseComplete".equals(event.path("stage").asText())
                        || !agent.startsWith("etcd-operator/")
                        || "watch".equals(verb)
                        || "leases".equals(resource)) {
                    continue;
                }
                out.add(new Request(
                        verb,
                        resource,
                        event.path("objectRef").path("namespace").asText(""),
                        event.path("objectRef").path("name").asText(""),
                        agent,
                        Instant.parse(event.path("requestReceivedTimestamp").asText("1970-01-01T00:00:00Z"))));
            } catch (IOException e) {
                // a line being written as we read: it belongs to the next window
            }
        }
        return out;
    }

    private List<String> linesSince(long mark) {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long length = file.length();
            if (length <= mark) {
                return List.of();
            }
            byte[] bytes = new byte[(int) (length - mark)];
            file.seek(mark);
            file.readFully(bytes);
            return List.of(new String(bytes, StandardCharsets.UTF_8).split("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
