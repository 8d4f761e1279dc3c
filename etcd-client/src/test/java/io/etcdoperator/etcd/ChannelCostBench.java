package io.etcdoperator.etcd;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.OperatingSystemMXBean;
import io.etcd.jetcd.api.MaintenanceGrpc;
import io.etcd.jetcd.api.StatusRequest;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * What an open etcd connection costs: heap while it stays open, CPU to open one, ask Status and close it. Against one
 * real etcd; prints numbers, asserts none (run by hand: {@code -Dtest=ChannelCostBench}, docs/benchmarks.md).
 * {@code bench.transport}: {@code admin} (the port as the operator opens it) or {@code channel} (a bare gRPC channel).
 */
class ChannelCostBench {

    private static final int CHANNELS = Integer.getInteger("bench.channels", 500);
    private static final int DIALS = Integer.getInteger("bench.dials", 2000);
    private static final String TRANSPORT = System.getProperty("bench.transport", "admin");

    @Test
    void heapPerOpenConnectionAndCpuPerDial() throws Exception {
        try (LocalEtcd etcd = new LocalEtcd(EtcdVersion.values()[0])) {
            URI url = etcd.startFirst("m1").clientUrl();
            for (int i = 0; i < DIALS / 4; i++) {
                dial(url).close(); // compiled before it is measured
            }
            long cpu = processCpuNanos();
            for (int i = 0; i < DIALS; i++) {
                dial(url).close();
            }
            System.out.printf(
                    "ChannelCostBench %s: %d dials (open, Status, close), %.2f ms CPU each%n",
                    TRANSPORT, DIALS, (processCpuNanos() - cpu) / 1e6 / DIALS);
            heapPerOpen(url);
        }
    }

    private static void heapPerOpen(URI url) throws Exception {
        long before = usedAfterGc();
        Map<String, Long> histogramBefore = histogram();
        List<AutoCloseable> open = new ArrayList<>();
        for (int i = 0; i < CHANNELS; i++) {
            open.add(dial(url));
        }
        long bytes = (usedAfterGc() - before) / CHANNELS;
        Map<String, Long> grown = histogram();
        System.out.printf(
                "ChannelCostBench %s: %d open, %d bytes of heap each (%.1f KiB)%n",
                TRANSPORT, CHANNELS, bytes, bytes / 1024.0);
        grown.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - histogramBefore.getOrDefault(e.getKey(), 0L)))
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .limit(Integer.getInteger("bench.top", 30))
                .forEach(e -> System.out.printf("  %8d B each  %s%n", e.getValue() / CHANNELS, e.getKey()));
        String dump = System.getProperty("bench.dump");
        if (dump != null) { // for HeapOwners (bench module)
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpHeap(dump, true);
        }
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private static AutoCloseable dial(URI url) {
        if (TRANSPORT.equals("admin")) {
            EtcdAdmin admin = JetcdEtcdAdmin.open(EtcdConnection.plaintext(List.of(url)));
            admin.status(url);
            return admin;
        }
        ManagedChannel channel = NettyChannelBuilder.forAddress(url.getHost(), url.getPort())
                .usePlaintext()
                .build();
        MaintenanceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .status(StatusRequest.getDefaultInstance());
        return () -> channel.shutdownNow();
    }

    private static long processCpuNanos() {
        return ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class).getProcessCpuTime();
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200); // a fixed wait by design: what the collector frees has no event to await
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Bytes by class, from the JVM's own class histogram (no attach: jcmd cannot attach to a surefire fork here). */
    private static Map<String, Long> histogram() throws Exception {
        String text = (String) ManagementFactory.getPlatformMBeanServer()
                .invoke(
                        new ObjectName("com.sun.management:type=DiagnosticCommand"),
                        "gcClassHistogram",
                        new Object[] {new String[0]},
                        new String[] {String[].class.getName()});
        Map<String, Long> rows = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[0].endsWith(":")) {
                rows.put(f[3], Long.parseLong(f[2]));
            }
        }
        return rows;
    }
}
