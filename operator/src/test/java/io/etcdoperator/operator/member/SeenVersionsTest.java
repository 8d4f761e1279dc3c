package io.etcdoperator.operator.member;

import static org.assertj.core.api.Assertions.assertThat;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.junit.jupiter.api.Test;

/** When a member pass may start on the caches: only once they hold what our last status write made, or later. */
class SeenVersionsTest {

    private static final ResourceID MEMBER = new ResourceID("demo-a", "ns");
    private static final ResourceID OTHER = new ResourceID("demo-b", "ns");

    @Test
    void noWriteOfOursSoAnyCachedVersionWillDo() {
        assertThat(new SeenVersions().caughtUp(MEMBER, "7")).isTrue();
    }

    @Test
    void aCacheOlderThanOurWriteMayLagIt() {
        SeenVersions seen = new SeenVersions();
        seen.wrote(MEMBER, "120");
        assertThat(seen.caughtUp(MEMBER, "119"))
                .as("the version our write replaced")
                .isFalse();
        assertThat(seen.caughtUp(MEMBER, "99"))
                .as("an integer, not a string: 99 < 120")
                .isFalse();
        assertThat(seen.caughtUp(MEMBER, "119"))
                .as("asking again changes nothing")
                .isFalse();
        assertThat(seen.caughtUp(OTHER, "119")).as("another member").isTrue();
    }

    @Test
    void theCacheAtOurWriteOrLaterHasSeenItAndEveryLaterVersionWillToo() {
        SeenVersions seen = new SeenVersions();
        seen.wrote(MEMBER, "120");
        assertThat(seen.caughtUp(MEMBER, "1000"))
                .as("the cluster controller wrote after us")
                .isTrue();
        assertThat(seen.caughtUp(MEMBER, "119"))
                .as("the entry went with the first sighting")
                .isTrue();

        seen.wrote(MEMBER, "120");
        assertThat(seen.caughtUp(MEMBER, "120")).isTrue();
    }

    @Test
    void theLastWriteCountsNotTheFirst() {
        SeenVersions seen = new SeenVersions();
        seen.wrote(MEMBER, "12");
        seen.wrote(MEMBER, "14");
        assertThat(seen.caughtUp(MEMBER, "13")).isFalse();
        assertThat(seen.caughtUp(MEMBER, "14")).isTrue();
    }

    @Test
    void versionsThatAreNotIntegersCountOnlyWhenEqual() {
        SeenVersions seen = new SeenVersions();
        seen.wrote(MEMBER, "b7");
        assertThat(seen.caughtUp(MEMBER, "c1")).isFalse();
        assertThat(seen.caughtUp(MEMBER, "900")).isFalse();
        assertThat(seen.caughtUp(MEMBER, "b7")).isTrue();
        seen.wrote(OTHER, "12");
        assertThat(seen.caughtUp(OTHER, "x")).isFalse();
        assertThat(seen.caughtUp(OTHER, null)).isFalse();
    }

    @Test
    void aMemberGoneExpectsNothing() {
        SeenVersions seen = new SeenVersions();
        seen.wrote(MEMBER, "12");
        seen.forget(MEMBER);
        assertThat(seen.caughtUp(MEMBER, "3")).isTrue();
    }
}
