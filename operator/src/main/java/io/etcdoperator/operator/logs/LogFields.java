package io.etcdoperator.operator.logs;

import ch.qos.logback.classic.spi.ILoggingEvent;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.event.KeyValuePair;

/** What both formats print of a line beyond time, level, logger and message: its key/values, then its MDC. */
final class LogFields {

    /** RFC 3339 in UTC with milliseconds, as the slf4j-simple lines before it (and FleetTimeline) read. */
    static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);

    private LogFields() {}

    /**
     * The line's own key/values first, in the order the code added them, then the MDC entries (sorted) whose key the
     * line did not set itself: a line about another cluster than its reconcile's keeps its own {@code cluster}.
     */
    static Map<String, Object> of(ILoggingEvent event) {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (event.getKeyValuePairs() != null) {
            for (KeyValuePair pair : event.getKeyValuePairs()) {
                if (pair.key != null) {
                    fields.put(pair.key, pair.value);
                }
            }
        }
        Map<String, String> mdc = event.getMDCPropertyMap();
        if (mdc != null) {
            new TreeMap<>(mdc).forEach(fields::putIfAbsent);
        }
        return fields;
    }
}
