package io.etcdoperator.localkube.node;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Timestamps in the API's RFC 3339 form, to the second. */
final class KubeTime {

    private KubeTime() {}

    static String format(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }
}
