package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoDurationTest {

    @ParameterizedTest
    @CsvSource({
        "2160h, PT2160H",
        "43800h, PT43800H",
        "1h30m, PT1H30M",
        "90s, PT1M30S",
        "0.5h, PT30M",
        "1h0m0.5s, PT1H0.5S"
    })
    void parsesTheCrdSyntax(String text, Duration expected) {
        assertThat(GoDuration.parse(text, Duration.ZERO)).isEqualTo(expected);
    }

    @Test
    void unsetMeansTheDefault() {
        assertThat(GoDuration.parse(null, Duration.ofHours(2160))).isEqualTo(Duration.ofHours(2160));
        assertThat(GoDuration.parse(" ", Duration.ofHours(1))).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void refusesDaysAndGarbage() {
        assertThatThrownBy(() -> GoDuration.parse("90d", Duration.ZERO)).hasMessageContaining("90d");
        assertThatThrownBy(() -> GoDuration.parse("h", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
