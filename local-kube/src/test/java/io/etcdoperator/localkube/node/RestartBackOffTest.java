package io.etcdoperator.localkube.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RestartBackOffTest {

    private final RestartBackOff backOff = new RestartBackOff(Duration.ofSeconds(1), Duration.ofSeconds(10));

    @Test
    void firstRestartIsImmediateThenDoublesUpToTheCap() {
        assertThat(backOff.delayBefore(1)).isZero();
        assertThat(backOff.delayBefore(2)).hasSeconds(1);
        assertThat(backOff.delayBefore(3)).hasSeconds(2);
        assertThat(backOff.delayBefore(5)).hasSeconds(8);
        assertThat(backOff.delayBefore(6)).hasSeconds(10);
        assertThat(backOff.delayBefore(60)).hasSeconds(10);
    }

    @Test
    void kubeletDefaultsAreTenSecondsToFiveMinutes() {
        assertThat(RestartBackOff.KUBELET.delayBefore(2)).hasSeconds(10);
        assertThat(RestartBackOff.KUBELET.delayBefore(20)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void aLongRunResetsTheBackOff() {
        assertThat(backOff.resetsAfter(Duration.ofSeconds(19))).isFalse();
        assertThat(backOff.resetsAfter(Duration.ofSeconds(20))).isTrue();
    }

    @Test
    void refusesACapBelowTheInitialDelay() {
        assertThatThrownBy(() -> new RestartBackOff(Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
