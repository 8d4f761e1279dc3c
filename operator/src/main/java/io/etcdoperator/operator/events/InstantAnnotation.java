package io.etcdoperator.operator.events;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A user's "do it now" annotation holding an RFC 3339 instant; an unreadable value is named in the log and ignored. */
public final class InstantAnnotation {

    private static final Logger LOG = LoggerFactory.getLogger(InstantAnnotation.class);

    private InstantAnnotation() {}

    public static Optional<Instant> read(EtcdCluster cluster, String annotation) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(annotation);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(value.strip()).toInstant());
        } catch (DateTimeParseException e) {
            LOG.atWarn()
                    .addKeyValue("cluster", cluster.getMetadata().getName())
                    .addKeyValue("annotation", annotation)
                    .addKeyValue("value", value)
                    .log("not an RFC 3339 time such as 2026-11-22T14:00:00Z; ignored");
            return Optional.empty();
        }
    }
}
