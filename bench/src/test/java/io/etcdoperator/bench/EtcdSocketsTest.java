package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EtcdSocketsTest {

    private static final List<String> TABLE = List.of(
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
            "   0: 0100007F:A1B2 07EAEA0A:094B 01 00000000:00000000 00:00000000 00000000     0        0 111 1 0",
            "   1: 0100007F:A1B3 08EAEA0A:094B 01 00000000:00000000 00:00000000 00000000     0        0 222 1 0",
            "   2: 0100007F:A1B4 08EAEA0A:094C 01 00000000:00000000 00:00000000 00000000     0        0 333 1 0",
            "   3: 0100007F:A1B5 08EAEA0A:094B 06 00000000:00000000 00:00000000 00000000     0        0 444 1 0");

    @Test
    void countsEstablishedConnectionsToTheClientPortOfTheProcessOnly() {
        assertThat(EtcdSockets.count(TABLE, Set.of("111", "333", "444"))).isEqualTo(1);
        assertThat(EtcdSockets.count(TABLE, Set.of("111", "222"))).isEqualTo(2);
    }
}
