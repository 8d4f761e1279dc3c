package io.etcdoperator.operator.logs;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.LayoutBase;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One JSON object a line: time, level, logger, thread, message, the line's key/values and MDC entries as top-level
 * fields, and the exception (class, message, stack) when there is one.
 */
final class JsonLayout extends LayoutBase<ILoggingEvent> {

    /** Fixed fields: a key/value or MDC entry of the same name is left out rather than written twice. */
    private static final Set<String> FIXED = Set.of("time", "level", "logger", "thread", "message", "exception");

    @Override
    public String doLayout(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(256).append('{');
        field(line, "time", LogFields.TIME.format(event.getInstant()));
        line.append(',');
        field(line, "level", event.getLevel().toString().toLowerCase(Locale.ROOT));
        line.append(',');
        field(line, "logger", event.getLoggerName());
        line.append(',');
        field(line, "thread", event.getThreadName());
        line.append(',');
        field(line, "message", event.getFormattedMessage());
        for (Map.Entry<String, Object> entry : LogFields.of(event).entrySet()) {
            if (!FIXED.contains(entry.getKey())) {
                line.append(',');
                field(line, entry.getKey(), entry.getValue());
            }
        }
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) {
            line.append(",\"exception\":{");
            field(line, "class", thrown.getClassName());
            line.append(',');
            field(line, "message", thrown.getMessage());
            line.append(',');
            field(line, "stack", ThrowableProxyUtil.asString(thrown));
            line.append('}');
        }
        return line.append('}').append('\n').toString();
    }

    private static void field(StringBuilder line, String key, Object value) {
        string(line, key);
        line.append(':');
        if (value == null) {
            line.append("null");
        } else if (value instanceof Boolean
                || value instanceof Integer
                || value instanceof Long
                || value instanceof Short
                || value instanceof Byte) {
            line.append(value);
        } else {
            string(line, value.toString());
        }
    }

    private static void string(StringBuilder line, String text) {
        line.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> line.append("\\\"");
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        line.append(String.format("\\u%04x", (int) c));
                    } else {
                        line.append(c);
                    }
                }
            }
        }
        line.append('"');
    }
}
