package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class JcmdTest {

    private final long self = ProcessHandle.current().pid();

    @Test
    void aCommandsOutputComesBack() throws Exception {
        assertThat(Jcmd.run(self, "VM.version")).contains("JDK");
    }

    @Test
    void aRefusedCommandIsAnIoExceptionWithWhatJcmdSaid() {
        assertThatThrownBy(() -> Jcmd.run(self, "No.such.command"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("No.such.command");
    }
}
