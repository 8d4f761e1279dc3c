package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapOwnersTest {

    /** Holds 4 MiB in 1024 arrays behind JDK lists: the report must name it, not the arrays or the lists. */
    static final class Ballast {
        final List<byte[]> chunks = new ArrayList<>();

        Ballast() {
            for (int i = 0; i < 1024; i++) {
                chunks.add(new byte[4096]);
            }
        }
    }

    /** Two holders share one array: neither dominates it, so it counts for neither. */
    static final class Sharer {
        final byte[] shared;

        Sharer(byte[] shared) {
            this.shared = shared;
        }
    }

    static Ballast ballast;
    static List<Sharer> sharers;

    @Test
    void bytesKeptBehindJdkObjectsCountForTheirNearestOwnerOutsideTheJdk(@TempDir Path dir) throws Exception {
        ballast = new Ballast();
        byte[] big = new byte[1 << 20];
        sharers = List.of(new Sharer(big), new Sharer(big));
        Path dump = dir.resolve("self.hprof");
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpHeap(dump.toString(), true);
        assertThat(Files.size(dump)).isPositive();

        HeapOwners.Report report = HeapOwners.of(dump);

        HeapOwners.Row owned = row(report.owners(), Ballast.class.getName());
        assertThat(owned.bytes()).isBetween(4L << 20, 5L << 20);
        assertThat(owned.count()).isEqualTo(1);
        assertThat(row(report.retained(), Ballast.class.getName()).bytes()).isBetween(4L << 20, 5L << 20);
        assertThat(row(report.retained(), Sharer.class.getName()).bytes())
                .as("the shared array belongs to no single Sharer")
                .isLessThan(1024);
        assertThat(report.totalBytes()).isGreaterThan(5L << 20);
    }

    private static HeapOwners.Row row(List<HeapOwners.Row> rows, String name) {
        return rows.stream()
                .filter(r -> r.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " not in " + rows.subList(0, Math.min(20, rows.size()))));
    }
}
