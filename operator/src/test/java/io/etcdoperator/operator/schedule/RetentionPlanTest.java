package io.etcdoperator.operator.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.operator.schedule.RetentionPlan.Candidate;
import io.etcdoperator.operator.schedule.RetentionPlan.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetentionPlanTest {

    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    /**
     * Snapshots are written "name:hoursAgo:C|F|R" (complete, failed, running); keepLast and maxAge may be empty.
     */
    @ParameterizedTest(name = "[{index}] keep {1}, maxAge {2}: {0} -> prune {3}")
    @CsvSource(
            delimiter = ';',
            nullValues = "-",
            value = {
                "a:1:C b:2:C c:3:C d:4:C        ; 2 ; -   ; c d",
                "a:1:C b:2:C                    ; 2 ; -   ; ''",
                "a:1:C b:30:C c:50:C            ; - ; 1d  ; b c",
                "a:1:C b:30:C c:50:C            ; 5 ; 1d  ; b c",
                "a:1:C b:2:C c:50:C             ; 1 ; 7d  ; b c",
                "a:100:C b:200:C                ; - ; 1d  ; b",
                "a:100:C                        ; 1 ; 1h  ; ''",
                "a:1:R b:2:C c:3:C              ; 1 ; -   ; c",
                "a:1:R b:2:R                    ; 1 ; 1m  ; ''",
                "a:1:C b:2:F c:3:C d:4:F        ; 5 ; -   ; b d",
                "a:1:F b:2:F                    ; 1 ; -   ; ''",
                "a:1:F b:2:C                    ; 1 ; -   ; ''",
            })
    void prunes(String snapshots, Integer keepLast, String maxAge, String expected) {
        List<Candidate> candidates = Arrays.stream(snapshots.trim().split("\\s+"))
                .map(RetentionPlanTest::candidate)
                .toList();

        List<String> pruned = RetentionPlan.prune(
                candidates,
                Optional.ofNullable(keepLast),
                Optional.ofNullable(maxAge).map(RetentionPlan::age),
                NOW);

        assertThat(pruned).containsExactlyElementsOf(expected.isBlank() ? List.of() : List.of(expected.split(" ")));
    }

    @ParameterizedTest
    @CsvSource({"7d, PT168H", "36h, PT36H", "1d12h, PT36H", "90m, PT1H30M", "1d1h1m, PT25H1M"})
    void agesSumTheirParts(String text, Duration expected) {
        assertThat(RetentionPlan.age(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"1w", "7", "d", "1.5h", "''"})
    void otherAgesAreRejected(String text) {
        assertThatThrownBy(() -> RetentionPlan.age(text)).isInstanceOf(IllegalArgumentException.class);
    }

    private static Candidate candidate(String spec) {
        String[] parts = spec.split(":");
        Outcome outcome = switch (parts[2]) {
            case "C" -> Outcome.COMPLETE;
            case "F" -> Outcome.FAILED;
            default -> Outcome.RUNNING;
        };
        return new Candidate(parts[0], NOW.minus(Duration.ofHours(Long.parseLong(parts[1]))), outcome);
    }
}
