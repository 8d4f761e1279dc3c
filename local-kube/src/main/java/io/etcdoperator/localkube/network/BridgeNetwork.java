package io.etcdoperator.localkube.network;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One bridge per local cluster on a free /24 of {@value #SUBNET_PREFIX}0.0/16; each Pod gets a network namespace
 * joined to it by a veth pair. Every name starts with {@code lk} plus a 4-hex instance id, so several clusters can
 * share the machine and leftovers of a crashed one are recognised and swept by the next.
 */
final class BridgeNetwork implements PodNetwork {

    private static final System.Logger LOG = System.getLogger(BridgeNetwork.class.getName());
    static final String SUBNET_PREFIX = "10.234.";
    private static final Path STATE_DIR = Path.of("/run/local-kube");
    private static final Pattern USED_SUBNET = Pattern.compile("inet 10\\.234\\.(\\d+)\\.");
    private static final Pattern OWNER_FILE = Pattern.compile("(lk[0-9a-f]{4})\\.pid");

    private final String id;
    private final int subnet;
    private final BitSet usedHosts = new BitSet(256);
    private int lastHost = 1;
    private final AtomicInteger sequence = new AtomicInteger();
    private final List<NamespaceSandbox> sandboxes = new ArrayList<>();

    private BridgeNetwork(String id, int subnet) {
        this.id = id;
        this.subnet = subnet;
        usedHosts.set(0, 2);
        usedHosts.set(255);
    }

    /** Root with iproute2 that may create a network namespace. */
    static boolean available() {
        if (!Files.isExecutable(Path.of("/usr/sbin/ip")) && !Files.isExecutable(Path.of("/sbin/ip"))) {
            return false;
        }
        String probe = "lkprobe" + ProcessHandle.current().pid() % 100000;
        boolean created =
                HostCommand.attempt(List.of("ip", "netns", "add", probe)).succeeded();
        if (created) {
            HostCommand.attempt(List.of("ip", "netns", "delete", probe));
        }
        return created;
    }

    static BridgeNetwork create() {
        try {
            Files.createDirectories(STATE_DIR);
            try (FileChannel channel = FileChannel.open(
                            STATE_DIR.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock ignored = channel.lock()) {
                sweepLeftovers();
                String id = "lk" + HexFormat.of().toHexDigits((short) new SecureRandom().nextInt());
                BridgeNetwork network = new BridgeNetwork(id, freeSubnet());
                network.createBridge();
                Files.writeString(
                        STATE_DIR.resolve(id + ".pid"),
                        Long.toString(ProcessHandle.current().pid()));
                return network;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up the pod network", e);
        }
    }

    private static int freeSubnet() {
        BitSet used = new BitSet(256);
        Matcher matcher = USED_SUBNET.matcher(HostCommand.run("ip", "-o", "-4", "addr", "show"));
        while (matcher.find()) {
            used.set(Integer.parseInt(matcher.group(1)));
        }
        int free = used.nextClearBit(0);
        if (free > 255) {
            throw new IllegalStateException("no free /24 left in " + SUBNET_PREFIX + "0.0/16");
        }
        return free;
    }

    private void createBridge() {
        HostCommand.run("ip", "link", "add", bridge(), "type", "bridge");
        HostCommand.run("ip", "addr", "add", gateway() + "/24", "dev", bridge());
        HostCommand.run("ip", "link", "set", bridge(), "up");
        LOG.log(Level.INFO, "pod network {0}", describe());
    }

    private String bridge() {
        return id + "br";
    }

    private String gateway() {
        return SUBNET_PREFIX + subnet + ".1";
    }

    @Override
    public String hostAddress() {
        return gateway();
    }

    @Override
    public Optional<String> dnsServer() {
        return Optional.of(gateway());
    }

    @Override
    public String describe() {
        return "bridge " + bridge() + " " + SUBNET_PREFIX + subnet + ".0/24";
    }

    @Override
    public synchronized PodSandbox allocate(String label) {
        int host = nextFreeHost();
        usedHosts.set(host);
        lastHost = host;
        int n = sequence.incrementAndGet();
        NamespaceSandbox sandbox = new NamespaceSandbox(
                id + "-" + n, id + "h" + n, id + "p" + n, SUBNET_PREFIX + subnet + "." + host, host);
        try {
            sandbox.create();
        } catch (RuntimeException e) {
            sandbox.close();
            throw new IllegalStateException("cannot create the network namespace for " + label, e);
        }
        sandboxes.add(sandbox);
        return sandbox;
    }

    /**
     * The first free address after the last one given out, wrapping around: a Pod that replaces another (same name,
     * say) must not get the IP just freed, or the host's and the peers' ARP caches, which still hold the old veth's
     * MAC as REACHABLE for up to ~45 s, send its probes and peer traffic nowhere meanwhile.
     */
    private int nextFreeHost() {
        int host = usedHosts.nextClearBit(lastHost + 1);
        if (host > 254) {
            host = usedHosts.nextClearBit(2);
        }
        if (host > 254) {
            throw new IllegalStateException("no free pod IP left in " + describe());
        }
        return host;
    }

    private synchronized void release(NamespaceSandbox sandbox) {
        if (sandboxes.remove(sandbox)) {
            usedHosts.clear(sandbox.host);
        }
    }

    @Override
    public void close() {
        List<NamespaceSandbox> open;
        synchronized (this) {
            open = List.copyOf(sandboxes);
        }
        open.forEach(NamespaceSandbox::close);
        HostCommand.attempt(List.of("ip", "link", "delete", bridge()));
        try {
            Files.deleteIfExists(STATE_DIR.resolve(id + ".pid"));
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot remove the owner file of " + id, e);
        }
    }

    /** Removes namespaces, links and /etc/netns dirs of clusters whose process is gone. */
    private static void sweepLeftovers() throws IOException {
        try (Stream<Path> owners = Files.list(STATE_DIR)) {
            for (Path owner : owners.toList()) {
                Matcher matcher = OWNER_FILE.matcher(owner.getFileName().toString());
                if (matcher.matches() && !alive(Files.readString(owner).strip())) {
                    sweep(matcher.group(1));
                    Files.deleteIfExists(owner);
                }
            }
        }
    }

    private static boolean alive(String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid))
                    .map(ProcessHandle::isAlive)
                    .orElse(false);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static void sweep(String id) {
        LOG.log(Level.INFO, "removing leftovers of pod network {0}", id);
        for (String namespace : HostCommand.run("ip", "netns", "list")
                .lines()
                .map(line -> line.split(" ")[0])
                .filter(name -> name.startsWith(id + "-"))
                .toList()) {
            HostCommand.attempt(List.of("ip", "netns", "delete", namespace));
            NamespaceSandbox.deleteEtcNetns(namespace);
        }
        HostCommand.run("ip", "-o", "link", "show")
                .lines()
                .map(line -> line.split(":")[1].strip().split("@")[0])
                .filter(name -> name.startsWith(id))
                .forEach(name -> HostCommand.attempt(List.of("ip", "link", "delete", name)));
    }

    /** A network namespace with {@code eth0} on the bridge and a default route through it. */
    private final class NamespaceSandbox implements PodSandbox {

        private final String namespace;
        private final String hostLink;
        private final String podLink;
        private final String ip;
        private final int host;
        private boolean closed;

        private NamespaceSandbox(String namespace, String hostLink, String podLink, String ip, int host) {
            this.namespace = namespace;
            this.hostLink = hostLink;
            this.podLink = podLink;
            this.ip = ip;
            this.host = host;
        }

        private void create() {
            HostCommand.run("ip", "netns", "add", namespace);
            HostCommand.run("ip", "link", "add", hostLink, "type", "veth", "peer", "name", podLink);
            HostCommand.run("ip", "link", "set", podLink, "netns", namespace);
            HostCommand.run("ip", "link", "set", hostLink, "master", bridge());
            HostCommand.run("ip", "link", "set", hostLink, "up");
            HostCommand.run("ip", "-n", namespace, "link", "set", podLink, "name", "eth0");
            HostCommand.run("ip", "-n", namespace, "addr", "add", ip + "/24", "dev", "eth0");
            HostCommand.run("ip", "-n", namespace, "link", "set", "eth0", "up");
            HostCommand.run("ip", "-n", namespace, "link", "set", "lo", "up");
            HostCommand.run("ip", "-n", namespace, "route", "add", "default", "via", gateway());
            try {
                Files.createDirectories(hostsFile().getParent());
                Files.writeString(hostsFile(), "127.0.0.1\tlocalhost\n");
                // `ip netns exec` binds it over /etc/resolv.conf: queries go to ClusterDns, never off the machine
                Files.writeString(
                        hostsFile().resolveSibling("resolv.conf"),
                        "nameserver " + gateway() + "\noptions ndots:1 timeout:1 attempts:2\n");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + hostsFile(), e);
            }
        }

        @Override
        public String ip() {
            return ip;
        }

        @Override
        public List<String> enter() {
            return List.of("ip", "netns", "exec", namespace);
        }

        @Override
        public Path hostsFile() {
            return Path.of("/etc/netns", namespace, "hosts");
        }

        @Override
        public boolean launcherBindsHosts() {
            return false;
        }

        @Override
        public void cut() {
            HostCommand.run("ip", "link", "set", hostLink, "down");
        }

        @Override
        public void heal() {
            HostCommand.run("ip", "link", "set", hostLink, "up");
        }

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            HostCommand.attempt(List.of("ip", "link", "delete", hostLink));
            HostCommand.attempt(List.of("ip", "netns", "delete", namespace));
            deleteEtcNetns(namespace);
            release(this);
        }

        private static void deleteEtcNetns(String namespace) {
            Path dir = Path.of("/etc/netns", namespace);
            try {
                Files.deleteIfExists(dir.resolve("hosts"));
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                LOG.log(Level.WARNING, "cannot remove " + dir, e);
            }
        }

        @Override
        public String toString() {
            return namespace + " " + ip;
        }
    }
}
