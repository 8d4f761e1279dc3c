package io.etcdoperator.localkube.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VariableExpansionTest {

    private static final Map<String, String> ENV = Map.of("POD_IP", "10.234.0.7", "NAME", "etcd-0");

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://$(POD_IP):2379|http://10.234.0.7:2379",
                "$(NAME)=http://$(POD_IP):2380|etcd-0=http://10.234.0.7:2380",
                "$(MISSING)|$(MISSING)",
                "$$(NAME)|$(NAME)",
                "cost: $5|cost: $5",
                "open $(NAME|open $(NAME",
                "$|$"
            })
    void expandsLikeTheKubelet(String input, String expected) {
        assertThat(VariableExpansion.expand(input, ENV)).isEqualTo(expected);
    }
}
