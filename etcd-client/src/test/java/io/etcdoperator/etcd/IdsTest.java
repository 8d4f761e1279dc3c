package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** MemberId and ClusterId are unsigned 64-bit values written as 16 lower-case hex digits, as etcdctl prints them. */
class IdsTest {

    @ParameterizedTest
    @ValueSource(longs = {0L, 1L, 0x8e9e05c52164694dL, 0x7fffffffffffffffL, -1L, Long.MIN_VALUE})
    void memberIdRoundTripsThroughHex(long value) {
        MemberId id = new MemberId(value);

        assertThat(id.hex()).hasSize(16).matches("[0-9a-f]{16}");
        assertThat(MemberId.parse(id.hex())).isEqualTo(id);
        assertThat(id).hasToString(id.hex());
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, 0xcdf818194e3a8c32L, Long.MAX_VALUE, -2L})
    void clusterIdRoundTripsThroughHex(long value) {
        ClusterId id = new ClusterId(value);

        assertThat(ClusterId.parse(id.hex())).isEqualTo(id);
        assertThat(id.hex()).hasSize(16);
    }

    @ParameterizedTest
    @ValueSource(strings = {"8e9e05c52164694d", "8E9E05C52164694D"})
    void parsesEtcdctlOutputWithHighBitSet(String hex) {
        MemberId id = MemberId.parse(hex);

        assertThat(id.value()).isNegative();
        assertThat(id.hex()).isEqualTo("8e9e05c52164694d");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "xyz", "1ffffffffffffffff"})
    void rejectsWhatIsNotA64BitHexNumber(String hex) {
        assertThatThrownBy(() -> MemberId.parse(hex)).isInstanceOf(NumberFormatException.class);
    }
}
