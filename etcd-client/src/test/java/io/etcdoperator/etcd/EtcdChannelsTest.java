package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

class EtcdChannelsTest {

    @Test
    void channelsAreOpenedWithoutRecordingWhereEachWasCreated() {
        try (var channels = new EtcdChannels(
                EtcdConnection.plaintext(List.of(URI.create("http://127.0.0.1:1"))), null, Clock.systemUTC())) {
            assertThat(channels.endpoints()).hasSize(1);
        }

        assertThat(System.getProperty(EtcdChannels.ALLOCATION_TRACKING)).isEqualTo("false");
    }
}
