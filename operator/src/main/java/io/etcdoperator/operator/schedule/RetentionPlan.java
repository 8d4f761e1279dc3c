package io.etcdoperator.operator.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which of a schedule's snapshots to prune. Only finished snapshots are candidates. A complete one goes when it is
 * not among the newest {@code keepLast} complete ones or is older than {@code maxAge}; the newest complete snapshot
 * always stays, so retention can never leave a cluster without a backup. A failed one goes once a newer snapshot
 * completed, since it holds no data and the newer success supersedes its error.
 */
public final class RetentionPlan {

    private static final Pattern AGE_PART = Pattern.compile("([0-9]+)([dhm])");

    /** What the planner needs to know about one snapshot. */
    public record Candidate(String name, Instant created, Outcome outcome) {}

    public enum Outcome {
        COMPLETE,
        FAILED,
        RUNNING
    }

    private RetentionPlan() {}

    public static List<String> prune(
            List<Candidate> snapshots, Optional<Integer> keepLast, Optional<Duration> maxAge, Instant now) {
        List<Candidate> complete = snapshots.stream()
                .filter(c -> c.outcome() == Outcome.COMPLETE)
                .sorted(Comparator.comparing(Candidate::created).reversed().thenComparing(Candidate::name))
                .toList();
        List<String> prune = new ArrayList<>();
        for (int i = 1; i < complete.size(); i++) {
            Candidate c = complete.get(i);
            boolean beyondCount =
                    keepLast.map(k -> k >= 1 && complete.indexOf(c) >= k).orElse(false);
            boolean tooOld =
                    maxAge.map(age -> c.created().isBefore(now.minus(age))).orElse(false);
            if (beyondCount || tooOld) {
                prune.add(c.name());
            }
        }
        Optional<Instant> newestComplete = complete.stream().findFirst().map(Candidate::created);
        snapshots.stream()
                .filter(c -> c.outcome() == Outcome.FAILED)
                .filter(c -> newestComplete.map(t -> t.isAfter(c.created())).orElse(false))
                .forEach(c -> prune.add(c.name()));
        return prune.stream().sorted().toList();
    }

    /** Parses the retention age: whole days, hours and minutes summed, e.g. {@code 7d}, {@code 1d12h}. */
    public static Duration age(String text) {
        if (text == null || !text.matches("([0-9]+[dhm])+")) {
            throw new IllegalArgumentException("'" + text + "' is not an age like 7d, 36h or 1d12h");
        }
        Duration total = Duration.ZERO;
        Matcher m = AGE_PART.matcher(text);
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(
                    switch (m.group(2)) {
                        case "d" -> Duration.ofDays(n);
                        case "h" -> Duration.ofHours(n);
                        default -> Duration.ofMinutes(n);
                    });
        }
        return total;
    }
}
