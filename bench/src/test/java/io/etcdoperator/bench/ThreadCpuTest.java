package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    /** As the kernel writes it: the name cut to 15 characters. */
    private static final String STAT =
            "4242 (grpc-nio-worker) S 1 4242 4242 0 -1 4194368 10 0 0 0 %d %d 0 0 20 0 0 40 0 123 456 78 1";

    private static ThreadCpu.Spent spent(long user, long system) {
        return ThreadCpu.parse(STAT.formatted(user, system));
    }

    @Test
    void eachThreadCountsFromItsOwnStartAndThreadsOfOneNameAddUp() {
        ThreadCpu before = new ThreadCpu(Map.of("11", spent(100, 20), "12", spent(900, 90)));
        // 12 ended (its 990 ticks must not be subtracted from anyone), 13 started in the window
        ThreadCpu after = new ThreadCpu(Map.of("11", spent(150, 30), "13", spent(5, 1)));

        Map<String, long[]> spent = after.since(before);

        assertThat(spent.get("grpc-nio-worker")).containsExactly(55, 11);
        assertThat(ThreadCpu.table(spent, 0.7))
                .contains(
                        "| grpc-nio-worker | 0.55 | 0.11 |",
                        "| the process (utime + stime, ended threads included) | 0.70 | |");
    }

    @Test
    void aNameWithSpacesAndParenthesesIsReadWhole() {
        ThreadCpu.Spent odd = ThreadCpu.parse("7 (C2 (x) 3) R 1 7 7 0 -1 0 0 0 0 0 9 8 0 0 20 0 1 0 5 6 7 8");
        assertThat(odd).isEqualTo(new ThreadCpu.Spent("C# (x) #", 9, 8));
    }

    @Test
    void thisJvmHasThreadsThatSpentCpu() {
        ThreadCpu self = ThreadCpu.of(ProcessHandle.current().pid());
        assertThat(self.ticks()).isNotEmpty();
        assertThat(self.ticks().values().stream()
                        .mapToLong(t -> t.user() + t.system())
                        .sum())
                .isPositive();
    }
}
