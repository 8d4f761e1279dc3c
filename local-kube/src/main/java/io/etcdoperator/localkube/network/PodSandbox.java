package io.etcdoperator.localkube.network;

import java.nio.file.Path;
import java.util.List;

/**
 * Where a Pod's processes run: its own IP, the command prefix that enters its network (and a private mount
 * namespace), and its hosts file, which is bind-mounted over {@code /etc/hosts} inside.
 */
public interface PodSandbox extends AutoCloseable {

    String ip();

    /** Prepended to every container command; the result runs in a private mount namespace. */
    List<String> enter();

    Path hostsFile();

    /** True when {@link #enter()} does not itself bind {@link #hostsFile()} over {@code /etc/hosts}. */
    boolean launcherBindsHosts();

    /** Makes the Pod unreachable (and unable to reach anyone) until {@link #heal()}. */
    void cut();

    void heal();

    /** Releases the IP and everything created for the Pod. */
    @Override
    void close();
}
