package io.etcdoperator.e2e;

import java.net.http.HttpResponse;

/** The running operator, wherever it runs: a Pod installed by the chart, or a JVM on the host. */
public interface Operator {

    /** Everything it logged so far (every run of its container, or the host process's log file). */
    String logText();

    /** GET on its metrics port for {@code /metrics}, on its health-probe port otherwise. */
    HttpResponse<String> get(String path);

    /** The host PID of its JVM (for /proc: resident memory, CPU time). */
    long pid();
}
