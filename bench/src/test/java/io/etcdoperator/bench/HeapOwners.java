package io.etcdoperator.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Who holds a JVM's heap: reads a heap dump ({@code jcmd <pid> GC.heap_dump}, or the bench's {@code BENCH_HEAP_DUMP}),
 * builds the dominator tree and attributes every object to its nearest dominator of a class outside the JDK, so a
 * {@code byte[]} counts for the informer store, gRPC channel or metric that keeps it. Sizes are estimates (12-byte
 * headers, 4-byte references). Run as {@code java bench/src/test/java/io/etcdoperator/bench/HeapOwners.java FILE [N]}.
 */
public final class HeapOwners {

    /** One class's objects: their estimated bytes and how many of them head their own subtree. */
    public record Row(String name, long bytes, int count) {}

    /**
     * Attributed bytes by owner class, and retained bytes by class (instances not dominated directly by another of
     * their class, so a chain of nodes counts once), largest first.
     */
    public record Report(long totalBytes, List<Row> owners, List<Row> retained) {}

    private final HeapDump dump;

    private HeapOwners(HeapDump dump) {
        this.dump = dump;
    }

    public static Report of(Path file) throws IOException {
        return new HeapOwners(HeapDump.read(file)).report();
    }

    public static void main(String[] args) throws IOException {
        Report report = of(Path.of(args[0]));
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        PrintStream out = System.out;
        out.printf(
                "estimated bytes reachable: %.1f MiB%n%n| owner (nearest non-JDK dominator) | KiB | instances |%n"
                        + "|---|---|---|%n",
                report.totalBytes() / 1048576.0);
        report.owners().stream()
                .limit(top)
                .forEach(r -> out.printf("| %s | %.1f | %d |%n", r.name(), r.bytes() / 1024.0, r.count()));
        out.printf("%n| retained by class | KiB | instances |%n|---|---|---|%n");
        report.retained().stream()
                .limit(top)
                .forEach(r -> out.printf("| %s | %.1f | %d |%n", r.name(), r.bytes() / 1024.0, r.count()));
    }

    private Report report() {
        Dominators tree = Dominators.of(dump);
        int[] order = tree.order();
        int classes = dump.classNames.size();
        long[] owned = new long[classes + 1];
        int[] heads = new int[classes + 1];
        int[] owner = new int[dump.count + 1];
        long total = 0;
        for (int i = order.length - 1; i >= 0; i--) { // dominators before what they dominate
            int v = order[i];
            int up = tree.idom(v);
            owner[v] = outsideJdk(dump.className(v)) ? v : up == Dominators.ROOT ? -1 : owner[up];
            int c = owner[v] < 0 ? classes : dump.classOf[owner[v]];
            owned[c] += dump.size[v];
            heads[c] += owner[v] == v ? 1 : 0;
            total += dump.size[v];
        }
        List<Row> owners =
                rows(owned, heads, c -> c == classes ? "(only the JDK's objects on the way)" : dump.classNames.get(c));
        return new Report(total, owners, retained(tree, order));
    }

    private List<Row> retained(Dominators tree, int[] order) {
        long[] retained = new long[dump.count];
        for (int v : order) {
            retained[v] += dump.size[v];
            if (tree.idom(v) != Dominators.ROOT) {
                retained[tree.idom(v)] += retained[v];
            }
        }
        int classes = dump.classNames.size();
        long[] bytes = new long[classes + 1];
        int[] count = new int[classes + 1];
        for (int v : order) {
            int up = tree.idom(v);
            if (up == Dominators.ROOT || dump.classOf[up] != dump.classOf[v]) {
                bytes[dump.classOf[v]] += retained[v];
                count[dump.classOf[v]]++;
            }
        }
        return rows(bytes, count, dump.classNames::get);
    }

