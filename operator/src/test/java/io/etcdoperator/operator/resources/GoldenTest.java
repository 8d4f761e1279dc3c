package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

class GoldenTest {

    @Test
    void normalizationSortsKeysAtEveryLevelButKeepsSequenceOrder() {
        String a = "b: 1\na:\n  list: [2, 1]\n  flag: true\n";
        String b = "a:\n  flag: true\n  list:\n  - 2\n  - 1\nb: 1\n";
        assertThat(Golden.normalize(a))
                .isEqualTo(Golden.normalize(b))
                .isEqualTo("---\na:\n  flag: true\n  list:\n  - 2\n  - 1\nb: 1\n");
        assertThat(Golden.normalize("list: [1, 2]\n")).isNotEqualTo(Golden.normalize("list: [2, 1]\n"));
    }

    @Test
    void normalizationKeepsScalarTypes() {
        assertThat(Golden.normalize("a: \"true\"\nb: true\nc: \"0440\"\nd: 288\n"))
                .isEqualTo("---\na: \"true\"\nb: true\nc: \"0440\"\nd: 288\n");
    }

    @Test
    void aDifferenceFailsAndNamesTheLine() {
        assumeFalse(Boolean.getBoolean("golden.update"), "would rewrite the golden");
        var changed = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("golden-self-test")
                .endMetadata()
                .addToData("key", "other")
                .build();
        assertThatThrownBy(() -> Golden.assertMatches("golden-self-test", changed))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("golden-self-test.yaml differs from line 4");
    }

    @Test
    void theCommittedSelfTestGoldenMatches() {
        var same = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("golden-self-test")
                .endMetadata()
                .addToData("key", "value")
                .build();
        Golden.assertMatches("golden-self-test", same);
    }

    @Test
    void aMissingGoldenFailsInsteadOfPassing() {
        assumeFalse(Boolean.getBoolean("golden.update"), "would create the golden");
        assertThatThrownBy(() -> Golden.assertMatches("no-such-golden", new ConfigMapBuilder().build()))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("no golden");
    }
}
