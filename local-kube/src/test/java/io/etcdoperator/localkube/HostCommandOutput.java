package io.etcdoperator.localkube;

import io.etcdoperator.localkube.network.HostCommand;
import java.util.stream.Stream;

/** Lines printed by a host command, for assertions about what is left on the machine. */
final class HostCommandOutput {

    private HostCommandOutput() {}

    static Stream<String> lines(String... command) {
        return HostCommand.run(command).lines();
    }
}
