package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessUsageTest {

    @Test
    void readsVmRssInKib() {
        String status = "Name:\tjava\nVmPeak:\t 9000 kB\nVmRSS:\t  345678 kB\nRssAnon:\t 1 kB\n";

        assertThat(ProcessUsage.rssKib(status)).isEqualTo(345678);
    }

    @Test
    void splitsVmRssIntoAnonymousFileBackedAndShared() {
        String status = "VmRSS:\t 3072 kB\nRssAnon:\t 2048 kB\nRssFile:\t 1024 kB\nRssShmem:\t 0 kB\n";

        assertThat(ProcessUsage.rssSplit(status)).isEqualTo("2 anonymous + 1 file-backed + 0 shared MiB");
    }

    @Test
    void sumsUtimeAndStimeEvenWhenTheCommandNameHasSpacesAndParentheses() {
        // fields 14 (utime) = 1500 and 15 (stime) = 250; cutime/cstime (16, 17) must not count
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 1500 250 77 88 20 0 40 0 500 0 0";

        assertThat(ProcessUsage.cpuTicks(stat)).isEqualTo(1750);
    }

    @Test
    void cpuSecondsUseOneHundredTicksPerSecond() {
        assertThat(new ProcessUsage(1, 1350).cpuSecondsSince(new ProcessUsage(1, 1100)))
                .isEqualTo(2.5);
    }

    @Test
    void readsThisJvmFromProc() {
        ProcessUsage self = ProcessUsage.of(ProcessHandle.current().pid());

        assertThat(self.rssKib()).isPositive();
        assertThat(self.cpuTicks()).isPositive();
    }
}
