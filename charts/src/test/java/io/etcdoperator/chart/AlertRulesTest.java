package io.etcdoperator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * files/alerts.yaml through promtool (check and the unit tests in src/test/resources/promtool), and the chart's
 * PrometheusRule carrying exactly its groups. Without promtool the promtool cases skip, unless CI is set: then they
 * fail, as hack/test.sh installs it.
 */
class AlertRulesTest {

    static final Path ALERTS = ChartTest.CHART.resolve("files/alerts.yaml");
    static final Path CASES = ChartTest.MODULE.resolve("src/test/resources/promtool/alerts-test.yaml");

    @Test
    void promtoolChecksTheRules() throws Exception {
        assertThat(promtool("check", "rules", ALERTS.toString())).contains("SUCCESS: 11 rules found");
    }

    @Test
    void promtoolUnitTestsPass() throws Exception {
        assertThat(promtool("test", "rules", CASES.toString())).contains("SUCCESS");
    }

    @Test
    @SuppressWarnings("unchecked")
    void prometheusRuleIsTheAlertsFileAndOnlyWhenAsked() throws IOException {
        assertThat(ChartTest.render(Map.of())).noneMatch(o -> o.getKind().equals("PrometheusRule"));
        var rule = (GenericKubernetesResource)
                ChartTest.render(Map.of("prometheusRule.enabled", true, "prometheusRule.labels.release", "monitoring"))
                        .stream()
                        .filter(o -> o.getKind().equals("PrometheusRule"))
                        .findFirst()
                        .orElseThrow();
        assertThat(rule.getMetadata().getLabels()).containsEntry("release", "monitoring");
        Map<String, Object> file = Serialization.unmarshal(Files.readString(ALERTS), Map.class);
        assertThat(rule.getAdditionalProperties().get("spec")).isEqualTo(file);
        assertThat((List<Object>) file.get("groups")).hasSize(4);
    }

    static String promtool(String... args) throws Exception {
        boolean present = Files.isExecutable(Path.of("/usr/bin/promtool")) || onPath();
        if (!present && System.getenv("CI") != null) {
            throw new AssertionError(
                    "promtool is missing and CI is set: hack/test.sh installs it (Debian's prometheus)");
        }
        assumeTrue(present, "promtool is not installed (apt-get install prometheus); skipped outside CI");
        var command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor())
                .as("promtool %s:\n%s", String.join(" ", args), output)
                .isZero();
        return output;
    }

    private static boolean onPath() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, "promtool")));
    }
}
