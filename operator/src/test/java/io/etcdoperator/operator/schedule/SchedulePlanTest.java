package io.etcdoperator.operator.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.schedule.RetentionPlan.Outcome;
import io.etcdoperator.operator.schedule.SchedulePlan.Decision;
import io.etcdoperator.operator.schedule.SchedulePlan.Observation;
import io.etcdoperator.operator.schedule.SchedulePlan.Snapshot;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Schedule decisions as a table: fire now or not, how long to wait, which snapshots to prune. */
class SchedulePlanTest {

    private static final Instant CREATED = Instant.parse("2026-11-22T08:00:00Z");
    private static final CronSchedule HOURLY = CronSchedule.parse("@hourly");
    private static final CronSchedule NIGHTLY = CronSchedule.parse("30 2 * * *");

    private static Instant at(String time) {
        return Instant.parse("2026-11-22T" + time + "Z");
    }

    private static Snapshot done(String name, String time) {
        return new Snapshot(name, at(time), Outcome.COMPLETE, false);
    }

    private static Observation seen(
            CronSchedule cron,
            String now,
            Optional<String> last,
            List<Snapshot> snapshots,
            Optional<Integer> keepLast) {
        return new Observation(
                cron,
                ZoneOffset.UTC,
                false,
                CREATED,
                last.map(SchedulePlanTest::at),
                at(now),
                snapshots,
                keepLast,
                Optional.empty());
    }

