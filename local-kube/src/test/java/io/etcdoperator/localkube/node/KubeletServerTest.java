package io.etcdoperator.localkube.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KubeletServerTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"1|c\\n", "2|b\\nc\\n", "3|a\\nb\\nc\\n", "10|a\\nb\\nc\\n", "0|''"})
    void tailLinesKeepsTheLastLines(int lines, String expected) {
        byte[] log = "a\nb\nc\n".getBytes(StandardCharsets.UTF_8);
        int from = KubeletServer.startOfLastLines(log, lines);
        assertThat(new String(log, from, log.length - from, StandardCharsets.UTF_8))
                .isEqualTo(expected.replace("\\n", "\n"));
    }
}
