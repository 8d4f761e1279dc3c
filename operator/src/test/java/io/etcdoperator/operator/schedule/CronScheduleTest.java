package io.etcdoperator.operator.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CronScheduleTest {

    @ParameterizedTest(name = "''{0}'' after {1} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "@hourly        | 2026-03-10T10:00:00Z     | 2026-03-10T11:00Z",
                "@hourly        | 2026-03-10T10:59:59Z     | 2026-03-10T11:00Z",
                "@daily         | 2026-03-10T00:00:00Z     | 2026-03-11T00:00Z",
                "@midnight      | 2026-12-31T23:59:00Z     | 2027-01-01T00:00Z",
                "@weekly        | 2026-03-10T12:00:00Z     | 2026-03-15T00:00Z",
                "@monthly       | 2026-01-31T12:00:00Z     | 2026-02-01T00:00Z",
                "@yearly        | 2026-06-01T00:00:00Z     | 2027-01-01T00:00Z",
                "30 2 * * *     | 2026-03-10T02:29:00Z     | 2026-03-10T02:30Z",
                "30 2 * * *     | 2026-03-10T02:30:00Z     | 2026-03-11T02:30Z",
                "*/15 * * * *   | 2026-03-10T10:07:00Z     | 2026-03-10T10:15Z",
                "*/15 * * * *   | 2026-03-10T10:45:00Z     | 2026-03-10T11:00Z",
                "5/20 * * * *   | 2026-03-10T10:26:00Z     | 2026-03-10T10:45Z",
                "0 9-17/4 * * * | 2026-03-10T13:00:00Z     | 2026-03-10T17:00Z",
                "0 0 * * MON-FRI| 2026-03-13T12:00:00Z     | 2026-03-16T00:00Z",
                "0 0 * * 7      | 2026-03-10T00:00:00Z     | 2026-03-15T00:00Z",
                "0 0 1,15 * *   | 2026-03-02T00:00:00Z     | 2026-03-15T00:00Z",
                "0 0 31 * *     | 2026-04-01T00:00:00Z     | 2026-05-31T00:00Z",
                "0 0 29 FEB *   | 2026-03-01T00:00:00Z     | 2028-02-29T00:00Z",
                "0 0 13 * FRI   | 2026-03-10T00:00:00Z     | 2026-03-13T00:00Z",
                "0 0 14 * FRI   | 2026-03-10T00:00:00Z     | 2026-03-13T00:00Z",
            })
    void nextFiringTime(String expression, String after, String expected) {
        ZonedDateTime from = ZonedDateTime.parse(after);
        assertThat(CronSchedule.parse(expression).next(from)).isEqualTo(ZonedDateTime.parse(expected));
    }

    /** A weekday schedule is allowed its weekend; a yearly one a year; an every-minute one a minute. */
    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "@hourly          | PT1H",
                "*/15 * * * *     | PT15M",
                "* * * * *        | PT1M",
                "0 0 * * MON-FRI  | PT72H",
                "0 2,3 * * *      | PT23H",
                "@yearly          | PT8760H",
            })
    void longestGapBetweenFirings(String expression, String gap) {
        assertThat(CronSchedule.parse(expression).longestGap(ZonedDateTime.parse("2026-03-10T10:00:00Z")))
                .isEqualTo(Duration.parse(gap));
    }

    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // 02:30 does not exist on the spring-forward day in Berlin; the next real 02:30 is a day later
                "30 2 * * * | Europe/Berlin | 2026-03-29T00:00+01:00[Europe/Berlin] | 2026-03-30T02:30+02:00[Europe/Berlin]",
                "0 3 * * *  | Europe/Berlin | 2026-10-25T00:00+02:00[Europe/Berlin] | 2026-10-25T03:00+01:00[Europe/Berlin]",
            })
    void timeZonesAndDaylightSaving(String expression, String zone, String after, String expected) {
        ZonedDateTime from = ZonedDateTime.parse(after).withZoneSameInstant(ZoneId.of(zone));
        assertThat(CronSchedule.parse(expression).next(from).toInstant())
                .isEqualTo(ZonedDateTime.parse(expected).toInstant());
    }

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "''              | neither five cron fields",
                "@every 5m       | neither five cron fields",
                "* * * *         | neither five cron fields",
                "60 * * * *      | minute 60 is outside 0-59",
                "* 24 * * *      | hour 24 is outside 0-23",
                "* * 0 * *       | day of month 0 is outside 1-31",
                "* * * 13 *      | month 13 is outside 1-12",
                "* * * * 8       | day of week 8 is outside 0-7",
                "* * * FOO *     | is not a valid month",
                "10-5 * * * *    | runs backwards",
            })
    void invalidExpressionsNameTheirMistake(String expression, String message) {
        assertThatThrownBy(() -> CronSchedule.parse(expression))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @CsvSource({"0 0 30 FEB *", "0 0 31 APR *"})
    void anExpressionThatNeverFiresSaysSo(String expression) {
        assertThatThrownBy(() -> CronSchedule.parse(expression).next(ZonedDateTime.parse("2026-01-01T00:00Z")))
                .hasMessageContaining("never fires");
    }
}
