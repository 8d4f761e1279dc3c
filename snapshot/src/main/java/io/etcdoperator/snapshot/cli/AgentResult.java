package io.etcdoperator.snapshot.cli;

import io.etcdoperator.snapshot.DbStatus;
import io.etcdoperator.snapshot.SnapshotFailure;
import io.etcdoperator.snapshot.SnapshotVerify;
import io.etcdoperator.snapshot.StoredSnapshot;
import io.etcdoperator.snapshot.TakenSnapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one JSON line an agent run ends with, on stdout and in the container's termination message, which is how the
 * operator learns the artifact without reading Pod logs. Kubernetes keeps at most 4096 bytes of that message.
 */
public final class AgentResult {

    static final int TERMINATION_MESSAGE_LIMIT = 4096;

    private final Map<String, Object> fields = new LinkedHashMap<>();

    private AgentResult(String result) {
        fields.put("result", result);
    }

    public static AgentResult stored(StoredSnapshot stored) {
        return new AgentResult("stored").artifact(stored);
    }

    /** The artifact and, when this run streamed it, the member it came from and the revision that member reported. */
    public static AgentResult stored(TakenSnapshot taken) {
        AgentResult result = stored(taken.stored());
        taken.source()
                .ifPresent(source -> result.with("endpoint", source.endpoint().toString())
                        .with("memberID", source.status().memberId().hex())
                        .with("leader", source.leader())
                        .with("revision", source.revision()));
        taken.status().ifPresent(result::status);
        return result;
    }

    /** A stored snapshot that restores, with its numbers and those of the restore made from it. */
    public static AgentResult verified(SnapshotVerify.Verified verified) {
        var verdict = verified.verdict();
        return new AgentResult("verified")
                .artifact(verified.stored())
                .status(verdict.stored())
                .with("restoredRevision", verdict.restored().revision())
                .with("restoredTotalKeys", verdict.restored().totalKeys())
                .with("tookMillis", verified.took().toMillis())
                .with("message", verdict.message());
    }

    public static AgentResult restored(StoredSnapshot fetched, String verifiedAgainst, long revisionBump) {
        return new AgentResult("restored")
                .artifact(fetched)
                .with("verifiedAgainst", verifiedAgainst)
                .with("revisionBump", revisionBump);
    }

    public static AgentResult skipped(String why) {
        return new AgentResult("skipped").with("message", why);
    }

    public static AgentResult deleted(String uri, boolean existed) {
        return new AgentResult(existed ? "deleted" : "absent").with("uri", uri);
    }

    public static AgentResult failed(SnapshotFailure failure) {
        return new AgentResult("failed").with("reason", failure.reason().word()).with("message", failure.getMessage());
    }

    /** Names the key id an encrypted snapshot was written or read with (the id only, never the key). */
    public AgentResult encryptedWith(Optional<String> keyId) {
        keyId.ifPresent(id -> with("encryptionKeyId", id));
        return this;
    }

    public boolean success() {
        return !"failed".equals(fields.get("result"));
    }

    /** Prints the line and, when the file exists (in a container), writes it as the termination message. */
    public void report(PrintWriter out, Path terminationLog) {
        String json = toJson();
        out.println(json);
        out.flush();
        if (Files.isWritable(terminationLog)) {
            try {
                Files.writeString(terminationLog, json, StandardCharsets.UTF_8);
            } catch (IOException e) {
                // the stdout line is still there for a human
            }
        }
    }

    public String toJson() {
        String json = render(fields);
        if (json.getBytes(StandardCharsets.UTF_8).length <= TERMINATION_MESSAGE_LIMIT) {
            return json;
        }
        Map<String, Object> shorter = new LinkedHashMap<>(fields);
        String message = String.valueOf(shorter.getOrDefault("message", ""));
        shorter.put("message", message.substring(0, Math.min(message.length(), TERMINATION_MESSAGE_LIMIT / 2)) + "...");
        return render(shorter);
    }

    private AgentResult artifact(StoredSnapshot stored) {
        return with("uri", stored.uri().toString())
                .with("sizeBytes", stored.sizeBytes())
                .with("checksum", stored.checksum());
    }

    private AgentResult status(DbStatus status) {
        return with("dbHash", status.hashHex())
                .with("dbRevision", status.revision())
                .with("dbTotalKeys", status.totalKeys());
    }

    private AgentResult with(String key, Object value) {
        fields.put(key, value);
        return this;
    }

    private static String render(Map<String, Object> map) {
        StringBuilder json = new StringBuilder("{");
        map.forEach((k, v) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append(quote(k))
                    .append(':')
                    .append(v instanceof Number || v instanceof Boolean ? v.toString() : quote(String.valueOf(v)));
        });
        return json.append('}').toString();
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
