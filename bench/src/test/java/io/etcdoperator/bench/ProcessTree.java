package io.etcdoperator.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of this JVM and every process it started, summed by program name (kube-apiserver, etcd, java for the
 * operator, ...): which process the fleet's CPU went to.
 */
record ProcessTree(Map<String, Double> cpuSeconds) {

    static ProcessTree sample() {
        Map<String, Double> cpu = new HashMap<>();
        add(cpu, "test JVM (local kube nodes, simulated etcd)", ProcessHandle.current());
        ProcessHandle.current()
                .descendants()
                .forEach(p -> add(
                        cpu,
                        p.info()
                                .command()
                                .map(c -> Path.of(c).getFileName().toString())
                                .orElse("?"),
                        p));
        return new ProcessTree(Map.copyOf(cpu));
    }

    private static void add(Map<String, Double> cpu, String name, ProcessHandle process) {
        try {
            ProcessUsage usage = ProcessUsage.of(process.pid());
            cpu.merge(name, usage.cpuTicks() / (double) ProcessUsage.CLOCK_TICKS_PER_SECOND, Double::sum);
        } catch (RuntimeException gone) {
            // the process ended between listing and reading it
        }
    }

    /** CPU seconds per program since {@code earlier} (processes that ended in between are not counted). */
    Map<String, Double> since(ProcessTree earlier) {
        Map<String, Double> out = new HashMap<>();
        cpuSeconds.forEach((name, seconds) -> out.put(name, seconds - earlier.cpuSeconds.getOrDefault(name, 0.0)));
        return out;
    }
}
