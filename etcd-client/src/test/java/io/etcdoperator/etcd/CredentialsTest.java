package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CredentialsTest {

    @Test
    void aStoredPasswordLosesTheNewlineAFileOrSecretAddsAndNothingElse() {
        assertThat(EtcdConnection.Credentials.password("s3cret\n".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("s3cret");
        assertThat(EtcdConnection.Credentials.password("s3cret\r\n".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("s3cret");
        assertThat(EtcdConnection.Credentials.password("p a ss".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("p a ss");
    }

    @Test
    void credentialsNeverPrintThePassword() {
        assertThat(new EtcdConnection.Credentials("root", "s3cret").toString()).doesNotContain("s3cret");
    }
}
