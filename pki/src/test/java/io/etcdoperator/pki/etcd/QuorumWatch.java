package io.etcdoperator.pki.etcd;

import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Asks every member for its status a few times a second and keeps the lowest number that answered: a 3-member
 * cluster keeps quorum as long as that never drops below 2.
 */
final class QuorumWatch implements AutoCloseable {

    private static final Duration EVERY = Duration.ofMillis(200);

    private final TlsEtcd etcd;
    private final AtomicReference<ClientMaterial> material;
    private final AtomicInteger fewestAnswering = new AtomicInteger(Integer.MAX_VALUE);
    private final AtomicLong rounds = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    QuorumWatch(TlsEtcd etcd, ClientMaterial material) {
        this.etcd = etcd;
        this.material = new AtomicReference<>(material);
        this.thread = Thread.ofPlatform().name("quorum-watch").start(this::watch);
    }

    void use(ClientMaterial next) {
        material.set(next);
    }

    int fewestAnswering() {
        return fewestAnswering.get();
    }

    long rounds() {
        return rounds.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
    }

    private void watch() {
        while (running) {
            int answering = 0;
            try (EtcdAdmin admin = etcd.admin(etcd.clientUrls(), material.get(), Duration.ofSeconds(1))) {
                for (TlsEtcd.Node node : etcd.nodes()) {
                    try {
                        admin.status(node.clientUrl());
                        answering++;
                    } catch (EtcdException e) {
                        // that member is restarting (or unreachable): it does not count
                    }
                }
            }
            fewestAnswering.accumulateAndGet(answering, Math::min);
            rounds.incrementAndGet();
            try {
                Thread.sleep(EVERY);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
