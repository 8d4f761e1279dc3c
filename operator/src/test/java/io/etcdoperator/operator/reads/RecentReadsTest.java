package io.etcdoperator.operator.reads;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecentReadsTest {

    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    @Test
    void aReadIsFreshForItsOwnPeriodAndForgottenPastTheLongest() {
        RecentReads<String> reads = new RecentReads<>(Duration.ofMinutes(5));
        reads.put("a", "user", T0);
        reads.put("b", "own", T0);
        Duration perValue = Duration.ofMinutes(1);
        assertThat(reads.fresh("a", T0.plusSeconds(60), v -> v.equals("user") ? perValue : Duration.ofMinutes(5)))
                .contains("user");
        assertThat(reads.fresh("a", T0.plusSeconds(61), v -> v.equals("user") ? perValue : Duration.ofMinutes(5)))
                .as("past its own period")
                .isEmpty();
        assertThat(reads.fresh("b", T0.plusSeconds(61), v -> v.equals("user") ? perValue : Duration.ofMinutes(5)))
                .contains("own");
        assertThat(reads.fresh("c", T0, v -> perValue)).as("never read").isEmpty();

        reads.put("c", "later", T0.plus(Duration.ofMinutes(5)).plusSeconds(1));
        assertThat(reads.size())
                .as("a and b outlived the longest period and were swept")
                .isEqualTo(1);
    }
}
