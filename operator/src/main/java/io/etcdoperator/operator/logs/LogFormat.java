package io.etcdoperator.operator.logs;

import io.etcdoperator.operator.config.OperatorConfig.InvalidConfigException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How log lines are written: {@code --log-format=text|json}. */
public enum LogFormat {
    TEXT,
    JSON;

    public static final String FLAG = "--log-format";

    public static LogFormat of(String value) {
        return Arrays.stream(values())
                .filter(f -> f.flagValue().equals(value))
                .findFirst()
                .orElseThrow(() -> new InvalidConfigException(FLAG + " must be one of "
                        + Arrays.stream(values()).map(LogFormat::flagValue).collect(Collectors.joining(", "))
                        + "; got '" + value + "'"));
    }

    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
