package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Probe;
import java.time.Duration;
import java.util.Objects;

/**
 * Runs one probe of one container instance on its own schedule (initial delay, period, thresholds) and records
 * the outcome in the container's slot; {@code changed} wakes the Pod's worker. Stops when interrupted.
 */
final class ProbeLoop implements Runnable {

    enum Kind {
        READINESS,
        LIVENESS,
        STARTUP
    }

    private final Kind kind;
    private final Probe probe;
    private final ContainerSlot slot;
    private final ContainerProcess instance;
    private final String podIp;
    private final ProbeAction.Exec exec;
    private final Runnable changed;

    ProbeLoop(
            Kind kind,
            Probe probe,
            ContainerSlot slot,
            ContainerProcess instance,
            String podIp,
            ProbeAction.Exec exec,
            Runnable changed) {
        this.kind = kind;
        this.probe = probe;
        this.slot = slot;
        this.instance = instance;
        this.podIp = podIp;
        this.exec = exec;
        this.changed = changed;
    }

    @Override
    public void run() {
        Duration period = Duration.ofSeconds(Objects.requireNonNullElse(probe.getPeriodSeconds(), 10));
        int successThreshold = Objects.requireNonNullElse(probe.getSuccessThreshold(), 1);
        int failureThreshold = Objects.requireNonNullElse(probe.getFailureThreshold(), 3);
        int successes = 0;
        int failures = 0;
        try {
            Thread.sleep(Duration.ofSeconds(Objects.requireNonNullElse(probe.getInitialDelaySeconds(), 0)));
            while (instance.alive()) {
                if (kind != Kind.STARTUP && !slot.started) {
                    Thread.sleep(Duration.ofMillis(200));
                    continue;
                }
                long attempt = System.nanoTime();
                boolean ok = ProbeAction.run(probe, slot.spec, podIp, exec);
                if (Thread.currentThread().isInterrupted() || !instance.alive()) {
                    return;
                }
                successes = ok ? successes + 1 : 0;
                failures = ok ? 0 : failures + 1;
                if (record(ok, successes >= successThreshold, failures >= failureThreshold)) {
                    changed.run();
                    if (kind == Kind.STARTUP && (slot.started || slot.unhealthy)) {
                        return;
                    }
                    if (kind == Kind.LIVENESS && slot.unhealthy) {
                        return;
                    }
                }
                // the kubelet probes on a ticker: a probe that waited out its timeout does not stretch the period
                Duration spent = Duration.ofNanos(System.nanoTime() - attempt);
                Thread.sleep(spent.compareTo(period) < 0 ? period.minus(spent) : Duration.ZERO);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Applies one result; true when the slot changed. */
    private boolean record(boolean ok, boolean successReached, boolean failureReached) {
        switch (kind) {
            case READINESS -> {
                if (ok && successReached && !slot.ready) {
                    slot.ready = true;
                    return true;
                }
                if (!ok && failureReached && slot.ready) {
                    slot.ready = false;
                    return true;
                }
                return false;
            }
            case LIVENESS -> {
                if (failureReached) {
                    slot.unhealthyMessage = "Liveness probe failed";
                    slot.unhealthy = true;
                    return true;
                }
                return false;
            }
            case STARTUP -> {
                if (ok) {
                    slot.started = true;
                    return true;
                }
                if (failureReached) {
                    slot.unhealthyMessage = "Startup probe failed";
                    slot.unhealthy = true;
                    return true;
                }
                return false;
            }
            default -> throw new IllegalStateException(kind.name());
        }
    }
}
