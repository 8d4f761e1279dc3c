package io.etcdoperator.operator.logs;

import ch.qos.logback.classic.Level;
import io.etcdoperator.operator.config.OperatorConfig.InvalidConfigException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How much is logged: {@code --log-level}. The project's own code logs at the level asked for; libraries (JOSDK,
 * fabric8, gRPC, Netty, Vert.x, the AWS SDK) stay at WARN unless debug or trace is asked for, and then one step
 * quieter than ours: never TRACE, where fabric8 writes whole HTTP bodies, Secrets included.
 */
public enum LogLevel {
    ERROR(Level.ERROR, Level.ERROR),
    WARN(Level.WARN, Level.WARN),
    INFO(Level.INFO, Level.WARN),
    DEBUG(Level.DEBUG, Level.INFO),
    TRACE(Level.TRACE, Level.DEBUG);

    public static final String FLAG = "--log-level";
    /** The loggers that follow the flag exactly: every module of this project. */
    static final String PROJECT_LOGGERS = "io.etcdoperator";

    private final Level project;
    private final Level libraries;

    LogLevel(Level project, Level libraries) {
        this.project = project;
        this.libraries = libraries;
    }

    public static LogLevel of(String value) {
        return Arrays.stream(values())
                .filter(l -> l.flagValue().equals(value))
                .findFirst()
                .orElseThrow(() -> new InvalidConfigException(FLAG + " must be one of "
                        + Arrays.stream(values()).map(LogLevel::flagValue).collect(Collectors.joining(", ")) + "; got '"
                        + value + "'"));
    }

    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    Level project() {
        return project;
    }

    Level libraries() {
        return libraries;
    }
}
