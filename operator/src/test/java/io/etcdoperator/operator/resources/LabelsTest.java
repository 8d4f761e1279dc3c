package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LabelsTest {

    private static final String ROLE = "etcd-operator.cozystack.io/role";

    static Stream<Arguments> merges() {
        return Stream.of(
                arguments("no user keys", Map.of("a", "1"), null, Map.of("a", "1")),
                arguments("no operator keys", null, Map.of("team", "x"), Map.of("team", "x")),
                arguments("user key added", Map.of("a", "1"), Map.of("team", "x"), Map.of("a", "1", "team", "x")),
                arguments(
                        "operator key wins",
                        Map.of(Labels.MANAGED_BY, "etcd-operator"),
                        Map.of(Labels.MANAGED_BY, "helm", "team", "x"),
                        Map.of(Labels.MANAGED_BY, "etcd-operator", "team", "x")),
                arguments(
                        "reserved key dropped though operator has none",
                        Map.of(),
                        Map.of(ROLE, "voter", "team", "x"),
                        Map.of("team", "x")),
                arguments(
                        "reserved annotation dropped",
                        Map.of(),
                        Map.of("etcd-operator.cozystack.io/headless-service-name", "forged"),
                        Map.of()),
                arguments(
                        "only the exact reserved prefix is reserved",
                        Map.of(),
                        Map.of("sub.etcd-operator.cozystack.io/x", "1", "etcd-operator.cozystack.io.evil/y", "2"),
                        Map.of("sub.etcd-operator.cozystack.io/x", "1", "etcd-operator.cozystack.io.evil/y", "2")),
                arguments("empty value is a value", Map.of(), Map.of("flag", ""), Map.of("flag", "")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("merges")
    void merge(String why, Map<String, String> own, Map<String, String> user, Map<String, String> expected) {
        assertThat(Labels.merge(own, user)).containsExactlyInAnyOrderEntriesOf(expected);
    }

    @Test
    void operatorKeysComeFirstAndTheInputsAreNotModified() {
        Map<String, String> own = Labels.member("demo", "demo-a");
        Map<String, String> before = Map.copyOf(own);
        Map<String, String> merged = Labels.merge(own, Map.of("team", "x", Labels.NAME, "not-etcd"));
        assertThat(List.copyOf(merged.keySet()))
                .startsWith(own.keySet().toArray(String[]::new))
                .endsWith("team");
        assertThat(merged).containsEntry(Labels.NAME, "etcd");
        assertThat(own).isEqualTo(before);
    }

    @Test
    void additionalMetadataFeedsLabelsAndAnnotationsSeparately() {
        AdditionalMetadata extra = new AdditionalMetadata();
        extra.setLabels(Map.of("team", "x"));
        extra.setAnnotations(Map.of("owner", "sre"));
        assertThat(Labels.withUserLabels(Map.of(), extra)).containsExactly(Map.entry("team", "x"));
        assertThat(Labels.withUserAnnotations(Map.of(), extra)).containsExactly(Map.entry("owner", "sre"));
        assertThat(Labels.withUserLabels(Map.of("a", "1"), null)).containsExactly(Map.entry("a", "1"));
    }

    @Test
    void voterSelectorIsNarrowerThanTheMemberSelector() {
        assertThat(Labels.voters("demo"))
                .containsAllEntriesOf(Labels.selector("demo"))
                .containsEntry(ROLE, "voter");
        assertThat(Labels.member("demo", "demo-a"))
                .containsAllEntriesOf(Labels.selector("demo"))
                .doesNotContainKey(ROLE);
        assertThat(Labels.selectorString("demo")).isEqualTo("etcd-operator.cozystack.io/cluster=demo");
    }
}
