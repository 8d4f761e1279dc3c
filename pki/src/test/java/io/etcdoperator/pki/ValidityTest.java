package io.etcdoperator.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ValidityTest {

    private static final Instant T = Instant.parse("2025-01-01T00:00:00Z");

    @Test
    void endsAreTruncatedToWholeSecondsAsX509StoresThem() {
        Validity v = new Validity(T.plusMillis(999), T.plusSeconds(10).plusMillis(500));

        assertThat(v.notBefore()).isEqualTo(T);
        assertThat(v.notAfter()).isEqualTo(T.plusSeconds(10));
    }

    @Test
    void withinCutsBothEndsToTheOuterWindow() {
        Validity ca = new Validity(T, T.plusSeconds(100));

        assertThat(new Validity(T.minusSeconds(5), T.plusSeconds(200)).within(ca))
                .isEqualTo(ca);
        assertThat(new Validity(T.plusSeconds(1), T.plusSeconds(50)).within(ca))
                .isEqualTo(new Validity(T.plusSeconds(1), T.plusSeconds(50)));
    }

    @Test
    void validAtIncludesBothEnds() {
        Validity v = new Validity(T, T.plusSeconds(10));

        assertThat(v.validAt(T)).isTrue();
        assertThat(v.validAt(T.plusSeconds(10))).isTrue();
        assertThat(v.validAt(T.minusSeconds(1))).isFalse();
        assertThat(v.validAt(T.plusSeconds(11))).isFalse();
    }

    @Test
    void anEmptyWindowIsRefused() {
        assertThatThrownBy(() -> new Validity(T, T)).isInstanceOf(IllegalArgumentException.class);
    }
}