    private static List<Row> rows(long[] bytes, int[] count, IntFunction<String> name) {
        List<Row> rows = new ArrayList<>();
        for (int c = 0; c < bytes.length; c++) {
            if (bytes[c] > 0) {
                rows.add(new Row(name.apply(c), bytes[c], count[c]));
            }
        }
        rows.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
        return rows;
    }

    static boolean outsideJdk(String className) {
        if (className.startsWith("[")) {
            return false;
        }
        String name = className.startsWith("class ") ? className.substring(6) : className;
        return !(name.startsWith("java.")
                || name.startsWith("jdk.")
                || name.startsWith("sun.")
                || name.startsWith("com.sun."));
    }

    /** The objects of an HPROF 1.0.2 dump: class, estimated size and references of each, and the GC roots. */
    static final class HeapDump {
        private record ClassDump(long superId, String name, byte[] fieldTypes) {}

        private ByteBuffer in;
        private int idSize;
        private final Map<Long, String> strings = new HashMap<>();
        private final Map<Long, String> loadedNames = new HashMap<>();
        private final Map<Long, ClassDump> classDumps = new HashMap<>();
        private final Map<String, Integer> classIndex = new HashMap<>();
        final List<String> classNames = new ArrayList<>();
        final Set<Long> roots = new LinkedHashSet<>();
        int count;
        int[] classOf = new int[1 << 16];
        int[] size = new int[1 << 16];
        long[] ids = new long[1 << 16];
        int[] refStart = new int[1 << 16];
        long[] refs = new long[1 << 18];
        int refCount;

        static HeapDump read(Path file) throws IOException {
            HeapDump d = new HeapDump();
            try (FileChannel channel = FileChannel.open(file)) {
                d.in = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            }
            d.records();
            return d;
        }

        String className(int object) {
            return classNames.get(classOf[object]);
        }

        private void records() {
            while (in.get() != 0) {} // "JAVA PROFILE 1.0.2"
            idSize = in.getInt();
            in.getLong();
            List<int[]> segments = new ArrayList<>();
            while (in.hasRemaining()) {
                int tag = in.get() & 0xff;
                in.getInt();
                long length = in.getInt() & 0xffffffffL;
                int start = in.position();
                switch (tag) {
                    case 0x01 -> utf8(length);
                    case 0x02 -> loadClass();
                    case 0x0c, 0x1c -> segments.add(new int[] {start, (int) length});
                    default -> {}
                }
                in.position((int) (start + length));
            }
            segments.forEach(s -> segment(s, true));
            segments.forEach(s -> segment(s, false));
            refStart[count] = refCount;
        }

        private void utf8(long length) {
            long id = id();
            byte[] text = new byte[(int) length - idSize];
            in.get(text);
            strings.put(id, new String(text));
        }

        private void loadClass() {
            in.getInt();
            long classId = id();
            in.getInt();
            loadedNames.put(classId, strings.get(id()).replace('/', '.'));
        }

        private void segment(int[] s, boolean classesOnly) {
            in.position(s[0]);
            while (in.position() < s[0] + s[1]) {
                int tag = in.get() & 0xff;
                switch (tag) {
                    case 0xff, 0x05, 0x07 -> root(classesOnly, 0);
                    case 0x01 -> root(classesOnly, idSize);
                    case 0x02, 0x03, 0x08 -> root(classesOnly, 8);
                    case 0x04, 0x06 -> root(classesOnly, 4);
                    case 0x20 -> classDump(classesOnly);
                    case 0x21 -> instance(classesOnly);
                    case 0x22 -> objectArray(classesOnly);
                    case 0x23 -> primitiveArray(classesOnly);
                    default ->
                        throw new IllegalStateException("unknown heap dump record " + tag + " at " + in.position());
                }
            }
        }

        private void root(boolean classesOnly, int extra) {
            long id = id();
            skip(extra);
            if (!classesOnly) {
                roots.add(id);
            }
        }

