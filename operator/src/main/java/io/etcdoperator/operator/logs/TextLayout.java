package io.etcdoperator.operator.logs;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import java.util.Map;

/**
 * The look slf4j-simple gave the operator, which people and FleetTimeline read: {@code <time> [thread] LEVEL
 * ShortLogger - key=value ... message}, the MDC entries coming after the line's own key/values; stack trace below.
 */
final class TextLayout extends LayoutBase<ILoggingEvent> {

    @Override
    public String doLayout(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(256)
                .append(LogFields.TIME.format(event.getInstant()))
                .append(" [")
                .append(event.getThreadName())
                .append("] ")
                .append(event.getLevel())
                .append(' ')
                .append(shortName(event.getLoggerName()))
                .append(" - ");
        for (Map.Entry<String, Object> entry : LogFields.of(event).entrySet()) {
            line.append(entry.getKey()).append('=').append(entry.getValue()).append(' ');
        }
        line.append(event.getFormattedMessage()).append(CoreConstants.LINE_SEPARATOR);
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) {
            line.append(ThrowableProxyUtil.asString(thrown)).append(CoreConstants.LINE_SEPARATOR);
        }
        return line.toString();
    }

    private static String shortName(String logger) {
        return logger.substring(logger.lastIndexOf('.') + 1);
    }
}
