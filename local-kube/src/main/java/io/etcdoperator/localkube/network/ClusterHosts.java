package io.etcdoperator.localkube.network;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps hosts files current as Pods and Services change: one per Pod (bind-mounted over its {@code /etc/hosts})
 * and one host-wide file for JVMs started with {@code -Djdk.net.hosts.file}. Files are rewritten in place, never
 * replaced, because a bind mount pins the inode that running processes see.
 */
public final class ClusterHosts implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ClusterHosts.class.getName());

    private final Path hostWideFile;
    private final String clusterDomain;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<Service> services;
    private final Map<String, PodHostsFile> podFiles = new ConcurrentHashMap<>();
    private final Map<Path, String> written = new ConcurrentHashMap<>();
    private final Thread writer;
    private boolean dirty = true;
    private boolean closed;

    private record PodHostsFile(Path file, HostsEntries.Entry own) {}

    public ClusterHosts(KubernetesClient client, Path hostWideFile, String clusterDomain) {
        this.hostWideFile = hostWideFile;
        this.clusterDomain = clusterDomain;
        ResourceEventHandler<Object> onChange = new ResourceEventHandler<>() {
            @Override
            public void onAdd(Object obj) {
                changed();
            }

            @Override
            public void onUpdate(Object oldObj, Object newObj) {
                changed();
            }

            @Override
            public void onDelete(Object obj, boolean deletedFinalStateUnknown) {
                changed();
            }
        };
        this.pods = client.pods().inAnyNamespace().inform(cast(onChange), 0);
        this.services = client.services().inAnyNamespace().inform(cast(onChange), 0);
        rewrite();
        this.writer = Thread.ofPlatform().daemon().name("cluster-hosts").start(this::writeLoop);
    }

    @SuppressWarnings("unchecked")
    private static <T> ResourceEventHandler<T> cast(ResourceEventHandler<Object> handler) {
        return (ResourceEventHandler<T>) (ResourceEventHandler<?>) handler;
    }

    /** The host-wide file, for {@code -Djdk.net.hosts.file=<path>}. */
    public Path hostWideFile() {
        return hostWideFile;
    }

    public String clusterDomain() {
        return clusterDomain;
    }

    /** Starts keeping {@code file} current for the Pod with {@code key}; {@code own} is its own line. */
    public void register(String key, Path file, HostsEntries.Entry own) {
        podFiles.put(key, new PodHostsFile(file, own));
        changed();
    }

    public void unregister(String key) {
        PodHostsFile removed = podFiles.remove(key);
        if (removed != null) {
            written.remove(removed.file());
        }
    }

    /** The address of a cluster name (lower case, without the trailing dot), as the hosts files have it now. */
    public Optional<String> address(String name) {
        return HostsEntries.compute(pods.getStore().list(), services.getStore().list(), clusterDomain).stream()
                .filter(entry -> entry.names().stream().anyMatch(n -> n.equalsIgnoreCase(name)))
                .map(HostsEntries.Entry::ip)
                .findFirst();
    }

    /** Returns once every file reflects the informers' current view; for tests and for Pod start-up. */
    public void flush() {
        rewrite();
    }

    private synchronized void changed() {
        dirty = true;
        notifyAll();
    }

    private void writeLoop() {
        while (true) {
            synchronized (this) {
                while (!dirty && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                dirty = false;
            }
            try {
                rewrite();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "cannot rewrite hosts files", e);
            }
        }
    }

    private synchronized void rewrite() {
        List<HostsEntries.Entry> entries =
                HostsEntries.compute(pods.getStore().list(), services.getStore().list(), clusterDomain);
        writeIfChanged(hostWideFile, HostsEntries.render(List.of(), entries));
        podFiles.values().forEach(pod -> writeIfChanged(pod.file(), HostsEntries.render(List.of(pod.own()), entries)));
    }

    private void writeIfChanged(Path file, String content) {
        if (content.equals(written.get(file))) {
            return;
        }
        try {
            if (file.equals(hostWideFile)) {
                Files.createDirectories(file.getParent());
            }
            byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
            // same inode: write from the start, then cut off what is left of the old content
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.wrap(bytes), 0);
                channel.truncate(bytes.length);
            }
            written.put(file, content);
        } catch (IOException e) {
            if (Files.exists(file.getParent())) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
            // the Pod's sandbox is already gone
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        pods.close();
        services.close();
        try {
            writer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
