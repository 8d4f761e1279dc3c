package io.etcdoperator.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** One benchmark quantity observed once per run; summarised as median and spread (min–max). */
public final class Measurement {

    private final String name;
    private final String unit;
    private final List<Double> values = new ArrayList<>();

    public Measurement(String name, String unit) {
        this.name = name;
        this.unit = unit;
    }

    public void add(double value) {
        values.add(value);
    }

    public String name() {
        return name;
    }

    public int count() {
        return values.size();
    }

    /** The middle value, or the mean of the two middle values for an even count. */
    public double median() {
        List<Double> sorted = sorted();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    public double min() {
        return sorted().getFirst();
    }

    public double max() {
        return sorted().getLast();
    }

    /** A Markdown table row: name, runs, median, min–max, with the unit on both numbers. */
    public String row() {
        if (values.isEmpty()) {
            return "| " + name + " | 0 | – | – |";
        }
        return String.format(
                Locale.ROOT,
                "| %s | %d | %s %s | %s–%s %s |",
                name,
                count(),
                format(median()),
                unit,
                format(min()),
                format(max()),
                unit);
    }

    private List<Double> sorted() {
        if (values.isEmpty()) {
            throw new IllegalStateException("no values for " + name);
        }
        return values.stream().sorted().toList();
    }

    private static String format(double value) {
        String pattern = value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f";
        return String.format(Locale.ROOT, pattern, value);
    }
}
