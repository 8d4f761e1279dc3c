package io.etcdoperator.api.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CelQuantityTest {

    @ParameterizedTest
    @CsvSource({
        "0, 0",
        "1, 1",
        "1Ki, 1024",
        "1Mi, 1048576",
        "256Mi, 268435456",
        "1Gi, 1073741824",
        "1Ti, 1099511627776",
        "1Pi, 1125899906842624",
        "1Ei, 1152921504606846976",
        "1k, 1000",
        "1M, 1000000",
        "2G, 2000000000",
        "1T, 1000000000000",
        "1P, 1000000000000000",
        "1E, 1000000000000000000",
        "100m, 0.1",
        "5u, 0.000005",
        "7n, 0.000000007",
        "1e3, 1000",
        "1E3, 1000",
        "1.5e-3, 0.0015",
        "1.5Gi, 1610612736",
        ".5, 0.5",
        "+2, 2",
        "-1Mi, -1048576",
    })
    void parsesTheKubernetesGrammar(String text, BigDecimal expected) {
        assertThat(CelQuantity.parse(text).amount()).isEqualByComparingTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1Gi", "256Mi", "100m", "1.5e-3", "2G", "1E", "0.5", "123456789"})
    void agreesWithFabric8(String text) {
        assertThat(CelQuantity.parse(text).amount())
                .isEqualByComparingTo(Quantity.getAmountInBytes(new Quantity(text)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Gi", "1 Gi", "1GB", "1gi", "lots", "1e", "1..0", "0x10"})
    void refusesWhatIsNotAQuantity(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> CelQuantity.parse(text));
    }

    @Test
    void comparesByAmountNotByNotation() {
        assertThat(CelQuantity.parse("1Gi")).isEqualByComparingTo(CelQuantity.parse("1024Mi"));
        assertThat(CelQuantity.parse("1G")).isLessThan(CelQuantity.parse("1Gi"));
        assertThat(CelQuantity.parse("2047Mi")).isLessThan(CelQuantity.parse("2Gi"));
    }
}
