package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    private static final String STAT =
            "4242 (grpc-nio-worker-ELG-1-3) S 1 4242 4242 0 -1 4194368 10 0 0 0 %d %d 0 0 20 0"
                    + " 0 40 0 123 456 78 18446744073709551615";

    @Test
    void threadsOfOneNameAddUpAndTheDifferenceIsWhatWasSpent() {
        Map<String, long[]> before = new HashMap<>();
        ThreadCpu.add(before, STAT.formatted(100, 20));
        Map<String, long[]> after = new HashMap<>();
        ThreadCpu.add(after, STAT.formatted(150, 30));
        ThreadCpu.add(after, STAT.replace("ELG-1-3", "ELG-1-4").formatted(5, 1));

        ThreadCpu spent = new ThreadCpu(after).since(new ThreadCpu(before));

        assertThat(spent.ticks().get("grpc-nio-worker-ELG-#-#")).containsExactly(55, 11);
        assertThat(spent.table(0.7))
                .contains("| grpc-nio-worker-ELG-#-# | 0.55 | 0.11 |", "| the process (utime + stime) | 0.70 | |");
    }

    @Test
    void thisJvmHasThreadsThatSpentCpu() {
        ThreadCpu self = ThreadCpu.of(ProcessHandle.current().pid());
        assertThat(self.ticks()).isNotEmpty();
        assertThat(self.ticks().values().stream().mapToLong(t -> t[0] + t[1]).sum())
                .isPositive();
    }
}
