package io.etcdoperator.api.crd;

import static io.etcdoperator.api.crd.CrdSchema.asMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

/**
 * Sends every case that {@link CrdValidator} admits to the 1.36 API server as well, when
 * {@link ServerAdmission#enabled()}, and fails the calling test when the two disagree: one accepts what the other
 * refuses, or one names a field that the other does not. Each case is appended to
 * {@code target/cel-crosscheck.tsv} (CRD, operation, verdict, fields).
 */
final class CrossCheck {

    private static final String SKIPPED_RULES = "<nil>";
    private static final Path REPORT = Path.of("target/cel-crosscheck.tsv");

    private CrossCheck() {}

    static void compare(CrdSchema schema, String oldYaml, String yaml, List<Violation> local) {
        if (!ServerAdmission.enabled()) {
            return;
        }
        ServerAdmission server = ServerAdmission.shared();
        ServerAdmission.Verdict verdict = oldYaml == null
                ? server.create(schema, parse(yaml))
                : server.update(schema, parse(oldYaml), parse(yaml));
        String operation = oldYaml == null ? "create" : "update";
        record(schema, operation, local, verdict);
        String header = "dev.cel and the 1.36 API server disagree on this " + operation + " of "
                + schema.crd().get("kind") + " "
                + asMap(schema.crd().get("metadata")).get("name") + ":\n"
                + (oldYaml == null ? "" : "--- stored object\n" + oldYaml + "--- updated to\n") + yaml
                + "--- dev.cel: " + (local.isEmpty() ? "accepted" : local)
                + "\n--- server: " + verdict + " causes " + verdict.causes();
        if (verdict.accepted() != local.isEmpty()) {
            throw new AssertionError(header);
        }
        List<String> unnamed = local.stream()
                .map(Violation::path)
                .filter(path -> verdict.causes().stream()
                        .noneMatch(cause -> rootAsEmpty(cause.path()).equals(path)))
                .toList();
        if (!unnamed.isEmpty()) {
            throw new AssertionError(header + "\n--- the server names no cause at " + unnamed);
        }
        // "<nil>" carries the server's note that it skipped the CEL rules, which dev.cel does too but does not report
        // the /scale subresource's own check reports its JSON path (".spec.replicas")
        List<String> unseen = verdict.causes().stream()
                .map(Violation::path)
                .map(path -> path.startsWith(".") ? path.substring(1) : path)
                .filter(path -> !path.equals(SKIPPED_RULES)
                        && local.stream().noneMatch(v -> v.path().equals(path)))
                .distinct()
                .toList();
        if (!unseen.isEmpty()) {
            throw new AssertionError(header + "\n--- dev.cel names no violation at " + unseen);
        }
    }

    // the server validates the root with no field path, so a rule on the root object comes back at "<nil>"
    private static String rootAsEmpty(String path) {
        return SKIPPED_RULES.equals(path) ? "" : path;
    }

    private static Map<String, Object> parse(String yaml) {
        try {
            return asMap(CrdSchema.YAML.readValue(yaml, Map.class));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("test object is not valid YAML", e);
        }
    }

    private static synchronized void record(
            CrdSchema schema, String operation, List<Violation> local, ServerAdmission.Verdict verdict) {
        String line = String.join(
                        "\t",
                        (String) asMap(schema.crd().get("metadata")).get("name"),
                        operation,
                        local.isEmpty() ? "accepted" : "rejected",
                        String.valueOf(verdict.code()),
                        verdict.causes().stream().map(Violation::path).toList().toString())
                + "\n";
        try {
            Files.writeString(REPORT, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + REPORT, e);
        }
    }
}
