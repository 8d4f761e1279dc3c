package io.etcdoperator.api.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/** Assertions on the outcome of {@link CrdValidator#create} and {@link CrdValidator#update}. */
public final class Admission {

    private Admission() {}

    public static void assertAccepted(List<Violation> violations) {
        assertThat(violations).as("violations").isEmpty();
    }

    /** Exactly one violation, at this path, whose message contains the fragment. */
    public static void assertRejected(List<Violation> violations, String path, String messageFragment) {
        assertThat(violations).as("violations").singleElement().satisfies(violation -> {
            assertThat(violation.path()).as("path").isEqualTo(path);
            assertThat(violation.message()).as("message").contains(messageFragment);
        });
    }

    /** At least this violation; for objects that break a schema constraint and, through it, a rule as well. */
    public static void assertRejectedAmong(List<Violation> violations, String path, String messageFragment) {
        assertThat(violations).as("violations").anySatisfy(violation -> {
            assertThat(violation.path()).as("path").isEqualTo(path);
            assertThat(violation.message()).as("message").contains(messageFragment);
        });
    }
}
