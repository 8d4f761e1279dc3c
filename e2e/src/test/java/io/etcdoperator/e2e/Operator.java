package io.etcdoperator.e2e;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.regex.Pattern;

/** The running operator, wherever it runs: a Pod installed by the chart, or a JVM on the host. */
public interface Operator {

    /** Everything it logged so far (every run of its container, or the host process's log file). */
    String logText();

    /** GET on its metrics port for {@code /metrics}, on its health-probe port otherwise. */
    HttpResponse<String> get(String path);

    /** The host PID of its JVM (for /proc: resident memory, CPU time). */
    long pid();

    /** One series of {@code name} from /metrics: the one whose labels include every one of {@code labels}. */
    default double gauge(String name, Map<String, String> labels) {
        return get("/metrics")
                .body()
                .lines()
                .filter(line -> line.startsWith(name + "{"))
                .filter(line -> labels.entrySet().stream()
                        .allMatch(l -> line.substring(0, line.indexOf('}'))
                                .matches(".*[{,]" + Pattern.quote(l.getKey() + "=\"" + l.getValue() + "\"") + ".*")))
                .map(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + labels + " in /metrics"));
    }
}
