package io.etcdoperator.operator.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.util.List;

/** The operator process itself: heap, GC, threads, classes, CPU, uptime and open files (jvm_*, process_*, system_*). */
public final class OperatorMeters {

    private OperatorMeters() {}

    public static void bindTo(MeterRegistry registry) {
        // JvmGcMetrics listens to GC notifications for the life of the process; the operator never closes it
        List<MeterBinder> binders = List.of(
                new JvmMemoryMetrics(),
                new JvmGcMetrics(),
                new JvmThreadMetrics(),
                new ClassLoaderMetrics(),
                new ProcessorMetrics(),
                new UptimeMetrics(),
                new FileDescriptorMetrics());
        binders.forEach(b -> b.bindTo(registry));
    }
}
