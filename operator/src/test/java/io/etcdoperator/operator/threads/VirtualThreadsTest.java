package io.etcdoperator.operator.threads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class VirtualThreadsTest {

    @Test
    void reconcilersRunOnVirtualThreadsNoMoreThanTheBoundAtOnce() throws Exception {
        ExecutorService pool = VirtualThreads.reconcilers(3);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger platform = new AtomicInteger();
        CountDownLatch threeStarted = new CountDownLatch(3);
        CountDownLatch release = new CountDownLatch(1);
        List<Future<?>> passes = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            passes.add(pool.submit(() -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                if (!Thread.currentThread().isVirtual()) {
                    platform.incrementAndGet();
                }
                threeStarted.countDown();
                release.await();
                running.decrementAndGet();
                return null;
            }));
        }
        assertThat(threeStarted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(running.get()).as("passes running while three block").isEqualTo(3);
        release.countDown();
        for (Future<?> pass : passes) {
            pass.get(10, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(most.get()).as("most passes at once").isEqualTo(3);
        assertThat(platform.get()).as("passes on platform threads").isZero();
    }
}
