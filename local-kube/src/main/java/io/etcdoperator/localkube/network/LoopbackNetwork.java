package io.etcdoperator.localkube.network;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fallback when network namespaces cannot be created: each Pod gets its own 127.x.y.z address (all of
 * 127.0.0.0/8 is local) but shares the host's ports, so two Pods must not listen on the same wildcard port.
 * Processes still get a private mount namespace, so the Pod's hosts file can be bound over {@code /etc/hosts}.
 */
final class LoopbackNetwork implements PodNetwork {

    private final Path hostsDir;
    private final int secondOctet = 100 + new SecureRandom().nextInt(150);
    private final AtomicInteger sequence = new AtomicInteger();

    LoopbackNetwork(Path stateDir) {
        this.hostsDir = stateDir.resolve("pod-hosts");
    }

    @Override
    public PodSandbox allocate(String label) {
        int n = sequence.getAndIncrement();
        String ip = "127." + secondOctet + "." + (n / 250) + "." + (n % 250 + 2);
        Path hosts = hostsDir.resolve(n + "-" + label.replaceAll("[^A-Za-z0-9.-]", "_"));
        try {
            Files.createDirectories(hostsDir);
            Files.writeString(hosts, "127.0.0.1\tlocalhost\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + hosts, e);
        }
        return new LoopbackSandbox(ip, hosts);
    }

    @Override
    public String hostAddress() {
        return "127.0.0.1"; // Pods share the host's network here
    }

    @Override
    public String describe() {
        return "loopback 127." + secondOctet + ".0.0/16";
    }

    @Override
    public void close() {
        // nothing was created outside the work dir
    }

    private record LoopbackSandbox(String ip, Path hostsFile) implements PodSandbox {

        @Override
        public List<String> enter() {
            return List.of("unshare", "--mount", "--propagation", "slave");
        }

        @Override
        public boolean launcherBindsHosts() {
            return true;
        }

        @Override
        public void cut() {
            throw new UnsupportedOperationException(
                    "a loopback Pod address cannot be cut off; " + "network faults need network namespaces");
        }

        @Override
        public void heal() {
            cut();
        }

        @Override
        public void close() {
            try {
                Files.deleteIfExists(hostsFile);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot remove " + hostsFile, e);
            }
        }
    }
}
