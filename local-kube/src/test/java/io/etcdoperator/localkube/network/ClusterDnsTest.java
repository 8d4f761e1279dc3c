package io.etcdoperator.localkube.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterDnsTest {

    private static final Map<String, String> NAMES = Map.of("m-0.demo.ns.svc", "10.234.0.7");

    @Test
    void aKnownNameGetsItsAddress() {
        ByteBuffer response = ask("M-0.demo.ns.svc", 1);
        assertThat(response.getShort(0)).isEqualTo((short) 0x1234);
        assertThat(response.getShort(2) & 0x800f).as("a response, NOERROR").isEqualTo(0x8000);
        assertThat(response.getShort(6)).as("answers").isEqualTo((short) 1);
        byte[] ip = new byte[4];
        response.get(response.limit() - 4, ip);
        assertThat(ip).containsExactly(10, (byte) 234, 0, 7);
    }

    @Test
    void anUnknownNameIsNxdomainSoTheResolverMovesOnAtOnce() {
        ByteBuffer response = ask("example.com", 1);
        assertThat(response.getShort(2) & 0xf).isEqualTo(3);
        assertThat(response.getShort(6)).isZero();
    }

    @Test
    void aKnownNameHasNoIpv6Record() {
        ByteBuffer response = ask("m-0.demo.ns.svc", 28);
        assertThat(response.getShort(2) & 0xf).as("NOERROR, no data").isZero();
        assertThat(response.getShort(6)).isZero();
    }

    private static ByteBuffer ask(String name, int type) {
        ByteArrayOutputStream query = new ByteArrayOutputStream();
        query.writeBytes(new byte[] {0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0});
        for (String label : name.split("\\.")) {
            query.write(label.length());
            query.writeBytes(label.getBytes(StandardCharsets.US_ASCII));
        }
        query.writeBytes(new byte[] {0, 0, (byte) type, 0, 1});
        byte[] bytes = query.toByteArray();
        return ByteBuffer.wrap(ClusterDns.answer(bytes, bytes.length, n -> Optional.ofNullable(NAMES.get(n))));
    }
}
