package io.etcdoperator.operator.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * metav1.Condition bookkeeping: setting a condition keeps lastTransitionTime unless the status flips, so a steady
 * state writes nothing. Returns a new list; inputs are never mutated.
 */
public final class Conditions {

    public static final String AVAILABLE = "Available";
    public static final String PROGRESSING = "Progressing";
    public static final String DEGRADED = "Degraded";
    public static final String READY = "Ready";

    private Conditions() {}

    public static List<Condition> set(
            List<Condition> current,
            String type,
            boolean status,
            String reason,
            String message,
            Long generation,
            Instant now) {
        List<Condition> out = new ArrayList<>(current == null ? List.of() : current);
        String statusText = status ? "True" : "False";
        Optional<Condition> existing = find(out, type);
        String transition = existing.filter(c -> statusText.equals(c.getStatus()))
                .map(Condition::getLastTransitionTime)
                .orElse(now.truncatedTo(ChronoUnit.SECONDS).toString());
        Condition next = new ConditionBuilder()
                .withType(type)
                .withStatus(statusText)
                .withReason(reason)
                .withMessage(message)
                .withObservedGeneration(generation)
                .withLastTransitionTime(transition)
                .build();
        existing.ifPresentOrElse(c -> out.set(out.indexOf(c), next), () -> out.add(next));
        return out;
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions == null
                ? Optional.empty()
                : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    public static boolean isTrue(List<Condition> conditions, String type) {
        return find(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
    }

    /** Same type, status, reason, message and generation: the parts whose change is worth a write. */
    public static boolean sameMeaning(List<Condition> a, List<Condition> b) {
        List<Condition> left = a == null ? List.of() : a;
        List<Condition> right = b == null ? List.of() : b;
        if (left.size() != right.size()) {
            return false;
        }
        for (Condition c : left) {
            Optional<Condition> other = find(right, c.getType());
            if (other.isEmpty()
                    || !Objects.equals(c.getStatus(), other.get().getStatus())
                    || !Objects.equals(c.getReason(), other.get().getReason())
                    || !Objects.equals(c.getMessage(), other.get().getMessage())
                    || !Objects.equals(c.getObservedGeneration(), other.get().getObservedGeneration())) {
                return false;
            }
        }
        return true;
    }
}
