package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LiveHeapTest {

    @Test
    void readsTheTotalOfAClassHistogram() {
        String histogram = """
        25100:
         num     #instances         #bytes  class name (module)
        -------------------------------------------------------
           1:        254522       17440064  [B (java.base@25.0.3)
           2:        233910        5613840  java.lang.String (java.base@25.0.3)
        Total       1341924       62182448
        """;
        assertThat(LiveHeap.total(histogram)).hasValue(62182448L);
    }

    @Test
    void noTotalLineIsNoNumber() {
        assertThat(LiveHeap.total("25100:\ncom.sun.tools.attach.AttachNotSupportedException: no such process\n"))
                .isEmpty();
    }
}
