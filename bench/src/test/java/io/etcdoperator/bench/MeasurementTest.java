package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MeasurementTest {

    @Test
    void medianOfAnOddCountIsTheMiddleValueRegardlessOfOrder() {
        Measurement m = measurement(9.0, 1.0, 4.0);

        assertThat(m.median()).isEqualTo(4.0);
        assertThat(m.min()).isEqualTo(1.0);
        assertThat(m.max()).isEqualTo(9.0);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertThat(measurement(10.0, 2.0, 4.0, 8.0).median()).isEqualTo(6.0);
    }

    @Test
    void rowShowsRunsMedianAndSpreadWithUnits() {
        assertThat(measurement(12.34, 10.0, 150.0).row()).isEqualTo("| ready | 3 | 12.3 s | 10.0–150 s |");
        assertThat(measurement(0.243, 5.0).row())
                .as("small values keep two decimals")
                .isEqualTo("| ready | 2 | 2.62 s | 0.24–5.00 s |");
    }

    @Test
    void emptyMeasurementPrintsDashesAndRefusesStatistics() {
        Measurement m = new Measurement("ready", "s");

        assertThat(m.row()).isEqualTo("| ready | 0 | – | – |");
        assertThatThrownBy(m::median).hasMessageContaining("ready");
    }

    private static Measurement measurement(double... values) {
        Measurement m = new Measurement("ready", "s");
        for (double v : values) {
            m.add(v);
        }
        return m;
    }
}
