package io.etcdoperator.operator.planner;

import io.etcdoperator.operator.reason.Reason;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which etcd versions the operator runs, and which version changes it rolls out. From etcd's upgrade guides: patch
 * changes either way, one minor up at a time from the guide's minimum patch, no minor downgrade, and no rolling
 * 3.4 to 3.5 with authentication on. See docs/operations.md#version-policy.
 */
public final class VersionPolicy {

    /** A semantic etcd version; only major.minor.patch is accepted. */
    public record EtcdVersion(int major, int minor, int patch) implements Comparable<EtcdVersion> {

        // at most 9 digits a number: each fits an int, so no version text can make parsing throw
        private static final Pattern FORM = Pattern.compile("^v?(\\d{1,9})\\.(\\d{1,9})\\.(\\d{1,9})$");

        public static Optional<EtcdVersion> parse(String text) {
            Matcher m = text == null ? null : FORM.matcher(text.strip());
            if (m == null || !m.matches()) {
                return Optional.empty();
            }
            return Optional.of(new EtcdVersion(
                    Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))));
        }

        public String minorLine() {
            return major + "." + minor;
        }

        @Override
        public int compareTo(EtcdVersion o) {
            int c = Integer.compare(major, o.major);
            c = c != 0 ? c : Integer.compare(minor, o.minor);
            return c != 0 ? c : Integer.compare(patch, o.patch);
        }

        @Override
        public String toString() {
            return major + "." + minor + "." + patch;
        }
    }

    /** Minor lines the operator renders flags for, each with the lowest patch etcd's guide allows a minor jump from. */
    static final Map<String, EtcdVersion> KNOWN = Map.of(
            "3.4", new EtcdVersion(3, 4, 0),
            "3.5", new EtcdVersion(3, 5, 32),
            "3.6", new EtcdVersion(3, 6, 11),
            "3.7", new EtcdVersion(3, 7, 0));

    private VersionPolicy() {}

    /** A version to create members with: known minor line, well-formed. */
    public static Optional<Refusal> checkRunnable(String version) {
        Optional<EtcdVersion> v = EtcdVersion.parse(version);
        if (v.isEmpty()) {
            return Optional.of(
                    new Refusal(Reason.UNSUPPORTED_VERSION, "spec.version '" + version + "' is not a version"));
        }
        if (!KNOWN.containsKey(v.get().minorLine())) {
            return Optional.of(new Refusal(
                    Reason.UNSUPPORTED_VERSION,
                    "etcd " + v.get() + " is not supported; the " + "operator runs 3.4, 3.5, 3.6 and 3.7"));
        }
        return Optional.empty();
    }

    /**
     * @param running the lowest version running among the voters (or the latched version when none is known): an
     *     interrupted upgrade can go back to it, since etcd moves the cluster version only once every member moved
     * @param authEnabled whether etcd authentication is on
     */
    public static Optional<Refusal> checkChange(String running, String target, boolean authEnabled) {
        Optional<Refusal> runnable = checkRunnable(target);
        if (runnable.isPresent()) {
            return runnable;
        }
        Optional<EtcdVersion> fromParsed = EtcdVersion.parse(running);
        if (fromParsed.isEmpty()) {
            return Optional.empty(); // nothing known to compare with: only runnability counts
        }
        EtcdVersion from = fromParsed.get();
        EtcdVersion to = EtcdVersion.parse(target).orElseThrow();
        if (from.major() != to.major()) {
            return refuse(from, to, "a major version change is not supported");
        }
        if (from.minor() == to.minor()) {
            return Optional.empty();
        }
        if (to.minor() < from.minor()) {
            return refuse(
                    from,
                    to,
                    "a minor downgrade is not a rolling change; restore a snapshot into a new " + from.major() + "."
                            + to.minor() + " cluster instead");
        }
        if (to.minor() > from.minor() + 1) {
            return refuse(
                    from,
                    to,
                    "etcd upgrades one minor version at a time; go to the latest " + from.major() + "."
                            + (from.minor() + 1) + " first");
        }
        EtcdVersion floor = KNOWN.get(from.minorLine());
        if (floor != null && from.compareTo(floor) < 0) {
            return refuse(
                    from,
                    to,
                    "etcd's upgrade guide requires " + floor + " or later before moving to " + to.minorLine()
                            + "; upgrade to the latest " + from.minorLine() + " first");
        }
        if (authEnabled && from.minorLine().equals("3.4") && to.minorLine().equals("3.5")) {
            return refuse(
                    from,
                    to,
                    "etcd does not support a rolling 3.4 to 3.5 upgrade with authentication enabled; "
                            + "take a snapshot and restore it into a new 3.5 cluster (docs/operations.md#upgrade-with-auth)");
        }
        return Optional.empty();
    }

    private static Optional<Refusal> refuse(EtcdVersion from, EtcdVersion to, String why) {
        return Optional.of(
                new Refusal(Reason.UNSUPPORTED_UPGRADE, "cannot change etcd " + from + " to " + to + ": " + why));
    }
}
