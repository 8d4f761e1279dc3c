package io.etcdoperator.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RenewalPolicyTest {

    private static final Instant ISSUED = Instant.parse("2025-01-01T00:00:00Z");

    @ParameterizedTest(name = "{0} after issue of a 90-day leaf: due={1}")
    @CsvSource({
        "PT0S, false",
        "P59D, false",
        "P59DT23H59M59S, false",
        "P60D, false", // exactly a third (30 days) remains: not yet
        "P60DT1S, true", // a second less than a third remains
        "P89D, true",
        "P91D, true"
    }) // already expired: certainly due
    void ninetyDayLeafIsDueOnceLessThanThirtyDaysRemain(Duration elapsed, boolean due) {
        Validity leaf = new Validity(ISSUED, ISSUED.plus(Duration.ofDays(90)));

        assertThat(RenewalPolicy.renewalDue(leaf, ISSUED.plus(elapsed))).isEqualTo(due);
    }

    @Test
    void renewAfterIsTwoThirdsIntoTheWindowIncludingTheBackdate() {
        RenewalPolicy policy = new RenewalPolicy(Duration.ofDays(30), Duration.ofSeconds(30), Duration.ofSeconds(3));
        Validity leaf = policy.leafValidity(ISSUED);

        assertThat(leaf.notBefore()).isEqualTo(ISSUED.minusSeconds(3));
        assertThat(leaf.lifetime()).isEqualTo(Duration.ofSeconds(33));
        assertThat(RenewalPolicy.renewAfter(leaf)).isEqualTo(ISSUED.plusSeconds(19)); // 33s window, 11s before the end
        assertThat(RenewalPolicy.renewalDue(leaf, ISSUED.plusSeconds(19))).isFalse();
        assertThat(RenewalPolicy.renewalDue(leaf, ISSUED.plusSeconds(19).plusMillis(1)))
                .isTrue();
    }

    @Test
    void theDefaultsAreFiveYearCaAndNinetyDayLeaves() {
        Validity ca = RenewalPolicy.DEFAULT.caValidity(ISSUED);
        Validity leaf = RenewalPolicy.DEFAULT.leafValidity(ISSUED);

        assertThat(ca.notAfter()).isEqualTo(ISSUED.plus(Duration.ofDays(1825)));
        assertThat(leaf.notAfter()).isEqualTo(ISSUED.plus(Duration.ofDays(90)));
        assertThat(leaf.notBefore()).isEqualTo(ISSUED.minus(Duration.ofMinutes(5)));
    }

    @Test
    void aLeafMayNotOutliveTheCaByPolicy() {
        assertThatThrownBy(() -> new RenewalPolicy(Duration.ofDays(1), Duration.ofDays(2), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exceeds CA lifetime");
        assertThatThrownBy(() -> new RenewalPolicy(Duration.ofDays(1), Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
