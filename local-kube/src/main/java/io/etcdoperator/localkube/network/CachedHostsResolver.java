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
import java.util.function.LongSupplier;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Answers name lookups from a hosts file, as the JDK's own {@code -Djdk.net.hosts.file} resolver does, but parses the
 * file when it changed (looked at no more than every 250 ms) instead of on every lookup. With a thousand simulated clusters
 * the host-wide file has 18 000 lines, and the JDK's scan of it per lookup was a tenth of a host operator's CPU at 200
 * clusters: the cost of the test environment, not of the operator (cluster DNS answers without reading a file). A
 * JVM uses it with {@code -javaagent:<}{@link #agentJar}{@code >} and {@code -D}{@value #PROPERTY}{@code =<file>};
 * the JDK ignores every resolver provider while {@code jdk.net.hosts.file} is set.
 */
public final class CachedHostsResolver implements InetAddressResolver {

    /** The hosts file to answer from; a name not in it is unknown, as with {@code jdk.net.hosts.file}. */
    public static final String PROPERTY = "localkube.hosts.file";

    /** How long an answer may lag the file: far below the JDK's own 1 s cache and cluster DNS's 5 s TTL. */
    private static final long CHECK_NANOS = 250_000_000L;
    /** An unchanged file is read again after this long anyway, in case a read caught a rewrite half-done. */
    private static final long REREAD_NANOS = 10_000_000_000L;

    private static final String BLANKS = " \t\r";

    private final Path file;
    private final LongSupplier nanoTime;
    private Snapshot snapshot;

    private record Snapshot(Object version, long readAt, long checkedAt, Map<String, List<byte[]>> byName) {}

    CachedHostsResolver(Path file, LongSupplier nanoTime) {
        this.file = file;
        this.nanoTime = nanoTime;
        this.snapshot = new Snapshot(null, nanoTime.getAsLong() - REREAD_NANOS, 0, Map.of());
    }

    /** The provider the JDK finds through {@code META-INF/services} on the agent jar's class path. */
    public static final class Provider extends InetAddressResolverProvider {
        @Override
        public InetAddressResolver get(Configuration configuration) {
            String path = System.getProperty(PROPERTY);
            return path == null
                    ? configuration.builtinResolver()
                    : new CachedHostsResolver(Path.of(path), System::nanoTime);
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

    /**
     * The parsed file: looked at no more than every 250 ms, read again when it changed (it changes with every Pod
     * that starts while a fleet forms, and a parse of 18 000 lines costs tens of milliseconds) or 10 s passed.
     */
    private synchronized Snapshot current() {
        long now = nanoTime.getAsLong();
        if (now - snapshot.checkedAt() < CHECK_NANOS && snapshot.version() != null) {
            return snapshot;
        }
        Object version = version();
        if (version != null && version.equals(snapshot.version()) && now - snapshot.readAt() < REREAD_NANOS) {
            snapshot = new Snapshot(version, snapshot.readAt(), now, snapshot.byName());
            return snapshot;
        }
        try {
            snapshot = new Snapshot(version, now, now, parse(Files.readString(file, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            snapshot = new Snapshot(null, now, now, Map.of());
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

    /**
     * Lines of {@code address name...}; {@code #} starts a comment; a name may appear on several lines. Read by hand,
     * not by regular expressions: a file of 18 000 lines is parsed on every change while a fleet forms.
     */
    static Map<String, List<byte[]>> parse(String text) {
        Map<String, List<byte[]>> byName = new HashMap<>();
        int at = 0;
        while (at < text.length()) {
            int end = text.indexOf('\n', at);
            end = end < 0 ? text.length() : end;
            List<String> fields = fields(text, at, end);
            byte[] address = fields.size() < 2 ? null : literal(fields.getFirst());
            for (int i = 1; address != null && i < fields.size(); i++) {
                byName.computeIfAbsent(fields.get(i).toLowerCase(Locale.ROOT), k -> new ArrayList<>(1))
                        .add(address);
            }
            at = end + 1;
        }
        return byName;
    }

    /** The blank-separated fields of {@code text[from, to)} before a {@code #}. */
    private static List<String> fields(String text, int from, int to) {
        List<String> fields = new ArrayList<>(3);
        int at = from;
        while (at < to && text.charAt(at) != '#') {
            if (BLANKS.indexOf(text.charAt(at)) >= 0) {
                at++;
                continue;
            }
            int start = at;
            while (at < to && BLANKS.indexOf(text.charAt(at)) < 0 && text.charAt(at) != '#') {
                at++;
            }
            fields.add(text.substring(start, at));
        }
        return fields;
    }

    /**
     * An address literal's bytes, or null; never a lookup. Dotted quads are read here (a file of 18 000 lines is
     * parsed on every change while a fleet forms), anything with a colon by the JDK.
     */
    static byte[] literal(String text) {
        if (text.indexOf(':') >= 0) {
            try {
                return InetAddress.getByName(text).getAddress(); // with a colon: a literal or an error, no lookup
            } catch (UnknownHostException e) {
                return null;
            }
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] address = new byte[4];
        for (int i = 0; i < 4; i++) {
            int octet = octet(parts[i]);
            if (octet < 0) {
                return null;
            }
            address[i] = (byte) octet;
        }
        return address;
    }

    private static int octet(String digits) {
        if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        int value = Integer.parseInt(digits);
        return value <= 255 ? value : -1;
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
