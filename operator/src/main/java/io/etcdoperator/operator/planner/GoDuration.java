package io.etcdoperator.operator.planner;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The subset of Go's duration syntax the CRD admits for TLS lifetimes: h, m and s parts, e.g. {@code 2160h}. */
public final class GoDuration {

    private static final Pattern WHOLE = Pattern.compile("([0-9]+(\\.[0-9]+)?(h|m|s))+");
    private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(h|m|s)");

    private GoDuration() {}

    public static Duration parse(String text, Duration fallback) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        if (!WHOLE.matcher(text).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration like 2160h or 90m");
        }
        BigDecimal seconds = BigDecimal.ZERO;
        Matcher m = PART.matcher(text);
        while (m.find()) {
            long unit = switch (m.group(2)) {
                case "h" -> 3600;
                case "m" -> 60;
                default -> 1;
            };
            seconds = seconds.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit)));
        }
        return Duration.ofMillis(seconds.movePointRight(3).longValue());
    }
}