        private void classDump(boolean classesOnly) {
            long id = id();
            in.getInt();
            long superId = id();
            skip(5 * idSize);
            in.getInt();
            int constants = in.getShort() & 0xffff;
            for (int i = 0; i < constants; i++) {
                in.getShort();
                skip(valueSize(in.get()));
            }
            List<Long> statics = new ArrayList<>();
            int staticCount = in.getShort() & 0xffff;
            for (int i = 0; i < staticCount; i++) {
                id();
                byte type = in.get();
                if (type == 2) {
                    statics.add(id());
                } else {
                    skip(valueSize(type));
                }
            }
            byte[] types = new byte[in.getShort() & 0xffff];
            for (int i = 0; i < types.length; i++) {
                id();
                types[i] = in.get();
            }
            String name = loadedNames.getOrDefault(id, "?");
            if (classesOnly) {
                classDumps.put(id, new ClassDump(superId, name, types));
                return;
            }
            add(id, "class " + name, 0); // a class is a root: its statics are what it holds
            roots.add(id);
            statics.forEach(this::ref);
        }

        private void instance(boolean classesOnly) {
            long id = id();
            in.getInt();
            ClassDump type = classDumps.get(id());
            int length = in.getInt();
            int end = in.position() + length;
            if (!classesOnly) {
                long bytes = 12;
                List<Long> found = new ArrayList<>();
                for (ClassDump c = type; c != null; c = classDumps.get(c.superId())) {
                    for (byte t : c.fieldTypes()) {
                        bytes += t == 2 ? 4 : valueSize(t);
                        if (t == 2) {
                            found.add(id());
                        } else {
                            skip(valueSize(t));
                        }
                    }
                }
                add(id, type == null ? "?" : type.name(), align(bytes));
                found.forEach(this::ref);
            }
            in.position(end);
        }

        private void objectArray(boolean classesOnly) {
            long id = id();
            in.getInt();
            int length = in.getInt();
            long arrayClass = id();
            if (classesOnly) {
                skip(length * idSize);
                return;
            }
            add(id, loadedNames.getOrDefault(arrayClass, "[?"), align(16 + 4L * length));
            for (int i = 0; i < length; i++) {
                ref(id());
            }
        }

        private void primitiveArray(boolean classesOnly) {
            long id = id();
            in.getInt();
            int length = in.getInt();
            byte type = in.get();
            skip(length * valueSize(type));
            if (!classesOnly) {
                add(id, "[" + "??ZCFDBSIJ".charAt(type - 2), align(16 + (long) length * valueSize(type)));
            }
        }

        private void add(long id, String className, int bytes) {
            if (count + 1 >= classOf.length) {
                int n = classOf.length * 2;
                classOf = Arrays.copyOf(classOf, n);
                size = Arrays.copyOf(size, n);
                ids = Arrays.copyOf(ids, n);
                refStart = Arrays.copyOf(refStart, n);
            }
            classOf[count] = classIndex.computeIfAbsent(className, k -> {
                classNames.add(k);
                return classNames.size() - 1;
            });
            size[count] = bytes;
            ids[count] = id;
            refStart[count] = refCount;
            count++;
        }

        private void ref(long id) {
            if (id == 0) {
                return;
            }
            if (refCount == refs.length) {
                refs = Arrays.copyOf(refs, refCount * 2);
            }
            refs[refCount++] = id;
        }

        private long id() {
            return idSize == 8 ? in.getLong() : in.getInt() & 0xffffffffL;
        }

        private void skip(int bytes) {
            in.position(in.position() + bytes);
        }

        private int valueSize(int type) {
            return switch (type) {
                case 2 -> idSize;
                case 4, 8 -> 1;
                case 5, 9 -> 2;
                case 6, 10 -> 4;
                case 7, 11 -> 8;
                default -> throw new IllegalStateException("unknown value type " + type);
            };
        }

        private static int align(long bytes) {
            return (int) ((bytes + 7) & ~7L);
        }
    }
}
