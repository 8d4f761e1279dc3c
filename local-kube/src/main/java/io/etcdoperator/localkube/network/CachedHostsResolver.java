package io.etcdoperator.localkube.network;

import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Answers name lookups from a hosts file, as the JDK's own {@code -Djdk.net.hosts.file} resolver does, but parses the
 * file once per change (and at most once a second) instead of on every lookup. With a thousand simulated clusters
 * the host-wide file has 18 000 lines, and the JDK's scan of it per lookup was a tenth of a host operator's CPU at 200
 * clusters: the cost of the test environment, not of the operator (cluster DNS answers without reading a file). A
 * JVM uses it with {@code -javaagent:<}{@link #agentJar}{@code >} and {@code -D}{@value #PROPERTY}{@code =<file>};
 * the JDK ignores every resolver provider while {@code jdk.net.hosts.file} is set.
 */
public final class CachedHostsResolver implements InetAddressResolver {

    /** The hosts file to answer from; a name not in it is unknown, as with {@code jdk.net.hosts.file}. */
    public static final String PROPERTY = "localkube.hosts.file";

    private static final long REREAD_NANOS = 1_000_000_000L;

    private final Path file;
    private Snapshot snapshot = new Snapshot(null, 0, Map.of());

    private record Snapshot(Object version, long readAt, Map<String, List<byte[]>> byName) {}

    CachedHostsResolver(Path file) {
        this.file = file;
    }

    /** The provider the JDK finds through {@code META-INF/services} on the agent jar's class path. */
    public static final class Provider extends InetAddressResolverProvider {
        @Override
        public InetAddressResolver get(Configuration configuration) {
            String path = System.getProperty(PROPERTY);
            return path == null ? configuration.builtinResolver() : new CachedHostsResolver(Path.of(path));
        }

        @Override
        public String name() {
            return "local-kube cached hosts file";
        }
    }

    /** Nothing to do at start: being on the class path is what the agent is for. */
    public static void premain(String arguments) {}

    @Override
    public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
        List<byte[]> found = current().byName().get(host.toLowerCase(Locale.ROOT));
        List<InetAddress> addresses = new ArrayList<>();
        for (byte[] raw : found == null ? List.<byte[]>of() : found) {
            InetAddress address = InetAddress.getByAddress(host, raw);
            if (wanted(address, policy.characteristics())) {
                addresses.add(address);
            }
        }
        if (addresses.isEmpty()) {
            throw new UnknownHostException(host + " is not in " + file);
        }
        addresses.sort((a, b) -> Integer.compare(rank(a, policy.characteristics()), rank(b, policy.characteristics())));
        return addresses.stream();
    }

    /** The first name the file gives the address; never asks DNS, as the JDK's hosts-file resolver does not. */
    @Override
    public String lookupByAddress(byte[] address) throws UnknownHostException {
        return current().byName().entrySet().stream()
                .filter(e -> e.getValue().stream().anyMatch(a -> Arrays.equals(a, address)))
                .map(Map.Entry::getKey)
                .sorted()
                .findFirst()
                .orElseThrow(() -> new UnknownHostException(Arrays.toString(address) + " is not in " + file));
    }

    private static boolean wanted(InetAddress address, int characteristics) {
        boolean v4 = (characteristics & LookupPolicy.IPV4) != 0;
        boolean v6 = (characteristics & LookupPolicy.IPV6) != 0;
        return address instanceof Inet4Address ? v4 : v6 && address instanceof Inet6Address;
    }

    private static int rank(InetAddress address, int characteristics) {
        boolean sixFirst = (characteristics & LookupPolicy.IPV6_FIRST) != 0;
        boolean fourFirst = (characteristics & LookupPolicy.IPV4_FIRST) != 0;
        if (sixFirst) {
            return address instanceof Inet6Address ? 0 : 1;
        }
        return fourFirst && address instanceof Inet6Address ? 1 : 0;
    }

    /** The parsed file, read again once it changed or a second passed (a rewrite in place can be read half-done). */
    private synchronized Snapshot current() {
        long now = System.nanoTime();
        Object version = version();
        if (version != null && version.equals(snapshot.version()) && now - snapshot.readAt() < REREAD_NANOS) {
            return snapshot;
        }
        try {
            Map<String, List<byte[]>> byName = parse(Files.readString(file, StandardCharsets.UTF_8));
            snapshot = new Snapshot(version, now, byName);
        } catch (IOException e) {
            snapshot = new Snapshot(null, now, Map.of());
        }
        return snapshot;
    }

    private Object version() {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return List.of(attributes.lastModifiedTime(), attributes.size());
        } catch (IOException e) {
            return null;
        }
    }

    /** Lines of {@code address name...}; {@code #} starts a comment; a name may appear on several lines. */
    static Map<String, List<byte[]>> parse(String text) {
        Map<String, List<byte[]>> byName = new HashMap<>();
        for (String line : text.split("\n")) {
            int comment = line.indexOf('#');
            String[] fields =
                    (comment >= 0 ? line.substring(0, comment) : line).trim().split("\\s+");
            if (fields.length < 2) {
                continue;
            }
            byte[] address = literal(fields[0]);
            if (address == null) {
                continue;
            }
            for (int i = 1; i < fields.length; i++) {
                byName.computeIfAbsent(fields[i].toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(address);
            }
        }
        return byName;
    }

    /** An address literal's bytes, or null; only literals, so parsing never looks a name up. */
    private static byte[] literal(String text) {
        if (!text.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
            return null;
        }
        try {
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * Writes a jar holding this resolver, its provider registration and a {@code Premain-Class}, for
     * {@code -javaagent:<jar>}: an agent jar joins the system class path, where the JDK looks for resolvers, even
     * under {@code -jar}.
     */
    public static Path agentJar(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path jar = dir.resolve("cached-hosts-resolver.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Premain-Class", CachedHostsResolver.class.getName());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.putNextEntry(new JarEntry("META-INF/services/" + InetAddressResolverProvider.class.getName()));
            out.write((Provider.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            for (Class<?> type : CachedHostsResolver.class.getNestMembers()) {
                String entry = type.getName().replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(entry));
                try (InputStream bytes = type.getClassLoader().getResourceAsStream(entry)) {
                    bytes.transferTo(out);
                }
            }
        }
        return jar;
    }
}
