package io.etcdoperator.api.crd;

import static io.etcdoperator.api.crd.CrdSchema.asMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every CRD of config/crd/bases, created as it is on a real Kubernetes 1.36 apiextensions-apiserver: structural
 * schema, CEL compilation and the CEL cost budget are the server's own. A refusal fails with the server's message.
 */
class CrdAdmissionIT {

    private static final Path BASES = Path.of(System.getProperty("crd.bases.dir", "../config/crd/bases"));
    private static ServerAdmission server;

    @BeforeAll
    static void startServer() {
        server = ServerAdmission.start(Path.of("target/apiext-admission-it"));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void everyCrdOfConfigCrdBasesIsAdmittedAndEstablishedWithItsRules() throws IOException {
        List<Path> files = crdFiles();
        assertThat(files).hasSize(6);
        for (Path file : files) {
            Map<String, Object> crd = read(file);
            admit(crd);

            Map<String, Object> stored =
                    server.crd((String) asMap(crd.get("metadata")).get("name"));
            assertThat(rules(stored))
                    .as("CEL rules kept by the server for " + file.getFileName())
                    .isEqualTo(rules(crd))
                    .isNotEmpty();
        }
    }

    @Test
    void aRuleOverTheCostBudgetIsRefusedWithTheServersMessage() throws IOException {
        Map<String, Object> crd = read(BASES.resolve("etcdclusters.etcd-operator.cozystack.io.yaml"));
        // the same CRD in a group of its own, with one more rule: a nested loop over an unbounded list of strings
        Map<String, Object> spec = asMap(crd.get("spec"));
        spec.put("group", "budget.etcd-operator.test");
        asMap(crd.get("metadata")).put("name", "etcdclusters.budget.etcd-operator.test");
        Map<String, Object> specSchema = new CrdSchema(crd).node("spec");
        asMap(specSchema.get("properties")).put("peers", Map.of("type", "array", "items", Map.of("type", "string")));
        List<Object> rules = new ArrayList<>(CrdSchema.listOrEmpty(specSchema.get("x-kubernetes-validations")));
        rules.add(Map.of(
                "rule",
                "!has(self.peers) || self.peers.all(a, self.peers.all(b, a == b || !a.contains(b)))",
                "message",
                "no peer name contains another"));
        specSchema.put("x-kubernetes-validations", rules);

        assertThatThrownBy(() -> admit(crd))
                .hasMessageContaining("etcdclusters.budget.etcd-operator.test")
                .hasMessageContaining("HTTP 422")
                .hasMessageContaining("spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations")
                .hasMessageContaining("estimated rule cost exceeds budget");
    }

    /** Creates the CRD and waits until Established, or fails with the server's answer. */
    private static void admit(Map<String, Object> crd) {
        ServerAdmission.Verdict verdict = server.installCrd(crd);
        if (!verdict.accepted()) {
            throw new AssertionError("the 1.36 API server refused CRD "
                    + asMap(crd.get("metadata")).get("name") + ": " + verdict);
        }
    }

    private static List<Path> crdFiles() throws IOException {
        try (Stream<Path> files = Files.list(BASES)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    private static Map<String, Object> read(Path file) throws IOException {
        return new LinkedHashMap<>(asMap(CrdSchema.YAML.readValue(file.toFile(), Map.class)));
    }

    /** Every rule with its message, in document order. */
    private static List<CelRule> rules(Map<String, Object> crd) {
        return new CrdSchema(crd).rules();
    }
}
