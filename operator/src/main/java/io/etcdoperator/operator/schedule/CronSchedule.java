package io.etcdoperator.operator.schedule;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A standard five-field cron expression (minute hour day-of-month month day-of-week) or an @ macro, and the next
 * time it fires. As in Vixie cron, when both day fields are restricted a day matching either one fires.
 */
public final class CronSchedule {

    private static final Map<String, String> MACROS = Map.of(
            "@yearly",
            "0 0 1 1 *",
            "@annually",
            "0 0 1 1 *",
            "@monthly",
            "0 0 1 * *",
            "@weekly",
            "0 0 * * 0",
            "@daily",
            "0 0 * * *",
            "@midnight",
            "0 0 * * *",
            "@hourly",
            "0 * * * *");
    private static final List<String> MONTHS =
            List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
    private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");
    /** Every combination (Feb 29 on a Monday, say) recurs within this many years, or never. */
    private static final int SEARCH_YEARS = 28;

    private final String expression;
    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth;
    private final BitSet months;
    private final BitSet daysOfWeek;
    private final boolean anyDayOfMonth;
    private final boolean anyDayOfWeek;

    private CronSchedule(String expression, String[] fields) {
        this.expression = expression;
        this.minutes = field(fields[0], 0, 59, List.of(), "minute");
        this.hours = field(fields[1], 0, 23, List.of(), "hour");
        this.daysOfMonth = field(fields[2], 1, 31, List.of(), "day of month");
        this.months = field(fields[3], 1, 12, MONTHS, "month");
        BitSet dow = field(fields[4], 0, 7, DAYS, "day of week");
        if (dow.get(7)) {
            dow.set(0); // 7 is Sunday too
        }
        this.daysOfWeek = dow;
        this.anyDayOfMonth = fields[2].startsWith("*");
        this.anyDayOfWeek = fields[4].startsWith("*");
    }

    /** Parses an expression; an {@link IllegalArgumentException} names the field that is wrong. */
    public static CronSchedule parse(String expression) {
        String text = expression == null ? "" : expression.strip();
        String expanded = MACROS.getOrDefault(text.toLowerCase(Locale.ROOT), text);
        String[] fields = expanded.split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException(
                    "'" + expression + "' is neither five cron fields nor one of " + MACROS.keySet());
        }
        return new CronSchedule(expression, fields);
    }

    /** The first firing strictly after {@code after}, in its zone; throws if the expression can never fire. */
    public ZonedDateTime next(ZonedDateTime after) {
        ZonedDateTime t = after.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
        ZonedDateTime limit = t.plusYears(SEARCH_YEARS);
        while (t.isBefore(limit)) {
            if (!months.get(t.getMonthValue())) {
                t = t.truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1).plusMonths(1);
            } else if (!dayMatches(t)) {
                t = t.truncatedTo(ChronoUnit.DAYS).plusDays(1);
            } else if (!hours.get(t.getHour())) {
                t = t.truncatedTo(ChronoUnit.HOURS).plusHours(1);
            } else if (!minutes.get(t.getMinute())) {
                t = t.plusMinutes(1);
            } else {
                return t;
            }
        }
        throw new IllegalArgumentException("'" + expression + "' never fires");
    }

    /**
     * The longest wait between two firings over the week after {@code after} (at most 1,000 firings looked at), so a
     * weekday-only schedule is allowed its weekend: what a snapshot-age alert measures the newest snapshot against.
     */
    public Duration longestGap(ZonedDateTime after) {
        ZonedDateTime horizon = after.plusDays(8);
        ZonedDateTime firing = next(after);
        Duration longest = Duration.ZERO;
        for (int i = 0; i < 1_000 && !firing.isAfter(horizon); i++) {
            ZonedDateTime following = next(firing);
            Duration gap = Duration.between(firing, following);
            longest = gap.compareTo(longest) > 0 ? gap : longest;
            firing = following;
        }
        return longest.isZero() ? Duration.between(firing, next(firing)) : longest;
    }

    @Override
    public String toString() {
        return expression;
    }

    private boolean dayMatches(ZonedDateTime t) {
        boolean dom = daysOfMonth.get(t.getDayOfMonth());
        boolean dow = daysOfWeek.get(t.getDayOfWeek().getValue() % 7);
        if (anyDayOfMonth || anyDayOfWeek) {
            return dom && dow;
        }
        return dom || dow;
    }

    private static BitSet field(String text, int min, int max, List<String> names, String what) {
        BitSet values = new BitSet(max + 1);
        for (String part : text.split(",")) {
            int step = 1;
            String range = part;
            int slash = part.indexOf('/');
            if (slash >= 0) {
                step = number(part.substring(slash + 1), 1, max, List.of(), what);
                range = part.substring(0, slash);
            }
            int from;
            int to;
            if (range.equals("*") || range.equals("?")) {
                from = min;
                to = max;
            } else if (range.contains("-")) {
                String[] ends = range.split("-", 2);
                from = number(ends[0], min, max, names, what);
                to = number(ends[1], min, max, names, what);
            } else {
                from = number(range, min, max, names, what);
                to = slash >= 0 ? max : from;
            }
            if (from > to) {
                throw new IllegalArgumentException(what + " range '" + part + "' runs backwards");
            }
            for (int v = from; v <= to; v += step) {
                values.set(v);
            }
        }
        return values;
    }

    private static int number(String text, int min, int max, List<String> names, String what) {
        int index = names.indexOf(text.toUpperCase(Locale.ROOT));
        int offset = names.size() == 12 ? 1 : 0; // month names start at 1, day names at 0
        int value;
        if (index >= 0) {
            value = index + offset;
        } else {
            try {
                value = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is not a valid " + what);
            }
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " " + value + " is outside " + min + "-" + max);
        }
        return value;
    }
}