    static Stream<Arguments> table() {
        List<Snapshot> three =
                List.of(done("s-0900", "09:00:05"), done("s-1000", "10:00:05"), done("s-1100", "11:00:05"));
        return Stream.of(
                // name, observation, fire (slot), create, wait, prune
                Arguments.of(
                        "first firing not reached",
                        seen(HOURLY, "08:20:00", Optional.empty(), List.of(), Optional.empty()),
                        null,
                        false,
                        Duration.ofMinutes(40),
                        List.of()),
                Arguments.of(
                        "due now",
                        seen(HOURLY, "09:00:00", Optional.of("08:00:00"), List.of(), Optional.empty()),
                        "09:00:00",
                        true,
                        Duration.ofSeconds(15),
                        List.of()),
                Arguments.of(
                        "due a few seconds ago",
                        seen(HOURLY, "09:00:07", Optional.of("08:00:00"), List.of(), Optional.empty()),
                        "09:00:00",
                        true,
                        Duration.ofSeconds(15),
                        List.of()),
                Arguments.of(
                        "already fired this slot",
                        seen(
                                HOURLY,
                                "09:10:00",
                                Optional.of("09:00:00"),
                                List.of(done("s-0900", "09:00:01")),
                                Optional.empty()),
                        null,
                        false,
                        Duration.ofMinutes(50),
                        List.of()),
                Arguments.of(
                        "operator was down: only the latest missed firing",
                        seen(HOURLY, "12:30:00", Optional.of("09:00:00"), List.of(), Optional.empty()),
                        "12:00:00",
                        true,
                        Duration.ofSeconds(15),
                        List.of()),
                Arguments.of(
                        "previous still running: record, do not create",
                        seen(
                                HOURLY,
                                "10:00:00",
                                Optional.of("09:00:00"),
                                List.of(new Snapshot("s-0900", at("09:00:01"), Outcome.RUNNING, false)),
                                Optional.empty()),
                        "10:00:00",
                        false,
                        Duration.ofSeconds(15),
                        List.of()),
                Arguments.of(
                        "nightly in the afternoon",
                        seen(NIGHTLY, "14:00:00", Optional.of("02:30:00"), List.of(), Optional.empty()),
                        null,
                        false,
                        Duration.ofHours(12).plusMinutes(30),
                        List.of()),
                Arguments.of(
                        "keep two of three",
                        seen(HOURLY, "11:30:00", Optional.of("11:00:00"), three, Optional.of(2)),
                        null,
                        false,
                        Duration.ofSeconds(15),
                        List.of("s-0900")),
                Arguments.of(
                        "keep three of three",
                        seen(HOURLY, "11:30:00", Optional.of("11:00:00"), three, Optional.of(3)),
                        null,
                        false,
                        Duration.ofMinutes(30),
                        List.of()),
                Arguments.of(
                        "a choice once made stands",
                        seen(
                                HOURLY,
                                "11:30:00",
                                Optional.of("11:00:00"),
                                List.of(
                                        new Snapshot("s-0900", at("09:00:05"), Outcome.COMPLETE, true),
                                        done("s-1000", "10:00:05")),
                                Optional.of(5)),
                        null,
                        false,
                        Duration.ofSeconds(15),
                        List.of("s-0900")),
                Arguments.of(
                        "no retention keeps everything",
                        seen(HOURLY, "11:30:00", Optional.of("11:00:00"), three, Optional.empty()),
                        null,
                        false,
                        Duration.ofMinutes(30),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decides(String name, Observation observation, String slot, boolean create, Duration wait, List<String> prune) {
        Decision decision = SchedulePlan.decide(observation);

        assertThat(decision.slot()).isEqualTo(Optional.ofNullable(slot).map(SchedulePlanTest::at));
        assertThat(decision.create()).isEqualTo(create);
        assertThat(decision.recheck()).isEqualTo(wait);
        assertThat(decision.prune()).isEqualTo(prune);
    }

    @Test
    void suspendedNeitherFiresNorRecordsTheSlot() {
        var o = new Observation(
                HOURLY,
                ZoneOffset.UTC,
                true,
                CREATED,
                Optional.of(at("08:00:00")),
                at("09:30:00"),
                List.of(),
                Optional.empty(),
                Optional.empty());

        Decision decision = SchedulePlan.decide(o);

        assertThat(decision.slot()).isEmpty();
        assertThat(decision.create()).isFalse();
    }

    @Test
    void readsTheScheduleInItsTimeZone() {
        ZoneId berlin = ZoneId.of("Europe/Berlin"); // UTC+1 in November
        var o = new Observation(
                NIGHTLY,
                berlin,
                false,
                CREATED,
                Optional.of(at("01:30:00")),
                at("14:00:00"),
                List.of(),
                Optional.empty(),
                Optional.empty());

        Decision decision = SchedulePlan.decide(o);

        assertThat(decision.nextFiring()).isEqualTo(Instant.parse("2026-11-23T01:30:00Z"));
    }

    @Test
    void aMinutelyScheduleMissedForAMonthFiresOnce() {
        var o = new Observation(
                CronSchedule.parse("* * * * *"),
                ZoneOffset.UTC,
                false,
                CREATED,
                Optional.of(Instant.parse("2026-10-20T00:00:00Z")),
                at("12:00:30"),
                List.of(),
                Optional.empty(),
                Optional.empty());

        assertThat(SchedulePlan.decide(o).slot()).contains(at("12:00:00"));
    }

    @Test
    void snapshotNamesUseTheFiringInUtc() {
        assertThat(SchedulePlan.snapshotName("prod-nightly", Instant.parse("2026-03-29T01:30:00Z")))
                .isEqualTo("prod-nightly-202603290130");
    }

    @Test
    void theActiveRunsAreTheRunningOnesByNameAndNoneLeavesTheFieldUnset() {
        assertThat(SchedulePlan.active(List.of(
                        new Snapshot("s-1000", at("10:00:01"), Outcome.RUNNING, false),
                        new Snapshot("s-0800", at("08:00:01"), Outcome.FAILED, false),
                        new Snapshot("s-0900", at("09:00:01"), Outcome.RUNNING, true),
                        new Snapshot("s-0700", at("07:00:01"), Outcome.COMPLETE, false))))
                .containsExactly("s-0900", "s-1000");
        assertThat(SchedulePlan.active(List.of(new Snapshot("s-0700", at("07:00:01"), Outcome.COMPLETE, false))))
                .isNull();
    }
}
